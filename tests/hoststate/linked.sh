# `vmsuite run --sysctl` on knobs the kernel links (root only, else SKIP): writing
# vm.overcommit_kbytes, vm.dirty_bytes or vm.dirty_background_bytes zeroes its *_ratio partner
# (and back). After a normal end and after SIGKILL + `vmsuite cleanup`, all six knobs hold
# what they held before; the journal record holds the partner's original; both knobs of a pair
# in one run are refused. A trap puts all six back whatever happens to the test.
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
    --sysctl "$arg" -o n.json --force
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
  -o k.json --force >k.out 2>k.err &
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

# ---- both knobs of a pair in one run: refused, nothing changed ----
expect_exit 129 "a pair in one run" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 \
  --sysctl vm.dirty_bytes=67108864 --sysctl vm.dirty_ratio=30 -o bad.json
expect_in "$err" "the kernel links them" "the refusal says why"
[ ! -e bad.json ] && ok || fail "the refused pair left a result"
as_before "a pair in one run"
finish
