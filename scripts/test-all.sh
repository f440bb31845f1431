#!/usr/bin/env bash
# The README's second command (and what CI runs): install what is missing, then build and run
# every test twice — a warnings-as-errors release build (with clang-tidy, zero findings) and an
# ASan+UBSan build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
jobs=$(nproc)
# Tests side by side: twice the CPUs, since most tests wait on timers, the audio clock or the
# host lock (which ctest's RESOURCE_LOCKs order); the ones that keep a CPU busy
# (vms_test_cpu_bound in tests/CMakeLists.txt) each take one of the spec's `cpus` slots, one a
# CPU, so clang-tidy and the simulations never outnumber the CPUs.
run_config() {
  local dir=$1; shift
  echo "== configure $dir ($*)"
  cmake -S "$top" -B "$top/$dir" -DVMS_WERROR=ON -DVMS_TEST_CPUS="$jobs" "$@" >/dev/null
  cmake --build "$top/$dir" -j"$jobs"
  echo "== test $dir"
  printf '{"version": {"major": 1, "minor": 0}, "local": [{"cpus": [{"id": "0", "slots": %d}]}]}\n' \
    "$jobs" >"$top/$dir/cpus.json"
  (cd "$top/$dir" && ctest --output-on-failure -j"$((2 * jobs))" --resource-spec-file cpus.json \
    --timeout 900)
}
run_config build-ci -DCMAKE_BUILD_TYPE=RelWithDebInfo
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  run_config build-asan -DCMAKE_BUILD_TYPE=Debug -DVMS_SANITIZE=ON
echo "test-all: both configurations passed"
