#!/usr/bin/env bash
# End-to-end tests of `vmsuite compare` on synthetic result files (tests/compare/gen.c): golden
# text and markdown, JSON that re-parses, exit codes, environment classes and bad input.
# scripts/update-goldens.sh rewrites the golden files after a deliberate change.
set -euo pipefail
: "${VMSUITE:?}" "${VMS_SOURCE_DIR:?}" "${VMS_BINARY_DIR:?}" "${VMS_TEST_TMP:?}" "${VMS_GEN_RESULT:?}"
golden=$VMS_SOURCE_DIR/tests/compare/golden
export LC_ALL=C.UTF-8
rm -rf "$VMS_TEST_TMP"
mkdir -p "$VMS_TEST_TMP"
cd "$VMS_TEST_TMP"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# expect_rc WANT CMD...: runs CMD with stdout in out, stderr in err, checks the exit code.
expect_rc() {
	local want=$1 rc=0
	shift
	"$@" >out 2>err || rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$* exited $rc, want $want"; sed 's/^/  err: /' err | head -5
		return 1
	fi
}

check_golden() { # NAME FILE; the output is kept in build/golden-actual for update-goldens.sh
	mkdir -p "$VMS_BINARY_DIR/golden-actual/tests/compare/golden"
	cp "$2" "$VMS_BINARY_DIR/golden-actual/tests/compare/golden/$1"
	if diff -u "$golden/$1" "$2"; then
		ok "golden $1"
	else
		fail "output differs from golden $1"
	fi
}

check_width() { # FILE: every line fits 100 columns
	local w
	w=$(wc -L < "$1")
	if [ "$w" -le 100 ]; then ok "$1 fits 100 columns ($w)"; else fail "$1 is $w columns wide"; fi
}

G=$VMS_GEN_RESULT
$G -o base.json --label 6.1.0-base --seed 1 --audio
$G -o slow.json --label 6.18.44-slow --seed 2 --shift 0.10 --audio \
	--set fingerprint.vm_sysctl.value.page-cluster=0
$G -o same.json --label 6.1.0-again --seed 3 --audio
$G -o bigmem.json --label 6.1.0-bigmem --seed 3 --audio \
	--set fingerprint.mem_total_bytes.value=68719476736
$G -o newmp3.json --label 6.1.0-newmp3 --seed 3 --audio \
	--set audio.facts.mp3.sha256='"0123"'
$G -o nomtest.json --label 6.1.0-nomtest --seed 3 --drop-workload mtest01 --audio

# Golden outputs; a +10 % slowdown of mmap001 is a regression (exit 1).
expect_rc 1 "$VMSUITE" compare base.json slow.json && cp out two.txt && check_golden two.txt two.txt
check_width two.txt
grep -q '^elapsed_s .* regression\*$' two.txt && ok "elapsed_s regression marked as confounded" ||
	fail "elapsed_s not 'regression*'"
grep -q 'soft     vm.page-cluster' two.txt && ok "soft difference listed" ||
	fail "soft diff missing"
expect_rc 1 "$VMSUITE" compare --format markdown base.json slow.json && cp out two.md &&
	check_golden two.md two.md
expect_rc 1 "$VMSUITE" compare base.json slow.json same.json && cp out three.txt &&
	check_golden three.txt three.txt
check_width three.txt

# JSON: written with -o, re-parses, carries the exit status.
expect_rc 1 "$VMSUITE" compare --format json -o cmp.json base.json slow.json
[ ! -s out ] && ok "-o leaves stdout empty" || fail "-o wrote to stdout"
"$G" --parse cmp.json && ok "json output re-parses" || fail "json output does not parse"
grep -q '"exit_status": 1' cmp.json && ok "json exit_status" || fail "json exit_status"
expect_rc 0 "$VMSUITE" compare --format json base.json same.json
"$G" --parse out && ok "json to stdout re-parses" || fail "json to stdout does not parse"

# Same distribution, another run: no regression, exit 0.
expect_rc 0 "$VMSUITE" compare base.json same.json && ok "same distribution: exit 0"
grep -q 'VERDICT B .*: no regression' out && ok "no regression verdict" || fail "verdict line"
expect_rc 0 "$VMSUITE" compare --exit-zero base.json slow.json && ok "--exit-zero"

# Hard differences: exit 2 and "not comparable", --ignore-hard-differences compares anyway.
expect_rc 2 "$VMSUITE" compare base.json bigmem.json && ok "hard diff: exit 2"
grep -q 'HARD     mem_total_bytes' out && ok "hard diff listed" || fail "hard diff not listed"
grep -q '^elapsed_s .*not comparable$' out && ok "not comparable verdict" || fail "verdict"
expect_rc 0 "$VMSUITE" compare --ignore-hard-differences base.json bigmem.json && ok "--ignore-hard-differences compares"
grep -q 'compared anyway (--ignore-hard-differences)' out && ok "the text names the option" ||
	fail "the text does not name --ignore-hard-differences"
# its old spelling until the next release: one warning line, then the same comparison
cp out ignore.out
expect_rc 0 "$VMSUITE" compare --force base.json bigmem.json && ok "--force still compares"
cmp -s out ignore.out && ok "--force gives what --ignore-hard-differences gives" ||
	fail "--force and --ignore-hard-differences differ"
[ "$(cat err)" = "vmsuite: warning: compare: '--force' is deprecated and goes in the next release: use '--ignore-hard-differences'" ] &&
	ok "--force warns once" || fail "--force: want one warning line, got: $(cat err)"
# Another MP3 touches the sound metrics only: the system metrics keep their verdicts, the sound
# rows are "not comparable"; a deciding metric that cannot be judged leaves the comparison
# unable to pass (exit 2; --bisect 125).
expect_rc 2 "$VMSUITE" compare base.json newmp3.json && ok "other MP3: exit 2"
grep -q '^sound_rating .*not comparable$' out && ok "sound not comparable" || fail "sound verdict"
grep -q '^elapsed_s .*not comparable$' out && fail "MP3 change blocked non-sound metrics" ||
	ok "MP3 change leaves the system metrics comparable"

# Partial differences, one rule: a workload on one side only or sized differently is not
# comparable for that workload, and the comparison is not comparable (exit 2, --bisect 125)
# unless another workload regressed (exit 1).
expect_rc 2 "$VMSUITE" compare base.json nomtest.json && ok "workload missing on B: exit 2"
grep -q '  mtest01: only in base.json' out && ok "workload only in BASE listed" ||
	fail "missing workload not listed"
grep -q 'NOT COMPARABLE (a workload on one side only)' out && ok "verdict names the cause" ||
	fail "verdict line: $(grep VERDICT out)"
expect_rc 125 "$VMSUITE" compare --bisect base.json nomtest.json && ok "missing workload: bisect 125"
expect_rc 125 "$VMSUITE" compare --bisect nomtest.json base.json && ok "workload only in B: bisect 125"
python3 - base.json resized.json slowsized.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
for w in b["workloads"]:
    if w["name"] == "mtest01":
        w["options"]["bytes"] = 7
json.dump(b, open(sys.argv[2], "w"))
s = json.load(open("slow.json"))
for w in s["workloads"]:
    if w["name"] == "mtest01":
        w["options"]["bytes"] = 7
json.dump(s, open(sys.argv[3], "w"))
PY
expect_rc 125 "$VMSUITE" compare --bisect base.json resized.json && ok "a workload sized differently: bisect 125"
expect_rc 1 "$VMSUITE" compare --bisect base.json slowsized.json &&
	ok "sized differently, another workload regressed: bisect 1"

# A result in the runner's real shape (the fuzz corpus' sample), against itself: every verdict
# is "no change", "inconclusive", "unstable" or informational, and the exit status is 0.
real=$VMS_SOURCE_DIR/tests/fuzz/corpus/result/golden.json
if [ -f "$real" ]; then
	cp "$real" real.json
	expect_rc 0 "$VMSUITE" compare real.json real.json && ok "real-shaped result vs itself: exit 0"
	grep -v '^VERDICT' out | grep -Eq 'regression|improvement|not comparable' &&
		fail "self-compare claims a change" ||
		ok "self-compare claims no change"
	check_width out
fi

# Options.
expect_rc 1 "$VMSUITE" compare --threshold 5% --alpha 0.01 --detect 10 base.json slow.json
grep -q 'alpha 0.01 (99% CI), threshold ±5%, detect 10%' out && ok "options shown" ||
	fail "options line"

# Bad input: one-line errors naming the file, exit 2.
one_line_naming() { # FILE
	if [ "$(wc -l < err)" -eq 1 ] && grep -q "'$1'" err; then ok "error names '$1': $(cat err)"
	else fail "error for $1 is not one line naming it: $(cat err)"; fi
}
expect_rc 2 "$VMSUITE" compare base.json missing.json && one_line_naming missing.json
echo '{"format": "vmsuite.result/1", "workloads": [' > broken.json
expect_rc 2 "$VMSUITE" compare broken.json base.json && one_line_naming broken.json
echo '{"hello": "world"}' > other.json
expect_rc 2 "$VMSUITE" compare base.json other.json && one_line_naming other.json
echo '{"format": "vmsuite.result/3", "workloads": []}' > future.json
expect_rc 2 "$VMSUITE" compare base.json future.json && one_line_naming future.json
grep -q 'newer' err && ok "newer format says so" || fail "newer format message"
expect_rc 2 "$VMSUITE" compare base.json && grep -q 'at least two result files' err &&
	ok "one file only: $(head -1 err)"
expect_rc 2 "$VMSUITE" compare --format pdf base.json slow.json && ok "unknown format"
expect_rc 1 "$VMSUITE" compare --format html -o cmp.html base.json slow.json &&
	grep -q '<svg' cmp.html && ok "html compare page written (regression: exit 1)"
expect_rc 2 "$VMSUITE" compare --threshold abc base.json slow.json && ok "bad threshold"
expect_rc 2 "$VMSUITE" compare --bogus base.json slow.json && ok "unknown option"
expect_rc 2 "$VMSUITE" compare --threshhold 5 base.json slow.json &&
	grep -q "did you mean '--threshold'?" err && ok "a mistyped option gets a hint"
expect_rc 2 "$VMSUITE" compare --threshold 2 --threshold 5 base.json slow.json &&
	grep -q "option '--threshold' given twice: it takes one value" err &&
	ok "a repeated single-meaning option is refused"
expect_rc 2 "$VMSUITE" compare -o /nonexistent-dir/x.txt base.json slow.json &&
	grep -q "cannot write '/nonexistent-dir/x.txt'" err && ok "unwritable -o: $(cat err)"

# A metric removed from one file (a gauge, elapsed_s, and a count, allocstall, of mmap001): its row
# says "missing" with "-" for every figure of that side and no change or p, in every format;
# never a 0 or a change that was not measured. Both ways round: removed from B, then from A.
cp "$VMS_SOURCE_DIR/tests/data/golden-result.json" full.json
python3 - <<'PY'
import json
d = json.load(open("full.json"))
for w in d["workloads"]:
    if w["name"] == "mmap001":
        del w["metrics"]["elapsed_s"], w["metrics"]["allocstall"]
json.dump(d, open("cut.json", "w"))
PY
for order in "full.json cut.json" "cut.json full.json"; do
	set -- $order
	side=$([ "$1" = cut.json ] && echo A || echo B)
	for fmt in text markdown json html; do
		# elapsed_s is primary: never measured on one side, the verdict cannot tell (2)
		expect_rc 2 "$VMSUITE" compare --format $fmt "$1" "$2" || continue
		cp out "missing-$side.$fmt"
	done
	python3 - "$side" missing-$side.text missing-$side.markdown missing-$side.json \
		missing-$side.html <<'PY' > missing.out 2>&1 && ok "metric missing in $side: $(cat missing.out)" ||
import json, re, sys
from html.parser import HTMLParser
side, text, md, js, html = sys.argv[1:]
errors = []
gone = ("elapsed_s", "allocstall")

def block(lines, start):  # the lines of the mmap001 table
    out, on = [], False
    for l in lines:
        if l.startswith(start):
            on = True
        elif on and ((not l.strip() and len(out) > 1) or l.startswith("##")):
            break
        if on and l.strip():
            out.append(l)
    return out

# text: metric A-mean A-cv A-n B-mean B-cv B-n change [p] verdict
rows = {l.split()[0]: l.split() for l in block(open(text).read().splitlines(), "mmap001 ")}
for m in gone:
    f = rows.get(m)
    if not f:
        errors.append(f"text: no {m} row"); continue
    figs = f[1:4] if side == "A" else f[4:7]
    other = f[4:7] if side == "A" else f[1:4]
    if figs != ["-", "-", "-"]:
        errors.append(f"text: {m} shows {figs} on the missing side")
    if "-" in other:
        errors.append(f"text: {m} lost the present side: {other}")
    if f[7:] != ["n/a", "-", "missing"]:
        errors.append(f"text: {m} change/p/verdict {f[7:]}")
# markdown: | name | A mean | A cv | A n | B mean | B cv | B n | change | p | verdict |
seen = 0
for l in block(open(md).read().splitlines(), "## mmap001"):
    c = [x.strip() for x in l.strip().strip("|").split("|")]
    name = c[0].split()[0] if c[0] else ""
    if name not in gone:
        continue
    seen += 1
    gone_md = c[1:4] if side == "A" else c[4:7]
    if gone_md != ["-", "-", "-"] or c[7:] != ["n/a", "-", "missing"]:
        errors.append(f"markdown: {name} row {c}")
if seen != len(gone):
    errors.append(f"markdown: {seen} rows of {gone}")
# json
doc = json.load(open(js))
ms = {m["name"]: m for w in doc["workloads"] if w["name"] == "mmap001" for m in w["metrics"]}
for m in gone:
    o = ms[m]["others"][0]
    s = ms[m]["base"] if side == "A" else o
    if o["verdict"] != "missing" or s["n"] != 0 or s["mean"] is not None:
        errors.append(f"json: {m} verdict {o['verdict']}, missing side {s}")
    if any(o[k] is not None for k in ("change_pct", "ci_low_pct", "ci_high_pct", "p", "runs_needed")):
        errors.append(f"json: {m} has a change or p: {o}")
# html: the elapsed_s chart says missing and draws no point for the side that lacks it
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cur, self.charts, self.v = None, {}, None
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "svg" and "compare" in (a.get("class") or ""):
            self.cur = self.charts.setdefault(a["aria-label"], {"pts": [], "verdicts": []})
        if self.cur is not None and tag == "title" and self.v is None:
            self.v = []
        if self.cur is not None and tag == "text" and (a.get("class") or "").startswith("v-"):
            self.v = []
    def handle_endtag(self, tag):
        if tag == "svg":
            self.cur = None
        if tag in ("text", "title") and self.v is not None and self.cur is not None:
            t = "".join(self.v)
            (self.cur["verdicts"] if tag == "text" else self.cur["pts"]).append(t)
            self.v = None
    def handle_data(self, d):
        if self.v is not None:
            self.v.append(d)
p = P()
p.feed(open(html, encoding="utf-8").read())
c = p.charts.get("mmap001 / elapsed_s: samples and change")
if not c:
    errors.append("html: no mmap001 elapsed_s chart")
else:
    runs = [t for t in c["pts"] if " run: " in t]
    if c["verdicts"] != ["missing"]:
        errors.append(f"html: verdicts {c['verdicts']}")
    if any(t.startswith(side + " run") for t in runs) or len(runs) != 3:
        errors.append(f"html: points {runs}")
    if any(" vs A: " in t for t in c["pts"]):
        errors.append("html: a change is drawn for a missing metric")
pre = re.search(r'<pre class="cmptext">(.*?)</pre>', open(html, encoding="utf-8").read(), re.S)
if not pre or not re.search(r"^allocstall .* missing$", pre.group(1), re.M):
    errors.append("html: the text comparison has no missing allocstall row")
for e in errors:
    print(e)
print("text, markdown, json, html" if not errors else "")
sys.exit(1 if errors else 0)
PY
		fail "metric missing in $side: $(cat missing.out)"
done

grep -q 'VERDICT B .*: CANNOT TELL' missing-A.text && grep -q '^  mmap001 *elapsed_s *missing' missing-A.text &&
	ok "a primary metric missing on one side: the VERDICT says cannot tell" ||
	fail "VERDICT with a missing primary metric: $(grep -A3 VERDICT missing-A.text)"

# Every run of B failed where all of A's succeeded: a regression (exit 1), never "no regression";
# B's timings cannot tell. The same with one run per side.
for n in 5 1; do
	"$G" -o fa.json --label ok --seed 1 --runs $n
	python3 - fa.json fb.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["label"] = "broken"
for w in d["workloads"]:
    for r in w["runs"]:
        r["status"], r["exit_code"] = "failed", 1
    for m in w["metrics"].values():
        m["samples"] = [None] * len(m["samples"])
json.dump(d, open(sys.argv[2], "w"))
PY
	expect_rc 1 "$VMSUITE" compare fa.json fb.json && ok "all runs failed, n=$n: exit 1"
	grep -q '^VERDICT B (broken) vs A (ok): REGRESSION' out &&
		grep -Eq '^  mmap001 +failed_runs +regression' out &&
		grep -Eq '^  mmap001 +elapsed_s +cannot tell' out &&
		ok "all runs failed, n=$n: failed_runs regression, elapsed_s cannot tell" ||
		fail "all runs failed, n=$n: $(grep -A6 '^VERDICT' out)"
	expect_rc 2 "$VMSUITE" compare fb.json fa.json && grep -q 'CANNOT TELL' out &&
		ok "all runs of A failed, n=$n: cannot tell (exit 2)"
done

# Absurd samples are refused up front, naming the file and the metric (GSL used to abort: 134).
python3 - base.json absurd.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["workloads"][0]["metrics"]["elapsed_s"]["samples"][:3] = [1e308, 0, 4092]
json.dump(d, open(sys.argv[2], "w"))
PY
expect_rc 2 "$VMSUITE" compare base.json absurd.json && one_line_naming absurd.json &&
	grep -q 'elapsed_s' err && ok "absurd sample names the metric"
expect_rc 2 "$VMSUITE" compare --ignore-hard-differences --exit-zero absurd.json base.json &&
	one_line_naming absurd.json

# Markdown: strings from the files never pass as markup (labels, paths, keys, names).
python3 - base.json evila.json evil.json <<'PY'
import copy, json, sys
x = '<script>alert(1)</script>[a](javascript:alert(1))`|*_&amp;'
d = json.load(open(sys.argv[1]))
w = copy.deepcopy(d["workloads"][1])
w["name"] = "wl" + x
w["metrics"]["m" + x] = dict(w["metrics"]["elapsed_s"], primary=True)
d["workloads"].append(w)
json.dump(d, open(sys.argv[2], "w"))
d["label"] = "lab" + x + "\n```\n<i>out of the fence</i>"
d["fingerprint"]["vm_sysctl"]["value"]["k" + x] = "v" + x
w["options"]["o" + x] = "v" + x
json.dump(d, open(sys.argv[3], "w"))
PY
cp evil.json 'evil<b>```.json'
rc=0
"$VMSUITE" compare --format markdown evila.json 'evil<b>```.json' >out 2>err || rc=$?
# (exit 2: the crafted option is a hard difference of one workload)
[ "$rc" -le 2 ] || fail "markdown of crafted files: exit $rc, $(cat err)"
	python3 - out <<'PY' > md.out 2>&1 && ok "markdown escapes file strings" ||
import re, sys
md = open(sys.argv[1], encoding="utf-8").read()
errors = []
# fenced blocks show their text as code; the text of one cannot close it
fence, outside = None, []
for l in md.splitlines():
    m = re.match(r"^(`{3,})", l)
    if m and fence is None:
        fence = m.group(1)
    elif m and l.strip() == fence:
        fence = None
    elif m and fence and l.startswith(fence):
        errors.append("fence closed by content: " + l)
    elif fence is None:
        outside.append(l)
if fence:
    errors.append("unclosed fence")
text = "\n".join(outside)
if re.search(r"(?<!\\)<[A-Za-z/!?]", text):
    errors.append("raw tag: " + re.search(r".*(?<!\\)<[A-Za-z/!?].*", text).group(0))
if re.search(r"(?<!\\)\]\(", text):
    errors.append("link: " + re.search(r".*(?<!\\)\]\(.*", text).group(0))
if re.search(r"(?<!\\)&amp;", text):
    errors.append("entity passed through")
if "evil" not in text or "lab" not in text or "wl" not in text or "\\<script" not in text:
    errors.append("the strings are gone")
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY
	fail "markdown: $(cat md.out)"

# One file with two interleaved variants (vmsuite.result/2): the variants are compared, both
# labels named with their n, and the paired test is said to be used; never exit 2.
$G -o var.json --runs 2 --seed 4 --variant 'page-cluster=0' --variant 'page-cluster=3'
rc=0
"$VMSUITE" compare var.json >out 2>err || rc=$?
[ "$rc" -le 1 ] && ok "variants of one file: exit $rc" || fail "variants of one file: exit $rc: $(cat err)"
grep -q '^  A (BASE) page-cluster=0 ' out && grep -q '^  B        page-cluster=3 ' out &&
	ok "both variant labels named" || fail "variant labels"
grep -q '^elapsed_s .*  2 .*  2 ' out && ok "n = 2 on each side" || fail "n = 2 each"
grep -q 'paired_log paired t-test' out && ok "the paired test is named" || fail "paired test not named"
"$VMSUITE" compare --format json var.json >out 2>err || true
[ "$(jq -r '.workloads[0].metrics[] | select(.name == "elapsed_s") | .others[0].method' out)" = paired_log ] &&
	[ "$(jq -r '.compared' out)" = variants ] && ok "json: paired_log, compared variants" ||
	fail "json method for variants"
for fmt in markdown html; do
	"$VMSUITE" compare --format $fmt var.json >out 2>err || true
	grep -q 'paired' out && ok "$fmt names the paired test" || fail "$fmt: no paired test named"
done
# A true 10 % slowdown under a machine drift of 8 % (shared by the runs made together), 5 runs:
# the paired test sees it.
$G -o drift.json --runs 5 --seed 7 --drift 0.08 --variant 'thp=off' --variant 'thp=kernel@0.10'
expect_rc 1 "$VMSUITE" compare drift.json && grep -q 'mmap001 .*elapsed_s .*regression' out &&
	ok "paired test finds +10% under 8% drift" || fail "paired regression under drift: $(grep -A3 VERDICT out)"
# Files with variants are matched by label; a one-variant file alone is a usage error.
$G -o var2.json --runs 2 --seed 9 --variant 'page-cluster=0' --variant 'page-cluster=3'
rc=0
"$VMSUITE" compare var.json var2.json >out 2>err || rc=$?
grep -q '^mmap001 \[page-cluster=3\]' out && [ "$rc" -le 1 ] && ok "variants matched across files by label" ||
	fail "variant rows across files (exit $rc)"
expect_rc 2 "$VMSUITE" compare base.json && grep -q 'several variants' err && ok "one plain file: usage error"

# Sides of several suites: the drift between suites is reported.
$G -o s1.json --label sa --seed 11
$G -o s2.json --label sa --seed 12 --shift 0.05
$G -o s3.json --label sb --seed 13
$G -o s4.json --label sb --seed 14 --shift 0.05
rc=0
"$VMSUITE" compare s1.json s2.json -- s3.json s4.json >out 2>err || rc=$?
[ "$rc" -le 1 ] && ok "two sides of two suites: exit $rc" || fail "suites: exit $rc: $(cat err)"
grep -q '^Drift between suites' out && grep -q 'B vs A mmap001 .*elapsed_s .* drift [0-9.]*%' out &&
	ok "drift reported" || fail "drift not reported"
"$VMSUITE" compare --format json s1.json s2.json -- s3.json s4.json >out 2>err || true
[ "$(jq -r '.files | map(.suites) | join(",")' out)" = "2,2" ] && ok "json: 2 suites per side" ||
	fail "json suites"
# Sides of two or more suites: the suite means always decide (no fallback to Welch on the runs,
# which false-alarms under drift), and fewer than 3 suites per side are advised against.
"$VMSUITE" compare --format json s1.json s2.json -- s3.json s4.json >out 2>err || true
[ "$(jq -r '[.workloads[].metrics[] | select(.primary and .kind == "gauge") |
	.others[0].method] | unique | join(",")' out)" = suites_log ] &&
	ok "every primary gauge: the suite-means test" ||
	fail "suite sides not all suites_log: $(jq -c '[.workloads[].metrics[] | select(.primary) | .others[0].method]' out)"
grep -q 'side A has 2 suites: .*3 or more suites per side are advised' err &&
	ok "advice: 3 or more suites per side" || fail "no suites advice: $(cat err)"
"$VMSUITE" compare --bisect s1.json s3.json >out 2>err || true
grep -q 'one suite per side: .*3 or more suites per side' err && ok "bisect: note on one suite per side" ||
	fail "no one-suite note under --bisect: $(cat err)"

# Every suite of a side is checked: a suite from another machine, another kernel or without a
# workload is never pooled silently.
$G -o a1.json --label v6.12 --seed 21
$G -o a2.json --label v6.12 --seed 22
$G -o b1.json --label v6.13 --seed 23
$G -o b1host.json --label v6.13 --seed 24 --set fingerprint.cpu_count.value=64 \
	--set fingerprint.mem_total_bytes.value=68719476736
expect_rc 125 "$VMSUITE" compare --bisect b1host.json b1.json && ok "another machine alone: 125"
expect_rc 125 "$VMSUITE" compare --bisect a1.json a2.json -- b1.json b1host.json &&
	ok "another machine as B's second suite: 125"
grep -q 'HARD     b1host.json: cpu_count' out && ok "its hard difference is listed" ||
	fail "no HARD line for b1host.json: $(grep -c HARD out)"
expect_rc 125 "$VMSUITE" compare --bisect a1.json b1host.json -- b1.json a2.json &&
	ok "another machine as BASE's second suite: 125"
$G -o b2kern.json --label v6.13 --seed 25 --set 'fingerprint.kernel_release.value="6.14.0"'
expect_rc 2 "$VMSUITE" compare a1.json a2.json -- b1.json b2kern.json &&
	grep -q 'HARD     b2kern.json vs b1.json: kernel_release' out && ok "another kernel in a side: hard" ||
	fail "kernels mixed in a side: $(grep -E 'kernel|VERDICT' out)"
$G -o b2nomtest.json --label v6.13 --seed 26 --drop-workload mtest01
expect_rc 125 "$VMSUITE" compare --bisect a1.json a2.json -- b1.json b2nomtest.json &&
	grep -q 'HARD     b2nomtest.json vs b1.json: mtest01: workload *ran -> (absent)' out &&
	ok "a workload missing in one suite of a side: hard" ||
	fail "workload missing in a suite: $(grep -E 'mtest01|VERDICT' out)"
$G -o b2lab.json --label v6.13-boot2 --seed 27 --set 'fingerprint.kernel_release.value="v6.13"'
rc=0
"$VMSUITE" compare a1.json a2.json -- b1.json b2lab.json >out 2>err || rc=$?
[ "$rc" -le 1 ] && grep -q 'soft     b2lab.json vs b1.json: label' out &&
	ok "another label in a side: shown as soft (exit $rc)" || fail "label in a side: exit $rc"

# Confounded: B's runs shared their CPUs with other processes (other_cpu_pct ~8 %, every run
# disturbed): its slower elapsed time is "confounded", never a regression.
$G -o quiet.json --label quiet --seed 31 --busy 0.3
$G -o busy.json --label busy --seed 32 --busy 8 --shift 0.09
$G -o quota.json --label quota --seed 32 --busy 0.3 --shift 0.09
$G -o oldslow.json --label oldslow --seed 32 --shift 0.09
$G -o oldquiet.json --label oldquiet --seed 31
expect_rc 2 "$VMSUITE" compare --metric elapsed_s quiet.json busy.json &&
	ok "disturbed B, slower: exit 2"
grep -q '^elapsed_s .* confounded$' out && ok "elapsed_s confounded" ||
	fail "elapsed_s verdict: $(grep '^elapsed_s' out)"
grep -q 'CANNOT TELL (.*[0-9] confounded by other processes' out &&
	ok "verdict line says confounded" || fail "verdict line: $(grep VERDICT out)"
grep -A2 '^Other processes on the CPUs' out | grep -q ' B  *[0-9.]*% (max [0-9.]*%), 5/5 runs disturbed' &&
	ok "disturbance shown per side" || fail "disturbance not shown: $(grep -A4 'Other processes' out)"
# other processes' I/O on the work device is shown per side, as evidence (it decides nothing)
$G -o ioquiet.json --label ioquiet --seed 31 --busy 0.3 --io 2
$G -o iobusy.json --label iobusy --seed 32 --busy 0.3 --io 700
expect_rc 0 "$VMSUITE" compare --metric elapsed_s ioquiet.json iobusy.json &&
	ok "other I/O alone: judged as before"
grep -A4 '^Other processes on the CPUs' out | grep -q ' A  *[0-9.]*% (max [0-9.]*%), 0/5 runs disturbed; I/O [0-9] MiB (max [0-9]*)$' &&
	grep -A4 '^Other processes on the CPUs' out | grep -q ' B  *[0-9.]*% .*; I/O [67][0-9][0-9] MiB (max [0-9]*)$' &&
	ok "other I/O shown per side" || fail "other I/O not shown: $(grep -A5 'Other processes' out)"
expect_rc 0 "$VMSUITE" compare --format json --metric elapsed_s ioquiet.json iobusy.json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
io = [s["other_io_mb"] for s in d["workloads"][0]["disturbance"]]
assert io[0]["runs"] == 5 and io[0]["mean"] < 3 and 600 < io[1]["mean"] < 800, io
' out && ok "json: other_io_mb per side" || fail "json other_io_mb: $(head -c 300 out)"
expect_rc 125 "$VMSUITE" compare --bisect --metric elapsed_s quiet.json busy.json &&
	ok "confounded alone: bisect 125"
expect_rc 125 "$VMSUITE" compare --bisect --metric elapsed_s busy.json quiet.json &&
	ok "disturbed A, B looks faster: bisect 125"
expect_rc 1 "$VMSUITE" compare --bisect --metric elapsed_s --metric sys_s quiet.json busy.json &&
	ok "a non-timing regression still decides: bisect 1"
expect_rc 1 "$VMSUITE" compare --bisect --metric elapsed_s quiet.json quota.json &&
	ok "slower with no other process (a CPU quota): bad"
expect_rc 1 "$VMSUITE" compare --bisect --metric elapsed_s oldquiet.json oldslow.json &&
	ok "files without other_cpu_pct: judged as before"
expect_rc 1 "$VMSUITE" compare --bisect --disturbed-above 20 --metric elapsed_s quiet.json busy.json &&
	ok "--disturbed-above 20: not disturbed, bad"
"$VMSUITE" compare --format json quiet.json busy.json >out 2>err || true
[ "$(jq -r '.workloads[0].disturbance[1].disturbed' out)" = 5 ] &&
	[ "$(jq -r '.workloads[0].metrics[] | select(.name == "elapsed_s") | .others[0].verdict' out)" = confounded ] &&
	ok "json: disturbance and confounded verdict" || fail "json disturbance"

# The size counts: B's ~6 % more of the CPU can explain a slowdown up to 1 / (1 - 2 x 0.057),
# +13 %: a +9 % one is confounded, a +40 % one stays a regression (the disturbance shown)
$G -o busy6.json --label busy6 --seed 32 --busy 6 --shift 0.09
$G -o busy6slow.json --label busy6slow --seed 32 --busy 6 --shift 0.40
expect_rc 2 "$VMSUITE" compare --metric elapsed_s quiet.json busy6.json &&
	grep -q '^elapsed_s .* confounded$' out && ok "+9 % beside 6 % more CPU: confounded" ||
	fail "+9 % beside 6 %: $(grep '^elapsed_s' out)"
expect_rc 1 "$VMSUITE" compare --metric elapsed_s quiet.json busy6slow.json &&
	grep -q '^elapsed_s .* regression$' out &&
	grep -A4 '^Other processes on the CPUs' out | grep -q ' B  *[0-9.]*% (max [0-9.]*%), [1-5]/5 runs disturbed' &&
	ok "+40 % beside 6 % more CPU: a regression, the disturbance shown" ||
	fail "+40 % beside 6 %: $(grep '^elapsed_s' out)"
expect_rc 1 "$VMSUITE" compare --bisect --metric elapsed_s quiet.json busy6slow.json &&
	ok "+40 % beside 6 % more CPU: bisect bad"
# B busier but still non-inferior (+2 %, its one-sided bound within --detect): other work only
# made B look worse and it passed anyway, so the step is good, not confounded (the rule before
# the size counted said 125)
$G -o qm.json --label quiet --seed 31 --busy 0.3 --drop-workload mtest01
$G -o bm.json --label busy6 --seed 32 --busy 6 --shift 0.01 --drop-workload mtest01
expect_rc 0 "$VMSUITE" compare --bisect --metric elapsed_s qm.json bm.json &&
	! grep -q '^elapsed_s .* confounded$' out &&
	grep -A2 '^Other processes on the CPUs' out | grep -q ' B  *[0-9.]*% (max [0-9.]*%), [1-5]/5 runs disturbed' &&
	ok "busier B, non-inferior: good" || fail "busier B, non-inferior: $(grep '^elapsed_s' out)"
# a run's other_cpu_pct below its resolution_pct (two clock ticks of a short run) is within
# /proc/stat's rounding: not disturbed, so B's +9 % is judged (bad), as with a CPU quota
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for w in d["workloads"]:
    v = w["metrics"]["other_cpu_pct"]["samples"]
    for r, x in zip(w["runs"], v):
        r["busy"] = {"other_cpu_pct": x, "resolution_pct": 7.0}
json.dump(d, open(sys.argv[2], "w"))
' busy6.json busy6res.json
expect_rc 1 "$VMSUITE" compare --bisect --metric elapsed_s quiet.json busy6res.json &&
	ok "disturbance within two clock ticks: not disturbed, bad"
[ "$(grep -A4 '^Other processes on the CPUs' out | grep -c ' B  *[0-9.]*% (max [0-9.]*%), 0/5 runs disturbed')" = 2 ] &&
	ok "runs within the resolution: 0/5 disturbed" ||
	fail "resolution: $(grep -A3 'Other processes' out)"

expect_rc 2 "$VMSUITE" compare s1.json s2.json -- && ok "'--' without files after it: usage error"
expect_rc 2 "$VMSUITE" compare s1.json -- -- s2.json && ok "empty side: usage error"

# Three files: three column groups (the series view), exit 0 or 1.
rc=0
"$VMSUITE" compare base.json slow.json same.json >out 2>err || rc=$?
[ "$rc" -le 1 ] && [ "$(grep -c '^mmap001 *A: 6.1.0-base *B: 6.18.44-slow *C: 6.1.0-again$' out)" = 1 ] &&
	ok "three files: one column group per file" || fail "three column groups (exit $rc)"

# Runs that drift together (a slow first half, then a fast one): batch means widen the
# interval, the text says so and the JSON gives the sd the tests used; independent runs do not.
"$G" -o drift-a.json --runs 40 --seed 11 && "$G" -o drift-b.json --runs 40 --seed 12
for f in drift-a.json drift-b.json; do
	jq '.workloads[0].metrics.elapsed_s.samples |=
		[range(0; length) as $i | (if $i < 20 then 1.10 else 1.00 end) * (1 + 0.01 * (($i % 3) - 1))]' \
		"$f" >tmp.json && mv tmp.json "$f"
done
rc=0
"$VMSUITE" compare drift-a.json drift-b.json >out 2>err || rc=$?
if grep -q '=> runs drift together (batch means widen the interval): mmap001 elapsed_s A [0-9.]*x B [0-9.]*x' out; then
	ok "drifting runs named (exit $rc)"
else
	fail "drifting runs: no 'runs drift together' line: $(grep '=>' out | head -3)"
fi
"$VMSUITE" compare --format json drift-a.json drift-b.json >out.json 2>/dev/null || true
if jq -e '[.workloads[0].metrics[] | select(.name == "elapsed_s") | .base
	| .log_sd_effective > 2 * .log_sd] | all' out.json >/dev/null; then
	ok "JSON log_sd_effective above log_sd for drifting runs"
else
	fail "JSON: log_sd_effective not above log_sd for drifting runs"
fi
"$G" -o iid-a.json --runs 40 --seed 13 && "$G" -o iid-b.json --runs 40 --seed 14
"$VMSUITE" compare iid-a.json iid-b.json >out 2>err || true
if grep -q 'elapsed_s.*x the sd of independent runs\|drift together.*elapsed_s' out; then
	fail "independent runs named as drifting: $(grep 'drift together' out)"
else
	ok "independent runs not named as drifting"
fi

# Two identical real runs on the host (the plan's mmap001 size follows the free disk, which
# moves between them): no hard difference, verdicts given.
if "$VMSUITE" run --machine host --no-drop-caches -w mtest01:bytes=8M -n 2 -o h1.json >/dev/null 2>h1.err; then
	dd if=/dev/zero of=filler bs=1M count=64 status=none
	sync
	if "$VMSUITE" run --machine host --no-drop-caches -w mtest01:bytes=8M -n 2 -o h2.json >/dev/null 2>h2.err; then
		rm -f filler
		rc=0
		"$VMSUITE" compare h1.json h2.json >out 2>err || rc=$?
		# exit 2 may be "cannot tell" (two 8M runs are noisy), never "not comparable"
		if grep -q 'HARD' out || grep -q 'NOT COMPARABLE' out; then
			fail "two identical host runs: exit $rc, $(grep HARD out)"
		else
			ok "two identical host runs: no hard difference (exit $rc)"
		fi
	else
		fail "second host run failed: $(cat h2.err)"
	fi
	rm -f filler
else
	fail "host run failed: $(cat h1.err)"
fi

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "all compare CLI checks passed"
