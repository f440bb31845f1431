#!/usr/bin/env bash
# -n auto's sequential rule on synthetic data, fixed seeds, in seconds: the looks of
# suite/adaptive.c keep the false "bad" rate <= 5 % (both sides -n auto at cv 2, 10 and 25 %,
# and against a fixed 5-run baseline), the same looks without the correction exceed it (so the
# check can fail), and +10 % at cv 10 % is called in >= 90 % within the default budget.
# scripts/sim-adaptive.sh prints the full table.
set -euo pipefail
sim=${VMS_SIM_ADAPTIVE:?VMS_SIM_ADAPTIVE names the simulator}
fail=0
for cv in 0.02 0.10 0.25; do
  "$sim" --trials 300 --seed 7 --cv "$cv" --max-false 0.05 || fail=1
done
"$sim" --trials 300 --seed 7 --cv 0.10 --base-runs 5 --max-false 0.05 || fail=1
# without the correction the same rule false-alarms more than 5 % (8.2 % at this seed)
if "$sim" --trials 600 --seed 7 --cv 0.10 --uncorrected --max-false 0.05 2>/dev/null; then
  echo "sim-adaptive: the uncorrected looks stayed within 5 %: the simulation cannot tell" >&2
  fail=1
fi
"$sim" --trials 300 --seed 8 --cv 0.10 --change 0.10 --min-power 0.90 || fail=1
exit $fail
