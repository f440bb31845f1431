# OOM kills are counted per emulated machine. /proc/vmstat oom_kill counts kills in every
# cgroup on the host, so a run inside the emulated machine must not take another process's OOM
# kill elsewhere as its own (that read as "memload OOM-killed in 2 of 5 runs" while other tests
# OOM-killed in their small cgroups), and a run its own machine's OOM killer ends says so, with
# the machine's size. Two real runs: A (a small memload, 30 s) and, while A's workload runs, B in
# a machine of 16 MiB without swap whose mtest01 of 64 MiB its cgroup's OOM killer ends.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_rest "needs root (a memory cgroup)"
if "$VMSUITE" run --machine hron2001 --swap-file no -w mtest01:bytes=1M -n 1 -q -o probe.json \
  >/dev/null 2>probe.err; then :; else
  skip_rest "no memory cgroup here: $(cat probe.err)"
fi

# no swap anywhere in either machine: --swap-limit 0 (v1: memsw = memory), no swap file; no
# warm-up run, so that the first child is the measured run
noswap=(--machine hron2001 --swap-limit 0 --swap-file no --workdir "$VMS_TEST_TMP" -q --warmup 0)
"$VMSUITE" run "${noswap[@]}" --mem-limit 64M -w memload:bytes=8M:seconds=30 -n 1 -o a.json \
  >a.out 2>a.err &
a=$!
trap 'kill "$a" 2>/dev/null; wait "$a" 2>/dev/null' EXIT
wait_for 60 has_child "$a" && ok || fail "A's workload never started: $(cat a.err)"

# B has its own state directory: its own host lock, as another user's vmsuite would
expect_exit 1 "B, OOM-killed" -- env VMSUITE_STATE_DIR="$VMS_TEST_TMP/state-b" \
  "$VMSUITE" run "${noswap[@]}" --mem-limit 16M -w mtest01:bytes=64M -n 1 -o b.json
# B's kill must land inside A's run, or A checks nothing: A's child still runs (30 s is
# generous: B takes a second or two)
has_child "$a" && ok || fail "A's run ended before B's OOM kill: nothing to check in A"

b_run='d["workloads"][0]["runs"][0]'
[ "$(json_get b.json "${b_run}[\"oom_killed\"]")" = True ] && ok ||
  fail "B: oom_killed $(json_get b.json "${b_run}[\"oom_killed\"]"), want True"
[ "$(json_get b.json "${b_run}[\"cgroup\"][\"oom_kill\"]")" -ge 1 ] && ok ||
  fail "B: its cgroup counted no OOM kill"
reason=$(json_get b.json "${b_run}[\"reason\"]")
expect_in "$reason" "killed by the memory cgroup's OOM killer" "B: the reason names the OOM killer"
expect_in "$reason" "has 16 MiB RAM and no swap" "B: the reason gives the machine's size"
expect_in "$err" "run 1/1 failed: killed by the memory cgroup's OOM killer" \
  "B: the warning names the OOM killer"

wait "$a"
code=$?
trap - EXIT
[ "$code" -eq 0 ] && ok || fail "A: exit $code, want 0; $(cat a.err)"
a_run='d["workloads"][0]["runs"][0]'
[ "$(json_get a.json "${a_run}[\"status\"]")" = ok ] && ok || fail "A: status not ok"
[ "$(json_get a.json "${a_run}[\"oom_killed\"]")" = False ] && ok || fail "A: marked oom_killed"
# the host-wide counter did see B's kill during A's run ...
[ "$(json_get a.json "${a_run}[\"vmstat_delta\"][\"oom_kill\"]")" -ge 1 ] && ok ||
  fail "A: /proc/vmstat oom_kill did not grow during A's run, so B's kill was not inside it"
# ... but none of A's figures counts it as A's
[ "$(json_get a.json "${a_run}[\"cgroup\"][\"oom_kill\"]")" = 0 ] && ok ||
  fail "A: its cgroup counted an OOM kill"
[ "$(json_get a.json '"oom_kill" in d["workloads"][0]["metrics"]')" = False ] && ok ||
  fail "A: the host-wide oom_kill is recorded as a metric of a run in the emulated machine: $(json_get a.json 'd["workloads"][0]["metrics"]["oom_kill"]["samples"]')"
[ "$(json_get a.json 'd["workloads"][0]["metrics"]["cgroup_oom_kill"]["samples"]')" = "[0.0]" ] &&
  ok || fail "A: cgroup_oom_kill $(json_get a.json 'd["workloads"][0]["metrics"]["cgroup_oom_kill"]')"
finish
