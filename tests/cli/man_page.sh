# docs/vmsuite.1 keeps up with the code: its OPTIONS are what the option tables make (`vmsuite
# help --roff`, written in by scripts/update-man.sh); every environment variable vmsuite reads (each
# getenv() in the sources, and what the lab script reads) is in ENVIRONMENT, every command of
# `vmsuite --help` has its entry in COMMANDS, there are EXAMPLES, and SEE ALSO names each guide
# of docs/ (installed under share/doc/vmsuite) and no guide that is not there.
. "$(dirname "$0")/lib.sh"

man=$VMS_SOURCE_DIR/docs/vmsuite.1
# section NAME: the man page's lines from ".SH NAME" to the next .SH
section() { sed -n "/^\\.SH $1\$/,/^\\.SH /p" "$man" | sed '1d;$d' | sed 's/\\-/-/g'; }

env_section=$(section ENVIRONMENT)
[ -n "$env_section" ] && ok || fail "no ENVIRONMENT section"
# getenv("NAME") and secure_getenv("NAME") in the C sources outside tests/ and bench/
names=$(cd "$VMS_SOURCE_DIR" &&
  grep -rhoE '(secure_)?getenv\("[A-Za-z_0-9]+"\)' --include='*.c' --include='*.h' \
    core workloads audio-probe compare report suite cli | sed -E 's/.*\("([^"]+)"\)/\1/')
# the lab script's own variables (vmsuite lab runs it)
names="$names $(grep -oE '\$\{?(VMSUITE|XDG)_[A-Z0-9_]+' "$VMS_SOURCE_DIR/lab/vmsuite-lab.sh" |
  sed -E 's/^\$\{?//')"
names=$(printf '%s\n' $names | sort -u)
echo "$names" | grep -qx VMSUITE_VCLOCK_SUSPEND_AT_MS && ok ||
  fail "the scan of the sources did not find VMSUITE_VCLOCK_SUSPEND_AT_MS"
for n in $names; do
  # an entry: ".B NAME" or a ".B A, B, C" list
  printf '%s\n' "$env_section" | grep -qE "^\\.B (.*, )?$n(,|\$)" && ok ||
    fail "docs/vmsuite.1: $n is read (getenv or the lab script) but not in ENVIRONMENT"
done

# OPTIONS is made from the option tables (scripts/update-man.sh): what the binary prints now
expect_exit 0 "vmsuite help --roff" -- "$VMSUITE" help --roff
generated=$(sed -n '/^\.\\" BEGIN generated options/,/^\.\\" END generated options/p' "$man" |
  sed '1d;$d')
[ -n "$generated" ] && ok || fail "docs/vmsuite.1: no generated OPTIONS between the markers"
if [ "$generated" = "$out" ]; then ok; else
  fail "docs/vmsuite.1's OPTIONS differ from the option tables (run scripts/update-man.sh): $(
    diff <(printf '%s\n' "$generated") <(printf '%s\n' "$out") | head -20)"
fi
for c in run probe report compare; do
  expect_in "$generated" ".SS \"vmsuite $c\"" "OPTIONS: a subsection for $c"
done
expect_in "$generated" "\\fB\\-\\-threshold\\fR" "OPTIONS: compare's --threshold"

expect_exit 0 "vmsuite --help" -- "$VMSUITE" --help
cmds=$(printf '%s\n' "$out" | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
for c in $cmds; do
  section COMMANDS | grep -qx "\\.B $c" && ok || fail "docs/vmsuite.1: no COMMANDS entry for $c"
done

examples=$(section EXAMPLES)
expect_in "$examples" "vmsuite compare before.json after.json" "EXAMPLES: two kernels"
expect_in "$examples" "--against good1.json" "EXAMPLES: bisect with run --against"
expect_in "$examples" "-n auto" "EXAMPLES: -n auto"
expect_in "$examples" "--sysctl vm.page-cluster=0,3" "EXAMPLES: variants"
expect_in "$examples" "--format html" "EXAMPLES: report formats"

see_also=$(section 'SEE ALSO')
expect_in "$see_also" "doc/vmsuite" "SEE ALSO names the installed documentation directory"
for f in "$VMS_SOURCE_DIR"/docs/*.md; do
  expect_in "$see_also" "${f##*/}" "SEE ALSO names docs/${f##*/}"
done
for g in $(printf '%s\n' "$see_also" | grep -oE '[a-z-]+\.md' | sort -u); do
  [ "$g" = README.md ] || [ -e "$VMS_SOURCE_DIR/docs/$g" ] && ok ||
    fail "SEE ALSO names $g, which docs/ does not hold"
done
finish
