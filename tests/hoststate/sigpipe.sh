# A reader of vmsuite's output that goes away never stops the undo (root only): a run on the
# emulated machine with its temporary swap file on and a --sysctl knob changed, its stdout and
# stderr into `head -1` (gone after one line), and into a `tee` that Ctrl-C ends together with
# the run (SIGINT to both). Afterwards /proc/swaps, the knob, the cgroup and the journal are as
# before. A trap switches off and removes any swap file of the test and puts the knob back.
. "$(dirname "$0")/lib-host.sh"

knob=/proc/sys/vm/page-cluster
[ -w "$knob" ] || skip_rest "needs a writable $knob"
orig=$(cat "$knob")
swaps_before=$(cat /proc/swaps)
if [ "$orig" -ge 2 ]; then vals=0,1; else vals=4,5; fi
restore_all() {
  local f
  for p in "${started[@]}"; do
    kill -KILL "$p" 2>/dev/null
  done
  wait 2>/dev/null
  # an active swap file cannot be removed: off first
  for f in $(awk -v d="$VMS_TEST_TMP/" 'index($1, d) == 1 { print $1 }' /proc/swaps); do
    swapoff "$f"
  done
  restore_host
  echo "$orig" >"$knob"
}
trap restore_all EXIT

swap_on() { grep -q "^$VMS_TEST_TMP/.vmsuite-swap-" /proc/swaps; }
changed() { [ "$(cat "$knob")" != "$orig" ]; }

# as_before PID WHAT: nothing of the run PID is left on the host
as_before() {
  [ "$(cat /proc/swaps)" = "$swaps_before" ] && ok || fail "$2: /proc/swaps differs: $(cat /proc/swaps)"
  [ "$(cat "$knob")" = "$orig" ] && ok || fail "$2: page-cluster is $(cat "$knob"), was $orig"
  [ ! -d "$parent/vmsuite-$1" ] && ok || fail "$2: cgroup left behind"
  has_record "$1" && fail "$2: journal records left: $(ls "$state/journal")" || ok
  compgen -G "$VMS_TEST_TMP/.vmsuite-swap-*" >/dev/null && fail "$2: swap file left" || ok
}

# ---- `2>&1 | head -1`: head is gone after the first line ----
mkfifo head.fifo
head -1 <head.fifo >head.out &
"$VMSUITE" run --machine hron2001 -w mtest01:bytes=16M -n 2 --sysctl vm.page-cluster=$vals \
  -o h.json >head.fifo 2>&1 &
p=$!
started+=("$p")
wait "$p"
code=$?
[ -s head.out ] && ok || fail "| head -1: head read nothing"
echo "| head -1: exit $code"
as_before "$p" "| head -1 (exit $code)"
[ "$(json_get h.json 'd["interrupted"]')" = False ] && ok || fail "| head -1: no complete result (exit $code)"

# ---- `2>&1 | tee`, then Ctrl-C: SIGINT to the run and to tee ----
mkfifo tee.fifo
# a background job of a script starts with SIGINT ignored: tee gets the default back, as in a
# terminal, where Ctrl-C ends it
env --default-signal=INT tee tee.log <tee.fifo >/dev/null &
t=$!
"$VMSUITE" run --machine hron2001 -w mtest01:bytes=16M -n 500 --sysctl vm.page-cluster=$vals \
  -o t.json >tee.fifo 2>&1 &
p=$!
started+=("$p")
wait_for 60 swap_on || fail "| tee: the swap file never came on: $(cat tee.log)"
wait_for 60 changed || fail "| tee: the knob never changed: $(cat tee.log)"
wait_for 60 has_child "$p" || fail "| tee: no workload started: $(cat tee.log)"
kill -INT "$t" "$p"
wait "$p"
code=$?
wait "$t"
tcode=$?
[ "$tcode" -eq 130 ] && ok || fail "| tee + Ctrl-C: tee was not ended by SIGINT (exit $tcode)"
# 130, or 141 when SIGPIPE, no longer ignored once the host is restored, ends the report
echo "| tee + Ctrl-C: exit $code"
[ "$code" -eq 130 ] || [ "$code" -eq 141 ] && ok || fail "| tee + Ctrl-C: exit $code"
as_before "$p" "| tee + Ctrl-C (exit $code)"
[ "$(json_get t.json 'd["interrupted"]')" = True ] && ok || fail "| tee + Ctrl-C: no result marked interrupted"
finish
