# Opens the HTML report in headless Chromium: takes a screenshot (kept as a test artefact in
# the build tree, tests/html/artifacts/), checks it is not blank, that the page logged nothing
# to the console (a control page with a script error proves the check sees errors), and that
# the DOM Chromium built holds every chart the file has. Exits 77 (skipped) only when
# Chromium is not installed; scripts/install-deps.sh installs it (Debian package chromium).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
here=$VMS_SOURCE_DIR/tests/html
artifacts=$VMS_BINARY_DIR/tests/html/artifacts
mkdir -p "$artifacts"

# chrome FLAGS... URL: a fresh profile each time, no network, logs to stderr
chrome() {
  local profile
  profile=$(mktemp -d "$VMS_TEST_TMP/profile.XXXXXX")
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 "$@"
}

python3 "$here/make-result.py" --base "$VMS_SOURCE_DIR/tests/data/golden-result.json" \
  --out report.json --audio --gaps 5 || fail "make-result"
expect_exit 0 "report --format html" -- "$VMSUITE" report report.json --format html -o report.html

# the console check must be able to fail: a page with a script error is caught
printf '<!DOCTYPE html><html><body><p>x</p><script>nosuchfunction();</script></body></html>\n' > control.html
chrome --screenshot="$VMS_TEST_TMP/control.png" --window-size=400,300 "file://$VMS_TEST_TMP/control.html" \
  > control.out 2> control.err
grep -q ':CONSOLE' control.err && ok || fail "control page: no console message seen; stderr: $(tail -3 control.err)"

start=$(date +%s.%N)
chrome --screenshot="$VMS_TEST_TMP/report.png" --window-size=1280,2000 "file://$VMS_TEST_TMP/report.html" \
  > shot.out 2> shot.err
rc=$?
end=$(date +%s.%N)
[ "$rc" -eq 0 ] && ok || fail "chromium screenshot exit $rc: $(tail -3 shot.err)"
[ -s report.png ] && ok || fail "no screenshot written"
if grep ':CONSOLE' shot.err > console.txt; then fail "console messages: $(cat console.txt)"; else ok; fi
if png=$(python3 "$here/png-check.py" report.png); then ok; else fail "screenshot is blank: $png"; fi
cp report.png "$artifacts/report.png" && cp report.html "$artifacts/report.html" && ok ||
  fail "cannot keep the artefacts in $artifacts"
echo "screenshot: $artifacts/report.png ($png); chromium load+shot $(echo "$end - $start" | bc 2>/dev/null || echo "?") s"

# the DOM chromium built has every chart of the file (nothing was dropped by the parser)
chrome --dump-dom "file://$VMS_TEST_TMP/report.html" > dom.html 2> dom.err
want=$(grep -o '<svg ' report.html | wc -l)
got=$(grep -o '<svg ' dom.html | wc -l)
[ "$want" -gt 5 ] && [ "$got" -eq "$want" ] && ok || fail "DOM has $got <svg>, file has $want"
got=$(grep -o 'class="gap gap-' dom.html | wc -l)
want=$(grep -o 'class="gap gap-' report.html | wc -l)
[ "$got" -eq "$want" ] && ok || fail "DOM has $got gap bands, file has $want"
finish
