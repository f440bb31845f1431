# `vmsuite run --sysctl zswap.*` on the real host (root, a memory cgroup and zswap, else SKIP):
# zswap off and on as two interleaved variants of memload in the emulated machine (its swap
# file behind zswap), zswap's parameters back to what they were after a normal end, after
# Ctrl-C and after SIGKILL + `vmsuite cleanup`; values given in the kernel's other spellings
# (0/1, 0x14) recorded as it prints them; `compare` of the file shows both variants' swap
# traffic; a knob the kernel lacks (lru_gen on a kernel without it) and values zswap refuses
# are usage errors that change nothing. A trap writes every zswap parameter back whatever
# happens to the test.
. "$VMS_SOURCE_DIR/tests/hoststate/lib-host.sh"

zs=/sys/module/zswap/parameters
if [ ! -w "$zs/enabled" ]; then
  skip_rest "this kernel has no zswap ($zs/enabled)"
fi
declare -A before
for f in "$zs"/*; do before[${f##*/}]=$(cat "$f"); done
restore_zswap() {
  local k
  # enabled last: the other parameters may need zswap's pool
  for k in "${!before[@]}"; do
    [ "$k" = enabled ] && continue
    [ "$(cat "$zs/$k")" = "${before[$k]}" ] || echo "${before[$k]}" >"$zs/$k"
  done
  [ "$(cat "$zs/enabled")" = "${before[enabled]}" ] || echo "${before[enabled]}" >"$zs/enabled"
}
trap 'restore_host; restore_zswap' EXIT

# as_before WHAT: every zswap parameter holds what it held before the test
as_before() {
  local k bad=
  for k in "${!before[@]}"; do
    [ "$(cat "$zs/$k")" = "${before[$k]}" ] || bad="$bad $k=$(cat "$zs/$k") (was ${before[$k]})"
  done
  [ -z "$bad" ] && ok || fail "$1: zswap left changed:$bad"
}
no_records() { ! compgen -G "$state/journal/*.json" >/dev/null; }
# the value that is not zswap's own, first: a run changes the knob from its first run on
if [ "${before[enabled]}" = Y ]; then other=0 own=1; else other=1 own=0; fi
zswap_changed() { [ "$(cat "$zs/enabled")" != "${before[enabled]}" ]; }
pool=$((before[max_pool_percent] == 20 ? 0x19 : 0x14))

# ---- a normal end: off and on, their runs alternating, zswap as before ----
# Exit 1 is a run OOM-killed, which is data: memload in the 512 MiB cgroup v1 machine with zswap
# on was killed in one of two runs here (kernel 6.18), and in both on another day, every page
# active when it was: the charge of a page read back from zswap gave up (docs/workloads.md).
# 10 s: long enough for memload's cold tail to fill the 512 MiB machine and page out (in 3 s
# it touched less than the RAM in one session here and never swapped).
"$VMSUITE" run -w memload:seconds=10 -n 2 --sysctl zswap.enabled=0,1 \
  --sysctl zswap.max_pool_percent=$pool -o zs.json >zs.out 2>zs.err
rc=$?
err=$(cat zs.err)
[ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && grep -q "OOM killer" zs.err; } && ok ||
  fail "zswap off and on: exit $rc, want 0 (or 1 for an OOM kill): $err"
as_before "after the run"
expect_in "$err" "restored zswap.enabled to '${before[enabled]}'" "the run says it restored zswap"
[ "$(json_get zs.json '[v["label"] for v in d["variants"]]')" = "['enabled=N', 'enabled=Y']" ] &&
  ok || fail "labels: $(json_get zs.json '[v["label"] for v in d["variants"]]')"
[ "$(json_get zs.json '[v["settings"]["zswap.max_pool_percent"] for v in d["variants"]]')" = \
  "['$((pool))', '$((pool))']" ] && ok || fail "max_pool_percent not as the kernel prints it"
order=$(json_get zs.json '[(x[1], x[2]) for x in sorted((r["t_start"], w["variant"], r["index"]) for w in d["workloads"] for r in w["runs"])]')
[ "$order" = "[('enabled=N', 1), ('enabled=Y', 1), ('enabled=N', 2), ('enabled=Y', 2)]" ] &&
  ok || fail "runs do not alternate: $order"
# swap traffic of each variant: the runs with zswap on stored pages in its pool
zout=$(json_get zs.json '[(w["variant"], sum(r["vmstat_delta"]["zswpout"] for r in w["runs"])) for w in d["workloads"]]')
case "$zout" in
  "[('enabled=N', "*"), ('enabled=Y', "*")]") ok ;;
  *) fail "zswpout per variant: $zout" ;;
esac
[ "$(json_get zs.json 'all(r["vmstat_delta"]["zswpout"] > 0 for w in d["workloads"] if w["variant"] == "enabled=Y" for r in w["runs"])')" = True ] &&
  ok || fail "a run with zswap on stored no page in it: $zout"
# with zswap off the swap file takes them (the kernel counts that in pswpout, zswap in zswpout)
[ "$(json_get zs.json 'all(r["vmstat_delta"]["pswpout"] > 0 for w in d["workloads"] if w["variant"] == "enabled=N" for r in w["runs"])')" = True ] &&
  ok || fail "a run with zswap off swapped nothing out: $(json_get zs.json '[(w["variant"], [r["vmstat_delta"]["pswpout"] for r in w["runs"]]) for w in d["workloads"]]')"
# a metric wherever the runs have any (a variant whose runs were all OOM-killed has none)
[ "$(json_get zs.json 'all(len(w["metrics"]["zswpout"]["samples"]) == len(w["metrics"]["elapsed_s"]["samples"]) for w in d["workloads"] if "elapsed_s" in w["metrics"])')" = True ] &&
  ok || fail "zswpout is not a metric of every run with metrics"
no_records && ok || fail "journal records left: $(ls "$state/journal")"
expect_exit 0 "compare of the variants" -- "$VMSUITE" compare --exit-zero zs.json
expect_in "$out" "enabled=Y" "compare names the variant"
expect_in "$out" "pswpout" "compare shows swap-outs to the swap file"
expect_in "$out" "zswpout" "compare shows swap-outs to zswap"

# ---- Ctrl-C in the middle: zswap back, the result kept and marked interrupted ----
"$VMSUITE" run -w memload:seconds=2 -n 500 --sysctl zswap.enabled=$other,$own \
  -o int.json >int.out 2>int.err &
pid=$!
started+=("$pid")
wait_for 60 zswap_changed || fail "zswap never changed: $(cat int.err)"
wait_for 60 has_child "$pid" || fail "no workload started: $(cat int.err)"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] && ok || fail "Ctrl-C: exit $rc, want 130: $(cat int.err)"
as_before "after Ctrl-C"
[ "$(json_get int.json 'd["interrupted"]')" = True ] && ok || fail "not marked interrupted"
no_records && ok || fail "journal records left after Ctrl-C"

# ---- SIGKILL: zswap stays changed with its record; cleanup writes it back and says so ----
"$VMSUITE" run -w memload:seconds=2 -n 500 --sysctl zswap.enabled=$other,$own -o k.json \
  >k.out 2>k.err &
victim=$!
started+=("$victim")
wait_for 60 zswap_changed || fail "zswap never changed: $(cat k.err)"
wait_for 60 has_child "$victim" || fail "no workload started: $(cat k.err)"
kill -KILL "$victim"
wait "$victim" 2>/dev/null
zswap_changed && ok || fail "zswap is back although nothing restored it"
expect_exit 0 "cleanup" -- "$VMSUITE" cleanup
expect_in "$out" "restored the kernel knob '$zs/enabled' to '${before[enabled]}' left by pid $victim" \
  "cleanup says what it restored"
as_before "after SIGKILL and cleanup"
no_records && ok || fail "journal records left after cleanup"

# ---- refused: usage errors before anything runs, nothing changed ----
if [ ! -e /sys/kernel/mm/lru_gen/enabled ]; then
  expect_exit 129 "lru_gen on a kernel without it" -- "$VMSUITE" run -w mtest01:bytes=8M -n 1 \
    --sysctl lru_gen.enabled=n,y -o bad.json
  expect_in "$err" "kernel $(uname -r) has no knob 'lru_gen.enabled'" "the kernel is named"
  [ ! -e bad.json ] && ok || fail "lru_gen wrote a result"
fi
# (zswap checks a compressor once its pool exists: the runs above made it)
for arg in zswap.enabled=1,Y zswap.enabled=maybe zswap.compressor=no-such-compressor \
  zswap.max_pool_percent=-1 zswap.nonexistent=1 zswap.x.y=1; do
  rm -f bad.json
  expect_exit 129 "--sysctl $arg" -- "$VMSUITE" run -w mtest01:bytes=8M -n 1 \
    --sysctl "$arg" -o bad.json
  [ ! -e bad.json ] && ok || fail "--sysctl $arg wrote a result"
  as_before "--sysctl $arg"
  no_records && ok || fail "--sysctl $arg left a journal record"
done
finish
