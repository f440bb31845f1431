/* The formatting the compare renderers share (report/compare-fmt.h): numbers, changes and
 * p-values in table columns, file letters, escaped and fitted strings, the tests and drift
 * notes. No kernel paths. */
#include "report/compare-fmt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "report/sound-text.h"
#include "core/escape.h"

/* The short form the 100-column text table uses. */
static const char *verdict_short(enum vms_compare_verdict v)
{
	switch (v) {
	case VMS_VERDICT_PROB_REGRESSION: return "prob. regression";
	case VMS_VERDICT_PROB_IMPROVEMENT: return "prob. improvement";
	default: return vms_compare_verdict_name(v);
	}
}

/* A number in at most 7 columns: 258.8, 15.18, 500.2k, 2.048G. NAN is "-". */
const char *vms_compare_fmt_num(double v, char *buf, size_t len)
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
const char *vms_compare_fmt_spread(const struct vms_compare_metric *m,
                                   const struct vms_compare_side *s, char *buf, size_t len)
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
const char *vms_compare_fmt_change(const struct vms_compare_cell *c, char *buf, size_t len)
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
const char *vms_compare_fmt_n(const struct vms_compare_side *s, char *buf, size_t len)
{
	if (s->s.n)
		snprintf(buf, len, "%zu", s->s.n);
	else
		snprintf(buf, len, "-");
	return buf;
}

const char *vms_compare_fmt_p(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<.001");
	else
		snprintf(buf, len, "%.3f", p);
	return buf;
}

const char *const vms_compare_side_names[] = {"both", "base", "other"};

/* The p-value the verdict used: Holm-adjusted for the deciding metrics, else the test's. */
double vms_compare_cell_p(const struct vms_compare_cell *c)
{
	return isnan(c->p_adj) ? c->p : c->p_adj;
}

/* Display columns of a UTF-8 string. */
size_t vms_compare_display_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* raw with control characters escaped (a file's string), cut to at most width display columns
 * (with "..." when cut), into buf. */
const char *vms_compare_fit(const char *raw, size_t width, char *buf, size_t len)
{
	char *s = vms_text_escape(raw);
	size_t cols = 0, i;

	if (vms_compare_display_width(s) <= width) {
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
void vms_compare_put_padded(FILE *f, const char *s, size_t width)
{
	size_t w = vms_compare_display_width(s);

	fputs(s, f);
	for (; w < width; w++)
		fputc(' ', f);
}

/* A string of a result file (or a path) with control characters escaped, left-aligned in width
 * display columns (0: as long as it is). */
void vms_compare_put_str(FILE *f, const char *s, size_t width)
{
	char *e = vms_text_escape(s);

	vms_compare_put_padded(f, e, width);
	free(e);
}

char vms_compare_file_letter(size_t k)
{
	return k < 26 ? (char)('A' + k) : '?';
}

int vms_compare_finish(FILE *f)
{
	return ferror(f) ? -EIO : 0;
}

/* A file's idle baseline figures without their label (the table says what they are, so a
 * line fits 100 columns), or that it has none; no final newline. */
void vms_compare_baseline_put(const struct vms_compare_file *file, FILE *f)
{
	if (file->has_baseline)
		vms_report_sound_put(f, &file->baseline);
	else
		fputs("(no audio baseline)", f);
}

/* What each test that the model used means, one line each with prefix, and how the deciding
 * verdicts were corrected; the drift measured between suites. */
void vms_compare_tests_note(const struct vms_compare *c, FILE *f, const char *prefix)
{
	static const char *const what[] = {
	    [VMS_METHOD_LOG_T] = "Welch's t-test on log-values: change = ratio of geometric means",
	    [VMS_METHOD_RAW_T] = "Welch's t-test on raw values (a value <= 0): change of the mean",
	    [VMS_METHOD_FISHER] = "Fisher's exact test on the runs with an event (count rows)",
	    [VMS_METHOD_PAIRED_LOG] = "paired t-test on ln(B_i/A_i), run i of both made together; "
	                              "change = exp(mean)",
	    [VMS_METHOD_PAIRED_RAW] = "paired t-test on B_i - A_i (a value <= 0), runs paired by "
	                              "their index",
	    [VMS_METHOD_SUITES_LOG] = "t-test on the suites' log means (each suite one "
	                              "observation, its drift included)",
	    [VMS_METHOD_YUEN_LOG] = "Yuen's test of 20% trimmed log means (an outlier on a side)",
	};
	int used[VMS_METHOD_YUEN_LOG + 1] = {0};
	size_t i, j, k, pairs = 0, family = 0;

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++)
			for (k = 0; k + 1 < c->n_files; k++) {
				const struct vms_compare_cell *cell =
				    &c->workloads[i].metrics[j].cells[k];

				used[cell->method] = 1;
				if (cell->pairs > pairs)
					pairs = cell->pairs;
			}
	fprintf(f, "%sTests used:\n", prefix);
	for (i = VMS_METHOD_LOG_T; i <= VMS_METHOD_YUEN_LOG; i++)
		if (used[i])
			fprintf(f, "%s  %-10s %s\n", prefix,
			        vms_compare_method_name((enum vms_compare_method)i), what[i]);
	if (used[VMS_METHOD_PAIRED_LOG] || used[VMS_METHOD_PAIRED_RAW])
		fprintf(f,
		        "%s  (up to %zu pairs; a paired test removes the drift that hits both "
		        "variants alike)\n",
		        prefix, pairs);
	for (k = 0; k + 1 < c->n_files; k++)
		family = c->family && c->family[k] > family ? c->family[k] : family;
	if (c->holm)
		fprintf(
		    f,
		    "%sDeciding metrics: p is one-sided (in the direction of the change) and "
		    "Holm-adjusted over the\n%s%s (workload, metric) pairs tested against each "
		    "other side (up to %zu); exit 1 needs the\n%sone-sided bound at alpha/%zu "
		    "beyond the threshold, so a false exit 1 stays below alpha.\n%sfailed_runs: "
		    "a one-sided Fisher test of its own.\n",
		    prefix, prefix, c->decisive ? "chosen" : "primary", family, prefix,
		    family ? family : 1, prefix);
}

/* Other processes on the CPUs per workload and side, when some file recorded it; nothing for
 * older files. */
void vms_compare_busy_note(const struct vms_compare *c, FILE *f, const char *prefix)
{
	size_t i, k, any = 0, shared = 0, io = 0;

	for (i = 0; i < c->n_workloads; i++)
		for (k = 0; k < c->n_files; k++) {
			any |= c->workloads[i].busy[k].known;
			io |= c->workloads[i].busy[k].io_runs > 0;
		}
	if (!any)
		return;
	fprintf(f,
	        "%sOther processes on the CPUs (other_cpu_pct: mean, max; a run above %g%% is "
	        "disturbed%s):\n",
	        prefix, c->opts.disturbed_above,
	        io ? "; I/O: their MiB per run on the work device, other_io_mb, evidence only"
	           : "");
	for (i = 0; i < c->n_workloads; i++)
		for (k = 0; k < c->n_files; k++) {
			const struct vms_compare_busy *b = &c->workloads[i].busy[k];

			fprintf(f, "%s  ", prefix);
			vms_compare_put_str(f, k ? "" : c->workloads[i].display, 14);
			fprintf(f, " %c ", vms_compare_file_letter(k));
			if (b->known)
				fprintf(f, "%5.1f%% (max %.1f%%), %zu/%zu runs disturbed", b->mean,
				        b->max, b->disturbed, b->runs);
			if (b->known && b->io_runs)
				fprintf(f, "; I/O %.0f MiB (max %.0f)\n", b->io_mean, b->io_max);
			else if (b->known)
				fputc('\n', f);
			else
				fprintf(f, "    - (not recorded)\n");
			shared += b->disturbed > 0;
		}
	if (shared)
		fprintf(f,
		        "%s  => other processes shared the CPUs: a timing change they could "
		        "explain (its way\n%s     and size) is \"confounded\" (exit 2; 125 under "
		        "--bisect), never a regression\n",
		        prefix, prefix);
}

/* The drift between suites (sides of several result files), per deciding metric: the
 * between-suite sd beyond the runs' spread, and the runs' own sd. Nothing when every side
 * is one file. */
void vms_compare_drift_note(const struct vms_compare *c, FILE *f, const char *prefix)
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
				const struct vms_compare_metric *m = &c->workloads[i].metrics[j];
				const struct vms_compare_cell *cell = &m->cells[k];

				if (!m->primary || isnan(cell->drift))
					continue;
				fprintf(f, "%s  %c vs A ", prefix, vms_compare_file_letter(k + 1));
				vms_compare_put_str(f, c->workloads[i].display, 14);
				fputc(' ', f);
				vms_compare_put_str(f, m->name, 14);
				fprintf(f, " drift %.1f%%, runs %.1f%% -> %s\n", 100 * cell->drift,
				        100 * cell->within,
				        cell->method == VMS_METHOD_SUITES_LOG ? "suite means decide"
				                                              : "runs decide");
			}
}

void vms_compare_outliers_put(FILE *f, const struct vms_compare_side *s, char letter)
{
	size_t i, any = 0;

	if (!s->outliers)
		return;
	fprintf(f, ", %c run", letter);
	for (i = 0; i < s->s.n; i++)
		if (s->outlier && s->outlier[i])
			fprintf(f, "%s%zu", any++ ? "," : " ", s->runs[i] + 1);
}

/* The verdict with its qualifiers: runs needed, unstable side, confounder mark. */
const char *vms_compare_fmt_verdict(const struct vms_compare_cell *c, double detect, int brief,
                                    char *buf, size_t len)
{
	const char *name = brief ? verdict_short(c->verdict) : vms_compare_verdict_name(c->verdict);

	if (c->verdict == VMS_VERDICT_INCONCLUSIVE && c->runs_needed > c->runs_have)
		snprintf(buf, len, "%s n\u2248%u", name, c->runs_needed);
	else if (c->verdict == VMS_VERDICT_INCONCLUSIVE && c->runs_needed)
		snprintf(buf, len, "%s <%g%%", name, 100 * detect);
	else if (c->verdict == VMS_VERDICT_UNSTABLE)
		snprintf(buf, len, "%s (%s)", name,
		         vms_compare_side_names[c->unstable_side == 2 ? 0 : c->unstable_side + 1]);
	else
		snprintf(buf, len, "%s%s", name, c->confounded ? "*" : "");
	return buf;
}
