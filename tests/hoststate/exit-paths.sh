# Every way a run ends except SIGKILL undoes its host changes: the memory cgroup and its
# journal record are gone and the lock names nobody after a normal end, a set-up error after
# the cgroup was made (a bad MP3), and SIGINT, SIGTERM and SIGHUP mid-run; under nohup a SIGHUP
# changes nothing and the run ends normally. Root only.
. "$(dirname "$0")/lib-host.sh"

# undone PID WHAT: the run's cgroup and record are gone, nobody holds the lock
undone() {
  [ ! -d "$parent/vmsuite-$1" ] && ok || fail "$2: cgroup left behind"
  has_record "$1" && fail "$2: journal record left behind" || ok
  grep -q "\"pid\":$1," "$state/lock" 2>/dev/null && fail "$2: the lock still names it" || ok
}

"$VMSUITE" run -w mtest01:bytes=8M -n 1 -q -o n.json 2>n.err &
p=$!
started+=("$p")
wait "$p"
code=$?
[ "$code" -eq 0 ] && ok || fail "normal end: exit $code; $(cat n.err)"
undone "$p" "normal end"

echo "not an mp3" >bad.mp3
"$VMSUITE" run -w mtest01:bytes=8M -n 1 -q --with-audio bad.mp3 -o e.json 2>e.err &
p=$!
started+=("$p")
wait "$p"
code=$?
[ "$code" -eq 128 ] && ok || fail "bad mp3: exit $code, want 128; $(cat e.err)"
undone "$p" "set-up error"

for sig in INT TERM HUP; do
  "$VMSUITE" run -w mmap001:bytes=1G -n 5 -o s.json --overwrite >s.out 2>s.err &
  p=$!
  started+=("$p")
  wait_for 60 has_child "$p" || fail "SIG$sig: no workload started: $(cat s.err)"
  [ -d "$parent/vmsuite-$p" ] && has_record "$p" && ok || fail "SIG$sig: no cgroup or record mid-run"
  kill -"$sig" "$p"
  wait "$p"
  code=$?
  [ "$code" -eq 130 ] && ok || fail "SIG$sig: exit $code, want 130; $(cat s.err)"
  undone "$p" "SIG$sig"
done

# under nohup a hangup (to the run's whole process group, as a closing terminal sends it) is
# not a stop: the run, its workload children included, goes on and ends normally
setsid nohup "$VMSUITE" run -w mtest01:bytes=64M -n 10 -o hup.json >hup.out 2>&1 &
p=$!
started+=("$p")
is_vmsuite() { [ "$(readlink "/proc/$1/exe")" = "$(readlink -f "$VMSUITE")" ]; }
for _ in $(seq 1000); do is_vmsuite "$p" && break; sleep 0.01; done
# hang-ups all along: set-up, runs (children included), teardown
hups=0
while kill -HUP -- "-$p" 2>/dev/null; do
  hups=$((hups + 1))
  sleep 0.05
done
[ "$hups" -gt 0 ] && ok || fail "nohup: no SIGHUP was sent"
wait "$p"
code=$?
[ "$code" -eq 0 ] && ok || fail "nohup + SIGHUP: exit $code, want 0; $(cat hup.out)"
[ "$(json_get hup.json 'd["interrupted"]')" = False ] && ok || fail "nohup + SIGHUP: result marked interrupted"
[ "$(json_get hup.json 'all(r["status"] == "ok" for w in d["workloads"] for r in w["runs"])')" = True ] \
  && ok || fail "nohup + SIGHUP: a run failed: $(cat hup.out)"
undone "$p" "nohup + SIGHUP"
finish
