#!/usr/bin/env bash
# Prints what the audio probe costs (not a test), for every latency preset: the player's CPU
# per second of audio while playing the MP3 on the virtual clock device, against
#  - the decode-only cost of the same file (libmpg123 decoding to nowhere, the probe's format
#    and read size), and
#  - the bare cost of waking once per period (poll on a timerfd, nothing else), which any
#    player with that period pays,
# as "ratio without the floor" = (player - floor) / decode-only (target <= 1.5 at the default
# preset); and against the least an alsa-lib player pays on the same device (poll, revents,
# avail, write silence: probe-decode-only --alsa-floor), as "ratio without the ALSA floor". Timings on a shared or virtual machine drift by tens of percent within a minute, so
# the floor runs at the same time as the probe, on the same CPU (the player is pinned there
# with --cpu, the floor with taskset; vmsuite's own process on the other CPUs, as under
# `vmsuite run`), and every preset is measured ROUNDS times: the median
# and the range of the per-round ratios are printed. The watcher thread's cost (the probe's
# periodic readings, on another CPU when there is one) is printed beside it, and so is the
# ratio with it counted. As root, kernel.task_delayacct is on for the measurement, as under
# `vmsuite run --with-audio` (the probe then reads its delay totals), and put back on exit.
# Last, how long a short probe takes to start and stop beyond what it plays.
# usage: scripts/bench-probe.sh [BUILD_DIR] [MP3] [SECONDS] [ROUNDS]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
mp3=${2:-$src/data/sample.mp3}
secs=${3:-20}
rounds=${4:-3}
vmsuite=$build/cli/vmsuite
helper=$build/tests/probe/probe-decode-only
for b in "$vmsuite" "$helper"; do
	[ -x "$b" ] || { echo "bench-probe: $b is missing; build vmsuite and probe-decode-only" >&2; exit 1; }
done
command -v taskset >/dev/null || { echo "bench-probe: taskset (util-linux) is missing" >&2; exit 1; }
tmp=$(mktemp -d)
dacct=/proc/sys/kernel/task_delayacct
old_dacct=
restore() {
	[ -n "$old_dacct" ] && echo "$old_dacct" >"$dacct"
	rm -rf "$tmp"
}
trap restore EXIT
trap 'exit 130' INT TERM
if [ "$(id -u)" = 0 ] && [ -w "$dacct" ]; then
	old_dacct=$(cat "$dacct")
	echo 1 >"$dacct"
fi
# the highest CPU this script may use: the player and the floor share it; vmsuite's own process
# runs on the others, as `vmsuite run` keeps itself off the emulated machine's CPU
read -r cpu others < <(python3 -c 'import os
c = sorted(os.sched_getaffinity(0))
print(c[-1], ",".join(map(str, c[:-1])) or c[-1])')

for r in $(seq "$rounds"); do
	taskset -c "$cpu" "$helper" "$mp3" 60 >>"$tmp/decode"
done
echo "file: $mp3, $secs s per measurement, $rounds rounds, player and floor on CPU $cpu," \
	"vmsuite and the watcher on CPU $others;" \
	"load: $(cut -d' ' -f1-3 /proc/loadavg)"
for preset in 2001 desktop pro; do
	# the period the device grants for the preset, for the floor
	"$vmsuite" probe "$mp3" --seconds 1 --device virtual --latency "$preset" \
		-o "$tmp/g.json" --force >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	period=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["audio"]["facts"]["period_ms"])' "$tmp/g.json")
	for r in $(seq "$rounds"); do
		taskset -c "$cpu" "$helper" --wake-floor "$period" "$secs" >"$tmp/floor" &
		fpid=$!
		buffer=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["audio"]["facts"]["buffer_ms"])' "$tmp/g.json")
		taskset -c "$cpu" "$helper" --alsa-floor "$period" "$buffer" "$secs" >"$tmp/afloor" &
		apid=$!
		taskset -c "$others" "$vmsuite" probe "$mp3" --seconds "$secs" --device virtual \
			--latency "$preset" --cpu "$cpu" -o "$tmp/r$r.json" --force >/dev/null 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; exit 1; }
		wait "$fpid" "$apid"
		cat "$tmp/floor" >>"$tmp/floor-$preset"
		cat "$tmp/afloor" >>"$tmp/afloor-$preset"
	done
	python3 - "$preset" "$tmp" "$rounds" <<'PY'
import json, statistics, sys
preset, tmp, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
dec = [float(c) * 1000 / float(a) for a, c in (l.split() for l in open(f"{tmp}/decode"))]
decode = statistics.median(dec)
floors = [float(c) * 1000 / float(w) for w, c in (l.split() for l in open(f"{tmp}/floor-{preset}"))]
afloors = [float(c) * 1000 / float(w) for w, c in (l.split() for l in open(f"{tmp}/afloor-{preset}"))]
rows = []
for r in range(1, rounds + 1):
    doc = json.load(open(f"{tmp}/r{r}.json"))
    f = doc["audio"]["facts"]
    m = {k: v["samples"][0] for k, v in doc["audio"]["baseline"]["metrics"].items()}
    per_s = 10 * m["window_s"] / m["played_s"]          # % of a CPU -> ms per audio second
    rows.append(dict(player=m["probe_cpu_pct"] * per_s, watch=m.get("probe_watch_cpu_pct", 0) * per_s,
                     indecode=m["decode_ms_per_s"], floor=floors[r - 1], afloor=afloors[r - 1],
                     rss=m["probe_maxrss_kib"],
                     under=m["underruns"], p50=m["wake_p50_ms"], p99=m["wake_p99_ms"], f=f))
f = rows[0]["f"]
med = lambda k: statistics.median(x[k] for x in rows)
each = lambda vals: " ".join(f"{v:.2f}" for v in vals)
ratios = [(x["player"] - x["floor"]) / decode for x in rows]
ratios_all = [(x["player"] + x["watch"] - x["floor"]) / decode for x in rows]
ratios_alsa = [(x["player"] - x["afloor"]) / decode for x in rows]
print(f"\n--latency {preset}: period {f['period_ms']:.1f} ms / buffer {f['buffer_ms']:.1f} ms, "
      f"causes by {f.get('cause_method', '?')}, readings by {f.get('readings_by', 'player')}, "
      f"underruns {'/'.join(str(int(x['under'])) for x in rows)}")
print(f"  player CPU                 {med('player'):7.3f} ms per audio second (median; "
      f"{each(x['player'] for x in rows)})")
print(f"    of which in libmpg123    {med('indecode'):7.3f} ms per audio second")
print(f"  watcher CPU (other CPU)    {med('watch'):7.3f} ms per audio second")
print(f"  decode-only CPU            {decode:7.3f} ms per audio second "
      f"({each(dec)})")
print(f"  bare wake-up floor         {med('floor'):7.3f} ms per second, same CPU, same time "
      f"({each(x['floor'] for x in rows)})")
print(f"  alsa-lib floor             {med('afloor'):7.3f} ms per second, same CPU, same time "
      f"({each(x['afloor'] for x in rows)})")
print(f"  ratio player / decode-only {med('player') / decode:7.2f}")
print(f"  ratio without the floor    {statistics.median(ratios):7.2f}   (rounds: "
      f"{each(ratios)}; target <= 1.5 at the default preset)")
print(f"    with the watcher counted {statistics.median(ratios_all):7.2f}")
print(f"  ratio without the ALSA floor {statistics.median(ratios_alsa):5.2f}   (rounds: {each(ratios_alsa)})")
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
