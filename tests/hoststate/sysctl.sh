# `vmsuite run --sysctl` on the real host (root only, else SKIP): two variants of
# vm.page-cluster whose runs alternate, the knob back to its value after a normal end, after
# Ctrl-C, and after SIGKILL followed by `vmsuite cleanup` (or the next run); bad names and a
# value the kernel refuses are usage errors that change nothing. A trap writes the knob back
# whatever happens to the test.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state
state=$VMSUITE_STATE_DIR
knob=/proc/sys/vm/page-cluster
if [ "$(id -u)" -ne 0 ] || [ ! -w "$knob" ]; then
  skip_rest "needs root and a writable $knob"
fi
orig=$(cat "$knob")
started=()
restore_host() {
  local p
  for p in "${started[@]}"; do
    kill -KILL "$p" 2>/dev/null
  done
  wait 2>/dev/null
  echo "$orig" >"$knob"
}
trap restore_host EXIT

# two values other than the knob's own, so that a change left behind shows
if [ "$orig" -ge 2 ]; then vals=0,1; else vals=4,5; fi
first=${vals%,*}

knob_changed() { [ "$(cat "$knob")" != "$orig" ]; }
no_records() { ! compgen -G "$state/journal/*.json" >/dev/null; }

# ---- the normal end: two variants, their runs alternating, the knob as before ----
expect_exit 0 "two variants" -- "$VMSUITE" run --machine host -w mtest01:bytes=32M -n 2 \
  --sysctl vm.page-cluster=0,3 -o pc.json
[ "$(cat "$knob")" = "$orig" ] && ok || fail "page-cluster is $(cat "$knob") after the run, was $orig"
expect_in "$err" "restored vm.page-cluster to '$orig'" "the run says it restored the knob"
[ "$(json_get pc.json '[v["label"] for v in d["variants"]]')" = "['page-cluster=0', 'page-cluster=3']" ] \
  && ok || fail "variants: $(json_get pc.json 'd["variants"]')"
[ "$(json_get pc.json '[v["settings"]["vm.page-cluster"] for v in d["variants"]]')" = "['0', '3']" ] \
  && ok || fail "settings"
# the runs in time order: run 1 of 0, run 1 of 3, run 2 of 0, run 2 of 3
order=$(json_get pc.json '[(x[1], x[2]) for x in sorted((r["t_start"], w["variant"], r["index"]) for w in d["workloads"] for r in w["runs"])]')
[ "$order" = "[('page-cluster=0', 1), ('page-cluster=3', 1), ('page-cluster=0', 2), ('page-cluster=3', 2)]" ] \
  && ok || fail "runs do not alternate: $order"
[ "$(json_get pc.json 'all(r["status"] == "ok" for w in d["workloads"] for r in w["runs"])')" = True ] \
  && ok || fail "a run failed"
no_records && ok || fail "journal records left: $(ls "$state/journal")"
expect_exit 0 "report of the variants" -- "$VMSUITE" report pc.json
expect_in "$out" "page-cluster=0" "the report names the first variant"
expect_in "$out" "page-cluster=3" "the report names the second variant"

# ---- Ctrl-C in the middle: the knob back, the result kept and marked interrupted ----
"$VMSUITE" run --machine host -w mtest01:bytes=32M -n 500 --sysctl vm.page-cluster=$vals \
  -o int.json >int.out 2>int.err &
pid=$!
started+=("$pid")
wait_for 60 knob_changed || fail "the knob never changed: $(cat int.err)"
wait_for 60 has_child "$pid" || fail "no workload started: $(cat int.err)"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] && ok || fail "Ctrl-C: exit $rc, want 130: $(cat int.err)"
[ "$(cat "$knob")" = "$orig" ] && ok || fail "page-cluster is $(cat "$knob") after Ctrl-C, was $orig"
grep -qF "restored vm.page-cluster to '$orig'" int.err && ok || fail "no restore note: $(cat int.err)"
[ "$(json_get int.json 'd["interrupted"]')" = True ] && ok || fail "not marked interrupted"
no_records && ok || fail "journal records left after Ctrl-C"

# ---- SIGKILL: the knob stays changed with its record; cleanup writes it back and says so ----
kill_mid_run() {
  "$VMSUITE" run --machine host -w mtest01:bytes=32M -n 500 --sysctl vm.page-cluster=$vals \
    -o k.json --overwrite >k.out 2>k.err &
  victim=$!
  started+=("$victim")
  wait_for 60 knob_changed || fail "the knob never changed: $(cat k.err)"
  wait_for 60 has_child "$victim" || fail "no workload started: $(cat k.err)"
  kill -KILL "$victim"
  wait "$victim" 2>/dev/null
  knob_changed && ok || fail "the knob is back although nothing restored it"
  grep -q "\"original\": \"$orig\"" "$state/journal/$victim-"*.json 2>/dev/null \
    && ok || fail "no journal record with the original value"
}
kill_mid_run
expect_exit 0 "cleanup" -- "$VMSUITE" cleanup
expect_in "$out" "restored the kernel knob '$knob' to '$orig' left by pid $victim" "cleanup says what it restored"
[ "$(cat "$knob")" = "$orig" ] && ok || fail "page-cluster is $(cat "$knob") after cleanup, was $orig"
no_records && ok || fail "journal records left after cleanup"

# the next run repairs first, and says so
kill_mid_run
expect_exit 0 "run after a killed run" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 -q -o after.json
expect_in "$err" "repaired what a dead vmsuite left: restored the kernel knob '$knob' to '$orig'" "run repairs first"
[ "$(cat "$knob")" = "$orig" ] && ok || fail "page-cluster is $(cat "$knob") after the repairing run"

# ---- bad input: usage errors, nothing changed, nothing written ----
for arg in vm.nonexistent=1 ../../etc/passwd=1 kernel.hostname=x vm/page-cluster=1 vm.drop_caches=1 \
  vm.page-cluster= vm.page-cluster=1,1 page-cluster; do
  rm -f bad.json
  expect_exit 129 "--sysctl $arg" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 \
    --sysctl "$arg" -o bad.json
  [ ! -e bad.json ] && ok || fail "--sysctl $arg wrote a result"
  [ "$(cat "$knob")" = "$orig" ] && ok || fail "--sysctl $arg changed the knob"
done
# a read-only knob (root may open it for writing, the kernel refuses every write): a usage
# error before anything changes, and no journal record left
thp_ro=/sys/kernel/mm/transparent_hugepage/hpage_pmd_size
if [ -f "$thp_ro" ]; then
  expect_exit 129 "read-only knob" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 \
    --sysctl transparent_hugepage.hpage_pmd_size=4096 -o bad.json
  expect_in "$err" "is read-only" "the refusal says why"
  no_records && ok || fail "the read-only knob left a journal record: $(ls "$state/journal")"
fi
expect_exit 129 "same knob twice" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 \
  --sysctl vm.page-cluster=1 --sysctl vm.page-cluster=2 -o bad.json
expect_in "$err" "given twice" "the repeated knob is named"
expect_exit 129 "--thp bad" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 --thp on -o bad.json
# a value the kernel refuses: found by the trial write before any run, every knob as it was
expect_exit 129 "refused value" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 \
  --sysctl vm.page-cluster=$first,x -o bad.json
expect_in "$err" "the kernel refuses 'x' for vm.page-cluster" "the refusal is explained"
[ ! -e bad.json ] && ok || fail "the refused value left a result"
[ "$(cat "$knob")" = "$orig" ] && ok || fail "the refused value left the knob changed"
no_records && ok || fail "journal records left after a refused value"
finish
