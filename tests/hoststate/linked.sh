# `vmsuite run --sysctl` on knobs the kernel links (root only, else SKIP): writing
# vm.overcommit_kbytes, vm.dirty_bytes or vm.dirty_background_bytes zeroes its *_ratio partner
# (and back). After a normal end and after SIGKILL + `vmsuite cleanup`, all six knobs hold
# what they held before; the journal record holds the partner's original; both knobs of a pair
# in one run are refused. A stale record of a knob that holds its original is cleaned up (exit
# 0); a trial write the kernel will not undo stops the run (128) before anything is measured.
# A trap puts all six back whatever happens to the test.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state
state=$VMSUITE_STATE_DIR
vm=/proc/sys/vm
pairs="overcommit_kbytes:overcommit_ratio dirty_bytes:dirty_ratio dirty_background_bytes:dirty_background_ratio"
if [ "$(id -u)" -ne 0 ] || [ ! -w "$vm/dirty_bytes" ]; then
  skip_rest "needs root and a writable $vm/dirty_bytes"
fi
declare -A before
for p in $pairs; do
  for k in ${p%:*} ${p#*:}; do before[$k]=$(cat "$vm/$k"); done
done

# put_pair BYTES RATIO: both back to what they held before the test. The kernel refuses 0 for
# a *_bytes knob: it is zeroed by a write of the ratio that changes it.
put_pair() {
  local b=$1 r=$2 rv=${before[$2]}
  if [ "${before[$b]}" = 0 ]; then
    echo $((rv > 0 ? rv - 1 : 1)) >"$vm/$r"
    echo "$rv" >"$vm/$r"
  else
    echo "$rv" >"$vm/$r" 2>/dev/null
    echo "${before[$b]}" >"$vm/$b"
  fi
}
started=()
restore_host() {
  local p
  for p in "${started[@]}"; do
    kill -KILL "$p" 2>/dev/null
  done
  wait 2>/dev/null
  for p in $pairs; do
    [ "$(cat "$vm/${p%:*}")" = "${before[${p%:*}]}" ] &&
      [ "$(cat "$vm/${p#*:}")" = "${before[${p#*:}]}" ] || put_pair "${p%:*}" "${p#*:}"
  done
}
trap restore_host EXIT

# as_before WHAT: every knob of the three pairs holds what it held before the test
as_before() {
  local p k bad=
  for p in $pairs; do
    for k in ${p%:*} ${p#*:}; do
      [ "$(cat "$vm/$k")" = "${before[$k]}" ] || bad="$bad $k=$(cat "$vm/$k") (was ${before[$k]})"
    done
  done
  [ -z "$bad" ] && ok || fail "$1: left changed:$bad"
}
no_records() { ! compgen -G "$state/journal/*.json" >/dev/null; }

# ---- a normal end: each knob of a pair with two values, both knobs as before ----
for arg in vm.overcommit_kbytes=1000000,2000000 vm.dirty_bytes=67108864,134217728 \
  vm.dirty_background_bytes=33554432,67108864 vm.dirty_ratio=30,40 vm.overcommit_ratio=60,70; do
  name=${arg%%=*}
  expect_exit 0 "--sysctl $arg" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 \
    --sysctl "$arg" -o n.json --overwrite
  as_before "--sysctl $arg"
  short=${name#vm.}
  for p in $pairs; do
    case " ${p%:*} ${p#*:} " in *" $short "*) ;; *) continue ;; esac
    [ "$short" = "${p%:*}" ] && partner=${p#*:} || partner=${p%:*}
    expect_in "$err" "restored $name to '${before[$short]}' and vm.$partner, which the kernel links to it, to '${before[$partner]}'" \
      "--sysctl $arg says it restored both"
  done
  no_records && ok || fail "--sysctl $arg: journal records left: $(ls "$state/journal")"
done

# ---- SIGKILL: the record holds both originals; cleanup writes both back ----
changed() { [ "$(cat "$vm/dirty_bytes")" != "${before[dirty_bytes]}" ]; }
"$VMSUITE" run --machine host -w mtest01:bytes=32M -n 500 --sysctl vm.dirty_bytes=67108864,134217728 \
  -o k.json --overwrite >k.out 2>k.err &
victim=$!
started+=("$victim")
wait_for 60 changed || fail "dirty_bytes never changed: $(cat k.err)"
wait_for 60 has_child "$victim" || fail "no workload started: $(cat k.err)"
kill -KILL "$victim"
wait "$victim" 2>/dev/null
rec=$(cat "$state/journal/$victim-"*.json 2>/dev/null)
expect_in "$rec" "\"partner_original\": \"${before[dirty_ratio]}\"" "the record holds the partner's original"
expect_in "$rec" "\"partner\": \"$vm/dirty_ratio\"" "the record names the partner"
expect_exit 0 "cleanup after SIGKILL" -- "$VMSUITE" cleanup
expect_in "$out" "restored the kernel knob '$vm/dirty_bytes' to '${before[dirty_bytes]}' and its linked knob '$vm/dirty_ratio' to '${before[dirty_ratio]}' left by pid $victim" \
  "cleanup says it restored both"
as_before "SIGKILL + cleanup"
no_records && ok || fail "journal records left after cleanup"

# ---- a stale record whose knob already holds its original: done, not an error ----
# (as an older vmsuite wrote it, without the partner: writing '0' back would be refused)
sleep 0 &
dead=$!
wait "$dead"
mkdir -p "$state/journal"
cat >"$state/journal/$dead-1-1.json" <<JSON
{"format": "vmsuite.hoststate/1", "kind": "sysctl", "path": "$vm/dirty_bytes",
 "original": "${before[dirty_bytes]}", "seq": 1, "what": "kernel knob",
 "owner": {"pid": $dead, "start_time": 1, "boot_id": "$(cat /proc/sys/kernel/random/boot_id)",
           "command": "vmsuite run --sysctl vm.dirty_bytes=67108864"}}
JSON
expect_exit 0 "cleanup of a stale record" -- "$VMSUITE" cleanup
expect_in "$out" "restored the kernel knob '$vm/dirty_bytes' to '${before[dirty_bytes]}' left by pid $dead"   "cleanup counts a knob holding its original as restored"
no_records && ok || fail "the stale record was kept"
expect_exit 0 "cleanup once more" -- "$VMSUITE" cleanup
expect_in "$out" "nothing to clean up" "the second cleanup finds nothing"
as_before "cleanup of a stale record"

# ---- a trial write the kernel will not undo: the run stops before anything is measured ----
# With both dirty_ratio and dirty_bytes 0 (reached by writing 0 to dirty_ratio), a write of
# dirty_bytes cannot be undone: the kernel refuses 0 for it, and writing dirty_ratio's 0 again
# changes nothing. That state lasts from here to the run's trial write.
if [ "${before[dirty_bytes]}" = 0 ]; then
  echo 0 >"$vm/dirty_ratio"
  expect_exit 128 "a trial that cannot be undone" -- "$VMSUITE" run --machine host \
    -w mtest01:bytes=8M -n 1 --sysctl vm.dirty_bytes=67108864 -o trial.json
  put_pair dirty_bytes dirty_ratio
  expect_in "$err" "nothing ran: vm.dirty_bytes cannot be put back" "the stop names the knob"
  [ ! -e trial.json ] && ok || fail "a result was written although the knob was left changed"
  case $err in *"restored vm.dirty_bytes"*) fail "it claims to have restored the knob: $err" ;; *) ok ;; esac
  compgen -G "$state/journal/*.json" >/dev/null && ok || fail "no journal record kept for the knob"
  rm -f "$state/journal/"*.json # its originals (both 0) are not the test's to restore
  as_before "a trial that cannot be undone"
fi

# ---- both knobs of a pair in one run: refused, nothing changed ----
expect_exit 129 "a pair in one run" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 \
  --sysctl vm.dirty_bytes=67108864 --sysctl vm.dirty_ratio=30 -o bad.json
expect_in "$err" "the kernel links them" "the refusal says why"
[ ! -e bad.json ] && ok || fail "the refused pair left a result"
as_before "a pair in one run"
finish
