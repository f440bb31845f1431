# A result file whose strings hold terminal escapes and line breaks (ESC [31m, CR LF and a
# forged line, the C1 CSI, a right-to-left override, BEL): the text and markdown outputs of
# `vmsuite report` and `vmsuite compare`, and the HTML report, show them escaped (\xNN,
# \uNNNN) on the line they belong to, so a label can neither drive the terminal nor forge a
# report line; the markdown read through cmark-gfm keeps the escaped text.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

here=$VMS_SOURCE_DIR/tests/escape
craft() { python3 "$here/craft-hostile.py" --base base.json --mode control "$@"; }
check() { python3 "$here/check-escape.py" "$@" 2>check.err && ok || fail "$(cat check.err)"; }

python3 "$VMS_SOURCE_DIR/tests/html/make-result.py" --out base.json --audio --gaps 2 \
  --base "$VMS_SOURCE_DIR/tests/data/golden-result-sound.json" || fail "make-result"
craft --out A.json || fail "craft A"
craft --out B.json --side B || fail "craft B"

expect_exit 0 "report" -- "$VMSUITE" report A.json -o report.txt
check text report.txt labelA version start_time profile note workload0 workload1 status reason
expect_exit 0 "report --format markdown" -- "$VMSUITE" report A.json --format markdown -o report.md
check text report.md
expect_exit 0 "report --format html" -- "$VMSUITE" report A.json --format html -o report.html
check text report.html labelA status reason workload0 cause
expect_exit 2 "compare" -- "$VMSUITE" compare A.json B.json -o compare.txt
# (the environment's values are cut to fit 100 columns: only their bytes are checked)
check text compare.txt labelA labelB workload0 workload1 key-metric key-fingerprint
expect_exit 2 "compare --format markdown" -- "$VMSUITE" compare A.json B.json --format markdown \
  -o compare.md
check text compare.md

# sysinfo prints the work directory's path (any bytes a user can put in a name)
wd=$(printf 'wd\033[31mX\r\nFORGED')
mkdir -p "$wd" || fail "mkdir"
expect_exit 0 "sysinfo --workdir" -- "$VMSUITE" sysinfo --workdir "$wd"
printf '%s\n' "$out" > sysinfo.txt
grep -q 'wd\\x1b\[31mX\\x0d' sysinfo.txt && ok || fail "sysinfo: the work directory not shown escaped"
! LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" sysinfo.txt && ok ||
  fail "sysinfo: a control character in the output"
# a value's line break starts a continuation row under the value column, never a row of its own
! grep -q '^FORGED' sysinfo.txt && ok || fail "sysinfo: a forged row"

command -v cmark-gfm >/dev/null || skip_rest "cmark-gfm is not installed (scripts/install-deps.sh)"
check markdown-text report.md labelA version start_time profile note workload0 workload1 status \
  reason
check markdown-text compare.md labelA labelB workload0 workload1 key-metric key-fingerprint \
  fpvalueA fpvalueB
finish
