#!/bin/sh
# Reports the lines of a Linaro result.txt ("NAME RESULT [MEASUREMENT [UNITS]]", written by
# `vmsuite report --format lava`) as LAVA test cases: through lava-test-case, grouped per
# workload with lava-test-set, when LAVA provides them; otherwise as the same signal lines
# LAVA's own helpers print (<LAVA_SIGNAL_TESTCASE ...>), so a log shows what LAVA would record.
# A workload's block starts with its "-runs" case: that case names the set.
# With KMSG set (LAVA's `lava-signal: kmsg`, which sets it for its own helpers too) the signal
# lines go to /dev/kmsg instead of stdout, so that they reach the serial console whole even
# when kernel messages (OOM kills) interleave with the test's output. POSIX sh.
#
# usage: send-results.sh [RESULT_TXT]   (default ./output/result.txt)
set -eu
file=${1:-./output/result.txt}
if [ ! -r "$file" ]; then
  echo "send-results: cannot read $file" >&2
  exit 1
fi
lava=0
if command -v lava-test-case >/dev/null 2>&1 && command -v lava-test-set >/dev/null 2>&1; then
  lava=1
fi

# signal LINE: a signal line where LAVA reads them
signal() {
  if [ -n "${KMSG:-}" ]; then echo "<0>$1" >/dev/kmsg; else echo "$1"; fi
}
set_start() {
  if [ "$lava" = 1 ]; then lava-test-set start "$1"; else signal "<LAVA_SIGNAL_TESTSET START $1>"; fi
}
set_stop() {
  if [ "$lava" = 1 ]; then lava-test-set stop; else signal "<LAVA_SIGNAL_TESTSET STOP>"; fi
}

open=""
while read -r name result measurement units rest; do
  [ -n "$name" ] || continue
  case "$name" in \#*) continue ;; esac
  case "$result" in
    pass | fail | skip | unknown) ;;
    *)
      echo "send-results: line for '$name' has result '$result'; reporting it as unknown" >&2
      result=unknown
      ;;
  esac
  if [ -n "$rest" ]; then
    echo "send-results: extra words after '$name $result $measurement $units' ignored" >&2
  fi
  case "$name" in
    *-runs)
      [ -z "$open" ] || set_stop
      open=${name%-runs}
      set_start "$open"
      ;;
  esac
  if [ "$lava" = 1 ]; then
    if [ -n "$measurement" ]; then
      lava-test-case "$name" --result "$result" --measurement "$measurement" --units "${units:-none}"
    else
      lava-test-case "$name" --result "$result"
    fi
  elif [ -n "$measurement" ]; then
    signal "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$name RESULT=$result MEASUREMENT=$measurement UNITS=${units:-none}>"
  else
    signal "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$name RESULT=$result>"
  fi
done <"$file"
[ -z "$open" ] || set_stop
