# The emulated machine's zram swap (--swap-kind zram; core/zram.c, suite/suite.c): usage errors
# before anything changes; `run --swap-kind zram -w mtest01 -n 2` swaps out to a zram device
# vmsuite added in every run (the run's pswpout and the device's own write counter), records
# it, and removes it; the device is removed after SIGINT, and after SIGKILL by `vmsuite
# cleanup` and by the next run; a device that took the number of the killed run's device is
# not vmsuite's and is left alone. After each step /proc/swaps and every zram device's state
# (number, diskseq, initstate, disksize, compressor) equal what they were before.
# The trap removes only zram devices this test's runs added (named by a record in this test's
# state directory, added after the test started) and its own foreign device.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_rest "needs root (hot_add, swapon, a memory cgroup)"
[ -e /sys/class/zram-control/hot_add ] || skip_rest "no /sys/class/zram-control (zram not loaded)"
ls /sys/block/*/diskseq >/dev/null 2>&1 || skip_rest "block devices have no diskseq (Linux < 5.15)"
if "$VMSUITE" run --machine hron2001 --swap-file no -w mtest01:bytes=1M -n 1 -q -o probe.json \
  >/dev/null 2>probe.err; then :; else
  skip_rest "no memory cgroup here: $(cat probe.err)"
fi

# every block device added from now on has a higher diskseq
floor=$(cat /sys/block/*/diskseq | sort -n | tail -1)
foreign_id=

# zram<N> of this test's runs: added since the test started and named by its journal
ours() {
  local d id seq
  for d in /sys/block/zram*; do
    [ -e "$d/diskseq" ] || continue
    id=${d##*/zram}
    seq=$(cat "$d/diskseq")
    [ "$seq" -gt "$floor" ] || continue
    grep -lqs "\"/dev/zram$id\"" "$VMSUITE_STATE_DIR"/journal/*.json && echo "$id"
  done
  return 0
}
remove_zram() { # remove_zram N: off, reset, removed
  grep -q "^/dev/zram$1 " /proc/swaps && swapoff "/dev/zram$1"
  echo 1 >"/sys/block/zram$1/reset"
  echo "$1" >/sys/class/zram-control/hot_remove
}
cleanup_ours() {
  local id
  for id in $(ours); do remove_zram "$id"; done
  [ -n "$foreign_id" ] && [ -e "/sys/block/zram$foreign_id" ] && remove_zram "$foreign_id"
  return 0
}
trap cleanup_ours EXIT

# The state compared: swap areas (not their use; other runs' temporary swap files go when those
# runs end) and each zram device's identity and set-up.
state() {
  local d
  awk 'NR > 1 && $1 !~ /\/\.vmsuite-swap-[^\/]+$/ { print $1, $2, $3, $5 }' /proc/swaps | sort
  for d in /sys/block/zram*; do
    [ -e "$d" ] || continue
    echo "${d##*/} $(cat "$d/diskseq") $(cat "$d/initstate") $(cat "$d/disksize")" \
      "$(cat "$d/comp_algorithm")"
  done
}
before=$(state)
state_as_before() {
  local now
  now=$(state)
  [ "$now" = "$before" ] && ok || fail "$1: host state changed:
before:
$before
now:
$now"
}
wait_zram_swap() { # wait_zram_swap PID: until a device of this run's is swap and a child runs
  for _ in $(seq 1 600); do
    [ -n "$(ours)" ] && grep -q "^/dev/zram$(ours | head -1) " /proc/swaps &&
      [ -n "$(pgrep -P "$1")" ] && return 0
    sleep 0.05
  done
  return 1
}

# 1. usage errors, nothing changed: an unknown kind; --swap-file or --swap-dir with zram; zram
# on the host profile
expect_exit 129 "unknown kind" -- "$VMSUITE" run --swap-kind disk -w mtest01:bytes=1M -n 1 -q -o u1.json
expect_in "$err" "--swap-kind takes file, zram or zswap, not 'disk'" "unknown kind: the message"
expect_exit 129 "zram + --swap-file no" -- "$VMSUITE" run --swap-kind zram --swap-file no \
  -w mtest01:bytes=1M -n 1 -q -o u2.json
expect_in "$err" "--swap-file and --swap-dir choose the swap file of --swap-kind file" \
  "--swap-file no: the message"
expect_exit 129 "zram + --swap-dir" -- "$VMSUITE" run --swap-kind zram --swap-dir . \
  -w mtest01:bytes=1M -n 1 -q -o u3.json
expect_exit 128 "zram on the host profile" -- "$VMSUITE" run --machine host --swap-kind zram \
  -w mtest01:bytes=1M -n 1 -q -o u4.json
expect_in "$err" "--swap-kind zram needs --machine hron2001" "host profile: the message"
[ ! -e u1.json ] && [ ! -e u2.json ] && [ ! -e u3.json ] && [ ! -e u4.json ] && ok ||
  fail "usage errors: a result was written"
state_as_before "usage errors"

# 2. the issue's command: every run swaps out to the device vmsuite added, which goes at the end
expect_exit 0 "run --swap-kind zram -w mtest01 -n 2" -- "$VMSUITE" run --swap-kind zram \
  -w mtest01 -n 2 -q --workdir "$VMS_TEST_TMP" -o normal.json
m='d["protocol"]["machine"]'
[ "$(json_get normal.json "$m[\"swap_kind\"]")" = zram ] && ok || fail "normal: swap_kind"
device=$(json_get normal.json "$m[\"zram\"][\"device\"]")
case "$device" in /dev/zram[0-9]*) ok ;; *) fail "normal: zram.device '$device'" ;; esac
[ "$(json_get normal.json "$m[\"zram\"][\"size_bytes\"]")" = $((1024 * 1024 * 1024)) ] && ok ||
  fail "normal: zram.size_bytes $(json_get normal.json "$m[\"zram\"]")"
comp=$(json_get normal.json "$m[\"zram\"][\"compressor\"]")
case "$comp" in "" | None | *[![:alnum:]-]*) fail "normal: compressor '$comp'" ;; *) ok ;; esac
echo "compressor: $comp"
[ "$(json_get normal.json "$m[\"zram\"][\"priority\"]")" = 32767 ] && ok || fail "normal: priority"
# the pool is a quarter of the emulated 512 MiB; the cgroup gets the other 384 MiB
[ "$(json_get normal.json "$m[\"zram\"][\"pool_limit_bytes\"]")" = $((128 * 1024 * 1024)) ] &&
  ok || fail "normal: pool_limit_bytes"
[ "$(json_get normal.json "$m[\"mem_limit_bytes\"]")" = $((384 * 1024 * 1024)) ] && ok ||
  fail "normal: mem_limit_bytes $(json_get normal.json "$m[\"mem_limit_bytes\"]")"
[ "$(json_get normal.json "$m[\"ram_bytes\"]")" = $((512 * 1024 * 1024)) ] && ok ||
  fail "normal: ram_bytes"
[ "$(json_get normal.json "$m[\"swap_file\"]")" = None ] && ok || fail "normal: a swap file too"
runs=$(json_get normal.json 'len(d["workloads"][0]["runs"])')
[ "$runs" = 2 ] && ok || fail "normal: $runs runs"
for i in 0 1; do
  r="d[\"workloads\"][0][\"runs\"][$i]"
  out_pages=$(json_get normal.json "$r[\"vmstat_delta\"][\"pswpout\"]")
  written=$(json_get normal.json "$r[\"swap_device\"][\"written_bytes\"]")
  echo "run $((i + 1)): pswpout $out_pages pages, $written bytes written to $device," \
    "pool peak $(json_get normal.json "$r[\"swap_device\"][\"pool_peak_bytes\"]") bytes"
  [ "${out_pages:-0}" -gt 0 ] && ok || fail "normal run $((i + 1)): pswpout $out_pages"
  [ "${written:-0}" -gt $((64 * 1024 * 1024)) ] && ok ||
    fail "normal run $((i + 1)): $written bytes written to the zram device"
  [ "$(json_get normal.json "$r[\"swap_device\"][\"device\"]")" = "$device" ] && ok ||
    fail "normal run $((i + 1)): swap_device names another device"
done
state_as_before "normal run"

# A small machine for the interrupted runs: 64 MiB RAM (48 + a 16 MiB pool), 128 MiB zram.
small=(--swap-kind zram --mem-limit 64M --swap-limit 128M --workdir "$VMS_TEST_TMP")

# 3. SIGINT and SIGTERM while the workload swaps to the device
for sig in INT TERM; do
  "$VMSUITE" run "${small[@]}" -w mtest01:bytes=100M -n 400 -q -o "sig$sig.json" \
    >"sig$sig.out" 2>"sig$sig.err" &
  suite=$!
  wait_zram_swap "$suite" && ok || fail "SIG$sig: the zram device never became swap"
  # swap at the top priority while it runs
  prio=$(awk -v d="/dev/zram$(ours | head -1)" '$1 == d { print $5 }' /proc/swaps)
  [ "$prio" = 32767 ] && ok || fail "SIG$sig: priority '$prio'"
  kill -"$sig" "$suite"
  wait "$suite"
  code=$?
  [ "$code" -eq 130 ] && ok || fail "SIG$sig: exit $code, want 130; $(cat "sig$sig.err")"
  state_as_before "SIG$sig"
done

# 4. SIGKILL: the device stays until `vmsuite cleanup` removes it
"$VMSUITE" run "${small[@]}" -w mtest01:bytes=100M -n 400 -q -o kill.json >kill.out 2>kill.err &
suite=$!
wait_zram_swap "$suite" && ok || fail "SIGKILL: the zram device never became swap"
killed=$(ours | head -1)
kill -KILL "$suite"
wait "$suite"
code=$?
[ "$code" -eq 137 ] && ok || fail "SIGKILL: exit $code"
[ -n "$killed" ] && grep -q "^/dev/zram$killed " /proc/swaps && ok ||
  fail "SIGKILL: the device was not left behind to clean up"
expect_exit 0 "cleanup after SIGKILL" -- "$VMSUITE" cleanup
expect_in "$out" "removed the zram device '/dev/zram$killed' left by pid $suite" \
  "cleanup names the zram device"
state_as_before "SIGKILL + cleanup"

# 5. SIGKILL, then the next run repairs it when it starts (and adds its own)
"$VMSUITE" run "${small[@]}" -w mtest01:bytes=100M -n 400 -q -o kill2.json >kill2.out 2>kill2.err &
suite=$!
wait_zram_swap "$suite" && ok || fail "next-run repair: the zram device never became swap"
killed=$(ours | head -1)
kill -KILL "$suite"
wait "$suite"
expect_exit 0 "the next run" -- "$VMSUITE" run "${small[@]}" -w mtest01:bytes=100M -n 1 -q \
  -o next.json
expect_in "$err" "repaired what a dead vmsuite left: removed the zram device '/dev/zram$killed'" \
  "the next run repairs"
[ "$(json_get next.json 'd["workloads"][0]["runs"][0]["swap_device"]["written_bytes"]')" -gt 0 ] &&
  ok || fail "next run: nothing written to its own device"
state_as_before "SIGKILL + next run"

# 6. a device that took the killed run's number is another's: cleanup forgets the record and
# leaves the device alone
"$VMSUITE" run "${small[@]}" -w mtest01:bytes=100M -n 400 -q -o kill3.json >kill3.out 2>kill3.err &
suite=$!
wait_zram_swap "$suite" && ok || fail "foreign: the zram device never became swap"
killed=$(ours | head -1)
kill -KILL "$suite"
wait "$suite"
if [ -n "$killed" ]; then
  remove_zram "$killed"
  foreign_id=$(cat /sys/class/zram-control/hot_add)
  echo 16M >"/sys/block/zram$foreign_id/disksize"
  foreign_state="$(cat "/sys/block/zram$foreign_id/diskseq") $(cat "/sys/block/zram$foreign_id/disksize")"
  [ "$foreign_id" = "$killed" ] && ok ||
    echo "note: the foreign device got zram$foreign_id, not zram$killed: the same-number case is not exercised"
  expect_exit 0 "cleanup beside a foreign device" -- "$VMSUITE" cleanup
  expect_in "$out" "forgot the zram device '/dev/zram$killed' of pid $suite" "foreign: record forgotten"
  [ -e "/sys/block/zram$foreign_id" ] &&
    [ "$(cat "/sys/block/zram$foreign_id/diskseq") $(cat "/sys/block/zram$foreign_id/disksize")" = "$foreign_state" ] &&
    ok || fail "foreign: zram$foreign_id was touched"
  remove_zram "$foreign_id"
  foreign_id=
else
  fail "foreign: no device to replace"
fi
state_as_before "foreign device"

finish
