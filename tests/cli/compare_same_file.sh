# `compare` warns when one file (one inode, whatever its names: the same path, a hard link, a
# symlink) is given twice: on two sides the comparison can only find them equal, within one
# side its runs count twice. A copy is another file: no warning. The verdict is unchanged.
. "$(dirname "$0")/lib.sh"

cp "$VMS_SOURCE_DIR/tests/data/golden-result.json" a.json
cp a.json copy.json
ln a.json hard.json
ln -s a.json soft.json
two="are the same file, on two sides: the comparison can only find them equal"
one="are the same file, in one side: its runs count twice"

expect_exit 0 "the same path twice" -- "$VMSUITE" compare a.json a.json
expect_in "$err" "vmsuite: warning: 'a.json' and 'a.json' $two" "the same path: warning"
expect_exit 0 "a hard link" -- "$VMSUITE" compare a.json hard.json
expect_in "$err" "'a.json' and 'hard.json' $two" "a hard link: warning"
expect_exit 0 "a symlink" -- "$VMSUITE" compare soft.json a.json
expect_in "$err" "'soft.json' and 'a.json' $two" "a symlink: warning"
expect_exit 0 "grouped, across sides" -- "$VMSUITE" compare a.json -- copy.json hard.json
expect_in "$err" "'a.json' and 'hard.json' $two" "grouped across sides: warning"
expect_exit 0 "grouped, within a side" -- "$VMSUITE" compare a.json soft.json -- copy.json
expect_in "$err" "'a.json' and 'soft.json' $one" "grouped within a side: warning"
expect_exit 0 "a copy" -- "$VMSUITE" compare a.json copy.json
if printf '%s' "$err" | grep -q "same file"; then fail "a copy: warned: $err"; else ok; fi
finish
