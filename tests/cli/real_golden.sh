# A real `vmsuite run` (a tiny plan on the host) through its result file to `vmsuite report`,
# compared with golden files after masking what varies between runs and machines: every
# number becomes N, the kernel and the start time in the header are masked. A metric renamed
# or a line dropped on the producing side changes the masked report or the list of names
# (metrics with unit, direction and kind; run fields; time-series columns), and fails here.
# scripts/update-goldens.sh rewrites the golden files after a deliberate change.
# Kernel paths: those of mmap001 and mtest01 (page faults, file mapping, anonymous memory).
. "$(dirname "$0")/lib.sh"

if [ ! -r /proc/pressure/memory ]; then
  skip_rest "no PSI in this kernel (/proc/pressure): the result has no pressure metrics"
fi

# --disturbed-above 100: whether other processes took the CPU during a run depends on the
# moment, and would add "disturbed:" lines to the masked report
expect_exit 0 "tiny real run" -- "$VMSUITE" run --machine host --no-drop-caches --quiet \
  --disturbed-above 100 -w mmap001:bytes=8M -w mtest01:bytes=16M -n 2 --workdir "$VMS_TEST_TMP" \
  -o real.json
expect_exit 0 "report of the real run" -- "$VMSUITE" report real.json

# the header's kernel and start time, then every number: what is left is the report's shape
sed -E '1s/^(vmsuite [^ ]+) — .* — started [^ ]+ — /\1 — KERNEL — started TIME — /' out |
  sed -E 's/(^|[^[:alnum:]_])[0-9]+(\.[0-9]+)*/\1N/g' > report.masked
expect_golden tests/cli/golden/real-report.txt report.masked "masked report of a real run"

python3 - real.json > names.txt <<'PY' || fail "cannot list the names in the result"
import json, sys
d = json.load(open(sys.argv[1]))
print("result:", " ".join(sorted(d)))
print("protocol:", " ".join(sorted(d["protocol"])))
for w in d["workloads"]:
    print(f"workload {w['name']}")
    for name, m in sorted(w["metrics"].items()):
        print(f"  metric {name} unit={m.get('unit')} better={m.get('better')} "
              f"kind={m.get('kind')} primary={m.get('primary')} samples={len(m['samples'])}")
    for i, r in enumerate(w["runs"]):
        print(f"  run {i + 1} status={r['status']}: {' '.join(sorted(r))}")
        print(f"    series: {' '.join(sorted(r['series']['columns']))}")
PY
expect_golden tests/cli/golden/real-names.txt names.txt "metric and field names of a real run"
finish
