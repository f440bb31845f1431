# A real `vmsuite run --with-audio` on this machine (a small mmap001 run), its HTML report
# checked against the result file and the text report, opened in headless Chromium, with the
# screenshot kept as tests/html/artifacts/real-run.png in the build tree. Exits 77 (skipped)
# only when Chromium is not installed.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

chromium=$(command -v chromium || command -v chromium-browser || true)
here=$VMS_SOURCE_DIR/tests/html
artifacts=$VMS_BINARY_DIR/tests/html/artifacts
mkdir -p "$artifacts" wd

expect_exit 0 "run --with-audio" -- "$VMSUITE" run --machine host --no-drop-caches --quiet \
  -w mmap001:bytes=64M -n 2 --workdir "$VMS_TEST_TMP/wd" --with-audio -o real.json --label html-real-run
[ "$(json_get real.json 'sum(1 for r in d["workloads"][0]["runs"] if r.get("series") and r.get("audio"))')" = 2 ] &&
  ok || fail "the runs lack series or audio detail"
expect_exit 0 "report --format html" -- "$VMSUITE" report real.json --format html -o real.html
"$VMSUITE" report real.json > real.txt
python3 "$here/check-html.py" real.html real.json real.txt > real.outline 2> real.check && ok ||
  fail "structure: $(cat real.check)"
expect_in "$(cat real.outline)" "svg 'chart timeline' 'mmap001 run 2: timeline'" "timeline of run 2"
expect_in "$(cat real.outline)" "panel audio 'Audio buffer fill (lowest per second)' lines 1" "buffer fill drawn"
expect_in "$(cat real.outline)" "svg 'chart timeline' 'idle baseline: audio buffer fill'" "baseline drawn"
cp real.html "$artifacts/real-run.html"

if [ -z "$chromium" ]; then
  echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it)"
  [ "$failures" -eq 0 ] && exit 77
  finish
fi
profile=$(mktemp -d "$VMS_TEST_TMP/profile.XXXXXX")
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --enable-logging=stderr --v=0 --screenshot="$VMS_TEST_TMP/real.png" \
  --window-size=1280,2000 "file://$VMS_TEST_TMP/real.html" > shot.out 2> shot.err
[ -s real.png ] && ok || fail "no screenshot: $(tail -3 shot.err)"
if grep ':CONSOLE' shot.err > console.txt; then fail "console messages: $(cat console.txt)"; else ok; fi
png=$(python3 "$here/png-check.py" real.png) && ok || fail "screenshot is blank: $png"
cp real.png "$artifacts/real-run.png" || fail "cannot keep the screenshot"
echo "screenshot: $artifacts/real-run.png ($png)"
finish
