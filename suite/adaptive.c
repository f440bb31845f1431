/* Adaptive runs (`vmsuite run -n auto`): rounds of runs, a look after each (compare at a
 * per-look alpha, or the precision of a run alone), a time budget. No kernel paths. */
#include "suite/adaptive.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/resultdoc.h"
#include "compare/stats.h"
#include "core/util.h"

/* Runs per workload after each look: 3 first, then about 1.4 times as many each round, so that
 * few looks (and a mild correction for them) reach the 40-80 runs a 5-10 % change at a cv of
 * 10 % asks for. */
const long vms_adaptive_schedule[VMS_ADAPTIVE_MAX_LOOKS] = {3, 5, 7, 10, 14, 20, 28, 40, 56, 80};

enum mode { MODE_AGAINST, MODE_VARIANTS, MODE_PRECISION };

static enum mode mode_of(const struct vms_adaptive *a)
{
	return a->cfg.n_baselines      ? MODE_AGAINST
	       : a->cfg.n_variants > 1 ? MODE_VARIANTS
	                               : MODE_PRECISION;
}

static const char *mode_name(enum mode m)
{
	return m == MODE_AGAINST ? "against" : m == MODE_VARIANTS ? "variants" : "precision";
}

static double now_of(const struct vms_adaptive *a)
{
	return a->cfg.clock ? a->cfg.clock() : vms_now_mono();
}

void vms_adaptive_init(struct vms_adaptive *a, const struct vms_adaptive_config *cfg)
{
	memset(a, 0, sizeof(*a));
	a->cfg = *cfg;
	a->t0 = a->t_last = now_of(a);
	a->prev_done = vms_xcalloc(cfg->n_items + 1, sizeof(long));
	a->max_looks = VMS_ADAPTIVE_MAX_LOOKS;
	a->alpha_look = cfg->uncorrected ? cfg->alpha : cfg->alpha / VMS_ADAPTIVE_MAX_LOOKS;
}

void vms_adaptive_release(struct vms_adaptive *a)
{
	free(a->prev_done);
	a->prev_done = NULL;
}

enum cell_state { CELL_OPEN, CELL_DECIDED, CELL_REGRESSED, CELL_FINAL };

/* What a deciding metric's verdict means for more runs: decided (regression, improvement, no
 * change: what vms_compare_cell_decided() calls decided, with a regression apart because it ends
 * the run), final (more runs cannot help: not comparable, not measured, cannot tell) or open
 * (inconclusive, unstable, confounded: more runs may decide it). */
static enum cell_state cell_state(enum vms_compare_verdict v)
{
	switch (v) {
	case VMS_VERDICT_REGRESSION: return CELL_REGRESSED;
	case VMS_VERDICT_IMPROVEMENT:
	case VMS_VERDICT_NO_CHANGE: return CELL_DECIDED;
	case VMS_VERDICT_NOT_COMPARABLE:
	case VMS_VERDICT_MISSING:
	case VMS_VERDICT_CANNOT_TELL: return CELL_FINAL;
	default: return CELL_OPEN;
	}
}

double vms_adaptive_alpha(const json_t *doc, double alpha)
{
	struct vms_rdoc d;
	char err[256];

	if (vms_rdoc_init(&d, doc, err, sizeof(err)))
		return alpha;
	if (!isnan(d.adaptive.alpha_per_look))
		alpha = d.adaptive.alpha_per_look;
	vms_rdoc_release(&d);
	return alpha;
}

/* ---- one workload's state at a look ---- */

struct item_state {
	const char *name;
	int decided, final;
	char undecided[160]; /* "elapsed_s (inconclusive)" of what is not decided */
	char verdicts[200];  /* "elapsed_s no change, sys_s regression" */
	json_t *metrics;     /* [{metric, variant?, verdict, change, lo, hi}] */
	long base_runs;      /* against: the baseline's runs of it (largest metric n) */
	int base_short;      /* against: the baseline's runs cannot decide a metric of it */
	int regressed;       /* a deciding metric is a regression */
};

/* Appends ", a b" (or "a b" to an empty buf), with b in parentheses when paren. */
static void append(char *buf, size_t len, const char *a, const char *b, int paren)
{
	size_t n = strlen(buf);

	if (n + 4 >= len)
		return;
	snprintf(buf + n, len - n, paren ? "%s%s (%s)" : "%s%s %s", n ? ", " : "", a, b);
}

/* Whether the baseline side of m has too few runs for any number of runs of this kernel to
 * show "no change": with infinitely many, the interval of the change is still the baseline
 * mean's, t(1 - alpha/2, n - 1) * cv / sqrt(n) on each side, and when that reaches the
 * threshold it never fits inside +-threshold. (A large change can still be shown: the runs go
 * on, and the end of the run says so.) */
static int baseline_short(const struct vms_adaptive *a, const struct vms_compare_metric *m)
{
	const struct vms_summary *b = &m->base.s;
	double half, *l, var, df;
	size_t i;
	int pos = 1;

	if (m->count || m->derived)
		return 0;
	if (b->n < 2)
		return 1;
	if (!isfinite(b->cv))
		return 0;
	/* the variance of its mean as the test sees it (batch means when its runs are not
	 * independent), relative: on the log scale, or cv^2 / n */
	l = vms_xcalloc(b->n + 1, sizeof(*l));
	for (i = 0; i < b->n; i++) {
		pos &= m->base.values[i] > 0;
		l[i] = pos ? log(m->base.values[i]) : 0;
	}
	if (!pos || vms_mean_var(l, b->n, &var, &df) < 0) {
		var = b->cv * b->cv / (double)b->n;
		df = (double)b->n - 1;
	}
	free(l);
	half = gsl_cdf_tdist_Pinv(1 - a->alpha_look / 2, df) * sqrt(var);
	return half >= a->cfg.opts.threshold;
}

/* The compare of doc (with the baselines, or its variants) at the per-look alpha, read into
 * st[] by item (entries are in item order, n_variants each). */
static void judge_compare(struct vms_adaptive *a, json_t *doc, struct item_state *st)
{
	json_t *docs[17];
	const char *paths[17];
	size_t side[17], n = 0, i, j, k, it;
	struct vms_compare_opts opts = a->cfg.opts;
	struct vms_compare_input in = {0};
	struct vms_compare c;
	int against = mode_of(a) == MODE_AGAINST;

	for (i = 0; against && i < a->cfg.n_baselines && n < 16; i++, n++) {
		docs[n] = a->cfg.baselines[i];
		paths[n] = a->cfg.baseline_paths[i];
		side[n] = 0;
	}
	docs[n] = doc;
	paths[n] = a->cfg.output;
	side[n++] = 1;
	in = (struct vms_compare_input){.docs = docs,
	                                .paths = paths,
	                                .side = against ? side : NULL,
	                                .n = n,
	                                .decisive = a->cfg.decisive,
	                                .n_decisive = a->cfg.n_decisive};
	opts.alpha = a->alpha_look;
	vms_compare_build(&c, &opts, &in);
	for (it = 0; it < a->cfg.n_items; it++) {
		struct item_state *s = &st[it];

		s->decided = 1;
		for (i = 0; i < c.n_workloads; i++) {
			const struct vms_compare_workload *w = &c.workloads[i];

			if (strcmp(w->name, s->name))
				continue;
			for (k = 0; k + 1 < c.n_files; k++) {
				if (!w->present[k]) {
					s->final = 1;
					continue;
				}
				for (j = 0; j < w->n_metrics; j++) {
					const struct vms_compare_metric *m = &w->metrics[j];
					const struct vms_compare_cell *cell = &m->cells[k];
					enum vms_compare_verdict v = cell->verdict;
					const char *vn = vms_compare_verdict_name(v);
					json_t *mj;

					if (!m->primary || cell->by_design || v == VMS_VERDICT_INFO)
						continue;
					if (against && (long)m->base.s.n > s->base_runs)
						s->base_runs = (long)m->base.s.n;
					mj = json_pack("{s:s, s:s}", "metric", m->name, "verdict",
					               vn);
					if (c.files[k + 1].variant)
						json_object_set_new(
						    mj, "variant",
						    json_string(c.files[k + 1].variant));
					json_object_set_new(mj, "change",
					                    isfinite(cell->change)
					                        ? json_real(cell->change - 1)
					                        : json_null());
					json_object_set_new(mj, "lo",
					                    isfinite(cell->lo)
					                        ? json_real(cell->lo - 1)
					                        : json_null());
					json_object_set_new(mj, "hi",
					                    isfinite(cell->hi)
					                        ? json_real(cell->hi - 1)
					                        : json_null());
					json_array_append_new(s->metrics, mj);
					append(s->verdicts, sizeof(s->verdicts), m->name, vn, 0);
					switch (cell_state(v)) {
					case CELL_REGRESSED: s->regressed = 1; break;
					case CELL_DECIDED: break;
					case CELL_FINAL: s->final = 1; break;
					case CELL_OPEN:
						s->decided = 0;
						if (against && baseline_short(a, m)) {
							/* no more runs help when it has < 2 */
							s->final |= m->base.s.n < 2;
							s->base_short = 1;
							append(s->undecided, sizeof(s->undecided),
							       m->name,
							       "the baseline has too few runs", 1);
						} else {
							append(s->undecided, sizeof(s->undecided),
							       m->name, vn, 1);
						}
					}
				}
			}
		}
		/* a regression answers the question of the whole run: bad */
		if (s->regressed)
			s->decided = 1;
	}
	vms_compare_release(&c);
}

/* The precision rule of a run alone: every primary metric's 95 % interval of its (geometric)
 * mean within +-threshold/2, so that as a baseline it leaves room to show "no change" within
 * +-threshold and to see a detect-sized change against it. */
static void judge_precision(struct vms_adaptive *a, const struct vms_rdoc *d, struct item_state *st)
{
	double want = a->cfg.opts.threshold / 2;
	size_t it, k;

	for (it = 0; it < a->cfg.n_items; it++) {
		struct item_state *s = &st[it];
		size_t w = it * a->cfg.n_variants;
		const struct vms_rdoc_workload *wl = w < d->n_workloads ? &d->workloads[w] : NULL;
		int any = 0;

		s->decided = 1;
		for (k = 0; wl && k < wl->n_metrics; k++) {
			const struct vms_rdoc_metric *m = &wl->metrics[k];
			const char *name = m->name;
			size_t n = m->n_values, i;
			double *x, half = INFINITY, var = NAN, df = NAN;
			int pos = 1;
			struct vms_summary sum;
			char what[64];

			if (!m->primary)
				continue;
			x = vms_xcalloc(n + 1, sizeof(*x));
			memcpy(x, m->values, n * sizeof(*x));
			any = 1;
			for (i = 0; i < n; i++)
				pos &= x[i] > 0;
			for (i = 0; pos && i < n; i++)
				x[i] = log(x[i]);
			vms_summarize(x, n, &sum);
			/* the variance of the mean as compare will see it (batch means when the
			 * runs are not independent) */
			if (n >= 2 && sum.sd == 0)
				half = 0;
			else if (n >= 2 && vms_mean_var(x, n, &var, &df) >= 0 && pos)
				half = expm1(gsl_cdf_tdist_Pinv(0.975, df) * sqrt(var));
			else if (n >= 2 && sum.mean != 0)
				half = gsl_cdf_tdist_Pinv(0.975, df) * sqrt(var) / fabs(sum.mean);
			free(x);
			json_array_append_new(
			    s->metrics, json_pack("{s:s, s:i, s:o}", "metric", name, "runs", (int)n,
			                          "half_width",
			                          isfinite(half) ? json_real(half) : json_null()));
			if (half <= want) {
				append(s->verdicts, sizeof(s->verdicts), name, "precise", 0);
				continue;
			}
			s->decided = 0;
			if (isfinite(half))
				snprintf(what, sizeof(what), "+-%.1f %%", 100 * half);
			else
				snprintf(what, sizeof(what), "too few runs");
			append(s->undecided, sizeof(s->undecided), name, what, 1);
		}
		if (!any) /* no run measured anything: more runs of a failing workload tell nothing
		           */
			s->final = 1;
	}
}

/* The most runs of the schedule the budget allows, at cost s per run-of-an-item. */
static int looks_in_budget(const struct vms_adaptive *a, double elapsed, double per_run,
                           const long *done)
{
	int k, fit = 1;

	for (k = 1; k < VMS_ADAPTIVE_MAX_LOOKS; k++) {
		double t = elapsed;
		size_t i;

		for (i = 0; i < a->cfg.n_items; i++)
			if (vms_adaptive_schedule[k] > done[i])
				t += per_run * (double)(vms_adaptive_schedule[k] - done[i]);
		if (t > a->cfg.budget_s)
			break;
		fit = k + 1;
	}
	return fit;
}

static long next_runs(long done)
{
	int k;

	for (k = 0; k < VMS_ADAPTIVE_MAX_LOOKS; k++)
		if (vms_adaptive_schedule[k] > done)
			return vms_adaptive_schedule[k];
	return done;
}

static json_t *adaptive_json(json_t *doc, const struct vms_adaptive *a)
{
	json_t *ad = vms_result_adaptive(doc), *sched;
	int k;

	if (ad)
		return ad;
	sched = json_array();
	for (k = 0; k < VMS_ADAPTIVE_MAX_LOOKS; k++)
		json_array_append_new(sched, json_integer(vms_adaptive_schedule[k]));
	ad = json_pack("{s:s, s:f, s:f, s:f, s:f, s:s, s:o, s:n, s:n, s:[], s:n}", "mode",
	               mode_name(mode_of(a)), "budget_s", a->cfg.budget_s, "alpha", a->cfg.alpha,
	               "threshold", a->cfg.opts.threshold, "detect", a->cfg.opts.detect,
	               "correction", "bonferroni", "schedule", sched, "max_looks", "alpha_per_look",
	               "looks", "stop");
	json_object_set_new(doc, "adaptive", ad);
	return ad;
}

static void set_note(struct vms_adaptive *a, double elapsed)
{
	double left = a->cfg.budget_s - elapsed;

	if (left < 0)
		left = 0;
	snprintf(a->note, sizeof(a->note), "budget %ld:%02ld left", (long)left / 60,
	         (long)left % 60);
}

static const char *stop_name(enum vms_adaptive_stop s)
{
	switch (s) {
	case VMS_ADAPTIVE_DECIDED: return "decided";
	case VMS_ADAPTIVE_BUDGET: return "budget";
	case VMS_ADAPTIVE_MAX_RUNS: return "max_runs";
	case VMS_ADAPTIVE_CANNOT_JUDGE: return "cannot_judge";
	case VMS_ADAPTIVE_RUNNING: break;
	}
	return "running";
}

/* a->why from the items' states. */
static void say_why(struct vms_adaptive *a, const struct item_state *st, long runs, double next_s)
{
	size_t n = 0, i;
	char *w = a->why;
	size_t len = sizeof(a->why);

	switch (a->stop) {
	case VMS_ADAPTIVE_DECIDED:
		n = (size_t)snprintf(w, len, "decided after %ld runs:", runs);
		break;
	case VMS_ADAPTIVE_BUDGET:
		n = (size_t)snprintf(w, len,
		                     "budget %.0f %s spent after %ld runs (the next round would "
		                     "take about %.0f s more):",
		                     a->cfg.budget_s < 120 ? a->cfg.budget_s : a->cfg.budget_s / 60,
		                     a->cfg.budget_s < 120 ? "s" : "min", runs, next_s);
		break;
	case VMS_ADAPTIVE_MAX_RUNS:
		n = (size_t)snprintf(
		    w, len, "stopped at the last look (%d) after %ld runs:", a->looks, runs);
		break;
	case VMS_ADAPTIVE_CANNOT_JUDGE:
		n = (size_t)snprintf(w, len, "cannot judge after %ld runs:", runs);
		break;
	case VMS_ADAPTIVE_RUNNING: return;
	}
	for (i = 0; i < a->cfg.n_items && n + 8 < len; i++) {
		const struct item_state *s = &st[i];

		if (s->decided || !s->undecided[0])
			n += (size_t)snprintf(w + n, len - n, "%s %s %s", i ? ";" : "", s->name,
			                      s->final && !s->verdicts[0] ? "not judged"
			                                                  : s->verdicts);
		else
			n += (size_t)snprintf(w + n, len - n, "%s %s undecided %s", i ? ";" : "",
			                      s->name, s->undecided);
	}
	if (n >= len)
		snprintf(w + len - 4, 4, "...");
}

int vms_adaptive_look(void *ctx, json_t *doc, const long *done, long *want, long *at_most)
{
	struct vms_adaptive *a = ctx;
	double now = now_of(a), elapsed = now - a->t0, round_s = now - a->t_last;
	json_t *ad = adaptive_json(doc, a), *look, *lw;
	struct vms_rdoc d;
	struct item_state *st;
	long added = 0, runs = 0, more_runs = 0;
	double per_run, next_s;
	int open = 0;
	size_t i;

	for (i = 0; i < a->cfg.n_items; i++) {
		added += done[i] - a->prev_done[i];
		runs = done[i] > runs ? done[i] : runs;
	}
	if (!runs && !a->planned) { /* the plan of the first round */
		a->planned = 1;
		for (i = 0; i < a->cfg.n_items; i++) {
			want[i] = vms_adaptive_schedule[0];
			at_most[i] = vms_adaptive_schedule[VMS_ADAPTIVE_MAX_LOOKS - 1];
		}
		a->t_last = now;
		set_note(a, elapsed);
		return 1;
	}
	per_run = added ? round_s / (double)added : 0;
	if (!a->looks) {
		/* the per-look alpha, fixed once: the budget allows at most this many looks */
		a->max_looks = looks_in_budget(a, elapsed, per_run, done);
		a->alpha_look = a->cfg.uncorrected ? a->cfg.alpha : a->cfg.alpha / a->max_looks;
		json_object_set_new(ad, "max_looks", json_integer(a->max_looks));
		json_object_set_new(ad, "alpha_per_look", json_real(a->alpha_look));
	}
	a->looks++;
	st = vms_xcalloc(a->cfg.n_items + 1, sizeof(*st));
	vms_rdoc_read(&d, doc);
	for (i = 0; i < a->cfg.n_items; i++) {
		size_t w = i * a->cfg.n_variants;

		/* the names stay: they are doc's strings */
		st[i].name = w < d.n_workloads ? d.workloads[w].name : "?";
		st[i].metrics = json_array();
	}
	if (mode_of(a) == MODE_PRECISION)
		judge_precision(a, &d, st);
	else
		judge_compare(a, doc, st);
	vms_rdoc_release(&d);
	for (i = 0; i < a->cfg.n_items; i++)
		st[i].final |= !done[i]; /* skipped: it cannot run here */

	lw = json_array();
	look = json_pack("{s:i, s:f, s:f, s:f, s:o}", "look", a->looks, "time", vms_now_real(),
	                 "elapsed_s", elapsed, "alpha", a->alpha_look, "workloads", lw);
	for (i = 0; i < a->cfg.n_items; i++) {
		json_t *wj = json_pack("{s:s, s:I, s:s, s:o}", "workload", st[i].name, "runs",
		                       (json_int_t)done[i], "decision",
		                       st[i].decided ? "decided"
		                       : st[i].final ? "cannot_judge"
		                                     : "undecided",
		                       "metrics", st[i].metrics);

		if (mode_of(a) == MODE_AGAINST) {
			json_object_set_new(wj, "baseline_runs", json_integer(st[i].base_runs));
			json_object_set_new(wj, "baseline_too_few", json_boolean(st[i].base_short));
		}
		json_array_append_new(lw, wj);
		if (!st[i].decided && !st[i].final) {
			open++;
			want[i] = next_runs(done[i]);
			more_runs += want[i] - done[i];
		} else {
			want[i] = done[i];
		}
	}
	/* a regression anywhere answers "did it get worse": the whole run stops */
	for (i = 0; i < a->cfg.n_items; i++)
		if (st[i].regressed)
			open = 0;
	next_s = per_run * (double)more_runs;
	if (!open)
		a->stop = VMS_ADAPTIVE_DECIDED;
	else if (a->looks >= a->max_looks || !more_runs)
		a->stop = VMS_ADAPTIVE_MAX_RUNS;
	else if (elapsed + next_s > a->cfg.budget_s)
		a->stop = VMS_ADAPTIVE_BUDGET;
	if (!open) {
		int any_decided = 0, any_final = 0;

		for (i = 0; i < a->cfg.n_items; i++) {
			any_decided |= st[i].decided;
			any_final |= st[i].final && !st[i].decided;
		}
		if (any_final && !any_decided)
			a->stop = VMS_ADAPTIVE_CANNOT_JUDGE;
	}
	json_object_set_new(look, "decision", json_string(a->stop ? stop_name(a->stop) : "more"));
	json_object_set_new(look, "next_round_s", json_real(next_s));
	vms_result_add_look(doc, look);
	if (a->stop) {
		say_why(a, st, runs, next_s);
		json_object_set_new(ad, "stop",
		                    json_pack("{s:s, s:i, s:I, s:f, s:s}", "reason",
		                              stop_name(a->stop), "looks", a->looks, "runs",
		                              (json_int_t)runs, "elapsed_s", elapsed, "text",
		                              a->why));
		for (i = 0; i < a->cfg.n_items; i++)
			want[i] = at_most[i] = done[i];
	} else {
		int fit = looks_in_budget(a, elapsed, per_run, done);
		long most = vms_adaptive_schedule[(fit < a->max_looks ? fit : a->max_looks) - 1];

		for (i = 0; i < a->cfg.n_items; i++)
			at_most[i] =
			    want[i] > done[i] ? (most > want[i] ? most : want[i]) : done[i];
	}
	if (a->cfg.progress)
		vms_note("look %d after %ld runs (alpha %.4g per look, %.0f of %.0f s spent): %s",
		         a->looks, runs, a->alpha_look, elapsed, a->cfg.budget_s,
		         a->stop ? a->why : "more runs");
	for (i = 0; i < a->cfg.n_items; i++) {
		size_t v;

		/* what is planned now: the next round's runs, or those made when stopped */
		for (v = 0; v < a->cfg.n_variants; v++)
			vms_result_set_runs_planned(doc, i * a->cfg.n_variants + v, want[i]);
		a->prev_done[i] = done[i];
	}
	a->t_last = now;
	set_note(a, now_of(a) - a->t0);
	free(st);
	return a->stop ? 0 : 1;
}
