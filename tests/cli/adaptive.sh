# `run -n auto` on the host profile (no cgroup, no knob changed) with tiny workloads: runs go in
# rounds (3, 5, 7, ...) until decided or the budget's next round would overrun it; every look
# is recorded (time, runs per side, decision, alpha), the reports say why it stopped, the
# --against verdict uses the per-look alpha, a baseline with too few runs says so (fewer than 3:
# refused), variants
# interleave, and the progress line on a terminal shows "run i/<=n" and the budget left.
# The sequential rule's error rates are tests/compare/sim-adaptive.sh.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"
export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state
w=(--machine host -w mtest01:bytes=32M --workdir "$VMS_TEST_TMP" -q)
py_check() { # py_check FILE SCRIPT: runs SCRIPT with d = the document; it prints "ok" or errors
  python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$2" "$1"
}

expect_exit 129 "--budget without -n auto" -- "$VMSUITE" run "${w[@]}" -n 3 --budget 1m
expect_in "$err" "--budget goes with -n auto" "--budget alone refused"
expect_exit 129 "-n autox" -- "$VMSUITE" run "${w[@]}" -n autox
expect_exit 129 "--budget 0" -- "$VMSUITE" run "${w[@]}" -n auto --budget 0
[ ! -e vmsuite-*.json ] 2>/dev/null && ok || fail "a refused command left a result file"

# alone: the precision rule, within a 15 s budget
expect_exit 0 "-n auto alone" -- "$VMSUITE" run "${w[@]}" -n auto --budget 15s -o a.json
check=$(py_check a.json '
ad = d["adaptive"]; looks = ad["looks"]; st = ad["stop"]; wl = d["workloads"][0]
sched = ad["schedule"]
errs = []
if ad["mode"] != "precision": errs.append("mode " + ad["mode"])
if st["reason"] not in ("decided", "budget", "max_runs"): errs.append("reason " + st["reason"])
if not looks: errs.append("no looks")
for i, l in enumerate(looks):
    for k in ("time", "elapsed_s", "alpha", "decision", "workloads"):
        if k not in l: errs.append("look %d lacks %s" % (i + 1, k))
    if l["workloads"][0]["runs"] != sched[i]: errs.append("look %d after %s runs" % (i + 1, l["workloads"][0]["runs"]))
    if l["alpha"] != ad["alpha_per_look"]: errs.append("look alpha")
    # the rule: a round is started only when its estimate fits the budget
    if l["decision"] == "more" and l["elapsed_s"] + l["next_round_s"] > ad["budget_s"]: errs.append("look %d overran" % (i + 1))
if looks[-1]["decision"] == "more": errs.append("last look says more")
if abs(ad["alpha_per_look"] * ad["max_looks"] - 0.05) > 1e-9: errs.append("alpha per look")
if len(looks) > ad["max_looks"]: errs.append("more looks than max_looks")
if len(wl["runs"]) != st["runs"] or wl["runs_planned"] != st["runs"]: errs.append("runs %d planned %d stop %d" % (len(wl["runs"]), wl["runs_planned"], st["runs"]))
if not st["text"].startswith(("decided after", "budget", "stopped at the last look")): errs.append("text " + st["text"])
print("; ".join(errs) or "ok")')
[ "$check" = ok ] && ok || fail "adaptive record: $check"
expect_in "$err" "-n auto: " "run says why it stopped"
stop=$(json_get a.json 'd["adaptive"]["stop"]["text"]')
expect_exit 0 "text report" -- "$VMSUITE" report a.json
expect_in "$out" "Runs: -n auto, budget 15 s," "text report's adaptive line"
expect_in "$out" "$stop" "text report says why it stopped"
expect_exit 0 "markdown report" -- "$VMSUITE" report a.json --format markdown
expect_in "$out" "$stop" "markdown report says why it stopped"
expect_exit 0 "html report" -- "$VMSUITE" report a.json --format html -o a.html
grep -qF "Runs: -n auto" a.html && ok || fail "html report lacks the adaptive line"
expect_exit 0 "json summary" -- "$VMSUITE" report a.json --format json
[ "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["adaptive"]["stop"]["text"])')" = "$stop" ] \
  && ok || fail "json summary lacks the stop"

# against a baseline of 2 runs: refused before anything runs; of 3 runs (at this size's cv, too
# few to show "no change" within 2 %): it says so, and the verdict's alpha is the per-look one
expect_exit 0 "baseline of 2 runs" -- "$VMSUITE" run "${w[@]}" -n 2 -o b2.json
expect_exit 129 "-n auto against 2 runs" -- "$VMSUITE" run "${w[@]}" -n auto --against b2.json -o c2.json
expect_in "$err" "the baseline has 2 successful runs of mtest01; deciding against it needs at least 3" \
  "a 2-run baseline is refused"
[ ! -e c2.json ] && ok || fail "the refused run left c2.json"
expect_exit 0 "baseline of 3 runs" -- "$VMSUITE" run "${w[@]}" -n 3 -o b.json
"$VMSUITE" run "${w[@]}" -n auto --budget 10s --against b.json -o c.json >/dev/null 2>err
rc=$?
case $rc in 0 | 1 | 125) ok ;; *) fail "--against -n auto: exit $rc: $(cat err)" ;; esac
check=$(py_check c.json '
ad = d["adaptive"]; errs = []
if ad["mode"] != "against": errs.append("mode " + ad["mode"])
if any(l["workloads"][0]["baseline_runs"] != 3 for l in ad["looks"]): errs.append("baseline_runs")
if d["verdict"]["compare"]["options"]["alpha"] != ad["alpha_per_look"]: errs.append("verdict alpha %s" % d["verdict"]["compare"]["options"]["alpha"])
if d["verdict"]["exit"] != '"$rc"': errs.append("verdict exit")
last = ad["looks"][-1]["workloads"][0]
print("; ".join(errs) or "ok", last["baseline_too_few"] and last["decision"] != "decided")')
case $check in
  "ok True") grep -qF "the baseline has only 3 runs of mtest01" err && ok || fail "no too-few note: $(cat err)" ;;
  "ok False") ok ;; # 3 runs were precise enough, or it was decided anyway
  *) fail "against record: $check" ;;
esac

# variants interleave round by round, as many runs of each
expect_exit 0 "-n auto with variants" -- "$VMSUITE" run "${w[@]}" -n auto --budget 6s \
  --thp off,kernel -o v.json
[ "$(json_get v.json 'd["adaptive"]["mode"], len(set(len(w["runs"]) for w in d["workloads"])) == 1')" = "variants True" ] \
  && ok || fail "variants: $(json_get v.json '[len(w["runs"]) for w in d["workloads"]]')"

# progress on a terminal: run i of at most n, and the budget left
# (runs of 256M last long enough for a progress line)
script -qec "$VMSUITE run --machine host -w mtest01:bytes=256M --workdir $VMS_TEST_TMP -n auto --budget 4s -o p.json" /dev/null >tty.txt 2>&1
grep -qE 'mtest01 run [0-9]+/<=[0-9]+  budget [0-9]+:[0-9]{2} left' tty.txt && ok \
  || fail "no progress line with the budget: $(tr '\r' '\n' <tty.txt | grep -m3 'run ')"
finish
