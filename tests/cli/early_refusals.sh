# Inputs of `run` that cannot work are refused before anything runs, with nothing written:
# labels with control characters (usage error 129: they would end up in the default result
# file's name and in every report heading); an output file or a --swap-dir where no file can be
# created (/proc, a regular file, a read-only directory: 128). The read-only directory is
# immutable (chattr +i) as root, mode 555 otherwise; the trap makes it removable again.
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

# where no file can be made: refused before the suite (which as root would take the host lock,
# make a memory cgroup and a swap file first)
data=$VMS_SOURCE_DIR/tests/data
mkdir ro
trap 'chattr -i "$VMS_TEST_TMP/ro" 2>/dev/null; chmod 755 "$VMS_TEST_TMP/ro" 2>/dev/null' EXIT
if [ "$(id -u)" = 0 ]; then
  chattr +i ro 2>/dev/null || rmdir ro
else
  chmod 555 ro
fi
touch afile
# one_line WHAT: the refusal is all that was said (no note of a machine or swap file set up,
# no "the result could not be written" after a suite)
one_line() { [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || fail "$1: more than the refusal: $err"; }
runs=(-w mtest01:bytes=1M -n 1 --no-drop-caches -q)
expect_exit 128 "run -o /proc/x.json" -- "$VMSUITE" run --machine host "${runs[@]}" -o /proc/x.json
expect_in "$err" "cannot write result to '/proc/x.json'" "run -o /proc/x.json: message"
one_line "run -o /proc/x.json"
expect_exit 128 "report -o /proc/x.txt" -- "$VMSUITE" report "$data/golden-result.json" -o /proc/x.txt
expect_in "$err" "cannot write '/proc/x.txt'" "report -o /proc/x.txt: message"
expect_exit 128 "--swap-dir a regular file" -- "$VMSUITE" run "${runs[@]}" --swap-dir afile -o s1.json
expect_in "$err" "cannot use swap directory 'afile': Not a directory" "--swap-dir a file: message"
one_line "--swap-dir a file"
if [ -d ro ]; then
  expect_exit 128 "--swap-dir read-only" -- "$VMSUITE" run "${runs[@]}" --swap-dir ro -o s2.json
  expect_in "$err" "cannot use swap directory 'ro': " "--swap-dir read-only: message"
  one_line "--swap-dir read-only"
  expect_exit 128 "run -o into a read-only directory" -- "$VMSUITE" run --machine host "${runs[@]}" -o ro/x.json
  expect_in "$err" "cannot write result to 'ro/x.json'" "-o read-only: message"
  [ -z "$(ls -A ro)" ] && ok || fail "files in the read-only directory: $(ls -A ro)"
else
  echo "note: no immutable directory here (chattr +i): the read-only cases are left out"
fi
for f in s1.json s2.json; do [ ! -e $f ] && ok || fail "$f was written"; done
if ls -A | grep -q '^\.vmsuite-try-'; then fail "a trial file was left: $(ls -A)"; else ok; fi
finish
