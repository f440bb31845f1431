# Inputs of `run` that cannot work are refused before anything runs, with nothing written:
# labels with control characters (usage error 129: they would end up in the default result
# file's name and in every report heading).
. "$(dirname "$0")/lib.sh"

small=(--machine host -w mtest01:bytes=1M -n 1 --no-drop-caches -q)

mkdir labels
for label in $'k\nl' $'k\e[31mred' $'k\tl' $'k\rl' $'k\x7f' $'k\xc2\x9bl'; do
  shown=$(printf '%q' "$label")
  expect_exit 129 "--label $shown" -- sh -c 'cd labels && exec "$@"' sh "$VMSUITE" run "${small[@]}" --label "$label"
  expect_in "$err" "--label needs a name without control characters" "--label $shown: message"
done
[ -z "$(ls -A labels)" ] && ok || fail "a refused label left files: $(ls -A labels | od -c | head -3)"
# printable non-ASCII is still a label
expect_exit 0 "--label with accents" -- "$VMSUITE" run "${small[@]}" --label "noyau-été" -o accents.json
[ "$(json_get accents.json 'd["label"]')" = "noyau-été" ] && ok || fail "the accented label was not kept"
finish
