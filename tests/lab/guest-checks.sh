# Runs inside a `vmsuite lab` guest (busybox sh) for tests/lab/lab.sh: real cgroup v2 and a real
# kernel sound card. It only records what it sees, in $LAB_OUT; the host side asserts.
set -u
V=$VMSUITE
O=$LAB_OUT

# 1. The hron2001 machine on cgroup v2: its cgroup's limits and CPU pinning while a workload
#    runs, then Ctrl-C (SIGINT) and whether the cgroup is gone afterwards.
"$V" run --machine hron2001 --cpus 1 -w mtest01:bytes=256M -n 40 --workdir /work/wd \
  -o "$O/interrupted.json" >"$O/interrupted.out" 2>&1 &
pid=$!
cg=/sys/fs/cgroup/vmsuite-$pid
i=0
work=""
while [ $i -lt 600 ] && [ -z "$work" ]; do
  for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do
    [ "$p" != "$pid" ] && work=$p
  done
  [ -n "$work" ] || { sleep 0.05; i=$((i + 1)); }
done
{
  echo "cgroup_dir $cg"
  echo "controllers $(cat /sys/fs/cgroup/cgroup.subtree_control)"
  echo "memory.max $(cat "$cg/memory.max" 2>/dev/null)"
  echo "memory.swap.max $(cat "$cg/memory.swap.max" 2>/dev/null)"
  echo "workload_pid ${work:-none}"
  echo "workload_comm $(cat /proc/$work/comm 2>/dev/null)"
  echo "workload_cpus $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$work/status 2>/dev/null)"
  echo "guest_cpus $(nproc)"
} >"$O/cgroup.txt"
kill -INT "$pid"
wait "$pid"
echo "interrupt_exit $?" >>"$O/cgroup.txt"
if [ -d "$cg" ]; then echo "cgroup_after present" >>"$O/cgroup.txt"; else echo "cgroup_after absent" >>"$O/cgroup.txt"; fi
ls /sys/fs/cgroup | grep '^vmsuite' >"$O/cgroups-left.txt"

# 2. The probe on the kernel's sound card (snd-dummy) with a 25/100 ms geometry: an idle
#    baseline (clean, and woken on time at the card's period interrupts), then one SIGSTOP of
#    the probe process timed against CLOCK_BOOTTIME (/proc/uptime).
#    A fresh TCG guest translates code the first time it runs it, which makes the first probe
#    late to refill at its start: a short warm-up probe pays for that first.
cat /proc/asound/cards >"$O/cards.txt"
"$V" probe --seconds 2 --period 25 --buffer 100 -o "$O/warmup.json" >"$O/warmup.out" 2>&1
stall_once() {
  rm -f "$O/stall.json"
  "$V" probe --seconds 8 --period 25 --buffer 100 -o "$O/stall.json" >"$O/stall.out" 2>&1 &
  pid=$!
  # the probe process (named vmsuite-probe), once the card plays
  child=""
  i=0
  while [ $i -lt 600 ]; do
    read -r child _ <"/proc/$pid/task/$pid/children" 2>/dev/null
    [ -n "$child" ] && [ "$(cat "/proc/$child/comm" 2>/dev/null)" = vmsuite-probe ] &&
      grep -qs RUNNING /proc/asound/card0/pcm0p/sub0/status && break
    sleep 0.05
    i=$((i + 1))
  done
  echo "probe $child $(cat "/proc/$child/comm" 2>/dev/null)" >"$O/stall.who"
  sleep 1.5
  read -r t0 _ </proc/uptime
  kill -STOP "$child"
  sleep 0.5
  read -r t1 _ </proc/uptime
  kill -CONT "$child"
  wait "$pid"
  echo "$?" >"$O/stall.rc"
  echo "$t0 $t1" >"$O/stall.truth"
}

# 1 when the stall gave one underrun whose gap is the stop minus the buffered audio within one
# period (+ /proc/uptime's 10 ms tick): the bound tests/lab/lab.sh asserts.
stall_as_expected() {
  grep -q "(1 underrun)" "$O/stall.out" || return 1
  read -r t0 t1 <"$O/stall.truth"
  awk -v t0="$t0" -v t1="$t1" '
    /"gaps": \[/ { in_gaps = 1 }
    in_gaps && /"t_mono"/ && tm == "" { gsub(/[",]/, ""); tm = $2 }
    in_gaps && /"duration_ms"/ && d == "" { gsub(/[",]/, ""); d = $2 }
    END {
      if (tm == "" || d == "") exit 1
      buffered = (tm - t0) * 1000; want = (t1 - t0) * 1000 - buffered
      exit !(buffered >= -10 && buffered <= 110 && d >= want - 5 && d <= want + 35)
    }' "$O/stall.json"
}

# 1 when the idle probe played clean and on time: no underrun, wake lateness p50 under a
# quarter period and headroom p1 at least buffer - period less 0.6 period: the bounds
# tests/lab/lab.sh asserts. A player that misses the card's period interrupt wakes a whole
# period late: p50 ~ one period, headroom p1 below buffer - 2 periods.
idle_as_expected() {
  grep -q "(0 underruns)" "$O/idle.out" || return 1
  awk '
    /"period_ms":/ && p == "" { gsub(/[",]/, ""); p = $2 }
    /"buffer_ms":/ && b == "" { gsub(/[",]/, ""); b = $2 }
    /^ *"[a-z0-9_]+": \{$/ { name = $1; gsub(/[":]/, "", name); want = 1 }
    want && /^ *-?[0-9.]+$/ { v[name] = $1 + 0; want = 0 }
    END {
      if (p == "" || b == "" || !("wake_p50_ms" in v) || !("headroom_p1_ms" in v)) exit 1
      exit !(v["wake_p50_ms"] < p / 4 && v["headroom_p1_ms"] >= b - 1.6 * p)
    }' "$O/idle.json"
}

# An emulated guest on a busy host can lose its CPU for longer than the buffer: each sound
# check gets three attempts, and the host side asserts on the first that came out as expected
# (or the last), reporting how many it took. A broken sound path fails all three.
try=1
while :; do
  "$V" probe --seconds 5 --period 25 --buffer 100 -o "$O/idle.json" >"$O/idle.out" 2>&1
  echo "$?" >"$O/idle.rc"
  idle_as_expected || [ $try -ge 3 ] || { mv "$O/idle.out" "$O/idle-$try.out"; mv "$O/idle.json" "$O/idle-$try.json"; try=$((try + 1)); continue; }
  break
done
echo "idle $try" >"$O/attempts.txt"
try=1
while :; do
  stall_once
  stall_as_expected || [ $try -ge 3 ] || { mv "$O/stall.out" "$O/stall-$try.out"; mv "$O/stall.json" "$O/stall-$try.json"; try=$((try + 1)); continue; }
  break
done
echo "stall $try" >>"$O/attempts.txt"

# 3. A short suite for the two-kernel compare the lab prints.
"$V" run -w mtest01:bytes=64M -n 2 --label "$(uname -r)" --workdir /work/wd \
  -o "$O/result.json" >"$O/run.out" 2>&1
echo "$?" >"$O/run.rc"
exit 0
