#!/usr/bin/env bash
# The sequential rule of `vmsuite run -n auto`, simulated: synthetic A/A and A/B pairs (two
# primary metrics, log-normal, cv 2/5/10/25 %) judged by the looks of suite/adaptive.c and the
# final --against verdict, as the binary does, with a simulated clock for the budget. Prints,
# per cell, the share of trials that exit 1 (a false "bad" when the change is 0), 0 and 125,
# with the runs each side took and the per-look alpha. The target: exit 1 <= 5 % in every null
# cell; the UNCORRECTED lines (alpha 0.05 at every look) show what the correction is for. Last,
# the binary's `compare --bisect --alpha A` repeats the verdict on 200 trials' final documents.
# Usage: scripts/sim-adaptive.sh [TRIALS] [BUILD_DIR]     (TRIALS default 2000)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-2000}
build=${2:-$top/build}
sim=$build/tests/compare/vms-sim-adaptive
[ -x "$sim" ] || { echo "sim-adaptive: no simulator at $sim (build first)" >&2; exit 66; }
echo "== null (no change): both sides -n auto, then a fixed baseline of 5 and 10 runs"
for cv in 0.02 0.05 0.10 0.25; do
  for base in 0 5 10; do
    "$sim" --trials "$n" --seed 1 --cv "$cv" --base-runs "$base"
  done
  "$sim" --trials "$n" --seed 1 --cv "$cv" --uncorrected
done
echo "== power: both sides -n auto, 10 s and 30 s a run, default budget (20 min a side)"
for cell in "0.10 0.10" "0.05 0.05" "0.05 0.10" "0.02 0.05" "0.10 0.05"; do
  set -- $cell
  for run in 10 30; do
    "$sim" --trials "$n" --seed 2 --cv "$1" --change "$2" --run-s "$run"
  done
done
echo "== the binary: 'vmsuite compare --bisect --alpha A' on the final documents of 200 trials a cell"
vms=$build/cli/vmsuite
[ -x "$vms" ] || { echo "sim-adaptive: no vmsuite at $vms (build first)" >&2; exit 66; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
trap 'exit 130' INT TERM HUP
for cell in "0.10 0" "0.10 0.10" "0.05 0.05"; do
  set -- $cell
  rm -f "$w"/*
  "$sim" --trials 200 --seed 3 --cv "$1" --change "$2" --write "$w" >/dev/null
  agree=0 total=0
  while read -r t st alpha; do
    got=0
    "$vms" compare --bisect --alpha "$alpha" "$w/$t-base.json" "$w/$t-run.json" >/dev/null 2>&1 || got=$?
    [ "$got" -eq "$st" ] && agree=$((agree + 1))
    total=$((total + 1))
  done <"$w/verdicts"
  echo "cv $1 change $2: the binary's exit equals the simulated verdict in $agree/$total trials"
done
