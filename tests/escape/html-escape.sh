# A result file whose every string field holds markup (<script>, an onerror attribute, an
# entity) and whose printed keys (metric, option, fingerprint and fact names) have hostile
# twins: the HTML report and the compare view must show each string as text, which an HTML
# parser confirms (no injected element, no on* attribute, the payload in the page's text); the
# markdown report and compare, read through cmark-gfm with raw HTML allowed, the same; text
# renders without failing.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

here=$VMS_SOURCE_DIR/tests/escape
craft() { python3 "$here/craft-hostile.py" --base base.json --mode markup "$@"; }
check() { python3 "$here/check-escape.py" "$@" 2>check.err && ok || fail "$(cat check.err)"; }

python3 "$VMS_SOURCE_DIR/tests/html/make-result.py" --out base.json --audio --gaps 2 \
  --base "$VMS_SOURCE_DIR/tests/data/golden-result-sound.json" || fail "make-result"
craft --out A.json || fail "craft A"
craft --out B.json --side B || fail "craft B"

# the run report: every string of the file that it shows
expect_exit 0 "report --format html" -- "$VMSUITE" report A.json --format html -o report.html
check html report.html labelA version start_time profile note workload0 workload1 summary \
  status reason cause
# the compare view: labels, names, units, and the environment diff's keys and values
expect_exit 2 "compare --format html" -- "$VMSUITE" compare A.json B.json --format html -o compare.html
check html compare.html labelA labelB workload0 workload1 key-metric unit key-fingerprint \
  fpvalueA fpvalueB key-fact factvalueA factvalueB

# a long label of multi-byte characters is shortened in the charts between characters, never
# inside one (half a character would show as \xNN)
python3 -c 'import json, sys; d = json.load(open("base.json")); d["label"] = "\u20ac" * 30
json.dump(d, open("utf8.json", "w"))' || fail "utf8.json"
expect_exit 0 "compare a label of multi-byte characters" -- "$VMSUITE" compare utf8.json utf8.json \
  --format html -o utf8.html
grep -qE "A: ($(printf '\342\202\254'))+\.\.\.<" utf8.html && ok || fail "utf8: no shortened label"
! grep -q '\\x[89a-f][0-9a-f]' utf8.html && ok || fail "utf8: a label cut inside a character"

# text and markdown of the same files render
expect_exit 0 "report --format text" -- "$VMSUITE" report A.json
expect_exit 2 "compare --format text" -- "$VMSUITE" compare A.json B.json

command -v cmark-gfm >/dev/null || skip_rest "cmark-gfm is not installed (scripts/install-deps.sh)"
expect_exit 0 "report --format markdown" -- "$VMSUITE" report A.json --format markdown -o report.md
check markdown report.md labelA version start_time profile note workload0 workload1 status reason
expect_exit 2 "compare --format markdown" -- "$VMSUITE" compare A.json B.json --format markdown -o compare.md
check markdown compare.md labelA labelB workload0 workload1 key-metric key-fingerprint \
  fpvalueA fpvalueB
finish
