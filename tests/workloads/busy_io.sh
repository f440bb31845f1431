# Runs that know the disk was busy (issue 21): `vmsuite run` beside a direct-I/O writer on the
# work filesystem records other processes' I/O (other_io_mb, runs[].busy.io) well above what a
# run without it records, and the workload's own file I/O is its own. Host profile, no
# drop_caches: nothing on the host changes; ctest holds the vmsuite_host lock. Other processes
# on this shared machine may write too, so the bounds are one-sided or relative.
# Kernel paths: the block layer's per-device counters (/sys/dev/block/MAJ:MIN/stat), task I/O
# accounting (rusage inblock/oublock), file-backed mmap writeback (mmap001).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state
writer_pid=
trap '[ -n "$writer_pid" ] && kill "$writer_pid" 2>/dev/null; wait 2>/dev/null; rm -f "$VMS_TEST_TMP/writer.dat"' EXIT
run() {
  "$VMSUITE" run --machine host --no-drop-caches -q --workdir "$VMS_TEST_TMP" \
    -w mtest01:bytes=512M -w mmap001:bytes=64M -n 2 "$@"
}

# other FILE: every run's other_io_mb, one a line, workloads in order
other() {
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for w in d["workloads"]:
    for r in w["runs"]:
        print(w["name"], r["busy"]["other_io_mb"], json.dumps(r["busy"]["io"]))
PY
}

expect_exit 0 "quiet run" -- run -o quiet.json
if [ "$(json_get quiet.json 'd["workloads"][0]["runs"][0]["busy"]["io"] is None')" = True ]; then
  skip_rest "no block device of its own under '$VMS_TEST_TMP' (tmpfs, btrfs, overlayfs)"
fi
other quiet.json | sed 's/^/INFO: quiet: /'
[ "$(json_get quiet.json 'len(d["workloads"][0]["metrics"]["other_io_mb"]["samples"])')" = 2 ] &&
  ok || fail "quiet.json: no other_io_mb metric"

# ---- beside a writer: 1 MiB direct writes to a file on the same filesystem, without end ----
(while :; do
  dd if=/dev/zero of="$VMS_TEST_TMP/writer.dat" bs=1M count=64 oflag=direct conv=notrunc \
    status=none || exit
done) &
writer_pid=$!
sleep 0.5
expect_exit 0 "run beside a writer" -- run -o writer.json
kill "$writer_pid" 2>/dev/null
wait "$writer_pid" 2>/dev/null
writer_pid=
other writer.json | sed 's/^/INFO: writer: /'

# every run beside the writer saw it; the least of them above the least quiet one by 16 MiB
python3 - quiet.json writer.json <<'PY' || fail "other_io_mb beside the writer not well above quiet"
import json, sys
def runs(p):
    d = json.load(open(p))
    return [r["busy"] for w in d["workloads"] for r in w["runs"]]
q, w = runs(sys.argv[1]), runs(sys.argv[2])
qmin = min(b["other_io_mb"] for b in q)
for b in w:
    io = b["io"]
    assert b["other_io_mb"] >= 16, b
    assert b["other_io_mb"] >= qmin + 16, (qmin, b)
    assert abs(io["other_mb"] - b["other_io_mb"]) < 0.01, io
    assert io["device_mb"] >= io["other_mb"] - 0.01, io
PY
ok
# mmap001 writes its file: the run's own I/O shows as the suite's, not another process's
python3 - quiet.json <<'PY' || fail "mmap001's own I/O not counted as the suite's"
import json, sys
d = json.load(open(sys.argv[1]))
w = [w for w in d["workloads"] if w["name"] == "mmap001"][0]
for r in w["runs"]:
    assert r["busy"]["io"]["suite_mb"] >= 32, r["busy"]["io"]
PY
ok
finish
