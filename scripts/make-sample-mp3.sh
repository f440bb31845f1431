#!/usr/bin/env bash
# Generates data/sample.mp3, the MP3 the audio probe plays by default: 30 s of a synthetic
# signal with changing content (a chord progression with bass, an arpeggio that changes
# pattern, noise-burst percussion and a closing sweep), made by the Python below from nothing
# but arithmetic and encoded with lame to 44.1 kHz stereo CBR 128 kbit/s. No third-party audio.
# usage: scripts/make-sample-mp3.sh [OUT.mp3]   (default: data/sample.mp3 next to this script)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/data/sample.mp3}
command -v lame >/dev/null || { echo "make-sample-mp3: lame is missing (apt-get install lame)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "make-sample-mp3: python3 is missing" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp/sample.wav" <<'PY'
import array, math, random, sys, wave

RATE, SECONDS, BPM = 44100, 30, 120
random.seed(2001)
n = RATE * SECONDS
left = array.array('f', bytes(4 * n))
right = array.array('f', bytes(4 * n))
beat = 60.0 / BPM
bar = 4 * beat

def freq(midi):
    return 440.0 * 2 ** ((midi - 69) / 12.0)

# C - G - Am - F, then Dm - Em - F - G: a new chord every bar
chords = [[60, 64, 67], [55, 59, 62], [57, 60, 64], [53, 57, 60],
          [50, 53, 57], [52, 55, 59], [53, 57, 60], [55, 59, 62]]

def add_note(f, start, dur, amp, pan, shape):
    s0, s1 = int(start * RATE), min(n, int((start + dur) * RATE))
    w = 2 * math.pi * f / RATE
    attack, release = int(0.01 * RATE), int(0.05 * RATE)
    for i in range(s0, s1):
        k = i - s0
        env = min(1.0, k / attack, (s1 - i) / release)
        ph = w * k
        if shape == 'sine':
            v = math.sin(ph)
        elif shape == 'organ':
            v = math.sin(ph) + 0.5 * math.sin(2 * ph) + 0.25 * math.sin(3 * ph)
        else:  # pluck: bright and decaying
            v = (math.sin(ph) + 0.3 * math.sin(3 * ph)) * math.exp(-4.0 * k / RATE)
        v *= amp * env
        left[i] += v * (1 - pan)
        right[i] += v * pan

t, b = 0.0, 0
while t < SECONDS - 2:
    ch = chords[b % len(chords)]
    for m in ch:                                  # pad chord, slightly spread
        add_note(freq(m), t, bar, 0.06, 0.35 + 0.15 * (m % 3), 'organ')
    add_note(freq(ch[0] - 24), t, bar / 2, 0.18, 0.5, 'sine')  # bass, two per bar
    add_note(freq(ch[0] - 24 + 7), t + bar / 2, bar / 2, 0.15, 0.5, 'sine')
    pattern = [0, 1, 2, 1] if b % 4 < 2 else [2, 1, 0, 2, 1, 0, 1, 2]
    step = bar / (2 * len(pattern))                # arpeggio, pattern changes every 2 bars
    for j in range(2 * len(pattern)):
        m = ch[pattern[j % len(pattern)]] + 12 * (1 + (j // len(pattern)) % 2)
        add_note(freq(m), t + j * step, step * 0.9, 0.12, 0.2 + 0.6 * (j % 2), 'pluck')
    for q in range(8):                             # noise bursts: hi-hat on eighths, snare on 2/4
        s0 = int((t + q * beat / 2) * RATE)
        length = int((0.12 if q in (2, 6) else 0.03) * RATE)
        amp = 0.25 if q in (2, 6) else 0.08
        for i in range(s0, min(n, s0 + length)):
            v = amp * random.uniform(-1, 1) * (1 - (i - s0) / length)
            left[i] += v
            right[i] += v * 0.8
    t += bar
    b += 1
# a closing upward sweep over the last 2 s
s0 = int((SECONDS - 2) * RATE)
ph = 0.0
for i in range(s0, n):
    x = (i - s0) / (n - s0)
    ph += 2 * math.pi * (200 + 1800 * x) / RATE
    v = 0.3 * math.sin(ph) * (1 - x)
    left[i] += v * x
    right[i] += v * (1 - x)

peak = max(max(abs(v) for v in left), max(abs(v) for v in right))
pcm = array.array('h', bytes(4 * n))
for i in range(n):
    pcm[2 * i] = int(32000 * left[i] / peak)
    pcm[2 * i + 1] = int(32000 * right[i] / peak)
with wave.open(sys.argv[1], 'wb') as w:
    w.setnchannels(2)
    w.setsampwidth(2)
    w.setframerate(RATE)
    w.writeframes(pcm.tobytes())
PY

lame --quiet -m s -b 128 --cbr --noreplaygain --tt "vmsuite sample" --ta "vmsuite" \
	"$tmp/sample.wav" "$tmp/sample.mp3"
mkdir -p "$(dirname "$out")"
mv "$tmp/sample.mp3" "$out"
echo "make-sample-mp3: wrote $out ($(stat -c %s "$out") bytes)"
