#!/usr/bin/env bash
# The LAVA test definition lava/vmsuite.yaml: its YAML and metadata, and its steps run the way
# LAVA runs them — in a copy of the repository, one POSIX sh script (dash, then busybox sh when
# installed) with `set -e`, the params written as LAVA 2023.01 writes them (NAME='%s' of the
# YAML value: a job's `true` arrives as `True`, `false` as '') — with recording lava-test-case
# and lava-test-set programs on PATH (tests/lava/lava-run.sh runs the real LAVA). Then the same
# steps without them print the <LAVA_SIGNAL_TESTCASE ...> lines. A small plan on the host
# machine with the audio probe on the virtual clock device (`AUDIO: true`), vmsuite from the
# build tree (`SKIP_INSTALL: true`), a label with a ', EXTRA_ARGS with a quoted value holding
# a space, a baseline for the -verdict cases, and the KCIDB params (then one that vmsuite
# refuses: a failed vmsuite-kcidb case, the other cases kept).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"
. "$VMS_SOURCE_DIR/tests/lava/schema.sh"
def=$VMS_SOURCE_DIR/lava/vmsuite.yaml

# --- the YAML -------------------------------------------------------------------------------
if python3 - "$def" >meta.out 2>&1 <<'PY'; then ok; else fail "test definition: $(cat meta.out)"; fi
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
m = d["metadata"]
assert m["format"] == "Lava-Test Test Definition 1.0", m["format"]
for k in ("name", "description", "maintainer", "os", "scope", "devices"):
    assert m.get(k), "metadata has no " + k
for k in ("os", "scope", "devices", "maintainer", "environment"):
    assert isinstance(m.get(k), list), k + " is not a list"
import os, re
for who in m["maintainer"]:
    assert re.fullmatch(r"[^@\s<>]+@[^@\s<>]+\.[a-z]+", who), "maintainer not an e-mail: " + who
assert m["environment"] == ["lava-test-shell"], m["environment"]
# device types, not architectures; checked against LAVA's own list when lava-server's
# templates are there (installed, or extracted: VMS_LAVA_DEVICE_TYPES)
for arch in ("arm64", "amd64", "x86_64", "aarch64", "armhf", "arm"):
    assert arch not in m["devices"], "an architecture as a device type: " + arch
dt = os.environ.get("VMS_LAVA_DEVICE_TYPES") or "/usr/share/lava-server/device-types"
if os.path.isdir(dt):
    for dev in m["devices"]:
        assert os.path.exists(os.path.join(dt, dev + ".jinja2")), "no LAVA device type " + dev
p = d["params"]
for k in ("WORKLOADS", "RUNS", "AUDIO", "MP3", "MACHINE", "LABEL", "BASELINE", "SKIP_INSTALL",
          "KCIDB_ORIGIN", "KCIDB_GIT_COMMIT", "KCIDB_GIT_URL", "KCIDB_TREE", "KCIDB_BRANCH"):
    assert k in p, "no param " + k
assert all(isinstance(v, str) for v in p.values()), "params are strings"
assert isinstance(d["run"]["steps"], list) and d["run"]["steps"], "no run steps"
PY

# the scripts are POSIX sh
for f in run.sh send-results.sh; do
  if [ "$(head -n1 "$VMS_SOURCE_DIR/lava/$f")" = "#!/bin/sh" ]; then ok; else fail "lava/$f is not #!/bin/sh"; fi
  if dash -n "$VMS_SOURCE_DIR/lava/$f" 2>syntax.err; then ok; else fail "dash cannot parse lava/$f: $(cat syntax.err)"; fi
done
if command -v shellcheck >/dev/null 2>&1; then
  if shellcheck -s sh "$VMS_SOURCE_DIR/lava/run.sh" "$VMS_SOURCE_DIR/lava/send-results.sh" >sc.out 2>&1; then ok; else
    fail "shellcheck -s sh: $(head -20 sc.out)"
  fi
fi

# lava_script NAME=YAML...: the script LAVA would run, the job's params (each value as the
# job's YAML writes it) after the definition's defaults, both written as LAVA's
# testdef.handle_parameters does: "%s='%s'" of the Python value, a false value as ''
lava_script() {
  python3 - "$def" "$@" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
print("#!/bin/sh")
print("###default parameters from test definition###")
for k, v in d.get("params", {}).items():
    print("%s='%s'" % (k, v if v else ""))
print("######")
print("###test parameters from job submission###")
for kv in sys.argv[2:]:
    k, v = kv.split("=", 1)
    v = yaml.safe_load("v: " + v)["v"]
    print("%s='%s'" % (k, v if v else ""))
print("######")
print("set -e")
for step in d["run"]["steps"]:
    print(step)
PY
}

mkdir -p repo/scripts bin art
cp -r "$VMS_SOURCE_DIR/lava" repo/
cp "$VMS_SOURCE_DIR/scripts/deps.txt" repo/scripts/
rm -rf repo/lava/output
for tool in lava-test-case lava-test-set; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/recorded"\n' "$tool" "$VMS_TEST_TMP" >bin/$tool
  chmod +x bin/$tool
done

expect_exit 0 "baseline run" -- "$VMSUITE" run -q --machine host --no-drop-caches \
  -w mtest01:bytes=16M -n 2 --label base -o "$VMS_TEST_TMP/base.json"
mkdir -p "work dir"
# a job writes a ' as '\'' (LAVA pastes the value between single quotes)
params=(SKIP_INSTALL=true "VMSUITE=$VMSUITE" WORKLOADS="mtest01:bytes=16M" RUNS=2 MACHINE=host
  AUDIO=true "EXTRA_ARGS=--baseline 1 --device virtual --no-drop-caches --workdir \"$VMS_TEST_TMP/work dir\""
  "LABEL=it'\\''s lava" "BASELINE=$VMS_TEST_TMP/base.json" "ARTIFACTS=$VMS_TEST_TMP/art"
  KCIDB_ORIGIN=my_lab KCIDB_GIT_COMMIT=0123456789abcdef0123456789abcdef01234567
  KCIDB_GIT_URL=https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git
  KCIDB_TREE=mainline KCIDB_BRANCH=master)
lava_script "${params[@]}" >job.sh
expect_in "$(cat job.sh)" "AUDIO='True'" "a YAML true written as LAVA writes it"

# --- with LAVA's programs: the recorded calls ----------------------------------------------------
(cd repo && PATH="$VMS_TEST_TMP/bin:$PATH" dash "$VMS_TEST_TMP/job.sh") >job.out 2>job.err
rc=$?
if [ "$rc" -eq 0 ]; then ok; else fail "the steps exited with $rc: $(tail -5 job.err)"; fi
rec=$(cat recorded 2>/dev/null)
# the baseline compares, unless the host itself changed in between (another process turned swap
# on or off: a hard difference, "not comparable", compare's exit 2) — then say so and go on
verdict_re='^lava-test-case mtest01-verdict --result (pass|fail)$'
if grep -qxF "lava-test-case vmsuite-baseline --result skip" recorded 2>/dev/null; then
  # compare could not tell (a busy machine marks the change confounded): no -verdict case
  echo "NOTE: compare could not tell against the baseline; no -verdict case expected"
  verdict_re='^lava-test-case vmsuite-baseline --result skip$'
elif ! grep -qxF "lava-test-case vmsuite-baseline --result pass" recorded 2>/dev/null; then
  if grep -qxF "lava-test-case vmsuite-baseline --result fail" recorded &&
    "$VMSUITE" compare base.json art/result.json 2>&1 | grep -q "hard difference"; then
    echo "NOTE: the host changed between the baseline run and the job; no -verdict case expected"
    verdict_re='^lava-test-case vmsuite-baseline --result fail$'
  else
    fail "vmsuite-baseline did not pass: $(grep baseline recorded); $(tail -5 job.err)"
  fi
fi
for want in "lava-test-case vmsuite-run --result pass --measurement 0 --units exit-status" \
  "lava-test-set start mtest01" \
  "lava-test-case mtest01-runs --result pass --measurement 0 --units failed-runs" \
  "lava-test-set stop"; do
  if grep -qxF -- "$want" recorded 2>/dev/null; then ok; else
    fail "not recorded: '$want' in: $rec; the steps' stderr: $(tail -5 job.err)"
  fi
done
# with a baseline each figure's result is its verdict: a noisy machine may well call it a regression
for re in '^lava-test-case mtest01-elapsed-s --result (pass|fail) --measurement [0-9.]+ --units s$' \
  '^lava-test-case mtest01-sound-rating --result (pass|fail) --measurement [0-9.]+ --units score$' \
  '^lava-test-case mtest01-underruns --result (pass|fail) --measurement [0-9.]+ --units count$' \
  "$verdict_re"; do
  if grep -Eq -- "$re" recorded 2>/dev/null; then ok; else fail "not recorded: /$re/ in: $rec"; fi
done
n_cases=$(grep -c '^lava-test-case ' recorded 2>/dev/null)
expect_in "$n_cases" "$(wc -l <repo/lava/output/result.txt)" "one call per result.txt line"
# the set brackets the workload's cases: start before its -runs case, stop after the last
if [ "$(grep -n . recorded | grep -E 'lava-test-set (start|stop)' | cut -d: -f1 | tr '\n' ' ')" = \
  "3 $(($(wc -l <recorded))) " ]; then ok; else fail "set start/stop not around the cases: $rec"; fi
for f in result.json result.txt kcidb.json report.txt; do
  if [ -s "art/$f" ]; then ok; else fail "artefact $f not kept in ARTIFACTS"; fi
done
case "$verdict_re" in
*verdict* | *skip*) if [ -s art/compare.json ]; then ok; else fail "artefact compare.json not kept"; fi ;;
esac
expect_in "$(cat job.out)" "Averages for 2 mtest01 runs" "the text report in the log"
# the KCIDB params reach the checkout
got=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["checkouts"][0]
print(c["origin"], c["git_commit_hash"], c["git_repository_url"], c["tree_name"], c["git_repository_branch"])' art/kcidb.json)
expect_eq_def() { if [ "$1" = "$2" ]; then ok; else fail "$3: got '$1', want '$2'"; fi; }
expect_eq_def "$got" "my_lab 0123456789abcdef0123456789abcdef01234567 https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git mainline master" "KCIDB params in kcidb.json"
label=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["label"])' art/result.json)
if [ "$label" = "it's lava" ]; then ok; else fail "LABEL with a ' not passed: '$label'"; fi
if grep -qF "\"workdir\": \"$VMS_TEST_TMP/work dir\"" art/result.json; then ok; else
  fail "EXTRA_ARGS' quoted --workdir value not passed whole: $(grep -o '"workdir"[^,]*' art/result.json)"
fi

# --- without them: LAVA_SIGNAL lines --------------------------------------------------------------
rm -f recorded
plain_sh=dash
if command -v busybox >/dev/null 2>&1 && busybox sh -c : 2>/dev/null; then plain_sh="busybox sh"; fi
# shellcheck disable=SC2086 # "busybox sh" is two words
(cd repo && $plain_sh "$VMS_TEST_TMP/job.sh") >plain.out 2>plain.err
rc=$?
if [ "$rc" -eq 0 ]; then ok; else fail "the steps without LAVA exited with $rc: $(tail -5 plain.err)"; fi
if [ ! -e recorded ]; then ok; else fail "recorded calls without LAVA's programs on PATH"; fi
sig=$(grep '^<LAVA_SIGNAL_' plain.out)
expect_in "$sig" "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=mtest01-runs RESULT=pass MEASUREMENT=0 UNITS=failed-runs>" "signal line"
if printf '%s\n' "$sig" | grep -Eq '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=vmsuite-baseline RESULT=(pass|fail|skip)>$'; then ok; else fail "no signal without measurement: $sig"; fi
expect_in "$sig" "<LAVA_SIGNAL_TESTSET START mtest01>" "set signal"
if printf '%s\n' "$sig" | grep -Eq '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=mtest01-elapsed-s RESULT=(pass|fail) MEASUREMENT=[0-9.]+ UNITS=s>$'; then ok; else fail "no elapsed signal: $sig"; fi
expect_in "$(grep -c '^<LAVA_SIGNAL_TESTCASE ' plain.out)" "$(wc -l <repo/lava/output/result.txt)" "one signal per line"

# --- a KCIDB param vmsuite refuses: no kcidb.json, a failed vmsuite-kcidb case, the rest stands ----
# (a vmsuite whose `run` writes the result above, to spare another real run)
# shellcheck disable=SC2016 # $1, $2 and $@ are the stand-in's own
printf '#!/bin/sh\nif [ "$1" = run ]; then while [ "$1" != -o ]; do shift; done; cp "%s" "$2"; exit 0; fi\nexec "%s" "$@"\n' \
  "$VMS_TEST_TMP/art/result.json" "$VMSUITE" >bin/vmsuite-copy
chmod +x bin/vmsuite-copy
rm -f recorded
lava_script SKIP_INSTALL=true "VMSUITE=$VMS_TEST_TMP/bin/vmsuite-copy" MACHINE=host \
  KCIDB_GIT_URL=http://git.kernel.org/linux.git KCIDB_BRANCH=master >job-kcidb.sh
(cd repo && PATH="$VMS_TEST_TMP/bin:$PATH" dash "$VMS_TEST_TMP/job-kcidb.sh") >kcidb.out 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then ok; else fail "the steps with a bad KCIDB param exited with $rc: $(tail -5 kcidb.out)"; fi
expect_in "$(cat recorded 2>/dev/null)" "lava-test-case vmsuite-kcidb --result fail --measurement 129 --units exit-status" "bad KCIDB param reported"
expect_in "$(cat recorded 2>/dev/null)" "lava-test-case mtest01-runs --result pass" "bad KCIDB param: the other cases stand"
expect_in "$(cat kcidb.out)" "--git-url: the repository's https:// URL" "bad KCIDB param: vmsuite's message in the log"
if [ ! -e repo/lava/output/kcidb.json ]; then ok; else fail "bad KCIDB param: kcidb.json written"; fi

# --- no vmsuite: the run case fails, the job goes on ------------------------------------------------
# (SKIP_INSTALL: true as LAVA writes it, True: nothing is installed or built)
lava_script SKIP_INSTALL=true VMSUITE=/nonexistent/vmsuite >job-missing.sh
(cd repo && PATH="$VMS_TEST_TMP/bin:$PATH" dash "$VMS_TEST_TMP/job-missing.sh") >missing.out 2>&1
expect_in "$(cat recorded 2>/dev/null)" "lava-test-case vmsuite-run --result fail" "missing vmsuite reported"
if [ ! -e repo/build ]; then ok; else fail "SKIP_INSTALL: true (True) still built vmsuite"; fi

# --- booleans: the spellings LAVA or a person writes; anything else is refused --------------------
for v in True true TRUE 1 yes on; do
  (cd repo/lava && dash ./run.sh -s "$v" -v /nonexistent/vmsuite -a "$v") >bool.out 2>&1
  if grep -qF "no vmsuite command" bool.out && [ ! -e repo/build ]; then ok; else fail "-s $v not taken as true: $(tail -3 bool.out)"; fi
done
for v in False false 0 no off ""; do
  # shellcheck disable=SC2086
  if (cd repo/lava && $plain_sh ./run.sh -a "$v" -s True -v /nonexistent/vmsuite) >bool.out 2>&1; then ok; else
    fail "-a '$v' refused: $(tail -3 bool.out)"
  fi
done
(cd repo/lava && dash ./run.sh -a maybe -s true -v /nonexistent/vmsuite) >bool.out 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "AUDIO must be true or false, not 'maybe'" bool.out; then ok; else
  fail "-a maybe: exit $rc, want 2: $(tail -3 bool.out)"
fi

# --- test-definitions' sh-test-lib beside the script is the one used ----------------------------
# (as in automated/linux/vmsuite/ with automated/lib/sh-test-lib; here repo/lib/, a stand-in
# that records the call and stops) for a package the build needs that is not installed
mkdir -p repo/lib
printf 'install_deps() { echo "sh-test-lib install_deps $*" >"%s/lib-called"; exit 0; }\n' \
  "$VMS_TEST_TMP" >repo/lib/sh-test-lib
cp repo/scripts/deps.txt deps.saved
echo "libvmsuite-absent-test-dev" >>repo/scripts/deps.txt
(cd repo/lava && dash ./run.sh -s False) >lib.out 2>&1
expect_in "$(cat lib-called 2>/dev/null)" "sh-test-lib install_deps libvmsuite-absent-test-dev" \
  "sh-test-lib's install_deps used ($(tail -3 lib.out))"
rm -rf repo/lib
cp deps.saved repo/scripts/deps.txt

kcidb_schema
[ -n "$KCIDB_SCHEMA" ] || skip_rest "no KCIDB schema (../shared/kcidb/kcidb-v5.3.schema.json or VMS_KCIDB_SCHEMA): kcidb.json not validated"
validate art/kcidb.json
finish
