#!/usr/bin/env bash
# The false-alarm rate of a verdict: K A/A pairs (the same kernel and build, two suites one
# after the other, by default `-w mtest01:bytes=384M -w mmap001:bytes=512M -n 5` on the 2001
# machine profile: sizes whose runs vary by <= 10 % on a quiet VM), each judged three ways: `vmsuite compare A B` (exit 1 = a false regression),
# `vmsuite run ... --against A` for B (exit 1 = a false "bad" in a bisect), and, for pairs taken
# two by two, `compare A1 A2 -- B1 B2` (suites per side: the drift between suites counts).
# Prints each rate with its 95 % Wilson interval; the target is <= 5 % of the pairs exiting 1.
# Every figure depends on the machine's quietness: the load (uptime) is printed at the start
# and the end. Needs root for the hron2001 cgroup (else pass --machine host in MACHINE).
# Usage: scripts/bench-aa.sh [--try] K [BUILD_DIR]
#   K >= 20 (--try allows fewer, to see that the script works; its rates mean nothing)
#   env: WORKLOADS (default "mtest01:bytes=384M mmap001:bytes=512M"), MACHINE (default
#        hron2001), RUNS (-n of every suite, default 5; "auto" for adaptive
#        runs, with BUDGET for --budget), KEEP=1 keeps the result files (printed directory)
# Besides the exit codes it prints the verdict mix of `compare A B` (no change / no regression
# shown / cannot tell / not comparable / regression).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
try=0
if [ "${1:-}" = --try ]; then try=1; shift; fi
k=${1:?usage: scripts/bench-aa.sh [--try] K [BUILD_DIR]}
build=${2:-$top/build}
vms=$build/cli/vmsuite
machine=${MACHINE:-hron2001}
case $k in '' | *[!0-9]*) echo "bench-aa: K must be a whole number, not '$k'" >&2; exit 64 ;; esac
if [ "$k" -lt 20 ] && [ "$try" -eq 0 ]; then
  echo "bench-aa: K must be at least 20 for a rate worth quoting (--try runs fewer)" >&2
  exit 64
fi
[ -x "$vms" ] || { echo "bench-aa: no vmsuite at $vms (build first)" >&2; exit 66; }
# outside the source tree (TMPDIR must be a disk filesystem for mmap001), gone on every exit
work=$(mktemp -d "${TMPDIR:-/tmp}/vmsuite-bench-aa.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "bench-aa: results kept in $work"; else trap 'rm -rf "$work"' EXIT; fi
trap 'exit 130' INT TERM HUP
runs=${RUNS:-5}
read -ra workloads <<<"${WORKLOADS:-mtest01:bytes=384M mmap001:bytes=512M}"
spec=()
for wl in "${workloads[@]}"; do spec+=(-w "$wl"); done
spec+=(-n "$runs" --machine "$machine" --quiet --workdir "$work")
if [ -n "${BUDGET:-}" ]; then spec+=(--budget "$BUDGET"); fi
echo "bench-aa: $k A/A pairs, ${spec[*]}; start load: $(uptime | sed 's/.*load average: //')"
cmp_rc=() ; ag_rc=() ; outcome=()
for i in $(seq 1 "$k"); do
  "$vms" run "${spec[@]}" --label aa -o "$work/a$i.json" 2>"$work/a$i.err" ||
    { echo "bench-aa: suite A$i failed: $(tail -1 "$work/a$i.err")" >&2; exit 1; }
  rc=0
  "$vms" run "${spec[@]}" --label aa -o "$work/b$i.json" --against "$work/a$i.json" \
    2>"$work/b$i.err" || rc=$?
  [ -s "$work/b$i.json" ] || { echo "bench-aa: suite B$i failed: $(tail -1 "$work/b$i.err")" >&2; exit 1; }
  ag_rc+=("$rc")
  rc=0
  "$vms" compare "$work/a$i.json" "$work/b$i.json" >"$work/c$i.txt" 2>&1 || rc=$?
  cmp_rc+=("$rc")
  "$vms" compare --format json "$work/a$i.json" "$work/b$i.json" >"$work/c$i.json" 2>/dev/null || true
  outcome+=("$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["files"][1]["outcome"].replace(" ", "_"))' "$work/c$i.json" 2>/dev/null || echo error)")
  echo "pair $i: compare exit ${cmp_rc[-1]}, --against exit ${ag_rc[-1]}$(grep -E '^  .* (regression|improvement)' "$work/c$i.txt" | sed -E 's/ +/ /g; s/^/; /' | tr '\n' ' ')"
done
grp_rc=()
for i in $(seq 2 2 "$k"); do
  rc=0
  "$vms" compare "$work/a$((i - 1)).json" "$work/a$i.json" -- "$work/b$((i - 1)).json" \
    "$work/b$i.json" >"$work/g$i.txt" 2>&1 || rc=$?
  grp_rc+=("$rc")
  grep -A30 '^Drift between suites' "$work/g$i.txt" | grep -E 'elapsed_s' | head -2 |
    sed "s/^/pairs $((i - 1))+$i: /" || true
done
echo "bench-aa: end load: $(uptime | sed 's/.*load average: //')"
python3 - "${cmp_rc[*]}" "${ag_rc[*]}" "${grp_rc[*]:-}" "${outcome[*]}" <<'PY'
import math, sys
def wilson(x, n, z=1.959963984540054):
    if n == 0:
        return float("nan"), float("nan")
    p = x / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, c - h), min(1.0, c + h)
for name, codes in (("compare A B", sys.argv[1]), ("run --against A", sys.argv[2]),
                    ("compare A1 A2 -- B1 B2", sys.argv[3])):
    rc = [int(x) for x in codes.split()]
    n, bad = len(rc), sum(1 for x in rc if x == 1)
    other = {c: rc.count(c) for c in sorted(set(rc)) if c != 1}
    lo, hi = wilson(bad, n)
    if n:
        print(f"{name:24s} false alarms (exit 1): {bad}/{n} = {100 * bad / n:.1f}% "
              f"[95% Wilson {100 * lo:.1f}, {100 * hi:.1f}]; other exits {other}")
    else:
        print(f"{name:24s} no comparisons (needs K >= 2)")
mix = sys.argv[4].split()
if mix:
    parts = []
    for v in ("no_change", "no_regression_shown", "cannot_tell", "not_comparable", "regression",
              "error"):
        if mix.count(v):
            lo, hi = wilson(mix.count(v), len(mix))
            parts.append(f"{v.replace('_', ' ')} {mix.count(v)}/{len(mix)} [{100 * lo:.0f}, {100 * hi:.0f}]")
    print("compare A B verdicts:    " + "; ".join(parts))
PY
