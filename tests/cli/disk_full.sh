#!/usr/bin/env bash
# A work filesystem that another process fills during a run (after the start-up checks): the
# mmap001 run that then dies of SIGBUS, and the memload run whose writer then gets ENOSPC, are
# reported as "the work filesystem filled up", exit 128 (a tool/environment error, 125 under
# --against), not as a workload killed by signal 7 or a failed run (exit 1, which a bisect
# would mark bad). The filesystem is a small ext4 image on a loop mount,
# unmounted by the trap whatever happens (as root; skips otherwise).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_rest "needs root for a loop mount"
command -v mkfs.ext4 >/dev/null || skip_rest "no mkfs.ext4"
mnt=$VMS_TEST_TMP/mnt
cleanup() {
  wait 2>/dev/null
  if mountpoint -q "$mnt"; then umount "$mnt" || umount -l "$mnt"; fi
  rm -f "$VMS_TEST_TMP/fs.img"
}
trap cleanup EXIT
truncate -s 400M fs.img && mkfs.ext4 -q -F -m 0 fs.img && mkdir -p "$mnt" ||
  skip_rest "cannot make an ext4 image"
mount -o loop fs.img "$mnt" || skip_rest "cannot loop-mount an ext4 image"

plan=(--machine host --swap-file no --no-drop-caches -q --workdir "$mnt" -w mmap001:bytes=256M -n 1)

# run_filled WANT WHAT ARGS...: runs vmsuite under a filler that stops the workload child as
# soon as it appears (forked after every check), fills the work filesystem to the last block with
# fallocate and lets the child go on. The filler starts vmsuite itself, so that its own start-up
# is not part of the race, and polls for the child without sleeping long; up to three tries
# while it misses the child or comes too late (the child had already reserved its blocks, and
# vmsuite never says the filesystem filled up). Sets $err; filler.out says "filled" or "missed".
run_filled() {
  local want=$1 what=$2 got try
  shift 2
  for try in 1 2 3; do
    rm -f "$mnt/fill" filler.out
    got=0
    python3 - "$mnt/fill" "$VMSUITE" "$@" >filler.out <<'PY' || got=$?
import os, signal, subprocess, sys, time
path, cmd = sys.argv[1], sys.argv[2:]
with open("out", "w") as out, open("err", "w") as err:
    p = subprocess.Popen(cmd, stdout=out, stderr=err)
    child = None
    while child is None and p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                kids = f.read().split()
        except OSError:
            break
        if kids:
            child = int(kids[0])
        else:
            time.sleep(0.0002)
    status = "missed"
    if child is not None:
        try:
            os.kill(child, signal.SIGSTOP)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
            size, step = 0, 1 << 24
            while step >= 4096:
                try:
                    os.posix_fallocate(fd, size, step)
                    size += step
                except OSError:
                    step //= 2
            os.close(fd)
            os.kill(child, signal.SIGCONT)
            status = "filled"
        except ProcessLookupError:
            pass
    rc = p.wait()
print(status)
sys.exit(rc)
PY
    err=$(cat err)
    [ "$(cat filler.out)" = filled ] && grep -q "the work filesystem filled up" err && break
    echo "the filler missed the workload or came too late (try $try): exit $got"
  done
  [ "$(cat filler.out)" = filled ] || { fail "$what: the filler never caught the workload"; return; }
  [ "$got" = "$want" ] && ok || fail "$what: exit $got, want $want; stderr: $err"
}
expect_exit 0 "a clean run on the image" -- "$VMSUITE" run "${plan[@]}" -o base.json

run_filled 128 "a run whose work filesystem filled up" run "${plan[@]}" -o full.json --overwrite
echo "$err"
expect_in "$err" "mmap001 run 1/1 failed: the work filesystem filled up: '$mnt' had no space left" "the run's warning"
expect_in "$err" "vmsuite: the work filesystem filled up during the run" "the final error"
if printf '%s' "$err" | grep -q "signal 7\|Bus error"; then fail "reported as a signal: $err"; else ok; fi
[ "$(json_get full.json "d['exit_status']")" = 128 ] && ok || fail "exit_status in the result"
[ "$(json_get full.json "d['workloads'][0]['runs'][0]['reason'].startswith('the work filesystem filled up')")" = True ] &&
  ok || fail "the mmap001 run's reason"

run_filled 125 "--against with the work filesystem filled up" run "${plan[@]}" -o against.json --overwrite --against base.json
expect_in "$err" "the work filesystem filled up: exit 125 (skip)" "the --against note"

# memload's streaming writer: its write() gets ENOSPC (no signal), the same outcome. The writer
# file (200M) is far larger than what it writes before the filler stops the child, so a late
# fill still leaves it writing new blocks into a full filesystem.
mplan=(--machine host --swap-file no --no-drop-caches -q --workdir "$mnt"
  -w memload:bytes=16M:seconds=3:write=200M -n 1)
rm -f "$mnt/fill"
expect_exit 0 "a clean memload run on the image" -- "$VMSUITE" run "${mplan[@]}" -o mbase.json
run_filled 128 "a memload run whose writer found the work filesystem full" run "${mplan[@]}" -o mfull.json --force
echo "$err"
expect_in "$err" "memload run 1/1 failed: the work filesystem filled up: '$mnt' had no space left" "memload: the run's warning"
expect_in "$err" "vmsuite: the work filesystem filled up during the run" "memload: the final error"
[ "$(json_get mfull.json "d['exit_status']")" = 128 ] && ok || fail "memload: exit_status in the result"
[ "$(json_get mfull.json "d['workloads'][0]['runs'][0]['reason'].startswith('the work filesystem filled up')")" = True ] &&
  ok || fail "memload: the run's reason"
run_filled 125 "memload --against with the work filesystem filled up" run "${mplan[@]}" -o magainst.json --force --against mbase.json
expect_in "$err" "the work filesystem filled up: exit 125 (skip)" "memload: the --against note"

# with the filler's file gone, the same run passes again
rm -f "$mnt/fill"
expect_exit 0 "a clean run after the fill is gone" -- "$VMSUITE" run "${plan[@]}" -o again.json
finish
