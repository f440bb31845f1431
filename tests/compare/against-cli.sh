# `vmsuite run --against` and `compare --bisect`: the `git bisect run` exit codes 0 / 1 / 125
# (and 128 / 129 for errors), each from prepared baselines against a real small run on the host
# (minor_faults of mtest01 is the same in every run of one size, so a baseline with half or twice
# as many faults gives a certain verdict), and the verdict stored in the result (contract:
# verdict.baseline, exit, metrics, compare).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

run_small() { # OUT [ARGS...]: a small run on the host, quiet
  local o=$1
  shift
  "$VMSUITE" run --machine host -w mtest01:bytes=16M -n 3 -q --no-drop-caches -o "$o" "$@"
}

run_small real.json >out 2>err || skip_rest "cannot run mtest01 on the host here: $(tail -1 err)"
python3 - real.json <<'PY' || fail "prepare baselines"
import json, sys
real = json.load(open(sys.argv[1]))
def variant(name, fn):
    d = json.loads(json.dumps(real))
    d["label"] = name
    fn(d)
    json.dump(d, open(name + ".json", "w"))
def scale(f):
    def fn(d):
        m = d["workloads"][0]["metrics"]["minor_faults"]
        m["samples"] = [None if v is None else v * f for v in m["samples"]]
    return fn
def hard(d):
    d["fingerprint"]["cpu_count"]["value"] = 999
def nodata(d):
    m = d["workloads"][0]["metrics"]["minor_faults"]
    m["samples"] = [None for v in m["samples"]]
variant("fewer", scale(0.5))   # the new run has twice the faults: a regression
variant("more", scale(2.0))    # the new run has half the faults: an improvement
variant("hard", hard)          # another machine: not comparable
variant("nodata", nodata)      # no value: cannot tell
def noisy(d):
    m = d["workloads"][0]["metrics"]["minor_faults"]
    m["samples"] = [v * f for v, f in zip(m["samples"], (0.4, 1.0, 2.5))]
variant("noisy", noisy)        # log spread far above 50 %: unstable, no judgement
def busy(d):
    w = d["workloads"][0]
    m = w["metrics"]["elapsed_s"]
    # ten times real.json's: the new run is faster even when parallel tests slow it (at twice,
    # a loaded CI machine made it as slow as the baseline: "no change", good, exit 0)
    m["samples"] = [None if v is None else v * 10 for v in m["samples"]]
    w["metrics"]["other_cpu_pct"] = {"unit": "%", "better": "lower", "primary": False,
                                     "kind": "gauge", "samples": [96.0, 98.0, 97.0]}
    # runs that long: two clock ticks are 1 % of them (a short real run's resolution could
    # exceed 97 %, and compare counts no run disturbed below its resolution)
    for r, x in zip(w["runs"], (96.0, 98.0, 97.0)):
        r.setdefault("busy", {}).update(other_cpu_pct=x, resolution_pct=1.0)
variant("morehard", lambda d: (scale(2.0)(d), hard(d)))  # as more.json, on another machine
variant("busybase", busy)      # a baseline made while other processes took ~97 % of the CPU
PY

# compare --bisect on the prepared files alone (no run)
expect_exit 1 "bisect: regression" -- "$VMSUITE" compare --bisect --metric minor_faults fewer.json real.json
expect_exit 0 "bisect: improvement is good" -- "$VMSUITE" compare --bisect --metric minor_faults more.json real.json
expect_exit 125 "bisect: not comparable is skip" -- "$VMSUITE" compare --bisect --metric minor_faults hard.json real.json
expect_exit 2 "plain compare: not comparable stays 2" -- "$VMSUITE" compare --metric minor_faults hard.json real.json
expect_exit 125 "bisect: no data is skip" -- "$VMSUITE" compare --bisect --metric minor_faults nodata.json real.json
expect_exit 125 "bisect: an unstable deciding metric is skip" -- "$VMSUITE" compare --bisect --metric minor_faults noisy.json real.json
expect_in "$out" "unstable" "the unstable verdict is shown"
expect_exit 2 "plain compare: unstable is cannot tell" -- "$VMSUITE" compare --metric minor_faults noisy.json real.json
expect_exit 128 "bisect: a missing file stops the bisect" -- "$VMSUITE" compare --bisect real.json missing.json
expect_exit 129 "bisect: a usage error stops the bisect" -- "$VMSUITE" compare --bisect --metric no_such_metric real.json more.json
expect_in "$err" "no_such_metric" "the unknown metric is named"

# two baselines: the second from another machine is checked too, never pooled silently
expect_exit 0 "bisect: two good baselines" -- "$VMSUITE" compare --bisect --metric minor_faults more.json more.json -- real.json
expect_exit 125 "bisect: another machine as the baseline's second suite" -- "$VMSUITE" compare --bisect --metric minor_faults more.json morehard.json -- real.json
expect_in "$out" "HARD     morehard.json vs more.json: cpu_count" "the second suite's hard difference is listed"

# run --against: exit code and the stored verdict
# host_moved FILE: the stored comparison has a hard difference the test did not make (another
# process added swap, say, between the runs): the host changed under the test.
host_moved() {
  [ -s "$1" ] && json_get "$1" '" ".join(i["key"] for i in d["verdict"]["compare"]["environment"][0]
    if i["class"] == "hard" and i["key"] != "cpu_count")' | grep -q .
}
check_run() { # WANT BASELINE
  local want=$1 base=$2 o=new-$2 got=0
  run_small "$o" --against "$base" --metric minor_faults >out 2>err || got=$?
  err=$(cat err)
  if [ "$got" != "$want" ] && host_moved "$o"; then
    skip_rest "the host changed during the test: $(json_get "$o" '[i["key"] for i in d["verdict"]["compare"]["environment"][0] if i["class"] == "hard"]')"
  fi
  [ "$got" = "$want" ] && ok || fail "run --against $base: exit $got, want $want; stderr: $err"
  [ "$(json_get "$o" 'd["verdict"]["exit"]')" = "$want" ] && ok || fail "$o: stored exit is not $want"
  [ "$(json_get "$o" 'd["verdict"]["baseline"]')" = "['$base']" ] && ok || fail "$o: baseline"
  [ "$(json_get "$o" 'd["verdict"]["metrics"]')" = "['minor_faults']" ] && ok || fail "$o: metrics"
  [ "$(json_get "$o" 'd["verdict"]["compare"]["format"]')" = "vmsuite.compare/1" ] && ok ||
    fail "$o: compare document"
  expect_in "$err" "verdict against $base: exit $want" "$base: verdict note"
}
check_run 1 fewer.json
check_run 0 more.json
check_run 125 hard.json
check_run 125 nodata.json
# every baseline suite is checked: more.json alone is good, with morehard.json beside it a skip
got=0
run_small two.json --against more.json --against morehard.json --metric minor_faults >out 2>err || got=$?
[ "$got" = 125 ] && ok || fail "run --against more.json --against morehard.json: exit $got, want 125"
expect_in "$(cat err)" "side A has 2 suites" "advice on the suites per side"
# a baseline made on a busy machine: the new run's faster elapsed time is confounded (skip)
got=0
run_small busy-new.json --against busybase.json --metric elapsed_s >out 2>err || got=$?
# the disturbance explains the change only by how much busier BASE was: when parallel tests
# took half of the new run's CPU too, 2 x (97 - that) points no longer explain a tenfold
# change, and "good" is then the right verdict, so the test cannot judge confounding
new_busy=$(json_get busy-new.json \
  'sum(d["workloads"][0]["metrics"]["other_cpu_pct"]["samples"]) / 3')
if python3 -c "import sys; sys.exit(float(sys.argv[1]) <= 45)" "$new_busy"; then
  echo "note: the new run itself had ${new_busy} % of its CPU taken: confounding not judged"
else
  [ "$got" = 125 ] && ok || fail "run --against busybase.json: exit $got, want 125"
  expect_in "$(cat err)" "confounded" "the confounded change is named"
fi
[ "$(json_get busy-new.json 'd["verdict"]["compare"]["workloads"][0]["disturbance"][0]["disturbed"]')" = 3 ] &&
  ok || fail "busy-new.json: the stored verdict lacks the baseline's disturbance"
# the verdict lines are printed without -q
got=0
"$VMSUITE" run --machine host -w mtest01:bytes=16M -n 3 --no-drop-caches -o shown.json \
  --against fewer.json --metric minor_faults >out 2>err || got=$?
out=$(cat out)
[ "$got" != 1 ] && host_moved shown.json && skip_rest "the host changed during the test"
[ "$got" = 1 ] && ok || fail "run --against prints the verdict: exit $got, want 1"
expect_in "$out" "REGRESSION in 1 primary metric" "verdict headline"
expect_in "$out" "minor_faults" "verdict line names the metric"

# errors before anything runs: usage errors (129 stops a bisect), no result written
expect_exit 129 "missing baseline" -- run_small never1.json --against missing.json
[ ! -e never1.json ] && ok || fail "a result was written despite the bad baseline"
expect_exit 129 "--metric without --against" -- run_small never2.json --metric elapsed_s
expect_exit 129 "unknown --metric" -- run_small never3.json --against real.json --metric no_such_metric
[ ! -e never2.json ] && [ ! -e never3.json ] && ok || fail "a result was written despite a usage error"
finish
