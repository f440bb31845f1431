# The emulated machine's temporary swap file (core/swapfile.c, suite/suite.c): refused on
# tmpfs; created, switched on, recorded in the result; switched off and removed after a normal
# run, a failed run, SIGINT and SIGTERM, and after SIGKILL by `vmsuite cleanup` or the next
# run. Swap that the test did not make is never touched: /proc/swaps is compared entry by entry
# (other tests may add their own swap meanwhile), and only .vmsuite-swap-* files under this
# test's directory are ever switched off, by the trap, when a check failed half-way.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_rest "needs root (swapon, a memory cgroup)"
if "$VMSUITE" run --machine hron2001 --swap-file no -w mtest01:bytes=1M -n 1 -q -o probe.json \
  >/dev/null 2>probe.err; then :; else
  skip_rest "no memory cgroup here: $(cat probe.err)"
fi
[ -r /proc/swaps ] || skip_rest "no /proc/swaps"

# Whatever this test's runs made and a failed check left: off and gone, on every exit.
ours() { # the swap areas under this test's directory that /proc/swaps lists
  awk 'NR > 1 { print $1 }' /proc/swaps | grep -F -- "$VMS_TEST_TMP/" || true
}
cleanup_ours() {
  local f
  for f in $(ours); do
    case "$(basename "$f")" in .vmsuite-swap-*) swapoff "$f" ;; esac
  done
  rm -f "$VMS_TEST_TMP"/.vmsuite-swap-* "$VMS_TEST_TMP"/*/.vmsuite-swap-*
}
trap cleanup_ours EXIT

# (other runs' temporary swap files go when those runs end: not compared)
before=$(awk 'NR > 1 && $1 !~ /\/\.vmsuite-swap-[^\/]+$/ { print $1 }' /proc/swaps | sort)
# every area listed before is still listed, and none of this test's is
swaps_as_before() {
  local what=$1 now name
  now=$(awk 'NR > 1 { print $1 }' /proc/swaps | sort)
  for name in $before; do
    printf '%s\n' "$now" | grep -qxF -- "$name" && ok || fail "$what: swap area '$name' is gone"
  done
  [ -z "$(ours)" ] && ok || fail "$what: still listed: $(ours)"
  [ -z "$(ls -A "$VMS_TEST_TMP" | grep -F .vmsuite-swap-)" ] && ok ||
    fail "$what: swap file left: $(ls -A "$VMS_TEST_TMP")"
}

# A small emulated machine: 32 MiB RAM + 64 MiB swap, so the swap file stays small. The host
# may have swap of its own; --swap-limit asks for more than it has, so a file makes up the rest.
# Another run's temporary swap file (.vmsuite-swap-*) is not the host's: vmsuite does not count
# it (it goes when that run ends), so neither does the test.
host_swap=$(awk 'NR > 1 && $1 !~ /\/\.vmsuite-swap-[^\/]+$/ { kib += $3 } END { print kib * 1024 }' /proc/swaps)
want=$((host_swap + 64 * 1024 * 1024))
small=(--machine hron2001 --mem-limit 32M --swap-limit "$want" --workdir "$VMS_TEST_TMP")

# 1. refused on tmpfs: --swap-dir there is an error before anything changes
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
  shm=$(mktemp -d /dev/shm/vmsuite-swaptest.XXXXXX)
  expect_exit 128 "swap dir on tmpfs" -- "$VMSUITE" run "${small[@]}" --swap-dir "$shm" \
    -w mtest01:bytes=1M -n 1 -q -o refused.json
  expect_in "$err" "is on tmpfs" "tmpfs refusal names tmpfs"
  [ ! -e refused.json ] && ok || fail "tmpfs refusal: a result was written"
  [ -z "$(ls -A "$shm")" ] && ok || fail "tmpfs refusal: left $(ls -A "$shm")"
  # the default place (the work directory) on tmpfs: a note, and the run without the file
  expect_exit 0 "workdir on tmpfs" -- "$VMSUITE" run "${small[@]}" --workdir "$shm" \
    -w mtest01:bytes=1M -n 1 -q -o tmpfs.json
  expect_in "$err" "cannot hold a swap file" "tmpfs workdir: the note says why"
  [ "$(json_get tmpfs.json 'd["protocol"]["machine"]["swap_file"]')" = None ] && ok ||
    fail "tmpfs workdir: swap_file recorded"
  rmdir "$shm"
else
  fail "/dev/shm is not tmpfs here: the refusal was not tested"
fi
swaps_as_before "tmpfs refusal"

# 2. a normal run: the file is made, used, recorded, then switched off and removed
expect_exit 0 "normal run" -- "$VMSUITE" run "${small[@]}" -w mtest01:bytes=80M -n 1 -q \
  -o normal.json
sf='d["protocol"]["machine"]["swap_file"]'
[ "$(json_get normal.json "$sf[\"size_bytes\"]")" = $((64 * 1024 * 1024)) ] && ok ||
  fail "normal: swap_file.size_bytes: $(json_get normal.json "$sf")"
case "$(json_get normal.json "$sf[\"path\"]")" in
  "$VMS_TEST_TMP"/.vmsuite-swap-*) ok ;;
  *) fail "normal: swap_file.path: $(json_get normal.json "$sf")" ;;
esac
[ "$(json_get normal.json 'd["protocol"]["machine"]["effective_swap_bytes"]')" = "$want" ] && ok ||
  fail "normal: effective swap $(json_get normal.json 'd["protocol"]["machine"]["effective_swap_bytes"]'), want $want"
out_pages=$(json_get normal.json 'd["workloads"][0]["runs"][0]["vmstat_delta"]["pswpout"]')
[ "${out_pages:-0}" -gt 0 ] && ok || fail "normal: nothing was swapped out (pswpout $out_pages)"
swaps_as_before "normal run"

# 3. an error: the run fails (more than RAM + swap: the OOM killer), the suite goes on and
# still removes the file
expect_exit 1 "failed run" -- "$VMSUITE" run "${small[@]}" -w mtest01:bytes=400M -n 1 -q \
  -o failed.json
swaps_as_before "failed run"

# 4. SIGINT, SIGTERM, SIGKILL while the workload runs with the file switched on
wait_listed() { # wait_listed PID: until this test's swap file is listed and a child runs
  for _ in $(seq 1 400); do
    [ -n "$(ours)" ] && [ -n "$(pgrep -P "$1")" ] && return 0
    sleep 0.05
  done
  return 1
}
for sig in INT TERM KILL; do
  "$VMSUITE" run "${small[@]}" -w mtest01:bytes=80M -n 400 -q -o "sig$sig.json" \
    >"sig$sig.out" 2>"sig$sig.err" &
  suite=$!
  wait_listed "$suite" && ok || fail "SIG$sig: the swap file never appeared in /proc/swaps"
  kill -"$sig" "$suite"
  wait "$suite"
  code=$?
  if [ "$sig" = KILL ]; then
    [ "$code" -eq 137 ] && ok || fail "SIGKILL: exit $code"
    # what it left stays listed until cleanup; its children die with it (PDEATHSIG)
    [ -n "$(ours)" ] && ok || fail "SIGKILL: the swap file was not left behind to clean up"
    expect_exit 0 "cleanup after SIGKILL" -- "$VMSUITE" cleanup
    expect_in "$out" "removed the swap file" "cleanup names the swap file"
  else
    [ "$code" -eq 130 ] && ok || fail "SIG$sig: exit $code, want 130; $(cat "sig$sig.err")"
  fi
  swaps_as_before "SIG$sig"
done

# 5. after SIGKILL, the next run repairs it when it starts (and makes its own)
"$VMSUITE" run "${small[@]}" -w mtest01:bytes=80M -n 400 -q -o killed.json >killed.out 2>killed.err &
suite=$!
wait_listed "$suite" && ok || fail "next-run repair: the swap file never appeared"
kill -KILL "$suite"
wait "$suite"
left=$(ours)
[ -n "$left" ] && ok || fail "next-run repair: nothing left to repair"
expect_exit 0 "the next run" -- "$VMSUITE" run "${small[@]}" -w mtest01:bytes=8M -n 1 -q -o next.json
expect_in "$err" "repaired what a dead vmsuite left: removed the swap file '$left'" "the next run repairs"
swaps_as_before "next-run repair"

finish
