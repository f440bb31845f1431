#!/usr/bin/env bash
# Bad input to `vmsuite probe`: each case gets one clear message before anything plays (exit
# 128, nothing on stdout); truncated MP3s and those with damage under 1 % are resynchronised,
# counted and reported, more damage is refused; and a
# stream whose sample rate changes midway is resampled to its first rate by libmpg123.
set -uo pipefail
rm -rf "$VMS_TEST_TMP" && mkdir -p "$VMS_TEST_TMP" && cd "$VMS_TEST_TMP"
sample=$VMS_SOURCE_DIR/data/sample.mp3
failed=0
fail() { echo "FAIL: $*"; failed=1; }

# expect_error NAME PATTERN ARGS...: exit 128, nothing on stdout, exactly one error line
expect_error() {
	local name=$1 pattern=$2
	shift 2
	"$VMSUITE" probe "$@" --seconds 1 >out 2>err
	local rc=$?
	echo "[$name] rc=$rc: $(cat err)"
	[ $rc = 128 ] || fail "$name: exit $rc, want 128"
	[ ! -s out ] || fail "$name: something was printed on stdout: $(cat out)"
	[ "$(wc -l <err)" = 1 ] || fail "$name: want one line on stderr"
	grep -qE -- "$pattern" err || fail "$name: message does not match '$pattern'"
}

mkdir adir
: >empty.mp3
printf 'this is a text file, not audio\n' >notes.mp3
python3 - <<'PY'
import math, struct, wave
def wav(name, rate, seconds):
    with wave.open(name, "wb") as w:
        w.setnchannels(2); w.setsampwidth(2); w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<hh", int(9000 * math.sin(i / 15)), int(9000 * math.sin(i / 21)))
                              for i in range(int(rate * seconds))))
wav("song.wav", 44100, 1)
wav("a44.wav", 44100, 2)
wav("b22.wav", 22050, 2)
PY
cp song.wav song-really-a-wav.mp3

expect_error missing "cannot open 'nope.mp3': No such file or directory" nope.mp3
expect_error directory "'adir' is a directory, not an MP3 file" adir
expect_error empty "'empty.mp3' is empty, not an MP3 file" empty.mp3
expect_error wav "'song-really-a-wav.mp3' is a WAV file, not an MP3" song-really-a-wav.mp3
expect_error text "'notes.mp3' is a text file, not an MP3" notes.mp3
expect_error no-device "cannot open ALSA device 'hw:7'.*devices here:.*virtual" --device hw:7
# alsa-lib's null plugin swallows audio as fast as it is written: not a real-time device
expect_error null-device "ALSA device 'null' does not play in real time: it took [0-9.]+ s of audio in [0-9.]+ s \\([0-9.]+×\\)" --device null
"$VMSUITE" run --machine host --with-audio --device null --idle-seconds 1 -w mtest01:bytes=8M -n 1 \
	-o run-null.json >out 2>err
rc=$?
[ $rc = 128 ] && grep -q "ALSA device 'null' does not play in real time" err ||
	fail "run --device null: exit $rc, $(cat err)"
# 10 s of 1 ms periods is more than the 1024 periods the virtual device allows
expect_error geometry "ALSA device 'virtual' refuses the geometry period 1 ms / buffer 10000 ms" \
	--device virtual --period 1 --buffer 10000

"$VMSUITE" probe --period 80 --buffer 100 >out 2>err
rc=$?
[ $rc = 129 ] && grep -q "two periods" err || fail "period > buffer/2: rc $rc, $(cat err)"

# plays_with_warning NAME PATTERN FILE: plays (exit 0, Sound line), one warning naming the damage
plays_with_warning() {
	local name=$1 pattern=$2 file=$3
	"$VMSUITE" probe "$file" --seconds 2 --device virtual --latency 2001 -o "$name.json" >out 2>err
	local rc=$?
	echo "[$name] rc=$rc: $(cat err)"
	[ $rc = 0 ] || fail "$name: exit $rc, want 0"
	# it played (a loaded machine may add an underrun: the rating is not what is tested here)
	grep -qE "^Sound \(idle baseline\): [0-9.]+/10 — played" out ||
		fail "$name: no Sound line: $(cat out)"
	grep -qE -- "$pattern" err || fail "$name: warning does not match '$pattern'"
}
head -c 240000 "$sample" >truncated.mp3
plays_with_warning truncated "'truncated.mp3': [0-9]+ of 1150 MPEG frames could not be decoded" truncated.mp3
python3 - <<'PY' || fail "dropped-frame counts"
import json
t = json.load(open("truncated.json"))["audio"]["facts"]
print("truncated dropped", t["frames_dropped"], "damaged bytes", t["damaged_bytes"])
assert 540 <= t["frames_dropped"] <= 600, t      # 240000 of 481349 bytes: about half is gone
assert t["damaged_bytes"] == 0 and t["duration_s"] < 16, t  # missing is not damaged
PY

# Corrupt files, made deterministically from the sample (CBR 128 kbit/s, 44.1 kHz: frames of
# 417 or 418 bytes): the sync words of 3 of its 1150 frames broken (damage well under 1 %:
# plays, with a warning that counts it), 20000 bytes of noise (3 %) and half of all bytes
# randomised: refused, naming the share.
python3 - "$sample" <<'PY'
import random, sys
src = open(sys.argv[1], "rb").read()
pos = src.index(b"\xff\xfb")            # the first frame, after the ID3v2 tag
heads = []
while pos + 4 <= len(src) and src[pos] == 0xFF:
    heads.append(pos)
    pos += 144 * 128000 // 44100 + ((src[pos + 2] >> 1) & 1)
assert len(heads) > 1000, len(heads)
few = bytearray(src)
for k in (300, 600, 900):
    few[heads[k]:heads[k] + 2] = b"\0\0"
open("fewbad.mp3", "wb").write(few)
r = random.Random(7)
noise = bytearray(src)
noise[200000:220000] = bytes(r.randrange(256) for _ in range(20000))
open("corrupt.mp3", "wb").write(noise)
r = random.Random(17)
half = bytearray(src)
for i in range(len(half)):
    if r.random() < 0.5:
        half[i] = r.randrange(256)
open("halfrandom.mp3", "wb").write(half)
PY
plays_with_warning fewbad "'fewbad.mp3': libmpg123 skipped [0-9]+ damaged bytes in [0-9]+ places \(0\.[0-9] % of its audio data; vmsuite refuses more than 1 %\)" fewbad.mp3
python3 - <<'PY' || fail "damage counts"
import json
f = json.load(open("fewbad.json"))["audio"]["facts"]
print("fewbad resyncs", f["resyncs"], "damaged bytes", f["damaged_bytes"])
# each broken frame is skipped, and with it the false frames libmpg123 may find inside it
assert 3 <= f["resyncs"] <= 12 and 3 * 417 <= f["damaged_bytes"] <= 8 * 418, f
PY
expect_error corrupt "'corrupt.mp3' is corrupt: 3\.[0-9] % of its audio data cannot be decoded .*more than 1 %" corrupt.mp3
expect_error halfrandom "'halfrandom.mp3' is corrupt: [4-6][0-9]\.[0-9] % of its audio data cannot be decoded" halfrandom.mp3
"$VMSUITE" run --machine host --with-audio halfrandom.mp3 --device virtual --idle-seconds 1 \
	-w mtest01:bytes=8M -n 1 -o run-half.json >out 2>err
rc=$?
[ $rc = 128 ] && grep -q "'halfrandom.mp3' is corrupt" err || fail "run refuses halfrandom: $rc $(cat err)"

lame --quiet -t -b 128 --cbr a44.wav a44.mp3 && lame --quiet -t -b 64 --cbr b22.wav b22.mp3
cat a44.mp3 b22.mp3 >ratechange.mp3
plays_with_warning ratechange "sample rate changes midway \(44100 -> 22050 Hz.*resamples.*44100 Hz" ratechange.mp3
python3 - <<'PY' || fail "rate change facts"
import json
d = json.load(open("ratechange.json"))
f, m = d["audio"]["facts"], d["audio"]["baseline"]["metrics"]
print("rate", f["sample_rate"], "changes", f["rate_changes"], "duration", f["duration_s"])
assert f["sample_rate"] == 44100 and f["rate_changes"] > 30
assert 3.8 <= f["duration_s"] <= 4.3, f       # 2 s + 2 s, the second half resampled
assert m["underruns"]["samples"][0] == 0
PY
[ $failed = 0 ] && echo ok
exit $failed
