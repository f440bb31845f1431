# Golden-file tests of the text and markdown reports (labels, order, precision, spread, failed
# runs), the JSON summary re-parses with the same means, and a metric missing from the file
# renders as "n/a" in text, markdown and HTML, never as 0.
# scripts/update-goldens.sh rewrites the golden files after a deliberate change.
. "$(dirname "$0")/lib.sh"

data=$VMS_SOURCE_DIR/tests/data
expect_exit 0 "report golden" -- "$VMSUITE" report "$data/golden-result.json"
expect_golden tests/data/golden-report.txt "$VMS_TEST_TMP/out" "text report"
# the same with audio: the idle baseline in the header, the Sound lines after the spread
expect_exit 0 "report golden with sound" -- "$VMSUITE" report "$data/golden-result-sound.json"
expect_golden tests/data/golden-report-sound.txt "$VMS_TEST_TMP/out" "text report with sound"
expect_exit 0 "report -o" -- "$VMSUITE" report "$data/golden-result.json" -o rep.txt
cmp -s rep.txt "$data/golden-report.txt" && ok || fail "report -o differs"
expect_exit 0 "report json" -- "$VMSUITE" report "$data/golden-result.json" --format json
printf '%s' "$out" > sum.json
[ "$(json_get sum.json 'round(d["workloads"][0]["metrics"]["elapsed_s"]["mean"], 2)')" = 258.83 ] && ok || fail "json mean"
[ "$(json_get sum.json 'd["workloads"][1]["metrics"]["elapsed_s"]["n"]')" = 2 ] && ok || fail "json n excludes failed run"

# markdown: the same figures as a table and a list, Sound lines in a fenced block
expect_exit 0 "report markdown" -- "$VMSUITE" report "$data/golden-result-sound.json" --format markdown
expect_golden tests/data/golden-report-sound.md "$VMS_TEST_TMP/out" "markdown report"
# every number of the text report is in the markdown one
"$VMSUITE" report "$data/golden-result-sound.json" > sound.txt
"$VMSUITE" report "$data/golden-result-sound.json" --format markdown > sound.md
python3 - sound.txt sound.md > md.out 2>&1 <<'EOF' && ok || fail "markdown lacks text figures: $(cat md.out)"
import re, sys
txt, md = open(sys.argv[1]).read(), open(sys.argv[2]).read()
missing = [n for n in re.findall(r"\d[\d./]*", txt) if n not in md]
print(missing or "ok")
sys.exit(1 if missing else 0)
EOF
expect_exit 129 "unknown format" -- "$VMSUITE" report "$data/golden-result.json" --format pdf
expect_in "$err" "unknown format 'pdf' (text, markdown, html, json, lava or kcidb)" "format message names markdown"

# a metric missing from the file reads "n/a" where it would have been, never 0
python3 - "$data/golden-result.json" "$data/golden-result-sound.json" <<'EOF' || fail "make missing.json"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["workloads"][0]["metrics"]  # mmap001
del m["pgscan"], m["minor_faults"], m["psi_io_full_ms"], m["cgroup_peak_bytes"]
json.dump(d, open("missing.json", "w"))
d = json.load(open(sys.argv[2]))
m = d["workloads"][0]["metrics"]
del m["skips"], m["gap_longest_ms"]
json.dump(d, open("missing-sound.json", "w"))
EOF
expect_exit 0 "report missing" -- "$VMSUITE" report missing.json
printf '%s\n' "$out" > missing.txt
mmap001=$(sed -n '/^mmap001$/,/^mtest01$/p' missing.txt)
mtest01=$(sed -n '/^mtest01$/,$p' missing.txt)
expect_in "$mmap001" "Minor (reclaiming a frame) faults: n/a" "text: missing minor faults"
expect_in "$mmap001" "System-wide reclaim per run: scanned n/a, stolen 1800 pages;" "text: missing pgscan"
expect_in "$mmap001" "Pressure per run: memory some 0.13 s (full 0.07 s), io some 1.60 s (full n/a)" "text: missing psi"
expect_in "$mmap001" "Memory cgroup per run: peak n/a, limit hits 200," "text: missing cgroup peak"
! grep -q "scanned 0" missing.txt && ok || fail "text: a missing pgscan printed as scanned 0"
[ "$(grep -o 'n/a' missing.txt | wc -l)" -eq 4 ] && ok || fail "text: n/a where nothing is missing: $out"
! printf '%s' "$mtest01" | grep -q "n/a" && ok || fail "text: n/a in the workload that has every metric"
# line by line, the report is the golden one except where a figure reads n/a
python3 - missing.txt "$data/golden-report.txt" > cmp.out 2>&1 <<'EOF' && ok || fail "text: $(cat cmp.out)"
import re, sys
got, want = open(sys.argv[1]).read().splitlines(), open(sys.argv[2]).read().splitlines()
bad = [(g, w) for g, w in zip(got, want) if g != w and
       not re.fullmatch(re.escape(g).replace("n/a", r"[^,;()]+?"), w)]
print(bad if bad or len(got) != len(want) else "ok")
sys.exit(1 if bad or len(got) != len(want) else 0)
EOF

expect_exit 0 "report missing markdown" -- "$VMSUITE" report missing.json --format markdown
expect_in "$out" "| Minor (reclaiming a frame) faults | n/a |" "markdown: missing minor faults"
expect_in "$out" "- System-wide reclaim per run: scanned n/a, stolen 1800 pages;" "markdown: missing pgscan"
expect_in "$out" "io some 1.60 s (full n/a)" "markdown: missing psi"
! printf '%s' "$out" | grep -q "scanned 0" && ok || fail "markdown: scanned 0"

expect_exit 0 "report missing html" -- "$VMSUITE" report missing.json --format html -o missing.html
grep -qF '<tr><th>Minor (reclaiming a frame) faults</th><td>n/a</td></tr>' missing.html && ok ||
  fail "html: missing minor faults not n/a"
grep -qF '<p class="line">System-wide reclaim per run: scanned n/a, stolen 1800 pages;' missing.html &&
  ok || fail "html: missing pgscan not n/a"
! grep -q "scanned 0" missing.html && ok || fail "html: scanned 0"
python3 "$VMS_SOURCE_DIR/tests/html/check-html.py" missing.html missing.json missing.txt > /dev/null 2> check.err &&
  ok || fail "html: text report lines not on the page: $(cat check.err)"

# a missing sound metric: the Sound line says n/a for it
want="Sound: 4.0/10 — played 726 of 776 s, n/a skips (52 underruns), longest gap n/a, p99 wake 31 ms"
expect_exit 0 "report missing sound" -- "$VMSUITE" report missing-sound.json
expect_in "$out" "$want" "text: missing sound metrics"
expect_exit 0 "report missing sound markdown" -- "$VMSUITE" report missing-sound.json --format markdown
expect_in "$out" "$want" "markdown: missing sound metrics"
expect_exit 0 "report missing sound html" -- "$VMSUITE" report missing-sound.json --format html
expect_in "$out" "<pre class=\"sound\">$want" "html: missing sound metrics"
finish
