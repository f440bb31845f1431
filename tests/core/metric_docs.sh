#!/usr/bin/env bash
# The metric catalogue is the single list of metrics: docs/result-format.md holds its tables
# exactly, and a real run (workloads and the audio probe) records no metric the catalogue lacks.
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

# a real run on the host machine with the audio probe on the virtual device
"$VMSUITE" run --machine host -w mtest01:bytes=8M -w mmap001:bytes=8M -n 1 --with-audio \
  --baseline 1 --no-drop-caches -q -o r.json >out 2>err
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
