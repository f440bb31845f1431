/* Statistics for `vmsuite compare` on GSL's distributions: Welch's t-test on log or raw values,
 * Fisher's exact test and the runs-needed estimate. No kernel paths. */
#include "compare/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>

#include "core/util.h"

/* GSL's default error handler calls abort() on a domain error; ours check the results. Turned
 * off before the first GSL call (vmsuite has no other GSL user). */
static void gsl_quiet(void)
{
	static int done;

	if (!done) {
		gsl_set_error_handler_off();
		done = 1;
	}
}

void vms_summarize(const double *x, size_t n, struct vms_summary *s)
{
	double sum = 0, ss = 0;
	size_t i;

	s->n = n;
	s->mean = s->sd = s->cv = s->min = s->max = NAN;
	if (!n)
		return;
	s->min = s->max = x[0];
	for (i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->mean = sum / n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = s->min == s->max ? 0 : sqrt(ss / (n - 1));
	if (s->mean != 0)
		s->cv = s->sd / fabs(s->mean);
}

int vms_mean_var(const double *x, size_t n, double *var, double *df)
{
	struct vms_summary s, sm;
	double m[VMS_BATCHES];
	size_t j, i;

	if (n < 2)
		return -EINVAL;
	vms_summarize(x, n, &s);
	*var = s.sd * s.sd / (double)n;
	*df = (double)(n - 1);
	if (n < VMS_BATCH_MIN_RUNS)
		return 0;
	for (j = 0; j < VMS_BATCHES; j++) {
		size_t lo = j * n / VMS_BATCHES, hi = (j + 1) * n / VMS_BATCHES;
		double sum = 0;

		for (i = lo; i < hi; i++)
			sum += x[i];
		m[j] = sum / (double)(hi - lo);
	}
	vms_summarize(m, VMS_BATCHES, &sm);
	gsl_quiet();
	/* independent runs: the ratio is chi-square(B - 1) / (B - 1); above its 95th percentile */
	if (!(sm.sd * sm.sd / VMS_BATCHES >
	      *var * gsl_cdf_chisq_Pinv(0.95, VMS_BATCHES - 1) / (VMS_BATCHES - 1)))
		return 0;
	*var = sm.sd * sm.sd / VMS_BATCHES;
	*df = VMS_BATCHES - 1;
	return 1;
}

/* The floor of vms_welch() and vms_yuen_change(): the side with fewer runs takes the other
 * side's per-run variance (and its degrees of freedom) when its own is smaller. */
static void floor_small_side(double *va, double *dfa, size_t na, double *vb, double *dfb, size_t nb)
{
	if (nb<na && * va *(double)na / (double)nb> * vb) {
		*vb = *va * (double)na / (double)nb;
		*dfb = *dfa;
	} else if (na<nb && * vb *(double)nb / (double)na> * va) {
		*va = *vb * (double)nb / (double)na;
		*dfa = *dfb;
	}
}

int vms_welch(const double *a, size_t na, const double *b, size_t nb, double alpha,
              struct vms_welch *w)
{
	struct vms_summary sa, sb;
	double va, vb, dfa, dfb, q;

	if (na < 2 || nb < 2 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	gsl_quiet();
	vms_summarize(a, na, &sa);
	vms_summarize(b, nb, &sb);
	vms_mean_var(a, na, &va, &dfa);
	vms_mean_var(b, nb, &vb, &dfb);
	floor_small_side(&va, &dfa, na, &vb, &dfb, nb);
	/* Samples whose sums or squares overflow have no meaningful test. */
	if (!isfinite(va) || !isfinite(vb) || !isfinite(sb.mean - sa.mean))
		return -EDOM;
	w->diff = sb.mean - sa.mean;
	w->se = sqrt(va + vb);
	if (w->se == 0) {
		w->df = INFINITY;
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
		w->p = w->diff == 0 ? 1 : 0;
		w->lo = w->hi = w->diff;
		return 0;
	}
	w->df = (va + vb) * (va + vb) / (va * va / dfa + vb * vb / dfb);
	w->t = w->diff / w->se;
	if (!(w->df > 0) || !isfinite(w->t))
		return -EDOM;
	/* GSL reports a failure as NaN (its handler is off) */
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	q = gsl_cdf_tdist_Pinv(1 - alpha / 2, w->df);
	if (isnan(w->p) || !isfinite(q))
		return -EDOM;
	if (w->p > 1)
		w->p = 1;
	w->lo = w->diff - q * w->se;
	w->hi = w->diff + q * w->se;
	return 0;
}

int vms_change_test(const double *a, size_t na, const double *b, size_t nb, double alpha,
                    struct vms_change *c)
{
	struct vms_welch w;
	double *la, *lb, mean_a = 0;
	int positive = 1, nonneg = 1, ret;
	size_t i;

	if (na < 2 || nb < 2)
		return -EINVAL;
	for (i = 0; i < na; i++)
		positive &= a[i] > 0;
	for (i = 0; i < nb; i++)
		positive &= b[i] > 0;
	for (i = 0; i < na; i++)
		nonneg &= a[i] >= 0;
	for (i = 0; i < nb; i++)
		nonneg &= b[i] >= 0;
	if (positive) {
		la = vms_xcalloc(na, sizeof(*la));
		lb = vms_xcalloc(nb, sizeof(*lb));
		for (i = 0; i < na; i++)
			la[i] = log(a[i]);
		for (i = 0; i < nb; i++)
			lb[i] = log(b[i]);
		ret = vms_welch(la, na, lb, nb, alpha, &w);
		free(la);
		free(lb);
		if (ret)
			return ret;
		c->method = VMS_CHANGE_LOG;
		c->defined = 1;
		c->ratio = exp(w.diff);
		c->lo = exp(w.lo);
		c->hi = exp(w.hi);
		c->p = w.p;
		c->df = w.df;
		c->est = w.diff;
		c->se = w.se;
		c->scale = 1;
		return 0;
	}
	ret = vms_welch(a, na, b, nb, alpha, &w);
	if (ret)
		return ret;
	for (i = 0; i < na; i++)
		mean_a += a[i];
	mean_a /= na;
	c->method = VMS_CHANGE_RAW;
	c->p = w.p;
	c->df = w.df;
	c->est = w.diff;
	c->se = w.se;
	c->scale = mean_a;
	c->defined = mean_a > 0;
	if (c->defined) {
		c->ratio = 1 + w.diff / mean_a;
		c->lo = 1 + w.lo / mean_a;
		c->hi = 1 + w.hi / mean_a;
		/* a quantity that cannot be negative cannot fall by more than 100 % */
		if (nonneg && c->lo < 0)
			c->lo = 0;
		if (nonneg && c->hi < 0)
			c->hi = 0;
	} else {
		c->ratio = c->lo = c->hi = NAN;
	}
	return 0;
}

double vms_fisher_exact(unsigned a_events, unsigned a_n, unsigned b_events, unsigned b_n)
{
	unsigned t = a_events + b_events, kmin, kmax, k;
	double p_obs, p = 0;

	if (a_events > a_n || b_events > b_n)
		return NAN;
	gsl_quiet();
	/* Number of events among the a-runs, given t events among a_n + b_n runs. */
	kmin = t > b_n ? t - b_n : 0;
	kmax = t < a_n ? t : a_n;
	p_obs = gsl_ran_hypergeometric_pdf(a_events, a_n, b_n, t);
	for (k = kmin; k <= kmax; k++) {
		double pk = gsl_ran_hypergeometric_pdf(k, a_n, b_n, t);

		if (pk <= p_obs * (1 + 1e-7))
			p += pk;
	}
	return p > 1 ? 1 : p;
}

unsigned vms_runs_needed(double cv, double delta, double alpha)
{
	double z, n;

	if (!(cv > 0) || !isfinite(cv) || !(delta > 0) || !isfinite(delta) ||
	    !(alpha > 0 && alpha < 1))
		return 0;
	gsl_quiet();
	z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2) + gsl_cdf_ugaussian_Pinv(0.8);
	n = ceil(2 * z * z * (cv / delta) * (cv / delta) - 1e-9);
	if (n < 2)
		n = 2;
	if (n > 1e6)
		n = 1e6;
	return (unsigned)n;
}

int vms_paired_change(const double *a, const double *b, size_t n, double alpha,
                      struct vms_change *c)
{
	double *d, sum = 0, ss = 0, mean, sd, se, q, mean_a = 0;
	int positive = 1, nonneg = 1;
	size_t i;

	if (n < 2 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	gsl_quiet();
	for (i = 0; i < n; i++) {
		positive &= a[i] > 0 && b[i] > 0;
		nonneg &= a[i] >= 0 && b[i] >= 0;
		mean_a += a[i] / n;
	}
	d = vms_xcalloc(n, sizeof(*d));
	for (i = 0; i < n; i++) {
		d[i] = positive ? log(b[i] / a[i]) : b[i] - a[i];
		sum += d[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (d[i] - mean) * (d[i] - mean);
	free(d);
	sd = sqrt(ss / (n - 1));
	se = sd / sqrt((double)n);
	if (!isfinite(mean) || !isfinite(se))
		return -EDOM;
	c->df = (double)(n - 1);
	c->est = mean;
	c->se = se <= 1e-12 * fabs(mean) ? 0 : se;
	c->scale = positive ? 1 : mean_a;
	/* identical differences: the change is exact (sd is below rounding noise of the mean) */
	if (se <= 1e-12 * fabs(mean) || se == 0) {
		c->p = mean == 0 ? 1 : 0;
		q = 0;
	} else {
		c->p = 2 * gsl_cdf_tdist_Q(fabs(mean / se), c->df);
		q = gsl_cdf_tdist_Pinv(1 - alpha / 2, c->df);
		if (isnan(c->p) || !isfinite(q))
			return -EDOM;
		if (c->p > 1)
			c->p = 1;
	}
	if (positive) {
		c->method = VMS_CHANGE_LOG;
		c->defined = 1;
		c->ratio = exp(mean);
		c->lo = exp(mean - q * se);
		c->hi = exp(mean + q * se);
		return 0;
	}
	c->method = VMS_CHANGE_RAW;
	c->defined = mean_a > 0;
	if (!c->defined) {
		c->ratio = c->lo = c->hi = NAN;
		return 0;
	}
	c->ratio = 1 + mean / mean_a;
	c->lo = 1 + (mean - q * se) / mean_a;
	c->hi = 1 + (mean + q * se) / mean_a;
	if (nonneg && c->lo < 0)
		c->lo = 0;
	if (nonneg && c->hi < 0)
		c->hi = 0;
	return 0;
}

/* Per-suite sums of one side's log values: count, mean; adds the within-suite squares to *ssw
 * and the suite means' squares about the side's mean of suite means to *ssb. Returns the number
 * of suites with a value; *inv_n gets the sum of 1/size over them. */
static size_t suite_sums(const double *lx, const unsigned *sx, size_t n, double *ssw, double *ssb,
                         double *inv_n, double *grand, size_t *dfw)
{
	size_t j, i, nsuites = 0, used = 0;
	double *sum, *cnt, mm = 0;

	for (i = 0; i < n; i++)
		if (sx[i] + 1 > nsuites)
			nsuites = sx[i] + 1;
	sum = vms_xcalloc(nsuites + 1, sizeof(*sum));
	cnt = vms_xcalloc(nsuites + 1, sizeof(*cnt));
	for (i = 0; i < n; i++) {
		sum[sx[i]] += lx[i];
		cnt[sx[i]] += 1;
	}
	for (j = 0; j < nsuites; j++)
		if (cnt[j] > 0) {
			sum[j] /= cnt[j];
			mm += sum[j];
			*inv_n += 1 / cnt[j];
			used++;
		}
	for (i = 0; i < n; i++) {
		*ssw += (lx[i] - sum[sx[i]]) * (lx[i] - sum[sx[i]]);
	}
	*dfw += n - used;
	mm /= used ? (double)used : 1;
	for (j = 0; j < nsuites; j++)
		if (cnt[j] > 0)
			*ssb += (sum[j] - mm) * (sum[j] - mm);
	*grand = mm;
	free(sum);
	free(cnt);
	return used;
}

int vms_suites_change(const double *a, const unsigned *sa, size_t na, const double *b,
                      const unsigned *sb, size_t nb, double alpha, struct vms_change *c,
                      int *used_suites, double *drift, double *within)
{
	double *la, *lb, ssw = 0, ssb = 0, inv_n = 0, ma, mb, s2w, s2b, nh, se, q, diff;
	size_t ja, jb, dfw = 0, dfb, i;
	int ret = 0;

	if (na < 2 || nb < 2 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	for (i = 0; i < na; i++)
		if (!(a[i] > 0))
			return -EDOM;
	for (i = 0; i < nb; i++)
		if (!(b[i] > 0))
			return -EDOM;
	gsl_quiet();
	la = vms_xcalloc(na, sizeof(*la));
	lb = vms_xcalloc(nb, sizeof(*lb));
	for (i = 0; i < na; i++)
		la[i] = log(a[i]);
	for (i = 0; i < nb; i++)
		lb[i] = log(b[i]);
	ja = suite_sums(la, sa, na, &ssw, &ssb, &inv_n, &ma, &dfw);
	jb = suite_sums(lb, sb, nb, &ssw, &ssb, &inv_n, &mb, &dfw);
	dfb = (ja > 1 ? ja - 1 : 0) + (jb > 1 ? jb - 1 : 0);
	if (!dfb) {
		ret = -EINVAL;
		goto out;
	}
	s2w = dfw ? ssw / dfw : 0;
	s2b = ssb / dfb;
	nh = (ja + jb) / inv_n;
	*within = sqrt(s2w);
	*drift = sqrt(fmax(0, s2b - s2w / nh));
	*used_suites = s2b > s2w / nh;
	if (!*used_suites) {
		ret = vms_change_test(a, na, b, nb, alpha, c);
		goto out;
	}
	diff = mb - ma;
	se = sqrt(s2b * (1.0 / ja + 1.0 / jb));
	c->df = (double)dfb;
	c->p = 2 * gsl_cdf_tdist_Q(fabs(diff / se), c->df);
	q = gsl_cdf_tdist_Pinv(1 - alpha / 2, c->df);
	if (!isfinite(se) || isnan(c->p) || !isfinite(q)) {
		ret = -EDOM;
		goto out;
	}
	c->method = VMS_CHANGE_LOG;
	c->defined = 1;
	c->est = diff;
	c->se = se;
	c->scale = 1;
	c->ratio = exp(diff);
	c->lo = exp(diff - q * se);
	c->hi = exp(diff + q * se);
out:
	free(la);
	free(lb);
	return ret;
}

size_t vms_holm(const double *p, size_t n, double *adj)
{
	size_t *idx = vms_xcalloc(n + 1, sizeof(*idx)), m = 0, i, j;
	double run = 0;

	for (i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]))
			idx[m++] = i;
	}
	/* insertion sort by p: families are a few dozen pairs */
	for (i = 1; i < m; i++)
		for (j = i; j > 0 && p[idx[j - 1]] > p[idx[j]]; j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (i = 0; i < m; i++) {
		double v = fmin(1, (double)(m - i) * p[idx[i]]);

		run = fmax(run, v);
		adj[idx[i]] = run;
	}
	free(idx);
	return m;
}

/* The estimate in the test's units that corresponds to ratio r. */
static double est_of(const struct vms_change *c, double r)
{
	if (!c->defined)
		return 0;
	return c->method == VMS_CHANGE_LOG ? log(r) : (r - 1) * c->scale;
}

double vms_change_p_beyond(const struct vms_change *c, double r, int up)
{
	double e0 = est_of(c, r), p;

	if (c->se == 0 || !isfinite(c->df))
		return up ? (c->est > e0 ? 0 : 1) : (c->est < e0 ? 0 : 1);
	gsl_quiet();
	p = up ? gsl_cdf_tdist_Q((c->est - e0) / c->se, c->df)
	       : gsl_cdf_tdist_P((c->est - e0) / c->se, c->df);
	return p > 1 ? 1 : p;
}

double vms_change_bound(const struct vms_change *c, double alpha, int lower)
{
	double q = 0, x;

	if (!c->defined || !(alpha > 0 && alpha < 1))
		return NAN;
	if (c->se > 0) {
		gsl_quiet();
		q = gsl_cdf_tdist_Pinv(1 - alpha, c->df);
		if (!isfinite(q))
			return NAN;
	}
	x = lower ? c->est - q * c->se : c->est + q * c->se;
	return c->method == VMS_CHANGE_LOG ? exp(x) : 1 + x / c->scale;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* Sorted ln x of n positive values in a new array, or NULL when a value is <= 0. */
static double *sorted_logs(const double *x, size_t n)
{
	double *y = vms_xcalloc(n + 1, sizeof(*y));
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(x[i] > 0)) {
			free(y);
			return NULL;
		}
		y[i] = log(x[i]);
	}
	qsort(y, n, sizeof(*y), cmp_double);
	return y;
}

/* Trimmed mean of sorted y[0..n) without g values at each end, and Yuen's d = (n - 1) s_w^2 /
 * (h (h - 1)) from the Winsorized variance s_w^2 (h = n - 2g). */
static void trimmed(const double *y, size_t n, size_t g, double *mean, double *d)
{
	size_t h = n - 2 * g, i;
	double sum = 0, wm = 0, ss = 0;

	for (i = g; i < n - g; i++)
		sum += y[i];
	*mean = sum / h;
	for (i = 0; i < n; i++)
		wm += i < g ? y[g] : i >= n - g ? y[n - g - 1] : y[i];
	wm /= n;
	for (i = 0; i < n; i++) {
		double v = (i < g ? y[g] : i >= n - g ? y[n - g - 1] : y[i]) - wm;

		ss += v * v;
	}
	*d = ss / (h * (h - 1.0));
}

/* Yuen's variance of a trimmed mean, *d with *df, scaled for runs that are not independent:
 * by the ratio of vms_mean_var()'s batch-means variance of the mean of ln x[0..n) (in run
 * order) to s^2 / n, with the batch means' degrees of freedom when fewer. Unchanged below
 * VMS_BATCH_MIN_RUNS runs or when a value is <= 0 (the caller refuses those). */
static void correlated(const double *x, size_t n, double *d, double *df)
{
	struct vms_summary s;
	double *l, v, dfv;
	size_t i;

	if (n < VMS_BATCH_MIN_RUNS)
		return;
	l = vms_xcalloc(n, sizeof(*l));
	for (i = 0; i < n; i++)
		l[i] = x[i] > 0 ? log(x[i]) : NAN;
	vms_summarize(l, n, &s);
	if (vms_mean_var(l, n, &v, &dfv) == 1 && s.sd > 0 && isfinite(v)) {
		*d *= v / (s.sd * s.sd / (double)n);
		*df = fmin(*df, dfv);
	}
	free(l);
}

int vms_yuen_change(const double *a, size_t na, const double *b, size_t nb, double trim,
                    double alpha, struct vms_change *c)
{
	size_t ga = (size_t)floor(trim * na), gb = (size_t)floor(trim * nb);
	double *ya, *yb, ma, mb, da, db, dfa, dfb, q;
	int ret = 0;

	if (!(alpha > 0 && alpha < 1) || !(trim >= 0 && trim < 0.5) || na < 2 * ga + 2 ||
	    nb < 2 * gb + 2)
		return -EINVAL;
	ya = sorted_logs(a, na);
	yb = sorted_logs(b, nb);
	if (!ya || !yb) {
		ret = -EDOM;
		goto out;
	}
	gsl_quiet();
	trimmed(ya, na, ga, &ma, &da);
	trimmed(yb, nb, gb, &mb, &db);
	{
		size_t ha = na - 2 * ga, hb = nb - 2 * gb;

		dfa = (double)(ha - 1);
		dfb = (double)(hb - 1);
		correlated(a, na, &da, &dfa);
		correlated(b, nb, &db, &dfb);
		floor_small_side(&da, &dfa, na, &db, &dfb, nb);
	}
	c->method = VMS_CHANGE_LOG;
	c->defined = 1;
	c->scale = 1;
	c->est = mb - ma;
	c->se = sqrt(da + db);
	if (!isfinite(c->est) || !isfinite(c->se)) {
		ret = -EDOM;
		goto out;
	}
	if (c->se == 0) {
		c->df = INFINITY;
		c->p = c->est == 0 ? 1 : 0;
		q = 0;
	} else {
		c->df = (da + db) * (da + db) / (da * da / dfa + db * db / dfb);
		c->p = 2 * gsl_cdf_tdist_Q(fabs(c->est / c->se), c->df);
		q = gsl_cdf_tdist_Pinv(1 - alpha / 2, c->df);
		if (isnan(c->p) || !isfinite(q)) {
			ret = -EDOM;
			goto out;
		}
		if (c->p > 1)
			c->p = 1;
	}
	c->ratio = exp(c->est);
	c->lo = exp(c->est - q * c->se);
	c->hi = exp(c->est + q * c->se);
out:
	free(ya);
	free(yb);
	return ret;
}

double vms_grubbs_critical(size_t n, double alpha)
{
	double t;

	if (n < 3 || !(alpha > 0 && alpha < 1))
		return NAN;
	gsl_quiet();
	t = gsl_cdf_tdist_Pinv(1 - alpha / (2.0 * n), n - 2.0);
	return (n - 1) / sqrt((double)n) * sqrt(t * t / (n - 2 + t * t));
}

size_t vms_outliers(const double *x, size_t n, unsigned char *flag)
{
	unsigned char *out = vms_xcalloc(n + 1, 1);
	size_t i, left = n, found = 0;

	for (i = 0; i < n; i++)
		if (!(x[i] > 0))
			left = 0;
	/* Grubbs' test, repeated on the remaining runs while at least 5 remain */
	while (left >= 5) {
		double sum = 0, ss = 0, mean, sd, g = -1;
		size_t far = 0;

		for (i = 0; i < n; i++)
			if (!out[i])
				sum += log(x[i]);
		mean = sum / left;
		for (i = 0; i < n; i++)
			if (!out[i])
				ss += (log(x[i]) - mean) * (log(x[i]) - mean);
		sd = sqrt(ss / (left - 1));
		if (!(sd > 0))
			break;
		for (i = 0; i < n; i++)
			if (!out[i] && fabs(log(x[i]) - mean) / sd > g) {
				g = fabs(log(x[i]) - mean) / sd;
				far = i;
			}
		if (!(g > vms_grubbs_critical(left, VMS_OUTLIER_ALPHA)))
			break;
		out[far] = 1;
		found++;
		left--;
	}
	if (flag)
		for (i = 0; i < n; i++)
			flag[i] = out[i];
	free(out);
	return found;
}

int vms_bimodal(const double *x, size_t n)
{
	double *y;
	size_t i, j;
	int found = 0;

	if (n < 8 || !(y = sorted_logs(x, n)))
		return 0;
	/* split after y[i]: y[0..i] and y[i+1..n), at least 3 values each */
	for (i = 2; i + 3 < n && !found; i++) {
		double ml = 0, mr = 0, ss = 0, sw;

		for (j = 0; j <= i; j++)
			ml += y[j];
		ml /= i + 1;
		for (j = i + 1; j < n; j++)
			mr += y[j];
		mr /= n - i - 1;
		for (j = 0; j < n; j++) {
			double v = y[j] - (j <= i ? ml : mr);

			ss += v * v;
		}
		sw = sqrt(ss / (n - 2));
		found = sw > 0 ? y[i + 1] - y[i] > VMS_BIMODAL_GAP * sw : y[i + 1] > y[i];
	}
	free(y);
	return found;
}

double vms_fisher_greater(unsigned a_events, unsigned a_n, unsigned b_events, unsigned b_n)
{
	unsigned t = a_events + b_events, k, kmax;
	double p = 0;

	if (a_events > a_n || b_events > b_n)
		return NAN;
	gsl_quiet();
	kmax = t < b_n ? t : b_n;
	for (k = b_events; k <= kmax; k++)
		p += gsl_ran_hypergeometric_pdf(k, b_n, a_n, t);
	return p > 1 ? 1 : p;
}

unsigned vms_runs_needed_one_sided(double sd, double detect, double th, double alpha, int paired)
{
	double delta, z, k = paired ? 1 : 2, n0;
	unsigned n;

	if (!(sd > 0) || !isfinite(sd) || !(detect > th) || !(th >= 0) || !(alpha > 0 && alpha < 1))
		return 0;
	gsl_quiet();
	delta = log1p(detect) - log1p(th);
	z = gsl_cdf_ugaussian_Pinv(1 - alpha) + gsl_cdf_ugaussian_Pinv(0.8);
	/* the normal approximation is a lower bound: t quantiles are larger */
	n0 = floor(k * z * z * (sd / delta) * (sd / delta));
	if (n0 >= 1e6)
		return 1000000;
	for (n = n0 < 2 ? 2 : (unsigned)n0; n < 1000000; n++) {
		double df = paired ? n - 1.0 : 2.0 * n - 2, q;

		q = gsl_cdf_tdist_Pinv(1 - alpha, df) + gsl_cdf_tdist_Pinv(0.8, df);
		if (n >= k * q * q * (sd / delta) * (sd / delta))
			return n;
	}
	return 1000000;
}
