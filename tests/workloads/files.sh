# Work files and the work directory, end to end (one ctest entry per part, $VMS_FILES_PART):
#   overflow  sizes whose arithmetic would wrap are usage errors (129) before anything runs
# Runs on the host profile: no cgroup, no host lock.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

part=${VMS_FILES_PART:?which part}
# the journal of these runs: a private state directory, never /run/vmsuite
export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state
run() { "$VMSUITE" run --machine host --no-drop-caches -q "$@"; }

# leftovers DIR: what vmsuite may have left in DIR (its names start with .vmsuite-)
leftovers() { find "$1" -mindepth 1 -maxdepth 1 -name '.vmsuite-*' ! -type l | sort; }

case $part in
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

*) fail "unknown part $part" ;;
esac
finish
