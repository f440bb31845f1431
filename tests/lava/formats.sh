#!/usr/bin/env bash
# `vmsuite report --format lava` and `--format kcidb`: the result.txt lines (names without
# whitespace, measurements, the -runs and -verdict cases), the KCIDB document (statuses,
# numbers, deterministic ids, no nulls) for a real result without and with audio, the
# hand-written ones with a failed run, verdicts from --verdict and from a stored verdict, a
# file with variants, and bad options. Each KCIDB document is validated against the v5.3
# schema with Draft 7 and format checking when ../shared/kcidb/ is there (else that check
# alone is skipped, visibly, at the end).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"
. "$VMS_SOURCE_DIR/tests/lava/schema.sh"
V=$VMSUITE
D=$VMS_SOURCE_DIR/tests/data

# check_lava FILE: every line is NAME RESULT [MEASUREMENT [UNITS]], no whitespace in NAME
check_lava() {
  local bad
  bad=$(grep -Ev '^[A-Za-z0-9_-]+ (pass|fail|skip|unknown)( -?[0-9]+(\.[0-9]+)?( [^[:space:]]+)?)?$' "$1")
  if [ -z "$bad" ] && [ -s "$1" ]; then ok; else fail "$1: lines not NAME RESULT [MEASUREMENT [UNITS]]: '$bad'"; fi
}
has_line() { # has_line FILE LINE
  if grep -qxF -- "$2" "$1"; then ok; else fail "$1: no line '$2' in: $(cat "$1")"; fi
}
# kq FILE PYTHON-EXPR: the expression over the KCIDB document d, with t(PATH) the test of PATH
kq() {
  python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
def t(p):
    m=[x for x in d['tests'] if x['path']==p]
    return m[0] if len(m)==1 else {'missing': len(m)}
r = ($2)
print(r)" "$1"
}
expect_eq() { if [ "$1" = "$2" ]; then ok; else fail "$3: got '$1', want '$2'"; fi; }

# --- real results: without audio, and with audio on the virtual clock device --------------
expect_exit 0 "run without audio" -- "$V" run -q --machine host --no-drop-caches \
  -w mtest01:bytes=16M -n 2 --label plain -o plain.json
expect_exit 0 "run with audio" -- "$V" run -q --machine host --no-drop-caches \
  -w mtest01:bytes=16M -n 2 --label sound -o sound.json --with-audio --baseline 1 \
  --device virtual

for f in plain sound; do
  expect_exit 0 "lava of $f" -- "$V" report $f.json --format lava -o $f.txt
  check_lava $f.txt
  if grep -Eq '^mtest01-elapsed-s pass [0-9.]+ s$' $f.txt; then ok; else fail "$f: no elapsed case"; fi
  has_line $f.txt "mtest01-runs pass 0 failed-runs"
  expect_exit 0 "kcidb of $f" -- "$V" report $f.json --format kcidb -o $f.kcidb.json
  expect_exit 0 "kcidb of $f again" -- "$V" report $f.json --format kcidb -o $f.kcidb2.json
  if cmp -s $f.kcidb.json $f.kcidb2.json; then ok; else fail "$f: two kcidb renderings differ"; fi
  expect_eq "$(kq $f.kcidb.json "t('vmsuite.mtest01.elapsed_s')['status']")" DONE "$f elapsed status"
  expect_eq "$(kq $f.kcidb.json "t('vmsuite.mtest01.runs')['status']")" PASS "$f runs status"
  # the number is the mean of the samples, which misc carries
  expect_eq "$(kq $f.kcidb.json "abs(t('vmsuite.mtest01.elapsed_s')['number']['value'] - sum(t('vmsuite.mtest01.elapsed_s')['misc']['samples'])/2) < 1e-9")" True "$f mean"
  expect_eq "$(kq $f.kcidb.json "t('vmsuite.mtest01.elapsed_s')['misc']['n']")" 2 "$f n"
  expect_eq "$(kq $f.kcidb.json "t('vmsuite.mtest01.elapsed_s')['number']['unit']")" s "$f unit"
  # the environment once, in the build's misc; each test a short reference to it
  expect_eq "$(kq $f.kcidb.json "d['builds'][0]['misc']['environment']['misc']['machine']['profile']")" host "$f profile"
  expect_eq "$(kq $f.kcidb.json "t('vmsuite.mtest01.elapsed_s')['environment']['misc']['details']")" "builds[build_id].misc.environment" "$f environment reference"
  expect_eq "$(kq $f.kcidb.json "[x['environment']['comment'] for x in d['tests']]==[d['builds'][0]['misc']['environment']['comment']]*len(d['tests'])")" True "$f environment comment per test"
  expect_eq "$(kq $f.kcidb.json "[x['path'] for x in d['tests'] if 'machine' in x['environment']['misc'] or len(json.dumps(x['environment'])) > 300]")" "[]" "$f no test repeats the environment"
  expect_eq "$(kq $f.kcidb.json "json.dumps(d).count('\"machine\": {')")" 1 "$f the machine written once"
  expect_eq "$(kq $f.kcidb.json "d['tests'][0]['id'].startswith('vmsuite:') and d['builds'][0]['id']==d['tests'][0]['build_id'] and d['checkouts'][0]['id']==d['builds'][0]['checkout_id']")" True "$f ids link"
  expect_eq "$(kq $f.kcidb.json "'null' not in json.dumps(d)")" True "$f has no null"
  expect_eq "$(kq $f.kcidb.json "d['builds'][0]['misc']['kernel_release']==__import__('os').uname().release")" True "$f kernel release"
done
if grep -Eq '^mtest01-underruns pass [0-9.]+ count$' sound.txt; then ok; else fail "no underruns case"; fi
if grep -Eq '^mtest01-sound-rating pass [0-9.]+ score$' sound.txt; then ok; else fail "no sound rating case"; fi
expect_eq "$(kq sound.kcidb.json "d['builds'][0]['misc']['environment']['misc']['sound_device']")" virtual "sound device"
# every cause of the catalogue, no other key (the list comes from the catalogue's own table)
causes=$("$METRIC_TABLE" causes | sed -n 's/^| `\([a-z_]*\)` .*/\1/p' | sort | tr '\n' ' ')
expect_in "$causes" "runqueue" "catalogue cause list"
expect_eq "$(kq sound.kcidb.json "' '.join(sorted(t('vmsuite.mtest01.underruns')['misc']['gap_causes']))+' '")" "$causes" "cause breakdown"
expect_eq "$(kq plain.kcidb.json "t('vmsuite.mtest01.sound_rating')")" "{'missing': 0}" "no sound test without audio"
expect_eq "$(kq plain.kcidb.json "d['tests'][0]['id']!=json.load(open('sound.kcidb.json'))['tests'][0]['id']")" True "other result, other ids"

# --- the hand-written results: a failed run (mtest01 run 2), with and without audio ---------
for f in golden-result golden-result-sound; do
  expect_exit 0 "lava of $f" -- "$V" report "$D/$f.json" --format lava -o $f.txt
  check_lava $f.txt
  # means of the samples worked by hand: (253.1 + 269.4 + 254.0) / 3, (43.0 + 49.2) / 2
  has_line $f.txt "mmap001-elapsed-s pass 258.83 s"
  has_line $f.txt "mtest01-elapsed-s pass 46.10 s"
  has_line $f.txt "mmap001-runs pass 0 failed-runs"
  has_line $f.txt "mtest01-runs fail 1 failed-runs"
  expect_exit 0 "kcidb of $f" -- "$V" report "$D/$f.json" --format kcidb --origin my_lab \
    --git-commit 0123456789abcdef0123456789abcdef01234567 \
    --output-url "https://lab.example.org/results/$f.json" -o $f.kcidb.json
  expect_eq "$(kq $f.kcidb.json "t('vmsuite.mtest01.runs')['status'], t('vmsuite.mtest01.runs')['misc']['failed_runs'][0]['run']")" "('FAIL', 2)" "$f failed run"
  expect_eq "$(kq $f.kcidb.json "round(t('vmsuite.mmap001.elapsed_s')['number']['value'], 4)")" 258.8333 "$f mean"
  expect_eq "$(kq $f.kcidb.json "t('vmsuite.mtest01.elapsed_s')['misc']['samples']")" "[43.0, 49.2]" "$f samples of the successful runs"
  expect_eq "$(kq $f.kcidb.json "d['tests'][0]['origin'], d['checkouts'][0]['git_commit_hash'][:8]")" "('my_lab', '01234567')" "$f origin and commit"
  expect_eq "$(kq $f.kcidb.json "t('vmsuite.mmap001.elapsed_s')['output_files']")" "[{'name': '$f.json', 'url': 'https://lab.example.org/results/$f.json'}]" "$f output_files"
done
# 52 underruns over 3 runs (the text report's Sound line sums them)
has_line golden-result-sound.txt "mmap001-underruns pass 17.3 count"
has_line golden-result-sound.txt "mmap001-sound-rating pass 4.0 score"

# --- verdicts: a hand-written compare document (the truth is what it says) ------------------
python3 - "$D/golden-result.json" <<'PY' >cmp.json
import json, sys
d = json.load(open(sys.argv[1]))
def metric(name, verdict, primary=True):
    return {"name": name, "primary": primary, "base": {"n": 3},
            "others": [{"n": 3, "verdict": verdict}]}
print(json.dumps({
    "format": "vmsuite.compare/1",
    "files": [{"path": "old.json", "label": "2.4.13-pre2", "base": True},
              {"path": "new.json", "label": d["label"], "base": False}],
    "workloads": [
        {"name": "mmap001", "metrics": [metric("elapsed_s", "regression"),
                                        metric("sys_s", "no change"),
                                        metric("major_faults", "improvement", False)]},
        {"name": "mtest01", "metrics": [metric("elapsed_s", "no change"),
                                        metric("major_faults", "regression", False),
                                        metric("bytes_allocated", "-", False)]}]}))
PY
expect_exit 0 "lava with --verdict" -- "$V" report "$D/golden-result.json" --format lava \
  --verdict cmp.json -o v.txt
check_lava v.txt
has_line v.txt "mmap001-elapsed-s fail 258.83 s"
has_line v.txt "mmap001-sys-s pass 15.182 s"
has_line v.txt "mmap001-verdict fail"
has_line v.txt "mtest01-major-faults fail 103.8 faults"
# a regression of a metric that does not decide (not primary) fails its case, not the verdict
has_line v.txt "mtest01-verdict pass"
expect_exit 0 "kcidb with --verdict" -- "$V" report "$D/golden-result.json" --format kcidb \
  --verdict cmp.json -o v.kcidb.json
expect_eq "$(kq v.kcidb.json "[t('vmsuite.mmap001.'+m)['status'] for m in ('elapsed_s','sys_s','major_faults','user_s')]")" "['FAIL', 'PASS', 'PASS', 'DONE']" "kcidb statuses from the verdict"
expect_eq "$(kq v.kcidb.json "[t('vmsuite.mtest01.'+m)['status'] for m in ('elapsed_s','major_faults','bytes_allocated')]")" "['PASS', 'FAIL', 'DONE']" "mtest01 statuses"
expect_eq "$(kq v.kcidb.json "t('vmsuite.mmap001.runs')['misc']['regressed'], t('vmsuite.mtest01.runs')['misc']['regressed']")" "(True, False)" "regressed flags"
# the same verdict stored in the result file (run --against stores it as verdict.compare)
python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); d['verdict']={'baseline':['old.json'],'exit':1,'metrics':[],'compare':json.load(open('cmp.json'))}
json.dump(d,open('stored.json','w'))" "$D/golden-result.json"
expect_exit 0 "lava with a stored verdict" -- "$V" report stored.json --format lava -o s.txt
if cmp -s v.txt s.txt; then ok; else fail "stored verdict: $(diff v.txt s.txt)"; fi
# the stored verdict's own choice of metrics decides the -verdict case
python3 -c "
import json
d=json.load(open('stored.json')); d['verdict']['metrics']=['major_faults']
json.dump(d,open('stored2.json','w'))"
expect_exit 0 "lava with a stored verdict on major_faults" -- "$V" report stored2.json --format lava -o s2.txt
has_line s2.txt "mtest01-verdict fail"
has_line s2.txt "mmap001-verdict pass"
# the file is the base of the comparison: not its verdict
python3 -c "
import json
c=json.load(open('cmp.json')); c['files'][0]['base']=False; c['files'][1]['base']=True
json.dump(c,open('cmp-base.json','w'))"
expect_exit 128 "verdict of the base file" -- "$V" report "$D/golden-result.json" --format lava --verdict cmp-base.json
expect_in "$err" "the base" "base verdict message"
expect_exit 128 "verdict not a compare document" -- "$V" report "$D/golden-result.json" --format kcidb --verdict "$D/golden-result.json"
expect_in "$err" "vmsuite.compare/1" "not compare message"
# a real comparison: synthetic results, compare's own JSON
"$VMS_GEN_RESULT" -o g1.json --label base --seed 1 && "$VMS_GEN_RESULT" -o g2.json --label new --seed 2 --audio ||
  fail "gen-result"
"$V" compare g1.json g2.json --format json >gc.json 2>/dev/null
expect_exit 0 "lava with compare's JSON" -- "$V" report g2.json --format lava --verdict gc.json -o g.txt
check_lava g.txt
if grep -Eq '^mmap001-verdict (pass|fail)$' g.txt; then ok; else fail "no mmap001-verdict: $(cat g.txt)"; fi
expect_exit 0 "kcidb with compare's JSON" -- "$V" report g2.json --format kcidb --verdict gc.json -o g.kcidb.json

# --- variants: names encoded the same way in both formats ------------------------------------
python3 - "$D/golden-result.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
d["format"] = "vmsuite.result/2"  # variants exist from format 2 on
d["variants"] = [{"label": "page-cluster=0", "settings": {"vm.page-cluster": "0"}},
                 {"label": "page-cluster=3", "settings": {"vm.page-cluster": "3"}}]
wls = []
for w in d["workloads"]:
    for v in d["variants"]:
        c = copy.deepcopy(w)
        c["variant"] = v["label"]
        wls.append(c)
d["workloads"] = wls
json.dump(d, open("variants.json", "w"))
PY
expect_exit 0 "lava of variants" -- "$V" report variants.json --format lava -o var.txt
check_lava var.txt
has_line var.txt "mmap001__page-cluster_3d0-elapsed-s pass 258.83 s"
has_line var.txt "mmap001__page-cluster_3d3-runs pass 0 failed-runs"
expect_exit 0 "kcidb of variants" -- "$V" report variants.json --format kcidb -o var.kcidb.json
expect_eq "$(kq var.kcidb.json "t('vmsuite.mtest01__page-cluster_3d3.elapsed_s')['misc']['variant']")" "page-cluster=3" "kcidb variant path"
expect_eq "$(kq var.kcidb.json "len(set(x['id'] for x in d['tests']))==len(d['tests'])")" True "unique test ids"

# --- the checkout as other CI systems name it: repository, tree, branch ----------------------------
url=https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git
expect_exit 0 "kcidb with --git-url, --tree and --branch" -- "$V" report sound.json --format kcidb \
  --git-url "$url" --tree mainline --branch master \
  --git-commit 0123456789abcdef0123456789abcdef01234567 -o tree.kcidb.json
expect_eq "$(kq tree.kcidb.json "[d['checkouts'][0].get(k) for k in ('git_repository_url','tree_name','git_repository_branch')]")" "['$url', 'mainline', 'master']" "checkout names the tree"
# only the checkout changes: the tests and the build are those of the same file without them
expect_eq "$(kq tree.kcidb.json "d['tests']==json.load(open('sound.kcidb.json'))['tests'] and d['builds']==json.load(open('sound.kcidb.json'))['builds']")" True "tree options touch the checkout only"
expect_exit 0 "a stable tree's branch" -- "$V" report plain.json --format kcidb --tree stable-rc \
  --branch linux-6.1.y --git-url https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux-stable-rc.git -o stable.kcidb.json
expect_exit 0 "a branch with a slash" -- "$V" report plain.json --format kcidb \
  --branch for-next/core -o slash.kcidb.json
expect_eq "$(kq slash.kcidb.json "d['checkouts'][0]['git_repository_branch'], 'tree_name' in d['checkouts'][0]")" "('for-next/core', False)" "branch alone"
# refused, each as --OPT=VALUE: a usage error naming the option, nothing written
while IFS='|' read -r opt val <&3; do
  expect_exit 129 "kcidb $opt=$val" -- "$V" report plain.json --format kcidb "$opt=$val" -o refused.json
  expect_in "$err" "$opt: " "kcidb $opt=$val: message"
  [ ! -e refused.json ] && ok || fail "kcidb $opt=$val: wrote its output"
  rm -f refused.json
done 3<<'EOF'
--git-url|http://git.kernel.org/linux.git
--git-url|https://
--git-url|git@github.com:torvalds/linux.git
--git-url|https://exa"mple.org/x
--git-url|https://example.org/a b
--tree|
--tree|net next
--tree|-
--tree|.hidden
--tree|mainline/x
--branch|
--branch|a..b
--branch|feature.lock
--branch|feature/.x
--branch|/master
--branch|master/
--branch|for//next
--branch|@
--branch|a@{1}
--branch|x~1
--branch|x^2
--branch|a:b
--branch|a*
--branch|a?
--branch|a[1]
--branch|-rf
--branch|a\b
--branch|x.
--branch|a b
--branch|HEAD
--branch|é
EOF
expect_exit 129 "kcidb branch with DEL" -- "$V" report plain.json --format kcidb --branch "a"$'\x7f' -o refused.json
expect_in "$err" "--branch: a git branch name" "branch with DEL message"
expect_exit 129 "kcidb long branch" -- "$V" report plain.json --format kcidb --branch "$(printf 'b%.0s' $(seq 256))" -o refused.json
expect_in "$err" "--branch: a git branch name" "long branch message"
expect_exit 129 "tree with text" -- "$V" report plain.json --tree mainline
expect_in "$err" "--tree goes with --format kcidb" "tree with text message"

# --- bad options: usage errors, nothing written ------------------------------------------------
expect_exit 129 "origin with text" -- "$V" report plain.json --origin lab
expect_in "$err" "--origin goes with --format kcidb" "origin message"
expect_exit 129 "verdict with json" -- "$V" report plain.json --format json --verdict cmp.json
expect_exit 129 "bad origin" -- "$V" report plain.json --format kcidb --origin My-Lab
expect_exit 129 "bad commit" -- "$V" report plain.json --format kcidb --git-commit 0123abc
expect_exit 129 "bad url" -- "$V" report plain.json --format kcidb --output-url "not a url"
expect_exit 129 "bad id" -- "$V" report plain.json --format kcidb --build-id "Lab:1"
expect_exit 0 "given ids" -- "$V" report plain.json --format kcidb --checkout-id maestro:abc \
  --build-id b1 --origin lab -o ids.json
expect_eq "$(kq ids.json "d['checkouts'][0]['id'], d['builds'][0]['id'], d['builds'][0]['checkout_id']")" "('maestro:abc', 'lab:b1', 'maestro:abc')" "ids as given"
# only https:// URLs (the schema's pattern), ids of at most 255 printable ASCII characters of
# the form ORIGIN:LOCAL (a LOCAL alone takes --origin's): usage errors, nothing written
long=$(printf 'a%.0s' $(seq 10000))
id247=$(printf 'a%.0s' $(seq 247))
for bad in "--output-url javascript:alert(1)" "--output-url http://lab.example.org/r.json" \
  "--output-url https://" "--checkout-id maestro:$long" "--build-id ${id247}bc" \
  "--checkout-id maestro:" "--build-id :abc" "--checkout-id maestro:a"$'\e'"[31m" \
  "--checkout-id maestro:"$'\x7f' "--build-id Lab:1" "--origin lab --build-id ${id247}bcdefgh"; do
  read -r -a words <<<"$bad"
  expect_exit 129 "kcidb ${bad:0:50}" -- "$V" report plain.json --format kcidb "${words[@]}" -o refused.json
  case $bad in
    --output-url*) expect_in "$err" "--output-url: an https:// URL" "kcidb ${bad:0:50}: message" ;;
    *) expect_in "$err" "ORIGIN:LOCAL" "kcidb ${bad:0:50}: message" ;;
  esac
  [ ! -e refused.json ] && ok || fail "kcidb ${bad:0:50}: wrote its output"
  rm -f refused.json
done
expect_exit 0 "an id of 255 characters" -- "$V" report plain.json --format kcidb --checkout-id "maestro:$id247" \
  --build-id "${id247:0:243}" --origin lab -o ids255.json
expect_eq "$(kq ids255.json "len(d['checkouts'][0]['id']), len(d['builds'][0]['id'])")" "(255, 247)" "ids of 255 and 247 characters"

# --- the schema ---------------------------------------------------------------------------------
kcidb_schema
[ -n "$KCIDB_SCHEMA" ] || skip_rest "no KCIDB schema (../shared/kcidb/kcidb-v5.3.schema.json or VMS_KCIDB_SCHEMA): documents not validated"
validate plain.kcidb.json sound.kcidb.json golden-result.kcidb.json golden-result-sound.kcidb.json \
  v.kcidb.json g.kcidb.json var.kcidb.json ids.json ids255.json tree.kcidb.json stable.kcidb.json \
  slash.kcidb.json
# the validator can fail: a null and a bad path are caught
python3 -c "
import json
d=json.load(open('plain.kcidb.json')); d['tests'][0]['comment']=None; d['tests'][1]['path']='a b'
d['tests'][2]['start_time']='2026-13-01T00:00:00Z'
json.dump(d,open('broken.json','w'))"
if python3 "$VMS_SOURCE_DIR/tests/lava/kcidb-validate.py" "$KCIDB_SCHEMA" broken.json >broken.out 2>&1; then
  fail "a broken document validated: $(cat broken.out)"
else
  for what in "'a b' does not match" "None is not of type 'string'" "is not a 'date-time'"; do
    expect_in "$(cat broken.out)" "$what" "validator catches"
  done
fi
finish
