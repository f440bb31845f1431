# --thp as a variant axis on the host profile (no root needed, no knob changed): the runs of the
# two variants alternate, each run records whether THP was off, and every report format shows
# the variants side by side; a format-1 file still renders as before (one variant). The host
# knobs themselves (--sysctl) are tests/hoststate/sysctl.sh.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"
export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state

expect_exit 0 "two THP variants" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M \
  -w mmap001:bytes=4M -n 2 --thp off,kernel --workdir "$VMS_TEST_TMP" -o v.json
[ "$(json_get v.json '[v["label"] for v in d["variants"]]')" = "['thp=off', 'thp=kernel']" ] \
  && ok || fail "variants: $(json_get v.json 'd["variants"]')"
[ "$(json_get v.json '[(w["name"], w["variant"]) for w in d["workloads"]]')" = \
  "[('mtest01', 'thp=off'), ('mtest01', 'thp=kernel'), ('mmap001', 'thp=off'), ('mmap001', 'thp=kernel')]" ] \
  && ok || fail "entries: $(json_get v.json '[(w["name"], w["variant"]) for w in d["workloads"]]')"
order=$(json_get v.json '[(x[1], x[2]) for x in sorted((r["t_start"], w["variant"], r["index"]) for w in d["workloads"] if w["name"] == "mtest01" for r in w["runs"])]')
[ "$order" = "[('thp=off', 1), ('thp=kernel', 1), ('thp=off', 2), ('thp=kernel', 2)]" ] \
  && ok || fail "runs do not alternate: $order"
[ "$(json_get v.json '[all(r["thp_disabled"] for r in w["runs"]) for w in d["workloads"]] == [True, False, True, False]')" = True ] \
  && ok || fail "thp_disabled per run does not follow the variant"
[ "$(json_get v.json 'd["protocol"]["thp_disabled"]')" = None ] && ok || fail "protocol.thp_disabled not null"

# the text report: the header lists the variants, a column per variant, then each one's lines
expect_in "$out" "Variants: 2, runs interleaved" "run's report lists the variants"
expect_exit 0 "text report" -- "$VMSUITE" report v.json
expect_in "$out" "  thp=off: thp=off" "variant settings line"
head=$(printf '%s\n' "$out" | grep -A1 '^mtest01$' | tail -1; printf '%s\n' "$out" | grep -A2 '^mtest01$' | tail -1)
printf '%s\n' "$head" | grep -qE '^ +thp=off +thp=kernel$' && ok || fail "no side-by-side header: $head"
printf '%s\n' "$out" | grep -qE '^Successful runs +2 of 2 +2 of 2$' && ok || fail "no side-by-side runs row: $out"
printf '%s\n' "$out" | grep -qE '^bytes allocated +8388608 +8388608$' && ok || fail "no side-by-side 2001 row"
expect_in "$out" "[thp=kernel]" "each variant's own lines under its label"
expect_exit 0 "markdown report" -- "$VMSUITE" report v.json --format markdown
expect_in "$out" "| | thp=off | thp=kernel |" "markdown table with a column per variant"
expect_in "$out" "### mmap001 — thp=kernel" "markdown section per variant"
expect_exit 0 "html report" -- "$VMSUITE" report v.json --format html -o v.html
grep -q 'href="#mtest01-v2">thp=kernel</a></th>' v.html && ok || fail "html side-by-side table"
dups=$(grep -o 'id="[^"]*"' v.html | sort | uniq -d)
[ -z "$dups" ] && ok || fail "html ids repeat: $dups"
expect_exit 0 "json summary" -- "$VMSUITE" report v.json --format json
[ "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print([w["variant"] for w in d["workloads"]], [v["label"] for v in d["variants"]])')" = \
  "['thp=off', 'thp=kernel', 'thp=off', 'thp=kernel'] ['thp=off', 'thp=kernel']" ] \
  && ok || fail "json summary variants"

# one variant: no variants line, the 2001 block as before; the default is --thp kernel
expect_exit 0 "one variant" -- "$VMSUITE" run --machine host -w mtest01:bytes=8M -n 1 --thp off -o one.json
[ "$(printf '%s\n' "$out" | grep -c 'Variants')" = 0 ] && ok || fail "one variant shows a variants line"
expect_in "$out" "Averages for 1 mtest01 runs" "one variant: the 2001 caption"
[ "$(json_get one.json '(d["variants"], d["protocol"]["thp_disabled"])')" = "([{'label': 'default', 'settings': {'thp': 'off'}}], True)" ] \
  && ok || fail "one variant, THP off: $(json_get one.json 'd["variants"]')"
# a kept format-1 file reads as one variant
expect_exit 0 "format-1 report" -- "$VMSUITE" report "$VMS_SOURCE_DIR/tests/data/golden-result.json" --format json
[ "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({w["variant"] for w in d["workloads"]}, d["variants"])')" = \
  "{'default'} [{'label': 'default', 'settings': {}}]" ] && ok || fail "format 1 is not one variant 'default'"
finish
