# Two runs never overlap, whatever their profile: a second `vmsuite run` waits for the host lock
# with a note naming the holder (pid and command), changes nothing while it waits, and runs
# once the first ends; Ctrl-C while waiting exits 130 with nothing changed; a state directory
# whose parents are missing is made, and its lock taken. Root only.
. "$(dirname "$0")/lib-host.sh"

holds_lock() { grep -q "\"pid\":$1," "$state/lock" 2>/dev/null; }
waiting() { grep -q "waiting for the host lock" "$1" 2>/dev/null; }

"$VMSUITE" run -w mmap001:bytes=1G -n 20 -o a.json >a.out 2>a.err &
a=$!
started+=("$a")
wait_for 60 holds_lock "$a" || fail "the first run never took the lock: $(cat a.err)"

"$VMSUITE" run -w mtest01:bytes=8M -n 1 -o b.json >b.out 2>b.err &
b=$!
started+=("$b")
"$VMSUITE" run -w mtest01:bytes=8M -n 1 -o c.json >c.out 2>c.err &
c=$!
started+=("$c")
# a run on the host profile changes nothing, but it would disturb the first run's figures
"$VMSUITE" run --machine host --no-drop-caches -w mtest01:bytes=8M -n 1 -o d.json >d.out 2>d.err &
d=$!
started+=("$d")
wait_for 60 waiting b.err || fail "the second run does not say it waits: $(cat b.err)"
wait_for 60 waiting d.err || fail "a host-profile run does not wait: $(cat d.err)"
wait_for 60 waiting c.err || fail "the third run does not say it waits: $(cat c.err)"
expect_in "$(cat b.err)" "waiting for the host lock '$state/lock' held by pid $a ('" "names the holder's pid"
expect_in "$(cat b.err)" "vmsuite run -w mmap001:bytes=1G -n 20 -o a.json')" "names the holder's command"
kill -0 "$b" 2>/dev/null && ok || fail "the second run did not wait"
[ ! -d "$parent/vmsuite-$b" ] && ok || fail "a waiting run made its cgroup"
has_record "$b" && fail "a waiting run wrote a journal record" || ok
[ ! -e b.json ] && ok || fail "a waiting run wrote its result"
[ ! -e d.json ] && ok || fail "a waiting host-profile run wrote its result"

# Ctrl-C while waiting: 130, nothing changed
kill -INT "$c"
wait "$c"
code=$?
[ "$code" -eq 130 ] && ok || fail "interrupted wait: exit $code, want 130; $(cat c.err)"
expect_in "$(cat c.err)" "interrupted while waiting for the host lock; nothing was changed" "interrupted wait says so"
[ ! -e c.json ] && ok || fail "an interrupted wait wrote a result"
has_record "$c" && fail "an interrupted wait left a record" || ok

# the first run ends (Ctrl-C): the second takes the lock and runs
kill -INT "$a"
wait "$a"
code=$?
[ "$code" -eq 130 ] && ok || fail "first run: exit $code, want 130; $(cat a.err)"
wait "$b"
code=$?
[ "$code" -eq 0 ] && ok || fail "second run: exit $code, want 0; $(cat b.err)"
[ "$(json_get b.json 'd["complete"]')" = True ] && ok || fail "second run's result"
wait "$d"
code=$?
[ "$code" -eq 0 ] && ok || fail "host-profile run: exit $code, want 0; $(cat d.err)"
[ ! -d "$parent/vmsuite-$b" ] && ok || fail "the second run left its cgroup"
has_record "$a" && fail "the first run left its record" || ok
has_record "$b" && fail "the second run left its record" || ok

# a state directory whose parents are missing is made with them, and the run takes its lock
# (a `host` run once went without the lock then)
deep=$VMS_TEST_TMP/missing/parent/state
expect_exit 0 "a state directory under missing parents" -- env VMSUITE_STATE_DIR="$deep" \
  "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 -q -o deep.json
[ -f "$deep/lock" ] && ok || fail "no lock was taken in '$deep'"
finish
