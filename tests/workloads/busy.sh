# Runs that know the machine was busy (issue 21), end to end: `vmsuite run` with a competitor
# pinned to the emulated machine's CPU records other_cpu_pct >= 8 and cpu_wait_pct >= 5 in
# every run, names the competitor, marks the runs disturbed in every report format; a run
# without it records both <= 2, unless other processes on this shared machine took that CPU,
# which the run must then name (a note, not a failure). Host profile, one emulated CPU, no
# drop_caches: nothing on the host changes; ctest holds the vmsuite_host lock.
# Kernel paths: anonymous faults (mtest01), the scheduler's accounting (/proc/stat,
# /proc/PID/stat, schedstat).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state
spin_pid=
trap '[ -n "$spin_pid" ] && kill "$spin_pid" 2>/dev/null; wait 2>/dev/null' EXIT
# ~1-2 s a run here: long enough for /proc/stat's 10 ms ticks (resolution_pct ~1)
# Its pid goes to suite.pid: busy-check.py fails when the suite itself is counted as another
# process (a vmsuite of a test running in parallel may be, rightly).
run() {
  "$VMSUITE" run --machine host --cpus 1 --no-drop-caches -q -w mtest01:bytes=1G "$@" &
  echo $! >"$VMS_TEST_TMP/suite.pid"
  wait $!
}

# check FILE MODE [COMPETITOR-PID]: the checks of tests/workloads/busy-check.py on FILE; one
# line per problem becomes a failure, NOTE/INFO lines are shown. A checker that cannot run
# (a Python error) is a failure too.
check() {
  local lines rc
  lines=$(python3 "$VMS_SOURCE_DIR/tests/workloads/busy-check.py" "$@" 2>&1)
  rc=$?
  [ "$rc" -eq 0 ] || fail "busy-check.py $2 exited $rc: $lines"
  while IFS= read -r line; do
    case $line in
    "") ;;
    NOTE* | INFO*) echo "$line" ;;
    *) fail "$2: $line" ;;
    esac
  done <<<"$lines"
  ok
}

# usage errors first: nothing runs
expect_exit 129 "--disturbed-above 0" -- "$VMSUITE" run --disturbed-above 0 -w mtest01 -o x.json
expect_exit 129 "--disturbed-above abc" -- "$VMSUITE" run --disturbed-above abc -w mtest01 -o x.json
expect_exit 129 "--disturbed-above 101" -- "$VMSUITE" run --disturbed-above 101 -w mtest01 -o x.json

# ---- quiet: no competitor of ours --------------------------------------------------------
expect_exit 0 "quiet run" -- run -n 2 -o quiet.json
cpu=$(json_get quiet.json 'd["protocol"]["machine"]["cpu_list"]')
[ "$(json_get quiet.json 'd["protocol"]["disturbed_above_pct"]')" = 5.0 ] && ok ||
  fail "protocol.disturbed_above_pct: $(json_get quiet.json 'd["protocol"].get("disturbed_above_pct")')"
check quiet.json quiet

# ---- busy: a competitor pinned to the emulated CPU, ~20 ms of every 70 ms ------------------
taskset -c "$cpu" python3 -c '
import time
while True:
    t = time.monotonic()
    while time.monotonic() - t < 0.02:
        pass
    time.sleep(0.05)' &
spin_pid=$!
sleep 0.5
expect_exit 0 "run beside a competitor" -- run -n 2 -o busy.json
kill "$spin_pid"
wait "$spin_pid" 2>/dev/null
spin=$spin_pid
spin_pid=
check busy.json busy "$spin"

# every run-report format says which runs were disturbed
expect_exit 0 "text report" -- "$VMSUITE" report busy.json
expect_in "$out" "disturbed: run 1 (other processes took" "text report"
expect_in "$out" "disturbed: run 2 (other processes took" "text report"
expect_in "$out" "Beside the workload per run: other processes" "text report"
expect_exit 0 "markdown report" -- "$VMSUITE" report --format markdown busy.json
expect_in "$out" "disturbed: run 2 (other processes took" "markdown report"
expect_exit 0 "html report" -- "$VMSUITE" report --format html -o busy.html busy.json
grep -qF "disturbed: run 2 (other processes took" busy.html && ok || fail "html report: no disturbed line"
expect_exit 0 "json report" -- "$VMSUITE" report --format json busy.json
[ "$(printf '%s' "$out" | python3 -c 'import json,sys; print([r["run"] for r in json.load(sys.stdin)["workloads"][0]["disturbed_runs"]])')" = "[1, 2]" ] &&
  ok || fail "json report: disturbed_runs: $out"

# a threshold above what the competitor took marks nothing
taskset -c "$cpu" python3 -c '
import time
while True:
    t = time.monotonic()
    while time.monotonic() - t < 0.02:
        pass
    time.sleep(0.05)' &
spin_pid=$!
expect_exit 0 "run with --disturbed-above 100" -- run -n 1 --disturbed-above 100 -o high.json
[ "$(json_get high.json 'd["workloads"][0]["runs"][0]["disturbed"]')" = False ] && ok ||
  fail "--disturbed-above 100 still marked the run disturbed"
[ "$(json_get high.json 'd["protocol"]["disturbed_above_pct"]')" = 100.0 ] && ok ||
  fail "--disturbed-above not recorded"
expect_exit 0 "text report of high.json" -- "$VMSUITE" report high.json
if printf '%s' "$out" | grep -q "^disturbed:"; then fail "a run not disturbed is listed"; else ok; fi
kill "$spin_pid"
wait "$spin_pid" 2>/dev/null
spin_pid=

# ---- a CPU quota is not a disturbance ------------------------------------------------------
# the whole suite in a cgroup v1 cpu controller with half a CPU: throttled time shows as
# run-queue wait, never as other processes' CPU
cpu_root=/sys/fs/cgroup/cpu
if [ "$(id -u)" != 0 ] || [ ! -w "$cpu_root/cgroup.procs" ] || [ ! -e "$cpu_root/cpu.cfs_quota_us" ]; then
  skip_rest "the CPU quota case needs root and a cgroup v1 cpu controller at $cpu_root"
fi
qcg=$cpu_root/vmsuite-test-busy-$$
mkdir "$qcg" || fail "cannot make $qcg"
trap '[ -n "$spin_pid" ] && kill "$spin_pid" 2>/dev/null; wait 2>/dev/null
  for p in $(cat "$qcg/cgroup.procs" 2>/dev/null); do echo "$p" >"$cpu_root/cgroup.procs"; done
  rmdir "$qcg" 2>/dev/null' EXIT
echo 100000 >"$qcg/cpu.cfs_period_us" && echo 50000 >"$qcg/cpu.cfs_quota_us" ||
  fail "cannot set the quota of $qcg"
expect_exit 0 "run under a CPU quota of half a CPU" -- sh -c 'echo $$ >"$1/cgroup.procs" && shift &&
  exec "$@"' sh "$qcg" "$VMSUITE" run --machine host --cpus 1 --no-drop-caches -q \
  -w mtest01:bytes=1G -n 2 -o quota.json
grep -q "^nr_throttled [1-9]" "$qcg/cpu.stat" && ok || fail "the quota never throttled: $(cat "$qcg/cpu.stat")"
check quota.json quota
finish
