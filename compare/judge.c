/* The verdict of one cell of `vmsuite compare`: which test a metric's runs get (Welch on the
 * logs, paired, suite means, Yuen's trimmed means, Fisher for counts of runs with an event),
 * its one-sided bounds against the threshold, "unstable", and the verdict itself. Part of the
 * model of compare/compare.c; prints nothing, no kernel paths. */
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/stats.h"
#include "core/metric.h"
#include "core/util.h"

static enum vms_compare_verdict direction(const struct vms_compare_metric *m, int up, int sure)
{
	int worse = m->better == VMS_BETTER_LOWER ? up : !up;

	if (sure)
		return worse ? VMS_VERDICT_REGRESSION : VMS_VERDICT_IMPROVEMENT;
	return worse ? VMS_VERDICT_PROB_REGRESSION : VMS_VERDICT_PROB_IMPROVEMENT;
}

/* True when a change of this metric upwards is worse (more time, more events). */
static int worse_up(const struct vms_compare_metric *m)
{
	return m->better == VMS_BETTER_LOWER;
}

/* The verdict of a Fisher cell; fam: the size of the Holm family it is in (its adjusted
 * one-sided p-values decide), 0 outside it (the two-sided p decides, as for explaining
 * metrics). A derived count (failed_runs, oom_kills) is never in the family: its one-sided
 * p decides alone, and any event on the worse side with none on the other is at least "cannot
 * tell" (a kernel on which the workload sometimes fails is not shown good). */
void vms_compare_decide_fisher(const struct vms_compare_opts *o, const struct vms_compare_metric *m,
                               struct vms_compare_cell *c, size_t fam)
{
	const struct vms_compare_side *b = &m->base, *x = &c->side;
	int up = x->s.n && b->s.n && (double)x->events / x->s.n > (double)b->events / b->s.n;
	int bad_more = worse_up(m);
	unsigned worse_ev = bad_more ? x->events : b->events,
	         other_ev = bad_more ? b->events : x->events;

	c->noninferior = 0;
	if (m->better == VMS_BETTER_NONE) {
		c->verdict = VMS_VERDICT_INFO;
		return;
	}
	if (!b->s.n || !x->s.n) {
		c->verdict = VMS_VERDICT_INCONCLUSIVE;
		return;
	}
	if (m->derived) {
		/* every run of one side failed (or was OOM-killed) and none of the other: a
		 * kernel on which the workload cannot run, whatever n is */
		if ((!b->events && x->events == x->s.n) || (b->events == b->s.n && !x->events))
			c->verdict = direction(m, x->events > 0, 1);
		else if (c->p_worse < o->alpha)
			c->verdict = direction(m, bad_more, 1);
		else if (c->p_better < o->alpha)
			c->verdict = direction(m, !bad_more, 1);
		else if (worse_ev && !other_ev)
			c->verdict = VMS_VERDICT_CANNOT_TELL;
		else if (!b->events && !x->events)
			c->verdict = VMS_VERDICT_NO_CHANGE;
		else
			c->verdict = VMS_VERDICT_INCONCLUSIVE;
		c->noninferior = bad_more ? !x->events : x->events == x->s.n;
		return;
	}
	if (fam ? c->p_adj_worse < o->alpha : c->p < o->alpha && up == bad_more)
		c->verdict = direction(m, bad_more, 1);
	else if (fam ? c->p_adj_better < o->alpha : c->p < o->alpha)
		c->verdict = direction(m, !bad_more, 1);
	else if (!b->events && !x->events)
		c->verdict = VMS_VERDICT_NO_CHANGE;
	else
		c->verdict = VMS_VERDICT_INCONCLUSIVE;
	/* non-inferior: no larger share of runs with the event on the worse side */
	c->noninferior = c->verdict != VMS_VERDICT_REGRESSION &&
	                 (bad_more ? (double)x->events / x->s.n <= (double)b->events / b->s.n
	                           : (double)x->events / x->s.n >= (double)b->events / b->s.n);
}

void vms_compare_judge_fisher(const struct vms_compare_opts *o, const struct vms_compare_metric *m,
                              struct vms_compare_cell *c)
{
	const struct vms_compare_side *b = &m->base, *x = &c->side;
	double more = vms_fisher_greater(b->events, b->s.n, x->events, x->s.n),
	       less = vms_fisher_greater(x->events, x->s.n, b->events, b->s.n);

	c->method = VMS_METHOD_FISHER;
	c->p = vms_fisher_exact(b->events, b->s.n, x->events, x->s.n);
	c->p_worse = worse_up(m) ? more : less;
	c->p_better = worse_up(m) ? less : more;
	c->change = b->s.mean > 0 ? x->s.mean / b->s.mean : NAN;
	c->lo = c->hi = NAN;
	vms_compare_decide_fisher(o, m, c, 0);
}

/* Marks an unstable cell: runs that disagree too much for the test, on the log scale (the
 * spread of ln x beyond --cv-limit; for pairs, of the log ratios), or by their shape (two
 * groups, or more outliers than the trimmed test removes). */
static void check_unstable(const struct vms_compare_opts *o, const struct vms_compare_metric *m,
                           struct vms_compare_cell *c)
{
	const struct vms_compare_side *sd[2] = {&m->base, &c->side};
	int bad[2] = {0, 0}, i;

	if (c->pairs) {
		if (c->need_cv > o->cv_limit)
			bad[0] = bad[1] = 1;
	} else {
		for (i = 0; i < 2; i++) {
			double spread = isnan(sd[i]->lsd) ? sd[i]->s.cv : sd[i]->lsd;

			bad[i] = spread > o->cv_limit;
		}
	}
	for (i = 0; i < 2; i++)
		bad[i] |= sd[i]->bimodal || sd[i]->outliers > (size_t)floor(0.2 * sd[i]->s.n);
	if (bad[0] || bad[1]) {
		c->verdict = VMS_VERDICT_UNSTABLE;
		c->unstable_side = bad[0] ? (bad[1] ? 2 : 0) : 1;
		c->runs_needed = 0;
		c->noninferior = 0;
	}
}

/* The verdict of a t cell (change, lo, hi, ch set; change NAN = no relative change). fam: the
 * size of the Holm family the cell is in, 0 outside it. In the family a regression is a
 * one-sided bound at level alpha / fam beyond the threshold in the worse direction (which
 * implies a Holm-adjusted one-sided p below alpha), "probably" a Holm-adjusted one-sided p
 * below alpha / 2; outside it the two-sided interval and p decide. */
void vms_compare_decide_t(const struct vms_compare_opts *o, const struct vms_compare_metric *m,
                          struct vms_compare_cell *c, size_t fam)
{
	double th = o->threshold, a1 = fam ? o->alpha / fam : o->alpha / 2;
	int wu = worse_up(m), reg, imp, prob_w, prob_b;

	c->runs_needed = 0;
	c->unstable_side = 0;
	c->noninferior = 0;
	c->bound = c->shown = NAN;
	if (m->better == VMS_BETTER_NONE) {
		c->verdict = VMS_VERDICT_INFO;
		return;
	}
	/* "probably": Holm-adjusted one-sided p below alpha / 2 in the family (both directions
	 * together stay within alpha), the two-sided p below alpha outside it */
	prob_w = fam ? c->p_adj_worse < o->alpha / 2 : c->p < o->alpha && c->p_worse < c->p_better;
	prob_b = fam ? c->p_adj_better < o->alpha / 2 : c->p < o->alpha && c->p_better < c->p_worse;
	if (isnan(c->change)) {
		/* Raw values with a base mean <= 0: no relative change, the test alone decides. */
		if (c->p >= 1 && c->side.s.mean == m->base.s.mean)
			c->verdict = VMS_VERDICT_NO_CHANGE;
		else if (prob_w)
			c->verdict = direction(m, wu, 0);
		else if (prob_b)
			c->verdict = direction(m, !wu, 0);
		else
			c->verdict = VMS_VERDICT_INCONCLUSIVE;
		c->noninferior = c->verdict == VMS_VERDICT_NO_CHANGE;
		check_unstable(o, m, c);
		return;
	}
	{
		double lo1 = vms_change_bound(&c->ch, a1, 1), hi1 = vms_change_bound(&c->ch, a1, 0);

		reg = wu ? lo1 > 1 + th : hi1 < 1 - th;
		imp = wu ? hi1 < 1 - th : lo1 > 1 + th;
		if (reg || imp)
			c->shown = reg == wu ? lo1 : hi1;
	}
	if (c->lo >= 1 - th && c->hi <= 1 + th) {
		c->verdict = VMS_VERDICT_NO_CHANGE;
	} else if (reg) {
		c->verdict = direction(m, wu, 1);
	} else if (imp) {
		c->verdict = direction(m, !wu, 1);
	} else if (prob_w) {
		c->verdict = direction(m, wu, 0);
	} else if (prob_b) {
		c->verdict = direction(m, !wu, 0);
	} else {
		c->verdict = VMS_VERDICT_INCONCLUSIVE;
		c->runs_needed =
		    vms_runs_needed_one_sided(c->need_cv, o->detect, th, a1, c->pairs > 0);
	}
	/* non-inferior (bisect "good"): the one-sided bound in the worse direction stays within
	 * --detect; every metric must be, so no multiplicity correction applies */
	c->bound = vms_change_bound(&c->ch, o->alpha, !wu);
	c->noninferior = c->verdict != VMS_VERDICT_REGRESSION &&
	                 (wu ? c->bound < 1 + o->detect : c->bound > 1 - o->detect);
	check_unstable(o, m, c);
}

/* The spread the runs-needed estimate uses: the larger per-run sd of ln x of the sides as the
 * tests see it (esd: larger than the plain sd when the runs drift together), the larger cv
 * when a value is <= 0; judge_t() replaces it by the sd of the log ratios for pairs. */
static double cell_cv(const struct vms_compare_metric *m, const struct vms_compare_cell *c)
{
	double cvb = m->base.esd, cvx = c->side.esd;

	if (isnan(cvb) && isnan(cvx)) {
		cvb = m->base.s.cv;
		cvx = c->side.s.cv;
	}
	return isnan(cvb) ? cvx : isnan(cvx) ? cvb : fmax(cvb, cvx);
}

/* The pairs (base value, other value) of the same suite and run index; returns their count. */
static size_t make_pairs(const struct vms_compare_side *a, const struct vms_compare_side *b,
                         double *pa, double *pb)
{
	size_t i, j, n = 0;

	for (i = 0; i < a->s.n; i++)
		for (j = 0; j < b->s.n; j++)
			if (a->suite[i] == b->suite[j] && a->index[i] == b->index[j]) {
				pa[n] = a->values[i];
				pb[n++] = b->values[j];
				break;
			}
	return n;
}

void vms_compare_judge_t(const struct vms_compare *cmp, const struct vms_compare_metric *m,
                         struct vms_compare_cell *c, int paired)
{
	const struct vms_compare_opts *o = &cmp->opts;
	const struct vms_compare_side *a = &m->base, *b = &c->side;
	size_t na = a->s.n, nb = b->s.n;
	double cv = cell_cv(m, c);
	struct vms_change ch;
	int ret = -EINVAL, runs_decide;

	c->runs_have = (unsigned)(na < nb ? na : nb);
	c->method = VMS_METHOD_NONE;
	if (paired) {
		double *pa = vms_xcalloc(na + 1, sizeof(*pa)),
		       *pb = vms_xcalloc(na + 1, sizeof(*pb));
		size_t n = make_pairs(a, b, pa, pb), i;

		ret = vms_paired_change(pa, pb, n, o->alpha, &ch);
		if (!ret) {
			struct vms_summary sd;

			c->method = ch.method == VMS_CHANGE_LOG ? VMS_METHOD_PAIRED_LOG
			                                        : VMS_METHOD_PAIRED_RAW;
			c->pairs = n;
			c->runs_have = (unsigned)n;
			for (i = 0; i < n; i++)
				pa[i] = ch.method == VMS_CHANGE_LOG ? log(pb[i] / pa[i])
				                                    : (pb[i] - pa[i]) / a->s.mean;
			vms_summarize(pa, n, &sd);
			if (isfinite(sd.sd))
				cv = sd.sd;
		}
		free(pa);
		free(pb);
	}
	if (ret && (a->n_suites > 1 || b->n_suites > 1)) {
		ret = vms_compare_suite_means_change(a, b, o->alpha, &ch, &c->drift, &c->within);
		if (!ret)
			c->method = VMS_METHOD_SUITES_LOG;
	}
	/* several suites: the runs decide only where the suite means cannot (a value <= 0) */
	runs_decide = ret && (ret == -EDOM || (a->n_suites <= 1 && b->n_suites <= 1));
	/* the rule fixed in advance for heavy tails: an outlier on either side (on the log
	 * scale) makes the trimmed-means test decide, whatever either test would say */
	if (runs_decide && (a->outliers || b->outliers)) {
		ret = vms_yuen_change(a->values, na, b->values, nb, 0.2, o->alpha, &ch);
		if (!ret)
			c->method = VMS_METHOD_YUEN_LOG;
	}
	if (runs_decide && ret) {
		ret = vms_change_test(a->values, na, b->values, nb, o->alpha, &ch);
		if (!ret)
			c->method =
			    ch.method == VMS_CHANGE_LOG ? VMS_METHOD_LOG_T : VMS_METHOD_RAW_T;
	}
	if (ret) {
		c->method = VMS_METHOD_NONE;
		c->change = na && nb && a->s.mean > 0 ? b->s.mean / a->s.mean : NAN;
		c->verdict =
		    m->better == VMS_BETTER_NONE ? VMS_VERDICT_INFO : VMS_VERDICT_INCONCLUSIVE;
		c->runs_needed =
		    vms_runs_needed_one_sided(cv, o->detect, o->threshold, o->alpha / 2, 0);
		c->need_cv = cv;
		return;
	}
	c->ch = ch;
	c->p = ch.p;
	c->p_worse = vms_change_p_beyond(&ch, 1, worse_up(m));
	c->p_better = vms_change_p_beyond(&ch, 1, !worse_up(m));
	c->change = ch.defined ? ch.ratio : NAN;
	c->lo = ch.defined ? ch.lo : NAN;
	c->hi = ch.defined ? ch.hi : NAN;
	c->need_cv = cv;
	vms_compare_decide_t(o, m, c, 0);
}
