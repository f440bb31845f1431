# One check of a result's values for every reader (vms_result_check_values, applied by the
# loader): a sample of 1e308 or a negative elapsed_s is no measurement, and report, compare and
# run --against all refuse it with the same reason, rather than report printing a 300-digit
# number and compare a change of "-3630 %".
. "$(dirname "$0")/lib.sh"

data=$VMS_SOURCE_DIR/tests/data
cp "$data/golden-result.json" good.json
# spoil FILE WORKLOAD METRIC VALUE: good.json with the first sample of that metric set to VALUE
spoil() {
  python3 - "$@" <<'PY'
import json, sys
out, wl, metric, value = sys.argv[1:5]
d = json.load(open("good.json"))
w = [w for w in d["workloads"] if w["name"] == wl][0]
w["metrics"][metric]["samples"][0] = float(value)
json.dump(d, open(out, "w"), indent=1)
PY
}
wl=$(json_get good.json "d['workloads'][0]['name']")
spoil huge.json "$wl" elapsed_s 1e308
spoil negative.json "$wl" elapsed_s -3630
spoil minor.json "$wl" minor_faults -1

expect_exit 0 "report of a good file" -- "$VMSUITE" report good.json
expect_exit 0 "compare of good files" -- "$VMSUITE" compare good.json good.json
for f in huge negative minor; do
  case $f in
    huge) why="$wl: elapsed_s: sample 1 is 1e+308, not a measurement (beyond 1e+12)" ;;
    negative) why="$wl: elapsed_s: sample 1 is -3630, not a measurement (negative)" ;;
    minor) why="$wl: minor_faults: sample 1 is -1, not a measurement (negative)" ;;
  esac
  expect_exit 128 "report $f" -- "$VMSUITE" report $f.json
  expect_in "$err" "cannot read '$f.json': $why" "report $f: reason"
  [ -z "$out" ] && ok || fail "report $f printed a report"
  expect_exit 2 "compare good $f" -- "$VMSUITE" compare good.json $f.json
  expect_in "$err" "cannot compare '$f.json': $why" "compare $f: reason"
  expect_exit 2 "compare $f good" -- "$VMSUITE" compare $f.json good.json
  expect_exit 129 "run --against $f" -- "$VMSUITE" run --machine host -w mtest01:bytes=1M -n 1 -q --against $f.json -o against-$f.json
  expect_in "$err" "--against '$f.json': $why" "run --against $f: reason"
done
finish
