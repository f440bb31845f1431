/* `vmsuite compare`: the comparison model (BASE against each other result file, per workload
 * and metric, with Welch / Fisher statistics and verdicts). Prints nothing; the renderers are
 * in report/compare-*.c. Reads result files only; no kernel paths of its own. */
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/metric.h"
#include "core/result.h"
#include "compare/sound.h"
#include "core/util.h"

void vms_compare_opts_init(struct vms_compare_opts *o)
{
	o->threshold = 0.02;
	o->alpha = 0.05;
	o->detect = 0.05;
	o->cv_limit = 0.50;
	o->force = 0;
	o->disturbed_above = 5;
}

const char *vms_compare_verdict_name(enum vms_compare_verdict v)
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
	case VMS_VERDICT_CONFOUNDED: return "confounded";
	default: return "missing";
	}
}

const char *vms_compare_method_name(enum vms_compare_method m)
{
	switch (m) {
	case VMS_METHOD_LOG_T: return "welch_log";
	case VMS_METHOD_RAW_T: return "welch_raw";
	case VMS_METHOD_FISHER: return "fisher";
	case VMS_METHOD_PAIRED_LOG: return "paired_log";
	case VMS_METHOD_PAIRED_RAW: return "paired_raw";
	case VMS_METHOD_SUITES_LOG: return "suites_log";
	case VMS_METHOD_YUEN_LOG: return "yuen_log";
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

/* The columns while the model is built: each side's documents (its suites) and, when the
 * variants of one file are compared, the variant it is. */
struct cmp_col {
	const struct vms_rdoc *docs;
	size_t n;
	const char *variant;
};

struct cmp_ctx {
	struct cmp_col *cols;
};

static size_t variant_count(const json_t *doc)
{
	struct vms_rdoc d;
	size_t n;

	vms_rdoc_read(&d, doc);
	n = d.n_variants;
	vms_rdoc_release(&d);
	return n;
}

size_t vms_compare_sides(const struct vms_compare_input *in)
{
	if (!in->n)
		return 0;
	if (in->n == 1)
		return variant_count(in->docs[0]);
	return in->side ? in->side[in->n - 1] + 1 : in->n;
}

/* Workload w of column k in its suite s (NULL: absent). */
static const struct vms_rdoc_workload *col_wl(const struct vms_compare *c, const struct cmp_ctx *x,
                                              size_t k, size_t s,
                                              const struct vms_compare_workload *w)
{
	const char *label = c->variants ? x->cols[k].variant : w->variant;

	return s < x->cols[k].n ? vms_rdoc_workload(&x->cols[k].docs[s], w->name, label) : NULL;
}

/* The metric name of wl: one of its file's, or a count the reader derived from runs[]. */
static const struct vms_rdoc_metric *wl_metric(const struct vms_rdoc_workload *wl, const char *name,
                                               int derived)
{
	size_t i;

	if (!derived)
		return vms_rdoc_metric(wl, name);
	for (i = 0; wl && i < wl->n_derived; i++)
		if (!strcmp(wl->derived[i].name, name))
			return &wl->derived[i];
	return NULL;
}

/* Adds the values of metric name in workload wl (NULL wl or absent metric: nothing) to side s
 * as suite su: the non-null samples, or for a derived count one 0/1 per run that ended (ok or
 * failed), in run order. */
static void side_add(struct vms_compare_side *s, const struct vms_rdoc_workload *wl, unsigned su,
                     const char *name, int derived)
{
	const struct vms_rdoc_metric *m = wl_metric(wl, name, derived);
	size_t i, cap;

	if (!wl)
		return;
	s->present |= derived ? wl->n_runs > 0 : m != NULL;
	s->n_suites++;
	cap = s->s.n + (m ? m->n_values : 0) + 1;
	s->values = vms_xrealloc(s->values, cap * sizeof(*s->values));
	s->runs = vms_xrealloc(s->runs, cap * sizeof(*s->runs));
	s->suite = vms_xrealloc(s->suite, cap * sizeof(*s->suite));
	s->index = vms_xrealloc(s->index, cap * sizeof(*s->index));
	for (i = 0; m && i < m->n_values; i++) {
		size_t r = m->value_run[i];

		s->runs[s->s.n] = r;
		s->suite[s->s.n] = su;
		s->index[s->s.n] = r < wl->n_runs ? wl->runs[r].index : (long)r + 1;
		s->values[s->s.n++] = m->values[i];
	}
}

static void side_done(struct vms_compare_side *s)
{
	size_t i, positive = 0;

	vms_summarize(s->values, s->s.n, &s->s);
	s->events = 0;
	for (i = 0; i < s->s.n; i++)
		s->events += s->values[i] > 0;
	s->lsd = s->esd = NAN;
	if (s->events == s->s.n && s->s.n >= 2) {
		double *l = vms_xcalloc(s->s.n, sizeof(*l)), var, df;
		struct vms_summary ls;

		for (i = 0; i < s->s.n; i++)
			l[i] = log(s->values[i]);
		vms_summarize(l, s->s.n, &ls);
		s->lsd = ls.sd;
		if (vms_mean_var(l, s->s.n, &var, &df) >= 0)
			s->esd = sqrt(var * (double)s->s.n);
		free(l);
		positive = 1;
	}
	free(s->outlier);
	s->outlier = vms_xcalloc(s->s.n + 1, 1);
	s->outliers = positive ? vms_outliers(s->values, s->s.n, s->outlier) : 0;
	s->bimodal = positive && vms_bimodal(s->values, s->s.n);
}

/* Fills side s with metric name of workload w in column k (every suite). */
static void side_fill(const struct vms_compare *c, const struct cmp_ctx *x,
                      struct vms_compare_side *s, size_t k, const struct vms_compare_workload *w,
                      const char *name, int derived)
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

static void side_release(struct vms_compare_side *s)
{
	free(s->values);
	free(s->runs);
	free(s->suite);
	free(s->index);
	free(s->outlier);
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

/* True when every suite's workload has runs and none of them succeeded (status "ok"); false
 * when no suite has the workload. */
static int no_successful_run(const struct vms_compare *cmp, const struct cmp_ctx *x, size_t k,
                             const struct vms_compare_workload *w)
{
	size_t su, have = 0;

	for (su = 0; su < x->cols[k].n; su++) {
		const struct vms_rdoc_workload *wl = col_wl(cmp, x, k, su, w);

		if (!wl || !wl->n_runs)
			continue;
		have++;
		if (wl->n_ok)
			return 0;
	}
	return have > 0;
}

/* True when the document was recorded without the audio probe. */
static int without_audio(const struct vms_rdoc *doc)
{
	return !doc->audio || doc->audio_off;
}

/* Not comparable, confounded and confounder marks of a judged cell. */
static void finish_cell(const struct vms_compare *cmp, const struct vms_compare_workload *w,
                        const struct vms_compare_metric *m, struct vms_compare_cell *c, size_t k)
{
	const struct vms_envdiff *env = &cmp->env[k];

	c->confounded = 0;
	if (!cmp->opts.force && vms_envdiff_blocks(env, w->name, m->audio)) {
		c->verdict = VMS_VERDICT_NOT_COMPARABLE;
		c->runs_needed = 0;
		return;
	}
	if (vms_compare_disturbance_explains(w, m, c, k, cmp->opts.threshold)) {
		c->verdict = VMS_VERDICT_CONFOUNDED;
		c->runs_needed = 0;
		c->confounded = soft_applies(env, w->name, m->audio);
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
                       const struct vms_compare_workload *w, struct vms_compare_metric *m, size_t k)
{
	struct vms_compare_cell *c = &m->cells[k];
	size_t na = m->base.s.n, nb;

	memset(c, 0, sizeof(*c));
	c->change = c->lo = c->hi = c->p = c->p_adj = c->drift = c->within = NAN;
	c->p_worse = c->p_better = c->p_adj_worse = c->p_adj_better = c->bound = c->shown = NAN;
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
		c->by_design = m->audio && ((!na && without_audio(&x->cols[0].docs[0])) ||
		                            (!nb && without_audio(&x->cols[k + 1].docs[0])));
		return;
	}
	if (m->count && !(na >= 2 && nb >= 2 && m->base.events == na && c->side.events == nb))
		vms_compare_judge_fisher(&cmp->opts, m, c);
	else
		vms_compare_judge_t(cmp, m, c, cmp->files[k + 1].paired);
	finish_cell(cmp, w, m, c, k);
}

static struct vms_compare_metric *metric_find(struct vms_compare_workload *w, const char *name)
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

/* Adds metric name to w: as the reader gives it (rm, the first file's that has it), or
 * derived from runs[] when rm is NULL. Unit, better and kind are the catalogue's; the file's
 * serve a metric the catalogue lacks (the reader resolves both, and primary). */
static void metric_add(struct vms_compare *c, const struct cmp_ctx *x,
                       struct vms_compare_workload *w, const char *name,
                       const struct vms_rdoc_metric *rm)
{
	const struct vms_metric_def *d = vms_metric_find(name);
	struct vms_compare_metric *m;
	size_t k;

	w->metrics = vms_xrealloc(w->metrics, (w->n_metrics + 1) * sizeof(*w->metrics));
	m = &w->metrics[w->n_metrics++];
	memset(m, 0, sizeof(*m));
	m->name = vms_xstrdup(name);
	m->def = d;
	m->derived = !rm;
	if (rm) {
		m->unit = vms_xstrdup(rm->unit);
		m->better = rm->better;
		m->count = rm->count;
	} else {
		m->unit = vms_xstrdup(d ? d->unit : "");
		m->better = d ? d->better : VMS_BETTER_NONE;
		m->count = d && d->kind == VMS_KIND_COUNT;
	}
	m->primary = decides(c, name, rm ? rm->primary : d && d->primary);
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
			struct vms_compare_cell *cell = &m->cells[k - 1];

			/* the workload is not in that file: an empty side, reported as not compared
			 */
			cell->change = cell->lo = cell->hi = cell->p = cell->p_adj = NAN;
			cell->drift = cell->within = NAN;
			cell->p_worse = cell->p_better = cell->p_adj_worse = cell->p_adj_better =
			    NAN;
			cell->bound = cell->shown = NAN;
			cell->verdict = VMS_VERDICT_MISSING;
			cell->side.values = vms_xcalloc(1, sizeof(*cell->side.values));
			cell->side.runs = vms_xcalloc(1, sizeof(*cell->side.runs));
			cell->side.suite = vms_xcalloc(1, sizeof(*cell->side.suite));
			cell->side.index = vms_xcalloc(1, sizeof(*cell->side.index));
			side_done(&cell->side);
		}
	}
}

static void metric_release(const struct vms_compare *c, struct vms_compare_metric *m)
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
static int derived_all_zero(const struct vms_compare *c, const struct vms_compare_metric *m)
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
	struct vms_compare_workload *w;
	size_t k, i, j, su, any = 0;

	if (!name || row_exists(c, name, variant))
		return;
	c->workloads = vms_xrealloc(c->workloads, (c->n_workloads + 1) * sizeof(*c->workloads));
	w = &c->workloads[c->n_workloads++];
	memset(w, 0, sizeof(*w));
	w->name = vms_xstrdup(name);
	w->variant = variant ? vms_xstrdup(variant) : NULL;
	w->display = variant ? vms_xasprintf("%s [%s]", name, variant) : vms_xstrdup(name);
	w->present = vms_xcalloc(c->n_files - 1, sizeof(*w->present));
	w->busy = vms_xcalloc(c->n_files, sizeof(*w->busy));
	for (k = 0; k < c->n_files; k++) {
		const struct vms_rdoc_workload *wls[64];

		for (su = 0; su < x->cols[k].n && su < VMS_ARRAY_SIZE(wls); su++)
			wls[su] = col_wl(c, x, k, su, w);
		vms_compare_busy_of(&w->busy[k], wls, su, c->opts.disturbed_above);
	}
	for (k = 1; k < c->n_files; k++) {
		for (su = 0; su < x->cols[k].n; su++)
			w->present[k - 1] |= col_wl(c, x, k, su, w) != NULL;
		any += w->present[k - 1];
	}
	if (!any) {
		char *col = col_name(c, 0);

		not_compared(c, vms_xasprintf("%s: only in %s", w->display, col));
		free(col);
		for (k = 1; k < c->n_files; k++)
			c->unmatched[k - 1]++;
		free(w->present);
		free(w->busy);
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
			c->unmatched[k - 1]++;
		}
	}
	/* BASE's metrics in its order, then any only the others have, then the derived counts. */
	for (k = 0; k < c->n_files; k++)
		for (su = 0; su < x->cols[k].n; su++) {
			const struct vms_rdoc_workload *wl = col_wl(c, x, k, su, w);

			for (j = 0; wl && j < wl->n_metrics; j++)
				if (!metric_find(w, wl->metrics[j].name))
					metric_add(c, x, w, wl->metrics[j].name, &wl->metrics[j]);
		}
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
static void file_baseline(struct vms_compare_file *f, const struct vms_rdoc *d)
{
	const struct vms_rdoc_metric *u = vms_rdoc_baseline_metric(d, "underruns");

	f->baseline_skipped = u && u->n_values && u->values[0] > 0;
	vms_compare_sound_of_baseline(d, &f->baseline);
	f->has_baseline = f->baseline.present;
}

static char *file_label(const struct vms_rdoc *d, const char *path)
{
	const char *slash = strrchr(path, '/');

	return vms_xstrdup(d->label && *d->label ? d->label : slash ? slash + 1 : path);
}

/* Holm's adjustment over the deciding (workload, metric) pairs of column k + 1 that were
 * tested, and their verdicts again with the adjusted p. */
static void holm_column(struct vms_compare *c, size_t k)
{
	size_t i, j, n = 0, cap = 0;
	struct vms_compare_cell **cells = NULL;
	const struct vms_compare_metric **ms = NULL;
	const struct vms_compare_workload **ws = NULL;
	double *p, *adj;

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			struct vms_compare_metric *m = &c->workloads[i].metrics[j];
			struct vms_compare_cell *cell = &m->cells[k];

			/* Tests that cannot reach significance do not count (Tarone): Fisher
			 * with no event on either side, and exact comparisons of constant
			 * samples (no sampling noise to control) */
			if ((cell->method == VMS_METHOD_FISHER && !m->base.events &&
			     !cell->side.events) ||
			    (cell->method != VMS_METHOD_FISHER && m->base.s.sd == 0 &&
			     cell->side.s.sd == 0))
				continue;
			/* failed_runs and oom_kills decide by their own one-sided test */
			if (!m->primary || !c->workloads[i].present[k] || cell->by_design ||
			    m->derived || isnan(cell->p_worse) || cell->method == VMS_METHOD_NONE ||
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
	/* one-sided: exit 1 asks "did it get worse?"; the better direction has its own family
	 * for the improvements */
	for (i = 0; i < n; i++)
		p[i] = cells[i]->p_worse;
	c->family[k] = vms_holm(p, n, adj);
	for (i = 0; i < n; i++)
		cells[i]->p_adj_worse = adj[i];
	for (i = 0; i < n; i++)
		p[i] = cells[i]->p_better;
	vms_holm(p, n, adj);
	for (i = 0; i < n; i++) {
		struct vms_compare_cell *cell = cells[i];

		cell->p_adj_better = adj[i];
		cell->p_adj =
		    cell->p_worse <= cell->p_better ? cell->p_adj_worse : cell->p_adj_better;
		if (cell->method == VMS_METHOD_FISHER)
			vms_compare_decide_fisher(&c->opts, ms[i], cell, c->family[k]);
		else
			vms_compare_decide_t(&c->opts, ms[i], cell, c->family[k]);
		finish_cell(c, ws[i], ms[i], cell, k);
	}
	free(p);
	free(adj);
	free(cells);
	free(ms);
	free(ws);
}

/* The rows when the variants of doc are the columns: each workload of the first variant,
 * and one "only in variant" line per workload another variant alone has. */
static void variant_rows(struct vms_compare *c, const struct cmp_ctx *x, const struct vms_rdoc *doc,
                         size_t n_sides)
{
	const char *first = doc->variants[0].label;
	size_t i, k;

	for (k = 0; k < n_sides; k++)
		for (i = 0; i < doc->n_workloads; i++) {
			const struct vms_rdoc_workload *wl = &doc->workloads[i];
			const char *name = wl->has_name ? wl->name : NULL;
			const char *label = doc->variants[k].label;

			if (!name)
				continue;
			if (!k && vms_rdoc_workload(doc, name, first))
				build_workload(c, x, name, NULL);
			else if (k && !vms_rdoc_workload(doc, name, first) &&
			         vms_rdoc_workload(doc, name, label)) {
				char *line = vms_xasprintf("%s: only in variant %s", name, label);
				size_t j, dup = 0;

				for (j = 0; j < c->n_not_compared; j++)
					dup |= !strcmp(c->not_compared[j], line);
				if (dup)
					free(line);
				else
					not_compared(c, line);
				c->unmatched[k - 1] += !dup;
			}
		}
}

/* The rows when files (or sides of several suites) are the columns: BASE's workloads, and one
 * "only in" line per workload another side alone has. */
static void file_rows(struct vms_compare *c, const struct cmp_ctx *x, size_t n_sides)
{
	const struct vms_rdoc *base = &x->cols[0].docs[0];
	int several = base->n_variants > 1;
	size_t i, k;

	for (k = 0; k < n_sides; k++)
		vms_compare_check_suites(c, k, x->cols[k].docs, x->cols[k].n, base);
	for (i = 0; i < base->n_workloads; i++) {
		const struct vms_rdoc_workload *wl = &base->workloads[i];

		build_workload(c, x, wl->has_name ? wl->name : NULL, several ? wl->variant : NULL);
	}
	for (k = 1; k < n_sides; k++) {
		const struct vms_rdoc *doc = &x->cols[k].docs[0];

		for (i = 0; i < doc->n_workloads; i++) {
			const struct vms_rdoc_workload *wl = &doc->workloads[i];
			const char *v = wl->variant;

			if (wl->has_name &&
			    !vms_rdoc_workload(base, wl->name, several ? v : NULL) &&
			    ++c->unmatched[k - 1])
				not_compared(c,
				             vms_xasprintf("%s%s%s%s: only in %s", wl->name,
				                           several ? " [" : "", several ? v : "",
				                           several ? "]" : "", c->files[k].path));
		}
	}
}

void vms_compare_build(struct vms_compare *c, const struct vms_compare_opts *opts,
                       const struct vms_compare_input *in)
{
	size_t n_sides = vms_compare_sides(in), i, k;
	struct vms_rdoc *rd = vms_xcalloc(in->n + 1, sizeof(*rd));
	struct cmp_ctx x;

	memset(c, 0, sizeof(*c));
	c->opts = *opts;
	c->decisive = in->decisive;
	c->n_decisive = in->n_decisive;
	c->n_files = n_sides;
	c->files = vms_xcalloc(n_sides, sizeof(*c->files));
	x.cols = vms_xcalloc(n_sides, sizeof(*x.cols));
	for (i = 0; i < in->n; i++)
		vms_rdoc_read(&rd[i], in->docs[i]);
	c->variants = in->n == 1;
	if (c->variants) {
		/* the variants of one file: its runs were interleaved, run i of each variant
		 * made together, so they pair */
		for (k = 0; k < n_sides; k++) {
			const char *label = rd[0].variants[k].label;

			x.cols[k].docs = rd;
			x.cols[k].n = 1;
			x.cols[k].variant = label;
			c->files[k].path = vms_xstrdup(in->paths[0]);
			c->files[k].label = vms_xstrdup(label);
			c->files[k].variant = vms_xstrdup(label);
			c->files[k].n_suites = 1;
			c->files[k].paired = k > 0;
			file_baseline(&c->files[k], &rd[0]);
		}
	} else {
		/* a side's documents are contiguous (side[] does not decrease) */
		for (i = 0; i < in->n; i++) {
			k = in->side ? in->side[i] : i;
			if (!x.cols[k].n++) {
				x.cols[k].docs = rd + i;
				c->files[k].path = vms_xstrdup(in->paths[i]);
				c->files[k].suite_paths = vms_xcalloc(in->n + 1, sizeof(char *));
				c->files[k].label = file_label(&rd[i], in->paths[i]);
				file_baseline(&c->files[k], &rd[i]);
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
	c->unmatched = vms_xcalloc(n_sides, sizeof(*c->unmatched));
	for (k = 1; k < n_sides; k++) {
		vms_envdiff_of(&x.cols[0].docs[0], &x.cols[k].docs[0], &c->env[k - 1]);
		if (c->variants)
			vms_compare_variant_settings_diff(&rd[0], 0, k, &c->env[k - 1]);
	}
	if (c->variants)
		variant_rows(c, &x, &rd[0], n_sides);
	else
		file_rows(c, &x, n_sides);
	c->holm = 1;
	c->family = vms_xcalloc(n_sides, sizeof(*c->family));
	for (k = 0; k + 1 < n_sides; k++)
		holm_column(c, k);
	for (i = 0; i < in->n; i++)
		vms_rdoc_release(&rd[i]);
	free(rd);
	free(x.cols);
}

void vms_compare_release(struct vms_compare *c)
{
	size_t i, j;

	for (i = 0; i < c->n_workloads; i++) {
		struct vms_compare_workload *w = &c->workloads[i];

		for (j = 0; j < w->n_metrics; j++)
			metric_release(c, &w->metrics[j]);
		free(w->metrics);
		free(w->present);
		free(w->busy);
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
	free(c->unmatched);
	memset(c, 0, sizeof(*c));
}
