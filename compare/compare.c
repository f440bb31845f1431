/* `vmsuite compare`: the comparison model (BASE against each other result file, per workload
 * and metric, with Welch / Fisher statistics and verdicts) and its text, markdown and json
 * renderers. Reads result files only; no kernel paths of its own. */
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/metric.h"
#include "core/result.h"
#include "core/util.h"
#include "compare/sound.h"

void vms_compare_opts_init(struct vms_compare_opts *o)
{
	o->threshold = 0.02;
	o->alpha = 0.05;
	o->detect = 0.05;
	o->cv_limit = 0.20;
	o->force = 0;
}

const char *vms_verdict_name(enum vms_verdict v)
{
	switch (v) {
	case VMS_VERDICT_INFO: return "-";
	case VMS_VERDICT_REGRESSION: return "regression";
	case VMS_VERDICT_IMPROVEMENT: return "improvement";
	case VMS_VERDICT_PROB_REGRESSION: return "probably regression";
	case VMS_VERDICT_PROB_IMPROVEMENT: return "probably improvement";
	case VMS_VERDICT_NO_CHANGE: return "no change";
	case VMS_VERDICT_INCONCLUSIVE: return "inconclusive";
	case VMS_VERDICT_UNSTABLE: return "unstable";
	case VMS_VERDICT_NOT_COMPARABLE: return "not comparable";
	case VMS_VERDICT_CANNOT_TELL: return "cannot tell";
	default: return "missing";
	}
}

/* The short form the 100-column text table uses. */
static const char *verdict_short(enum vms_verdict v)
{
	switch (v) {
	case VMS_VERDICT_PROB_REGRESSION: return "prob. regression";
	case VMS_VERDICT_PROB_IMPROVEMENT: return "prob. improvement";
	default: return vms_verdict_name(v);
	}
}

const char *vms_cmp_method_name(enum vms_cmp_method m)
{
	switch (m) {
	case VMS_CMP_LOG_T: return "welch_log";
	case VMS_CMP_RAW_T: return "welch_raw";
	case VMS_CMP_FISHER: return "fisher";
	case VMS_CMP_PAIRED_LOG: return "paired_log";
	case VMS_CMP_PAIRED_RAW: return "paired_raw";
	case VMS_CMP_SUITES_LOG: return "suites_log";
	default: return "none";
	}
}

/* ---- building the model ---------------------------------------------------------------- */

/* The catalogue's audio groups form the Sound section. */
static int is_audio(const struct vms_metric_def *d)
{
	return d && (d->group == VMS_GROUP_SOUND || d->group == VMS_GROUP_LATENCY ||
	             d->group == VMS_GROUP_PROBE);
}

static enum vms_better better_of(const char *s, enum vms_better def)
{
	if (s && !strcmp(s, "lower"))
		return VMS_BETTER_LOWER;
	if (s && !strcmp(s, "higher"))
		return VMS_BETTER_HIGHER;
	return s ? VMS_BETTER_NONE : def;
}

/* The columns while the model is built: each side's documents (its suites) and, when the
 * variants of one file are compared, the variant it is. */
struct cmp_col {
	json_t *const *docs;
	size_t n;
	const char *variant;
};

struct cmp_ctx {
	struct cmp_col *cols;
};

/* The workload called name in doc, of variant label ("default" matches an entry without a
 * "variant", as a format-1 file has); label NULL: the first entry called name. */
static const json_t *variant_wl(const json_t *doc, const char *name, const char *label)
{
	const json_t *wl;
	size_t i;

	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const char *n = json_string_value(json_object_get(wl, "name"));
		const char *v = json_string_value(json_object_get(wl, "variant"));

		if (!n || strcmp(n, name))
			continue;
		if (!label || (v ? !strcmp(v, label) : !strcmp(label, "default")))
			return wl;
	}
	return NULL;
}

const char **vms_result_variant_labels(const json_t *doc, size_t *n)
{
	const json_t *vs = json_object_get(doc, "variants"), *v;
	const char **out = vms_xcalloc(json_array_size(vs) + 1, sizeof(*out));
	size_t i;

	*n = 0;
	json_array_foreach (vs, i, v) {
		const char *l = json_string_value(json_object_get(v, "label"));

		if (l)
			out[(*n)++] = l;
	}
	if (!*n)
		out[(*n)++] = "default";
	return out;
}

static size_t variant_count(const json_t *doc)
{
	size_t n;

	free(vms_result_variant_labels(doc, &n));
	return n;
}

size_t vms_compare_sides(const struct vms_cmp_input *in)
{
	if (!in->n)
		return 0;
	if (in->n == 1)
		return variant_count(in->docs[0]);
	return in->side ? in->side[in->n - 1] + 1 : in->n;
}

/* Workload w of column k in its suite s (NULL: absent). */
static const json_t *col_wl(const struct vms_compare *c, const struct cmp_ctx *x, size_t k,
                            size_t s, const struct vms_cmp_workload *w)
{
	const char *label = c->variants ? x->cols[k].variant : w->variant;

	return s < x->cols[k].n ? variant_wl(x->cols[k].docs[s], w->name, label) : NULL;
}

/* Adds the values of metric name in workload wl (NULL wl or absent metric: nothing) to side s
 * as suite su: the non-null samples, or for a derived count one 0/1 per run that ended (ok or
 * failed), in run order. */
static void side_add(struct vms_cmp_side *s, const json_t *wl, unsigned su, const char *name,
                     int derived)
{
	const json_t *arr, *v, *runs = json_object_get(wl, "runs");
	size_t i, cap;

	if (!wl)
		return;
	if (derived)
		arr = runs;
	else
		arr = json_object_get(json_object_get(json_object_get(wl, "metrics"), name),
		                      "samples");
	s->present |= derived ? json_array_size(arr) > 0
	                      : json_object_get(json_object_get(wl, "metrics"), name) != NULL;
	s->n_suites++;
	cap = s->s.n + json_array_size(arr) + 1;
	s->values = vms_xrealloc(s->values, cap * sizeof(*s->values));
	s->runs = vms_xrealloc(s->runs, cap * sizeof(*s->runs));
	s->suite = vms_xrealloc(s->suite, cap * sizeof(*s->suite));
	s->index = vms_xrealloc(s->index, cap * sizeof(*s->index));
	json_array_foreach (arr, i, v) {
		const json_t *run = json_array_get(runs, i);
		const char *status = json_string_value(json_object_get(v, "status"));
		const json_t *idx = json_object_get(run, "index");
		double x;

		if (!derived && !json_is_number(v))
			continue; /* a failed run has no value */
		if (derived && (!status || (strcmp(status, "ok") && strcmp(status, "failed"))))
			continue; /* skipped or interrupted: no outcome */
		if (!derived)
			x = json_number_value(v);
		else if (!strcmp(name, "failed_runs"))
			x = !strcmp(status, "failed");
		else
			x = json_is_true(json_object_get(v, "oom_killed"));
		s->runs[s->s.n] = i;
		s->suite[s->s.n] = su;
		s->index[s->s.n] =
		    json_is_integer(idx) ? (long)json_integer_value(idx) : (long)i + 1;
		s->values[s->s.n++] = x;
	}
}

static void side_done(struct vms_cmp_side *s)
{
	size_t i;

	vms_summarize(s->values, s->s.n, &s->s);
	s->events = 0;
	for (i = 0; i < s->s.n; i++)
		s->events += s->values[i] > 0;
}

/* Fills side s with metric name of workload w in column k (every suite). */
static void side_fill(const struct vms_compare *c, const struct cmp_ctx *x, struct vms_cmp_side *s,
                      size_t k, const struct vms_cmp_workload *w, const char *name, int derived)
{
	size_t su;

	memset(s, 0, sizeof(*s));
	s->values = vms_xcalloc(1, sizeof(*s->values));
	s->runs = vms_xcalloc(1, sizeof(*s->runs));
	s->suite = vms_xcalloc(1, sizeof(*s->suite));
	s->index = vms_xcalloc(1, sizeof(*s->index));
	for (su = 0; su < x->cols[k].n; su++)
		side_add(s, col_wl(c, x, k, su, w), (unsigned)su, name, derived);
	side_done(s);
}

static void side_release(struct vms_cmp_side *s)
{
	free(s->values);
	free(s->runs);
	free(s->suite);
	free(s->index);
}

static int soft_applies(const struct vms_envdiff *d, const char *workload, int audio)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct vms_env_item *it = &d->items[i];

		if (it->cls != VMS_ENV_SOFT)
			continue;
		if (it->scope == VMS_ENV_GLOBAL || (it->scope == VMS_ENV_AUDIO && audio) ||
		    (it->scope == VMS_ENV_WORKLOAD && !strcmp(it->workload, workload)))
			return 1;
	}
	return 0;
}

static enum vms_verdict direction(const struct vms_cmp_metric *m, int up, int sure)
{
	int worse = m->better == VMS_BETTER_LOWER ? up : !up;

	if (sure)
		return worse ? VMS_VERDICT_REGRESSION : VMS_VERDICT_IMPROVEMENT;
	return worse ? VMS_VERDICT_PROB_REGRESSION : VMS_VERDICT_PROB_IMPROVEMENT;
}

/* The verdict of a Fisher cell with p-value p (the raw or the adjusted one). */
static void decide_fisher(const struct vms_compare_opts *o, const struct vms_cmp_metric *m,
                          struct vms_cmp_cell *c, double p)
{
	const struct vms_cmp_side *b = &m->base, *x = &c->side;

	if (m->better == VMS_BETTER_NONE)
		c->verdict = VMS_VERDICT_INFO;
	else if (!b->s.n || !x->s.n)
		c->verdict = VMS_VERDICT_INCONCLUSIVE;
	else if (m->derived &&
	         ((!b->events && x->events == x->s.n) || (b->events == b->s.n && !x->events)))
		/* Every run of one side failed (or was OOM-killed) and none of the other: a kernel
		 * on which the workload cannot run, whatever n is. */
		c->verdict = direction(m, x->events > 0, 1);
	else if (p < o->alpha || c->p < o->alpha)
		/* significant alone but not after Holm's adjustment: only "probably" */
		c->verdict = direction(m, (double)x->events / x->s.n > (double)b->events / b->s.n,
		                       p < o->alpha);
	else if (!b->events && !x->events)
		c->verdict = VMS_VERDICT_NO_CHANGE;
	else
		c->verdict = VMS_VERDICT_INCONCLUSIVE;
}

static void judge_fisher(const struct vms_compare_opts *o, const struct vms_cmp_metric *m,
                         struct vms_cmp_cell *c)
{
	const struct vms_cmp_side *b = &m->base, *x = &c->side;

	c->method = VMS_CMP_FISHER;
	c->p = vms_fisher_exact(b->events, b->s.n, x->events, x->s.n);
	c->change = b->s.mean > 0 ? x->s.mean / b->s.mean : NAN;
	c->lo = c->hi = NAN;
	decide_fisher(o, m, c, c->p);
}

/* The verdict of a t cell (change, lo, hi set; change NAN = no relative change) with p-value
 * p; cv is the larger cv of the two sides, for the runs-needed estimate. */
static void decide_t(const struct vms_compare_opts *o, const struct vms_cmp_metric *m,
                     struct vms_cmp_cell *c, double p, double cv)
{
	double th = o->threshold, cvb = m->base.s.cv, cvx = c->side.s.cv;

	c->runs_needed = 0;
	c->unstable_side = 0;
	if (m->better == VMS_BETTER_NONE) {
		c->verdict = VMS_VERDICT_INFO;
		return;
	}
	if (isnan(c->change)) {
		/* Raw values with a base mean <= 0: no relative change, the test alone decides. */
		if (p >= 1 && c->side.s.mean == m->base.s.mean)
			c->verdict = VMS_VERDICT_NO_CHANGE;
		else if (p < o->alpha)
			c->verdict = direction(m, c->side.s.mean > m->base.s.mean, 0);
		else
			c->verdict = VMS_VERDICT_INCONCLUSIVE;
	} else if (c->lo >= 1 - th && c->hi <= 1 + th) {
		c->verdict = VMS_VERDICT_NO_CHANGE;
	} else if (p < o->alpha && c->lo > 1 + th) {
		c->verdict = direction(m, 1, 1);
	} else if (p < o->alpha && c->hi < 1 - th) {
		c->verdict = direction(m, 0, 1);
	} else if (p < o->alpha || c->p < o->alpha) {
		/* significant, but the interval reaches inside the threshold, or significant
		 * alone but not after Holm's adjustment over the deciding metrics */
		c->verdict = direction(m, c->change > 1, 0);
	} else {
		c->verdict = VMS_VERDICT_INCONCLUSIVE;
		c->runs_needed = vms_runs_needed(cv, o->detect, o->alpha);
	}
	/* Runs that disagree this much break the test's assumptions (a bimodal metric, a busy
	 * machine): no verdict, not even a clear-looking one, is trusted then. For pairs it is
	 * the spread of the log ratios: drift that moves both sides alike is what pairing
	 * removes, and does not make them unstable. */
	if (c->pairs) {
		if (c->need_cv * sqrt(2) > o->cv_limit) {
			c->verdict = VMS_VERDICT_UNSTABLE;
			c->unstable_side = 2;
			c->runs_needed = 0;
		}
	} else if (cvb > o->cv_limit || cvx > o->cv_limit) {
		c->verdict = VMS_VERDICT_UNSTABLE;
		c->unstable_side = cvb > o->cv_limit ? (cvx > o->cv_limit ? 2 : 0) : 1;
		c->runs_needed = 0;
	}
}

/* The spread the runs-needed estimate uses: the larger cv of the sides; for a paired cell the
 * sd of the log ratios / sqrt(2), so that vms_runs_needed()'s two-sample formula gives the
 * one-sample n = (z + z)^2 (sd / delta)^2. */
static double cell_cv(const struct vms_cmp_metric *m, const struct vms_cmp_cell *c)
{
	double cvb = m->base.s.cv, cvx = c->side.s.cv;

	return isnan(cvb) ? cvx : isnan(cvx) ? cvb : fmax(cvb, cvx);
}

/* The pairs (base value, other value) of the same suite and run index; returns their count. */
static size_t make_pairs(const struct vms_cmp_side *a, const struct vms_cmp_side *b, double *pa,
                         double *pb)
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

static void judge_t(const struct vms_compare *cmp, const struct vms_cmp_metric *m,
                    struct vms_cmp_cell *c, int paired)
{
	const struct vms_compare_opts *o = &cmp->opts;
	const struct vms_cmp_side *a = &m->base, *b = &c->side;
	size_t na = a->s.n, nb = b->s.n;
	double cv = cell_cv(m, c);
	struct vms_change ch;
	int ret = -EINVAL, used = 0;

	c->runs_have = (unsigned)(na < nb ? na : nb);
	c->method = VMS_CMP_NONE;
	if (paired) {
		double *pa = vms_xcalloc(na + 1, sizeof(*pa)),
		       *pb = vms_xcalloc(na + 1, sizeof(*pb));
		size_t n = make_pairs(a, b, pa, pb), i;

		ret = vms_paired_change(pa, pb, n, o->alpha, &ch);
		if (!ret) {
			struct vms_summary sd;

			c->method =
			    ch.method == VMS_CHANGE_LOG ? VMS_CMP_PAIRED_LOG : VMS_CMP_PAIRED_RAW;
			c->pairs = n;
			c->runs_have = (unsigned)n;
			for (i = 0; i < n; i++)
				pa[i] = ch.method == VMS_CHANGE_LOG ? log(pb[i] / pa[i])
				                                    : (pb[i] - pa[i]) / a->s.mean;
			vms_summarize(pa, n, &sd);
			if (isfinite(sd.sd))
				cv = sd.sd / sqrt(2);
		}
		free(pa);
		free(pb);
	}
	if (ret && (a->n_suites > 1 || b->n_suites > 1)) {
		ret = vms_suites_change(a->values, a->suite, na, b->values, b->suite, nb, o->alpha,
		                        &ch, &used, &c->drift, &c->within);
		if (!ret)
			c->method = used ? VMS_CMP_SUITES_LOG : VMS_CMP_LOG_T;
	}
	if (ret) {
		ret = vms_change_test(a->values, na, b->values, nb, o->alpha, &ch);
		if (!ret)
			c->method = ch.method == VMS_CHANGE_LOG ? VMS_CMP_LOG_T : VMS_CMP_RAW_T;
	}
	if (ret) {
		c->method = VMS_CMP_NONE;
		c->change = na && nb && a->s.mean > 0 ? b->s.mean / a->s.mean : NAN;
		c->verdict =
		    m->better == VMS_BETTER_NONE ? VMS_VERDICT_INFO : VMS_VERDICT_INCONCLUSIVE;
		c->runs_needed = vms_runs_needed(cv, o->detect, o->alpha);
		c->need_cv = cv;
		return;
	}
	c->p = ch.p;
	c->change = ch.defined ? ch.ratio : NAN;
	c->lo = ch.defined ? ch.lo : NAN;
	c->hi = ch.defined ? ch.hi : NAN;
	c->need_cv = cv;
	decide_t(o, m, c, c->p, cv);
}

/* True when every suite's workload has runs and none of them succeeded (status "ok"); false
 * when no suite has the workload. */
static int no_successful_run(const struct vms_compare *cmp, const struct cmp_ctx *x, size_t k,
                             const struct vms_cmp_workload *w)
{
	size_t su, have = 0;

	for (su = 0; su < x->cols[k].n; su++) {
		const json_t *wl = col_wl(cmp, x, k, su, w);
		const json_t *runs = json_object_get(wl, "runs"), *r;
		size_t i;

		if (!json_array_size(runs))
			continue;
		have++;
		json_array_foreach (runs, i, r) {
			const char *st = json_string_value(json_object_get(r, "status"));

			if (st && !strcmp(st, "ok"))
				return 0;
		}
	}
	return have > 0;
}

/* True when the document was recorded without the audio probe. */
static int without_audio(const json_t *doc)
{
	const json_t *p = json_object_get(doc, "protocol");

	return !json_is_object(json_object_get(doc, "audio")) ||
	       json_is_false(json_object_get(p, "with_audio"));
}

/* Not comparable and confounder marks of a judged cell. */
static void finish_cell(const struct vms_compare *cmp, const struct vms_cmp_workload *w,
                        const struct vms_cmp_metric *m, struct vms_cmp_cell *c, size_t k)
{
	const struct vms_envdiff *env = &cmp->env[k];

	c->confounded = 0;
	if (!cmp->opts.force && vms_envdiff_blocks(env, w->name, m->audio)) {
		c->verdict = VMS_VERDICT_NOT_COMPARABLE;
		c->runs_needed = 0;
		return;
	}
	switch (c->verdict) {
	case VMS_VERDICT_REGRESSION:
	case VMS_VERDICT_IMPROVEMENT:
	case VMS_VERDICT_PROB_REGRESSION:
	case VMS_VERDICT_PROB_IMPROVEMENT:
		c->confounded = soft_applies(env, w->name, m->audio);
		break;
	default: break;
	}
}

/* Judges metric m of column k + 1 against BASE. */
static void build_cell(const struct vms_compare *cmp, const struct cmp_ctx *x,
                       const struct vms_cmp_workload *w, struct vms_cmp_metric *m, size_t k)
{
	struct vms_cmp_cell *c = &m->cells[k];
	size_t na = m->base.s.n, nb;

	memset(c, 0, sizeof(*c));
	c->change = c->lo = c->hi = c->p = c->p_adj = c->drift = c->within = NAN;
	side_fill(cmp, x, &c->side, k + 1, w, m->name, m->derived);
	nb = c->side.s.n;
	/* A side where the workload never ran to the end: its measurements, whatever a failed
	 * run left, say nothing about the kernel; failed_runs says what happened. */
	if (!m->derived &&
	    (no_successful_run(cmp, x, 0, w) || no_successful_run(cmp, x, k + 1, w))) {
		c->verdict = VMS_VERDICT_CANNOT_TELL;
		return;
	}
	/* Absent, or no run has a value: nothing to test, and no number stands in for it. */
	if (!na || !nb) {
		c->verdict = VMS_VERDICT_MISSING;
		c->by_design = m->audio && ((!na && without_audio(x->cols[0].docs[0])) ||
		                            (!nb && without_audio(x->cols[k + 1].docs[0])));
		return;
	}
	if (m->count && !(na >= 2 && nb >= 2 && m->base.events == na && c->side.events == nb))
		judge_fisher(&cmp->opts, m, c);
	else
		judge_t(cmp, m, c, cmp->files[k + 1].paired);
	finish_cell(cmp, w, m, c, k);
}

static struct vms_cmp_metric *metric_find(struct vms_cmp_workload *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->n_metrics; i++)
		if (!strcmp(w->metrics[i].name, name))
			return &w->metrics[i];
	return NULL;
}

/* True when metric name decides the verdict: a primary one, or one given by the caller. */
static int decides(const struct vms_compare *c, const char *name, int primary)
{
	size_t i;

	if (!c->decisive)
		return primary;
	for (i = 0; i < c->n_decisive; i++)
		if (!strcmp(c->decisive[i], name))
			return 1;
	return 0;
}

/* Adds metric name to w: described by its object mo in a file, or derived from runs[] when mo
 * is NULL. The file's own unit, better and kind win; the catalogue fills what it lacks. */
static void metric_add(struct vms_compare *c, const struct cmp_ctx *x, struct vms_cmp_workload *w,
                       const char *name, const json_t *mo)
{
	const struct vms_metric_def *d = vms_metric_find(name);
	struct vms_cmp_metric *m;
	const char *unit = json_string_value(json_object_get(mo, "unit"));
	const char *kind = json_string_value(json_object_get(mo, "kind"));
	size_t k;

	w->metrics = vms_xrealloc(w->metrics, (w->n_metrics + 1) * sizeof(*w->metrics));
	m = &w->metrics[w->n_metrics++];
	memset(m, 0, sizeof(*m));
	m->name = vms_xstrdup(name);
	m->def = d;
	m->derived = !mo;
	m->unit = vms_xstrdup(unit ? unit : d ? d->unit : "");
	m->better = better_of(json_string_value(json_object_get(mo, "better")),
	                      d ? d->better : VMS_BETTER_NONE);
	m->count = kind ? !strcmp(kind, "count") : d && d->kind == VMS_KIND_COUNT;
	m->primary =
	    decides(c, name, mo ? json_is_true(json_object_get(mo, "primary")) : d && d->primary);
	/* failed_runs always decides: a kernel on which the workload fails must not pass */
	if (m->derived && d && d->primary)
		m->primary = 1;
	m->audio = is_audio(d);
	side_fill(c, x, &m->base, 0, w, name, m->derived);
	m->cells = vms_xcalloc(c->n_files - 1, sizeof(*m->cells));
	for (k = 1; k < c->n_files; k++) {
		if (w->present[k - 1]) {
			build_cell(c, x, w, m, k - 1);
		} else {
			struct vms_cmp_cell *cell = &m->cells[k - 1];

			/* the workload is not in that file: an empty side, reported as not compared
			 */
			cell->change = cell->lo = cell->hi = cell->p = cell->p_adj = NAN;
			cell->drift = cell->within = NAN;
			cell->verdict = VMS_VERDICT_MISSING;
			cell->side.values = vms_xcalloc(1, sizeof(*cell->side.values));
			cell->side.runs = vms_xcalloc(1, sizeof(*cell->side.runs));
			cell->side.suite = vms_xcalloc(1, sizeof(*cell->side.suite));
			cell->side.index = vms_xcalloc(1, sizeof(*cell->side.index));
			side_done(&cell->side);
		}
	}
}

static void metric_release(const struct vms_compare *c, struct vms_cmp_metric *m)
{
	size_t k;

	side_release(&m->base);
	for (k = 0; k + 1 < c->n_files; k++)
		side_release(&m->cells[k].side);
	free(m->cells);
	free(m->unit);
	free(m->name);
}

/* True when a derived count has no event anywhere: such rows are left out. */
static int derived_all_zero(const struct vms_compare *c, const struct vms_cmp_metric *m)
{
	size_t k;

	if (m->base.events)
		return 0;
	for (k = 0; k + 1 < c->n_files; k++)
		if (m->cells[k].side.events)
			return 0;
	return 1;
}

static void not_compared(struct vms_compare *c, char *line)
{
	c->not_compared =
	    vms_xrealloc(c->not_compared, (c->n_not_compared + 1) * sizeof(*c->not_compared));
	c->not_compared[c->n_not_compared++] = line;
}

/* The name of column k in "not compared" lines: its file, or its variant. */
static char *col_name(const struct vms_compare *c, size_t k)
{
	if (c->variants)
		return vms_xasprintf("variant %s", c->files[k].variant);
	return vms_xstrdup(c->files[k].path);
}

static int row_exists(const struct vms_compare *c, const char *name, const char *variant)
{
	size_t i;

	for (i = 0; i < c->n_workloads; i++)
		if (!strcmp(c->workloads[i].name, name) &&
		    !strcmp(c->workloads[i].variant ? c->workloads[i].variant : "",
		            variant ? variant : ""))
			return 1;
	return 0;
}

static void build_workload(struct vms_compare *c, const struct cmp_ctx *x, const char *name,
                           const char *variant)
{
	struct vms_cmp_workload *w;
	size_t k, i, su, any = 0;
	const char *mname;
	json_t *mo;

	if (!name || row_exists(c, name, variant))
		return;
	c->workloads = vms_xrealloc(c->workloads, (c->n_workloads + 1) * sizeof(*c->workloads));
	w = &c->workloads[c->n_workloads++];
	memset(w, 0, sizeof(*w));
	w->name = vms_xstrdup(name);
	w->variant = variant ? vms_xstrdup(variant) : NULL;
	w->display = variant ? vms_xasprintf("%s [%s]", name, variant) : vms_xstrdup(name);
	w->present = vms_xcalloc(c->n_files - 1, sizeof(*w->present));
	for (k = 1; k < c->n_files; k++) {
		for (su = 0; su < x->cols[k].n; su++)
			w->present[k - 1] |= col_wl(c, x, k, su, w) != NULL;
		any += w->present[k - 1];
	}
	if (!any) {
		char *col = col_name(c, 0);

		not_compared(c, vms_xasprintf("%s: only in %s", w->display, col));
		free(col);
		free(w->present);
		free(w->name);
		free(w->variant);
		free(w->display);
		c->n_workloads--;
		return;
	}
	for (k = 1; k < c->n_files; k++) {
		if (!w->present[k - 1]) {
			char *col = col_name(c, k);

			not_compared(c, vms_xasprintf("%s: not in %s", w->display, col));
			free(col);
		}
	}
	/* BASE's metrics in its order, then any only the others have, then the derived counts. */
	for (k = 0; k < c->n_files; k++)
		for (su = 0; su < x->cols[k].n; su++)
			json_object_foreach (json_object_get(col_wl(c, x, k, su, w), "metrics"),
			                     mname, mo)
				if (json_is_object(mo) && !metric_find(w, mname))
					metric_add(c, x, w, mname, mo);
	for (i = 0; i < vms_metric_count(); i++) {
		const struct vms_metric_def *d = &vms_metric_defs[i];

		if (d->source != VMS_SOURCE_RUNS || metric_find(w, d->name))
			continue;
		metric_add(c, x, w, d->name, NULL);
		if (derived_all_zero(c, &w->metrics[w->n_metrics - 1]))
			metric_release(c, &w->metrics[--w->n_metrics]);
	}
}

/* The file's idle audio baseline: its Sound figures (has_baseline), and whether it skipped. */
static void file_baseline(struct vms_cmp_file *f, const json_t *doc)
{
	const json_t *audio = json_object_get(doc, "audio");
	const json_t *m = json_object_get(json_object_get(audio, "baseline"), "metrics");
	size_t n;
	double *u = vms_metric_values(m, "underruns", &n);

	f->baseline_skipped = u && n && u[0] > 0;
	free(u);
	vms_report_sound_of_baseline(audio, &f->baseline);
	f->has_baseline = f->baseline.present;
}

static char *file_label(const json_t *doc, const char *path)
{
	const char *label = json_string_value(json_object_get(doc, "label"));
	const char *slash = strrchr(path, '/');

	return vms_xstrdup(label && *label ? label : slash ? slash + 1 : path);
}

/* The settings of variant v of doc ("variants"[v].settings), or NULL. */
static const json_t *variant_settings(const json_t *doc, size_t v)
{
	return json_object_get(json_array_get(json_object_get(doc, "variants"), v), "settings");
}

static void env_add(struct vms_envdiff *d, const char *key, const char *base, const char *other)
{
	struct vms_env_item *it;

	d->items = vms_xrealloc(d->items, (d->n + 1) * sizeof(*d->items));
	it = &d->items[d->n++];
	memset(it, 0, sizeof(*it));
	it->cls = VMS_ENV_EXPECTED;
	it->scope = VMS_ENV_GLOBAL;
	it->key = vms_xasprintf("variant: %s", key);
	it->base = vms_xstrdup(base ? base : "(absent)");
	it->other = vms_xstrdup(other ? other : "(absent)");
}

/* The settings in which variant b of doc differs from variant a, as expected differences:
 * what the tester chose to vary. */
static void variant_settings_diff(const json_t *doc, size_t a, size_t b, struct vms_envdiff *d)
{
	const json_t *sa = variant_settings(doc, a), *sb = variant_settings(doc, b), *v;
	const char *key;

	json_object_foreach ((json_t *)sa, key, v) {
		const char *x = json_string_value(v),
		           *y = json_string_value(json_object_get(sb, key));

		if (!x || !y || strcmp(x, y))
			env_add(d, key, x, y);
	}
	json_object_foreach ((json_t *)sb, key, v)
		if (!json_object_get(sa, key))
			env_add(d, key, NULL, json_string_value(v));
}

/* Holm's adjustment over the deciding (workload, metric) pairs of column k + 1 that were
 * tested, and their verdicts again with the adjusted p. */
static void holm_column(struct vms_compare *c, size_t k)
{
	size_t i, j, n = 0, cap = 0;
	struct vms_cmp_cell **cells = NULL;
	const struct vms_cmp_metric **ms = NULL;
	const struct vms_cmp_workload **ws = NULL;
	double *p, *adj;

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			struct vms_cmp_metric *m = &c->workloads[i].metrics[j];
			struct vms_cmp_cell *cell = &m->cells[k];

			/* Tests that cannot reach significance do not count (Tarone): Fisher
			 * with no event on either side, and exact comparisons of constant
			 * samples (no sampling noise to control) */
			if ((cell->method == VMS_CMP_FISHER && !m->base.events &&
			     !cell->side.events) ||
			    (cell->method != VMS_CMP_FISHER && m->base.s.sd == 0 &&
			     cell->side.s.sd == 0))
				continue;
			if (!m->primary || !c->workloads[i].present[k] || cell->by_design ||
			    isnan(cell->p) || cell->method == VMS_CMP_NONE ||
			    cell->verdict == VMS_VERDICT_NOT_COMPARABLE ||
			    cell->verdict == VMS_VERDICT_INFO)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				cells = vms_xrealloc(cells, cap * sizeof(*cells));
				ms = vms_xrealloc(ms, cap * sizeof(*ms));
				ws = vms_xrealloc(ws, cap * sizeof(*ws));
			}
			cells[n] = cell;
			ms[n] = m;
			ws[n++] = &c->workloads[i];
		}
	p = vms_xcalloc(n + 1, sizeof(*p));
	adj = vms_xcalloc(n + 1, sizeof(*adj));
	for (i = 0; i < n; i++)
		p[i] = cells[i]->p;
	c->family[k] = vms_holm(p, n, adj);
	for (i = 0; i < n; i++) {
		cells[i]->p_adj = adj[i];
		if (cells[i]->method == VMS_CMP_FISHER) {
			decide_fisher(&c->opts, ms[i], cells[i], adj[i]);
		} else {
			decide_t(&c->opts, ms[i], cells[i], adj[i], cells[i]->need_cv);
		}
		finish_cell(c, ws[i], ms[i], cells[i], k);
	}
	free(p);
	free(adj);
	free(cells);
	free(ms);
	free(ws);
}

void vms_compare_build_ex(struct vms_compare *c, const struct vms_compare_opts *opts,
                          const struct vms_cmp_input *in)
{
	size_t n_sides = vms_compare_sides(in), i, k;
	struct cmp_ctx x;
	const json_t *wl;
	const char **labels = NULL;
	size_t n_labels = 0;

	memset(c, 0, sizeof(*c));
	c->opts = *opts;
	c->decisive = in->decisive;
	c->n_decisive = in->n_decisive;
	c->n_files = n_sides;
	c->files = vms_xcalloc(n_sides, sizeof(*c->files));
	x.cols = vms_xcalloc(n_sides, sizeof(*x.cols));
	c->variants = in->n == 1;
	if (c->variants) {
		/* the variants of one file: its runs were interleaved, run i of each variant
		 * made together, so they pair */
		labels = vms_result_variant_labels(in->docs[0], &n_labels);
		for (k = 0; k < n_sides; k++) {
			x.cols[k].docs = in->docs;
			x.cols[k].n = 1;
			x.cols[k].variant = labels[k];
			c->files[k].path = vms_xstrdup(in->paths[0]);
			c->files[k].label = vms_xstrdup(labels[k]);
			c->files[k].variant = vms_xstrdup(labels[k]);
			c->files[k].n_suites = 1;
			c->files[k].paired = k > 0;
			file_baseline(&c->files[k], in->docs[0]);
		}
	} else {
		/* a side's documents are contiguous (side[] does not decrease) */
		for (i = 0; i < in->n; i++) {
			k = in->side ? in->side[i] : i;
			if (!x.cols[k].n++) {
				x.cols[k].docs = in->docs + i;
				c->files[k].path = vms_xstrdup(in->paths[i]);
				c->files[k].suite_paths = vms_xcalloc(in->n + 1, sizeof(char *));
				c->files[k].label = file_label(in->docs[i], in->paths[i]);
				file_baseline(&c->files[k], in->docs[i]);
			}
			c->files[k].suite_paths[c->files[k].n_suites++] = vms_xstrdup(in->paths[i]);
			if (c->files[k].n_suites > 1) {
				/* the side's name lists its suites */
				char *joined =
				    vms_xasprintf("%s + %s", c->files[k].path, in->paths[i]);

				free(c->files[k].path);
				c->files[k].path = joined;
			}
		}
	}
	c->env = vms_xcalloc(n_sides - 1, sizeof(*c->env));
	for (k = 1; k < n_sides; k++) {
		vms_envdiff_build(x.cols[0].docs[0], x.cols[k].docs[0], &c->env[k - 1]);
		if (c->variants)
			variant_settings_diff(in->docs[0], 0, k, &c->env[k - 1]);
	}
	if (c->variants) {
		for (k = 0; k < n_sides; k++)
			json_array_foreach (json_object_get(in->docs[0], "workloads"), i, wl) {
				const char *name = json_string_value(json_object_get(wl, "name"));

				if (!k && variant_wl(in->docs[0], name, labels[0]))
					build_workload(c, &x, name, NULL);
				else if (k && !variant_wl(in->docs[0], name, labels[0]) &&
				         variant_wl(in->docs[0], name, labels[k]) && name) {
					char *line = vms_xasprintf("%s: only in variant %s", name,
					                           labels[k]);
					size_t j, dup = 0;

					for (j = 0; j < c->n_not_compared; j++)
						dup |= !strcmp(c->not_compared[j], line);
					if (dup)
						free(line);
					else
						not_compared(c, line);
				}
			}
	} else {
		int several = variant_count(x.cols[0].docs[0]) > 1;

		json_array_foreach (json_object_get(x.cols[0].docs[0], "workloads"), i, wl) {
			const char *v = json_string_value(json_object_get(wl, "variant"));

			build_workload(c, &x, json_string_value(json_object_get(wl, "name")),
			               several ? (v ? v : "default") : NULL);
		}
		for (k = 1; k < n_sides; k++) {
			json_array_foreach (json_object_get(x.cols[k].docs[0], "workloads"), i,
			                    wl) {
				const char *name = json_string_value(json_object_get(wl, "name"));
				const char *v = json_string_value(json_object_get(wl, "variant"));

				if (name && !variant_wl(x.cols[0].docs[0], name,
				                        several ? (v ? v : "default") : NULL))
					not_compared(
					    c, vms_xasprintf("%s%s%s%s: only in %s", name,
					                     several ? " [" : "",
					                     several ? (v ? v : "default") : "",
					                     several ? "]" : "", c->files[k].path));
			}
		}
	}
	c->holm = 1;
	c->family = vms_xcalloc(n_sides, sizeof(*c->family));
	for (k = 0; k + 1 < n_sides; k++)
		holm_column(c, k);
	free(labels);
	free(x.cols);
}

void vms_compare_build(struct vms_compare *c, const struct vms_compare_opts *opts,
                       json_t *const *docs, const char *const *paths, size_t n)
{
	struct vms_cmp_input in = {.docs = docs, .paths = paths, .n = n};

	vms_compare_build_ex(c, opts, &in);
}

void vms_compare_release(struct vms_compare *c)
{
	size_t i, j;

	for (i = 0; i < c->n_workloads; i++) {
		struct vms_cmp_workload *w = &c->workloads[i];

		for (j = 0; j < w->n_metrics; j++)
			metric_release(c, &w->metrics[j]);
		free(w->metrics);
		free(w->present);
		free(w->name);
		free(w->variant);
		free(w->display);
	}
	free(c->workloads);
	for (i = 0; i < c->n_not_compared; i++)
		free(c->not_compared[i]);
	free(c->not_compared);
	for (i = 0; i + 1 < c->n_files; i++)
		vms_envdiff_release(&c->env[i]);
	free(c->env);
	for (i = 0; i < c->n_files; i++) {
		free(c->files[i].path);
		free(c->files[i].label);
		free(c->files[i].variant);
		for (j = 0; j < c->files[i].n_suites && c->files[i].suite_paths; j++)
			free(c->files[i].suite_paths[j]);
		free(c->files[i].suite_paths);
	}
	free(c->files);
	free(c->family);
	memset(c, 0, sizeof(*c));
}

enum vms_cmp_outcome vms_compare_outcome(const struct vms_compare *c, size_t k)
{
	size_t i, j, primary = 0, blocked = 0, untold = 0, common = 0;

	for (i = 0; i < c->n_workloads; i++) {
		common += c->workloads[i].present[k];
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_cmp_metric *m = &c->workloads[i].metrics[j];
			const struct vms_cmp_cell *cell = &m->cells[k];

			if (!m->primary || !c->workloads[i].present[k] || cell->by_design)
				continue;
			if (cell->verdict == VMS_VERDICT_REGRESSION)
				return VMS_OUTCOME_REGRESSION;
			primary++;
			blocked += cell->verdict == VMS_VERDICT_NOT_COMPARABLE;
			untold += cell->verdict == VMS_VERDICT_CANNOT_TELL ||
			          cell->verdict == VMS_VERDICT_MISSING;
		}
	}
	if (!common || (primary && blocked == primary))
		return VMS_OUTCOME_NOT_COMPARABLE;
	if (untold || (c->decisive && !primary))
		return VMS_OUTCOME_CANNOT_TELL;
	return VMS_OUTCOME_NO_REGRESSION;
}

int vms_compare_status(const struct vms_compare *c)
{
	int untold = 0;
	size_t k;

	for (k = 0; k + 1 < c->n_files; k++) {
		enum vms_cmp_outcome o = vms_compare_outcome(c, k);

		if (o == VMS_OUTCOME_REGRESSION)
			return 1;
		untold |= o != VMS_OUTCOME_NO_REGRESSION;
	}
	return untold ? 2 : 0;
}
/* True when a deciding metric of side k + 1 is unstable: its runs disagree too much for the
 * test, so "no regression" there is no judgement. */
static int unstable_decider(const struct vms_compare *c, size_t k)
{
	size_t i, j;

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_cmp_metric *m = &c->workloads[i].metrics[j];

			if (m->primary && c->workloads[i].present[k] &&
			    m->cells[k].verdict == VMS_VERDICT_UNSTABLE)
				return 1;
		}
	return 0;
}

int vms_compare_bisect_status(const struct vms_compare *c)
{
	int status = vms_compare_status(c);
	size_t k;

	if (status == 0)
		for (k = 0; k + 1 < c->n_files; k++)
			if (unstable_decider(c, k))
				return VMS_BISECT_SKIP;
	return status == 2 ? VMS_BISECT_SKIP : status;
}

json_t *vms_compare_verdict_json(const struct vms_compare *c, const char *const *baselines,
                                 size_t n_baselines, int exit_status)
{
	json_t *paths = json_array(), *metrics = json_array();
	size_t i;

	for (i = 0; i < n_baselines; i++)
		json_array_append_new(paths, json_string(baselines[i]));
	for (i = 0; c->decisive && i < c->n_decisive; i++)
		json_array_append_new(metrics, json_string(c->decisive[i]));
	return json_pack("{s:o, s:i, s:o, s:o}", "baseline", paths, "exit", exit_status, "metrics",
	                 metrics, "compare", vms_compare_to_json(c));
}

int vms_compare_check_metrics(json_t *const *docs, size_t n, const char *const *names,
                              size_t n_names, char *err, size_t errlen)
{
	size_t i, k, w;

	for (i = 0; i < n_names; i++) {
		const struct vms_metric_def *d = vms_metric_find(names[i]);
		int found = d && d->source == VMS_SOURCE_RUNS;
		const json_t *wl;

		for (k = 0; k < n && !found; k++)
			json_array_foreach (json_object_get(docs[k], "workloads"), w, wl)
				found |= json_object_get(json_object_get(wl, "metrics"),
				                         names[i]) != NULL;
		if (!found) {
			snprintf(err, errlen,
			         "--metric %s: no workload of these files has that metric",
			         names[i]);
			return -EINVAL;
		}
	}
	return 0;
}

unsigned vms_compare_runs_to_decide(const struct vms_compare *c, size_t k)
{
	unsigned most = 0;
	size_t i, j;

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_cmp_metric *m = &c->workloads[i].metrics[j];
			const struct vms_cmp_cell *cell = &m->cells[k];

			if (m->primary && c->workloads[i].present[k] &&
			    cell->verdict == VMS_VERDICT_INCONCLUSIVE && cell->runs_needed > most &&
			    cell->runs_needed > cell->runs_have)
				most = cell->runs_needed;
		}
	return most;
}

/* Largest magnitude a sample of a metric in unit may have (docs/compare.md): a time beyond
 * 1e12 s or ms (more than 31 years) or any other value beyond 1e18 (an exabyte, 10^18
 * events) is no measurement, and such values overflow the statistics' squares. */
static double sample_limit(const char *unit)
{
	return unit && (!strcmp(unit, "s") || !strcmp(unit, "ms")) ? 1e12 : 1e18;
}

int vms_compare_check_doc(const json_t *doc, char *err, size_t errlen)
{
	const json_t *wl, *mo, *v;
	const char *name;
	size_t i, j;

	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const char *wname = json_string_value(json_object_get(wl, "name"));

		json_object_foreach ((json_t *)json_object_get(wl, "metrics"), name, mo) {
			const char *unit = json_string_value(json_object_get(mo, "unit"));
			const struct vms_metric_def *d = vms_metric_find(name);
			double lim = sample_limit(unit ? unit : d ? d->unit : NULL);

			json_array_foreach (json_object_get(mo, "samples"), j, v) {
				double x = json_number_value(v);

				if (!json_is_number(v) || (isfinite(x) && fabs(x) <= lim))
					continue;
				snprintf(err, errlen,
				         "%s: %s: sample %zu is %g, not a measurement (beyond %g)",
				         wname ? wname : "?", name, j + 1, x, lim);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* ---- formatting helpers shared by the renderers ----------------------------------------- */

/* A number in at most 7 columns: 258.8, 15.18, 500.2k, 2.048G. NAN is "-". */
static const char *fmt_num(double v, char *buf, size_t len)
{
	static const char suffix[] = "kMGTPE";
	double a = fabs(v);
	size_t i = 0;

	if (isnan(v)) {
		snprintf(buf, len, "-");
	} else if (a >= 1e5) {
		do {
			v /= 1000;
			a /= 1000;
			i++;
		} while (a >= 1e4 && i < sizeof(suffix) - 1);
		snprintf(buf, len, "%.4g%c", v, suffix[i - 1]);
	} else if (a >= 1e4) {
		snprintf(buf, len, "%.0f", v);
	} else if (a == 0) {
		snprintf(buf, len, "0");
	} else if (a < 0.001) {
		snprintf(buf, len, "%.1e", v);
	} else if (a < 1) {
		snprintf(buf, len, "%.3g", v);
	} else {
		snprintf(buf, len, "%.4g", v);
	}
	return buf;
}

static const char *fmt_pct(double x, char *buf, size_t len)
{
	if (fabs(x) < 0.05)
		x = 0; /* no "-0.0" */
	if (isnan(x))
		snprintf(buf, len, "-");
	else if (!isfinite(x) || fabs(x) >= 1e4)
		snprintf(buf, len, "%s", x > 0 ? "+big" : "-big");
	else if (fabs(x) >= 100)
		snprintf(buf, len, "%+.0f", x);
	else
		snprintf(buf, len, "%+.1f", x);
	return buf;
}

/* The spread column: cv for gauges, "runs with an event / runs" for counts. */
static const char *fmt_spread(const struct vms_cmp_metric *m, const struct vms_cmp_side *s,
                              char *buf, size_t len)
{
	if (m->count && s->s.n)
		snprintf(buf, len, "%u/%zu", s->events, s->s.n);
	else if (isnan(s->s.cv))
		snprintf(buf, len, "-");
	else if (s->s.cv < 0.1)
		snprintf(buf, len, "%.1f%%", 100 * s->s.cv);
	else if (s->s.cv < 10)
		snprintf(buf, len, "%.0f%%", 100 * s->s.cv);
	else
		snprintf(buf, len, ">999%%");
	return buf;
}

/* "+0.8% [-1.9,+3.6]"; Fisher rows give the change of the mean count only. */
static const char *fmt_change(const struct vms_cmp_cell *c, char *buf, size_t len)
{
	char a[16], b[16], d[16];

	if (isnan(c->change))
		snprintf(buf, len, "n/a");
	else if (isnan(c->lo))
		snprintf(buf, len, "%s%%", fmt_pct(100 * (c->change - 1), a, sizeof(a)));
	else
		snprintf(buf, len, "%s%% [%s,%s]", fmt_pct(100 * (c->change - 1), a, sizeof(a)),
		         fmt_pct(100 * (c->lo - 1), b, sizeof(b)),
		         fmt_pct(100 * (c->hi - 1), d, sizeof(d)));
	return buf;
}

/* The n column: the runs with a value, "-" when there are none. */
static const char *fmt_n(const struct vms_cmp_side *s, char *buf, size_t len)
{
	if (s->s.n)
		snprintf(buf, len, "%zu", s->s.n);
	else
		snprintf(buf, len, "-");
	return buf;
}

static const char *fmt_p(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<.001");
	else
		snprintf(buf, len, "%.3f", p);
	return buf;
}

static const char *const side_names[] = {"both", "base", "other"};

/* The p-value the verdict used: Holm-adjusted for the deciding metrics, else the test's. */
static double cell_p(const struct vms_cmp_cell *c)
{
	return isnan(c->p_adj) ? c->p : c->p_adj;
}

/* A one-letter verdict mark for the series view; '*' is added for a confounder. */
static char verdict_mark(enum vms_verdict v)
{
	switch (v) {
	case VMS_VERDICT_REGRESSION: return 'R';
	case VMS_VERDICT_PROB_REGRESSION: return 'r';
	case VMS_VERDICT_IMPROVEMENT: return 'I';
	case VMS_VERDICT_PROB_IMPROVEMENT: return 'i';
	case VMS_VERDICT_NO_CHANGE: return '=';
	case VMS_VERDICT_INCONCLUSIVE: return '?';
	case VMS_VERDICT_UNSTABLE: return '~';
	case VMS_VERDICT_NOT_COMPARABLE: return 'x';
	case VMS_VERDICT_CANNOT_TELL: return '!';
	default: return '-';
	}
}

/* Display columns of a UTF-8 string. */
static size_t display_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* raw with control characters escaped (a file's string), cut to at most width display columns
 * (with "..." when cut), into buf. */
static const char *fit(const char *raw, size_t width, char *buf, size_t len)
{
	char *s = vms_text_escape(raw);
	size_t cols = 0, i;

	if (display_width(s) <= width) {
		snprintf(buf, len, "%s", s);
		free(s);
		return buf;
	}
	for (i = 0; s[i] && i + 4 < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && ++cols > width - 3)
			break;
	}
	snprintf(buf, len, "%.*s...", (int)i, s);
	free(s);
	return buf;
}

/* s left-aligned in width display columns. */
static void put_padded(FILE *f, const char *s, size_t width)
{
	size_t w = display_width(s);

	fputs(s, f);
	for (; w < width; w++)
		fputc(' ', f);
}

/* A string of a result file (or a path) with control characters escaped, left-aligned in width
 * display columns (0: as long as it is). */
static void put_str(FILE *f, const char *s, size_t width)
{
	char *e = vms_text_escape(s);

	put_padded(f, e, width);
	free(e);
}

static char file_letter(size_t k)
{
	return k < 26 ? (char)('A' + k) : '?';
}

static int soft_count(const struct vms_compare *c)
{
	size_t k, n = 0;

	for (k = 0; k + 1 < c->n_files; k++)
		n += vms_envdiff_count(&c->env[k], VMS_ENV_SOFT);
	return (int)n;
}

static int finish(FILE *f)
{
	return ferror(f) ? -EIO : 0;
}

/* A file's idle baseline figures without their label (the table says what they are, so a
 * line fits 100 columns), or that it has none; no final newline. */
static void baseline_put(const struct vms_cmp_file *file, FILE *f)
{
	if (file->has_baseline)
		vms_report_sound_put(f, &file->baseline);
	else
		fputs("(no audio baseline)", f);
}

/* What each test that the model used means, one line each with prefix, and how the deciding
 * verdicts were corrected; the drift measured between suites. */
static void tests_note(const struct vms_compare *c, FILE *f, const char *prefix)
{
	static const char *const what[] = {
	    [VMS_CMP_LOG_T] = "Welch's t-test on log-values: change = ratio of geometric means",
	    [VMS_CMP_RAW_T] = "Welch's t-test on raw values (a value <= 0): change of the mean",
	    [VMS_CMP_FISHER] = "Fisher's exact test on the runs with an event (count rows)",
	    [VMS_CMP_PAIRED_LOG] = "paired t-test on ln(B_i/A_i), run i of both made together; "
	                           "change = exp(mean)",
	    [VMS_CMP_PAIRED_RAW] = "paired t-test on B_i - A_i (a value <= 0), runs paired by "
	                           "their index",
	    [VMS_CMP_SUITES_LOG] = "t-test on the suites' log means (drift between suites > "
	                           "the runs' spread)",
	};
	int used[VMS_CMP_SUITES_LOG + 1] = {0};
	size_t i, j, k, pairs = 0, family = 0;

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++)
			for (k = 0; k + 1 < c->n_files; k++) {
				const struct vms_cmp_cell *cell =
				    &c->workloads[i].metrics[j].cells[k];

				used[cell->method] = 1;
				if (cell->pairs > pairs)
					pairs = cell->pairs;
			}
	fprintf(f, "%sTests used:\n", prefix);
	for (i = VMS_CMP_LOG_T; i <= VMS_CMP_SUITES_LOG; i++)
		if (used[i])
			fprintf(f, "%s  %-10s %s\n", prefix,
			        vms_cmp_method_name((enum vms_cmp_method)i), what[i]);
	if (used[VMS_CMP_PAIRED_LOG] || used[VMS_CMP_PAIRED_RAW])
		fprintf(f,
		        "%s  (up to %zu pairs; a paired test removes the drift that hits both "
		        "variants alike)\n",
		        prefix, pairs);
	for (k = 0; k + 1 < c->n_files; k++)
		family = c->family && c->family[k] > family ? c->family[k] : family;
	if (c->holm)
		fprintf(f,
		        "%sDeciding metrics: p is Holm-adjusted over the %s (workload, metric) "
		        "pairs tested\n%sagainst each other side (up to %zu): the chance that any "
		        "of them is "
		        "called changed by chance\n%sstays below alpha.\n",
		        prefix, c->decisive ? "chosen" : "primary", prefix, family, prefix);
}

/* The drift between suites (sides of several result files), per deciding metric: the
 * between-suite sd beyond the runs' spread, and the runs' own sd. Nothing when every side
 * is one file. */
static void drift_note(const struct vms_compare *c, FILE *f, const char *prefix)
{
	size_t i, j, k, any = 0;

	for (k = 0; k < c->n_files; k++)
		any |= c->files[k].n_suites > 1;
	if (!any)
		return;
	fprintf(f,
	        "%sDrift between suites (sd of the suite means beyond the runs' spread; "
	        "the runs' sd):\n",
	        prefix);
	for (k = 0; k + 1 < c->n_files; k++)
		for (i = 0; i < c->n_workloads; i++)
			for (j = 0; j < c->workloads[i].n_metrics; j++) {
				const struct vms_cmp_metric *m = &c->workloads[i].metrics[j];
				const struct vms_cmp_cell *cell = &m->cells[k];

				if (!m->primary || isnan(cell->drift))
					continue;
				fprintf(f, "%s  %c vs A ", prefix, file_letter(k + 1));
				put_str(f, c->workloads[i].display, 14);
				fputc(' ', f);
				put_str(f, m->name, 14);
				fprintf(f, " drift %.1f%%, runs %.1f%% -> %s\n", 100 * cell->drift,
				        100 * cell->within,
				        cell->method == VMS_CMP_SUITES_LOG ? "suite means decide"
				                                           : "runs decide");
			}
}

/* The verdict with its qualifiers: runs needed, unstable side, confounder mark. */
static const char *fmt_verdict(const struct vms_cmp_cell *c, double detect, int brief, char *buf,
                               size_t len)
{
	const char *name = brief ? verdict_short(c->verdict) : vms_verdict_name(c->verdict);

	if (c->verdict == VMS_VERDICT_INCONCLUSIVE && c->runs_needed > c->runs_have)
		snprintf(buf, len, "%s n\u2248%u", name, c->runs_needed);
	else if (c->verdict == VMS_VERDICT_INCONCLUSIVE && c->runs_needed)
		snprintf(buf, len, "%s <%g%%", name, 100 * detect);
	else if (c->verdict == VMS_VERDICT_UNSTABLE)
		snprintf(buf, len, "%s (%s)", name,
		         side_names[c->unstable_side == 2 ? 0 : c->unstable_side + 1]);
	else
		snprintf(buf, len, "%s%s", name, c->confounded ? "*" : "");
	return buf;
}

/* ---- text ------------------------------------------------------------------------------- */

#define ROW_FMT "%-18s %7s %5s %2s %7s %5s %2s %-19s %5s %s\n"

static void text_side(const struct vms_cmp_metric *m, const struct vms_cmp_side *s, char *mean,
                      char *spread, char *n)
{
	fmt_num(s->s.mean, mean, 24);
	fmt_spread(m, s, spread, 24);
	/* no value on this side: "-" in every column, never a 0 that was not measured */
	fmt_n(s, n, 24);
}

static void text_metric(const struct vms_compare *c, const struct vms_cmp_metric *m, FILE *f)
{
	char bm[24], bs[24], bn[24], om[24], os[24], on[24], ch[64], p[16], v[64], name[40];
	size_t k;

	text_side(m, &m->base, bm, bs, bn);
	for (k = 0; k + 1 < c->n_files; k++) {
		const struct vms_cmp_cell *cell = &m->cells[k];

		text_side(m, &cell->side, om, os, on);
		fmt_change(cell, ch, sizeof(ch));
		fmt_p(cell_p(cell), p, sizeof(p));
		fmt_verdict(cell, c->opts.detect, 1, v, sizeof(v));
		if (k == 0) {
			fit(m->name, 18, name, sizeof(name));
			fprintf(f, ROW_FMT, name, bm, bs, bn, om, os, on, ch, p, v);
		} else {
			snprintf(name, sizeof(name), "  vs %c", file_letter(k + 1));
			fprintf(f, ROW_FMT, name, "", "", "", om, os, on, ch, p, v);
		}
	}
}

static void text_env(const struct vms_compare *c, size_t k, FILE *f)
{
	const struct vms_envdiff *d = &c->env[k];
	char a[128], b[128];
	size_t i, hard = vms_envdiff_count(d, VMS_ENV_HARD);

	if (!d->n) {
		fprintf(f, "Environment, %c vs A: no differences\n\n", file_letter(k + 1));
		return;
	}
	fprintf(f, "Environment, %c vs A (only what differs):\n", file_letter(k + 1));
	for (i = 0; i < d->n; i++) {
		const struct vms_env_item *it = &d->items[i];
		char *key = vms_text_escape(it->key);
		size_t keyw = display_width(key) > 26 ? display_width(key) : 26;
		size_t room = 100 - 2 - 8 - 1 - keyw - 1 - 4, each = room / 2;

		fprintf(f, "  %-8s ",
		        it->cls == VMS_ENV_HARD ? "HARD" : vms_env_class_name(it->cls));
		put_padded(f, key, 26);
		fprintf(f, " %s -> %s\n", fit(it->base, each, a, sizeof(a)),
		        fit(it->other, each, b, sizeof(b)));
		free(key);
	}
	if (hard && c->opts.force)
		fprintf(f,
		        "  => %zu hard difference(s): compared anyway (--force); treat verdicts "
		        "with care\n",
		        hard);
	else if (hard && vms_envdiff_blocks(d, NULL, 0))
		fprintf(f,
		        "  => %zu hard difference(s): every verdict is \"not comparable\" "
		        "(--force compares anyway)\n",
		        hard);
	else if (hard)
		fprintf(f,
		        "  => %zu hard difference(s): the affected verdicts are \"not "
		        "comparable\" (--force)\n",
		        hard);
	if (vms_envdiff_count(d, VMS_ENV_SOFT))
		fprintf(f, "  => soft differences are possible confounders: a * marks the "
		           "verdicts they could explain\n");
	fputc('\n', f);
}

static void text_workload(const struct vms_compare *c, const struct vms_cmp_workload *w, FILE *f)
{
	char nm[160], a[40], b[40], la[40], lb[40], ci[32];
	size_t j, pass;

	snprintf(la, sizeof(la), "A: %s", c->files[0].label);
	snprintf(lb, sizeof(lb), "B: %s", c->files[1].label);
	snprintf(ci, sizeof(ci), "change %% [%g%% CI]", 100 * (1 - c->opts.alpha));
	fprintf(f, "%-18s %-16s %s\n", fit(w->display, 44, nm, sizeof(nm)),
	        fit(la, 16, a, sizeof(a)), fit(lb, 16, b, sizeof(b)));
	fprintf(f, ROW_FMT, "metric", "mean", "cv", "n", "mean", "cv", "n", ci, "p", "verdict");
	for (pass = 0; pass < 2; pass++) {
		int header = 0;

		for (j = 0; j < w->n_metrics; j++) {
			if (w->metrics[j].audio != (int)pass)
				continue;
			if (pass && !header++)
				fprintf(f, "Sound:\n");
			text_metric(c, &w->metrics[j], f);
		}
	}
	fputc('\n', f);
}

/* The series view (more than two sides): one column group per other side, at most two groups
 * per block so that a line fits 100 columns: mean, change with its interval, verdict mark. */
#define SERIES_GROUP_W 32

static void text_series_metric(const struct vms_cmp_metric *m, size_t k0, size_t k1, FILE *f)
{
	char name[40], bm[24], bs[24], bn[24], om[24], ch[64];
	size_t k;

	fit(m->name, 18, name, sizeof(name));
	text_side(m, &m->base, bm, bs, bn);
	fprintf(f, "%-18s %7s %5s %2s", name, bm, bs, bn);
	for (k = k0; k < k1; k++) {
		const struct vms_cmp_cell *cell = &m->cells[k];

		fmt_num(cell->side.s.mean, om, sizeof(om));
		fmt_change(cell, ch, sizeof(ch));
		/* no trailing blank: the last group ends with its mark */
		fprintf(f, " %7s %-20s %c%s", om, ch, verdict_mark(cell->verdict),
		        cell->confounded ? "*"
		        : k + 1 < k1     ? " "
		                         : "");
	}
	fputc('\n', f);
}

static void text_series_workload(const struct vms_compare *c, const struct vms_cmp_workload *w,
                                 FILE *f)
{
	char nm[160], lab[64], buf[64];
	size_t k0, k, j, pass;

	for (k0 = 0; k0 + 1 < c->n_files; k0 += 2) {
		size_t k1 = k0 + 2 < c->n_files - 1 ? k0 + 2 : c->n_files - 1;

		snprintf(lab, sizeof(lab), "A: %s", c->files[0].label);
		fprintf(f, "%-18s %-16s", fit(w->display, 44, nm, sizeof(nm)),
		        fit(lab, 16, buf, sizeof(buf)));
		for (k = k0; k < k1; k++) {
			snprintf(lab, sizeof(lab), "%c: %s", file_letter(k + 1),
			         c->files[k + 1].label);
			fit(lab, SERIES_GROUP_W - 1, buf, sizeof(buf));
			if (k + 1 < k1)
				fprintf(f, " %-*s", SERIES_GROUP_W - 1, buf);
			else
				fprintf(f, " %s", buf);
		}
		fprintf(f, "\n%-18s %7s %5s %2s", "metric", "mean", "cv", "n");
		for (k = k0; k < k1; k++) {
			snprintf(lab, sizeof(lab), "change %% [%g%% CI]",
			         100 * (1 - c->opts.alpha));
			fprintf(f, " %7s %-20s %s", "mean", lab, k + 1 < k1 ? "v " : "v");
		}
		fputc('\n', f);
		for (pass = 0; pass < 2; pass++) {
			int header = 0;

			for (j = 0; j < w->n_metrics; j++) {
				if (w->metrics[j].audio != (int)pass)
					continue;
				if (pass && !header++)
					fprintf(f, "Sound:\n");
				text_series_metric(&w->metrics[j], k0, k1, f);
			}
		}
		fputc('\n', f);
	}
}

static void text_verdict(const struct vms_compare *c, size_t k, FILE *f)
{
	size_t i, j, regressions = 0, untold = 0;
	char ch[64], p[16], v[64];

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_cmp_metric *m = &c->workloads[i].metrics[j];
			const struct vms_cmp_cell *cell = &m->cells[k];

			if (!m->primary || !c->workloads[i].present[k] || cell->by_design)
				continue;
			regressions += cell->verdict == VMS_VERDICT_REGRESSION;
			untold += cell->verdict == VMS_VERDICT_CANNOT_TELL ||
			          cell->verdict == VMS_VERDICT_MISSING;
		}
	fprintf(f, "VERDICT %c (", file_letter(k + 1));
	put_str(f, c->files[k + 1].label, 0);
	fputs(") vs A (", f);
	put_str(f, c->files[0].label, 0);
	fputs("): ", f);
	switch (vms_compare_outcome(c, k)) {
	case VMS_OUTCOME_REGRESSION:
		fprintf(f, "REGRESSION in %zu primary metric%s\n", regressions,
		        regressions > 1 ? "s" : "");
		break;
	case VMS_OUTCOME_NOT_COMPARABLE:
		fprintf(f, "NOT COMPARABLE (%s)\n",
		        c->n_workloads ? "hard environment differences" : "no common workload");
		break;
	case VMS_OUTCOME_CANNOT_TELL:
		fprintf(f, "CANNOT TELL (%zu primary metric%s not measured on a side)\n", untold,
		        untold > 1 ? "s" : "");
		break;
	default: fprintf(f, "no regression\n"); break;
	}
	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_cmp_metric *m = &c->workloads[i].metrics[j];
			const struct vms_cmp_cell *cell = &m->cells[k];

			if (!m->primary || !c->workloads[i].present[k] || cell->by_design)
				continue;
			fputs("  ", f);
			put_str(f, c->workloads[i].display, 14);
			fputc(' ', f);
			put_str(f, m->name, 18);
			fputc(' ', f);
			put_padded(f, fmt_verdict(cell, c->opts.detect, 0, v, sizeof(v)), 22);
			fprintf(f, " %-20s p %s%s\n", fmt_change(cell, ch, sizeof(ch)),
			        fmt_p(cell_p(cell), p, sizeof(p)),
			        isnan(cell->p_adj) ? "" : " (Holm)");
		}
}

/* The idle audio baselines, one line per file: not tested (one window each), but a baseline
 * that already skipped says the machine or device is noisy before any workload ran. */
static void text_baselines(const struct vms_compare *c, FILE *f)
{
	size_t k, any = 0;

	for (k = 0; k < c->n_files; k++)
		any += c->files[k].has_baseline;
	if (!any)
		return;
	fprintf(f, "Idle audio baseline (one window per file, no statistics):\n");
	for (k = 0; k < c->n_files; k++) {
		fprintf(f, "  %c ", file_letter(k));
		baseline_put(&c->files[k], f);
		fputc('\n', f);
	}
	for (k = 0; k < c->n_files; k++)
		if (c->files[k].baseline_skipped)
			fprintf(
			    f,
			    "  => %c skipped with no workload running: its sound figures measure "
			    "a noisy machine or device, not only the kernel's VM\n",
			    file_letter(k));
	fputc('\n', f);
}

int vms_compare_render_text(const struct vms_compare *c, FILE *f)
{
	char pct[16];
	size_t i, k;

	fprintf(f, "vmsuite compare\n");
	for (k = 0; k < c->n_files; k++) {
		fprintf(f, "  %c%s ", file_letter(k), k ? "       " : " (BASE)");
		put_str(f, c->files[k].label, 20);
		fputc(' ', f);
		put_str(f, c->files[k].path, 0);
		fputc('\n', f);
	}
	snprintf(pct, sizeof(pct), "%g%%", 100 * (1 - c->opts.alpha));
	fprintf(f,
	        "  alpha %g (%s CI), threshold \u00b1%g%%, detect %g%%, unstable above cv %g%%\n\n",
	        c->opts.alpha, pct, 100 * c->opts.threshold, 100 * c->opts.detect,
	        100 * c->opts.cv_limit);
	for (k = 0; k + 1 < c->n_files; k++)
		text_env(c, k, f);
	text_baselines(c, f);
	if (c->n_files > 2)
		fprintf(f, "Series view: one column group per file against A; v = verdict: R "
		           "regression, r probably\nregression, I improvement, i probably "
		           "improvement, = no change, ? inconclusive, ~ unstable,\nx not "
		           "comparable, ! cannot tell, - missing or numbers only; * a soft "
		           "difference could explain it.\n\n");
	for (i = 0; i < c->n_workloads; i++) {
		if (c->n_files > 2)
			text_series_workload(c, &c->workloads[i], f);
		else
			text_workload(c, &c->workloads[i], f);
	}
	if (c->n_not_compared) {
		fprintf(f, "Not compared (workload in one file only):\n");
		for (i = 0; i < c->n_not_compared; i++) {
			fputs("  ", f);
			put_str(f, c->not_compared[i], 0);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	for (k = 0; k + 1 < c->n_files; k++)
		text_verdict(c, k, f);
	fputc('\n', f);
	tests_note(c, f, "");
	drift_note(c, f, "");
	fprintf(f,
	        "change: of B against A by the test above, CI at %s; p: the p the verdict used;\n"
	        "cv: sd/mean; count rows show runs with an event/runs (Fisher's exact test) and "
	        "the change of\nthe mean count. n\u2248N: runs per side to detect a %g%% change.",
	        pct, 100 * c->opts.detect);
	if (soft_count(c))
		fprintf(f, " *: a soft environment\ndifference could explain this verdict.");
	fprintf(f, "\n");
	return finish(f);
}

void vms_compare_render_verdicts(const struct vms_compare *c, FILE *f)
{
	size_t k;

	for (k = 0; k + 1 < c->n_files; k++)
		text_verdict(c, k, f);
}

/* ---- markdown --------------------------------------------------------------------------- */

/* The longest run of backticks in s. */
static size_t backtick_run(const char *s, size_t longest)
{
	size_t run = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	return longest;
}

/* The fence of the verdict blocks: longer than any backtick run in the labels and names they
 * quote, so that no file string can close it. */
static size_t md_fence_len(const struct vms_compare *c)
{
	size_t i, j, n = 2;

	for (i = 0; i < c->n_files; i++)
		n = backtick_run(c->files[i].label, n);
	for (i = 0; i < c->n_workloads; i++) {
		n = backtick_run(c->workloads[i].name, n);
		for (j = 0; j < c->workloads[i].n_metrics; j++)
			n = backtick_run(c->workloads[i].metrics[j].name, n);
	}
	return n + 1;
}

static void md_fence(FILE *f, size_t n)
{
	while (n--)
		fputc('`', f);
	fputc('\n', f);
}

/* s, text of our own (numbers, verdicts), with '|' escaped for a table cell. */
static void md_cell(FILE *f, const char *s)
{
	fputs(" ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(" |", f);
}

/* A string of a result file (or a path) as a table cell: markup and control characters
 * escaped. */
static void md_cell_str(FILE *f, const char *s)
{
	fputc(' ', f);
	vms_md_put(f, s);
	fputs(" |", f);
}

static void md_workload(const struct vms_compare *c, const struct vms_cmp_workload *w, FILE *f)
{
	char buf[64];
	size_t j, k;

	fputs("## ", f);
	vms_md_put(f, w->display);
	fputs("\n\n| metric | A mean | A cv | A n |", f);
	for (k = 1; k < c->n_files; k++)
		fprintf(f, " %c mean | %c cv | %c n | %c change %% [%g%% CI] | %c p | %c verdict |",
		        file_letter(k), file_letter(k), file_letter(k), file_letter(k),
		        100 * (1 - c->opts.alpha), file_letter(k), file_letter(k));
	fprintf(f, "\n|---|---:|---:|---:|");
	for (k = 1; k < c->n_files; k++)
		fprintf(f, "---:|---:|---:|---|---:|---|");
	fputc('\n', f);
	for (j = 0; w->n_metrics && j < 2 * w->n_metrics; j++) {
		/* the system metrics first, then the sound ones, as in the text table */
		const struct vms_cmp_metric *m = &w->metrics[j % w->n_metrics];

		if (m->audio != (j >= w->n_metrics))
			continue;
		fprintf(f, "| %s", m->audio ? "sound: " : "");
		vms_md_put(f, m->name);
		fprintf(f, "%s |", m->primary ? " (primary)" : "");
		md_cell(f, fmt_num(m->base.s.mean, buf, sizeof(buf)));
		md_cell(f, fmt_spread(m, &m->base, buf, sizeof(buf)));
		md_cell(f, fmt_n(&m->base, buf, sizeof(buf)));
		for (k = 0; k + 1 < c->n_files; k++) {
			const struct vms_cmp_cell *cell = &m->cells[k];

			md_cell(f, fmt_num(cell->side.s.mean, buf, sizeof(buf)));
			md_cell(f, fmt_spread(m, &cell->side, buf, sizeof(buf)));
			md_cell(f, fmt_n(&cell->side, buf, sizeof(buf)));
			md_cell(f, fmt_change(cell, buf, sizeof(buf)));
			md_cell(f, fmt_p(cell_p(cell), buf, sizeof(buf)));
			md_cell(f, fmt_verdict(cell, c->opts.detect, 0, buf, sizeof(buf)));
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void md_baselines(const struct vms_compare *c, FILE *f)
{
	size_t k, any = 0;

	for (k = 0; k < c->n_files; k++)
		any += c->files[k].has_baseline;
	if (!any)
		return;
	fprintf(f, "## Idle audio baseline\n\nOne window per file, no statistics.\n\n```\n");
	for (k = 0; k < c->n_files; k++) {
		fprintf(f, "%c ", file_letter(k));
		baseline_put(&c->files[k], f);
		fputc('\n', f);
	}
	fprintf(f, "```\n\n");
	for (k = 0; k < c->n_files; k++)
		if (c->files[k].baseline_skipped)
			fprintf(
			    f,
			    "**%c skipped with no workload running**: its sound figures measure a "
			    "noisy machine or device, not only the kernel's VM.\n\n",
			    file_letter(k));
}

int vms_compare_render_markdown(const struct vms_compare *c, FILE *f)
{
	size_t i, k, fence = md_fence_len(c);

	fprintf(f, "# vmsuite compare\n\n| | label | file |\n|---|---|---|\n");
	for (k = 0; k < c->n_files; k++) {
		fprintf(f, "| %c%s |", file_letter(k), k ? "" : " (BASE)");
		md_cell_str(f, c->files[k].label);
		md_cell_str(f, c->files[k].path);
		fputc('\n', f);
	}
	fprintf(
	    f,
	    "\nalpha %g (%g%% CI), threshold \u00b1%g%%, detect %g%%, unstable above cv %g%%\n\n",
	    c->opts.alpha, 100 * (1 - c->opts.alpha), 100 * c->opts.threshold, 100 * c->opts.detect,
	    100 * c->opts.cv_limit);
	for (k = 0; k + 1 < c->n_files; k++) {
		const struct vms_envdiff *d = &c->env[k];

		fprintf(f, "## Environment: %c vs A\n\n", file_letter(k + 1));
		if (!d->n) {
			fprintf(f, "No differences.\n\n");
			continue;
		}
		fprintf(f, "| class | fact | A | %c |\n|---|---|---|---|\n", file_letter(k + 1));
		for (i = 0; i < d->n; i++) {
			fputc('|', f);
			md_cell(f, vms_env_class_name(d->items[i].cls));
			md_cell_str(f, d->items[i].key);
			md_cell_str(f, d->items[i].base);
			md_cell_str(f, d->items[i].other);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	md_baselines(c, f);
	for (i = 0; i < c->n_workloads; i++)
		md_workload(c, &c->workloads[i], f);
	if (c->n_not_compared) {
		fprintf(f, "## Not compared\n\n");
		for (i = 0; i < c->n_not_compared; i++) {
			fputs("- ", f);
			vms_md_put(f, c->not_compared[i]);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	fprintf(f, "## Verdict\n\n");
	for (k = 0; k + 1 < c->n_files; k++) {
		md_fence(f, fence);
		text_verdict(c, k, f);
		md_fence(f, fence);
		fputc('\n', f);
	}
	fprintf(f, "## Tests\n\n");
	md_fence(f, fence);
	tests_note(c, f, "");
	drift_note(c, f, "");
	md_fence(f, fence);
	fprintf(f,
	        "\nchange: of each file against A by the test named above; p: the p the verdict "
	        "used; count rows: runs with an event; n\u2248N: runs per side to detect a "
	        "%g%% change; *: a soft environment difference could explain the verdict.\n",
	        100 * c->opts.detect);
	return finish(f);
}

/* ---- json ------------------------------------------------------------------------------- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_json(const struct vms_cmp_metric *m, const struct vms_cmp_side *s)
{
	json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "n", (json_int_t)s->s.n, "mean",
	                      num(s->s.mean), "sd", num(s->s.sd), "cv", num(s->s.cv), "min",
	                      num(s->s.min), "max", num(s->s.max));

	if (m->count)
		json_object_set_new(o, "runs_with_event", json_integer(s->events));
	return o;
}

/* The baseline line as the text output shows it (and its causes line), or null. */
static json_t *baseline_json(const struct vms_cmp_file *file)
{
	char line[512], causes[512];

	if (!file->has_baseline || vms_report_sound_line(line, sizeof(line), NULL, &file->baseline))
		return json_null();
	if (vms_report_sound_causes_line(causes, sizeof(causes), &file->baseline))
		return json_string(line);
	return json_sprintf("%s\n%s", line, causes);
}

/* What the "test" key says: the method's test in words. */
static const char *method_test(enum vms_cmp_method m)
{
	switch (m) {
	case VMS_CMP_LOG_T: return "welch t on log values";
	case VMS_CMP_RAW_T: return "welch t on raw values";
	case VMS_CMP_FISHER: return "fisher exact on runs with an event";
	case VMS_CMP_PAIRED_LOG: return "paired t on log ratios";
	case VMS_CMP_PAIRED_RAW: return "paired t on differences";
	case VMS_CMP_SUITES_LOG: return "t on suite log means";
	default: return "none";
	}
}

static json_t *pct_json(double ratio)
{
	return num(100 * (ratio - 1));
}

json_t *vms_compare_to_json(const struct vms_compare *c)
{
	json_t *doc = json_object(), *files = json_array(), *env = json_array(),
	       *wls = json_array(), *nc = json_array();
	size_t i, j, k;

	json_object_set_new(doc, "format", json_string("vmsuite.compare/1"));
	for (k = 0; k < c->n_files; k++)
		json_array_append_new(
		    files, json_pack("{s:s, s:s, s:b, s:o, s:b}", "path", c->files[k].path, "label",
		                     c->files[k].label, "base", k == 0, "audio_baseline",
		                     baseline_json(&c->files[k]), "audio_baseline_skipped",
		                     c->files[k].baseline_skipped));
	json_object_set_new(doc, "files", files);
	for (k = 0; k < c->n_files; k++) {
		json_t *fo = json_array_get(files, k);

		json_object_set_new(fo, "variant",
		                    c->files[k].variant ? json_string(c->files[k].variant)
		                                        : json_null());
		json_object_set_new(fo, "suites", json_integer((json_int_t)c->files[k].n_suites));
		if (c->files[k].suite_paths) {
			json_t *sp = json_array();

			for (i = 0; i < c->files[k].n_suites; i++)
				json_array_append_new(sp, json_string(c->files[k].suite_paths[i]));
			json_object_set_new(fo, "paths", sp);
		}
		json_object_set_new(fo, "paired", json_boolean(c->files[k].paired));
		json_object_set_new(fo, "family_size",
		                    json_integer(k ? (json_int_t)c->family[k - 1] : 0));
	}
	json_object_set_new(doc, "compared", json_string(c->variants ? "variants" : "files"));
	json_object_set_new(doc, "options",
	                    json_pack("{s:f, s:f, s:f, s:f, s:b, s:s}", "alpha", c->opts.alpha,
	                              "threshold_pct", 100 * c->opts.threshold, "detect_pct",
	                              100 * c->opts.detect, "cv_limit_pct", 100 * c->opts.cv_limit,
	                              "force", c->opts.force, "p_adjustment",
	                              c->holm ? "holm" : "none"));
	for (k = 0; k + 1 < c->n_files; k++) {
		json_t *items = json_array();

		for (i = 0; i < c->env[k].n; i++) {
			const struct vms_env_item *it = &c->env[k].items[i];
			static const char *const scopes[] = {"global", "workload", "audio"};

			json_array_append_new(items,
			                      json_pack("{s:s, s:s, s:s, s:s, s:s}", "class",
			                                vms_env_class_name(it->cls), "scope",
			                                scopes[it->scope], "key", it->key, "base",
			                                it->base, "other", it->other));
		}
		json_array_append_new(env, items);
	}
	json_object_set_new(doc, "environment", env);
	for (i = 0; i < c->n_workloads; i++) {
		const struct vms_cmp_workload *w = &c->workloads[i];
		json_t *ms = json_array();

		for (j = 0; j < w->n_metrics; j++) {
			const struct vms_cmp_metric *m = &w->metrics[j];
			json_t *vs = json_array();

			for (k = 0; k + 1 < c->n_files; k++) {
				const struct vms_cmp_cell *cell = &m->cells[k];
				json_t *o = side_json(m, &cell->side);

				json_object_set_new(o, "method",
				                    json_string(vms_cmp_method_name(cell->method)));
				json_object_set_new(o, "change_pct", pct_json(cell->change));
				json_object_set_new(o, "ci_low_pct", pct_json(cell->lo));
				json_object_set_new(o, "ci_high_pct", pct_json(cell->hi));
				json_object_set_new(o, "p", num(cell->p));
				json_object_set_new(o, "verdict",
				                    json_string(vms_verdict_name(cell->verdict)));
				json_object_set_new(o, "runs_needed",
				                    cell->runs_needed
				                        ? json_integer(cell->runs_needed)
				                        : json_null());
				json_object_set_new(
				    o, "unstable_side",
				    cell->verdict == VMS_VERDICT_UNSTABLE
				        ? json_string(side_names[cell->unstable_side == 2
				                                     ? 0
				                                     : cell->unstable_side + 1])
				        : json_null());
				json_object_set_new(o, "confounded",
				                    json_boolean(cell->confounded));
				json_object_set_new(o, "test",
				                    json_string(method_test(cell->method)));
				json_object_set_new(o, "p_adjusted", num(cell->p_adj));
				json_object_set_new(
				    o, "p_adjustment",
				    json_string(isnan(cell->p_adj) ? "none" : "holm"));
				json_object_set_new(o, "pairs",
				                    json_integer((json_int_t)cell->pairs));
				json_object_set_new(o, "suites",
				                    json_integer((json_int_t)cell->side.n_suites));
				json_object_set_new(o, "drift_pct", num(100 * cell->drift));
				json_object_set_new(o, "within_pct", num(100 * cell->within));
				json_array_append_new(vs, o);
			}
			json_array_append_new(
			    ms,
			    json_pack("{s:s, s:s, s:s, s:b, s:s, s:b, s:b, s:o, s:o}", "name",
			              m->name, "unit", m->unit, "better",
			              vms_better_name(m->better), "primary", m->primary, "kind",
			              m->count ? "count" : "gauge", "audio", m->audio, "derived",
			              m->derived, "base", side_json(m, &m->base), "others", vs));
		}
		json_array_append_new(
		    wls, json_pack("{s:s, s:o, s:s, s:o}", "name", w->name, "metrics", ms,
		                   "display", w->display, "variant",
		                   w->variant ? json_string(w->variant) : json_null()));
	}
	json_object_set_new(doc, "workloads", wls);
	for (i = 0; i < c->n_not_compared; i++)
		json_array_append_new(nc, json_string(c->not_compared[i]));
	json_object_set_new(doc, "not_compared", nc);
	json_object_set_new(doc, "exit_status", json_integer(vms_compare_status(c)));
	return doc;
}

int vms_compare_render_json(const struct vms_compare *c, FILE *f)
{
	json_t *doc = vms_compare_to_json(c);
	int ret = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));

	json_decref(doc);
	fputc('\n', f);
	return ret ? -EIO : finish(f);
}

static const struct vms_compare_renderer renderers[] = {
    {"text", vms_compare_render_text},
    {"markdown", vms_compare_render_markdown},
    {"json", vms_compare_render_json},
    {"html", vms_compare_render_html},
};

const struct vms_compare_renderer *vms_compare_renderer_find(const char *name)
{
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(renderers); i++)
		if (!strcmp(renderers[i].name, name))
			return &renderers[i];
	return NULL;
}
