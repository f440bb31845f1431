#!/usr/bin/env python3
"""End-to-end checks of `vmsuite probe` on the virtual clock device: runs the real binary,
injects stalls (SIGSTOP/SIGCONT of the probe process, timed with CLOCK_MONOTONIC) or a
SCHED_FIFO CPU hog, or has the device suspend once, and compares the result file with the
injected truth and with the plugin's own log. usage:
probe_check.py clean|clean_desktop|stall|stalls|runqueue|suspend|watcher"""
import json, os, signal, subprocess, sys, time
from probe_lib import check, failures, probe_child

VMSUITE = os.environ["VMSUITE"]
TMP = os.environ["VMS_TEST_TMP"]
os.makedirs(TMP, exist_ok=True)


def can_fifo():
    return os.geteuid() == 0 and subprocess.run(["chrt", "-f", "10", "true"]).returncode == 0


# The clean, stall and suspend cases count underruns exactly: where it can, the probe runs
# SCHED_FIFO with its memory locked (--rt --mlock, as a tester would on a busy machine), so the
# other tests and builds sharing a loaded 2-core machine add no underruns of their own.
SHIELD = ["--rt", "--mlock"] if can_fifo() else []


def run_probe(name, seconds, extra=(), actions=None, settle=1.5, env_extra=None, latency="2001"):
    out = os.path.join(TMP, name + ".json")
    log = os.path.join(TMP, name + ".vclock.log")
    for f in (out, log):
        if os.path.exists(f):
            os.unlink(f)
    env = dict(os.environ, VMSUITE_VCLOCK_LOG=log, **(env_extra or {}))
    # the injected stalls and their bounds are written for the 2001 preset's 25/100 ms
    cmd = [VMSUITE, "probe", "--seconds", str(seconds), "--device", "virtual", "-o", out]
    if latency:
        cmd += ["--latency", latency]
    cmd += list(extra)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    truth = []
    if actions:
        child = probe_child(p.pid)
        time.sleep(settle)
        truth = actions(child)
    stdout, stderr = p.communicate(timeout=seconds + 60)
    sys.stdout.write(stdout)
    sys.stderr.write(stderr)
    check(p.returncode == 0, f"{name}: exit status 0 (got {p.returncode})")
    with open(out) as f:
        doc = json.load(f)
    plugin = []
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                w = line.split()  # underrun N dry T resume T gap_ms G (or suspend N at T ...)
                if w[0] == "underrun" and w[5] != "-":
                    plugin.append((float(w[3]), float(w[5])))
    return doc, stdout, truth, plugin


def plugin_suspends(name):
    """The plugin's suspend lines: suspend N at T resume T|- gap_ms G|-."""
    with open(os.path.join(TMP, name + ".vclock.log")) as f:
        return [line.split() for line in f if line.startswith("suspend ")]


def metrics(doc):
    m = doc["audio"]["baseline"]["metrics"]
    return {k: v["samples"][0] for k, v in m.items()}


def stall(pid, seconds):
    t0 = time.monotonic()
    os.kill(pid, signal.SIGSTOP)
    while time.monotonic() - t0 < seconds:
        time.sleep(0.002)
    os.kill(pid, signal.SIGCONT)
    return (t0, time.monotonic())


def clean():
    doc, out, _, plugin = run_probe("clean", 5, extra=SHIELD)
    m = metrics(doc)
    check(doc["format"] == "vmsuite.result/2" and doc["workloads"] == [], "result document")
    check(m["underruns"] == 0, f"0 underruns (got {m['underruns']})")
    check(m["sound_rating"] == 10.0, f"rating 10.0 (got {m['sound_rating']})")
    check(4.9 <= m["played_s"] <= 5.3 and m["played_s"] == m["window_s"],
          f"played ~5 of 5 s (got {m['played_s']} of {m['window_s']})")
    check(m["gap_total_ms"] == 0 and m["skips"] == 0, "no gaps, no skips")
    check(0 < m["headroom_min_ms"] <= 100, f"headroom within the buffer ({m['headroom_min_ms']})")
    check(m["probe_maxrss_kib"] > 0 and m["decode_ms_per_s"] > 0, "costs recorded")
    check("Sound (idle baseline): 10.0/10 \u2014 played 5.0 of 5.0 s, 0 skips (0 underruns)" in out,
          "Sound line printed")
    f = doc["audio"]["facts"]
    check(f["sample_rate"] == 44100 and f["channels"] == 2 and f["bitrate_mode"] == "cbr"
          and f["bitrate_kbps"] == 128 and 20 <= f["duration_s"] <= 60, "sample MP3 facts")
    check(f["virtual_device"] is True and abs(f["period_ms"] - 25) < 1
          and abs(f["buffer_ms"] - 100) < 1, "device and granted geometry")
    check(plugin == [], "the plugin saw no underrun either")


def clean_desktop():
    """The default preset (desktop, 21.3/42.7 ms) plays an idle window clean, its continuous
    metric within the buffer."""
    doc, out, _, plugin = run_probe("clean-desktop", 5, extra=SHIELD, latency=None)
    m = metrics(doc)
    f = doc["audio"]["facts"]
    check(f["latency"] == "desktop" and abs(f["period_ms"] - 21.33) < 0.5
          and abs(f["buffer_ms"] - 42.67) < 1, f"the default is the desktop preset ({f['latency']}, "
          f"{f['period_ms']}/{f['buffer_ms']} ms)")
    check(0 <= m["headroom_min_ms"] <= m["headroom_p1_ms"] <= 43,
          f"min <= p1 headroom <= the buffer ({m['headroom_min_ms']}, {m['headroom_p1_ms']} ms)")
    # a 43 ms buffer leaves ~21 ms of margin: on a busy machine (other tests, builds) even a
    # SCHED_FIFO player can miss it, so cleanliness is judged only where the machine is quiet
    with open("/proc/loadavg") as f:
        load = float(f.read().split()[0])
    if load < os.cpu_count():
        check(m["underruns"] == 0 and m["sound_rating"] == 10.0,
              f"idle on a quiet machine (load {load}): 0 underruns, 10.0 (got "
              f"{m['underruns']}, {m['sound_rating']})")
        check(plugin == [], "the plugin saw no underrun either")
        check(m["headroom_p1_ms"] > 0, f"p1 headroom above 0 ({m['headroom_p1_ms']} ms)")
    else:
        print(f"NOTE: load {load} on {os.cpu_count()} CPUs: the machine is not quiet; idle "
              f"cleanliness not judged ({m['underruns']:.0f} underruns)")


def gap_list(doc):
    return doc["audio"]["baseline"]["detail"]["gaps"]


def agree(gaps, plugin, tol_ms=15.0):
    """The probe's gaps match the plugin's own record of each underrun. Both clocks are
    CLOCK_MONOTONIC; on a loaded machine the probe may see its restart up to a few scheduler
    ticks after the plugin does, so the bound is under one 25 ms period, not zero."""
    check(len(plugin) == len(gaps), f"plugin log has {len(plugin)} underruns, probe {len(gaps)}")
    for g, (dry, resume) in zip(gaps, plugin):
        d_dry = abs(g["t_mono"] - dry) * 1000
        d_gap = abs(g["duration_ms"] - (resume - dry) * 1000)
        check(d_dry <= tol_ms and d_gap <= tol_ms,
              f"plugin agrees: dry off by {d_dry:.2f} ms, gap off by {d_gap:.2f} ms")


def expect_gap(g, t_stop, t_cont, period_ms=25.0, buffer_ms=100.0, slack_ms=30.0):
    """Silence = stall minus the audio that was buffered when the probe stopped: at most a
    full buffer (usually between buffer-period and buffer, less when a loaded machine made the
    probe late to refill before the stop); resume follows SIGCONT (plus scheduling)."""
    stall_ms = (t_cont - t_stop) * 1000
    lo, hi = stall_ms - buffer_ms - slack_ms / 3, stall_ms + slack_ms
    buffered = (g["t_mono"] - t_stop) * 1000
    check(lo <= g["duration_ms"] <= hi,
          f"gap {g['duration_ms']:.1f} ms for a {stall_ms:.1f} ms stall (want {lo:.0f}..{hi:.0f})")
    check(-5 <= buffered <= buffer_ms + 5,
          f"buffered audio at the stop {buffered:.1f} ms is within the buffer "
          f"(usually {buffer_ms - period_ms:.0f}..{buffer_ms:.0f})")


def stall_one():
    doc, out, truth, plugin = run_probe("stall", 6, extra=SHIELD, actions=lambda pid: [stall(pid, 0.3)])
    m, gaps = metrics(doc), gap_list(doc)
    check(m["underruns"] == 1, f"exactly one underrun (got {m['underruns']})")
    check(m["skips"] == 1 and len(gaps) == 1, "one skip, one gap")
    if gaps:
        expect_gap(gaps[0], *truth[0])
        check(abs(m["played_s"] - (m["window_s"] - gaps[0]["duration_ms"] / 1000)) < 0.002,
              "played = window - silence")
    det = doc["audio"]["baseline"]["detail"]
    check(det["clean_seconds"] in (det["seconds"] - 1, det["seconds"] - 2),
          f"one or two seconds touched ({det['clean_seconds']} of {det['seconds']} clean)")
    check(m["sound_rating"] == round(100 * det["clean_seconds"] / det["seconds"]) / 10,
          f"rating {m['sound_rating']} = 10 x clean / seconds")
    check(m["sound_rating"] < 10 and m["played_s"] < m["window_s"], "rating and played moved")
    agree(gaps, plugin)


def threads(pid):
    """{thread name: (tid, its allowed CPUs)} of a process."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                st = dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
        except OSError:
            continue
        out[st["Name"]] = (int(tid), st["Cpus_allowed_list"])
    return out


def watcher():
    """The watcher thread takes the 250 ms readings off the player's CPU: with the player pinned
    to one CPU it runs on the others, costs the player nothing, and a gap's evidence starts at
    a reading taken at most 250 ms (plus scheduling) before the stall."""
    cpus = sorted(os.sched_getaffinity(0))
    seen = {}

    def act(pid):
        seen.update(threads(pid))
        return [stall(pid, 0.4)]

    pin = ["--probe-cpus", str(cpus[-1])] if len(cpus) > 1 else []
    doc, out, truth, _ = run_probe("watcher", 5, extra=SHIELD + pin, actions=act)
    m, gaps = metrics(doc), gap_list(doc)
    f = doc["audio"]["facts"]
    check(f.get("readings_by") == "watcher", f"readings by the watcher (got {f.get('readings_by')})")
    check(set(seen) == {"vmsuite-probe", "vmsuite-watch"},
          f"two threads, the player and the watcher (got {sorted(seen)})")
    if pin and "vmsuite-watch" in seen and "vmsuite-probe" in seen:
        check(seen["vmsuite-probe"][1] == str(cpus[-1]),
              f"the player on CPU {cpus[-1]} (allowed: {seen['vmsuite-probe'][1]})")
        check(str(cpus[-1]) not in seen["vmsuite-watch"][1].replace("-", ",").split(","),
              f"the watcher off the player's CPU (allowed: {seen['vmsuite-watch'][1]})")
    check(m.get("probe_watch_cpu_pct", 0) > 0 and m["probe_cpu_pct"] > 0,
          f"the player's and the watcher's CPU recorded ({m['probe_cpu_pct']} %, "
          f"{m.get('probe_watch_cpu_pct')} %)")
    check(m["underruns"] == 1 and len(gaps) == 1, f"one underrun (got {m['underruns']})")
    if len(gaps) == 1 and truth:
        t_stop, t_cont = truth[0]
        ev = gaps[0]["evidence"]
        # the window runs from the newest reading before the wake-up that preceded the stall
        # to the resume: the stall, plus up to 250 ms + a period before it, plus scheduling
        stall_ms = (t_cont - t_stop) * 1000
        check(stall_ms - 10 <= ev["interval_ms"] <= stall_ms + 250 + 25 + 80,
              f"evidence over {ev['interval_ms']:.0f} ms for a {stall_ms:.0f} ms stall "
              f"(want {stall_ms - 10:.0f}..{stall_ms + 355:.0f})")


def stalls():
    lengths = [0.05, 0.15, 0.4, 0.7]

    def act(pid):
        t = []
        for s in lengths:
            t.append(stall(pid, s))
            time.sleep(1.2)
        return t

    doc, out, truth, plugin = run_probe("stalls", 8, extra=SHIELD, actions=act, settle=1.0)
    m, gaps = metrics(doc), gap_list(doc)
    # a 50 ms stall is covered by the 75-100 ms buffered: no underrun
    check(m["underruns"] == 3, f"3 underruns for stalls {lengths} s (got {m['underruns']})")
    check(m["skips"] == 3 and len(gaps) == 3, "three skips, three gaps")
    if len(gaps) == 3:
        for g, tr in zip(gaps, truth[1:]):
            expect_gap(g, *tr)
        want_total = sum((c - s) * 1000 for s, c in truth[1:])
        check(want_total - 300 - 10 <= m["gap_total_ms"] <= want_total + 90,
              f"total gap {m['gap_total_ms']:.1f} ms vs {want_total:.1f} ms stalled")
        want_long = (truth[3][1] - truth[3][0]) * 1000
        check(want_long - 110 <= m["gap_longest_ms"] <= want_long + 30,
              f"longest gap {m['gap_longest_ms']:.1f} ms vs the {want_long:.1f} ms stall")
    agree(gaps, plugin)


def runqueue():
    if not can_fifo():
        print("SKIP: cannot use SCHED_FIFO here (needs root or CAP_SYS_NICE)")
        sys.exit(77)  # ctest's skip status (SKIP_RETURN_CODE 77)

    def act(pid):
        # a bounded busy loop at real-time priority on CPU 0, where the probe is pinned
        hog = subprocess.Popen(["timeout", "-s", "KILL", "0.5", "chrt", "-f", "10", "taskset",
                                "-c", "0", "sh", "-c", "while :; do :; done"])
        hog.wait()
        return []

    doc, out, _, plugin = run_probe("runqueue", 5, extra=["--probe-cpus", "0"], actions=act)
    m, gaps = metrics(doc), gap_list(doc)
    causes = doc["audio"]["baseline"]["detail"]["causes"]
    check(m["underruns"] >= 1, f"the hog caused an underrun (got {m['underruns']})")
    # a major fault at the same time would rightly say paging (that rule comes first)
    # (a test running beside this one may have turned delay accounting on: no "paging" then)
    check(causes["runqueue"] >= 1 and causes["runqueue"] + causes.get("paging", 0) == len(gaps),
          f"the hog's gaps are caused by runqueue (causes {causes})")
    for g in gaps:
        ev = g.get("evidence", {})
        check(ev.get("runqueue_ms", 0) >= ev.get("late_ms", 0) / 2 or ev.get("major_faults"),
              f"run-queue wait {ev.get('runqueue_ms', 0):.0f} ms explains lateness "
              f"{ev.get('late_ms', 0):.0f} ms")
    check("runqueue" in out, "the Sound block names the cause")


def suspend():
    """The device suspends once 1.5 s into playing (the plugin's suspend_at_ms): the probe
    sees -ESTRPIPE, records the gap as a suspend, recovers and plays on."""
    doc, out, _, plugin = run_probe("suspend", 5, extra=SHIELD, env_extra={"VMSUITE_VCLOCK_SUSPEND_AT_MS": "1500"})
    m, gaps = metrics(doc), gap_list(doc)
    susp = plugin_suspends("suspend")
    check(len(susp) == 1, f"the plugin suspended once (log: {susp})")
    marked = [g for g in gaps if g.get("suspend")]
    check(len(marked) == 1, f"exactly one gap recorded as a suspend (gaps: {gaps})")
    check(all(not g.get("suspend") for g in gaps if g not in marked), "other gaps are not suspends")
    # a loaded machine may add underruns of its own; the suspend is one of them
    check(m["underruns"] >= 1 and m["underruns"] == len(gaps),
          f"the suspend counts as an underrun ({m['underruns']} underruns, {len(gaps)} gaps)")
    if len(susp) == 1 and marked:
        at, resume = float(susp[0][3]), susp[0][5]
        g = marked[0]
        # the probe sees it at the wake that suspended the device, or at most one period later
        check(-0.005 <= g["t_mono"] - at <= 0.025 + 0.005,
              f"the suspend gap starts at the suspend ({(g['t_mono'] - at) * 1000:.2f} ms after)")
        # from when it started playing: the window starts later, after the real-time check
        into = g["t_mono"] - doc["audio"]["facts"]["t_playing"]
        check(1.4 <= into <= 1.6 + 0.1, f"1.5 s into playing ({into:.3f} s)")
        check(resume != "-", "the plugin was started again after the suspend")
        if resume != "-":
            # within a period: once, at load average ~4, the probe's resume time came ~10 ms
            # after the device's own start (a known loose end, see trigger_time() in probe.c)
            plugin_ms = (float(resume) - at) * 1000
            check(-5.0 <= g["duration_ms"] - plugin_ms <= 25.0 + 5.0,
                  f"gap {g['duration_ms']:.2f} ms agrees with the plugin's {plugin_ms:.2f} ms "
                  f"within a period")
    # playing went on: a 5 s window with the suspend at 1.5 s plays well over 3 s after it
    # unless the machine starves the probe for seconds
    check(m["played_s"] >= 4.5 and m["window_s"] >= 4.9,
          f"played {m['played_s']} of {m['window_s']} s: playback continued after the suspend")
    check(abs(m["played_s"] - (m["window_s"] - m["gap_total_ms"] / 1000)) < 0.002,
          "played = window - silence")
    check("Sound (idle baseline): " in out, "Sound line printed")


{"clean": clean, "clean_desktop": clean_desktop, "stall": stall_one, "stalls": stalls, "runqueue": runqueue,
 "suspend": suspend, "watcher": watcher}[sys.argv[1]]()
if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
