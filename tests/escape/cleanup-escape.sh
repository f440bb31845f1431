# `vmsuite cleanup` shows the paths and command lines of journal records escaped: a record is a
# file anyone who can write the state directory may have touched, and a command line may hold
# anything, so none may drive the terminal or forge a line. The records are made by hand in
# this test's own state directory (no root needed, nothing on the host is touched).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state
mkdir -p "$VMSUITE_STATE_DIR/journal"
python3 - "$VMSUITE_STATE_DIR/journal" "$VMS_TEST_TMP" <<'PY' || fail "making the records"
import json, os, sys
journal, tmp = sys.argv[1], sys.argv[2]
esc = "\x1b[2J\x1b]0;owned\x07\r\nvmsuite: note: forged"
boot = open("/proc/sys/kernel/random/boot_id").read().strip()
with open("/proc/%d/stat" % os.getppid()) as f:
    start = int(f.read().rsplit(")", 1)[1].split()[19])  # field 22: start time

def record(name, path, pid, start_time, command):
    doc = {"format": "vmsuite.hoststate/1", "kind": "cgroup", "path": path,
           "cgroup_version": 1, "original": "", "seq": 1,
           "owner": {"pid": pid, "start_time": start_time, "boot_id": boot, "command": command},
           "what": "memory cgroup"}
    json.dump(doc, open(os.path.join(journal, name), "w"))

dead = 4194303  # the largest pid Linux hands out: not running here
record("%d-1-1.json" % dead, tmp + "/gone/vmsuite-1" + esc, dead, 1, "vmsuite run" + esc)
record("%d-1-2.json" % dead, tmp + "/not-ours" + esc, dead, 1, "vmsuite run" + esc)
record("%d-1-3.json" % os.getppid(), tmp + "/live/vmsuite-2" + esc, os.getppid(), start,
       "vmsuite run" + esc)
PY
expect_exit 0 "cleanup of hand-made records" -- "$VMSUITE" cleanup
all=$(cat "$VMS_TEST_TMP/out" "$VMS_TEST_TMP/err")
printf '%s' "$all" | grep -q $'\x1b' && fail "a raw ESC reached the terminal: $(printf '%s' "$all" | od -c | head)" || ok
printf '%s' "$all" | grep -q $'\r' && fail "a raw CR reached the terminal" || ok
printf '%s' "$all" | grep -q '^vmsuite: note: forged' && fail "a forged line: $all" || ok
expect_in "$out" 'forgot the memory cgroup' "the gone record is reported"
expect_in "$out" 'vmsuite-1\x1b[2J\x1b]0;owned\x07\x0d\x0avmsuite: note: forged' "its path, escaped"
expect_in "$out" "left alone: the memory cgroup" "the live record is reported"
expect_in "$out" "('vmsuite run\\x1b[2J" "the live owner's command, escaped"
expect_in "$err" 'not-ours\x1b[2J' "the refused record's path, escaped"

# every run repairs first, and says so in the same escaped way
python3 - "$VMSUITE_STATE_DIR/journal" "$VMS_TEST_TMP" <<'PY' || fail "making the record"
import json, os, sys
doc = {"format": "vmsuite.hoststate/1", "kind": "cgroup", "cgroup_version": 1, "original": "",
       "path": sys.argv[2] + "/gone/vmsuite-3\x1b[2J", "seq": 1, "what": "memory cgroup",
       "owner": {"pid": 4194303, "start_time": 1, "boot_id": "x", "command": "vmsuite\x1b[2J"}}
json.dump(doc, open(os.path.join(sys.argv[1], "4194303-1-4.json"), "w"))
PY
expect_exit 0 "a run repairs the record" -- "$VMSUITE" run --machine host --no-drop-caches -q \
  -w mtest01:bytes=1M -n 1 -o r.json
printf '%s' "$err" | grep -q $'\x1b' && fail "a raw ESC from the run's repair note" || ok
expect_in "$err" 'gone/vmsuite-3\x1b[2J' "the run's repair note, escaped"
finish
