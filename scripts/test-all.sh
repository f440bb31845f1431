#!/usr/bin/env bash
# The README's second command (and what CI runs): install what is missing, then build and run
# every test twice — a warnings-as-errors release build (with clang-tidy, zero findings) and an
# ASan+UBSan build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
jobs=$(nproc)
run_config() {
  local dir=$1; shift
  echo "== configure $dir ($*)"
  cmake -S "$top" -B "$top/$dir" -DVMS_WERROR=ON "$@" >/dev/null
  cmake --build "$top/$dir" -j"$jobs"
  echo "== test $dir"
  (cd "$top/$dir" && ctest --output-on-failure -j"$jobs" --timeout 900)
}
run_config build-ci -DCMAKE_BUILD_TYPE=RelWithDebInfo
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  run_config build-asan -DCMAKE_BUILD_TYPE=Debug -DVMS_SANITIZE=ON
echo "test-all: both configurations passed"
