# Golden-file test of the text report (labels, order, precision, spread, failed runs), and the
# JSON summary re-parses with the same means.
. "$(dirname "$0")/lib.sh"

data=$VMS_SOURCE_DIR/tests/data
expect_exit 0 "report golden" -- "$VMSUITE" report "$data/golden-result.json"
if [ "$out" = "$(cat "$data/golden-report.txt")" ]; then ok; else
  fail "text report differs from golden:"; diff <(echo "$out") "$data/golden-report.txt" >&2
fi
# the same with audio: the idle baseline in the header, the SPEC §8 Sound lines after the spread
expect_exit 0 "report golden with sound" -- "$VMSUITE" report "$data/golden-result-sound.json"
if [ "$out" = "$(cat "$data/golden-report-sound.txt")" ]; then ok; else
  fail "text report with sound differs from golden:"; diff <(echo "$out") "$data/golden-report-sound.txt" >&2
fi
expect_exit 0 "report -o" -- "$VMSUITE" report "$data/golden-result.json" -o rep.txt
cmp -s rep.txt "$data/golden-report.txt" && ok || fail "report -o differs"
expect_exit 0 "report json" -- "$VMSUITE" report "$data/golden-result.json" --format json
printf '%s' "$out" > sum.json
[ "$(json_get sum.json 'round(d["workloads"][0]["metrics"]["elapsed_s"]["mean"], 2)')" = 258.83 ] && ok || fail "json mean"
[ "$(json_get sum.json 'd["workloads"][1]["metrics"]["elapsed_s"]["n"]')" = 2 ] && ok || fail "json n excludes failed run"
finish
