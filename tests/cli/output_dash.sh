# `report -o -` and `compare -o -` write to standard output, exactly as without -o: no file
# named '-', --overwrite and the "exists" check do not apply to it, and a failed write to
# standard output (a full device, a closed descriptor, a closed pipe) is an error with a
# non-zero exit. No host state is touched.
. "$(dirname "$0")/lib.sh"

cp "$VMS_SOURCE_DIR/tests/data/golden-result.json" a.json
cp a.json b.json

# check_dash WHAT -- vmsuite-args...: with -o -, the same stdout as without -o, no file '-'
check_dash() {
  local what=$1
  shift 2
  "$VMSUITE" "$@" >want.out 2>want.err
  local want=$?
  expect_exit "$want" "$what -o -" -- "$VMSUITE" "$@" -o -
  [ -s want.out ] && ok || fail "$what: nothing on stdout without -o"
  cmp -s want.out out && ok || fail "$what -o -: stdout differs from that without -o"
  [ ! -e ./- ] && ok || fail "$what -o - created a file named '-'"
  # an existing file named '-' is neither refused nor touched, --overwrite or not
  echo keep >./-
  expect_exit "$want" "$what -o - beside a file '-'" -- "$VMSUITE" "$@" -o -
  cmp -s want.out out && ok || fail "$what -o - beside a file '-': stdout differs"
  expect_exit "$want" "$what -o - --overwrite" -- "$VMSUITE" "$@" -o - --overwrite
  cmp -s want.out out && ok || fail "$what -o - --overwrite: stdout differs"
  [ "$(cat ./-)" = keep ] && ok || fail "$what -o -: the file '-' was written"
  rm -f ./-
}

check_dash "report" -- report a.json
check_dash "report json" -- report a.json --format json
check_dash "compare" -- compare a.json b.json
check_dash "compare json" -- compare a.json b.json --format json
printf '%s' "$out" | python3 -m json.tool >/dev/null && ok || fail "compare -o -: not JSON"

# closed_pipe ignore|default COMMAND...: runs COMMAND with stdout a pipe nobody reads from
# any more and SIGPIPE ignored or at its default; ignore: exits with its status; default:
# prints its status (Python's: -13 for killed by SIGPIPE)
closed_pipe() {
  python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
st = subprocess.call(sys.argv[2:], stdout=w, restore_signals=sys.argv[1] == "default")
if sys.argv[1] == "default":
    print(st)
    sys.exit(0)
sys.exit(st)' "$@"
}

# expect_write_error WHAT CODE -- vmsuite-args...: with -o -, stdout on /dev/full, closed, and
# a pipe with no reader must each fail with CODE and say why on stderr
expect_write_error() {
  local what=$1 code=$2
  shift 3
  "$VMSUITE" "$@" -o - >/dev/full 2>err
  got=$?
  [ "$got" -eq "$code" ] && ok || fail "$what -o - >/dev/full: exit $got, want $code"
  expect_in "$(cat err)" "cannot write to standard output: No space left on device" \
    "$what -o - >/dev/full"
  [ "$(grep -c 'cannot write' err)" -eq 1 ] && ok || fail "$what -o - >/dev/full: said twice: $(cat err)"
  "$VMSUITE" "$@" -o - >&- 2>err
  got=$?
  [ "$got" -eq "$code" ] && ok || fail "$what -o - >&-: exit $got, want $code"
  expect_in "$(cat err)" "cannot write to standard output: Bad file descriptor" \
    "$what -o - >&-"
  # a reader that has gone (a pipe whose read end is closed before vmsuite starts): with
  # SIGPIPE ignored, EPIPE is reported; with the default action the signal ends vmsuite
  closed_pipe ignore "$VMSUITE" "$@" -o - 2>err
  got=$?
  [ "$got" -eq "$code" ] && ok || fail "$what -o - | (closed): exit $got, want $code"
  expect_in "$(cat err)" "cannot write to standard output: Broken pipe" "$what -o - | (closed)"
  got=$(closed_pipe default "$VMSUITE" "$@" -o - 2>/dev/null)
  [ "$got" = "-13" ] && ok || fail "$what -o - | (closed), SIGPIPE default: status $got, want -13"
}

expect_write_error "report" 128 -- report a.json
expect_write_error "compare" 2 -- compare a.json b.json
expect_write_error "compare --bisect" 128 -- compare a.json b.json --bisect
finish
