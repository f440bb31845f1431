"""Checks of a result file for tests/workloads/busy.sh: busy-check.py FILE MODE [PID].

MODE quiet: no competitor of ours; busy: competitor PID pinned to the emulated CPU; quota: the
suite under a CPU quota of half a CPU (its throttled time must show as wait, not as others).

Prints one line per problem; lines starting with NOTE or INFO are not problems."""
import json
import os
import sys

path, mode = sys.argv[1], sys.argv[2]
spin = int(sys.argv[3]) if len(sys.argv) > 3 else None
d = json.load(open(path))
above = d["protocol"]["disturbed_above_pct"]
wl = d["workloads"][0]
metrics = wl["metrics"]
try:
    suite_pid = int(open(os.path.join(os.path.dirname(os.path.abspath(path)), "suite.pid")).read())
except (OSError, ValueError):
    suite_pid = None

for r in wl["runs"]:
    i, b = r["index"], r["busy"]
    o, w = b["other_cpu_pct"], b["cpu_wait_pct"]
    if o is None or w is None:
        print(f"run {i}: other_cpu_pct {o}, cpu_wait_pct {w}")
        continue
    for k in ("other_cpu_pct", "kthread_cpu_pct", "steal_pct", "cpu_wait_pct"):
        v = metrics[k]["samples"][i - 1]
        if v is None or abs(v - b[k]) > 0.01:
            print(f"run {i}: metric {k} {v} differs from busy.{k} {b[k]}")
    for x in b["others"]:
        if suite_pid is not None and x["pid"] == suite_pid:
            print(f"run {i}: the suite counted as another process: {x}")
        elif x["comm"] in ("vmsuite", "mtest01"):
            # not ours by parentage: another vmsuite on the machine (a test in parallel)
            print(f"NOTE: run {i}: another vmsuite's process counted as other: {x}")
    want = o > above and b["cpu_s"]["other"] >= 0.02
    if r["disturbed"] is not want:
        print(f"run {i}: disturbed {r['disturbed']} with other_cpu_pct {o} (above {above})")
    others = ", ".join(f"{x['comm']} {x['cpu_pct']:.1f}" for x in b["others"])
    if mode == "quota" and not w >= 20:
        print(f"run {i}: cpu_wait_pct {w} < 20 under a quota of half a CPU")
    if mode in ("quiet", "quota"):
        if o <= 2 and (w <= 2 or mode == "quota"):
            print(f"INFO run {i}: {mode}: other_cpu_pct {o:.2f}, cpu_wait_pct {w:.2f}")
            continue
        # Other processes on this shared machine: they can have run on the workload's CPU only
        # while the CPU-bound workload waited for it (the suite's or the kernel's time counted
        # as theirs would break this).
        # Above the disturbed threshold the run must also name them.
        named = [x for x in b["others"] if x["cpu_pct"] >= 1]
        if (o > above and not named) or o > w + 2 + b["resolution_pct"]:
            print(f"run {i}: other_cpu_pct {o}, cpu_wait_pct {w}, named: {others}: {b}")
        else:
            print(f"NOTE run {i}: the shared machine was busy: other_cpu_pct {o:.1f}, "
                  f"cpu_wait_pct {w:.1f}, by {others}")
    else:
        comp = [x for x in b["others"] if x["pid"] == spin]
        print(f"INFO run {i}: other_cpu_pct {o:.1f}, cpu_wait_pct {w:.1f}, "
              f"kthread_cpu_pct {b['kthread_cpu_pct']:.1f}, window {b['cpu_s']['window']} s; "
              f"others: {others}")
        if not o >= 8:
            print(f"run {i}: other_cpu_pct {o} < 8")
        if not w >= 5:
            print(f"run {i}: cpu_wait_pct {w} < 5")
        if o > w + 2 + b["resolution_pct"]:
            print(f"run {i}: other_cpu_pct {o} more than the CPU-bound workload waited ({w})")
        if not comp or not comp[0]["pinned"] or comp[0]["cpu_pct"] <= 0:
            print(f"run {i}: the competitor {spin} is not named as pinned: {others}")
        if r["disturbed"] is not True:
            print(f"run {i}: not marked disturbed")
