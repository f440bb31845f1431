# Work files and the work directory, end to end (one ctest entry per part, $VMS_FILES_PART):
#   symlink   no name in the work directory can be planted: symlinks at every name the old
#             code used (.vmsuite-<workload>-<pid>-<run>.tmp) leave their target untouched,
#             with O_TMPFILE and with the private-directory fallback
#   overflow  sizes whose arithmetic would wrap are usage errors (129) before anything runs
#   workdir   an unusable work directory (a regular file, read-only, not writable by the
#             user) is refused with 128 before anything runs, and nothing is left
#   sigkill   a run killed with SIGKILL mid-mmap001 leaves nothing (O_TMPFILE), or a private
#             directory that `vmsuite cleanup` removes (fallback)
# Runs on the host profile: no cgroup, no host lock. Root-only cases skip without root.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

part=${VMS_FILES_PART:?which part}
# the journal of these runs: a private state directory, never /run/vmsuite
export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state
run() { "$VMSUITE" run --machine host --no-drop-caches -q "$@"; }

# leftovers DIR: what vmsuite may have left in DIR (its names start with .vmsuite-)
leftovers() { find "$1" -mindepth 1 -maxdepth 1 -name '.vmsuite-*' ! -type l | sort; }

case $part in
symlink)
  # plant_and_run MODE WORKLOAD: symlinks at the names of runs 1..3 of the process that execs
  # vmsuite ($$ of the shell is the pid the old code put in the name), all to one target
  plant_and_run() {
    local mode=$1 w=$2 wd=$VMS_TEST_TMP/wd-$1-$2
    mkdir -p "$wd"
    printf 'precious\n' >"$VMS_TEST_TMP/target-$mode-$w"
    expect_exit 0 "$w ($mode) with planted symlinks" -- env VMSUITE_NO_O_TMPFILE=$((mode == 1)) \
      bash -c 'for r in 1 2 3; do ln -s "$2" "$1/.vmsuite-'"$w"'-$$-$r.tmp"; done
               exec "$3" run --machine host --no-drop-caches -q --workdir "$1" \
                 -w '"$w"':bytes=1M -n 2 -o "$1.json"' \
      plant "$wd" "$VMS_TEST_TMP/target-$mode-$w" "$VMSUITE"
    [ "$(cat "$VMS_TEST_TMP/target-$mode-$w")" = precious ] && ok \
      || fail "$w ($mode): the symlink target was written: $(head -c 64 "$VMS_TEST_TMP/target-$mode-$w" | od -c | head -2)"
    [ "$(find "$wd" -maxdepth 1 -type l -name '.vmsuite-*' | wc -l)" = 3 ] && ok \
      || fail "$w ($mode): the planted symlinks were replaced: $(ls -la "$wd")"
    [ -z "$(leftovers "$wd")" ] && ok || fail "$w ($mode) left: $(leftovers "$wd")"
  }
  for w in mmap001 mmap002; do
    plant_and_run 0 "$w" # O_TMPFILE (ext4, where this tree is built)
    plant_and_run 1 "$w" # the private-directory fallback
  done
  ;;

overflow)
  # pages × 4096 wraps to 4096 bytes; size + margins wraps the free-space check; 2R and 3R of
  # mmap002 wrap; no option size beyond 1 EiB is meaningful
  for spec in mmap001:pages=4503599627370497 mmap001:bytes=18446744073709551615 \
    mmap001:pages=18446744073709551615 mmap002:bytes=9223372036854775808 \
    mmap002:bytes=18446744073709551615 mtest01:bytes=18446744073709551615 \
    mtest01:chunk=18446744073709551615; do
    expect_exit 129 "$spec" -- run -w "$spec" -n 1 -o "o.json"
    opt=${spec#*:}
    expect_in "$err" "${spec%%:*}: " "$spec: the message names the workload"
    expect_in "$err" " ${opt%%=*}" "$spec: the message names the option"
    [ ! -e o.json ] && ok || fail "$spec: a result was written"
  done
  # the largest accepted sizes still parse (they fail later on the free-space check)
  expect_exit 128 "mmap001:pages=2^48 is a size, too large for the disk" -- \
    run -w mmap001:pages=281474976710656 -n 1 -o o.json
  expect_in "$err" "free" "refused for the free disk"
  ;;

workdir)
  # nothing_ran WHAT: no result file, nothing in the work directory
  nothing_ran() {
    [ ! -e o.json ] && ok || fail "$1: a result was written"
    [ -z "$(printf '%s\n' "$err" | grep 'run 1/')" ] && ok || fail "$1: a run started: $err"
  }
  printf 'keep\n' >regular
  for w in mmap001 mmap002; do
    expect_exit 128 "$w, workdir a regular file" -- run --workdir regular -w "$w:bytes=1M" -n 1 -o o.json
    expect_in "$err" "'$VMS_TEST_TMP/regular'" "the message names the file"
    expect_in "$err" "Not a directory" "the message says why"
    nothing_ran "$w, regular file"
    expect_exit 128 "$w:dir= a regular file" -- run -w "$w:bytes=1M:dir=$VMS_TEST_TMP/regular" -n 1 -o o.json
    expect_in "$err" "Not a directory" "dir=: the message says why"
  done
  [ "$(cat regular)" = keep ] && ok || fail "the regular file changed"
  if [ "$(id -u)" -ne 0 ]; then skip_rest "the read-only mount and the other user need root"; fi

  # a read-only bind mount of a disk directory (restored by the trap whatever happens)
  mkdir -p ro
  umount_ro() { mountpoint -q "$VMS_TEST_TMP/ro" && umount "$VMS_TEST_TMP/ro"; }
  trap umount_ro EXIT
  if mount --bind ro ro && mount -o remount,bind,ro ro; then
    for mode in 0 1; do
      expect_exit 128 "read-only work directory (fallback $mode)" -- \
        env VMSUITE_NO_O_TMPFILE=$mode "$VMSUITE" run --machine host --no-drop-caches -q \
        --workdir ro -w mmap001:bytes=1M -n 1 -o o.json
      expect_in "$err" "'$VMS_TEST_TMP/ro'" "read-only: the message names the directory"
      expect_in "$err" "Read-only file system" "read-only: the message says why"
      nothing_ran "read-only"
    done
    umount_ro
  else
    fail "cannot make a read-only bind mount"
  fi

  # a directory the user cannot write: run as nobody (the output goes where nobody may write)
  if ! command -v setpriv >/dev/null; then skip_rest "no setpriv to run as another user"; fi
  if ! setpriv --reuid=nobody --regid=nogroup --clear-groups "$VMSUITE" --version >/dev/null 2>&1; then
    skip_rest "the nobody user cannot run '$VMSUITE' (or does not exist)"
  fi
  mkdir -p shut res
  chmod 755 shut
  chmod 777 res
  for mode in 0 1; do
    expect_exit 128 "a work directory nobody cannot write (fallback $mode)" -- \
      setpriv --reuid=nobody --regid=nogroup --clear-groups \
      env VMSUITE_NO_O_TMPFILE=$mode "$VMSUITE" run --machine host --no-drop-caches -q \
      --workdir shut -w mmap001:bytes=1M -n 1 -o res/o.json
    expect_in "$err" "'$VMS_TEST_TMP/shut'" "not writable: the message names the directory"
    expect_in "$err" "Permission denied" "not writable: the message says why"
    [ ! -e res/o.json ] && ok || fail "not writable: a result was written"
  done
  [ -z "$(ls -A shut)" ] && ok || fail "left in the work directory: $(ls -A shut)"
  ;;

sigkill)
  # kill_mid_run MODE: a run of mmap001 SIGKILLed once its child runs; sets $wd
  kill_mid_run() {
    wd=$VMS_TEST_TMP/wd-$1
    mkdir -p "$wd"
    VMSUITE_NO_O_TMPFILE=$1 "$VMSUITE" run --machine host --no-drop-caches -q --workdir "$wd" \
      -w mmap001:bytes=4G -n 3 --overwrite -o "$wd.json" 2>"$wd.err" &
    local victim=$! child=
    for _ in $(seq 1 600); do
      child=$(pgrep -P "$victim")
      # the child has made its file once its mapping is being written
      [ -n "$child" ] && [ "$(awk '/^VmRSS/ {print $2}' "/proc/$child/status" 2>/dev/null || echo 0)" -gt 4096 ] && break
      sleep 0.1
    done
    [ -n "$child" ] && ok || fail "mode $1: the run never started mmap001: $(cat "$wd.err")"
    kill -KILL "$victim"
    wait "$victim" 2>/dev/null
    # the child dies with it (PR_SET_PDEATHSIG)
    for _ in $(seq 1 300); do
      [ -n "$child" ] && kill -0 "$child" 2>/dev/null || break
      sleep 0.1
    done
  }

  kill_mid_run 0
  [ -z "$(leftovers "$wd")" ] && ok || fail "O_TMPFILE: left after SIGKILL: $(leftovers "$wd")"

  kill_mid_run 1
  left=$(leftovers "$wd")
  [ -n "$left" ] && ok || fail "fallback: the private directory of the killed run is not there"
  expect_exit 0 "cleanup" -- "$VMSUITE" cleanup
  expect_in "$out" "removed the work directory '$wd/.vmsuite-mmap001-" "cleanup says what it removed"
  [ -z "$(leftovers "$wd")" ] && ok || fail "fallback: left after cleanup: $(leftovers "$wd"; ls -laR "$wd")"
  [ -z "$(ls -A "$VMSUITE_STATE_DIR/journal" 2>/dev/null)" ] && ok \
    || fail "journal records left: $(ls -A "$VMSUITE_STATE_DIR/journal")"

  # the next run repairs it too
  kill_mid_run 1
  expect_exit 0 "a run after the killed one" -- run --workdir "$wd" -w mtest01:bytes=8M -n 1 -o after.json
  expect_in "$err" "removed the work directory '$wd/.vmsuite-mmap001-" "the run repairs first"
  [ -z "$(leftovers "$wd")" ] && ok || fail "fallback: left after the next run: $(leftovers "$wd")"
  ;;
*) fail "unknown part $part" ;;
esac
finish
