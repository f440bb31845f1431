#!/usr/bin/env python3
"""Independent reference values for tests/compare/test_stats.c.

Uses only the Python standard library (math, statistics): the t distribution's tail is a
Simpson integration of its density (substituting x = tan(theta) so the range is finite), its
quantiles are found by bisection on that integral, and Fisher's exact test enumerates the
hypergeometric probabilities with math.comb. Nothing here shares code with GSL. Run it to
reproduce the numbers pasted into test_stats.c:  python3 tests/compare/reference.py
"""
import math
import statistics


def t_density(x, nu):
    c = math.exp(math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2)) / math.sqrt(nu * math.pi)
    return c * (1 + x * x / nu) ** (-(nu + 1) / 2)


def t_upper_tail(t, nu, steps=200000):
    """P(T > t) for t >= 0 by Simpson's rule over theta in [atan(t), pi/2]."""
    a, b = math.atan(t), math.pi / 2
    h = (b - a) / steps

    def g(theta):
        if theta >= math.pi / 2:
            return 0.0 if nu > 1 else t_density(0, nu) * 0 + 1 / math.pi  # nu=1: limit 1/pi
        x = math.tan(theta)
        return t_density(x, nu) / math.cos(theta) ** 2

    s = g(a) + g(b)
    for i in range(1, steps):
        s += g(a + i * h) * (4 if i % 2 else 2)
    return s * h / 3


def t_quantile(p, nu):
    """x with P(T <= x) = p, for p > 0.5, by bisection."""
    lo, hi = 0.0, 1000.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if 1 - t_upper_tail(mid, nu, 20000) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def welch(a, b, alpha=0.05):
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    t = (mb - ma) / se
    p = 2 * t_upper_tail(abs(t), df)
    q = t_quantile(1 - alpha / 2, df)
    return dict(diff=mb - ma, se=se, df=df, t=t, p=p, lo=mb - ma - q * se, hi=mb - ma + q * se)


def fisher(a_ev, a_n, b_ev, b_n):
    t = a_ev + b_ev
    n = a_n + b_n

    def pk(k):
        return math.comb(a_n, k) * math.comb(b_n, t - k) / math.comb(n, t)

    p_obs = pk(a_ev)
    return sum(pk(k) for k in range(max(0, t - b_n), min(t, a_n) + 1)
               if pk(k) <= p_obs * (1 + 1e-7))


def paired_log(a, b, alpha=0.05):
    d = [math.log(y / x) for x, y in zip(a, b)]
    m, se = statistics.fmean(d), statistics.stdev(d) / math.sqrt(len(d))
    df = len(d) - 1
    t = m / se
    q = t_quantile(1 - alpha / 2, df)
    return dict(ratio=math.exp(m), lo=math.exp(m - q * se), hi=math.exp(m + q * se),
                p=2 * t_upper_tail(abs(t), df), df=df)


def holm(p):
    order = sorted(range(len(p)), key=lambda i: p[i])
    adj, run = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (len(p) - rank) * p[i]))
        adj[i] = run
    return adj


def suite_means(a_suites, b_suites, alpha=0.05):
    """t-test on the suites' log means with the between-suite variance pooled over both sides."""
    la = [statistics.fmean(math.log(x) for x in s) for s in a_suites]
    lb = [statistics.fmean(math.log(x) for x in s) for s in b_suites]
    ss = sum((x - statistics.fmean(la)) ** 2 for x in la) + \
        sum((x - statistics.fmean(lb)) ** 2 for x in lb)
    df = (len(la) - 1) + (len(lb) - 1)
    s2b = ss / df
    se = math.sqrt(s2b * (1 / len(la) + 1 / len(lb)))
    diff = statistics.fmean(lb) - statistics.fmean(la)
    q = t_quantile(1 - alpha / 2, df)
    return dict(ratio=math.exp(diff), lo=math.exp(diff - q * se), hi=math.exp(diff + q * se),
                p=2 * t_upper_tail(abs(diff / se), df), df=df)


CASES = {
    # Welch's worked example 1 on Wikipedia's "Welch's t-test" page (two samples of 15).
    "wiki_a1": [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0,
                21.7, 21.4],
    "wiki_a2": [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9,
                20.5, 24.4],
    # Unequal sizes and variances.
    "small_a": [10, 11, 12, 13, 14],
    "small_b": [12, 14, 15, 17, 20, 21],
    # The 2001 tester's mmap001 elapsed times (s) against a slower made-up kernel.
    "mmap_a": [258.1, 253.1, 269.4, 255.2, 258.3],
    "mmap_b": [281.0, 276.4, 290.2, 279.9, 284.1],
}

if __name__ == "__main__":
    for nu in (1, 4, 10, 30):
        print(f"t quantile 0.975 df={nu}: {t_quantile(0.975, nu):.6f}")
    for name, (a, b) in {"wiki": ("wiki_a1", "wiki_a2"), "small": ("small_a", "small_b")}.items():
        r = welch(CASES[a], CASES[b])
        print(name, {k: round(v, 9) for k, v in r.items()})
    la = [math.log(x) for x in CASES["mmap_a"]]
    lb = [math.log(x) for x in CASES["mmap_b"]]
    r = welch(la, lb)
    print("mmap log", {k: round(v, 9) for k, v in r.items()},
          "ratio", math.exp(r["diff"]), "ratio_lo", math.exp(r["lo"]), "ratio_hi", math.exp(r["hi"]))
    for tab in ((3, 4, 1, 4), (5, 5, 0, 5), (4, 5, 0, 5), (1, 5, 0, 5), (2, 10, 7, 10), (0, 5, 0, 5)):
        print("fisher", tab, round(fisher(*tab), 10))
    print("paired mmap", paired_log(CASES["mmap_a"], CASES["mmap_b"]))
    print("holm", holm([0.01, 0.04, 0.03, 0.005]))
    print("suites", suite_means([[100, 102, 101], [110, 111, 109]],
                                [[104, 105, 103], [114, 113, 115]]))
    z = 1.959963984540054 + 0.8416212335729143  # textbook normal quantiles (0.975, 0.80)
    print("runs needed factor 2(z.975+z.8)^2 =", 2 * z * z)
