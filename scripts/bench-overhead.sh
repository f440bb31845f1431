#!/usr/bin/env bash
# The cost of measuring: the same workload run bare (fork + wait4, no sampling) and under
# `vmsuite run` (10 Hz sampling, vmstat/PSI/meminfo reads, result checkpoints), alternating,
# N runs each. Prints medians and the ratios vmsuite/bare for elapsed and system time.
# Usage: scripts/bench-overhead.sh [BUILD_DIR] [SPEC] [RUNS]   (target: ratios <= 1.02)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
spec=${2:-mmap001:bytes=1G}
runs=${3:-7}
work=$(mktemp -d "$top/.bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
bare=() ; under=()
for i in $(seq 1 "$runs"); do
  sync
  bare+=("$("$build/bench/vmsuite-bare" "$spec" "$work")")
  sync
  "$build/cli/vmsuite" run -w "$spec" -n 1 --quiet --no-drop-caches --workdir "$work" -o "$work/r.json"
  under+=("$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["workloads"][0]["metrics"]; print(m["elapsed_s"]["samples"][0], m["sys_s"]["samples"][0])' "$work/r.json")")
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
PY
