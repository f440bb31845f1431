#!/usr/bin/env bash
# `vmsuite lab` on two real kernels (the newest Debian 6.1 and 6.12 packages, picked with
# apt-cache): one boot each runs tests/lab/guest-checks.sh, which records what real cgroup v2
# and a real kernel sound card (snd-dummy) do; this script asserts on it, and on the two-kernel
# compare the lab prints. Skips (77) when QEMU, busybox-static or a package cannot be had, or
# when the host has one CPU (the guest needs two).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

command -v qemu-system-x86_64 >/dev/null || skip_rest "no qemu-system-x86_64 (scripts/install-deps.sh)"
command -v busybox >/dev/null || skip_rest "no busybox (busybox-static; scripts/install-deps.sh)"
# The guest checks pin a run with --cpus 1 to one CPU of two: the lab gives the guest as many
# CPUs as the host has, at most 2 (lab/vmsuite-lab.sh), and nproc is what it counts.
host_cpus=$(nproc)
[ "$host_cpus" -ge 2 ] ||
  skip_rest "the guest needs 2 CPUs (--cpus 1 pins a run to one of them); this host has $host_cpus"
newest() { apt-cache search --names-only "$1" 2>/dev/null | awk '{print $1}' | sort -V | tail -n1; }
k61=$(newest '^linux-image-6\.1\.0-[0-9]+-amd64$')
k612=$(newest '^linux-image-6\.12\.[0-9]+\+deb[0-9]+-amd64$')
[ -n "$k61" ] && [ -n "$k612" ] || skip_rest "apt-cache knows no linux-image 6.1 and 6.12 packages"
echo "kernels: $k61 $k612"

out=$VMS_TEST_TMP/lab
# the lab's private directory under this test's own TMPDIR, so that what it leaves is ours
TMPDIR=$VMS_TEST_TMP "$VMSUITE" lab --kernel-package "$k61" --kernel-package "$k612" --kvm-trial 10 --timeout 900 \
  --script "$VMS_SOURCE_DIR/tests/lab/guest-checks.sh" -o "$out" >"$VMS_TEST_TMP/lab.out" 2>&1
rc=$?
cat "$VMS_TEST_TMP/lab.out"
[ "$rc" -ne 125 ] || skip_rest "the lab cannot run here (see above)"
# compare's exit: 0 no regression shown, 1 a regression, 2 cannot tell (two runs a kernel under
# TCG are often too spread to judge: an honest answer here)
case $rc in 0 | 1 | 2) ok ;; *) fail "lab: exit $rc, want 0, 1 or 2 (compare's verdict)" ;; esac
log=$(cat "$VMS_TEST_TMP/lab.out")
expect_in "$log" "== vmsuite compare: " "the lab prints a compare"

for d in "$out"/*-s1.files; do
  [ -d "$d" ] || { fail "no per-kernel files in $out"; continue; }
  name=$(basename "$d" .files)
  echo "== $name"
  cat "$d/cgroup.txt" 2>/dev/null
  echo "sound check attempts: $(tr '\n' ' ' <"$d/attempts.txt" 2>/dev/null)"
  [ -s "$out/$name.console.log" ] && ok || fail "$name: no console log"
  [ -f "$out/$name.json" ] && ok || fail "$name: no result file"
  release=${name%-*-s1}
  expect_in "$log" "$release" "the compare names $release"
  python3 - "$d" "$out/$name.json" <<'PY' && ok || fail "$name: see the lines above"
import json, os, sys
d, result = sys.argv[1], sys.argv[2]
bad = []
def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        bad.append(what)
kv = {}
for line in open(os.path.join(d, "cgroup.txt")):
    k, _, v = line.rstrip("\n").partition(" ")
    kv[k] = v
# the hron2001 machine on real cgroup v2
check("memory" in kv.get("controllers", ""), f"memory controller enabled ({kv.get('controllers')})")
check(kv.get("memory.max") == str(512 << 20), f"memory.max = 512 MiB ({kv.get('memory.max')})")
check(kv.get("memory.swap.max") == str(1 << 30), f"memory.swap.max = 1 GiB ({kv.get('memory.swap.max')})")
check(kv.get("workload_pid", "none") != "none", "a workload ran in the cgroup")
check(kv.get("interrupt_exit") == "130", f"Ctrl-C: exit 130 ({kv.get('interrupt_exit')})")
check(kv.get("cgroup_after") == "absent", f"Ctrl-C: the cgroup is removed ({kv.get('cgroup_after')})")
check(open(os.path.join(d, "cgroups-left.txt")).read().strip() == "", "no vmsuite cgroup left")
i = json.load(open(os.path.join(d, "interrupted.json")))
check(i.get("interrupted") is True, "the interrupted result is marked so")
m = i["protocol"]["machine"]
cpus = kv.get("workload_cpus", "")
check(cpus.isdigit() and kv.get("guest_cpus") == "2" and m.get("cpu_list") == cpus,
      f"--cpus 1 pins it to one CPU of 2, the one the result records ({cpus} of "
      f"{kv.get('guest_cpus')}; recorded {m.get('cpu_list')})")
check(m["cgroup_version"] == 2 and m["cgroup"]["mem_limit_bytes"] == 512 << 20,
      "the interrupted result records cgroup v2 and its limit")
r = json.load(open(result))
check(r["protocol"]["machine"]["cgroup_version"] == 2, "the compared result records cgroup v2")
check(open(os.path.join(d, "run.rc")).read().strip() == "0", "the compared suite exited 0")
# the probe on the kernel's sound card, 25/100 ms
check("Dummy" in open(os.path.join(d, "cards.txt")).read(), "snd-dummy is the sound card")
idle = json.load(open(os.path.join(d, "idle.json")))
f = idle["audio"]["facts"]
check(f["virtual_device"] is False, "the probe played to the card, not the virtual device")
check(abs(f["period_ms"] - 25) < 1 and abs(f["buffer_ms"] - 100) < 1,
      f"geometry 25/100 ms granted ({f['period_ms']}/{f['buffer_ms']})")
mi = {k: v["samples"][0] for k, v in idle["audio"]["baseline"]["metrics"].items()}
check(open(os.path.join(d, "idle.rc")).read().strip() == "0", "idle probe exit 0")
check(mi["underruns"] == 0 and mi["gap_total_ms"] == 0, f"idle baseline clean ({mi['underruns']} underruns)")
# Woken on time (docs/audio-probe.md, Devices): snd-dummy declares no BATCH flag (its hrtimer
# position is continuous) but wakes the player only at its period timer. A player that misses
# that interrupt wakes a whole period late: lateness p50 ~ one period, headroom p1 below
# buffer - 2 periods. On time, lateness is the guest's wake-up latency (~1 ms in TCG) and
# headroom buffer - period less it; the 0.6 period allows a loaded host's TCG.
p_ms, b_ms = f["period_ms"], f["buffer_ms"]
check(f.get("position_method") == "pointer",
      f"snd-dummy's position is a pointer, not batch ({f.get('position_method')})")
check(mi["wake_p50_ms"] < p_ms / 4,
      f"idle wake lateness p50 {mi['wake_p50_ms']:.2f} ms < a quarter period ({p_ms / 4:.2f} ms)")
check(mi["headroom_p1_ms"] >= b_ms - 1.6 * p_ms,
      f"idle headroom p1 {mi['headroom_p1_ms']:.1f} ms >= buffer - period - 0.6 period "
      f"({b_ms - 1.6 * p_ms:.1f} ms; wake p99 {mi['wake_p99_ms']:.1f} ms)")
st = json.load(open(os.path.join(d, "stall.json")))
ms = {k: v["samples"][0] for k, v in st["audio"]["baseline"]["metrics"].items()}
gaps = st["audio"]["baseline"]["detail"]["gaps"]
t0, t1 = (float(x) for x in open(os.path.join(d, "stall.truth")).read().split())
stop_ms, period, buffer = (t1 - t0) * 1000, 25.0, 100.0
check(open(os.path.join(d, "stall.rc")).read().strip() == "0", "stalled probe exit 0")
check(ms["underruns"] == 1 and len(gaps) == 1, f"SIGSTOP: exactly one underrun ({ms['underruns']}, {len(gaps)} gaps)")
if gaps:
    g = gaps[0]["duration_ms"]
    # The audio buffered at the stop ran out at the gap's t_mono (CLOCK_MONOTONIC, which is
    # /proc/uptime's clock in a guest that never suspends): at most a full buffer.
    buffered = (gaps[0]["t_mono"] - t0) * 1000
    check(-10 <= buffered <= buffer + 10, f"buffered audio at the stop {buffered:.0f} ms is within the {buffer:.0f} ms buffer")
    # silence = stop - buffered, within one period (the probe's restart after SIGCONT), plus
    # /proc/uptime's 10 ms tick at the end of the stop
    want = stop_ms - buffered
    check(want - 5 <= g <= want + period + 10,
          f"gap {g:.1f} ms = stop {stop_ms:.0f} ms - buffered {buffered:.0f} ms (+{g - want:.1f} ms, within one period)")
sys.exit(1 if bad else 0)
PY
done
[ "$(ls -d "$out"/*-s1.files 2>/dev/null | wc -l)" -eq 2 ] && ok || fail "want the files of two kernels"
[ -z "$(pgrep -f "qemu-system-x86_64.*$VMS_TEST_TMP/vmsuite-lab" || true)" ] && ok || fail "a qemu process is left"
finish
