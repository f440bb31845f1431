# A SIGKILLed run leaves its memory cgroup and journal record; `vmsuite cleanup` removes both
# and says so, a second cleanup finds nothing; a new `vmsuite run` (also a host-profile one)
# repairs such leftovers first and says so; cleanup removes the temporary files of records a
# killed run was writing. Root only (else SKIP).
. "$(dirname "$0")/lib-host.sh"

# kill_mid_run: starts a run, SIGKILLs it once its workload child runs; sets $victim
kill_mid_run() {
  "$VMSUITE" run -w mmap001:bytes=1G -n 5 -o k.json --overwrite >k.out 2>k.err &
  victim=$!
  started+=("$victim")
  wait_for 60 has_child "$victim" || fail "the run never started a workload: $(cat k.err)"
  has_record "$victim" && ok || fail "no journal record while the run runs"
  kill -KILL "$victim"
  wait "$victim" 2>/dev/null
  # its children die with it (PR_SET_PDEATHSIG) but not at once: until they are gone they
  # hold the host lock and sit in the cgroup, and what a later run repairs depends on timing
  wait_for 20 cgroup_empty "$parent/vmsuite-$victim" || fail "the killed run's tasks linger"
  [ -d "$parent/vmsuite-$victim" ] && ok || fail "no stale cgroup after SIGKILL"
  has_record "$victim" && ok || fail "the record went with the SIGKILL"
  grep -q "\"path\": \"$parent/vmsuite-$victim\"" "$state/journal/$victim-"*.json \
    && ok || fail "the record does not name the cgroup: $(cat "$state/journal/$victim-"*.json)"
}

kill_mid_run
expect_exit 0 "cleanup" -- "$VMSUITE" cleanup
expect_in "$out" "removed the memory cgroup '$parent/vmsuite-$victim' left by pid $victim ('" "cleanup says what it did"
expect_in "$out" "vmsuite run -w mmap001:bytes=1G" "cleanup names the dead run's command"
[ ! -d "$parent/vmsuite-$victim" ] && ok || fail "the stale cgroup is still there"
has_record "$victim" && fail "the record is still there" || ok
# the journal holds nothing of a dead owner now: everything left belongs to a live run
for rec in "$state"/journal/*.json; do
  [ -e "$rec" ] || continue
  owner=$(json_get "$rec" 'd["owner"]["pid"]')
  kill -0 "$owner" 2>/dev/null && ok || fail "record of dead pid $owner left: $rec"
done
expect_exit 0 "cleanup again" -- "$VMSUITE" cleanup
[ -z "$(printf '%s\n' "$out" | grep '^removed')" ] && ok || fail "second cleanup removed: $out"

# the next run repairs first, and says so
kill_mid_run
expect_exit 0 "run after a killed run" -- "$VMSUITE" run -w mtest01:bytes=8M -n 1 -q -o after.json
expect_in "$err" "repaired what a dead vmsuite left: removed the memory cgroup '$parent/vmsuite-$victim'" "run repairs first"
[ ! -d "$parent/vmsuite-$victim" ] && ok || fail "the run left the stale cgroup"
has_record "$victim" && fail "the run left the stale record" || ok

# so does one on the host profile, which changes nothing
kill_mid_run
expect_exit 0 "host run after a killed run" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 -q -o host.json
expect_in "$err" "repaired what a dead vmsuite left: removed the memory cgroup '$parent/vmsuite-$victim'" "host run repairs first"
[ ! -d "$parent/vmsuite-$victim" ] && ok || fail "the host run left the stale cgroup"
has_record "$victim" && fail "the host run left the stale record" || ok

# a run SIGKILLed while it wrote a record leaves its temporary file (NAME.json.tmp.PID) in the
# journal or among the persistent swap-file records: cleanup removes those of dead runs
sleep 100 &
sp=$!
start=$(awk '{ print $22 }' "/proc/$sp/stat")
kill -KILL "$sp"
wait "$sp" 2>/dev/null
mkdir -p "$state/journal" "$state/swapfiles"
echo '{"format": "vmsuite.hoststate/1", "ki' >"$state/journal/$sp-$start-1.json.tmp.$sp"
echo '{"format": "vmsuite.swapfile/1", "pa' \
  >"$state/swapfiles/$(cat /proc/sys/kernel/random/boot_id)-$sp-$start-1.json.tmp.$sp"
expect_exit 0 "cleanup of half-written records" -- "$VMSUITE" cleanup
expect_in "$out" "removed '$state/journal/$sp-$start-1.json.tmp.$sp', a record pid $sp was writing" \
  "cleanup says it removed the half-written journal record"
compgen -G "$state/journal/*.tmp.*" >/dev/null && fail "a temporary journal file is left" || ok
compgen -G "$state/swapfiles/*.tmp.*" >/dev/null && fail "a temporary swap file record is left" || ok
finish
