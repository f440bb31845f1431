#!/usr/bin/env python3
"""The causes from the player's own delay accounting, provoked on purpose with `vmsuite probe`
on the virtual clock device (root only; skips visibly where taskstats cannot be read):
- runqueue: a SCHED_FIFO busy loop on the player's CPU for 0.5 s;
- memory: the player in a small memory cgroup whose page cache a writer and a reader churn,
  its MP3 charged to that cgroup, so that it waits for its own evicted pages (io, thrashing)
  and reclaims memory itself when it charges a page to the cgroup at its limit (reclaim).
Each gap named from delay accounting must carry the delay that names it, covering at least half
of the gap. kernel.task_delayacct is switched on for the test and restored, also on failure and
on SIGTERM (ctest's timeout). usage: probe_delayacct.py runqueue|memory"""
import json, os, shutil, signal, subprocess, sys, time
from probe_lib import check, failures, probe_child

VMSUITE = os.environ["VMSUITE"]
TMP = os.environ["VMS_TEST_TMP"]
SRC = os.environ["VMS_SOURCE_DIR"]
SYSCTL = "/proc/sys/kernel/task_delayacct"
MEMORY_CAUSES = ("swapin", "reclaim", "thrashing", "compaction", "io")


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)  # ctest's skip status


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def run_probe(name, seconds, extra, act=None, settle=1.5, preexec=None):
    out = os.path.join(TMP, name + ".json")
    cmd = [VMSUITE, "probe", "--seconds", str(seconds), "--device", "virtual", "-o", out,
           "--overwrite"] + list(extra)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=preexec)
    if act:
        child = probe_child(p.pid)
        time.sleep(settle)
        act(child)
    stdout, stderr = p.communicate(timeout=seconds + 60)
    sys.stdout.write(stdout)
    sys.stderr.write(stderr)
    check(p.returncode == 0, f"{name}: exit status 0 (got {p.returncode})")
    with open(out) as f:
        return json.load(f), stdout


def gaps_by_delay(doc):
    """The gaps with their unclipped duration; checks each delay-accounted one."""
    det = doc["audio"]["baseline"]["detail"]
    check(det.get("cause_method") == "delayacct",
          f"the window's causes come from delay accounting ({det.get('cause_method')})")
    check(doc["audio"]["facts"].get("cause_method") == "delayacct", "the facts say so too")
    gaps = []
    for g in det["gaps"]:
        if "evidence" not in g:
            continue
        dur = g.get("unclipped_ms", g["duration_ms"])
        ev = g["evidence"]
        if not ("delay_ms" in g and "reclaim_ms" in ev and "swapin_ms" in ev):
            check(False, f"gap at {g['start_s']} s carries its delays as evidence")
        if g["cause"] != "unexplained" and g.get("delay_ms", 0) < dur / 2:
            check(False, f"{g['cause']} at {g['start_s']} s: delay {g.get('delay_ms', 0):.1f} "
                  f"ms covers at least half of the {dur:.1f} ms gap")
        gaps.append((g["cause"], dur, g.get("delay_ms", 0)))
    return gaps


def runqueue():
    def act(pid):
        # a bounded busy loop at real-time priority on CPU 0, where the probe is pinned
        subprocess.run(["timeout", "-s", "KILL", "0.5", "chrt", "-f", "10", "taskset", "-c", "0",
                        "sh", "-c", "while :; do :; done"])

    doc, out = run_probe("runqueue", 5, ["--probe-cpus", "0", "--latency", "2001"], act)
    gaps = gaps_by_delay(doc)
    rq = [g for g in gaps if g[0] == "runqueue"]
    print("gaps (cause, ms, delay ms):", gaps)
    check(len(rq) >= 1, f"the hog's gap is named runqueue (gaps {gaps})")
    check(any(d >= dur / 2 and dur >= 100 for _, dur, d in rq),
          "a run-queue delay covers at least half of a gap the 0.5 s hog caused")
    check("runqueue" in out, "the Sound block names the cause")


def memory_cgroup():
    """A fresh memory cgroup (v1 or v2) and the file its tasks are moved with, or None."""
    if os.path.isdir("/sys/fs/cgroup/memory") and os.path.exists(
            "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        d = f"/sys/fs/cgroup/memory/vmsuite-test-delayacct-{os.getpid()}"
        os.mkdir(d)
        return d, os.path.join(d, "tasks"), os.path.join(d, "memory.limit_in_bytes")
    root = "/sys/fs/cgroup"
    if os.path.exists(os.path.join(root, "cgroup.controllers")):
        with open(os.path.join(root, "cgroup.subtree_control")) as f:
            if "memory" not in f.read().split():
                return None
        d = os.path.join(root, f"vmsuite-test-delayacct-{os.getpid()}")
        os.mkdir(d)
        return d, os.path.join(d, "cgroup.procs"), os.path.join(d, "memory.max")
    return None


def memory_once():
    cg = memory_cgroup()
    if not cg:
        skip("no memory cgroup controller to put the player in")
    d, procs, limit = cg
    hogs = []
    try:
        # the MP3 must be read by the player inside the cgroup, not found in the cache
        mp3 = os.path.join(TMP, "memory.mp3")
        shutil.copy(os.path.join(SRC, "data", "sample.mp3"), mp3)
        fd = os.open(mp3, os.O_RDONLY)
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
        big = os.path.join(TMP, "churn")

        def join():
            write(procs, "0\n" if procs.endswith("cgroup.procs") else f"{os.getpid()}\n")

        def join_first_victim():
            # The writers' dirty pages make the player wait in reclaim (what this test
            # provokes), but at the cgroup's limit the OOM killer may also pick the player: it
            # must stall, not die, so the writers are the killer's first choice.
            join()
            write("/proc/self/oom_score_adj", "1000\n")

        def act(pid):
            write(limit, str(32 << 20))
            writer = f"while :; do dd if=/dev/zero of={big}.w bs=1M count=100 status=none; done"
            reader = (f"dd if=/dev/zero of={big} bs=1M count=200 status=none; "
                      f"while :; do cat {big} >/dev/null; done")
            for sh in (writer, reader):
                hogs.append(subprocess.Popen(["sh", "-c", sh], preexec_fn=join_first_victim))

        doc, out = run_probe("memory", 10, ["--latency", "pro", mp3], act, settle=1.0,
                             preexec=join)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
        for f in (os.path.join(TMP, "churn"), os.path.join(TMP, "churn.w")):
            if os.path.exists(f):
                os.unlink(f)
        for _ in range(50):
            try:
                os.rmdir(d)
                break
            except OSError:
                time.sleep(0.1)
    gaps = gaps_by_delay(doc)
    check(True, f"{len(gaps)} gaps, each named by a delay covering half of it or unexplained")
    for c in sorted(set(g[0] for g in gaps)):
        sel = [g for g in gaps if g[0] == c]
        print(f"     {c}: {len(sel)} gaps, longest {max(g[1] for g in sel):.1f} ms")
    return gaps


def memory():
    # Whether 10 s of churn makes the player reclaim for a whole gap is up to the kernel's
    # timing: up to five attempts provoke it (three were not always enough on a 2-vCPU VM:
    # one run in five saw only io and runqueue gaps in all three). Every attempt's gaps are
    # checked in full above (named by a delay covering half of each); only the absence of a
    # reclaim gap retries.
    for attempt in range(1, 6):
        gaps = memory_once()
        rec = [g for g in gaps if g[0] == "reclaim" and g[2] >= g[1] / 2]
        if rec:
            print(f"reclaim gap after {attempt} attempt(s)")
            break
        print(f"attempt {attempt}: no reclaim gap yet ({sorted(set(g[0] for g in gaps))})")
    mem = [g for g in gaps if g[0] in MEMORY_CAUSES]
    check(len(mem) >= 1, f"memory pressure made gaps the player's memory or I/O delays name "
          f"({sorted(set(g[0] for g in gaps))})")
    check(len(rec) >= 1,
          "the player's own reclaim (charging a page to a cgroup at its limit) names a gap and "
          "covers at least half of it")


def main():
    if os.geteuid() != 0:
        skip("delay accounting over taskstats needs root (CAP_NET_ADMIN)")
    if not os.path.exists(SYSCTL):
        skip("this kernel has no delay accounting (no kernel.task_delayacct)")
    if subprocess.run(["chrt", "-f", "10", "true"]).returncode != 0:
        skip("cannot use SCHED_FIFO here")
    os.makedirs(TMP, exist_ok=True)
    with open(SYSCTL) as f:
        old = f.read().strip()

    def restore(*_):
        write(SYSCTL, old + "\n")
        if _:
            sys.exit(1)

    signal.signal(signal.SIGTERM, restore)
    signal.signal(signal.SIGINT, restore)
    try:
        write(SYSCTL, "1\n")
        {"runqueue": runqueue, "memory": memory}[sys.argv[1]]()
    finally:
        restore()
    with open(SYSCTL) as f:
        check(f.read().strip() == old, f"kernel.task_delayacct restored to {old}")
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)


main()
