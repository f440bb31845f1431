#!/usr/bin/env python3
"""Writes synthetic vmsuite.result/1 files for the HTML report's tests and benchmark.

Starts from a real-shaped result (tests/data/golden-result.json by default), adds per-run time
series in the runner's layout and, with --audio, the audio probe's per-run window detail
(gaps with causes and evidence, latency histogram, per-second buffer fill), its metrics in the
workload's "metrics" map and an idle baseline in doc["audio"]. Deterministic for a given seed.
"""
import argparse
import json
import math
import random

CAUSES = ["paging", "runqueue", "io", "decode", "unexplained"]
EDGES = [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]


def series(rng, seconds, hz, gaps):
    n = int(round(seconds * hz)) + 1
    t = [round(i / hz, 3) for i in range(n)]
    cols = {k: [] for k in ["pgfault", "pgmajfault", "pswpin", "pswpout", "pgscan", "pgsteal",
                            "psi_memory_some_us", "psi_io_some_us", "mem_free_kib",
                            "dirty_kib", "writeback_kib", "swap_used_kib"]}
    acc = {k: 0 for k in cols}
    free = 20 * 1024 * 1024
    for i, ti in enumerate(t):
        burst = any(g[0] - 1.0 <= ti <= g[0] + g[1] / 1000 + 0.5 for g in gaps)
        if i:
            dt = 1 / hz
            acc["pgfault"] += int(dt * (20000 + rng.random() * 5000 + (300000 if burst else 0)))
            acc["pgmajfault"] += int(dt * ((4000 + rng.random() * 800) if burst else rng.random() * 20))
            acc["pswpin"] += int(dt * (2500 if burst else 0))
            acc["pswpout"] += int(dt * ((6000 + rng.random() * 1000) if burst else 50 * rng.random()))
            acc["pgscan"] += int(dt * (30000 if burst else 1000))
            acc["pgsteal"] += int(dt * (25000 if burst else 800))
            acc["psi_memory_some_us"] += int(dt * 1e6 * (0.6 if burst else 0.02 * rng.random()))
            acc["psi_io_some_us"] += int(dt * 1e6 * (0.35 if burst else 0.05 * rng.random()))
            free = max(200 * 1024, free - int(dt * 90 * 1024) + (int(dt * 400 * 1024) if burst else 0))
        for k in ["pgfault", "pgmajfault", "pswpin", "pswpout", "pgscan", "pgsteal",
                  "psi_memory_some_us", "psi_io_some_us"]:
            cols[k].append(acc[k])
        cols["mem_free_kib"].append(free)
        cols["dirty_kib"].append(int(40000 * (ti % 30) / 30 + rng.random() * 1000))
        cols["writeback_kib"].append(int(20000 if (ti % 30) > 27 else 0))
        cols["swap_used_kib"].append(min(acc["pswpout"] * 4, 4 * 1024 * 1024))
    units = {"pgfault": "faults", "pgmajfault": "faults", "psi_memory_some_us": "us",
             "psi_io_some_us": "us"}
    out = {}
    for k, v in cols.items():
        cum = not k.endswith("_kib")
        out[k] = {"unit": units.get(k, "KiB" if not cum else "pages"), "cumulative": cum,
                  "values": v}
    return {"interval_s": 1 / hz, "t_s": t, "columns": out}


def audio_detail(rng, seconds, gaps, t0):
    nsec = int(math.ceil(seconds))
    fill, late, gms, xr = [], [], [], []
    for s in range(nsec):
        inside = [g for g in gaps if g[0] < s + 1 and g[0] + g[1] / 1000 > s]
        fill.append(0.0 if inside else round(60 + rng.random() * 35, 3))
        late.append(round(g_late(rng, inside), 3))
        gms.append(round(sum(min(g[0] + g[1] / 1000, s + 1) - max(g[0], s) for g in inside) * 1000, 3))
        xr.append(sum(1 for g in gaps if s <= g[0] < s + 1))
    hist = [0] * len(EDGES)
    wakes = nsec * 50
    for _ in range(wakes):
        v = rng.expovariate(1.5)
        hist[max(i for i, e in enumerate(EDGES) if v >= e)] += 1
    for g in gaps:
        hist[max(i for i, e in enumerate(EDGES) if g[1] >= e)] += 1
    causes = {c: sum(1 for g in gaps if g[2] == c) for c in CAUSES}
    return {
        "t0": t0, "t1": t0 + seconds, "seconds": nsec,
        "clean_seconds": nsec - sum(1 for v in gms if v > 0),
        "gaps": [{"start_s": g[0], "t_mono": t0 + g[0], "duration_ms": g[1], "cause": g[2],
                  "evidence": {"late_ms": g[1] + 20, "interval_ms": 10.0,
                               "major_faults": 12 if g[2] == "paging" else 0,
                               "minor_faults": 300, "runqueue_ms": 40 if g[2] == "runqueue" else 1,
                               "cpu_ms": 2.0, "psi_memory_ms": 35.0, "psi_io_ms": 12.0}}
                 for g in gaps],
        "causes": causes,
        "latency_hist": {"lower_ms": EDGES, "count": hist},
        "series": {"t_s": list(range(nsec)), "fill_min_ms": fill, "wake_late_max_ms": late,
                   "gap_ms": gms, "underruns": xr},
    }, wakes


def g_late(rng, inside):
    return max([g[1] for g in inside] + [rng.random() * 3])


def put(metrics, name, unit, better, primary, kind, i, v, nruns):
    m = metrics.setdefault(name, {"unit": unit, "better": better, "primary": primary,
                                  "kind": kind, "samples": [None] * nruns})
    while len(m["samples"]) < nruns:
        m["samples"].append(None)
    m["samples"][i] = v


def audio_metrics(metrics, i, nruns, seconds, gaps):
    total = sum(g[1] for g in gaps)
    put(metrics, "sound_rating", "score", "higher", True, "gauge", i,
        round(10 * (1 - len(gaps) / max(1, math.ceil(seconds))), 1), nruns)
    put(metrics, "underruns", "count", "lower", True, "count", i, len(gaps), nruns)
    put(metrics, "skips", "count", "lower", False, "count", i, len(gaps), nruns)
    put(metrics, "gap_total_ms", "ms", "lower", False, "gauge", i, total, nruns)
    put(metrics, "gap_longest_ms", "ms", "lower", False, "gauge", i,
        max([g[1] for g in gaps] + [0]), nruns)
    put(metrics, "played_s", "s", "higher", False, "gauge", i, round(seconds - total / 1000, 3), nruns)
    put(metrics, "window_s", "s", "none", False, "gauge", i, round(seconds, 3), nruns)
    for name, v in [("wake_p50_ms", 0.4), ("wake_p90_ms", 1.6), ("wake_p99_ms", 3.1),
                    ("wake_p999_ms", 9.5), ("wake_max_ms", max([g[1] for g in gaps] + [4.0]))]:
        put(metrics, name, "ms", "lower", False, "gauge", i, v, nruns)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, default=20, help="length of every run's series")
    ap.add_argument("--hz", type=float, default=10)
    ap.add_argument("--audio", action="store_true")
    ap.add_argument("--no-series", action="store_true")
    ap.add_argument("--gaps", type=int, default=3, help="gaps per run with audio")
    ap.add_argument("--only", help="keep only this workload, with one run")
    ap.add_argument("--seed", type=int, default=6)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    doc = json.load(open(a.base))
    if a.only:
        doc["workloads"] = [w for w in doc["workloads"] if w["name"] == a.only]
        for w in doc["workloads"]:
            w["runs"] = w["runs"][:1]
            for m in w["metrics"].values():
                m["samples"] = m["samples"][:1]
    doc["protocol"]["with_audio"] = a.audio
    doc["protocol"]["sample_hz"] = a.hz
    t = 1000.0
    for w in doc["workloads"]:
        nruns = len(w["runs"])
        for i, run in enumerate(w["runs"]):
            seconds = a.seconds
            run["t_start"], run["t_end"] = t, t + seconds
            gaps = []
            if a.audio:
                for k in range(a.gaps):
                    start = round(seconds * (k + 1) / (a.gaps + 1) + rng.random() * 0.5, 3)
                    gaps.append((start, round(40 + rng.random() * 400, 3), CAUSES[k % len(CAUSES)]))
            if not a.no_series:
                run["series"] = series(rng, seconds, a.hz, gaps)
            if a.audio:
                run["audio"], _ = audio_detail(rng, seconds, gaps, t)
                if run["status"] == "ok":
                    audio_metrics(w["metrics"], i, nruns, seconds, gaps)
            else:
                run["audio"] = None
            t += seconds + 5
    if a.audio:
        detail, _ = audio_detail(rng, 10, [(4.2, 25.0, "unexplained")], 900.0)
        bm = {}
        audio_metrics(bm, 0, 1, 10, [(4.2, 25.0, "unexplained")])
        doc["audio"] = {"facts": {"device": "null", "rate": 44100, "period_ms": 10.0,
                                  "buffer_ms": 100.0},
                        "baseline": {"metrics": bm, "detail": detail}}
    else:
        doc["audio"] = None
    with open(a.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
