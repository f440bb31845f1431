# Shared helpers for the end-to-end tests that drive the real vmsuite binary.
# Provided by ctest: VMSUITE, VMS_SOURCE_DIR, VMS_BINARY_DIR, VMS_TEST_TMP.
set -u
: "${VMSUITE:?run me through ctest}"
rm -rf "$VMS_TEST_TMP"
mkdir -p "$VMS_TEST_TMP"
cd "$VMS_TEST_TMP" || exit 1
failures=0
checks=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

ok() {
  checks=$((checks + 1))
}

# expect_exit CODE DESCRIPTION -- command...: runs it, captures out/err in $out/$err.
expect_exit() {
  local want=$1 what=$2
  shift 3
  "$@" >"$VMS_TEST_TMP/out" 2>"$VMS_TEST_TMP/err"
  local got=$?
  out=$(cat "$VMS_TEST_TMP/out")
  err=$(cat "$VMS_TEST_TMP/err")
  if [ "$got" -ne "$want" ]; then
    fail "$what: exit $got, want $want; stderr: $err"
  else
    ok
  fi
}

# expect_in TEXT NEEDLE DESCRIPTION
expect_in() {
  if printf '%s' "$1" | grep -qF -- "$2"; then ok; else fail "$3: '$2' not in: $1"; fi
}

json_get() { # json_get FILE PYTHON-EXPR (d is the document)
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

finish() {
  echo "$checks passed, $failures failed"
  [ "$failures" -eq 0 ]
  exit $?
}

# skip_rest REASON: this machine cannot run the rest of the test. Fails if a check so far
# failed; otherwise exits 77, which ctest reports as skipped (not passed).
skip_rest() {
  echo "SKIP: $*"
  if [ "$failures" -ne 0 ]; then finish; fi
  echo "$checks passed before the skip"
  exit 77
}

# save_actual GOLDEN ACTUAL: keeps ACTUAL as build/golden-actual/GOLDEN (GOLDEN relative to
# the source tree) for scripts/update-goldens.sh. Tests never write the golden files.
save_actual() {
  mkdir -p "$(dirname "$VMS_BINARY_DIR/golden-actual/$1")"
  cp "$2" "$VMS_BINARY_DIR/golden-actual/$1"
}

# expect_golden GOLDEN ACTUAL DESCRIPTION: ACTUAL must equal the golden file byte for byte.
expect_golden() {
  save_actual "$1" "$2"
  if cmp -s "$2" "$VMS_SOURCE_DIR/$1"; then ok; else
    fail "$3: differs from $1 (scripts/update-goldens.sh rewrites it after a deliberate change):"
    diff -u "$VMS_SOURCE_DIR/$1" "$2" >&2
  fi
}

# wait_for SECONDS COMMAND...: polls until the command succeeds; 1 if it never does.
wait_for() {
  local tries=$(($1 * 10))
  shift
  while [ "$tries" -gt 0 ]; do
    "$@" && return 0
    sleep 0.1
    tries=$((tries - 1))
  done
  return 1
}
# has_child PID: PID has a child process (a run has forked its workload or probe).
has_child() { [ -n "$(pgrep -P "$1")" ]; }
