# The compare view: three synthetic result files (B slower in elapsed time, C with a hard
# environment difference), rendered to HTML, checked against `vmsuite compare --format json`
# of the same files: one chart per primary metric, every run's value as a point, each file's
# verdict, the environment diff rows. With Chromium installed, a screenshot is kept as
# tests/html/artifacts/compare.png in the build tree.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

here=$VMS_SOURCE_DIR/tests/html
: "${VMS_COMPARE_HTML:?run me through ctest}"
python3 "$here/make-result.py" --base "$VMS_SOURCE_DIR/tests/data/golden-result.json" \
  --out A.json --audio --gaps 3 || fail "make-result"
python3 - <<'EOF'
import json
d = json.load(open("A.json"))
for label, scale, mem in (("2.4.14-B", 1.30, None), ("2.4.14-C <&>", 1.0, 999)):
    e = json.loads(json.dumps(d))
    e["label"] = label
    for w in e["workloads"]:
        s = w["metrics"]["elapsed_s"]["samples"]
        w["metrics"]["elapsed_s"]["samples"] = [None if v is None else round(v * scale, 2) for v in s]
    if mem:
        e["fingerprint"]["mem_total_bytes"] = {"value": mem, "source": "/proc/meminfo"}
        e["protocol"]["machine"]["mem_limit_bytes"] = None  # on the host: MemTotal counts
    json.dump(e, open(label[:8].replace(".", "") + ".json", "w"))
EOF
mv 2414-B.json B.json && mv 2414-C.json C.json || fail "fixtures"
expect_exit 0 "render the compare view" -- "$VMS_COMPARE_HTML" cmp.html A.json B.json C.json
"$VMSUITE" compare A.json B.json C.json --format json -o cmp.json --exit-zero || fail "compare json"

python3 - cmp.html cmp.json A.json B.json C.json <<'EOF' > check.out 2>&1 && ok || fail "compare view: $(cat check.out)"
import json, re, sys
from html.parser import HTMLParser
html = open(sys.argv[1], encoding="utf-8").read()
cmp = json.load(open(sys.argv[2]))
docs = [json.load(open(p)) for p in sys.argv[3:]]
errors = []

class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.charts, self.cur, self.stack, self.env_rows, self.text = [], None, [], 0, None
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "svg" and "compare" in (a.get("class") or ""):
            self.cur = {"label": a["aria-label"], "points": 0, "verdicts": []}
            self.charts.append(self.cur)
        if self.cur is not None and "pt" in (a.get("class") or "").split():
            self.cur["points"] += 1
        if tag == "text" and self.cur is not None and (a.get("class") or "").startswith("v-"):
            self.text = []
        if tag == "tr" and (a.get("class") or "").startswith("env-"):
            self.env_rows += 1
    def handle_endtag(self, tag):
        if tag == "svg":
            self.cur = None
        if tag == "text" and self.text is not None:
            self.cur["verdicts"].append("".join(self.text))
            self.text = None
    def handle_data(self, d):
        if self.text is not None:
            self.text.append(d)

p = P()
p.feed(html)
charts = {c["label"]: c for c in p.charts}
want = 0
for w in cmp["workloads"]:
    for m in w["metrics"]:
        if not m["primary"]:
            continue
        want += 1
        label = f"{w['name']} / {m['name']}: samples and change"
        c = charts.get(label)
        if not c:
            errors.append(f"no chart {label!r}")
            continue
        verdicts = [o["verdict"] for o in m["others"]]
        if c["verdicts"] != verdicts:
            errors.append(f"{label}: verdicts {c['verdicts']}, json {verdicts}")
        # a derived count (failed_runs, primary) draws one 0/1 point per run that ended
        samples = m["base"]["n"] + sum(o["n"] for o in m["others"]) if m["derived"] else 0
        if not m["derived"]:
            for d in docs:
                for dw in d["workloads"]:
                    if dw["name"] == w["name"]:
                        samples += sum(v is not None for v in dw["metrics"].get(m["name"], {}).get("samples", []))
        changes = sum(1 for o in m["others"] if o["change_pct"] is not None)
        if c["points"] != samples + changes:
            errors.append(f"{label}: {c['points']} points, want {samples} samples + {changes} changes")
if len(p.charts) != want:
    errors.append(f"{len(p.charts)} charts, {want} primary metrics")
env = sum(len(e) for e in cmp["environment"])
if p.env_rows != env:
    errors.append(f"{p.env_rows} environment rows, json has {env}")
if "HARD" not in html or "mem_total_bytes" not in html:
    errors.append("the hard difference is not shown")
if "2.4.14-C &lt;&amp;&gt;" not in html:
    errors.append("label not escaped")
if "regression" not in [v for c in p.charts for v in c["verdicts"]]:
    errors.append("B's slower elapsed time is not a regression")
if "<pre class=\"cmptext\">vmsuite compare" not in html:
    errors.append("no text comparison")
print(f"{len(p.charts)} charts, {env} environment rows")
for e in errors:
    print("error:", e)
sys.exit(1 if errors else 0)
EOF
cat check.out

chromium=$(command -v chromium || true)
if [ -n "$chromium" ]; then
  artifacts=$VMS_BINARY_DIR/tests/html/artifacts
  mkdir -p "$artifacts"
  profile=$(mktemp -d "$VMS_TEST_TMP/profile.XXXXXX")
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 --screenshot="$VMS_TEST_TMP/compare.png" \
    --window-size=1280,2000 "file://$VMS_TEST_TMP/cmp.html" > shot.out 2> shot.err
  if grep ':CONSOLE' shot.err > console.txt; then fail "console messages: $(cat console.txt)"; else ok; fi
  png=$(python3 "$here/png-check.py" compare.png) && ok || fail "compare screenshot blank: $png"
  cp compare.png "$artifacts/compare.png" && cp cmp.html "$artifacts/compare.html" || fail "artefacts"
else
  skip_rest "chromium is not installed: the page was checked, not rendered (scripts/install-deps.sh installs it)"
fi
finish
