/* The text renderer of the compare model: the header, environment differences, one table per
 * workload (or the series view for more than two sides), the VERDICT blocks and the notes,
 * in 100 columns. No kernel paths. */
#include "report/compare-render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare/compare.h"
#include "core/escape.h"
#include "report/compare-fmt.h"

#define ROW_FMT "%-18s %7s %5s %2s %7s %5s %2s %-19s %5s %s\n"

/* A one-letter verdict mark for the series view; '*' is added for a confounder. */
static char verdict_mark(enum vms_compare_verdict v)
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
	case VMS_VERDICT_CONFOUNDED: return 'c';
	default: return '-';
	}
}

static int soft_count(const struct vms_compare *c)
{
	size_t k, n = 0;

	for (k = 0; k + 1 < c->n_files; k++)
		n += vms_envdiff_count(&c->env[k], VMS_ENV_SOFT);
	return (int)n;
}

static void text_side(const struct vms_compare_metric *m, const struct vms_compare_side *s,
                      char *mean, char *spread, char *n)
{
	vms_compare_fmt_num(s->s.mean, mean, 24);
	vms_compare_fmt_spread(m, s, spread, 24);
	/* no value on this side: "-" in every column, never a 0 that was not measured */
	vms_compare_fmt_n(s, n, 24);
}

static void text_metric(const struct vms_compare *c, const struct vms_compare_metric *m, FILE *f)
{
	char bm[24], bs[24], bn[24], om[24], os[24], on[24], ch[64], p[16], v[64], name[40];
	size_t k;

	text_side(m, &m->base, bm, bs, bn);
	for (k = 0; k + 1 < c->n_files; k++) {
		const struct vms_compare_cell *cell = &m->cells[k];

		text_side(m, &cell->side, om, os, on);
		vms_compare_fmt_change(cell, ch, sizeof(ch));
		vms_compare_fmt_p(vms_compare_cell_p(cell), p, sizeof(p));
		vms_compare_fmt_verdict(cell, c->opts.detect, 1, v, sizeof(v));
		if (k == 0) {
			vms_compare_fit(m->name, 18, name, sizeof(name));
			fprintf(f, ROW_FMT, name, bm, bs, bn, om, os, on, ch, p, v);
		} else {
			snprintf(name, sizeof(name), "  vs %c", vms_compare_file_letter(k + 1));
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
		fprintf(f, "Environment, %c vs A: no differences\n\n",
		        vms_compare_file_letter(k + 1));
		return;
	}
	fprintf(f, "Environment, %c vs A (only what differs):\n", vms_compare_file_letter(k + 1));
	for (i = 0; i < d->n; i++) {
		const struct vms_env_item *it = &d->items[i];
		char *key = vms_text_escape(it->key);
		size_t keyw =
		    vms_compare_display_width(key) > 26 ? vms_compare_display_width(key) : 26;
		size_t room = 100 - 2 - 8 - 1 - keyw - 1 - 4, each = room / 2;

		fprintf(f, "  %-8s ",
		        it->cls == VMS_ENV_HARD ? "HARD" : vms_env_class_name(it->cls));
		vms_compare_put_padded(f, key, 26);
		fprintf(f, " %s -> %s\n", vms_compare_fit(it->base, each, a, sizeof(a)),
		        vms_compare_fit(it->other, each, b, sizeof(b)));
		free(key);
	}
	if (hard && c->opts.force)
		fprintf(f,
		        "  => %zu hard difference(s): compared anyway (--ignore-hard-differences); "
		        "treat verdicts with care\n",
		        hard);
	else if (hard && vms_envdiff_blocks(d, NULL, 0))
		fprintf(f,
		        "  => %zu hard difference(s): every verdict is \"not comparable\" "
		        "(--ignore-hard-differences compares anyway)\n",
		        hard);
	else if (hard)
		fprintf(f,
		        "  => %zu hard difference(s): the affected verdicts are \"not "
		        "comparable\" (--ignore-hard-differences)\n",
		        hard);
	if (vms_envdiff_count(d, VMS_ENV_SOFT))
		fprintf(f, "  => soft differences are possible confounders: a * marks the "
		           "verdicts they could explain\n");
	fputc('\n', f);
}

static void text_workload(const struct vms_compare *c, const struct vms_compare_workload *w,
                          FILE *f)
{
	char nm[160], a[40], b[40], la[40], lb[40], ci[32];
	size_t j, pass;

	snprintf(la, sizeof(la), "A: %s", c->files[0].label);
	snprintf(lb, sizeof(lb), "B: %s", c->files[1].label);
	snprintf(ci, sizeof(ci), "change %% [%g%% CI]", 100 * (1 - c->opts.alpha));
	fprintf(f, "%-18s %-16s %s\n", vms_compare_fit(w->display, 44, nm, sizeof(nm)),
	        vms_compare_fit(la, 16, a, sizeof(a)), vms_compare_fit(lb, 16, b, sizeof(b)));
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

static void text_series_metric(const struct vms_compare_metric *m, size_t k0, size_t k1, FILE *f)
{
	char name[40], bm[24], bs[24], bn[24], om[24], ch[64];
	size_t k;

	vms_compare_fit(m->name, 18, name, sizeof(name));
	text_side(m, &m->base, bm, bs, bn);
	fprintf(f, "%-18s %7s %5s %2s", name, bm, bs, bn);
	for (k = k0; k < k1; k++) {
		const struct vms_compare_cell *cell = &m->cells[k];

		vms_compare_fmt_num(cell->side.s.mean, om, sizeof(om));
		vms_compare_fmt_change(cell, ch, sizeof(ch));
		/* no trailing blank: the last group ends with its mark */
		fprintf(f, " %7s %-20s %c%s", om, ch, verdict_mark(cell->verdict),
		        cell->confounded ? "*"
		        : k + 1 < k1     ? " "
		                         : "");
	}
	fputc('\n', f);
}

/* The start of a note line about one metric: "  => WHAT: WORKLOAD METRIC". */
static void note_head(FILE *f, const struct vms_compare_workload *w,
                      const struct vms_compare_metric *m, const char *what)
{
	fprintf(f, "  => %s: ", what);
	vms_compare_put_str(f, w->display, 0);
	fputc(' ', f);
	vms_compare_put_str(f, m->name, 0);
}

/* A side whose runs drift together: the spread its batch means give, as a multiple of the
 * spread of independent runs. */
static void drift_put(FILE *f, const struct vms_compare_side *s, char letter)
{
	if (s->esd > s->lsd * 1.0001)
		fprintf(f, " %c %.1fx", letter, s->esd / s->lsd);
}

/* One line per primary metric whose runs drifted together on a side (batch means widened
 * its interval). */
static void text_drifting(const struct vms_compare *c, size_t k, FILE *f)
{
	size_t i, j;

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_compare_metric *m = &c->workloads[i].metrics[j];
			const struct vms_compare_cell *cell = &m->cells[k];

			if (!m->primary || !c->workloads[i].present[k] ||
			    !(m->base.esd > m->base.lsd * 1.0001 ||
			      cell->side.esd > cell->side.lsd * 1.0001))
				continue;
			note_head(f, &c->workloads[i], m,
			          "runs drift together (batch means widen the interval)");
			drift_put(f, &m->base, 'A');
			drift_put(f, &cell->side, vms_compare_file_letter(k + 1));
			fputs(" the sd of independent runs\n", f);
		}
}

static void text_series_workload(const struct vms_compare *c, const struct vms_compare_workload *w,
                                 FILE *f)
{
	char nm[160], lab[64], buf[64];
	size_t k0, k, j, pass;

	for (k0 = 0; k0 + 1 < c->n_files; k0 += 2) {
		size_t k1 = k0 + 2 < c->n_files - 1 ? k0 + 2 : c->n_files - 1;

		snprintf(lab, sizeof(lab), "A: %s", c->files[0].label);
		fprintf(f, "%-18s %-16s", vms_compare_fit(w->display, 44, nm, sizeof(nm)),
		        vms_compare_fit(lab, 16, buf, sizeof(buf)));
		for (k = k0; k < k1; k++) {
			snprintf(lab, sizeof(lab), "%c: %s", vms_compare_file_letter(k + 1),
			         c->files[k + 1].label);
			vms_compare_fit(lab, SERIES_GROUP_W - 1, buf, sizeof(buf));
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

void vms_compare_text_verdict(const struct vms_compare *c, size_t k, FILE *f)
{
	size_t i, j;
	unsigned more = vms_compare_runs_to_decide(c, k);
	struct vms_compare_tally t;
	char ch[64], p[16], v[64];
	const char *sep = "";

	vms_compare_tally(c, k, &t);
	fprintf(f, "VERDICT %c (", vms_compare_file_letter(k + 1));
	vms_compare_put_str(f, c->files[k + 1].label, 0);
	fputs(") vs A (", f);
	vms_compare_put_str(f, c->files[0].label, 0);
	fputs("): ", f);
	switch (vms_compare_outcome(c, k)) {
	case VMS_OUTCOME_REGRESSION:
		fprintf(f, "REGRESSION in %zu primary metric%s\n", t.regressions,
		        t.regressions > 1 ? "s" : "");
		break;
	case VMS_OUTCOME_NOT_COMPARABLE:
		fprintf(f, "NOT COMPARABLE (%s)\n",
		        !c->n_workloads ? "no common workload"
		        : t.blocked     ? "hard environment differences"
		                        : "a workload on one side only");
		break;
	case VMS_OUTCOME_CANNOT_TELL:
		fputs("CANNOT TELL (", f);
		if (t.unmeasured) {
			fprintf(f, "%zu primary metric%s not measured on a side", t.unmeasured,
			        t.unmeasured > 1 ? "s" : "");
			sep = "; ";
		}
		if (t.unstable) {
			fprintf(f, "%s%zu unstable", sep, t.unstable);
			sep = "; ";
		}
		if (t.confounded) {
			fprintf(f, "%s%zu confounded by other processes on the CPUs", sep,
			        t.confounded);
			sep = "; ";
		}
		if (t.failed)
			fprintf(f, "%sruns failed on %c, none on A", sep,
			        vms_compare_file_letter(k + 1));
		if (!t.unmeasured && !t.unstable && !t.failed && !t.confounded)
			fputs("no deciding metric measured", f);
		fputs(")\n", f);
		break;
	case VMS_OUTCOME_NO_CHANGE:
		fprintf(f, "NO CHANGE (every primary metric within \u00b1%g%%",
		        100 * c->opts.threshold);
		if (t.improved)
			fprintf(f, " or better: %zu improved", t.improved);
		fputs(")\n", f);
		break;
	default:
		fprintf(f, "no regression shown (%zu primary metric%s undecided)\n", t.undecided,
		        t.undecided == 1 ? "" : "s");
		break;
	}
	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_compare_metric *m = &c->workloads[i].metrics[j];
			const struct vms_compare_cell *cell = &m->cells[k];

			if (!m->primary || !c->workloads[i].present[k] || cell->by_design)
				continue;
			fputs("  ", f);
			vms_compare_put_str(f, c->workloads[i].display, 14);
			fputc(' ', f);
			vms_compare_put_str(f, m->name, 18);
			fputc(' ', f);
			vms_compare_put_padded(
			    f, vms_compare_fmt_verdict(cell, c->opts.detect, 0, v, sizeof(v)), 22);
			fprintf(f, " %-20s p %s%s\n", vms_compare_fmt_change(cell, ch, sizeof(ch)),
			        vms_compare_fmt_p(vms_compare_cell_p(cell), p, sizeof(p)),
			        isnan(cell->p_adj) ? "" : " (Holm)");
		}
	if (more && vms_compare_outcome(c, k) != VMS_OUTCOME_REGRESSION)
		fprintf(
		    f,
		    "  => undecided metrics would need about %u runs per side (-n %u, and A with "
		    "as many)\n",
		    more, more);
	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_compare_metric *m = &c->workloads[i].metrics[j];
			const struct vms_compare_cell *cell = &m->cells[k];

			if (!m->primary || !c->workloads[i].present[k] ||
			    (!m->base.outliers && !cell->side.outliers))
				continue;
			note_head(f, &c->workloads[i], m, "outliers");
			vms_compare_outliers_put(f, &m->base, 'A');
			vms_compare_outliers_put(f, &cell->side, vms_compare_file_letter(k + 1));
			fprintf(f, " (%s)\n",
			        cell->verdict == VMS_VERDICT_UNSTABLE
			            ? "more than trimming removes: unstable"
			            : "the trimmed-means test decides");
		}
	text_drifting(c, k, f);
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
		fprintf(f, "  %c ", vms_compare_file_letter(k));
		vms_compare_baseline_put(&c->files[k], f);
		fputc('\n', f);
	}
	for (k = 0; k < c->n_files; k++)
		if (c->files[k].baseline_skipped)
			fprintf(
			    f,
			    "  => %c skipped with no workload running: its sound figures measure "
			    "a noisy machine or device, not only the kernel's VM\n",
			    vms_compare_file_letter(k));
	fputc('\n', f);
}

int vms_compare_render_text(const struct vms_compare *c, FILE *f)
{
	char pct[16];
	size_t i, k;

	fprintf(f, "vmsuite compare\n");
	for (k = 0; k < c->n_files; k++) {
		fprintf(f, "  %c%s ", vms_compare_file_letter(k), k ? "       " : " (BASE)");
		vms_compare_put_str(f, c->files[k].label, 20);
		fputc(' ', f);
		vms_compare_put_str(f, c->files[k].path, 0);
		fputc('\n', f);
	}
	snprintf(pct, sizeof(pct), "%g%%", 100 * (1 - c->opts.alpha));
	fprintf(
	    f,
	    "  alpha %g (%s CI), threshold \u00b1%g%%, detect %g%%, unstable above log-sd %g%%\n\n",
	    c->opts.alpha, pct, 100 * c->opts.threshold, 100 * c->opts.detect,
	    100 * c->opts.cv_limit);
	for (k = 0; k + 1 < c->n_files; k++)
		text_env(c, k, f);
	text_baselines(c, f);
	if (c->n_files > 2)
		fprintf(f, "Series view: one column group per file against A; v = verdict: R "
		           "regression, r probably\nregression, I improvement, i probably "
		           "improvement, = no change, ? inconclusive, ~ unstable,\nx not "
		           "comparable, ! cannot tell, c confounded, - missing or numbers only; * "
		           "a soft difference\ncould explain it.\n\n");
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
			vms_compare_put_str(f, c->not_compared[i], 0);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	vms_compare_busy_note(c, f, "");
	for (k = 0; k + 1 < c->n_files; k++)
		vms_compare_text_verdict(c, k, f);
	fputc('\n', f);
	vms_compare_tests_note(c, f, "");
	vms_compare_drift_note(c, f, "");
	fprintf(f,
	        "change: of B against A by the test above, CI at %s; p: the p the verdict used;\n"
	        "cv: sd/mean; count rows show runs with an event/runs (Fisher's exact test) and "
	        "the change of\nthe mean count. n\u2248N: runs per side to detect a %g%% change.",
	        pct, 100 * c->opts.detect);
	if (soft_count(c))
		fprintf(f, " *: a soft environment\ndifference could explain this verdict.");
	fprintf(f, "\n");
	return vms_compare_finish(f);
}

void vms_compare_render_verdicts(const struct vms_compare *c, FILE *f)
{
	size_t k;

	for (k = 0; k + 1 < c->n_files; k++)
		vms_compare_text_verdict(c, k, f);
}
