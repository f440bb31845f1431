#!/usr/bin/env bash
# Prints what the audio probe costs (not a test): its CPU per second of audio while playing
# the MP3 on the virtual clock device, against the decode-only cost of the same file in the
# same run (libmpg123 decoding to nowhere), as a ratio, and its max RSS. It also prints the
# bare cost of waking once per period (poll on a timerfd, nothing else), which any player with
# that period pays, and the ratio without it ((probe - floor) / decode-only; target <= 1.5 at
# the default preset); for every latency preset. As root it turns kernel.task_delayacct on for
# the measurement, as `vmsuite run --with-audio` does (the probe then reads its delay totals),
# and puts it back on exit. Last, how long a short probe takes to start and stop beyond what it
# plays.
# usage: scripts/bench-probe.sh [BUILD_DIR] [MP3] [SECONDS]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
mp3=${2:-$src/data/sample.mp3}
secs=${3:-20}
vmsuite=$build/cli/vmsuite
helper=$build/tests/probe/probe-decode-only
for b in "$vmsuite" "$helper"; do
	[ -x "$b" ] || { echo "bench-probe: $b is missing; build vmsuite and probe-decode-only" >&2; exit 1; }
done
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

read -r audio dcpu < <("$helper" "$mp3" "$secs")
echo "file: $mp3, $secs s per measurement; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for preset in 2001 desktop pro; do
	"$vmsuite" probe "$mp3" --seconds "$secs" --device virtual --latency "$preset" \
		-o "$tmp/r.json" --force >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	period=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["audio"]["facts"]["period_ms"])' "$tmp/r.json")
	read -r fwall fcpu < <("$helper" --wake-floor "$period" "$secs")
	python3 - "$tmp/r.json" "$audio" "$dcpu" "$fwall" "$fcpu" "$preset" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
f = doc["audio"]["facts"]
m = {k: v["samples"][0] for k, v in doc["audio"]["baseline"]["metrics"].items()}
audio, dcpu, fwall, fcpu = map(float, sys.argv[2:6])
probe = m["probe_cpu_pct"] * 10 * m["window_s"] / m["played_s"]   # ms CPU per audio second
decode = dcpu * 1000 / audio
floor = fcpu * 1000 / fwall
print(f"\n--latency {sys.argv[6]}: period {f['period_ms']:.1f} ms / buffer {f['buffer_ms']:.1f} ms, "
      f"causes by {f.get('cause_method', '?')}: {m['window_s']:.1f} s played, {m['underruns']:.0f} underruns")
print(f"  probe CPU                  {probe:7.3f} ms per audio second ({m['probe_cpu_pct']:.3f} % of a CPU)")
print(f"    of which in libmpg123    {m['decode_ms_per_s']:7.3f} ms per audio second")
print(f"  decode-only CPU            {decode:7.3f} ms per audio second")
print(f"  bare wake-up floor         {floor:7.3f} ms per second (poll on a timerfd every period)")
print(f"  ratio probe / decode-only  {probe / decode:7.2f}")
print(f"  ratio without the floor    {(probe - floor) / decode:7.2f}   (target <= 1.5 at the default preset)")
print(f"  probe max RSS              {m['probe_maxrss_kib']:7.0f} KiB")
print(f"  wake lateness p50/p99/max  {m['wake_p50_ms']:.2f} / {m['wake_p99_ms']:.2f} / {m['wake_max_ms']:.2f} ms")
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
