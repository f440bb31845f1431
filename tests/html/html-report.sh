# The HTML report end to end: structure checked against the result file it came from (one
# timeline per run, one gap band per gap, the text report's lines and numbers on the page),
# golden outlines of every chart, and bad input (no series, no audio, a missing column, odd
# values, markup in strings) rendered with notes that say what is missing.
# scripts/update-goldens.sh rewrites tests/html/golden/*.outline after a deliberate change.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

here=$VMS_SOURCE_DIR/tests/html
base=$VMS_SOURCE_DIR/tests/data/golden-result.json
gen() { python3 "$here/make-result.py" --base "$base" "$@"; }

gen --out full.json --audio --gaps 5 || fail "make-result full"
gen --out noaudio.json || fail "make-result noaudio"
cp "$base" plain.json

# render, check structure against the result and the text report, compare the outline
for name in full noaudio plain; do
  expect_exit 0 "report $name --format html" -- "$VMSUITE" report $name.json --format html -o $name.html
  [ -z "$err" ] && ok || fail "$name: stderr not empty: $err"
  "$VMSUITE" report $name.json > $name.txt
  if python3 "$here/check-html.py" $name.html $name.json $name.txt > $name.outline 2> $name.check; then ok
  else fail "$name: structure: $(cat $name.check)"; fi
  expect_golden tests/html/golden/$name.outline $name.outline "$name: outline"
done

# with audio: every gap drawn once, the causes legend, baseline and latency views
expect_in "$(head -1 full.outline)" "svg charts 10; sound blocks 3; notes 0; missing 0" "full: chart count"
n_gaps=$(json_get full.json 'sum(len(r["audio"]["gaps"]) for w in d["workloads"] for r in w["runs"])')
n_bands=$(grep -o 'class="gap gap-' full.html | wc -l)
# the bands plus one legend swatch per cause seen in each timeline
n_swatches=$(grep -c "^svg 'chart timeline'" full.outline)
[ "$n_gaps" -eq 30 ] && ok || fail "fixture: $n_gaps gaps"
[ $((n_bands)) -ge $((n_gaps)) ] && ok || fail "full: $n_bands bands for $n_gaps gaps"
grep -q '<title>gap of [0-9]* ms at [0-9.]* s: decode (late' full.html && ok || fail "full: gap title with evidence"
expect_in "$(cat full.outline)" "legend ['gaps in the music, by cause:', 'paging', 'runqueue', 'io', 'decode', 'unexplained']" "full: cause legend"
grep -q '<pre class="sound">Sound: ' full.html && ok || fail "full: sound line"
grep -q 'Sound (idle baseline): ' full.html && ok || fail "full: baseline sound line"
grep -q 'gaps caused by: paging 3, runqueue 3, io 3, decode 3, unexplained 3' full.html && ok ||
  fail "full: causes summed over the runs of a workload"
grep -q "wake-ups (log)" full.html && ok || fail "full: latency view log axis"
[ "$n_swatches" -eq 7 ] && ok || fail "full: $n_swatches timelines, want 7 (6 runs + baseline)"

# without audio: says so, draws the runner's panels only
expect_in "$(cat noaudio.outline)" "missing: No audio: the suite ran without --with-audio" "noaudio: says audio is missing"
! grep -q "panel audio" noaudio.outline && ok || fail "noaudio: an audio panel"
! grep -q "chart latency" noaudio.outline && ok || fail "noaudio: a latency view"
expect_in "$(cat noaudio.outline)" "note: No sound line: this workload has no audio metrics (the suite ran without --with-audio)." "noaudio: sound note"

# without series or audio (the 2001-shaped golden result): tables, notes, no charts
expect_in "$(head -1 plain.outline)" "svg charts 0" "plain: no charts"
expect_in "$(cat plain.outline)" "missing: 6 of 6 runs have no time series" "plain: says series are missing"
expect_in "$(cat plain.outline)" "note: No time series in this run" "plain: per-run note"
grep -q '<tr><th>Elapsed (wall clock seconds) time</th><td>258.83</td></tr>' plain.html && ok ||
  fail "plain: 2001 row with the text report's number"

# bad input: a missing column, one sample, an unknown cause, NaN-ish values, markup in strings
python3 - full.json broken.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["label"] = '<script>alert("x")</script> & co'
w = d["workloads"][0]
r1, r2, r3 = w["runs"]
del r1["series"]["columns"]["pswpin"]
del r1["series"]["columns"]["pswpout"]
r2["series"]["t_s"] = r2["series"]["t_s"][:1]
for c in r2["series"]["columns"].values():
    c["values"] = c["values"][:1]
r3["audio"]["gaps"][0]["cause"] = "gremlins"
r3["audio"]["gaps"][1]["duration_ms"] = None
r3["audio"]["series"]["fill_min_ms"][3] = None
r3["audio"]["gaps"][2].update(ongoing=True, unclipped_ms=900.0)
r3["audio"]["gaps"].append({"start_s": 99.0, "duration_ms": 50.0, "cause": "io"})
r3["audio"]["latency_hist"] = {"lower_ms": [0, 1], "count": [5]}
d["workloads"][1]["runs"][0]["series"]["columns"]["mem_free_kib"]["values"][5] = None
d["audio"]["baseline"] = None
json.dump(d, open(sys.argv[2], "w"))
EOF
expect_exit 0 "report broken --format html" -- "$VMSUITE" report broken.json --format html -o broken.html
python3 "$here/check-html.py" broken.html broken.json > broken.outline 2> broken.check && ok ||
  fail "broken: structure: $(cat broken.check)"
grep -q 'the whole gap lasted 900 ms (cut to this window); still silent when the window ended</title>' broken.html &&
  ok || fail "broken: clipped and ongoing gap in the title"
! grep -q '<script>' broken.html && ok || fail "broken: label not escaped"
grep -q '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co' broken.html && ok || fail "broken: escaped label"
expect_in "$(cat broken.outline)" "panel swap 'Swap traffic' lines 0 legend [] ticks ['0', '0.5', '1.0'] note 'not recorded: the series has no column for this'" "broken: missing column noted"
expect_in "$(cat broken.outline)" "note: The time series of this run has fewer than two samples: nothing to draw." "broken: one sample"
expect_in "$(cat broken.outline)" "missing: No idle baseline of the audio probe in this result." "broken: no baseline"
expect_in "$(cat broken.outline)" "svg 'chart timeline' 'mmap001 run 3: timeline': axis ['faults/s (log)', 'pages/s', '% of time', 'GiB', 'MiB', 'ms queued', 'time since the run started (s)']; gaps ['unexplained', 'runqueue', 'io', 'decode', 'unexplained', 'io']" "broken: unknown cause drawn as unexplained"

# the numbers drawn: rates are differences over dt, PSI is % of the interval, memory in MiB
python3 - "$base" tiny.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["workloads"] = d["workloads"][:1]
w = d["workloads"][0]
w["runs"] = w["runs"][:1]
for m in w["metrics"].values():
    m["samples"] = m["samples"][:1]
cols = {"pgfault": [0, 1000, 11000], "pgmajfault": [0, 10, 110], "pswpin": [0, 0, 0],
        "pswpout": [0, 50, 150], "psi_memory_some_us": [0, 250000, 750000],
        "psi_io_some_us": [0, 0, 100000], "mem_free_kib": [102400, 51200, 204800],
        "dirty_kib": [0, 1024, 2048], "writeback_kib": [0, 0, 0]}
w["runs"][0]["series"] = {"interval_s": 0.5, "t_s": [0.0, 0.5, 1.0], "columns": {
    k: {"unit": "x", "cumulative": not k.endswith("_kib"), "values": v} for k, v in cols.items()}}
json.dump(d, open(sys.argv[2], "w"))
EOF
expect_exit 0 "report tiny --format html" -- "$VMSUITE" report tiny.json --format html -o tiny.html
python3 - tiny.html <<'EOF' > tiny.out 2>&1 && ok || fail "drawn values: $(cat tiny.out)"
import re, sys
html = open(sys.argv[1]).read()
panels = {}
for g in re.findall(r'<g class="panel">(.*?)</g>', html, re.S):
    key = re.search(r"<desc>(\w+)</desc>", g).group(1)
    fr = re.search(r'<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)" class="frame"', g)
    top, h = float(fr.group(1)), float(fr.group(2))
    ticks = [t for t in re.findall(r'<text x="([\d.]+)" y="[\d.]+" text-anchor="end" class="tick">([^<]*)<', g)]
    paths = {c: [tuple(map(float, p.split())) for p in re.findall(r"[ML]([\d.]+ [\d.]+)", dd)]
             for dd, c in re.findall(r'<path d="([^"]*)" class="(s\d)"', g)}
    panels[key] = (top, h, [t[1] for t in ticks], paths)


def values(key, cls):
    top, h, ticks, paths = panels[key]
    vmax = float(ticks[-1])
    return sorted({float(round((top + h - y) / h * vmax)) for _, y in paths[cls]})


errors = []
# swap out: 50 pages in 0.5 s, then 100 in 0.5 s: 100 and 200 pages/s on a 0..200 axis
if panels["swap"][2] != ["0", "50", "100", "150", "200"]:
    errors.append(f"swap ticks {panels['swap'][2]}")
if values("swap", "s1") != [100.0, 200.0]:
    errors.append(f"swap out rates {values('swap', 's1')}")
# PSI memory some: 0.25 s of 0.5 s, then 0.5 s of 0.5 s: 50 % and 100 %
if values("psi", "s0") != [50.0, 100.0]:
    errors.append(f"psi memory {values('psi', 's0')}")
# free memory: 100, 50, 200 MiB
if values("free", "s0") != [50.0, 100.0, 200.0]:
    errors.append(f"free memory {values('free', 's0')} ticks {panels['free'][2]}")
print("\n".join(errors) or "ok")
sys.exit(1 if errors else 0)
EOF

# the command line: unknown format, unwritable output
expect_exit 129 "unknown format" -- "$VMSUITE" report full.json --format pdf
expect_in "$err" "unknown format 'pdf' (text, markdown, html, json, lava or kcidb)" "format message"
expect_exit 128 "unwritable -o" -- "$VMSUITE" report full.json --format html -o /nonexistent/dir/r.html
expect_in "$err" "vmsuite: cannot write '/nonexistent/dir/r.html'" "unwritable message"
finish
