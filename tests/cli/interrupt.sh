# Ctrl-C / SIGTERM: the child stops, its file is removed, the result is written (valid JSON,
# marked incomplete) and the exit code is 130; in a measured run (--warmup 0) and in the warm-up
# run that comes first by default (kept in warmup_runs, no measured run after it).
. "$(dirname "$0")/lib.sh"

for case in INT:0 TERM:0 INT:1; do
  sig=${case%:*} warm=${case#*:}
  rm -f i.json
  "$VMSUITE" run -w mmap001:bytes=4G -n 3 --warmup "$warm" -o i.json >out 2>err &
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
  if [ "$warm" = 0 ]; then
    [ "$(json_get i.json 'd["workloads"][0]["runs"][-1]["status"]')" = interrupted ] && ok || fail "SIG$sig: run status"
  else
    [ "$(json_get i.json 'd["workloads"][0]["warmup_runs"][-1]["status"]')" = interrupted ] && ok ||
      fail "SIG$sig: warm-up run status"
    [ "$(json_get i.json 'len(d["workloads"][0]["runs"])')" = 0 ] && ok ||
      fail "SIG$sig: a measured run after an interrupted warm-up"
  fi
  expect_in "$(cat err)" "marked incomplete" "SIG$sig: note"
  [ -z "$(ls -A | grep -E '^\.vmsuite-|\.tmp\.')" ] && ok || fail "SIG$sig: files left: $(ls -A)"
  [ -z "$(pgrep -P "$suite")" ] && ok || fail "SIG$sig: child survived"
done
finish
