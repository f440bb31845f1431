#!/usr/bin/env bash
# Benchmark figure (not a test) for the HTML report: generates a synthetic 30-minute run sampled
# at 10 Hz (18000 samples per column) with audio detail, renders it, and prints the file sizes,
# the render time (best of 3) and, when chromium is installed, how long Chromium takes to load
# and screenshot it compared with an empty page.
#
# usage: scripts/bench-html.sh [VMSUITE-BINARY] [MINUTES] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
vmsuite=${1:-${VMSUITE:-$here/build/cli/vmsuite}}
minutes=${2:-30}
runs=${3:-1}
[ -x "$vmsuite" ] || { echo "bench-html: no vmsuite binary at '$vmsuite' (give its path)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/vms-bench-html.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

python3 "$here/tests/html/make-result.py" --base "$here/tests/data/golden-result.json" \
  --only mmap001 --seconds $((minutes * 60)) --hz 10 --audio --gaps 40 --out "$tmp/one.json"
# repeat the run RUNS times (same data) to see how the page grows with runs
python3 - "$tmp/one.json" "$tmp/r.json" "$runs" <<'EOF'
import copy, json, sys
d = json.load(open(sys.argv[1]))
w = d["workloads"][0]
run = w["runs"][0]
n = int(sys.argv[3])
w["runs"] = [dict(copy.deepcopy(run), index=i + 1) for i in range(n)]
for m in w["metrics"].values():
    m["samples"] = (m["samples"][:1] or [None]) * n
json.dump(d, open(sys.argv[2], "w"))
EOF

best=
for _ in 1 2 3; do
  s=$(date +%s.%N)
  "$vmsuite" report "$tmp/r.json" --format html -o "$tmp/r.html"
  e=$(date +%s.%N)
  t=$(python3 -c "print(f'{$e - $s:.3f}')")
  if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $t < $best else 1)"; then best=$t; fi
done
samples=$(python3 -c "import json; d=json.load(open('$tmp/r.json')); print(len(d['workloads'][0]['runs'][0]['series']['t_s']))")
echo "input:  $(stat -c %s "$tmp/r.json") bytes JSON, $runs run(s) of $minutes min, $samples samples per column"
echo "output: $(stat -c %s "$tmp/r.html") bytes HTML, $(grep -o '<svg ' "$tmp/r.html" | wc -l) <svg>, $(grep -o '<path ' "$tmp/r.html" | wc -l) paths"
echo "render: ${best} s (best of 3, includes loading the JSON)"

chromium=$(command -v chromium || true)
if [ -n "$chromium" ]; then
  printf '<!DOCTYPE html><html><body><p>empty</p></body></html>\n' > "$tmp/empty.html"
  shot() {
    local s e
    rm -rf "$tmp/profile"
    s=$(date +%s.%N)
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --user-data-dir="$tmp/profile" --screenshot="$tmp/shot.png" --window-size=1280,2000 \
      "file://$1" > /dev/null 2>&1
    e=$(date +%s.%N)
    python3 -c "print(f'{$e - $s:.2f}')"
  }
  empty=$(shot "$tmp/empty.html")
  page=$(shot "$tmp/r.html")
  echo "chromium: load+screenshot ${page} s (an empty page: ${empty} s)"
else
  echo "chromium: not installed, load time not measured"
fi
