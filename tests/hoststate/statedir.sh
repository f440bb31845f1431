# The state directory named by VMSUITE_STATE_DIR (no root needed: nothing on the host changes):
# one too long for vmsuite is refused by `run` and `cleanup` with a message that shows its
# start and says where it comes from, before anything is done.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

long=$VMS_TEST_TMP/$(printf 'x%.0s' $(seq 1 5000))
for cmd in "run --machine host -w mtest01:bytes=8M -n 1 -o long.json" cleanup; do
  # shellcheck disable=SC2086
  expect_exit 128 "$cmd with a long state directory" -- env VMSUITE_STATE_DIR="$long" \
    "$VMSUITE" $cmd
  expect_in "$err" "the state directory '${long:0:20}" "$cmd shows the directory's start"
  expect_in "$err" "is too long (" "$cmd says what is wrong"
  expect_in "$err" "VMSUITE_STATE_DIR names it" "$cmd says where it comes from"
  case $err in *"(null)"*) fail "$cmd says '(null)': $err" ;; *) ok ;; esac
done
[ ! -e long.json ] && ok || fail "a result was written"
finish
