# Bad input gets a one-line message naming the problem, exit 129 (usage) or 128, and nothing
# runs: no result file appears.
. "$(dirname "$0")/lib.sh"

bad() { # bad CODE NEEDLE args...
  local code=$1 needle=$2
  shift 2
  rm -f r.json
  expect_exit "$code" "run $*" -- "$VMSUITE" run -o r.json "$@"
  expect_in "$err" "$needle" "run $*"
  [ "$(printf '%s\n' "$err" | grep -c '^vmsuite:')" -eq 1 ] && ok || fail "run $*: not one line: $err"
  [ ! -e r.json ] && ok || fail "run $*: a result file was written"
}

bad 129 "unknown workload 'nosuch'" -w nosuch
bad 129 "unknown option 'size'" -w mmap001:size=1G
bad 129 "unknown option '--bogus'" --bogus
bad 129 "unknown option '--machien'; did you mean '--machine'?" --machien host
bad 129 "unknown option '--lable=x'; did you mean '--label'?" --lable=x
# one meaning, one value: a repeated option would silently take the last value
bad 129 "option '--output' given twice: it takes one value" -o other.json
bad 129 "option '--label' given twice: it takes one value" --label a --label b
bad 129 "option '--no-drop-caches' given twice" --no-drop-caches --no-drop-caches
bad 129 "malformed size 'big'" -w mmap001:bytes=big
bad 129 "runs must be" -n 0
bad 129 "runs must be" -n -3
bad 129 "runs must be" -n many
bad 129 "option '-n' needs a value" -n
bad 129 "unexpected argument 'mmap001'" mmap001
bad 128 "tmpfs" -w mmap001:bytes=1M --workdir /dev/shm
bad 128 "free" -w mmap001:bytes=900T
bad 128 "cannot use work directory '/nonexistent'" -w mmap001:bytes=1M --workdir /nonexistent

# unwritable or impossible output paths
expect_exit 128 "output in missing dir" -- "$VMSUITE" run -w mtest01:bytes=1M -n 1 -o /nonexistent/r.json
expect_in "$err" "cannot write result to '/nonexistent/r.json'" "missing dir"
mkdir -p adir
expect_exit 128 "output is a directory" -- "$VMSUITE" run -w mtest01:bytes=1M -n 1 -o adir
expect_in "$err" "is a directory" "output dir"

# report: missing, not JSON, not ours, newer format, usage
expect_exit 128 "report missing" -- "$VMSUITE" report nosuch.json
expect_in "$err" "cannot read 'nosuch.json': No such file or directory" "report missing"
echo "hello" > text.json
expect_exit 128 "report not json" -- "$VMSUITE" report text.json
expect_in "$err" "not JSON" "report not json"
echo '{"results": []}' > other.json
expect_exit 128 "report not ours" -- "$VMSUITE" report other.json
expect_in "$err" "not a vmsuite result" "report not ours"
echo '{"format": "vmsuite.result/9", "workloads": []}' > future.json
expect_exit 128 "report newer" -- "$VMSUITE" report future.json
expect_in "$err" "newer than this vmsuite reads" "report newer"
expect_exit 129 "report no file" -- "$VMSUITE" report
expect_exit 129 "report bad format" -- "$VMSUITE" report future.json --format pdf
expect_exit 129 "list extra arg" -- "$VMSUITE" list extra
finish
