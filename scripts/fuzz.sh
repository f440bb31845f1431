#!/usr/bin/env bash
# Fuzzes the parsers with libFuzzer: builds the fuzz configuration in build-fuzz (clang, ASan +
# UBSan, core/workloads/compare/report instrumented: -DVMS_FUZZ=ON) and runs each target of
# tests/fuzz for SECONDS (default 60) from its corpus. Prints per target the coverage counters
# libFuzzer reports (cov: edges, ft: features), the corpus size, executions and exec/s, and any finding
# (crash, sanitizer report, leak, timeout) with the input that caused it. Exit 0 when no target
# found anything, 1 when one did, 2 on a build problem.
# New inputs go to build-fuzz/corpus/TARGET, not to the repository's corpus; findings to
# build-fuzz/findings/. Extra libFuzzer flags: FUZZ_ARGS="-max_len=4096 ...".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
case $seconds in
'' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2 && exit 2 ;;
esac
build=$top/build-fuzz
targets="size spec result"
cc=${CC:-clang}
if ! command -v "$cc" >/dev/null; then
  echo "fuzz.sh: needs clang with libFuzzer (Debian: apt-get install clang; CC=clang-N picks one)" >&2
  exit 2
fi
echo "== configure and build $build ($("$cc" --version | head -1))"
mkdir -p "$build"
# shellcheck disable=SC2046
cmake -S "$top" -B "$build" -DCMAKE_C_COMPILER="$cc" -DVMS_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/fuzz-build.log" 2>&1 &&
  cmake --build "$build" -j"$(nproc)" $(for t in $targets; do echo "--target fuzz_$t"; done) \
    >>"$build/fuzz-build.log" 2>&1 || {
  tail -30 "$build/fuzz-build.log" >&2
  echo "fuzz.sh: the fuzz build failed (log: $build/fuzz-build.log)" >&2
  exit 2
}
# each target sees the libraries (coverage over its seeds) and no seed crashes
(cd "$build" && ctest -L fuzz --output-on-failure) >"$build/fuzz-seen.log" 2>&1 || {
  cat "$build/fuzz-seen.log" >&2
  echo "fuzz.sh: a target is blind or a seed crashes" >&2
  exit 2
}
mkdir -p "$build/findings"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
found=0
summary=""
for t in $targets; do
  corpus=$build/corpus/$t
  log=$build/fuzz_$t.log
  mkdir -p "$corpus"
  echo "== fuzz_$t for ${seconds} s (log: $log)"
  # the first corpus directory receives new inputs; the repository's seeds are only read
  # shellcheck disable=SC2086
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$build/findings/$t-" ${FUZZ_ARGS:-} "$corpus" \
    "$top/tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  # the last status line: "#N  REDUCE cov: 123 ft: 456 corp: 78/9Kb ... exec/s: 1000 ..."
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  if [ "$rc" -eq 0 ]; then
    result="no finding"
  else
    found=1
    result="FINDING (exit $rc): $(grep -E 'ERROR: |runtime error|SUMMARY' "$log" | head -2 |
      tr '\n' ' ')input: $(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | tail -1)"
  fi
  line=$(printf 'fuzz_%-7s cov %-6s ft %-6s corpus %-12s execs %-10s exec/s %-7s %s' "$t" \
    "${cov:-?}" "${ft:-?}" "${corp:-?}" "${execs:-?}" "${rate:-?}" "$result")
  echo "$line"
  summary+="$line"$'\n'
done
echo "== summary (${seconds} s per target)"
printf '%s' "$summary"
exit "$found"
