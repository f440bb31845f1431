#!/usr/bin/env bash
# The metric catalogue is the single list of metrics: docs/result-format.md holds its tables
# exactly, every list of the primary metrics in the docs (between <!-- primary-metrics --> and
# <!-- /primary-metrics -->) and `vmsuite help compare` name exactly its primary ones, and a real run (workloads and the audio probe) records no metric the catalogue lacks.
set -u
: "${METRIC_TABLE:?run me through ctest}"
rm -rf "$VMS_TEST_TMP" && mkdir -p "$VMS_TEST_TMP" && cd "$VMS_TEST_TMP" || exit 1
doc="$VMS_SOURCE_DIR/docs/result-format.md"
fail=0

# section NAME: the lines between "<!-- begin NAME -->" and "<!-- end NAME -->" of the doc
section() { sed -n "/^<!-- begin $1 /,/^<!-- end $1 -->/p" "$doc" | sed '1d;$d'; }

"$METRIC_TABLE" markdown >want-metrics.md || fail=1
"$METRIC_TABLE" causes >want-causes.md || fail=1
section metrics >have-metrics.md
section causes >have-causes.md
if ! diff -u have-metrics.md want-metrics.md; then
  echo "FAIL: docs/result-format.md's metric table differs from the catalogue (core/metric.c);" \
    "regenerate it with: metric-table markdown" >&2
  fail=1
fi
if ! diff -u have-causes.md want-causes.md; then
  echo "FAIL: docs/result-format.md's gap causes differ from core/metric.c (metric-table causes)" >&2
  fail=1
fi
[ -s want-metrics.md ] && [ -s want-causes.md ] || { echo "FAIL: empty tables" >&2; fail=1; }

# the primary metrics, wherever a doc lists them
primary=$("$METRIC_TABLE" primary) || fail=1
case "$primary" in *elapsed_s*) ;; *) echo "FAIL: metric-table primary: '$primary'" >&2; fail=1 ;; esac
lists=0
for f in "$VMS_SOURCE_DIR"/README.md "$VMS_SOURCE_DIR"/docs/*.md "$VMS_SOURCE_DIR"/docs/*.1; do
  while IFS= read -r list; do
    lists=$((lists + 1))
    if [ "$list" != "$primary" ]; then
      echo "FAIL: ${f#"$VMS_SOURCE_DIR"/} lists the primary metrics as '$list'; the catalogue" \
        "(core/metric.c, metric-table primary) has '$primary'" >&2
      fail=1
    fi
  done < <(grep -o '<!-- primary-metrics -->[^<]*<!-- /primary-metrics -->' "$f" |
    sed 's/<!-- \/\{0,1\}primary-metrics -->//g')
  # an opening marker whose list is not closed on the same line would escape the check
  opened=$(grep -o '<!-- primary-metrics -->' "$f" | wc -l)
  closed=$(grep -o '<!-- primary-metrics -->[^<]*<!-- /primary-metrics -->' "$f" | wc -l)
  if [ "$opened" -ne "$closed" ]; then
    echo "FAIL: ${f#"$VMS_SOURCE_DIR"/}: a primary-metrics marker without its list on one line" >&2
    fail=1
  fi
done
[ "$lists" -ge 4 ] || { echo "FAIL: only $lists primary-metrics lists in the docs" >&2; fail=1; }
help=$("$VMSUITE" help compare | tr '\n' ' ')
case "$help" in
  *"$primary"*) ;;
  *) echo "FAIL: vmsuite help compare does not list the primary metrics '$primary'" >&2; fail=1 ;;
esac

# a real run on the host machine with the audio probe on the virtual device
"$VMSUITE" run --machine host -w mtest01:bytes=8M -w mmap001:bytes=8M -n 1 --with-audio \
  --idle-seconds 1 --no-drop-caches -q -o r.json >out 2>err
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "FAIL: run exited $rc: $(cat err)" >&2
  fail=1
else
  "$METRIC_TABLE" names >names
  python3 - r.json names <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
known = set(open(sys.argv[2]).read().split())
seen = {}
for wl in doc["workloads"]:
    for name in wl["metrics"]:
        seen.setdefault(name, wl["name"])
for name in doc["audio"]["baseline"]["metrics"]:
    seen.setdefault(name, "audio baseline")
bad = sorted(n for n in seen if n not in known)
if bad:
    sys.exit("FAIL: metrics outside the catalogue: %s" % bad)
for must in ("elapsed_s", "sys_s", "pgscan", "sound_rating", "underruns"):
    if must not in seen:
        sys.exit("FAIL: a real run did not record %s" % must)
print("%d recorded metrics, all in the catalogue" % len(seen))
PY
fi
[ "$fail" -eq 0 ] && echo "metric_docs: ok"
exit "$fail"
