# compare shows each file's idle audio baseline, and warns when one skipped with no workload
# running (a noisy machine or device, not the kernel's VM).
. "$(dirname "$0")/lib.sh"

src=$VMS_SOURCE_DIR/tests/data/golden-result-sound.json
cp "$src" a.json
python3 - "$src" b.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["audio"]["baseline"]["metrics"]
m["underruns"]["samples"] = [3]
m["skips"]["samples"] = [2]
m["sound_rating"]["samples"] = [7.0]
d["label"] = "noisy"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 0 "compare with baselines" -- "$VMSUITE" compare a.json b.json
expect_in "$out" "Idle audio baseline (one window per file, no statistics):" "baseline section"
expect_in "$out" "  A 10.0/10 — played 10.0 of 10.0 s, 0 skips (0 underruns)" "A's baseline"
expect_in "$out" "  B 7.0/10 — played 10.0 of 10.0 s, 2 skips (3 underruns)" "B's baseline"
expect_in "$out" "=> B skipped with no workload running" "noisy baseline warning"
printf '%s' "$out" | grep -q "=> A skipped" && fail "A did not skip" || ok
expect_exit 0 "markdown" -- "$VMSUITE" compare a.json b.json --format markdown
expect_in "$out" "## Idle audio baseline" "markdown section"
expect_exit 0 "json" -- "$VMSUITE" compare a.json b.json --format json
printf '%s' "$out" > c.json
[ "$(json_get c.json '[f["audio_baseline_skipped"] for f in d["files"]]')" = "[False, True]" ] && ok || fail "json flags"
b_line=$(json_get c.json 'd["files"][1]["audio_baseline"]')
case "$b_line" in
"7.0/10 — played 10.0 of 10.0 s, 2 skips (3 underruns)"*) ok ;;
*) fail "json baseline line: $b_line" ;;
esac
# a file without audio says so in its line
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['audio']=None; json.dump(d,open('c2.json','w'))" "$src"
expect_exit 0 "one file without audio" -- "$VMSUITE" compare c2.json a.json --ignore-hard-differences
expect_in "$out" "  A (no audio baseline)" "missing baseline named"
finish
