# The emulated machine's temporary swap file (core/swapfile.c, suite/suite.c): refused on
# tmpfs; created, switched on, recorded in the result; switched off and removed after a normal
# run, a failed run, SIGINT and SIGTERM, and after SIGKILL by `vmsuite cleanup` or the next
# run; after a crash or power loss (simulated: the file switched off, /run's journal record
# gone, the persistent record's boot id changed) by `vmsuite cleanup` and the next run, only
# when the file still carries vmsuite's header (label, recorded uuid). Swap that the test did
# not make is never touched: /proc/swaps is compared entry by entry
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
  # the persistent records of this test's private state directory, for the next time
  rm -f "$VMSUITE_STATE_DIR"/swapfiles/*.json
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
  expect_exit 0 "workdir on tmpfs" -- "$VMSUITE" run "${small[@]:0:6}" --workdir "$shm" \
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

# 6. the persistent records (VMSUITE_STATE_DIR/swapfiles here, /var/lib/vmsuite/swapfiles by
# default): they outlive a reboot, which empties /run and its journal.
records="$VMSUITE_STATE_DIR/swapfiles"
json_field() { json_get "$1" "d$2"; } # json_field FILE '["owner"]["boot_id"]'
boot_id=$(cat /proc/sys/kernel/random/boot_id)
[ -z "$(ls -A "$records" 2>/dev/null)" ] && ok ||
  fail "records: left by the runs above: $(ls -A "$records")"

# 6a. a live run: its record names this boot and the uuid its file's header carries; cleanup
# leaves record and file alone; its end (SIGINT) removes both
"$VMSUITE" run "${small[@]}" -w mtest01:bytes=80M -n 400 -q -o live.json >live.out 2>live.err &
suite=$!
wait_listed "$suite" && ok || fail "live: the swap file never appeared"
live=$(ours)
record=$(ls "$records"/*.json 2>/dev/null | head -1)
if [ -n "$record" ] && [ -n "$live" ]; then
  [ "$(json_field "$record" '["path"]')" = "$live" ] && ok || fail "live: record names $(cat "$record")"
  [ "$(json_field "$record" '["owner"]["boot_id"]')" = "$boot_id" ] && ok ||
    fail "live: record's boot id: $(cat "$record")"
  [ "$(json_field "$record" '["owner"]["pid"]')" = "$suite" ] && ok || fail "live: record's pid"
  header=$(swaplabel "$live" 2>&1)
  expect_in "$header" "UUID:  $(json_field "$record" '["uuid"]')" "live: the header carries the recorded uuid"
  expect_in "$header" "LABEL: vmsuite" "live: the header carries vmsuite's label"
  expect_exit 0 "cleanup beside a live run" -- "$VMSUITE" cleanup
  expect_in "$out" "left alone: the swap file '$live' of the running pid $suite" "live: cleanup says so"
  [ -f "$record" ] && [ -f "$live" ] && [ -n "$(ours)" ] && ok ||
    fail "live: cleanup touched the live run's record or file"
else
  fail "live: no record ('$record') or no file ('$live')"
fi
kill -INT "$suite"
wait "$suite"
code=$?
[ "$code" -eq 130 ] && ok || fail "live: exit $code, want 130; $(cat live.err)"
[ -z "$(ls -A "$records")" ] && ok || fail "live: records left after its end: $(ls -A "$records")"
swaps_as_before "live run"

# 6b. a power loss, simulated: a run killed with its file on; then what a reboot does: the file
# is no longer swap (swapoff here), /run is empty (the journal's swap file record goes; its
# cgroup record stays for cleanup to remove the cgroup, which a reboot also removes), the boot
# id changes (edited in the record). A second record names a file of vmsuite's name that a
# foreign mkswap made (another label and uuid).
"$VMSUITE" run "${small[@]}" -w mtest01:bytes=80M -n 400 -q -o crash.json >crash.out 2>crash.err &
suite=$!
wait_listed "$suite" && ok || fail "crash: the swap file never appeared"
kill -KILL "$suite"
wait "$suite"
crashed=$(ours)
record=$(ls "$records"/*.json 2>/dev/null | head -1)
if [ -n "$crashed" ] && [ -n "$record" ]; then
  swapoff "$crashed"
  for j in "$VMSUITE_STATE_DIR"/journal/*.json; do
    [ "$(json_field "$j" '["kind"]')" = swapfile ] && rm "$j"
  done
  foreign="$VMS_TEST_TMP/.vmsuite-swap-foreign"
  python3 - "$record" "$foreign" <<'PY'
import json, sys
path = sys.argv[1]
d = json.load(open(path))
d["owner"]["boot_id"] = "00000000-0000-4000-8000-000000000000"
json.dump(d, open(path, "w"), indent=2)
d["path"] = sys.argv[2]
d["seq"] += 100
json.dump(d, open(path.replace(".json", "-foreign.json"), "w"), indent=2)
PY
  head -c $((1024 * 1024)) /dev/zero >"$foreign"
  chmod 600 "$foreign"
  mkswap -L other "$foreign" >/dev/null
  expect_exit 0 "cleanup after a power loss" -- "$VMSUITE" cleanup
  expect_in "$out" "removed the swap file '$crashed' made by pid $suite" "crash: cleanup removes the file"
  expect_in "$out" "in an earlier boot" "crash: cleanup says it was an earlier boot"
  [ ! -e "$crashed" ] && ok || fail "crash: '$crashed' is still there"
  [ ! -e "$record" ] && ok || fail "crash: its record '$record' is still there"
  expect_in "$err" "left alone: '$foreign'" "foreign: cleanup names the file it leaves"
  expect_in "$err" "not labelled 'vmsuite'" "foreign: cleanup says why"
  [ -f "$foreign" ] && [ "$(swaplabel "$foreign" 2>&1 | grep LABEL)" = "LABEL: other" ] && ok ||
    fail "foreign: the file was touched"
  [ -f "${record%.json}-foreign.json" ] && ok || fail "foreign: its record was removed"
  # the next run's start says it again, and leaves it
  expect_exit 0 "a run after the power loss" -- "$VMSUITE" run "${small[@]}" -w mtest01:bytes=8M \
    -n 1 -q -o after.json
  expect_in "$err" "left alone: '$foreign'" "foreign: the next run names it"
  [ -f "$foreign" ] && ok || fail "foreign: the next run removed it"
  # once the tester has removed it, the record goes
  rm -f "$foreign"
  expect_exit 0 "cleanup after the foreign file is gone" -- "$VMSUITE" cleanup
  expect_in "$out" "forgot the swap file '$foreign' of pid $suite from an earlier boot" \
    "foreign: cleanup forgets the record"
  [ -z "$(ls -A "$records")" ] && ok || fail "crash: records left: $(ls -A "$records")"
else
  fail "crash: no file ('$crashed') or no record ('$record') after SIGKILL"
fi
swaps_as_before "power loss"

finish
