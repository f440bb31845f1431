#!/usr/bin/env python3
"""A dead or stopped audio probe in a real `vmsuite run --with-audio`: the windows that end
while the probe is dead (SIGKILL) or stopped (SIGSTOP, never continued) carry no sound data
(no sound metrics, the detail says why), the earlier ones keep theirs, the run exits 1 with a
warning and the report shows n/a; a probe stopped and continued is data (its gap is a real
gap), exit 0. usage: probe_dead.py kill|stop|stopcont

The probe process is found as the child of vmsuite named "vmsuite-probe" (its comm, set with
PR_SET_NAME), or else as the only child during the idle baseline, when no workload runs. The
moment is chosen from the result checkpoints: once the first workload has two runs on file,
vmsuite itself is frozen (SIGSTOP), the probe is killed or stopped, and vmsuite continues, so
that runs on file before are known to have ended with the probe alive."""
import json, os, signal, subprocess, sys, time
from probe_lib import check, failures

VMSUITE = os.environ["VMSUITE"]
TMP = os.environ["VMS_TEST_TMP"]
os.makedirs(TMP, exist_ok=True)
mode = sys.argv[1]


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(k) for k in f.read().split()]
    except OSError:
        return []


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def find_probe(pid, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        kids = children(pid)
        named = [k for k in kids if comm(k) == "vmsuite-probe"]
        if named:
            return named[0]
        if len(kids) == 1:  # during the baseline the probe is vmsuite's only child
            return kids[0]
        time.sleep(0.005)
    raise SystemExit("no probe process appeared")


def runs_on_file(path):
    try:
        with open(path) as f:
            d = json.load(f)
        return len(d["workloads"][0]["runs"])
    except (OSError, ValueError, KeyError, IndexError):
        return 0


def sample(metrics, name, i):
    s = metrics.get(name, {}).get("samples", [])
    return s[i] if i < len(s) else None


out = os.path.join(TMP, f"dead-{mode}.json")
if os.path.exists(out):
    os.unlink(out)
baseline = "3" if mode == "stopcont" else "1"
cmd = [VMSUITE, "run", "--machine", "host", "--with-audio", "--device", "virtual", "--idle-seconds",
       baseline, "-w", "mtest01:bytes=64M", "-w", "mtest01:bytes=8M", "-n", "4", "-o", out]
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
probe = find_probe(p.pid)
print("probe pid", probe, "comm", comm(probe))
t_act = None
on_file = 0
try:
    if mode == "stopcont":
        time.sleep(1.0)  # inside the 3 s baseline
        os.kill(probe, signal.SIGSTOP)
        t_act = time.monotonic()
        time.sleep(0.4)
        os.kill(probe, signal.SIGCONT)
    else:
        end = time.monotonic() + 60
        while on_file < 2 and time.monotonic() < end and p.poll() is None:
            on_file = runs_on_file(out)
            time.sleep(0.002)
        os.kill(p.pid, signal.SIGSTOP)
        t_act = time.monotonic()
        os.kill(probe, signal.SIGKILL if mode == "kill" else signal.SIGSTOP)
        os.kill(p.pid, signal.SIGCONT)
    stdout, stderr = p.communicate(timeout=120)
finally:
    if p.poll() is None:
        p.kill()
print(stdout)
print(stderr)
rc = p.returncode
d = json.load(open(out))
base = d["audio"]["baseline"]
check("sound_rating" in base["metrics"], "the baseline has sound data")
if mode == "stopcont":
    check(rc == 0, f"exit 0 (got {rc})")
    m = base["metrics"]
    check(m["underruns"]["samples"][0] >= 1, "the stop is an underrun of the baseline")
    check(m["gap_longest_ms"]["samples"][0] >= 300, "its gap is real: at least 300 ms")
    check(m["sound_rating"]["samples"][0] < 10, "and costs rating")
    for w in d["workloads"]:
        for i, r in enumerate(w["runs"]):
            check(sample(w["metrics"], "sound_rating", i) is not None,
                  f"{w['name']} run {i + 1} has sound data")
            check("no_sound_data" not in r.get("audio", {}), f"run {i + 1}: no 'no_sound_data'")
else:
    cause = "probe_died" if mode == "kill" else "probe_stopped"
    check(rc == 1, f"exit 1 (got {rc})")
    check("audio probe" in stderr and ("died" in stderr or "stopped" in stderr),
          "a warning says the probe died or was stopped")
    check(on_file >= 2, f"the first workload had {on_file} runs on file before the {mode}")
    after = 0
    for wi, w in enumerate(d["workloads"]):
        for i, r in enumerate(w["runs"]):
            has = sample(w["metrics"], "sound_rating", i) is not None
            why = r.get("audio", {}).get("no_sound_data")
            if wi == 0 and i < on_file:
                check(has and why is None, f"{w['name']}#{wi} run {i + 1} (before) has sound data")
            elif r["t_start"] > t_act:
                after += 1
                check(not has, f"{w['name']}#{wi} run {i + 1} (after) has no sound_rating")
                check(sample(w["metrics"], "underruns", i) is None, "  nor underruns")
                check(why == cause, f"  its detail says '{cause}' (got {why})")
    check(after >= 4, f"{after} runs started after the {mode}")
    rep = subprocess.run([VMSUITE, "report", out], capture_output=True, text=True)
    sound = [l for l in rep.stdout.splitlines() if l.startswith("Sound:")]
    print("\n".join(sound))
    check(len(sound) == 2 and sound[1].startswith("Sound: n/a"),
          "the report shows n/a for the workload run after it")
    if mode == "stop":
        check(not os.path.exists(f"/proc/{probe}"), "the stopped probe is gone")
if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("ok")
