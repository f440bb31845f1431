#!/usr/bin/env bash
# The virtual clock device as any ALSA program sees it: aplay, given a generated ALSA config
# naming the plugin by its absolute path, plays a 3 s WAV in no less than 3 s (the device
# consumes in real time; how much longer a loaded machine makes it is not checked), other
# formats, rates and channel counts too, a stalled player produces one underrun in the plugin's
# log, and a device that suspends (suspend_at_ms) is resumed by aplay and plays on. The recipe
# of docs/audio-probe.md, loaded after the system's configuration, is listed by `aplay -L`
# (its hint) and plays through plug:vclock; loaded alone, it has no plug.
set -euo pipefail
plugin=$VMS_BINARY_DIR/audio-probe/libasound_module_pcm_vmsclock.so
rm -rf "$VMS_TEST_TMP" && mkdir -p "$VMS_TEST_TMP" && cd "$VMS_TEST_TMP"
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$plugin" ] || fail "no plugin at $plugin"
command -v aplay >/dev/null || fail "aplay missing (alsa-utils)"
cat > asound.conf <<CONF
pcm_type.vmsclock { lib "$plugin" }
pcm.vclock { type vmsclock log "$VMS_TEST_TMP/underruns.log" }
pcm.vsuspend { type vmsclock log "$VMS_TEST_TMP/suspend.log" suspend_at_ms 500 }
pcm.vbadsuspend { type vmsclock suspend_at_ms "soon" }
CONF
export ALSA_CONFIG_PATH=$VMS_TEST_TMP/asound.conf
python3 - <<'PY'
import math, struct, wave
with wave.open("three.wav", "wb") as w:
    w.setnchannels(2); w.setsampwidth(2); w.setframerate(44100)
    w.writeframes(b"".join(struct.pack("<hh", int(9000 * math.sin(i / 20)), 0) for i in range(3 * 44100)))
PY

# the clean play counts underruns exactly: where possible aplay runs SCHED_FIFO, so a loaded
# machine adds none of its own
fifo=()
if [ "$(id -u)" = 0 ] && chrt -f 10 true 2>/dev/null; then fifo=(chrt -f 10); fi
elapsed() { python3 -c 'import sys,time; t=time.monotonic(); import subprocess; r=subprocess.run(sys.argv[1:]); print(f"{time.monotonic()-t:.3f}" if r.returncode == 0 else "fail")' "$@"; }
t=$(elapsed "${fifo[@]}" aplay -q -D vclock three.wav)
echo "3 s WAV played in $t s"
[ "$t" != fail ] || fail "aplay failed"
python3 -c "import sys; sys.exit(not 2.8 <= $t)" || fail "3 s WAV took $t s: faster than real time"
[ ! -s underruns.log ] || fail "underruns on a clean play: $(cat underruns.log)"

for spec in "S32_LE 6 192000" "FLOAT_LE 1 8000" "S16_LE 8 48000"; do
	set -- $spec
	t=$(elapsed aplay -q -D vclock -t raw -f "$1" -c "$2" -r "$3" -d 1 /dev/zero)
	echo "1 s of $1 x$2 at $3 Hz in $t s"
	[ "$t" != fail ] || fail "aplay refused $spec"
	python3 -c "import sys; sys.exit(not 0.9 <= $t)" || fail "$spec: 1 s took $t s: faster than real time"
done

# beyond the plugin's limits: 400 kHz is granted as its maximum 192 kHz, 9 channels refused
aplay -D vclock -t raw -f S16_LE -c 2 -r 400000 -d 1 /dev/zero 2>rate.err || true
grep -q "got = 192000Hz" rate.err || fail "400 kHz not limited to 192 kHz: $(cat rate.err)"
if aplay -q -D vclock -t raw -f S16_LE -c 9 -r 48000 -d 1 /dev/zero 2>/dev/null; then
	fail "9 channels accepted"
fi

# a stalled player: the plugin itself logs one underrun with its dry and resume times
aplay -q -D vclock -B 100000 three.wav & pid=$!
sleep 1
# the stall lasts 400 ms, or longer when a loaded machine wakes the sleep late: one process
# stops and continues aplay and times it around the two signals (no fork between them)
stall=$(python3 -c '
import os, signal, sys, time
pid = int(sys.argv[1])
t0 = time.monotonic(); os.kill(pid, signal.SIGSTOP)
time.sleep(0.4)
os.kill(pid, signal.SIGCONT); t1 = time.monotonic()
print(round(1000 * (t1 - t0)))' $pid)
wait $pid || true
cat underruns.log
# Its gap is the stall less what the 100 ms buffer held (up to 150 ms less), plus aplay's own
# wake-up after SIGCONT (up to 150 ms more). A loaded machine may add short underruns of its own.
[ "$(grep -c '^underrun ' underruns.log)" -ge 1 ] || fail "want a logged underrun"
[ "$(awk -v lo=$((stall - 150)) -v hi=$((stall + 150)) \
	'$1 == "underrun" && $8 >= lo && $8 <= hi' underruns.log | wc -l)" = 1 ] ||
	fail "want one logged gap of $((stall - 150))..$((stall + 150)) ms for a $stall ms stall with a 100 ms buffer"
# a suspend 0.5 s in: aplay sees -ESTRPIPE, resumes the device and plays to the end
aplay -D vsuspend three.wav > suspend.out 2>&1 || fail "aplay failed after a suspend: $(cat suspend.out)"
cat suspend.log
grep -q "Suspended. Trying resume. Done." suspend.out || fail "aplay did not see a suspend: $(cat suspend.out)"
[ "$(grep -c '^suspend 1 at [0-9.]* resume [0-9.]* gap_ms' suspend.log)" = 1 ] && [ "$(wc -l < suspend.log)" = 1 ] ||
	fail "want exactly one logged suspend, resumed"
if aplay -q -D vbadsuspend -d 1 three.wav 2>bad.err; then fail "suspend_at_ms \"soon\" accepted"; fi

# docs/audio-probe.md's recipe, with HOME here so that no ~/.asoundrc of the user joins in
cat > recipe.conf <<CONF
pcm_type.vmsclock { lib "$plugin" }
pcm.vclock {
	type vmsclock
	hint { show on description "vmsuite virtual clock (timing only, silent)" }
}
CONF
alsa_conf=/usr/share/alsa/alsa.conf
if [ -f "$alsa_conf" ]; then
	recipe=(env HOME="$VMS_TEST_TMP" ALSA_CONFIG_PATH="$alsa_conf:$VMS_TEST_TMP/recipe.conf")
	"${recipe[@]}" aplay -L > list.out 2>&1 || fail "aplay -L failed: $(cat list.out)"
	grep -A1 -x vclock list.out | grep -q "vmsuite virtual clock (timing only, silent)" ||
		fail "aplay -L does not list vclock with its hint: $(cat list.out)"
	"${recipe[@]}" aplay -q -D plug:vclock -t raw -f S16_LE -c 1 -r 22050 -d 1 /dev/zero ||
		fail "plug:vclock does not play with the recipe after the system configuration"
	if env HOME="$VMS_TEST_TMP" ALSA_CONFIG_PATH="$VMS_TEST_TMP/recipe.conf" \
		aplay -q -D plug:vclock -t raw -f S16_LE -c 1 -r 22050 -d 1 /dev/zero 2>/dev/null; then
		fail "plug:vclock plays with the recipe alone: docs/audio-probe.md says it cannot"
	fi
else
	echo "no $alsa_conf: the recipe with the system configuration is not checked"
fi
echo "ok"
