#!/usr/bin/env bash
# Prints what the audio probe costs (not a test), for every latency preset: the player's CPU
# per second of audio while playing the MP3 on the virtual clock device, against
#  - the decode-only cost of the same file (libmpg123 decoding to nowhere, the probe's format
#    and read size),
#  - the bare cost of waking once per period (poll on a timerfd, nothing else), which any
#    player with that period pays, and
#  - the least an alsa-lib player pays on the same device (poll, revents, avail, write
#    silence: probe-decode-only --alsa-floor),
# as "ratio without the floor" = (player - bare floor) / decode-only (the design aims at
# <= 1.5 at the default preset) and "ratio without the ALSA floor" = (player - ALSA floor) /
# decode-only, what the probe adds to decoding beyond any alsa-lib player.
#
# How, and why so: on a virtual machine a wake-up costs what the host's state makes it cost,
# so every round measures everything, one after the other, alone on the same CPU (the player
# pinned there with --probe-cpus, the floors and the decoder with taskset; vmsuite's own process and
# the probe's watcher thread on the other CPUs, as under `vmsuite run`), the order rotating
# from round to round, and each round gives its own ratios; the medians of ROUNDS rounds are
# printed with every round's value. Processes measured at the same time on one CPU disturb
# each other by how their wake-ups fall, so they are not. By default a CPU-bound competitor
# at SCHED_IDLE keeps the CPU busy, as the emulated machine's workload does under `vmsuite
# run --with-audio` (the player shares its one CPU): a wake-up then preempts it instead of
# leaving idle, whose cost swings most on a VM. --idle measures on an otherwise idle CPU.
# As root, kernel.task_delayacct is on for the measurement, as under `vmsuite run
# --with-audio` (the probe then reads its delay totals), and put back on exit.
# Last, how long a short probe takes to start and stop beyond what it plays.
# usage: scripts/bench-probe.sh [--idle] [BUILD_DIR] [MP3] [SECONDS] [ROUNDS]
set -euo pipefail
busy=1
if [ "${1:-}" = --idle ]; then
	busy=
	shift
fi
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
mp3=${2:-$src/data/sample.mp3}
secs=${3:-8}
rounds=${4:-5}
vmsuite=$build/cli/vmsuite
helper=$build/tests/probe/probe-decode-only
for b in "$vmsuite" "$helper"; do
	[ -x "$b" ] || { echo "bench-probe: $b is missing; build vmsuite and probe-decode-only" >&2; exit 1; }
done
for t in taskset chrt; do
	command -v $t >/dev/null || { echo "bench-probe: $t (util-linux) is missing" >&2; exit 1; }
done
tmp=$(mktemp -d)
dacct=/proc/sys/kernel/task_delayacct
old_dacct=
spin=
restore() {
	[ -n "$spin" ] && kill "$spin" 2>/dev/null
	[ -n "$old_dacct" ] && echo "$old_dacct" >"$dacct"
	rm -rf "$tmp"
}
trap restore EXIT
trap 'exit 130' INT TERM
if [ "$(id -u)" = 0 ] && [ -w "$dacct" ]; then
	old_dacct=$(cat "$dacct")
	echo 1 >"$dacct"
fi
# the highest CPU this script may use: the player, the floors and the decoder take turns on
# it; vmsuite's own process runs on the others, as `vmsuite run` keeps itself off the emulated
# machine's CPU
read -r cpu others < <(python3 -c 'import os
c = sorted(os.sched_getaffinity(0))
print(c[-1], ",".join(map(str, c[:-1])) or c[-1])')
if [ -n "$busy" ]; then
	taskset -c "$cpu" chrt --idle 0 sh -c 'while :; do :; done' &
	spin=$!
fi

# one measurement, alone on $cpu: prints "SECONDS CPU_SECONDS" (the player: and its decoding
# and watcher figures)
measure() {
	case $1 in
	wake) taskset -c "$cpu" "$helper" --wake-floor "$period" "$secs" ;;
	alsa) taskset -c "$cpu" "$helper" --alsa-floor "$period" "$buffer" "$secs" ;;
	decode) taskset -c "$cpu" "$helper" "$mp3" 120 ;;
	player)
		taskset -c "$others" "$vmsuite" probe "$mp3" --seconds "$secs" --device virtual \
			--latency "$preset" --probe-cpus "$cpu" -o "$tmp/p.json" --overwrite >/dev/null 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; exit 1; }
		python3 - "$tmp/p.json" <<'PY'
import json, sys
m = {k: v["samples"][0] for k, v in json.load(open(sys.argv[1]))["audio"]["baseline"]["metrics"].items()}
# % of a CPU over the window -> CPU seconds per played second, as the helper prints it
per = m["window_s"] / m["played_s"] / 100
print(1, m["probe_cpu_pct"] * per, m["decode_ms_per_s"] / 1000, m.get("probe_watch_cpu_pct", 0) * per,
      m["probe_maxrss_kib"], int(m["underruns"]), m["wake_p50_ms"], m["wake_p99_ms"])
PY
		;;
	esac
}

if [ -n "$busy" ]; then how="kept busy by a SCHED_IDLE competitor"; else how="otherwise idle"; fi
echo "file: $mp3, $secs s per measurement, $rounds rounds, each alone on CPU $cpu ($how)," \
	"vmsuite and the watcher on CPU $others; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for preset in 2001 desktop pro; do
	# the period and buffer the device grants for the preset, for the floors
	"$vmsuite" probe "$mp3" --seconds 1 --device virtual --latency "$preset" \
		-o "$tmp/g.json" --overwrite >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	read -r period buffer method < <(python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))["audio"]["facts"]
print(f["period_ms"], f["buffer_ms"], f.get("cause_method", "?"))' "$tmp/g.json")
	: >"$tmp/rounds"
	for r in $(seq "$rounds"); do
		order=(wake alsa player decode)
		# rotate, so that no part always follows the same one
		order=("${order[@]:$(((r - 1) % 4))}" "${order[@]:0:$(((r - 1) % 4))}")
		line=
		for what in "${order[@]}"; do
			line+="$what $(measure "$what" | tr '\n' ' ')"$'\n'
		done
		printf '%s' "$line" | python3 -c 'import json, sys
d = {}
for l in sys.stdin:
    w, *v = l.split()
    d[w] = [float(x) for x in v]
print(json.dumps(d))' >>"$tmp/rounds"
	done
	python3 - "$preset" "$period" "$buffer" "$method" "$tmp/rounds" <<'PY'
import json, statistics, sys
preset, period, buffer, method = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
rows = []
for l in open(sys.argv[5]):
    d = json.loads(l)
    ms = lambda k: 1000 * d[k][1] / d[k][0]    # ms of CPU per second (of audio)
    p = d["player"]
    rows.append(dict(player=1000 * p[1], indecode=1000 * p[2], watch=1000 * p[3], rss=p[4],
                     under=int(p[5]), p50=p[6], p99=p[7],
                     decode=ms("decode"), wake=ms("wake"), alsa=ms("alsa")))
for x in rows:
    x["ratio"] = (x["player"] - x["wake"]) / x["decode"]
    x["ratio_alsa"] = (x["player"] - x["alsa"]) / x["decode"]
    x["ratio_watch"] = (x["player"] + x["watch"] - x["wake"]) / x["decode"]
med = lambda k: statistics.median(x[k] for x in rows)
each = lambda k, f=".2f": " ".join(format(x[k], f) for x in rows)
wakes = 1000 / period
print(f"\n--latency {preset}: period {period:.1f} ms / buffer {buffer:.1f} ms ({wakes:.0f} wake-ups/s), "
      f"causes by {method}, underruns {'/'.join(str(x['under']) for x in rows)}")
print(f"  player CPU                 {med('player'):7.3f} ms per audio second  ({each('player')})")
print(f"    of which in libmpg123    {med('indecode'):7.3f}                        ({each('indecode')})")
print(f"  decode-only CPU            {med('decode'):7.3f} ms per audio second  ({each('decode')})")
print(f"  bare wake-up floor         {med('wake'):7.3f} ms per second        ({each('wake')}), "
      f"{1000 * med('wake') / wakes:.0f} us a wake-up")
print(f"  alsa-lib floor             {med('alsa'):7.3f} ms per second        ({each('alsa')}), "
      f"{1000 * (med('alsa') - med('wake')) / wakes:+.0f} us a wake-up")
print(f"  watcher CPU (other CPU)    {med('watch'):7.3f} ms per audio second")
print(f"  ratio without the floor      {med('ratio'):5.2f}   (rounds: {each('ratio')}; "
      f"aimed at <= 1.5 at the default preset)")
print(f"    with the watcher counted   {med('ratio_watch'):5.2f}")
print(f"  ratio without the ALSA floor {med('ratio_alsa'):5.2f}   (rounds: {each('ratio_alsa')})")
print(f"  probe max RSS              {med('rss'):7.0f} KiB")
print(f"  wake lateness p50/p99      {med('p50'):.2f} / {med('p99'):.2f} ms (medians)")
PY
done

# start-to-exit overhead of a short `vmsuite probe` (fork, open, decode check, stop and reap):
# what the unit tests no longer bound with a wall-clock limit
python3 - "$vmsuite" "$mp3" <<'PY'
import subprocess, sys, time
walls = []
for _ in range(3):
    t = time.monotonic()
    subprocess.run([sys.argv[1], "probe", sys.argv[2], "--seconds", "1", "--device", "virtual"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    walls.append(time.monotonic() - t - 1.0)
print(f"\nprobe start + stop overhead (1 s play, 3 runs): "
      f"{' / '.join(f'{w:.3f}' for w in walls)} s beyond the second played")
PY
