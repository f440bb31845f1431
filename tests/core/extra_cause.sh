# A gap cause is one row of the cause table (core/metric.c): the build vmsuite-extra-rows adds
# the row `test_extra` (compile definition VMS_TEST_EXTRA_CAUSE; its other extra row, a
# host-state kind, is test_extra_hostkind's) and nothing else that shows here, and this
# finds it in `vmsuite help probe`, in the HTML report (stylesheet rule, hatch pattern, band,
# hover text and legend) and in compare's causes line. The ordinary vmsuite must not show it.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"
: "${VMSUITE_EXTRA_CAUSE:?run me through ctest}"
X=$VMSUITE_EXTRA_CAUSE

expect_exit 0 "help probe" -- "$X" help probe
expect_in "$out" "unexplained, probe_died, test_extra." "help probe lists the extra cause"
expect_exit 0 "help probe (ordinary build)" -- "$VMSUITE" help probe
if printf '%s' "$out" | grep -q test_extra; then fail "the ordinary build knows test_extra"; else ok; fi

# a result whose first timeline gap is a test_extra one, named by delay accounting
python3 "$VMS_SOURCE_DIR/tests/html/make-result.py" --base \
  "$VMS_SOURCE_DIR/tests/data/golden-result.json" --out base.json --audio --gaps 3 ||
  fail "make-result"
python3 - <<'PY' || fail "making extra.json"
import json
d = json.load(open("base.json"))
w = next(w for w in d["workloads"] if any(r.get("audio", {}).get("gaps") for r in w["runs"]))
for r in w["runs"]:
    a = r.get("audio") or {}
    if not a.get("gaps"):
        continue
    g = a["gaps"][0]
    g["cause"] = "test_extra"
    g["delay_ms"] = 41.0
    g.setdefault("evidence", {})["test_extra_ms"] = 41.0
    a.setdefault("causes", {})["test_extra"] = 7
# compare shows the idle baseline's causes: give it one gap of the extra cause too
d["audio"]["baseline"]["detail"].setdefault("causes", {})["test_extra"] = 1
json.dump(d, open("extra.json", "w"))
PY

expect_exit 0 "report -f html" -- "$X" report extra.json --format html -o extra.html
html=$(cat extra.html 2>/dev/null)
expect_in "$html" ".gap-test_extra{fill:url(#pat-test_extra);stroke:#123456}" "stylesheet rule"
expect_in "$html" '<pattern id="pat-test_extra" width="3"' "hatch pattern"
expect_in "$html" 'class="gap gap-test_extra"' "a band of the extra cause"
expect_in "$html" ": test_extra (late" "the band's hover text names it"
expect_in "$html" ", test extra 41 ms)" "the hover text lists its delay by its evidence key"
expect_in "$html" '>test_extra</text>' "the legend names it"

# compare: the baseline's causes line, in text, JSON and HTML
expect_exit 0 "compare" -- "$X" compare base.json extra.json --exit-zero
expect_in "$out" "gaps caused by: unexplained 1, test_extra 1" "compare's causes line"
expect_exit 0 "compare -f json" -- "$X" compare base.json extra.json --exit-zero -f json
expect_in "$out" "unexplained 1, test_extra 1" "compare's json causes line"
expect_exit 0 "compare -f html" -- "$X" compare base.json extra.json --exit-zero -f html
expect_in "$out" "unexplained 1, test_extra 1" "compare's html causes line"
# the ordinary build ignores the cause it does not know
expect_exit 0 "compare (ordinary build)" -- "$VMSUITE" compare base.json extra.json --exit-zero
if printf '%s' "$out" | grep -q test_extra; then fail "the ordinary build shows test_extra"; else ok; fi
finish
