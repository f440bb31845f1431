/* Statistics for `vmsuite compare` on GSL's distributions: Welch's t-test on log or raw values,
 * Fisher's exact test and the runs-needed estimate. No kernel paths. */
#include "report/stats.h"

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

int vms_welch(const double *a, size_t na, const double *b, size_t nb, double alpha,
              struct vms_welch *w)
{
	struct vms_summary sa, sb;
	double va, vb, q;

	if (na < 2 || nb < 2 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	gsl_quiet();
	vms_summarize(a, na, &sa);
	vms_summarize(b, nb, &sb);
	va = sa.sd * sa.sd / na;
	vb = sb.sd * sb.sd / nb;
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
	w->df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
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
