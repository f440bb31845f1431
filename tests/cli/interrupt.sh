# Ctrl-C / SIGTERM: the child stops, its file is removed, the result is written (valid JSON,
# marked incomplete) and the exit code is 130.
. "$(dirname "$0")/lib.sh"

for sig in INT TERM; do
  rm -f i.json
  "$VMSUITE" run -w mmap001:bytes=4G -n 3 -o i.json >out 2>err &
  suite=$!
  for _ in $(seq 1 200); do
    [ -n "$(pgrep -P "$suite")" ] && break
    sleep 0.05
  done
  sleep 0.5
  kill -"$sig" "$suite"
  wait "$suite"
  code=$?
  [ "$code" -eq 130 ] && ok || fail "SIG$sig: exit $code, want 130; $(cat err)"
  [ "$(json_get i.json 'd["complete"]')" = False ] && ok || fail "SIG$sig: complete"
  [ "$(json_get i.json 'd["interrupted"]')" = True ] && ok || fail "SIG$sig: interrupted"
  [ "$(json_get i.json 'd["workloads"][0]["runs"][-1]["status"]')" = interrupted ] && ok || fail "SIG$sig: run status"
  expect_in "$(cat err)" "marked incomplete" "SIG$sig: note"
  [ -z "$(ls -A | grep -E '^\.vmsuite-|\.tmp\.')" ] && ok || fail "SIG$sig: files left: $(ls -A)"
  [ -z "$(pgrep -P "$suite")" ] && ok || fail "SIG$sig: child survived"
done
finish
