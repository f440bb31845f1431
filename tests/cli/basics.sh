# --version, help for every command, "did you mean", and `list`.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "--version" -- "$VMSUITE" --version
expect_in "$out" "vmsuite 0." "--version"
expect_exit 0 "--help" -- "$VMSUITE" --help
top_help=$out
for c in run list report sysinfo probe compare; do
  expect_in "$top_help" "  $c " "--help lists $c"
  expect_exit 0 "help $c" -- "$VMSUITE" help "$c"
  expect_in "$out" "usage: vmsuite $c" "help $c"
  expect_exit 0 "$c --help" -- "$VMSUITE" "$c" --help
  expect_in "$out" "usage: vmsuite $c" "$c --help"
done
expect_exit 129 "no command" -- "$VMSUITE"
expect_exit 129 "unknown command" -- "$VMSUITE" rn
expect_in "$err" "'rn' is not a vmsuite command" "unknown command message"
expect_in "$err" "run" "did you mean"
expect_exit 129 "unknown global option" -- "$VMSUITE" --bogus
expect_exit 129 "help of unknown command" -- "$VMSUITE" help nosuch

expect_exit 0 "list" -- "$VMSUITE" list
for w in mmap001 mtest01 mmap002; do expect_in "$out" "$w —" "list shows $w"; done
expect_in "$out" "2048000000" "list shows mmap001's 2001 default"
expect_in "$out" "percent" "list shows mtest01 options"
expect_in "$out" "hron2001" "list shows the machine profiles"
expect_in "$out" "plan: -w mmap001:bytes=2048000000 x 5, -w mtest01:percent=80:write=1 x 10" \
  "list shows the hron2001 plan"
# whether each workload can run here: mtest01 needs nothing; from a tmpfs directory (the default
# work directory is '.') the file-backed ones say why not
n_workloads=$(printf '%s\n' "$out" | grep -cE '^[a-z0-9]+ — ')
[ "$n_workloads" -ge 4 ] && ok || fail "every workload listed (mmap001, mtest01, mmap002, memload): $out"
expect_in "$out" "memload — " "list shows memload"
[ "$(printf '%s\n' "$out" | grep -c '^  can run here: ')" = "$n_workloads" ] && ok ||
  fail "a can-run line per workload: $out"
expect_in "$(printf '%s\n' "$out" | sed -n '/^mtest01 —/,/^$/p')" "can run here: yes" "mtest01 can run"
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
  expect_exit 0 "list from tmpfs" -- sh -c 'cd /dev/shm && exec "$0" list' "$VMSUITE"
  expect_in "$(printf '%s\n' "$out" | sed -n '/^mmap001 —/,/^$/p')" \
    "can run here: no: needs a disk-backed work directory ('.' is on tmpfs" "mmap001 says why not"
  expect_in "$(printf '%s\n' "$out" | sed -n '/^mtest01 —/,/^$/p')" "can run here: yes" "mtest01 still can"
fi
finish
