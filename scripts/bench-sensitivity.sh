#!/usr/bin/env bash
# How sensitive the audio probe's ear is (not a test): pairs of conditions known to differ for
# the player, each run N times under a load, then `vmsuite compare`; prints the verdicts for the
# rating, underruns, the continuous metric (headroom_p1_ms) and the p99 wake-up lateness, and
# whether the pair's known difference was called (a verdict in the expected direction on one of
# them). Pairs (BASE -> OTHER, expected):
#   cpus     two CPUs -> one CPU (--cpus 2 / --cpus 1)               worse
#   shield   plain player -> --mlock --rt                            better
#   presets  --latency 2001 -> desktop, desktop -> pro               worse
# Loads ("plans"):
#   memload  -w memload -w mmap001 (the thrashing workload; skipped with a message when this
#            vmsuite has none: `vmsuite list` shows it)
#   2001     the default plan (mmap001, mtest01) on the default machine
#   quick    small mmap001 and mtest01 on the host machine: a check that the script works,
#            not a measurement of the ear
# Root is needed for the emulated machine, --rt and --mlock (without it the shield pair and the
# hron2001 machine are skipped, with a message). Run it on a quiet machine: the verdicts compare
# timing. Results stay in OUT_DIR (default: a new directory under /tmp); the workloads' files
# (and, as root without host swap, the emulated machine's temporary swap file) go to --workdir
# (default: OUT_DIR; it must be on a disk filesystem).
# usage: scripts/bench-sensitivity.sh [-n RUNS] [-o OUT_DIR] [--workdir DIR]
#            [--plans memload,2001,quick] [--pairs cpus,shield,presets] [--baseline S] [BUILD_DIR]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
runs=5
out=
plans=memload,2001
pairs=cpus,shield,presets
baseline=5
workdir=
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--plans) plans=$2; shift 2 ;;
	--pairs) pairs=$2; shift 2 ;;
	--baseline) baseline=$2; shift 2 ;;
	--workdir) workdir=$2; shift 2 ;;
	-h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "bench-sensitivity: unknown option '$1' (see --help)" >&2; exit 64 ;;
	*) break ;;
	esac
done
build=${1:-$src/build}
vmsuite=$build/cli/vmsuite
[ -x "$vmsuite" ] || { echo "bench-sensitivity: $vmsuite is missing; build vmsuite first" >&2; exit 1; }
case $runs in '' | *[!0-9]* | 0 | 1) echo "bench-sensitivity: -n wants 2 or more runs, not '$runs'" >&2; exit 64 ;; esac
out=${out:-$(mktemp -d /tmp/vmsuite-sensitivity.XXXXXX)}
mkdir -p "$out"
workdir=${workdir:-$out}
root=0
[ "$(id -u)" = 0 ] && root=1
echo "bench-sensitivity: $runs runs per condition, results in $out, work files in $workdir"
echo "host: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

# plan NAME: the workload options of a load, or nothing (and a message) when it cannot run here
plan_args() {
	case $1 in
	memload)
		if ! "$vmsuite" list | grep -q '^memload '; then
			echo "  (skipped: this vmsuite has no memload workload; see \`vmsuite list\`)" >&2
			return 1
		fi
		echo "-w memload -w mmap001" ;;
	2001) echo "" ;;
	quick) echo "--machine host -w mmap001:bytes=128M -w mtest01:bytes=128M" ;;
	*) echo "bench-sensitivity: unknown plan '$1'" >&2; exit 64 ;;
	esac
}

# pair NAME: lines "LABEL|OPTIONS" for BASE then OTHER(s), and the expected change of the others
pair_conditions() {
	case $1 in
	cpus)
		if [ "$(nproc)" -lt 2 ]; then
			echo "  (skipped: one CPU vs two needs a host with two CPUs)" >&2
			return 1
		fi
		printf '%s\n' "cpus2|--cpus 2" "cpus1|--cpus 1" ;;
	shield)
		if [ $root = 0 ]; then
			echo "  (skipped: --rt and --mlock need root)" >&2
			return 1
		fi
		printf '%s\n' "plain|" "mlock-rt|--mlock --rt" ;;
	presets) printf '%s\n' "lat2001|--latency 2001" "desktop|--latency desktop" "pro|--latency pro" ;;
	*) echo "bench-sensitivity: unknown pair '$1'" >&2; exit 64 ;;
	esac
}

expected() { # the direction the other side of a pair is known to go
	case $1 in shield) echo better ;; *) echo worse ;; esac
}

called_total=0
pairs_total=0
summary=()
IFS=, read -r -a plan_list <<<"$plans"
IFS=, read -r -a pair_list <<<"$pairs"
for plan in "${plan_list[@]}"; do
	echo
	echo "== load: $plan"
	wargs=$(plan_args "$plan") || continue
	for pair in "${pair_list[@]}"; do
		conds=$(pair_conditions "$pair") || continue
		files=()
		labels=()
		while IFS='|' read -r label opts; do
			f=$out/$plan-$pair-$label.json
			echo "-- $plan/$pair: $label ($runs runs${opts:+, $opts})"
			# shellcheck disable=SC2086 # word splitting of the option lists is intended
			"$vmsuite" run $wargs -n "$runs" --with-audio --idle-seconds "$baseline" $opts \
				--workdir "$workdir" \
				--label "$plan $pair $label" -q -o "$f" --overwrite ||
				echo "   (vmsuite run exited $?; its result file is compared as it is)"
			# a failed run ruins the comparison: say which, and whether the emulated
			# machine's OOM killer ended it (runs[].oom_killed counts its own cgroup's kills
			# only; /proc/vmstat oom_kill also counts other cgroups' on this host)
			[ -f "$f" ] && python3 - "$f" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
parts = []
for w in doc["workloads"]:
    runs = w["runs"]
    bad = [r for r in runs if r.get("status") == "failed"]
    oom = sum(1 for r in bad if r.get("oom_killed"))
    parts.append(f"{w['name']} {len(bad)}/{len(runs)}" + (f" ({oom} OOM-killed)" if oom else ""))
    for r in bad:
        print(f"   failed: {w['name']} run {r.get('index')}: {r.get('reason')}")
print("   failed runs: " + ", ".join(parts))
PY
			files+=("$f")
			labels+=("$label")
		done <<<"$conds"
		# each step of the pair: BASE -> OTHER, BASE = the previous condition
		for ((i = 1; i < ${#files[@]}; i++)); do
			cmp=$out/$plan-$pair-${labels[i - 1]}-vs-${labels[i]}.compare.json
			# the conditions differ on purpose (CPUs, geometry, rt): --ignore-hard-differences past those facts
			"$vmsuite" compare "${files[i - 1]}" "${files[i]}" -f json --exit-zero --ignore-hard-differences -o "$cmp" \
				--overwrite || { echo "   (compare failed)"; continue; }
			pairs_total=$((pairs_total + 1))
			verdict=$(python3 - "$cmp" "$(expected "$pair")" "${labels[i - 1]}" "${labels[i]}" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
want, base, other = sys.argv[2], sys.argv[3], sys.argv[4]
show = ("sound_rating", "underruns", "headroom_p1_ms", "wake_p99_ms")
# a metric "got worse" when it changed against its better direction
bad = {"regression", "probably regression"}
good = {"improvement", "probably improvement"}
called = False
print(f"   {base} -> {other} (expected: {want})")
for w in doc["workloads"]:
    for m in w["metrics"]:
        if m["name"] not in show:
            continue
        o = m["others"][0]
        v = o.get("verdict", "missing")
        ch = o.get("change_pct")
        chs = f"{ch:+8.1f} %" if isinstance(ch, (int, float)) else "     n/a  "
        hit = (want == "worse" and v in bad) or (want == "better" and v in good)
        called |= hit
        print(f"     {w['name']:10s} {m['name']:16s} {chs}  {v}{'  <- called' if hit else ''}")
print("CALLED" if called else "NOT CALLED")
PY
)
			echo "$verdict" | sed '$d'
			res=$(echo "$verdict" | tail -1)
			[ "$res" = CALLED ] && called_total=$((called_total + 1))
			summary+=("$plan/$pair ${labels[i - 1]} -> ${labels[i]}: $res")
		done
	done
done
echo
echo "== summary: $called_total of $pairs_total known differences called at $runs runs"
for s in "${summary[@]+"${summary[@]}"}"; do
	echo "   $s"
done
