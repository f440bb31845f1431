/* Unit tests of compare/stats: Welch's t-test, the log-ratio change, Fisher's exact test and the
 * runs-needed estimate against values computed independently of GSL.
 *
 * Where the expected values come from:
 * - t quantiles: printed textbook tables (t[0.975] = 12.706 df 1, 2.776 df 4, 2.228 df 10,
 *   2.042 df 30); tests/compare/reference.py reproduces them to 6 digits by integrating the
 *   t density (Simpson's rule, standard library only).
 * - Welch t, df, p and CI: tests/compare/reference.py (means/variances with Python's statistics
 *   module, p by the same Simpson integration, quantile by bisection on it).
 * - Fisher: 3/4 vs 1/4 is Fisher's "lady tasting tea" table, p = 34/70 = 0.4857; 5/5 vs 0/5 is
 *   2/C(10,5) = 2/252; the others by enumeration with math.comb in reference.py.
 * - runs needed: 2 (z[0.975] + z[0.8])^2 = 15.6978 with the textbook normal quantiles.
 * - paired t on log ratios, Holm's adjustment and the suite-means test: reference.py's
 *   paired_log(), holm() and suite_means() (same Simpson integration, no GSL).
 * - one-sided p-values and bounds, Yuen's trimmed test, one-sided Fisher, Grubbs' critical
 *   value and the one-sided runs needed: SciPy 1.10 (Debian's python3-scipy):
 *   ttest_ind(..., equal_var=False, alternative='greater'), ttest_ind(..., trim=0.2),
 *   fisher_exact(..., alternative='greater'), t.ppf; the runs-needed loop written out with
 *   t.ppf (the smallest n with n >= 2 (t[0.95] + t[0.8])^2 (sd / delta)^2). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>

#include "core/util.h"
#include "compare/stats.h"

#define assert_close(x, want, rel)                                                                 \
	do {                                                                                       \
		double x_ = (x), w_ = (want);                                                      \
		if (!(fabs(x_ - w_) <= (rel)*fabs(w_) + 1e-12)) {                                  \
			print_error("%s = %.10g, want %.10g (rel %g)\n", #x, x_, w_,               \
			            (double)(rel));                                                \
			fail();                                                                    \
		}                                                                                  \
	} while (0)

static const double wiki_a1[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                                 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
static const double wiki_a2[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                                 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
static const double small_a[] = {10, 11, 12, 13, 14};
static const double small_b[] = {12, 14, 15, 17, 20, 21};
static const double mmap_a[] = {258.1, 253.1, 269.4, 255.2, 258.3};
static const double mmap_b[] = {281.0, 276.4, 290.2, 279.9, 284.1};

static void t_quantiles_textbook(void **state)
{
	(void)state;
	/* GSL is the library under use; check it reads the table the way we think it does. */
	assert_close(gsl_cdf_tdist_Pinv(0.975, 1), 12.706205, 1e-6);
	assert_close(gsl_cdf_tdist_Pinv(0.975, 4), 2.776445, 1e-6);
	assert_close(gsl_cdf_tdist_Pinv(0.975, 10), 2.228139, 1e-6);
	assert_close(gsl_cdf_tdist_Pinv(0.975, 30), 2.042272, 1e-6);
}

static void welch_wiki(void **state)
{
	struct vms_welch w;

	(void)state;
	assert_int_equal(vms_welch(wiki_a1, 15, wiki_a2, 15, 0.05, &w), 0);
	assert_close(w.diff, 2.166666667, 1e-8);
	assert_close(w.se, 0.88242451, 1e-7);
	assert_close(w.df, 24.98852929, 1e-8);
	assert_close(w.t, 2.455356398, 1e-8);
	assert_close(w.p, 0.021378001, 1e-5);
	assert_close(w.lo, 0.349237066, 1e-5);
	assert_close(w.hi, 3.984096267, 1e-6);
}

/* The side with fewer runs takes the other side's per-run variance when its own is smaller:
 * small_a (5 runs, variance 2.5) against small_b (6 runs, 12.3) is Welch's formula with
 * va = 12.3 / 5 and df_a = 5 (SciPy 1.10's t distribution on those figures; plain Welch, as
 * ttest_ind(equal_var=False) gives, would be se 1.596871942, p 0.025101407). */
static void welch_unequal_sizes(void **state)
{
	static const double b4[] = {12, 14, 15, 17};
	struct vms_welch w;

	(void)state;
	assert_int_equal(vms_welch(small_a, 5, small_b, 6, 0.05, &w), 0);
	assert_close(w.diff, 4.5, 1e-12);
	assert_close(w.se, 2.1236760582, 1e-8);
	assert_close(w.df, 9.9180327869, 1e-8);
	assert_close(w.t, 2.1189672421, 1e-8);
	assert_close(w.p, 0.0603517696768, 1e-5);
	assert_close(w.lo, -0.2371512752, 1e-5);
	assert_close(w.hi, 9.2371512752, 1e-6);
	/* Swapping the sides flips the sign and keeps p. */
	assert_int_equal(vms_welch(small_b, 6, small_a, 5, 0.05, &w), 0);
	assert_close(w.diff, -4.5, 1e-12);
	assert_close(w.p, 0.0603517696768, 1e-5);
	/* the side with fewer runs spreading more: plain Welch (SciPy ttest_ind, equal_var=False)
	 */
	assert_int_equal(vms_welch(small_a, 5, b4, 4, 0.05, &w), 0);
	assert_close(w.diff, 2.5, 1e-12);
	assert_close(w.t, 1.9867985355975657, 1e-8);
	assert_close(w.p, 0.09823366485106272, 1e-6);
}

/* The variance of a side's mean: s^2 / n below 20 runs; batch means (5 batches of consecutive
 * runs, 4 degrees of freedom) when their variance exceeds s^2 / n by more than the 95th
 * percentile of chi-square(4) / 4 (2.3720); otherwise s^2 / n. */
static void mean_var_batches(void **state)
{
	double x[40], v, df;
	size_t i;

	(void)state;
	assert_int_equal(vms_mean_var(small_b, 6, &v, &df), 0);
	assert_close(v, 12.3 / 6, 1e-12);
	assert_close(df, 5, 1e-12);
	assert_int_equal(vms_mean_var(small_b, 1, &v, &df), -EINVAL);
	/* a step half-way (a slower second half): the batches see it, s^2 / n does not */
	for (i = 0; i < 40; i++)
		x[i] = (i < 20 ? 1 : 2) + (i % 2 ? 0.01 : -0.01);
	assert_int_equal(vms_mean_var(x, 40, &v, &df), 1);
	assert_close(v, 0.05, 1e-9); /* batch means 1, 1, 1.5, 2, 2 */
	assert_close(df, 4, 1e-12);
	/* the same values alternating: no batch differs, independent runs' s^2 / n */
	for (i = 0; i < 40; i++)
		x[i] = (i % 2 ? 1 : 2) + (i % 4 < 2 ? 0.01 : -0.01);
	assert_int_equal(vms_mean_var(x, 40, &v, &df), 0);
	assert_close(df, 39, 1e-12);
}

static void welch_degenerate(void **state)
{
	const double c5[] = {3, 3, 3, 3, 3}, d5[] = {4, 4, 4, 4, 4};
	struct vms_welch w;

	(void)state;
	assert_int_equal(vms_welch(small_a, 1, small_b, 6, 0.05, &w), -EINVAL);
	assert_int_equal(vms_welch(small_a, 5, small_b, 6, 0, &w), -EINVAL);
	assert_int_equal(vms_welch(c5, 5, c5, 5, 0.05, &w), 0);
	assert_true(w.p == 1 && w.diff == 0 && w.lo == 0 && w.hi == 0);
	assert_int_equal(vms_welch(c5, 5, d5, 5, 0.05, &w), 0);
	assert_true(w.p == 0 && w.diff == 1 && w.lo == 1 && w.hi == 1);
}

static void change_log_ratio(void **state)
{
	struct vms_change c;

	(void)state;
	assert_int_equal(vms_change_test(mmap_a, 5, mmap_b, 5, 0.05, &c), 0);
	assert_int_equal(c.method, VMS_CHANGE_LOG);
	assert_true(c.defined);
	/* reference.py on ln(x): diff 0.087006899, CI [0.055437051, 0.118576748], df 7.472 */
	assert_close(c.ratio, 1.0909042063, 1e-9);
	assert_close(c.lo, 1.0570024779, 1e-6);
	assert_close(c.hi, 1.1258932805, 1e-6);
	assert_close(c.p, 0.000270118, 1e-4);
	assert_close(c.df, 7.472039947, 1e-8);
}

static void change_raw_fallback(void **state)
{
	const double z[] = {0, 2, 1, 0, 3}, y[] = {4, 6, 5, 3, 7};
	const double zero[] = {0, 0, 0};
	struct vms_change c;
	struct vms_welch w;

	(void)state;
	/* small_a/b are positive: log method; with a zero the raw method and ratio of means. */
	assert_int_equal(vms_change_test(z, 5, y, 5, 0.05, &c), 0);
	assert_int_equal(c.method, VMS_CHANGE_RAW);
	assert_int_equal(vms_welch(z, 5, y, 5, 0.05, &w), 0);
	assert_true(c.defined);
	assert_close(c.ratio, 5.0 / 1.2, 1e-12);
	assert_close(c.lo, 1 + w.lo / 1.2, 1e-12);
	assert_close(c.hi, 1 + w.hi / 1.2, 1e-12);
	assert_close(c.p, w.p, 1e-12);
	/* Base mean 0: no relative change, p still given. */
	assert_int_equal(vms_change_test(zero, 3, y, 5, 0.05, &c), 0);
	assert_false(c.defined);
	assert_true(isnan(c.ratio));
	assert_true(c.p < 0.05);
	assert_int_equal(vms_change_test(zero, 1, y, 5, 0.05, &c), -EINVAL);
	/* Non-negative data cannot fall by more than 100 %: the interval is clamped at 0. */
	{
		const double hi[] = {40, 0, 200, 0, 0}, none[] = {0, 0, 0, 0, 0};

		assert_int_equal(vms_change_test(hi, 5, none, 5, 0.05, &c), 0);
		assert_int_equal(vms_welch(hi, 5, none, 5, 0.05, &w), 0);
		assert_true(1 + w.lo / 48 < 0); /* unclamped it would be below -100 % */
		assert_true(c.lo == 0);
		assert_close(c.hi, 1 + w.hi / 48, 1e-12);
		assert_true(c.ratio == 0);
	}
}

static void fisher_tables(void **state)
{
	(void)state;
	assert_close(vms_fisher_exact(3, 4, 1, 4), 0.4857142857, 1e-9);
	assert_close(vms_fisher_exact(5, 5, 0, 5), 2.0 / 252, 1e-9);
	assert_close(vms_fisher_exact(0, 5, 5, 5), 2.0 / 252, 1e-9);
	assert_close(vms_fisher_exact(4, 5, 0, 5), 0.0476190476, 1e-8);
	assert_close(vms_fisher_exact(1, 5, 0, 5), 1.0, 1e-12);
	assert_close(vms_fisher_exact(2, 10, 7, 10), 0.0697785187, 1e-8);
	assert_close(vms_fisher_exact(0, 5, 0, 5), 1.0, 1e-12);
	assert_true(isnan(vms_fisher_exact(6, 5, 0, 5)));
}

static void runs_needed(void **state)
{
	(void)state;
	/* 15.6978 (cv/delta)^2, rounded up. */
	assert_int_equal(vms_runs_needed(0.10, 0.05, 0.05), 63); /* 62.79 */
	assert_int_equal(vms_runs_needed(0.05, 0.05, 0.05), 16); /* 15.70 */
	assert_int_equal(vms_runs_needed(0.02, 0.05, 0.05), 3);  /* 2.51 */
	assert_int_equal(vms_runs_needed(0.001, 0.05, 0.05), 2); /* at least 2 */
	assert_int_equal(vms_runs_needed(0, 0.05, 0.05), 0);
	assert_int_equal(vms_runs_needed(NAN, 0.05, 0.05), 0);
}

/* Samples no vmsuite run can produce ([1e308, 0, 4092]: the squares overflow, sd and df are
 * not numbers) once made GSL call abort(); now the test refuses them and nothing aborts. */
static void overflowing_samples(void **state)
{
	const double huge[] = {1e308, 0, 4092}, fine[] = {1, 2, 3};
	const double both[] = {1e308, 1e308, -1e308};
	struct vms_change c;
	struct vms_welch w;

	(void)state;
	assert_int_equal(vms_change_test(fine, 3, huge, 3, 0.05, &c), -EDOM);
	assert_int_equal(vms_change_test(huge, 3, fine, 3, 0.05, &c), -EDOM);
	assert_int_equal(vms_welch(both, 3, huge, 3, 0.05, &w), -EDOM);
	/* and ordinary samples still work afterwards */
	assert_int_equal(vms_change_test(fine, 3, fine, 3, 0.05, &c), 0);
	assert_true(c.p == 1);
}

static void summary(void **state)
{
	const double c[] = {7, 7, 7};
	struct vms_summary s;

	(void)state;
	vms_summarize(small_b, 6, &s);
	assert_close(s.mean, 99.0 / 6, 1e-12);
	/* statistics.stdev([12,14,15,17,20,21]) = 3.507135583350036 */
	assert_close(s.sd, 3.507135583350036, 1e-12);
	assert_close(s.cv, 3.507135583350036 / 16.5, 1e-12);
	assert_true(s.min == 12 && s.max == 21 && s.n == 6);
	vms_summarize(c, 3, &s);
	assert_true(s.sd == 0 && s.cv == 0);
	vms_summarize(c, 1, &s);
	assert_true(s.mean == 7 && isnan(s.sd));
	vms_summarize(c, 0, &s);
	assert_true(isnan(s.mean));
}

static void paired_log_ratio(void **state)
{
	struct vms_change c;

	(void)state;
	/* reference.py: paired_log(mmap_a, mmap_b) */
	assert_int_equal(vms_paired_change(mmap_a, mmap_b, 5, 0.05, &c), 0);
	assert_int_equal(c.method, VMS_CHANGE_LOG);
	assert_close(c.ratio, 1.0909042063279701, 1e-9);
	assert_close(c.lo, 1.0800203298990674, 1e-6);
	assert_close(c.hi, 1.101897764734925, 1e-6);
	assert_close(c.p, 1.7607522535357797e-05, 1e-4);
	assert_close(c.df, 4, 0);
	/* the same numbers unpaired: Welch's interval is far wider (the pairing removes the
	 * run-to-run spread both sides share) */
	{
		struct vms_change w;

		assert_int_equal(vms_change_test(mmap_a, 5, mmap_b, 5, 0.05, &w), 0);
		assert_true(w.hi - w.lo > 2 * (c.hi - c.lo));
	}
}

static void paired_edge_cases(void **state)
{
	static const double a[] = {10, 20, 40}, b[] = {11, 22, 44}, z[] = {0, 1, 2},
	                    z1[] = {1, 2, 3};
	struct vms_change c;

	(void)state;
	assert_int_equal(vms_paired_change(a, b, 1, 0.05, &c), -EINVAL);
	/* every ratio exactly 1.1: exact, p = 0, a point interval */
	assert_int_equal(vms_paired_change(a, b, 3, 0.05, &c), 0);
	assert_close(c.ratio, 1.1, 1e-12);
	assert_true(c.p == 0);
	assert_close(c.lo, 1.1, 1e-12);
	/* identical sides: no change, p = 1 */
	assert_int_equal(vms_paired_change(a, a, 3, 0.05, &c), 0);
	assert_true(c.p == 1 && c.ratio == 1);
	/* a zero: differences on raw values, ratio = 1 + mean d / mean a = 1 + 1/1 */
	assert_int_equal(vms_paired_change(z, z1, 3, 0.05, &c), 0);
	assert_int_equal(c.method, VMS_CHANGE_RAW);
	assert_close(c.ratio, 2, 1e-12);
}

static void holm_adjustment(void **state)
{
	static const double p[] = {0.01, 0.04, 0.03, 0.005}, pn[] = {0.02, NAN, 0.01};
	double adj[4];

	(void)state;
	/* reference.py: holm([0.01, 0.04, 0.03, 0.005]) = [0.03, 0.06, 0.06, 0.02] */
	assert_int_equal(vms_holm(p, 4, adj), 4);
	assert_close(adj[0], 0.03, 1e-12);
	assert_close(adj[1], 0.06, 1e-12);
	assert_close(adj[2], 0.06, 1e-12);
	assert_close(adj[3], 0.02, 1e-12);
	/* NaN entries are not in the family: m = 2 */
	assert_int_equal(vms_holm(pn, 3, adj), 2);
	assert_close(adj[0], 0.02, 1e-12);
	assert_true(isnan(adj[1]));
	assert_close(adj[2], 0.02, 1e-12);
}

static void suites_drift(void **state)
{
	/* two suites per side whose means drift by ~9 % while runs agree within ~1 % */
	static const double a[] = {100, 102, 101, 110, 111, 109};
	static const double b[] = {104, 105, 103, 114, 113, 115};
	static const unsigned sa[] = {0, 0, 0, 1, 1, 1}, sb[] = {0, 0, 0, 1, 1, 1};
	static const unsigned one[] = {0, 0, 0, 0, 0, 0};
	struct vms_change c, w;
	double drift, within;
	int used;

	(void)state;
	assert_int_equal(vms_suites_change(a, sa, 6, b, sb, 6, 0.05, &c, &used, &drift, &within),
	                 0);
	assert_true(used);
	/* reference.py: suite_means([[100,102,101],[110,111,109]], [[104,105,103],[114,113,115]])
	 */
	assert_close(c.ratio, 1.03302987595003, 1e-9);
	assert_close(c.lo, 0.7888271104036639, 1e-6);
	assert_close(c.hi, 1.3528322119396288, 1e-6);
	assert_close(c.p, 0.655819745673591, 1e-4);
	assert_close(c.df, 2, 0);
	assert_true(drift > 0.05 && drift < 0.08 && within < 0.015);
	/* Welch on the runs alone gives a far narrower interval: it cannot see the drift */
	assert_int_equal(vms_change_test(a, 6, b, 6, 0.05, &w), 0);
	assert_true(w.hi - w.lo < c.hi - c.lo);
	/* one suite per side: no between-suite spread to measure */
	assert_int_equal(vms_suites_change(a, one, 6, b, one, 6, 0.05, &c, &used, &drift, &within),
	                 -EINVAL);
	/* runs spread more than the suites drift: the runs decide */
	{
		static const double x[] = {90, 110, 100, 91, 109, 100};
		static const double y[] = {95, 115, 105, 96, 114, 105};

		assert_int_equal(
		    vms_suites_change(x, sa, 6, y, sb, 6, 0.05, &c, &used, &drift, &within), 0);
		assert_false(used);
		assert_true(drift == 0);
	}
}

/* One-sided p-values and bounds of the log change (SciPy: see the top of the file). */
static void one_sided(void **state)
{
	struct vms_change c;

	(void)state;
	assert_int_equal(vms_change_test(mmap_a, 5, mmap_b, 5, 0.05, &c), 0);
	assert_close(vms_change_p_beyond(&c, 1, 1), 0.0001350591450989595, 1e-6);
	assert_close(vms_change_p_beyond(&c, 1, 0), 1 - 0.0001350591450989595, 1e-6);
	assert_close(vms_change_p_beyond(&c, 1.10, 1), 0.7212954196019499, 1e-6);
	assert_close(vms_change_bound(&c, 0.05, 1), 1.0635682485568956, 1e-8);
	assert_close(vms_change_bound(&c, 0.01, 0), 1.1352379075619745, 1e-8);
	/* an exact change: 0 or 1 */
	assert_int_equal(vms_change_test(small_a, 2, small_a, 2, 0.05, &c), 0);
	c.est = 0.1;
	c.se = 0;
	assert_true(vms_change_p_beyond(&c, 1.05, 1) == 0);
	assert_true(vms_change_p_beyond(&c, 1.20, 1) == 1);
}

static void yuen_trimmed(void **state)
{
	static const double x[] = {10, 11, 12, 13, 14, 30}, y[] = {12, 14, 15, 17, 20, 21, 22, 60};
	static const double neg[] = {-1, 2, 3, 4, 5};
	struct vms_change c, w;

	(void)state;
	/* x has fewer runs and less spread: y's per-run variance (SciPy's trim=0.2 test gives
	 * 0.016252917857140524 without that floor; the floored figures through SciPy's t) */
	assert_int_equal(vms_yuen_change(x, 6, y, 8, 0.2, 0.05, &c), 0);
	assert_close(c.p, 0.0332616954056998, 1e-6);
	assert_close(c.ratio, 1.4384519790822248, 1e-9);
	assert_true(c.lo < c.ratio && c.ratio < c.hi);
	/* trim 0 is Welch's test on the logs */
	assert_int_equal(vms_yuen_change(mmap_a, 5, mmap_b, 5, 0, 0.05, &c), 0);
	assert_int_equal(vms_change_test(mmap_a, 5, mmap_b, 5, 0.05, &w), 0);
	assert_close(c.p, w.p, 1e-12);
	assert_close(c.lo, w.lo, 1e-12);
	assert_int_equal(vms_yuen_change(neg, 5, x, 6, 0.2, 0.05, &c), -EDOM);
	assert_int_equal(vms_yuen_change(x, 3, y, 8, 0.4, 0.05, &c), -EINVAL);
}

static void fisher_one_sided(void **state)
{
	(void)state;
	assert_close(vms_fisher_greater(0, 5, 4, 5), 0.023809523809523808, 1e-9);
	assert_close(vms_fisher_greater(1, 5, 3, 6), 0.3484848484848485, 1e-9);
	assert_close(vms_fisher_greater(0, 5, 0, 5), 1, 1e-12);
	/* the other direction: B has fewer */
	assert_close(vms_fisher_greater(4, 5, 0, 5), 1, 1e-12);
	assert_true(isnan(vms_fisher_greater(6, 5, 0, 5)));
}

static void outliers_and_groups(void **state)
{
	/* mmap001 256M on a busy VM: one run of ten took three times as long */
	static const double heavy[] = {0.33, 0.35, 0.40, 0.45, 0.38, 0.36, 1.1, 0.41, 0.37, 0.39};
	static const double clean[] = {0.33, 0.35, 0.40, 0.45, 0.38, 0.36, 0.42, 0.41, 0.37, 0.39};
	static const double two[] = {1.0, 1.01, 0.99, 1.02, 1.5, 1.52, 1.49, 1.51};
	unsigned char flag[10];

	(void)state;
	assert_close(vms_grubbs_critical(10, 0.05), 2.28995408447961, 1e-8);
	assert_int_equal(vms_outliers(heavy, 10, flag), 1);
	assert_int_equal(flag[6], 1);
	assert_int_equal(flag[0], 0);
	assert_int_equal(vms_outliers(clean, 10, NULL), 0);
	assert_int_equal(vms_outliers(heavy, 4, NULL), 0); /* fewer than 5: not judged */
	assert_true(vms_bimodal(two, 8));
	assert_false(vms_bimodal(clean, 10));
	assert_false(vms_bimodal(two, 7)); /* fewer than 8: not judged */
}

static void runs_needed_one_sided(void **state)
{
	(void)state;
	assert_int_equal(vms_runs_needed_one_sided(0.10, 0.05, 0.02, 0.05, 0), 148);
	assert_int_equal(vms_runs_needed_one_sided(0.03, 0.05, 0.02, 0.025, 1), 11);
	assert_int_equal(vms_runs_needed_one_sided(0.001, 0.05, 0.02, 0.05, 0), 2);
	assert_int_equal(vms_runs_needed_one_sided(0.1, 0.02, 0.02, 0.05, 0), 0);
	assert_int_equal(vms_runs_needed_one_sided(NAN, 0.05, 0.02, 0.05, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(t_quantiles_textbook), cmocka_unit_test(welch_wiki),
	    cmocka_unit_test(welch_unequal_sizes),  cmocka_unit_test(mean_var_batches),
	    cmocka_unit_test(welch_degenerate),     cmocka_unit_test(change_log_ratio),
	    cmocka_unit_test(change_raw_fallback),  cmocka_unit_test(fisher_tables),
	    cmocka_unit_test(runs_needed),          cmocka_unit_test(summary),
	    cmocka_unit_test(overflowing_samples),  cmocka_unit_test(paired_log_ratio),
	    cmocka_unit_test(paired_edge_cases),    cmocka_unit_test(holm_adjustment),
	    cmocka_unit_test(suites_drift),         cmocka_unit_test(one_sided),
	    cmocka_unit_test(yuen_trimmed),         cmocka_unit_test(fisher_one_sided),
	    cmocka_unit_test(outliers_and_groups),  cmocka_unit_test(runs_needed_one_sided),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
