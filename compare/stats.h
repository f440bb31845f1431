/* Statistics for `vmsuite compare`: sample summaries, Welch's t-test (on log-values for the
 * ratio of geometric means, on raw values as a fallback), Fisher's exact test for "runs with an
 * event", and the runs needed to detect a change. Distributions come from GSL, whose abort()ing
 * error handler these functions turn off before their first call: a failure is a NaN they
 * check. No kernel paths. */
#ifndef VMS_STATS_H
#define VMS_STATS_H

#include <stddef.h>

/* Mean, sample standard deviation (n - 1), coefficient of variation and range of x[0..n).
 * n = 0 gives NAN everywhere; n = 1 gives sd = cv = NAN. cv = sd / |mean| (NAN when mean = 0). */
struct vms_summary {
	size_t n;
	double mean, sd, cv, min, max;
};
void vms_summarize(const double *x, size_t n, struct vms_summary *s);

/* The variance of the mean of x[0..n), the values in the order the runs were made, and its
 * degrees of freedom. Runs of one suite are not independent where the machine's speed wanders
 * over seconds to minutes (a VM whose host is shared): neighbouring runs are slow or fast
 * together, and s^2 / n understates how far the mean of a suite moves. From VMS_BATCH_MIN_RUNS
 * runs on, batch means: the runs in order cut into VMS_BATCHES batches of consecutive runs
 * (sizes differing by at most one); when the variance of the batch means over VMS_BATCHES
 * exceeds s^2 / n by more than independent runs would in 95 % of suites (chi-square with
 * VMS_BATCHES - 1 degrees of freedom), it is the variance, with VMS_BATCHES - 1 degrees of
 * freedom; otherwise (and below VMS_BATCH_MIN_RUNS runs) s^2 / n with n - 1. A rule fixed in
 * advance (docs/compare.md, Runs that are not independent). Returns 1 when batch means were
 * used, 0 otherwise, -EINVAL when n < 2. */
#define VMS_BATCH_MIN_RUNS 20
#define VMS_BATCHES        5
int vms_mean_var(const double *x, size_t n, double *var, double *df);

/* Welch's two-sample t-test of mean(b) - mean(a) with a (1 - alpha) confidence interval using
 * the Welch–Satterthwaite degrees of freedom. The variance of each side's mean is
 * vms_mean_var()'s; the side with fewer runs never has a per-run variance (its mean's variance
 * times its runs) below the other side's: a few runs in a row can agree by chance or because
 * they ran in the same slow or fast spell, and under "no change" both sides spread alike. Needs na
 * >= 2 and nb >= 2 (else -EINVAL and *w untouched) and 0 < alpha < 1. Returns -EDOM when the
 * samples have no finite variance or GSL cannot compute the distribution (values so large their
 * squares overflow). When both samples are constant (se = 0) the difference is exact: p = 1 if the
 * means are equal, else p = 0, the interval is the point, df = INFINITY. */
struct vms_welch {
	double diff; /* mean(b) - mean(a) */
	double se, df, t, p, lo, hi;
};
int vms_welch(const double *a, size_t na, const double *b, size_t nb, double alpha,
              struct vms_welch *w);

/* How the change of b against a was measured. */
enum vms_change_method {
	VMS_CHANGE_LOG, /* Welch on ln(x): ratio of geometric means, CI = exp(CI of the log diff) */
	VMS_CHANGE_RAW, /* a value <= 0 exists: Welch on raw x, ratio = mean(b)/mean(a), CI = 1 +
	                 * CI(diff)/mean(a) (the base mean is taken as exact) */
};

/* The relative change of b against a: ratio 1.05 = +5 %. `defined` is 0 when the ratio
 * cannot be expressed (raw method with mean(a) <= 0); p is still valid then. Returns 0,
 * -EINVAL when either side has fewer than 2 values, or -EDOM as vms_welch(). */
struct vms_change {
	enum vms_change_method method;
	int defined;
	double ratio, lo, hi, p, df;
	/* the tested difference and its standard error in the test's units (log: ln ratio; raw:
	 * the difference of the means, ratio = 1 + est / scale), for one-sided p-values and bounds
	 * at other levels (vms_change_p_beyond(), vms_change_bound()); se 0: exact */
	double est, se, scale;
};
int vms_change_test(const double *a, size_t na, const double *b, size_t nb, double alpha,
                    struct vms_change *c);

/* The paired change of b against a, pairs (a[i], b[i]) made together (the same run index of two
 * interleaved variants): a one-sample t-test of d[i] = ln(b[i]/a[i]) (VMS_CHANGE_LOG; ratio =
 * exp(mean d), CI = exp(mean d -+ t se)), or of d[i] = b[i] - a[i] when a value is <= 0
 * (VMS_CHANGE_RAW; ratio = 1 + mean d / mean a as in vms_change_test()). n - 1 degrees of
 * freedom. Needs n >= 2 (else -EINVAL); -EDOM as vms_welch(). Identical differences (sd 0):
 * exact, p = 1 when they are 0, else 0. */
int vms_paired_change(const double *a, const double *b, size_t n, double alpha,
                      struct vms_change *c);

/* The change of side b against side a when each side is several suites (result files from
 * separate sittings): x[i] belongs to suite sx[i] (0-based, < the side's number of suites).
 * Works on ln x (VMS_CHANGE_LOG; needs every value > 0, else -EDOM). The within-suite variance
 * s_w^2 is pooled over every suite of both sides; the between-suite variance s_b^2 of the suite
 * means is pooled over the sides that have at least 2 suites (-EINVAL when none has). When s_b^2
 * exceeds s_w^2 / n_h (n_h: the harmonic mean of the suite sizes), the suite means are the
 * observations: se^2 = s_b^2 (1/Ja + 1/Jb), df = sum(J - 1) over the sides with J >= 2;
 * otherwise Welch's test on all runs decides. *used_suites says which; *drift is the
 * between-suite standard deviation beyond what the within-suite spread explains,
 * sqrt(max(0, s_b^2 - s_w^2 / n_h)), in log units (0.03 ~ 3 %); *within the within-suite sd. */
int vms_suites_change(const double *a, const unsigned *sa, size_t na, const double *b,
                      const unsigned *sb, size_t nb, double alpha, struct vms_change *c,
                      int *used_suites, double *drift, double *within);

/* The one-sided p-value of the null hypothesis "the true ratio is at most r" (up = 1) or "at
 * least r" (up = 0) for a change c filled by one of the tests above, with its t distribution.
 * When c has no relative change (defined 0) r is ignored and the null is "no difference". An
 * exact change (se 0): 0 when the estimate is beyond r, else 1. NAN if GSL fails. */
double vms_change_p_beyond(const struct vms_change *c, double r, int up);

/* The one-sided (1 - alpha) confidence bound of the ratio: the lower one (lower = 1) or the
 * upper one. NAN when c has no relative change or GSL fails. */
double vms_change_bound(const struct vms_change *c, double alpha, int lower);

/* Yuen's test of trimmed means on ln x (both samples > 0, else -EDOM): each side trimmed by
 * g = floor(trim n) values at each end, the Winsorized variances give the standard error and
 * Welch-type degrees of freedom on n - 2g. The change is the ratio of the trimmed geometric
 * means (VMS_CHANGE_LOG); trim 0 is Welch's test. Needs n - 2g >= 2 on each side (-EINVAL). */
int vms_yuen_change(const double *a, size_t na, const double *b, size_t nb, double trim,
                    double alpha, struct vms_change *c);

/* The critical value of Grubbs' test for n values at level alpha (two-sided):
 * (n - 1) / sqrt(n) * sqrt(t^2 / (n - 2 + t^2)), t the t quantile at 1 - alpha / (2n) with n - 2
 * degrees of freedom. NAN for n < 3. */
double vms_grubbs_critical(size_t n, double alpha);

/* The runs whose ln x lies far from the others: Grubbs' test at level VMS_OUTLIER_ALPHA on the
 * logs, repeated on the remaining values while at least 5 remain (so nothing is judged with
 * fewer than 5 runs, and at most n - 4 are flagged). Only when every value is > 0. flag (may
 * be NULL) gets 1 per outlier. Returns their number. On normal samples a side shows an
 * outlier about 1 % of the time. */
#define VMS_OUTLIER_ALPHA 0.01
size_t vms_outliers(const double *x, size_t n, unsigned char *flag);

/* True when the runs of one side fall into two groups: n >= 8, every value > 0, and a gap
 * between consecutive sorted ln x, with at least 3 values on each side, wider than
 * VMS_BIMODAL_GAP times the pooled sd within the two groups. On normal samples (n 8-20) the
 * largest such ratio exceeds 8 less than 0.1 % of the time. */
#define VMS_BIMODAL_GAP 8.0
int vms_bimodal(const double *x, size_t n);

/* Holm's step-down adjustment of the n p-values p[] (NaN entries are left out of the family
 * and stay NaN): sorted ascending, adj(i) = max over j <= i of min(1, (m - j) p(j)) with m the
 * family size (j 0-based); written to adj[]. Returns m. */
size_t vms_holm(const double *p, size_t n, double *adj);

/* Two-sided Fisher's exact test of the 2x2 table (a_events of a_n runs vs b_events of b_n
 * runs): the sum of the probabilities of every table with the same margins that is no more
 * likely than the observed one (relative tolerance 1e-7). Returns the p-value in [0, 1]. */
double vms_fisher_exact(unsigned a_events, unsigned a_n, unsigned b_events, unsigned b_n);

/* One-sided Fisher's exact test: the probability, given the margins, that b has at least
 * b_events of the events (the upper tail of the hypergeometric distribution): small when b has
 * more events than a. NAN for impossible tables. */
double vms_fisher_greater(unsigned a_events, unsigned a_n, unsigned b_events, unsigned b_n);

/* Runs per side needed to detect a relative change delta (0.05 = 5 %) with a two-sided test at
 * level alpha and 80 % power, for a coefficient of variation cv:
 * n = ceil(2 (z[1-alpha/2] + z[0.8])^2 (cv / delta)^2), which is 15.7 (cv/delta)^2 at
 * alpha = 0.05; at least 2. Returns 0 when cv or delta is not a positive finite number. */
unsigned vms_runs_needed(double cv, double delta, double alpha);

/* Runs per side needed so that a true change of detect (0.05 = 5 %) is called, with 80 % power,
 * by a one-sided test whose bound must clear the threshold th: the smallest n with
 * n >= k (t[1-alpha, df] + t[0.8, df])^2 (sd / (ln(1 + detect) - ln(1 + th)))^2, k = 2 and
 * df = 2n - 2 for two samples, k = 1 and df = n - 1 for pairs (sd: of the log ratios). sd is
 * the spread of ln x (a cv for small spreads); alpha is the one-sided level the bound uses
 * (alpha / m under a family of m). At least 2; capped at 1e6. Returns 0 when sd is not
 * positive and finite or detect <= th. */
unsigned vms_runs_needed_one_sided(double sd, double detect, double th, double alpha, int paired);

#endif
