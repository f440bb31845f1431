# The emulated machine makes the pressure real: mmap001 with a file 4x the memory limit shows
# limit hits and reclaim in the cgroup's own figures; the same workload with --machine host and
# a small file does not. Nothing is left behind (no cgroup, no file).
. "$(dirname "$0")/lib.sh"

cg_parent() {
  local line
  line=$(grep -E '^[0-9]+:memory:' /proc/self/cgroup | cut -d: -f3)
  if [ -n "$line" ] && [ -d "/sys/fs/cgroup/memory$line" ]; then
    echo "/sys/fs/cgroup/memory$line"
  else
    echo "/sys/fs/cgroup$(grep -E '^0::' /proc/self/cgroup | cut -d: -f3)"
  fi
}
parent=$(cg_parent)

if [ "$(id -u)" -ne 0 ]; then
  expect_exit 128 "hron2001 without root" -- "$VMSUITE" run --machine hron2001 -w mtest01:bytes=1M -n 1 -o x.json
  skip_rest "not root: only the refusal was checked; the emulated machine needs root"
fi

expect_exit 0 "4x the limit" -- "$VMSUITE" run --machine hron2001 --mem-limit 64M -w mmap001:bytes=256M -n 2 -o p.json
expect_in "$out" "Machine: hron2001 — memory cgroup" "report names the emulated machine"
expect_in "$out" "Memory cgroup per run: peak" "report has the cgroup line"
[ "$(json_get p.json 'd["protocol"]["machine"]["mem_limit_bytes"]')" = 67108864 ] && ok || fail "limit recorded"
[ "$(json_get p.json 'all(r["cgroup"]["limit_hits"] > 0 for r in d["workloads"][0]["runs"])')" = True ] \
  && ok || fail "limit hits in every run: $(json_get p.json '[r["cgroup"] for r in d["workloads"][0]["runs"]]')"
[ "$(json_get p.json 'all(r["cgroup"]["peak_bytes"] <= 67108864 + 4096 and r["cgroup"]["peak_bytes"] > 60000000 for r in d["workloads"][0]["runs"])')" = True ] \
  && ok || fail "peak at the limit"
# reclaim in the cgroup's own figures: pages uncharged by reclaim (v1 pgpgout, v2 pgsteal) —
# the 256 MiB file cannot stay in 64 MiB. v1 counts uncharge events per folio, and large
# folios make that several pages an event, so the bound is loose
[ "$(json_get p.json 'all((r["cgroup"]["stat_delta"].get("pgpgout", 0) + r["cgroup"]["stat_delta"].get("pgsteal", 0)) > 500 for r in d["workloads"][0]["runs"])')" = True ] \
  && ok || fail "reclaim in memory.stat: $(json_get p.json 'd["workloads"][0]["runs"][0]["cgroup"]["stat_delta"]')"
[ "$(json_get p.json '"cgroup_usage_kib" in d["workloads"][0]["runs"][0]["series"]["columns"]')" = True ] && ok || fail "usage sampled"
# the run's pgscan/pgsteal are the cgroup's own reclaim (/proc/vmstat leaves limit reclaim
# out): v2's memory.stat has them, v1's has no scan counters, and then there is no metric rather
# than a row of zeros
if [ "$(json_get p.json 'd["protocol"]["machine"]["cgroup"]["version"]')" = 2 ]; then
  [ "$(json_get p.json 'all(w["metrics"]["pgscan"]["samples"][i] == r["cgroup"]["stat_delta"]["pgscan"] > 0 for w in d["workloads"] for i, r in enumerate(w["runs"]))')" = True ] &&
    ok || fail "pgscan is not the cgroup's: $(json_get p.json 'd["workloads"][0]["metrics"].get("pgscan")')"
else
  [ "$(json_get p.json '[k for k in ("pgscan", "pgsteal") if k in d["workloads"][0]["metrics"]]')" = "[]" ] &&
    ok || fail "v1 has no scan counters, yet: $(json_get p.json 'd["workloads"][0]["metrics"].get("pgscan")')"
fi

expect_exit 0 "host, small file" -- "$VMSUITE" run --machine host -w mmap001:bytes=16M -n 1 -o h.json
[ "$(json_get h.json 'd["protocol"]["machine"]["profile"]')" = host ] && ok || fail "host profile"
[ "$(json_get h.json 'd["workloads"][0]["runs"][0].get("cgroup")')" = None ] && ok || fail "no cgroup figures on host"
# pgscan is system-wide: other processes on a busy machine reclaim too, so only its presence
# and sanity are checked here (the cgroup's own reclaim figures are checked above)
[ "$(json_get h.json 'all(v >= 0 and v == int(v) for v in d["workloads"][0]["metrics"]["pgscan"]["samples"])')" = True ] &&
  ok || fail "pgscan recorded as a non-negative count: $(json_get h.json 'd["workloads"][0]["metrics"].get("pgscan")')"

# mtest01 percent=80 sizes itself from the emulated machine, not from the host's 24 GiB (without
# swap: another test's temporary swap file, up beside this one, would count as host swap;
# tests/cli/swapfile.sh covers the swap file)
expect_exit 0 "mtest01 in 128M" -- "$VMSUITE" run --machine hron2001 --swap-limit 0 --mem-limit 128M -w mtest01:percent=80 -n 1 -o m.json
[ "$(json_get m.json 'd["workloads"][0]["runs"][0]["bytes_allocated"] <= 0.8 * 128 * 2**20 + 2**20')" = True ] \
  && ok || fail "mtest01 sized from the cgroup: $(json_get m.json 'd["workloads"][0]["runs"][0]["bytes_allocated"]')"

# usage errors
expect_exit 129 "unknown profile" -- "$VMSUITE" run --machine pdp11 -o x.json
expect_in "$err" "unknown machine profile 'pdp11'" "unknown profile message"
expect_exit 129 "bad mem limit" -- "$VMSUITE" run --mem-limit lots -o x.json
expect_exit 129 "bad cpus" -- "$VMSUITE" run --cpus 0 -o x.json
[ ! -e x.json ] && ok || fail "a result was written for bad input"

# --cpus 1 pins the workload child
expect_exit 0 "cpus 1" -- "$VMSUITE" run --machine host --cpus 1 -w mtest01:bytes=8M -n 1 -o c.json
[ "$(json_get c.json 'd["protocol"]["machine"]["cpus"]')" = 1 ] && ok || fail "cpus recorded"

# without root: --machine hron2001 is refused with what to do; the default falls back to host
if command -v setpriv >/dev/null && setpriv --reuid 65534 --regid 65534 --clear-groups test -x "$VMSUITE"; then
  mkdir -p nobody && chmod 777 nobody
  as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
  expect_exit 128 "hron2001 as nobody" -- as_nobody "$VMSUITE" run --machine hron2001 -w mtest01:bytes=1M -n 1 -o nobody/x.json
  expect_in "$err" "needs a memory cgroup" "refusal says why"
  expect_in "$err" "run as root" "refusal says what to do"
  [ ! -e nobody/x.json ] && ok || fail "refused run wrote a result"
  expect_exit 0 "default as nobody" -- as_nobody "$VMSUITE" run -w mtest01:bytes=1M -n 1 -o nobody/y.json --workdir nobody
  expect_in "$err" "running on the host machine" "fallback note"
  [ "$(json_get nobody/y.json 'd["protocol"]["machine"]["profile"]')" = host ] && ok || fail "fallback profile"
else
  echo "note: cannot run the binary as nobody here; the non-root path is covered by test_machine"
fi

# One CPU, as the 2001 box: the workloads and the player on the same one, recorded; vmsuite
# itself on the others when there are others; --cpus all lifts it; the player's --probe-cpus must lie
# within the emulated machine's CPUs
expect_exit 0 "one CPU by default" -- "$VMSUITE" run --machine hron2001 --swap-file no \
  --with-audio --idle-seconds 0.5 -w mtest01:bytes=8M -n 1 -o cpu1.json
mj='d["protocol"]["machine"]'
[ "$(json_get cpu1.json "$mj[\"cpus\"]")" = 1 ] && ok || fail "cpus: $(json_get cpu1.json "$mj")"
[ "$(json_get cpu1.json "$mj[\"cpus_from\"]")" = profile ] && ok || fail "cpus_from"
allowed=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
[ "$(json_get cpu1.json "$mj[\"cpu_list\"]")" = "$allowed" ] && ok ||
  fail "the highest-numbered CPU: $(json_get cpu1.json "$mj[\"cpu_list\"]"), want $allowed"
[ "$(json_get cpu1.json 'd["audio"]["facts"]["cpu_list"]')" = "$allowed" ] && ok ||
  fail "the player on the same CPU: $(json_get cpu1.json 'd["audio"]["facts"]')"
if [ "$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')" -gt 1 ]; then
  [ "$(json_get cpu1.json "$mj[\"sampler_cpu_list\"]")" != None ] && ok || fail "sampler CPUs"
fi
expect_exit 0 "--cpus all" -- "$VMSUITE" run --machine hron2001 --swap-file no --cpus all \
  -w mtest01:bytes=8M -n 1 -o cpuall.json
[ "$(json_get cpuall.json "$mj[\"cpus\"]")" = None ] && ok || fail "--cpus all pinned"
if [ "$allowed" -gt 0 ]; then
  expect_exit 129 "--probe-cpus outside" -- "$VMSUITE" run --machine hron2001 --swap-file no \
    --with-audio --probe-cpus 0 -w mtest01:bytes=1M -n 1 -o cpubad.json
  expect_in "$err" "outside the emulated machine's CPUs" "--probe-cpus outside says why"
fi

# left behind = a vmsuite-<pid> cgroup whose vmsuite is gone (other tests running at the same
# time have theirs while they run)
left=""
for d in "$parent"/vmsuite-*; do
  [ -d "$d" ] || continue
  if ! kill -0 "${d##*/vmsuite-}" 2>/dev/null && [ -d "$d" ]; then left="$left $d"; fi
done
[ -z "$left" ] && ok || fail "cgroups left behind:$left"
[ -z "$(ls -A | grep '^\.vmsuite-')" ] && ok || fail "files left behind"
finish
