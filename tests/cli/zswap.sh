# The emulated machine's swap file with zswap in front (--swap-kind zswap; suite/suite.c):
# usage errors before anything changes; `run --swap-kind zswap -w mtest01 -n 2` stores pages in
# zswap's pool in every run (zswpout), records zswap's parameters, and puts them back; zswap
# and the swap file are put back after SIGINT, and after SIGKILL by `vmsuite cleanup`. After
# each step /proc/swaps and every zswap parameter equal what they were before. The trap
# writes zswap's parameters back and switches off this test's swap files whatever happens.
. "$(dirname "$0")/lib.sh"

zs=/sys/module/zswap/parameters
[ "$(id -u)" -eq 0 ] || skip_rest "needs root (zswap's parameters, swapon, a memory cgroup)"
[ -w "$zs/enabled" ] || skip_rest "this kernel has no zswap ($zs/enabled)"
if "$VMSUITE" run --machine hron2001 --swap-file no -w mtest01:bytes=1M -n 1 -q -o probe.json \
  >/dev/null 2>probe.err; then :; else
  skip_rest "no memory cgroup here: $(cat probe.err)"
fi

declare -A zbefore
for f in "$zs"/*; do zbefore[${f##*/}]=$(cat "$f"); done
cleanup_host() {
  local k f
  [ "$(cat "$zs/enabled")" = "${zbefore[enabled]}" ] || echo "${zbefore[enabled]}" >"$zs/enabled"
  for k in "${!zbefore[@]}"; do
    [ "$k" = enabled ] && continue
    [ "$(cat "$zs/$k")" = "${zbefore[$k]}" ] || echo "${zbefore[$k]}" >"$zs/$k"
  done
  for f in "$VMS_TEST_TMP"/.vmsuite-swap-*; do
    [ -e "$f" ] || continue
    grep -q "^$f " /proc/swaps && swapoff "$f"
    rm -f "$f"
  done
  return 0
}
trap cleanup_host EXIT

# The state compared: swap areas (not their use; other runs' temporary swap files elsewhere go
# when those runs end; this test's own are in $VMS_TEST_TMP) and zswap's parameters.
state() {
  local f
  awk -v t="$VMS_TEST_TMP/" 'NR > 1 && ($1 !~ /\/\.vmsuite-swap-[^\/]+$/ || index($1, t) == 1) {
    print $1, $2, $3, $5 }' /proc/swaps | sort
  for f in "$zs"/*; do echo "${f##*/}=$(cat "$f")"; done
}
before=$(state)
state_as_before() {
  local now
  now=$(state)
  [ "$now" = "$before" ] && ok || fail "$1: host state changed:
before:
$before
now:
$now"
}
our_swap_on() { grep -q "^$VMS_TEST_TMP/\.vmsuite-swap-" /proc/swaps; }
wait_zswap() { # wait_zswap PID: until zswap is on, this run's swap file too, and a child runs
  for _ in $(seq 1 600); do
    [ "$(cat "$zs/enabled")" = Y ] && our_swap_on && [ -n "$(pgrep -P "$1")" ] && return 0
    sleep 0.05
  done
  return 1
}

# 1. usage errors, nothing changed: --sysctl zswap.enabled fights --swap-kind zswap; zswap on
# the host profile
expect_exit 129 "zswap + --sysctl zswap.enabled" -- "$VMSUITE" run --swap-kind zswap \
  --sysctl zswap.enabled=0,1 -w mtest01:bytes=1M -n 1 -q -o u1.json
expect_in "$err" "--sysctl zswap.enabled goes with --swap-kind file" "zswap.enabled: the message"
expect_exit 128 "zswap on the host profile" -- "$VMSUITE" run --machine host --swap-kind zswap \
  -w mtest01:bytes=1M -n 1 -q -o u2.json
expect_in "$err" "--swap-kind zswap needs --machine hron2001" "host profile: the message"
[ ! -e u1.json ] && [ ! -e u2.json ] && ok || fail "usage errors: a result was written"
state_as_before "usage errors"

# 2. the issue's command: every run stores pages in zswap, in front of the run's swap file
expect_exit 0 "run --swap-kind zswap -w mtest01 -n 2" -- "$VMSUITE" run --swap-kind zswap \
  -w mtest01:bytes=700M -n 2 -q --workdir "$VMS_TEST_TMP" -o normal.json
m='d["protocol"]["machine"]'
[ "$(json_get normal.json "$m[\"swap_kind\"]")" = zswap ] && ok || fail "normal: swap_kind"
[ "$(json_get normal.json "$m[\"zswap\"][\"enabled\"]")" = Y ] && ok ||
  fail "normal: zswap $(json_get normal.json "$m[\"zswap\"]")"
pct=$(json_get normal.json "$m[\"zswap\"][\"max_pool_percent\"]")
case "$pct" in [1-9] | [1-9][0-9] | 100) ok ;; *) fail "normal: max_pool_percent '$pct'" ;; esac
comp=$(json_get normal.json "$m[\"zswap\"][\"compressor\"]")
[ "$comp" = "${zbefore[compressor]}" ] && ok || fail "normal: compressor '$comp'"
echo "zswap: $(json_get normal.json "$m[\"zswap\"]")"
[ "$(json_get normal.json "$m[\"swap_file\"] is not None")" = True ] && ok ||
  fail "normal: no swap file behind zswap"
[ "$(json_get normal.json "$m[\"mem_limit_bytes\"]")" = $((512 * 1024 * 1024)) ] && ok ||
  fail "normal: mem_limit_bytes $(json_get normal.json "$m[\"mem_limit_bytes\"]")"
if [ "$(json_get normal.json "$m[\"cgroup_version\"]")" = 1 ]; then
  expect_in "$(json_get normal.json "$m[\"note\"]")" "is not charged to the memory cgroup" \
    "normal: the cgroup v1 note"
fi
runs=$(json_get normal.json 'len(d["workloads"][0]["runs"])')
[ "$runs" = 2 ] && ok || fail "normal: $runs runs"
for i in 0 1; do
  r="d[\"workloads\"][0][\"runs\"][$i][\"vmstat_delta\"]"
  zout=$(json_get normal.json "$r.get(\"zswpout\", 0)")
  echo "run $((i + 1)): zswpout $zout pages, pswpout $(json_get normal.json "$r[\"pswpout\"]") pages"
  [ "${zout:-0}" -gt 0 ] && ok || fail "normal run $((i + 1)): zswpout $zout"
done
state_as_before "normal run"

# A small machine for the interrupted runs: 64 MiB RAM, 128 MiB swap file.
small=(--swap-kind zswap --mem-limit 64M --swap-limit 128M --workdir "$VMS_TEST_TMP")

# 3. SIGINT while the workload swaps through zswap
"$VMSUITE" run "${small[@]}" -w mtest01:bytes=100M -n 400 -q -o sigint.json \
  >sigint.out 2>sigint.err &
suite=$!
wait_zswap "$suite" && ok || fail "SIGINT: zswap never came on"
kill -INT "$suite"
wait "$suite"
code=$?
[ "$code" -eq 130 ] && ok || fail "SIGINT: exit $code, want 130; $(cat sigint.err)"
state_as_before "SIGINT"

# 4. SIGKILL: zswap stays on and the swap file stays until `vmsuite cleanup` puts them back
"$VMSUITE" run "${small[@]}" -w mtest01:bytes=100M -n 400 -q -o kill.json >kill.out 2>kill.err &
suite=$!
wait_zswap "$suite" && ok || fail "SIGKILL: zswap never came on"
kill -KILL "$suite"
wait "$suite"
code=$?
[ "$code" -eq 137 ] && ok || fail "SIGKILL: exit $code"
[ "$(cat "$zs/enabled")" = Y ] && our_swap_on && ok ||
  fail "SIGKILL: zswap and the swap file were not left behind to clean up"
expect_exit 0 "cleanup after SIGKILL" -- "$VMSUITE" cleanup
echo "$out"
expect_in "$out" "restored the kernel knob '$zs/enabled' to '${zbefore[enabled]}'" \
  "cleanup names zswap.enabled"
# zswap off before its swap file goes: the journal undoes newest first
zline=$(grep -n "$zs/enabled" <<<"$out" | head -1 | cut -d: -f1)
sline=$(grep -n "\.vmsuite-swap-" <<<"$out" | head -1 | cut -d: -f1)
[ -n "$zline" ] && [ -n "$sline" ] && [ "$zline" -lt "$sline" ] && ok ||
  fail "cleanup: zswap not put back before the swap file went (lines ${zline:-none}, ${sline:-none})"
state_as_before "SIGKILL + cleanup"

finish
