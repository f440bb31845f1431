# Result files say what happened and are never lost: -o never replaces what is not a regular
# file, never overwrites an existing file without --overwrite (--force, its old spelling,
# warns; default names pick a free name),
# arguments that are not UTF-8 are refused before anything runs, a result that cannot be written
# is not announced, and reports tell killed, interrupted, failed and skipped apart.
# The root part makes a device node and a small full tmpfs in the test's own directory.
. "$(dirname "$0")/lib.sh"

data=$VMS_SOURCE_DIR/tests/data
small=(--machine host -w mtest01:bytes=1M -n 1 --no-drop-caches -q)

# -o onto something that is not a regular file: refused before anything runs, left as it was
mkfifo fifo
for cmd in "run ${small[*]}" "probe" "report $data/golden-result.json" \
  "compare $data/golden-result.json $data/golden-result.json"; do
  want=128
  case $cmd in compare*) want=2 ;; esac # compare's error status
  # shellcheck disable=SC2086
  expect_exit $want "$cmd -o FIFO" -- timeout 60 "$VMSUITE" $cmd -o fifo
  expect_in "$err" "'fifo': not a regular file" "$cmd -o FIFO: message"
  [ -p fifo ] && ok || fail "$cmd -o FIFO: the FIFO was replaced"
done

# an existing result is never overwritten without --overwrite
expect_exit 0 "first run" -- "$VMSUITE" run "${small[@]}" -o r.json
first=$(json_get r.json 'd["start_time"]')
expect_exit 128 "second run, same -o" -- "$VMSUITE" run "${small[@]}" -o r.json
expect_in "$err" "'r.json' exists" "second run: message"
expect_in "$err" "--overwrite" "second run: names --overwrite"
[ "$(json_get r.json 'd["start_time"]')" = "$first" ] && ok || fail "r.json was overwritten"
expect_exit 0 "run --overwrite" -- "$VMSUITE" run "${small[@]}" -o r.json --overwrite
expect_in "$(json_get r.json 'd["command_line"]')" "--overwrite" "run --overwrite replaced r.json"
# the old spelling, until the next release: one warning line, then the same
expect_exit 0 "run --force" -- "$VMSUITE" run "${small[@]}" -o r.json --force
expect_in "$(json_get r.json 'd["command_line"]')" "--force" "run --force replaced r.json"
expect_in "$err" "vmsuite: warning: run: '--force' is deprecated and goes in the next release: use '--overwrite'" \
  "run --force warns"
[ "$(grep -c deprecated <<<"$err")" = 1 ] && ok || fail "run --force: not one warning: $err"
echo old > rep.txt
expect_exit 128 "report onto an existing file" -- "$VMSUITE" report "$data/golden-result.json" -o rep.txt
[ "$(cat rep.txt)" = old ] && ok || fail "report overwrote rep.txt"
expect_exit 0 "report --overwrite" -- "$VMSUITE" report "$data/golden-result.json" -o rep.txt --overwrite
cmp -s rep.txt "$data/golden-report.txt" && ok || fail "report --overwrite did not replace rep.txt"
echo old > rep.txt
expect_exit 0 "report --force" -- "$VMSUITE" report "$data/golden-result.json" -o rep.txt --force
cmp -s rep.txt "$data/golden-report.txt" && ok || fail "report --force did not replace rep.txt"
expect_in "$err" "report: '--force' is deprecated and goes in the next release: use '--overwrite'" \
  "report --force warns"
expect_exit 2 "compare onto an existing file" -- "$VMSUITE" compare "$data/golden-result.json" "$data/golden-result.json" -o rep.txt
expect_in "$err" "'rep.txt' exists" "compare: message"
cmp -s rep.txt "$data/golden-report.txt" && ok || fail "compare overwrote rep.txt"
expect_exit 0 "compare --overwrite" -- "$VMSUITE" compare "$data/golden-result.json" "$data/golden-result.json" -o rep.txt --overwrite
cmp -s rep.txt "$data/golden-report.txt" && fail "compare --overwrite did not replace rep.txt" || ok
expect_exit 128 "probe onto an existing file" -- "$VMSUITE" probe -o r.json
expect_in "$err" "'r.json' exists" "probe: message"

# three quick runs without -o: three files (the default name has a one-second resolution)
mkdir quick
for i in 1 2 3; do
  (cd quick && "$VMSUITE" run "${small[@]}" --label q) || fail "quick run $i"
done
[ "$(ls quick | grep -c '^vmsuite-q-.*\.json$')" -eq 3 ] && ok || fail "quick runs: $(ls quick)"

# not UTF-8: a label, a work directory, an MP3 path: refused before anything runs
expect_exit 129 "label not UTF-8" -- "$VMSUITE" run "${small[@]}" --label $'k\xff' -o u1.json
expect_in "$err" "not valid UTF-8" "label: message"
[ ! -e u1.json ] && ok || fail "label: a result was written"
mkdir $'wd\xff'
expect_exit 129 "workdir not UTF-8" -- "$VMSUITE" run "${small[@]}" --workdir $'wd\xff' -o u2.json
[ ! -e u2.json ] && ok || fail "workdir: a result was written"
(cd $'wd\xff' && "$VMSUITE" run "${small[@]}" -o ../u3.json >../out 2>../err)
code=$?
[ "$code" -eq 128 ] && ok || fail "cwd not UTF-8: exit $code; $(cat err)"
expect_in "$(cat err)" "not valid UTF-8" "cwd: message"
[ ! -e u3.json ] && ok || fail "cwd: a result was written"
cp "$VMS_SOURCE_DIR/data/sample.mp3" $'s\xff.mp3'
expect_exit 129 "MP3 path not UTF-8" -- "$VMSUITE" run "${small[@]}" --with-audio $'s\xff.mp3' -o u4.json
[ ! -e u4.json ] && ok || fail "mp3: a result was written"
expect_exit 129 "probe MP3 path not UTF-8" -- "$VMSUITE" probe $'s\xff.mp3'

# reports: a file whose run was killed (no end_time, no exit_status) did not finish; an
# interrupted run is not a failed run; a skipped workload says why
python3 - "$data/golden-result.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
k = dict(d, end_time=None, exit_status=None, complete=False, interrupted=False)
json.dump(k, open("killed.json", "w"))
i = json.loads(json.dumps(d))
i["complete"], i["interrupted"] = False, True
run = i["workloads"][0]["runs"][-1]
run["status"], run["reason"] = "interrupted", "interrupted by Interrupt"
json.dump(i, open("interrupted.json", "w"))
s = json.loads(json.dumps(d))
s["complete"] = False
s["workloads"][0].update(status="skipped", reason="no room", runs=[], metrics={})
json.dump(s, open("skipped.json", "w"))
EOF
expect_exit 0 "report of a killed run" -- "$VMSUITE" report killed.json
expect_in "$out" "did not finish (killed or crashed)" "killed: header"
if printf '%s' "$out" | grep -q "INCOMPLETE (interrupted)"; then fail "killed shown as interrupted"; else ok; fi
expect_exit 0 "report of an interrupted run" -- "$VMSUITE" report interrupted.json
expect_in "$out" "INCOMPLETE (interrupted)" "interrupted: header"
expect_in "$out" "Interrupted runs: 1 of" "interrupted run listed as interrupted"
[ "$(printf '%s' "$out" | grep -c "Failed runs")" -eq 1 ] && ok || fail "interrupted run listed under Failed runs"
expect_exit 0 "report of a skipped workload" -- "$VMSUITE" report skipped.json
expect_in "$out" "skipped: no room" "skipped: reason"
for fmt in markdown html; do
  expect_exit 0 "$fmt of a killed run" -- "$VMSUITE" report killed.json --format $fmt
  expect_in "$out" "did not finish" "$fmt: killed"
done

if [ "$(id -u)" -ne 0 ]; then skip_rest "not root: no device node, no tmpfs"; fi

# a device node made here (never the real /dev/null)
mknod nulldev c 1 3
expect_exit 128 "run -o a device" -- "$VMSUITE" run "${small[@]}" -o nulldev
[ -c nulldev ] && ok || fail "run replaced the device node"
expect_exit 2 "compare -o a device" -- "$VMSUITE" compare "$data/golden-result.json" "$data/golden-result.json" -o nulldev --overwrite
[ -c nulldev ] && ok || fail "compare replaced the device node"
rm -f nulldev

# a full filesystem: the result cannot be written, and stdout does not announce it
mkdir full
trap 'umount "$VMS_TEST_TMP/full" 2>/dev/null' EXIT
if mount -t tmpfs -o size=64k vmsuite-test "$VMS_TEST_TMP/full"; then
  dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
  expect_exit 128 "run -o a full filesystem" -- "$VMSUITE" run --machine host -w mtest01:bytes=1M -n 1 --no-drop-caches -o full/r.json
  if printf '%s' "$out" | grep -q "Result:"; then fail "ENOSPC: stdout says Result:"; else ok; fi
  expect_in "$err" "No space left on device" "ENOSPC: the cause"
  expect_in "$err" "could not be written" "ENOSPC: says the result was not written"
  # the disk fills after the first save: the file keeps that save, and says it did not finish
  rm -f full/filler
  "$VMSUITE" run --machine host -w mmap001:bytes=256M -n 5 --no-drop-caches -o full/m.json >out 2>err &
  suite=$!
  for _ in $(seq 1 600); do [ -s full/m.json ] && break; sleep 0.05; done
  dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
  wait "$suite"
  code=$?
  [ "$code" -eq 128 ] && ok || fail "ENOSPC mid-suite: exit $code; $(cat err)"
  if grep -q "Result:" out; then fail "ENOSPC mid-suite: stdout says Result:"; else ok; fi
  expect_in "$(cat err)" "holds it as it was after the last save" "ENOSPC mid-suite: message"
  [ "$(json_get full/m.json 'd["exit_status"]')" = None ] && ok || fail "mid-suite: exit_status set"
  rm -f full/filler
  expect_exit 0 "report of the last save" -- "$VMSUITE" report full/m.json
  expect_in "$out" "did not finish (killed or crashed)" "mid-suite: the saved file did not finish"
  umount "$VMS_TEST_TMP/full"
else
  fail "cannot mount a tmpfs"
fi
finish
