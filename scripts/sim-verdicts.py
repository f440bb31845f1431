#!/usr/bin/env python3
"""Simulates `vmsuite compare` verdicts on synthetic result files with known truth.

The documents come from tests/compare/gen-result (one template: fingerprint, protocol, the
runner's shape); this script keeps one workload, gives it two primary gauge metrics (elapsed_s,
sys_s) with log-normal runs of a chosen cv, and runs the real `vmsuite compare` binary on every
pair. Per cell (cv, runs per side):

  null   A and B from the same distribution: the rate of exit 1 (a false regression), the
         --bisect reading (1 bad, 0 good; the JSON's bisect_exit) and the outcome mix (no
         change / no regression shown / cannot tell / regression)
  power  at the runs-needed the null pair's VERDICT printed (n≈N, the largest): new A and B
         with N runs each, B's elapsed_s × (1 + detect): the rate of exit 1

With --wander RHO the runs of a suite are not independent: in run order their logs are a
stationary AR(1) series with lag-1 correlation RHO (the same cv), as on a machine whose pace
wanders; an 80-run suite at RHO 0.9 holds about as much as 4 independent runs.

With --suites J (2 or more) each side is J suites of n runs, `compare A1..AJ -- B1..BJ`, and
a cell may name the drift between suites, cv:n:drift: every suite's metrics are scaled by a
log-normal factor of that sd (one per suite and metric: separate boots move a suite as a
whole). Per cell:

  null   the rate of exit 1, the --bisect readings and the outcome mix, as above
  change with --change PCT: new sides of the same shape, B's elapsed_s × (1 + PCT/100): the
         rate of exit 1 (the runs-needed power is not measured: it counts runs, not suites)

Each rate is printed with its 95 % Wilson interval. --check compares the rates with generous
bounds (for the fixed-seed ctest): exit 1 means a bound was crossed.

usage: sim-verdicts.py --vmsuite BIN --gen GEN-RESULT [--seeds N] [--cells cv:n[:drift],...]
                       [--suites J [--change PCT]] [--detect PCT] [--wander RHO]
                       [--max-runs N] [--jobs N]
                       [--check] [--tmp DIR]
"""
import argparse
import json
import multiprocessing
import math
import os
import random
import shutil
import subprocess
import signal
import sys
import tempfile


def wilson(k, n, z=1.959964):
    """The 95 % Wilson score interval of k successes in n trials, as percentages."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (100 * max(0.0, c - h), 100 * min(1.0, c + h))


def rate(k, n):
    lo, hi = wilson(k, n)
    return f"{100 * k / n if n else float('nan'):5.1f}% [{lo:4.1f},{hi:5.1f}] ({k}/{n})"


class Sim:
    def __init__(self, args, name):
        self.args = args
        self.tmp = os.path.join(args.tmp, name)
        os.makedirs(self.tmp, exist_ok=True)
        tpl = os.path.join(self.tmp, "template.json")
        subprocess.run([args.gen, "-o", tpl, "--runs", "1"], check=True)
        with open(tpl) as f:
            self.template = json.load(f)
        wl = self.template["workloads"][0]
        self.run0 = wl["runs"][0]
        self.calls = 0

    def doc(self, rng, n, cv, shift, label, drift=0.0):
        """A result document: one workload, elapsed_s (× 1 + shift) and sys_s, n runs; drift:
        the sd of a log-normal factor on each metric's runs (the suite's own level)."""
        d = json.loads(json.dumps(self.template))
        d["label"] = label
        wl = d["workloads"][0]
        d["workloads"] = [wl]
        sd = math.sqrt(math.log1p(cv * cv))
        runs = []
        for i in range(n):
            r = dict(self.run0)
            r["index"] = i + 1
            runs.append(r)
        wl["runs"] = runs
        ms = {}
        for name, mean, s in (("elapsed_s", 250.0, shift), ("sys_s", 15.0, 0.0)):
            mu = math.log(mean * (1 + s)) - sd * sd / 2
            if drift:
                mu += rng.gauss(0, drift)
            rho = self.args.wander
            if rho:
                # runs in order as a stationary AR(1) on the log scale: the same marginal
                # spread, neighbours alike (a host whose pace wanders)
                x, logs = rng.gauss(0, sd), []
                for _ in range(n):
                    logs.append(x)
                    x = rho * x + math.sqrt(1 - rho * rho) * rng.gauss(0, sd)
                samples = [round(math.exp(mu + v), 6) for v in logs]
            else:
                samples = [round(rng.lognormvariate(mu, sd), 6) for _ in range(n)]
            ms[name] = {
                "unit": "s",
                "better": "lower",
                "kind": "gauge",
                "primary": True,
                "samples": samples,
            }
        wl["metrics"] = ms
        return d

    def compare(self, a, b, n):
        """One `vmsuite compare --format json`: its exit status, the --bisect reading (None
        when the JSON lacks it: an older vmsuite), the outcome, and the runs needed (the
        largest n≈N of an inconclusive primary metric above n). a and b are documents, or
        lists of documents (the suites of a side: compare A1 A2 -- B1 B2)."""
        paths = []
        for side, docs in (("a", a), ("b", b)):
            docs = docs if isinstance(docs, list) else [docs]
            for j, d in enumerate(docs):
                paths.append(os.path.join(self.tmp, f"{side}{j + 1}.json"))
                with open(paths[-1], "w") as f:
                    json.dump(d, f)
            if side == "a" and isinstance(a, list):
                paths.append("--")
        p = subprocess.run([self.args.vmsuite, "compare", "--format", "json"] + paths,
                           capture_output=True, text=True)
        self.calls += 1
        doc = json.loads(p.stdout)
        side = doc["files"][1]
        need = 0
        for w in doc["workloads"]:
            for m in w["metrics"]:
                o = m["others"][0]
                if (m["primary"] and o["verdict"] == "inconclusive" and o["runs_needed"]
                        and o["runs_needed"] > n):
                    need = max(need, o["runs_needed"])
        return p.returncode, side.get("bisect_exit"), side.get("outcome", "?"), need


def run_suites_cell(args, cv, n, drift):
    """The null (and --change) figures of one cell of J suites a side."""
    J = args.suites
    sim = Sim(args, f"{cv}-{n}-{drift}")
    rng = random.Random(f"{cv}:{n}:{drift}:{J}")
    exit1 = bad1 = good = hits = 0
    mix, bad = {}, []

    def side(label, shift):
        return [sim.doc(rng, n, cv, shift, label, drift) for _ in range(J)]

    for _ in range(args.seeds):
        rc, brc, k, _ = sim.compare(side("a", 0), side("b", 0), n)
        exit1 += rc == 1
        bad1 += brc == 1
        good += brc == 0
        mix[k] = mix.get(k, 0) + 1
        if args.change is not None:
            rc, _, _, _ = sim.compare(side("a", 0), side("b", args.change / 100), n)
            hits += rc == 1
    mixs = ", ".join(f"{k} {v}" for k, v in sorted(mix.items()))
    line = (f"{100 * cv:3g}% {n:3d} {100 * drift:5g}%  {rate(exit1, args.seeds):<28} "
            f"{rate(bad1, args.seeds):<26} {rate(good, args.seeds):<26} {mixs}")
    if args.change is not None:
        line += f"  |  {rate(hits, args.seeds)}"
    if 100 * exit1 / args.seeds > args.null_max:
        bad.append(f"cv {cv} n {n} drift {drift}: null exit 1 in "
                   f"{100 * exit1 / args.seeds:.1f}%")
    return line, bad, sim.calls


def run_cell(job):
    """The null and power figures of one cell: (its table line, failed bounds, calls)."""
    args, cv, n, drift = job
    if args.suites > 1:
        return run_suites_cell(args, cv, n, drift)
    sim = Sim(args, f"{cv}-{n}")
    rng = random.Random(f"{cv}:{n}")
    exit1 = bad1 = good = hits = tries = capped = 0
    mix, ns, bad = {}, [], []
    for _ in range(args.seeds):
        a = sim.doc(rng, n, cv, 0, "a")
        b = sim.doc(rng, n, cv, 0, "b")
        rc, brc, k, need = sim.compare(a, b, n)
        exit1 += rc == 1
        bad1 += brc == 1
        good += brc == 0
        mix[k] = mix.get(k, 0) + 1
        if need > n:
            if need > args.max_runs:
                capped += 1
                continue
            ns.append(need)
            a = sim.doc(rng, need, cv, 0, "a")
            b = sim.doc(rng, need, cv, args.detect / 100, "b")
            rc, _, _, _ = sim.compare(a, b, need)
            tries += 1
            hits += rc == 1
    ns.sort()
    med = ns[len(ns) // 2] if ns else 0
    mixs = ", ".join(f"{k} {v}" for k, v in sorted(mix.items()))
    extra = f" ({capped} above --max-runs left out)" if capped else ""
    line = (f"{100 * cv:3g}% {n:3d}  {rate(exit1, args.seeds):<28} "
            f"{rate(bad1, args.seeds):<26} {rate(good, args.seeds):<26} {mixs}  |  "
            f"{rate(hits, tries) if tries else 'nothing printed':<28} {med}{extra}")
    if 100 * exit1 / args.seeds > args.null_max:
        bad.append(f"cv {cv} n {n}: null exit 1 in {100 * exit1 / args.seeds:.1f}%")
    if tries and 100 * hits / tries < args.power_min:
        bad.append(f"cv {cv} n {n}: power {100 * hits / tries:.1f}% at the printed n")
    if not tries and args.check:
        bad.append(f"cv {cv} n {n}: no runs-needed printed, power not measured")
    return line, bad, sim.calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vmsuite", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--seeds", type=int, default=2000)
    ap.add_argument("--cells", default="0.02:3,0.02:5,0.02:10,0.05:3,0.05:5,0.05:10,"
                    "0.10:3,0.10:5,0.10:10,0.25:3,0.25:5,0.25:10")
    ap.add_argument("--suites", type=int, default=1,
                    help="suites a side (2 or more: compare A1..AJ -- B1..BJ)")
    ap.add_argument("--change", type=float,
                    help="--suites: also the exit-1 rate for a true change of PCT %%")
    ap.add_argument("--detect", type=float, default=5.0)
    ap.add_argument("--wander", type=float, default=0.0,
                    help="lag-1 correlation of consecutive runs (AR(1) on ln x), 0-0.99")
    ap.add_argument("--max-runs", type=int, default=5000)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--null-max", type=float, default=10.0,
                    help="--check: largest null exit-1 rate allowed, percent")
    ap.add_argument("--power-min", type=float, default=60.0,
                    help="--check: smallest power at the printed runs allowed, percent")
    ap.add_argument("--jobs", type=int, default=1, help="cells simulated at once")
    ap.add_argument("--tmp")
    args = ap.parse_args()
    if not 0 <= args.wander < 1:
        ap.error(f"--wander must be in [0, 1), not {args.wander}")
    own = not args.tmp
    # SIGTERM and SIGHUP end through the finally below, so the directory goes too
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGHUP, lambda *_: sys.exit(129))
    if own:
        args.tmp = tempfile.mkdtemp(prefix="vms-sim-")
    try:
        return simulate(args)
    finally:
        if own:
            shutil.rmtree(args.tmp, ignore_errors=True)


def simulate(args):
    cells = []
    for c in args.cells.split(","):
        f = c.split(":")
        cells.append((float(f[0]), int(f[1]), float(f[2]) if len(f) > 2 else 0.0))
    if args.suites > 1:
        print(f"# {args.seeds} seeds a cell; {args.suites} suites a side of n runs, drift "
              f"between suites log-normal (per suite and metric); 2 primary metrics "
              f"(elapsed_s, sys_s), log-normal"
              + (f"; change: elapsed_s x {1 + args.change / 100:g}"
                 if args.change is not None else ""))
        print(f"{'cv':>4} {'n':>3} {'drift':>6}  {'null exit 1':<28} {'bisect bad':<26} "
              f"{'bisect good':<26} outcomes (null)"
              + ("  |  exit 1 with the change" if args.change is not None else ""),
              flush=True)
    else:
        print(f"# {args.seeds} seeds a cell; 2 primary metrics (elapsed_s, sys_s), log-normal; "
              f"power: elapsed_s x {1 + args.detect / 100:g} at the printed runs-needed")
        print(f"{'cv':>4} {'n':>3}  {'null exit 1':<28} {'bisect bad':<26} {'bisect good':<26} "
              f"outcomes (null)  |  {'power at printed n':<28} median n", flush=True)
    bad, calls = [], 0
    with multiprocessing.Pool(args.jobs) as pool:
        for line, b, c in pool.imap(run_cell, [(args, cv, n, d) for cv, n, d in cells]):
            print(line, flush=True)
            bad += b
            calls += c
    print(f"# {calls} compare calls")
    if args.check:
        for b in bad:
            print(f"FAIL: {b}")
        if bad:
            return 1
        print("ok: every rate within the bounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
