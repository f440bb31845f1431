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
finish
