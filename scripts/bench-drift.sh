#!/usr/bin/env bash
# Drift between suites: N suites of one plan back to back, then how much their means differ
# beside what the runs inside each suite promise. A verdict between two single suites (compare
# A B, run --against A) counts only the run-to-run spread; when suites of the same kernel differ
# by more than that, the difference of two suites carries this drift too, and the false-alarm
# rate of single-suite comparisons rises with it (docs/compare.md, Drift between suites).
# Prints each suite's mean, cv, lag-1 autocorrelation of its runs, other_cpu_pct and steal_pct,
# then the sd of the suite means (log scale, %), the mean within-suite standard error, and their
# ratio. Needs what `vmsuite run` needs (root for hron2001). Run it on a quiet machine.
# Usage: scripts/bench-drift.sh [--try] N [BUILD_DIR]
#   N >= 10 suites (--try allows fewer); env: WORKLOAD (default mtest01:bytes=384M), RUNS (-n of
#   each suite, default 20), MACHINE (default hron2001), KEEP=1 keeps the result files
# Its files go to a new directory under TMPDIR (default /tmp, a disk filesystem), removed on
# every exit.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
try=0
if [ "${1:-}" = --try ]; then try=1; shift; fi
case ${1:-} in -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
n=${1:?usage: scripts/bench-drift.sh [--try] N [BUILD_DIR]}
build=${2:-$top/build}
vms=$build/cli/vmsuite
case $n in '' | *[!0-9]*) echo "bench-drift: N must be a whole number, not '$n'" >&2; exit 64 ;; esac
if [ "$n" -lt 10 ] && [ "$try" -eq 0 ]; then
  echo "bench-drift: N must be at least 10 suites for an sd worth quoting (--try runs fewer)" >&2
  exit 64
fi
[ -x "$vms" ] || { echo "bench-drift: no vmsuite at $vms (build first)" >&2; exit 66; }
work=$(mktemp -d "${TMPDIR:-/tmp}/vmsuite-bench-drift.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "bench-drift: results kept in $work"; else trap 'rm -rf "$work"' EXIT; fi
trap 'exit 130' INT TERM HUP
wl=${WORKLOAD:-mtest01:bytes=384M}
echo "bench-drift: $n suites of -w $wl -n ${RUNS:-20} --machine ${MACHINE:-hron2001}; start load: $(uptime | sed 's/.*load average: //')"
for i in $(seq 1 "$n"); do
  "$vms" run -w "$wl" -n "${RUNS:-20}" --machine "${MACHINE:-hron2001}" --quiet --workdir "$work" \
    -o "$work/s$i.json" >/dev/null 2>"$work/s$i.err" ||
    { echo "bench-drift: suite $i failed: $(tail -1 "$work/s$i.err")" >&2; exit 1; }
done
echo "bench-drift: end load: $(uptime | sed 's/.*load average: //')"
python3 - "$work" "$n" <<'PY'
import json, math, statistics as st, sys
means, ses, acs = [], [], []
for i in range(1, int(sys.argv[2]) + 1):
    d = json.load(open(f"{sys.argv[1]}/s{i}.json"))
    w = d["workloads"][0]
    m = w["metrics"]
    x = [math.log(v) for v in m["elapsed_s"]["samples"] if v]
    mu = st.mean(x)
    ac = sum((x[j] - mu) * (x[j + 1] - mu) for j in range(len(x) - 1)) / sum((v - mu) ** 2 for v in x)
    means.append(mu)
    ses.append(st.stdev(x) / math.sqrt(len(x)))
    acs.append(ac)
    def avg(k):
        v = [s for s in m.get(k, {}).get("samples", []) if s is not None]
        return st.mean(v) if v else float("nan")
    print(f"{d['start_time'][11:19]} suite {i:2d}: n {len(x)}, mean {math.exp(mu):.4f} s, "
          f"cv {100 * st.stdev(x):.1f} %, lag-1 autocorrelation {ac:+.2f}, "
          f"other_cpu_pct {avg('other_cpu_pct'):.2f}, steal_pct {avg('steal_pct'):.2f}")
sd, se = st.stdev(means), st.mean(ses)
print(f"sd of the suite means {100 * sd:.2f} % (log scale); mean within-suite standard error "
      f"{100 * se:.2f} %; ratio {sd / se:.1f} (1 = no drift beyond the runs' spread); mean lag-1 "
      f"autocorrelation {st.mean(acs):+.2f}")
PY
