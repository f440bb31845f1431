#!/usr/bin/env bash
# The power of a verdict (not a test): how often vmsuite calls a slowdown that is known to be
# there. For each workload and each slowdown s, K pairs: suite A as it is, then suite B with the
# whole suite in a cgroup whose CPU bandwidth is capped at (1 - s) of one CPU (cgroup v1
# cpu.cfs_quota_us, v2 cpu.max), judged by `vmsuite run ... --against A` (exit 1 = called bad)
# and by `vmsuite compare A B` (exit 1 = called a regression). The emulated machine pins the
# suite to one CPU, so the cap takes s of that CPU; a workload that does not keep its CPU busy
# (mmap001 waits for writeback, mtest01 at 256M uses ~93 % of it) slows down by less than s.
# So by default the cap is calibrated on each pair's suite A: a workload that used the CPU a
# fraction u of its elapsed time gets the quota u / (1 + s) of one CPU, which makes B take
# (1 + s) times A's elapsed time when the CPU is what it waits for (CALIBRATE=0: the plain
# (1 - s) cap). The slowdown actually achieved (mean elapsed of B / A) is printed beside each
# rate either way.
# Prints each detection rate with its 95 % Wilson interval, the mix of exit codes and the time
# spent. Needs root (the cgroup, the emulated machine). Run it on a quiet machine.
# Usage: scripts/bench-power.sh [--try] K [BUILD_DIR]
#   K >= 20 (--try allows fewer, to see that the script works; its rates mean nothing)
#   env: WORKLOADS (default "mtest01:bytes=256M mmap001:bytes=256M"), SLOWDOWNS (percent,
#        default "5 10 25"), RUNS (-n of each suite, default 5; "auto" for adaptive runs where
#        this vmsuite has them, with BUDGET for --budget), MACHINE (default hron2001),
#        CALIBRATE (1, the default: caps from suite A's CPU use; 0: caps of (1 - s)),
#        KEEP=1 keeps the result files
# Its files (results, the workloads' files) go to a new directory under TMPDIR (default /tmp,
# which must be a disk filesystem for mmap001); it and the cgroup are removed on every exit.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
try=0
if [ "${1:-}" = --try ]; then try=1; shift; fi
case ${1:-} in -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
k=${1:?usage: scripts/bench-power.sh [--try] K [BUILD_DIR]}
build=${2:-$top/build}
vms=$build/cli/vmsuite
machine=${MACHINE:-hron2001}
runs=${RUNS:-5}
read -ra workloads <<<"${WORKLOADS:-mtest01:bytes=256M mmap001:bytes=256M}"
read -ra slowdowns <<<"${SLOWDOWNS:-5 10 25}"
case $k in '' | *[!0-9]*) echo "bench-power: K must be a whole number, not '$k'" >&2; exit 64 ;; esac
if [ "$k" -lt 20 ] && [ "$try" -eq 0 ]; then
  echo "bench-power: K must be at least 20 for a rate worth quoting (--try runs fewer)" >&2
  exit 64
fi
for s in "${slowdowns[@]}"; do
  case $s in '' | *[!0-9]* | 0 | 0?*) echo "bench-power: a slowdown is a percentage 1-99, not '$s'" >&2; exit 64 ;; esac
  [ "$s" -lt 100 ] || { echo "bench-power: a slowdown is a percentage 1-99, not '$s'" >&2; exit 64; }
done
[ -x "$vms" ] || { echo "bench-power: no vmsuite at $vms (build first)" >&2; exit 66; }
[ "$(id -u)" -eq 0 ] || { echo "bench-power: needs root (the CPU cgroup)" >&2; exit 77; }

# The cgroup that caps the suite: v2 when /sys/fs/cgroup is the unified hierarchy, else the v1
# cpu controller's hierarchy.
period=100000
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  grep -qw cpu /sys/fs/cgroup/cgroup.controllers ||
    { echo "bench-power: the cgroup v2 hierarchy has no cpu controller" >&2; exit 77; }
  cg=/sys/fs/cgroup/vmsuite-bench-power.$$
  cg_set() { echo "$1 $period" >"$cg/cpu.max"; }
  cg_enable() { grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control; }
else
  root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ {print $2; exit}' /proc/mounts)
  if [ -z "$root" ] || [ ! -f "$root/cpu.cfs_quota_us" ]; then
    echo "bench-power: no cgroup v1 cpu controller is mounted" >&2
    exit 77
  fi
  cg=$root/vmsuite-bench-power.$$
  cg_set() { echo "$period" >"$cg/cpu.cfs_period_us"; echo "$1" >"$cg/cpu.cfs_quota_us"; }
  cg_enable() { :; }
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/vmsuite-bench-power.XXXXXX")
cleanup() {
  local t
  # the suite's processes have ended (or are ended here); then the cgroup can go
  if [ -d "$cg" ]; then
    while read -r t; do kill -TERM "$t" 2>/dev/null || true; done <"$cg/cgroup.procs" 2>/dev/null || true
    for t in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 1; done
  fi
  if [ "${KEEP:-0}" = 1 ]; then echo "bench-power: results kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
cg_enable
mkdir "$cg"

# capped QUOTA CMD...: CMD in the cgroup with the given quota (µs per period)
capped() {
  local quota=$1; shift
  cg_set "$quota"
  sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' capped "$cg" "$@"
}

echo "bench-power: K=$k pairs per cell, -n $runs, machine $machine, workloads ${workloads[*]}, slowdowns ${slowdowns[*]} %"
echo "bench-power: start load: $(uptime | sed 's/.*load average: //')"
start=$(date +%s)
summary=$work/summary.tsv
: >"$summary"
for wl in "${workloads[@]}"; do
  for s in "${slowdowns[@]}"; do
    quota=$(( period * (100 - s) / 100 ))
    cell_start=$(date +%s)
    for i in $(seq 1 "$k"); do
      spec=(-w "$wl" -n "$runs" --machine "$machine" --quiet --workdir "$work" --label power)
      if [ -n "${BUDGET:-}" ]; then spec+=(--budget "$BUDGET"); fi
      a=$work/a.json b=$work/b.json
      rm -f "$a" "$b"
      "$vms" run "${spec[@]}" -o "$a" 2>"$work/a.err" ||
        { echo "bench-power: suite A failed: $(tail -1 "$work/a.err")" >&2; exit 1; }
      if [ "${CALIBRATE:-1}" = 1 ]; then
        # u = CPU time / elapsed of A's runs; the quota u / (1 + s) of one CPU
        quota=$(python3 - "$a" "$s" "$period" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cpu = el = 0.0
for w in d["workloads"]:
    m = w["metrics"]
    for u, s_, e in zip(m["user_s"]["samples"], m["sys_s"]["samples"], m["elapsed_s"]["samples"]):
        if None not in (u, s_, e):
            cpu += u + s_
            el += e
u = min(1.0, cpu / el) if el > 0 else 1.0
print(max(1000, int(int(sys.argv[3]) * u / (1 + int(sys.argv[2]) / 100))))
PY
)
      fi
      ag=0
      capped "$quota" "$vms" run "${spec[@]}" -o "$b" --against "$a" 2>"$work/b.err" || ag=$?
      [ -s "$b" ] || { echo "bench-power: suite B failed: $(tail -1 "$work/b.err")" >&2; exit 1; }
      cmp=0
      "$vms" compare "$a" "$b" >"$work/c.txt" 2>&1 || cmp=$?
      got=$(python3 - "$a" "$b" <<'PY'
import json, sys
def mean_elapsed(path):
    d = json.load(open(path))
    xs = [x for w in d["workloads"] for x in w["metrics"]["elapsed_s"]["samples"]]
    return sum(xs) / len(xs)
print(f"{100 * (mean_elapsed(sys.argv[2]) / mean_elapsed(sys.argv[1]) - 1):.1f}")
PY
)
      printf '%s\t%s\t%s\t%s\t%s\n' "$wl" "$s" "$ag" "$cmp" "$got" >>"$summary"
      echo "$wl -$s %: pair $i: cap $((quota / 1000)) % of a CPU, --against exit $ag, compare exit $cmp, achieved slowdown +$got %"
    done
    echo "$wl -$s %: $(( $(date +%s) - cell_start )) s for $k pairs"
  done
done
echo "bench-power: end load: $(uptime | sed 's/.*load average: //'); $(( $(date +%s) - start )) s in all"
python3 - "$summary" <<'PY'
import collections, math, statistics, sys
def wilson(x, n, z=1.959963984540054):
    p = x / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, c - h), min(1.0, c + h)
cells = collections.OrderedDict()
for line in open(sys.argv[1]):
    wl, s, ag, cmp, got = line.rstrip("\n").split("\t")
    cells.setdefault((wl, s), []).append((int(ag), int(cmp), float(got)))
for (wl, s), rows in cells.items():
    n = len(rows)
    got = statistics.median(r[2] for r in rows)
    for name, col in (("run --against", 0), ("compare", 1)):
        hit = sum(1 for r in rows if r[col] == 1)
        lo, hi = wilson(hit, n)
        mix = collections.Counter(r[col] for r in rows)
        print(f"{wl:22s} cap -{s:>2s} % (achieved +{got:.1f} %) {name:14s} called: {hit}/{n} = "
              f"{100 * hit / n:.0f} % [95 % Wilson {100 * lo:.0f}, {100 * hi:.0f}]; exits {dict(sorted(mix.items()))}")
PY
