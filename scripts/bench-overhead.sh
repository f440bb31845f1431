#!/usr/bin/env bash
# The cost of measuring: the same workload run bare (fork + wait4, no sampling) and under
# `vmsuite run --machine host` (no cgroup, like the bare run; 10 Hz sampling, vmstat/PSI/meminfo
# reads, result checkpoints), alternating,
# N runs each. Prints medians and the ratios vmsuite/bare for elapsed and system time, and the
# runner's own CPU time while the child ran (recorded per run as runs[].runner_cpu_s).
# Usage: scripts/bench-overhead.sh [BUILD_DIR] [SPEC] [RUNS]   (target: ratios <= 1.02)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
spec=${2:-mmap001:bytes=1G}
runs=${3:-7}
# outside the source tree (TMPDIR must be a disk filesystem), gone on every exit
work=$(mktemp -d "${TMPDIR:-/tmp}/vmsuite-bench-overhead.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP
bare=() ; under=()
run_bare() {
  sync
  bare+=("$("$build/bench/vmsuite-bare" "$spec" "$work")")
}
run_under() {
  sync
  "$build/cli/vmsuite" run --machine host -w "$spec" -n 1 --quiet --no-report --no-drop-caches --workdir "$work" -o "$work/r.json" 2>/dev/null
  under+=("$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d["workloads"][0]["metrics"]; print(m["elapsed_s"]["samples"][0], m["sys_s"]["samples"][0], d["workloads"][0]["runs"][0]["runner_cpu_s"], m["user_s"]["samples"][0] + m["sys_s"]["samples"][0])' "$work/r.json")")
}
for i in $(seq 1 "$runs"); do
  # alternate which goes first, so that neither always follows the other's teardown
  if [ $((i % 2)) -eq 1 ]; then run_bare; run_under; else run_under; run_bare; fi
done
python3 - "$spec" "$runs" "${bare[@]}" -- "${under[@]}" <<'PY'
import statistics, sys
spec, runs = sys.argv[1], int(sys.argv[2])
rest = sys.argv[3:]
cut = rest.index("--")
bare = [tuple(map(float, x.split())) for x in rest[:cut]]
under = [tuple(map(float, x.split())) for x in rest[cut + 1:]]
def med(v, i): return statistics.median(x[i] for x in v)
print(f"workload {spec}, {runs} runs each, alternating")
for i, name in ((0, "elapsed"), (1, "system")):
    b, u = med(bare, i), med(under, i)
    print(f"  {name:8s} bare median {b:8.3f} s   vmsuite median {u:8.3f} s   ratio {u / b:.3f}")
# the runner's own CPU while the child ran is the part of the cost that noise does not hide
runner = sum(x[2] for x in under)
elapsed = sum(x[0] for x in under)
child = sum(x[3] for x in under)
print(f"  runner CPU while measuring: {1000 * runner / elapsed:.2f} ms per second of run, "
      f"{100 * runner / child:.2f}% of the workload's own CPU")
print("  (elapsed/system ratios on a shared 2-core VM vary by tens of percent run to run;")
print("   use many runs, and read the runner-CPU line for the sampler's own cost)")
PY
