#!/usr/bin/env bash
# -n auto's sequential rule on synthetic data, fixed seeds, in seconds: the looks of
# suite/adaptive.c keep the false "bad" rate <= 5 % (both sides -n auto at cv 2, 10 and 25 %,
# and against a fixed 5-run baseline), the same looks without the correction exceed it (so the
# check can fail), +10 % at cv 10 % is called in >= 90 % within the default budget, and the
# binary's `compare --bisect` at the per-look alpha repeats the verdict on the final documents.
# scripts/sim-adaptive.sh prints the full table.
set -euo pipefail
sim=${VMS_SIM_ADAPTIVE:?VMS_SIM_ADAPTIVE names the simulator}
fail=0
for cv in 0.02 0.10 0.25; do
  "$sim" --trials 300 --seed 7 --cv "$cv" --max-false 0.05 || fail=1
done
"$sim" --trials 300 --seed 7 --cv 0.10 --base-runs 5 --max-false 0.05 || fail=1
# without the correction the same rule false-alarms more than 5 % where the runs spread most
# (7.8 % at cv 25 % and this seed; at cv 10 % the floor on the spread of the side with fewer runs
# keeps even uncorrected looks near 3.7 %)
if "$sim" --trials 600 --seed 7 --cv 0.25 --uncorrected --max-false 0.05 2>/dev/null; then
  echo "sim-adaptive: the uncorrected looks stayed within 5 %: the simulation cannot tell" >&2
  fail=1
fi
"$sim" --trials 300 --seed 8 --cv 0.10 --change 0.10 --min-power 0.90 || fail=1
# the binary's compare gives the simulated verdict on the final documents
w=${VMS_TEST_TMP:?}
rm -rf "$w" && mkdir -p "$w"
"$sim" --trials 20 --seed 9 --cv 0.10 --change 0.08 --write "$w" >/dev/null || fail=1
n=0
while read -r t st alpha; do
  got=0
  "$VMSUITE" compare --bisect --alpha "$alpha" "$w/$t-base.json" "$w/$t-run.json" >/dev/null 2>&1 || got=$?
  [ "$got" -eq "$st" ] || { echo "trial $t: the binary exits $got, the simulation says $st" >&2; fail=1; }
  n=$((n + 1))
done <"$w/verdicts"
[ "$n" -eq 20 ] || { echo "sim-adaptive: $n verdicts written, want 20" >&2; fail=1; }
exit $fail
