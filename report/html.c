/* The HTML report: the text report's numbers as tables, and per run a stacked timeline of the
 * runner's /proc/vmstat, PSI and /proc/meminfo series with the audio probe's buffer fill and
 * gaps on the same time axis, plus a wake-up lateness histogram per workload. No kernel paths
 * of its own: it draws what the runner sampled from those files. */
#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"
#include "core/metric.h"
#include "report/html-common.h"
#include "report/model.h"
#include "report/report.h"
#include "compare/sound.h"
#include "report/svg.h"

/* ---- page-wide pieces ----------------------------------------------------------------- */

static void esc(FILE *f, const char *s)
{
	vms_xml_escape(f, s);
}

/* ---- data extraction ------------------------------------------------------------------ */

/* A copy of the reader's array a (null and non-numbers are NAN), or NULL when the file has no
 * array of exactly want elements there (want 0: any length, stored in *n). */
static double *doubles(const struct vms_rdoc_array *a, size_t want, size_t *n)
{
	double *v;

	if (!a || !a->v || !a->n || (want && a->n != want))
		return NULL;
	v = vms_xmalloc(a->n * sizeof(*v));
	memcpy(v, a->v, a->n * sizeof(*v));
	if (n)
		*n = a->n;
	return v;
}

/* The column called name of series, or NULL when it has none. */
static const struct vms_rdoc_array *column_of(const struct vms_rdoc_series *series,
                                              const char *name)
{
	size_t i;

	for (i = 0; i < series->n_cols; i++)
		if (!strcmp(series->cols[i].name, name))
			return &series->cols[i].values;
	return NULL;
}

static double *column(const struct vms_rdoc_series *series, const char *name, size_t n)
{
	return doubles(column_of(series, name), n, NULL);
}

/* Per-second rate of a cumulative column: (v[i] - v[i-1]) / (t[i] - t[i-1]) * scale, drawn
 * at t[i]; the first point has none, nor has a point next to a null (NAN: a break). A
 * zero-length interval repeats the rate before it. Consumes v. */
static double *rate_of(double *v, const double *t, size_t n, double scale)
{
	double prev = NAN;
	size_t i;

	if (!v)
		return NULL;
	for (i = n; i-- > 1;) {
		double dt = t[i] - t[i - 1];

		v[i] = dt > 1e-6 ? (v[i] - v[i - 1]) / dt * scale : INFINITY;
	}
	v[0] = NAN;
	for (i = 1; i < n; i++) {
		if (isinf(v[i]))
			v[i] = prev;
		prev = v[i];
	}
	return v;
}

/* ---- charts --------------------------------------------------------------------------- */

#define CHART_W   VMS_HTML_CHART_W
#define ML        74.0 /* left margin: tick labels and the rotated unit */
#define PLOT_W    ((double)VMS_HTML_PLOT_WIDTH)
#define PANEL_H   88.0
#define PANEL_GAP 30.0 /* room for the next panel's title and legend */
#define MAX_LINES 3

struct line {
	const char *label;
	double *y; /* owned */
};

struct panel {
	const char *key, *title, *unit;
	struct line lines[MAX_LINES];
	size_t n_lines;
	const double *t; /* x of the points */
	size_t n;
	double ymax_fixed; /* > 0: a fixed axis maximum (percentages) */
	double ymin_span;  /* the axis reaches at least this */
	int log;           /* log10 axis from 1 (values below 1 sit on the bottom line) */
	int step;          /* draw each point as a step of one second (the probe's 1 Hz series) */
	int rate;          /* value i is a rate over (t[i-1], t[i]]: steps while there is room */
	char note[160];
};

static void panel_release(struct panel *p)
{
	size_t i;

	for (i = 0; i < p->n_lines; i++)
		free(p->lines[i].y);
}

/* Converts the panel's KiB lines to MiB, or to GiB when they reach 4 GiB. */
static void mem_unit(struct panel *p)
{
	double max = 0, f;
	size_t i, k;

	for (k = 0; k < p->n_lines; k++)
		for (i = 0; i < p->n; i++)
			if (p->lines[k].y[i] > max)
				max = p->lines[k].y[i];
	f = max >= 4.0 * 1024 * 1024 ? 1.0 / (1024 * 1024) : 1.0 / 1024;
	p->unit = max >= 4.0 * 1024 * 1024 ? "GiB" : "MiB";
	for (k = 0; k < p->n_lines; k++)
		for (i = 0; i < p->n; i++)
			p->lines[k].y[i] *= f;
}

static void panel_add(struct panel *p, const char *label, double *y)
{
	if (!y || p->n_lines == MAX_LINES) {
		free(y);
		return;
	}
	p->lines[p->n_lines].label = label;
	p->lines[p->n_lines++].y = y;
}

/* The panel's legend, right-aligned at x: a sample of each line's stroke and its label. */
static void legend(struct vms_svg *s, double x, double y, const struct panel *p)
{
	size_t i;
	char cls[24];

	for (i = 0; i < p->n_lines; i++)
		x -= 30 + 7.0 * (double)strlen(p->lines[i].label) + 8;
	for (i = 0; i < p->n_lines; i++) {
		snprintf(cls, sizeof(cls), "s%zu", i);
		vms_svg_line(s, x + 4, y - 4, x + 26, y - 4, cls);
		vms_svg_text(s, x + 30, y, "start", 0, "legend", p->lines[i].label);
		x += 30 + 7.0 * (double)strlen(p->lines[i].label) + 8;
	}
}

static void time_ticks(struct vms_svg *s, const struct vms_scale *xs, double y0, double y1,
                       int labels, double T)
{
	double ticks[16], step;
	size_t i, n = vms_nice_ticks(0, T, 10, ticks, &step);
	char buf[32];

	for (i = 0; i < n; i++) {
		double x;

		if (ticks[i] > T * (1 + 1e-9))
			break;
		x = vms_scale_map(xs, ticks[i]);
		vms_svg_line(s, x, y0, x, y1, "grid");
		if (labels) {
			vms_format_tick(buf, sizeof(buf), ticks[i], step);
			vms_svg_text(s, x, y1 + 14, "middle", 0, "tick", buf);
		}
	}
}

/* Draws one panel with its top-left plot corner at (ML, top). */
static void draw_panel(struct vms_svg *s, const struct vms_scale *xs, double T, double top,
                       const struct panel *p, int last)
{
	double ymax = 0, ticks[16], step, *dx, *dy;
	struct vms_scale ys;
	size_t i, k, nt;
	char buf[48], cls[24];

	for (k = 0; k < p->n_lines; k++)
		for (i = 0; i < p->n; i++)
			if (isfinite(p->lines[k].y[i]) && p->lines[k].y[i] > ymax)
				ymax = p->lines[k].y[i];
	if (ymax < p->ymin_span)
		ymax = p->ymin_span;
	if (p->ymax_fixed > 0)
		ymax = p->ymax_fixed;
	if (p->log) {
		nt = vms_log_ticks(1, ymax > 10 ? ymax : 10, 5, ticks);
		ys = (struct vms_scale){1, ticks[nt - 1] >= ymax ? ticks[nt - 1] : ymax,
		                        top + PANEL_H, top, 1};
		step = 1;
	} else {
		nt = vms_nice_ticks(0, ymax > 0 ? ymax : 1, 4, ticks, &step);
		ys = (struct vms_scale){0, ticks[nt - 1], top + PANEL_H, top, 0};
	}

	vms_svg_group_begin(s, "panel", 0, 0);
	fprintf(s->f, "<desc>%s</desc>\n", p->key);
	vms_svg_text(s, ML, top - 8, "start", 0, "ptitle", p->title);
	legend(s, ML + PLOT_W, top - 8, p);
	for (i = 0; i < nt; i++) {
		double y = vms_scale_map(&ys, ticks[i]);

		vms_svg_line(s, ML, y, ML + PLOT_W, y, "grid");
		vms_format_tick(buf, sizeof(buf), ticks[i], p->log ? ticks[i] : step);
		vms_svg_text(s, ML - 5, y + 4, "end", 0, "tick", buf);
	}
	time_ticks(s, xs, top, top + PANEL_H, last, T);
	vms_svg_text(s, 14, top + PANEL_H / 2, "middle", -90, "axis", p->unit);

	dx = vms_xmalloc((2 * p->n + 2 * VMS_HTML_PLOT_WIDTH + 2) * sizeof(*dx));
	dy = vms_xmalloc((2 * p->n + 2 * VMS_HTML_PLOT_WIDTH + 2) * sizeof(*dy));
	for (k = 0; k < p->n_lines; k++) {
		size_t m;

		if (p->step) { /* value i holds for [t_i, t_i + 1) */
			for (i = 0, m = 0; i < p->n; i++) {
				dx[m] = p->t[i];
				dy[m++] = p->lines[k].y[i];
				dx[m] = p->t[i] + 1 < T ? p->t[i] + 1 : T;
				dy[m++] = p->lines[k].y[i];
			}
		} else if (p->rate && p->n <= VMS_HTML_PLOT_WIDTH) {
			for (i = 1, m = 0; i < p->n; i++) {
				dx[m] = p->t[i - 1];
				dy[m++] = p->lines[k].y[i];
				dx[m] = p->t[i];
				dy[m++] = p->lines[k].y[i];
			}
		} else {
			m = vms_downsample_minmax(p->t, p->lines[k].y, p->n, 0, T,
			                          VMS_HTML_PLOT_WIDTH, dx, dy);
		}
		for (i = 0; i < m; i++) {
			dx[i] = vms_scale_map(xs, dx[i]);
			dy[i] = isfinite(dy[i]) ? vms_scale_map(&ys, dy[i]) : NAN;
		}
		snprintf(cls, sizeof(cls), "s%zu", k);
		vms_svg_path(s, dx, dy, m, cls);
	}
	free(dx);
	free(dy);
	if (p->note[0])
		vms_svg_text(s, ML + 6, top + 14, "start", 0, "pnote", p->note);
	vms_svg_rect(s, ML, top, PLOT_W, PANEL_H, "frame", NULL);
	vms_svg_group_end(s);
}

/* "gap of 412 ms at 12.30 s: paging (late ...; major faults ...)" and what else is known. */
static void gap_title(char *buf, size_t len, const struct vms_rdoc_gap *g)
{
	const char *cause = g->cause ? g->cause : "unexplained";
	char delays[256];
	size_t off;

	snprintf(buf, len, "gap of %.0f ms at %.2f s: %s", g->duration_ms,
	         isnan(g->start_s) ? 0 : g->start_s, cause);
	off = strlen(buf);
	if (g->evidence)
		snprintf(buf + off, len - off,
		         " (late %.0f ms; major faults %.0f, minor %.0f; run queue %.0f ms; "
		         "PSI memory %.0f ms, io %.0f ms)",
		         g->late_ms, g->major_faults, g->minor_faults, g->runqueue_ms,
		         g->psi_memory_ms, g->psi_io_ms);
	off = strlen(buf);
	if (g->evidence && g->has_delay) {
		vms_cause_delays_line(delays, sizeof(delays), g->evidence);
		snprintf(buf + off, len - off, "; the player's own delays: %s %.0f ms (%s ms)",
		         cause, g->delay_ms, delays);
	}
	off = strlen(buf);
	if (g->has_unclipped)
		snprintf(buf + off, len - off,
		         "; the whole gap lasted %.0f ms (cut to this window)", g->unclipped_ms);
	off = strlen(buf);
	if (g->ongoing)
		snprintf(buf + off, len - off, "; still silent when the window ended");
}

_Static_assert(VMS_CAUSE_NR <= 32, "draw_gaps() keeps the causes seen in an unsigned's bits");

/* The bands of the gaps, across every panel from y0 to y1. Returns which causes occurred
 * (bit i = cause i of the catalogue; a cause it lacks is drawn as unexplained). */
static unsigned draw_gaps(struct vms_svg *s, const struct vms_scale *xs, double y0, double y1,
                          const struct vms_rdoc_window *w)
{
	unsigned seen = 0;
	size_t i;
	char title[512], cls[40];

	vms_svg_group_begin(s, "gaps", 0, 0);
	for (i = 0; i < w->n_gaps; i++) {
		const struct vms_rdoc_gap *g = &w->gaps[i];
		double a = g->start_s, d = g->duration_ms / 1000;
		double x0, x1;
		int c = vms_cause_find(g->cause ? g->cause : "unexplained");
		const char *cause = vms_cause_name(c >= 0 ? c : VMS_CAUSE_UNEXPLAINED);

		if (!isfinite(a))
			continue;
		seen |= 1u << (c >= 0 ? c : VMS_CAUSE_UNEXPLAINED);
		x0 = vms_scale_map(xs, a);
		x1 = vms_scale_map(xs, a + (d > 0 ? d : 0));
		x0 = fmax(xs->r0, fmin(x0, xs->r1 - 2));
		x1 = fmin(xs->r1, x1);
		if (x1 - x0 < 2) /* a 5 ms gap in a 30 min run stays visible */
			x1 = x0 + 2;
		gap_title(title, sizeof(title), g);
		snprintf(cls, sizeof(cls), "gap gap-%s", cause);
		vms_svg_rect(s, x0, y0, x1 - x0, y1 - y0, cls, title);
	}
	vms_svg_group_end(s);
	return seen;
}

static void gap_legend(struct vms_svg *s, double y, unsigned seen)
{
	double x = ML;
	int c;
	char cls[40];

	if (!seen)
		return;
	vms_svg_text(s, x, y + 9, "start", 0, "legend", "gaps in the music, by cause:");
	x += 170;
	for (c = 0; c < VMS_CAUSE_NR; c++) {
		if (!(seen & (1u << c)))
			continue;
		snprintf(cls, sizeof(cls), "gap gap-%s", vms_cause_name(c));
		vms_svg_rect(s, x, y, 18, 11, cls, NULL);
		vms_svg_text(s, x + 22, y + 9, "start", 0, "legend", vms_cause_name(c));
		x += 30 + 7.0 * (double)strlen(vms_cause_name(c));
	}
}

/* The runner's panels from series (may be NULL: none) and the probe's from audio (the run's
 * window detail, may be NULL). Fills p[] and returns how many; *T gets the time span. */
static size_t build_panels(const struct vms_rdoc_series *series,
                           const struct vms_rdoc_window *audio, struct panel *p, double **t_out,
                           double **ta_out, double *T)
{
	size_t n = 0, nt = 0, na = 0, k = 0;
	double *t = series ? doubles(&series->t, 0, &nt) : NULL;
	double *ta = NULL;

	*T = 0;
	if (t && nt >= 2) {
		double *maj = column(series, "pgmajfault", nt),
		       *all = column(series, "pgfault", nt);
		size_t i;

		*T = t[nt - 1];
		p[k] = (struct panel){.key = "faults",
		                      .title = "Page faults (system-wide)",
		                      .unit = "faults/s (log)",
		                      .t = t,
		                      .n = nt,
		                      .ymin_span = 10,
		                      .log = 1,
		                      .rate = 1};
		if (all && maj)
			for (i = 0; i < nt; i++)
				all[i] -= maj[i];
		panel_add(&p[k], "minor", rate_of(all, t, nt, 1));
		panel_add(&p[k], "major", rate_of(maj, t, nt, 1));
		k++;
		p[k] = (struct panel){.key = "swap",
		                      .title = "Swap traffic",
		                      .unit = "pages/s",
		                      .t = t,
		                      .n = nt,
		                      .ymin_span = 1,
		                      .rate = 1};
		panel_add(&p[k], "swap in", rate_of(column(series, "pswpin", nt), t, nt, 1));
		panel_add(&p[k], "swap out", rate_of(column(series, "pswpout", nt), t, nt, 1));
		k++;
		p[k] = (struct panel){.key = "psi",
		                      .title = "Pressure stall \"some\" (PSI)",
		                      .unit = "% of time",
		                      .t = t,
		                      .n = nt,
		                      .ymax_fixed = 100,
		                      .rate = 1};
		panel_add(&p[k], "memory",
		          rate_of(column(series, "psi_memory_some_us", nt), t, nt, 1e-4));
		panel_add(&p[k], "io", rate_of(column(series, "psi_io_some_us", nt), t, nt, 1e-4));
		k++;
		p[k] = (struct panel){.key = "free",
		                      .title = "Free memory",
		                      .unit = "MiB",
		                      .t = t,
		                      .n = nt,
		                      .ymin_span = 1};
		panel_add(&p[k], "MemFree", column(series, "mem_free_kib", nt));
		mem_unit(&p[k]);
		k++;
		if (column_of(series, "cgroup_usage_kib")) {
			p[k] = (struct panel){.key = "cgroup",
			                      .title = "Emulated machine: memory cgroup usage",
			                      .unit = "MiB",
			                      .t = t,
			                      .n = nt,
			                      .ymin_span = 1};
			panel_add(&p[k], "usage", column(series, "cgroup_usage_kib", nt));
			mem_unit(&p[k]);
			k++;
		}
		p[k] = (struct panel){.key = "dirty",
		                      .title = "Dirty and writeback memory",
		                      .unit = "MiB",
		                      .t = t,
		                      .n = nt,
		                      .ymin_span = 1};
		panel_add(&p[k], "Dirty", column(series, "dirty_kib", nt));
		panel_add(&p[k], "Writeback", column(series, "writeback_kib", nt));
		mem_unit(&p[k]);
		k++;
		for (i = 0; i < k; i++)
			if (!p[i].n_lines)
				snprintf(p[i].note, sizeof(p[i].note),
				         "not recorded: the series has no column for this");
	}
	if (audio) {
		double *fill = NULL, win;

		ta = doubles(&audio->t, 0, &na);
		if (ta)
			fill = doubles(&audio->fill_min_ms, na, NULL);
		/* the window's length; its last second may be partial */
		win = audio->t1 - audio->t0;
		if (!(win > 0) && ta && na)
			win = ta[na - 1] + 1;
		if (win > *T)
			*T = win;
		p[k] = (struct panel){.key = "audio",
		                      .title = "Audio buffer fill (lowest per second)",
		                      .unit = "ms queued",
		                      .t = ta,
		                      .n = ta ? na : 0,
		                      .ymin_span = 1,
		                      .step = 1};
		panel_add(&p[k], "fill", fill);
		if (!fill)
			snprintf(p[k].note, sizeof(p[k].note),
			         "the probe recorded no buffer-fill series for this run");
		k++;
	}
	n = k;
	*t_out = t;
	*ta_out = ta;
	if (*T <= 0)
		*T = 1;
	return n;
}

/* One run's stacked timeline; writes a note instead when there is nothing to draw. */
/* want_series: a missing runner series deserves a note (not for the baseline). */
static void timeline(FILE *f, const struct vms_rdoc_series *series,
                     const struct vms_rdoc_window *audio, const char *label, int want_series,
                     int want_audio)
{
	struct panel p[8];
	double *t = NULL, *ta = NULL, T, height, y, bottom;
	struct vms_scale xs;
	struct vms_svg s;
	size_t n, i;
	unsigned seen = 0;
	size_t n_gaps = audio ? audio->n_gaps : 0;

	memset(p, 0, sizeof(p));
	n = build_panels(series, audio, p, &t, &ta, &T);
	if (!series && want_series)
		fputs("<p class=\"note\">No time series in this run: the runner recorded none, so "
		      "only its totals are shown.</p>\n",
		      f);
	else if (series && (!t || series->t.n < 2))
		fputs("<p class=\"note\">The time series of this run has fewer than two samples: "
		      "nothing to draw.</p>\n",
		      f);
	if (want_audio && !audio)
		fputs("<p class=\"note\">No audio detail for this run (the probe recorded no "
		      "window for it).</p>\n",
		      f);
	if (!n)
		goto out;
	bottom = 24 + (double)(n - 1) * (PANEL_H + PANEL_GAP) + PANEL_H;
	height = bottom + 40 + (n_gaps ? 22 : 0);
	xs = (struct vms_scale){0, T, ML, ML + PLOT_W, 0};
	vms_svg_begin(&s, f, CHART_W, height, "chart timeline", label);
	fputs("<title>", f);
	esc(f, label);
	fputs("</title>\n", f);
	if (n_gaps)
		seen = draw_gaps(&s, &xs, 24,
		                 24 + (double)(n - 1) * (PANEL_H + PANEL_GAP) + PANEL_H, audio);
	for (i = 0, y = 24; i < n; i++, y += PANEL_H + PANEL_GAP)
		draw_panel(&s, &xs, T, y, &p[i], i + 1 == n);
	vms_svg_text(&s, ML + PLOT_W / 2, bottom + 32, "middle", 0, "axis",
	             "time since the run started (s)");
	gap_legend(&s, bottom + 44, seen);
	vms_svg_end(&s);
out:
	for (i = 0; i < n; i++)
		panel_release(&p[i]);
	free(t);
	free(ta);
}

/* ---- wake-up lateness ----------------------------------------------------------------- */

struct hist {
	double lower[24];
	double count[24];
	size_t n;
};

/* Adds detail.latency_hist into h; the first histogram fixes the bucket edges, later ones
 * must match them. Returns 1 when something was added. */
static int hist_add(struct hist *h, const struct vms_rdoc_window *detail)
{
	const struct vms_rdoc_array *lo = detail ? &detail->hist_lower : NULL;
	const struct vms_rdoc_array *cnt = detail ? &detail->hist_count : NULL;
	size_t i, n = lo ? lo->n : 0;

	if (!n || n != cnt->n || n > VMS_ARRAY_SIZE(h->lower))
		return 0;
	if (h->n && h->n != n)
		return 0;
	for (i = 0; i < n; i++)
		if (h->n && h->lower[i] != lo->v[i])
			return 0;
	for (i = 0; i < n; i++) {
		h->lower[i] = lo->v[i];
		h->count[i] += cnt->v[i];
	}
	h->n = n;
	return 1;
}

static void bucket_label(char *buf, size_t len, const struct hist *h, size_t i)
{
	if (i + 1 < h->n)
		snprintf(buf, len, "%g\u2013%g", h->lower[i], h->lower[i + 1]);
	else
		snprintf(buf, len, "\u2265%g", h->lower[i]);
}

/* Bars of wake-ups per lateness bucket on a log count axis: the workload's runs (a) and the
 * idle baseline (b) side by side; either may be empty. */
static void latency_chart(FILE *f, const struct hist *a, const char *alabel, const struct hist *b,
                          const char *label)
{
	const struct hist *ref = a->n ? a : b;
	double W = CHART_W, H = 250, top = 30, ph = 160, maxc = 1, ticks[12], bw, slot;
	struct vms_scale ys;
	struct vms_svg s;
	size_t i, nt;
	char buf[64], title[160];

	for (i = 0; i < ref->n; i++) {
		if (a->n && a->count[i] > maxc)
			maxc = a->count[i];
		if (b->n && b->count[i] > maxc)
			maxc = b->count[i];
	}
	nt = vms_log_ticks(1, maxc, 8, ticks);
	ys = (struct vms_scale){1, ticks[nt - 1] > maxc ? ticks[nt - 1] : maxc * 1.01, top + ph,
	                        top, 1};
	vms_svg_begin(&s, f, W, H, "chart latency", label);
	fputs("<title>", f);
	esc(f, label);
	fputs("</title>\n", f);
	vms_svg_text(&s, ML, top - 12, "start", 0, "ptitle",
	             "Wake-up lateness of the audio probe (how late each wake-up came)");
	for (i = 0; i < nt; i++) {
		double y = vms_scale_map(&ys, ticks[i]);

		vms_svg_line(&s, ML, y, ML + PLOT_W, y, "grid");
		vms_format_tick(buf, sizeof(buf), ticks[i], ticks[i]);
		vms_svg_text(&s, ML - 5, y + 4, "end", 0, "tick", buf);
	}
	vms_svg_text(&s, 14, top + ph / 2, "middle", -90, "axis", "wake-ups (log)");
	slot = PLOT_W / (double)ref->n;
	bw = (a->n && b->n) ? slot * 0.38 : slot * 0.7;
	for (i = 0; i < ref->n; i++) {
		double x = ML + slot * (double)i + slot * 0.5;

		bucket_label(buf, sizeof(buf), ref, i);
		vms_svg_text(&s, x, top + ph + 14, "middle", 0, "tick", buf);
		if (a->n && a->count[i] > 0) {
			double y = vms_scale_map(&ys, a->count[i]);

			snprintf(title, sizeof(title), "%s: %.0f wake-ups %s ms late", alabel,
			         a->count[i], buf);
			vms_svg_rect(&s, b->n ? x - bw : x - bw / 2, y, bw, top + ph - y, "bar0",
			             title);
		}
		if (b->n && b->count[i] > 0) {
			double y = vms_scale_map(&ys, b->count[i]);

			snprintf(title, sizeof(title), "idle baseline: %.0f wake-ups %s ms late",
			         b->count[i], buf);
			vms_svg_rect(&s, a->n ? x : x - bw / 2, y, bw, top + ph - y, "bar1", title);
		}
	}
	vms_svg_rect(&s, ML, top, PLOT_W, ph, "frame", NULL);
	vms_svg_text(&s, ML + PLOT_W / 2, top + ph + 34, "middle", 0, "axis",
	             "lateness of the wake-up (ms, bucket)");
	{
		double x = ML + PLOT_W;

		if (b->n) {
			x -= 100;
			vms_svg_rect(&s, x, top + ph + 44, 14, 10, "bar1", NULL);
			vms_svg_text(&s, x + 18, top + ph + 53, "start", 0, "legend",
			             "idle baseline");
		}
		if (a->n) {
			x -= 14 + 7.0 * (double)strlen(alabel) + 20;
			vms_svg_rect(&s, x, top + ph + 44, 14, 10, "bar0", NULL);
			vms_svg_text(&s, x + 18, top + ph + 53, "start", 0, "legend", alabel);
		}
	}
	vms_svg_end(&s);
}

/* ---- the page --------------------------------------------------------------------------- */

static void line_p(FILE *f, const char *text)
{
	fputs("<p class=\"line\">", f);
	esc(f, text);
	fputs("</p>\n", f);
}

/* The 2001 block as a table: the text report's labels, order and precision; "n/a" for a
 * metric the file lacks. */
static void table2001(FILE *f, const struct vms_report_workload *w)
{
	char buf[512];
	size_t i;

	if (!w->elapsed.n) {
		snprintf(buf, sizeof(buf), "No successful %s runs.", w->rd->name);
		line_p(f, buf);
		return;
	}
	fputs("<table class=\"t2001\"><caption>", f);
	fprintf(f, "%s for %zu ", strcmp(w->rd->name, "mtest01") ? "Average" : "Averages",
	        w->elapsed.n);
	esc(f, w->rd->name);
	fputs(" runs</caption>\n", f);
	for (i = 0; i < vms_report_rows2001_n; i++) {
		const struct vms_metric_def *d = vms_metric_find(vms_report_rows2001[i].metric);

		vms_report_fmt(buf, sizeof(buf),
		               vms_report_metric_get(&w->metrics, vms_report_rows2001[i].metric),
		               d ? d->precision : 0, 1, NULL);
		fprintf(f, "<tr><th>%s</th><td>%s</td></tr>\n", vms_report_rows2001[i].label, buf);
	}
	fputs("</table>\n", f);
}

/* The text report's header lines, each as a meta paragraph. */
static void meta_line(void *ctx, enum vms_report_line kind, const char *text)
{
	(void)kind;
	fputs("<p class=\"meta\">", ctx);
	esc(ctx, text);
	fputs("</p>\n", ctx);
}

/* The text report's lines of a workload that the 2001 table and the sound block do not show
 * (spread, reclaim, pressure, cgroup, failed runs), verbatim. */
static void other_line(void *ctx, enum vms_report_line kind, const char *text)
{
	switch (kind) {
	case VMS_LINE_CAPTION:
	case VMS_LINE_ROW2001:
	case VMS_LINE_NO_RUNS:
	case VMS_LINE_SOUND: return;
	case VMS_LINE_DISTURBED: /* the run's figures may not be the kernel's: stands out */
		fputs("<p class=\"note\">", ctx);
		esc(ctx, text);
		fputs("</p>\n", ctx);
		return;
	default: line_p(ctx, text);
	}
}

/* The Sound lines of s in a block; returns 0 when s has none (nothing written). */
static int pre_sound(FILE *f, const char *label, const struct vms_compare_sound *s)
{
	char line[512];

	if (vms_compare_sound_line(line, sizeof(line), label, s))
		return 0;
	fputs("<pre class=\"sound\">", f);
	esc(f, line);
	if (!vms_compare_sound_causes_line(line, sizeof(line), s)) {
		fputc('\n', f);
		esc(f, line);
	}
	fputs("</pre>\n", f);
	return 1;
}

static void percentiles(FILE *f, const struct vms_report_metrics *m)
{
	static const struct {
		const char *metric, *label;
	} q[] = {{"wake_p50_ms", "p50"},
	         {"wake_p90_ms", "p90"},
	         {"wake_p99_ms", "p99"},
	         {"wake_p999_ms", "p99.9"},
	         {"wake_max_ms", "max"}};
	const struct vms_summary *s;
	const char *sep = "";
	size_t i;
	int any = 0;

	for (i = 0; i < VMS_ARRAY_SIZE(q); i++) {
		if (!(s = vms_report_metric_get(m, q[i].metric)))
			continue;
		if (!any)
			fputs("<p class=\"line\">Wake-up lateness (mean of runs): ", f);
		fprintf(f, "%s%s %.1f ms", sep, q[i].label, s->mean);
		sep = ", ";
		any = 1;
	}
	if (any)
		fputs("</p>\n", f);
}

/* The id of a workload's section: its name, with "-vK" for its K-th variant when the file
 * has several (the name alone would be used once per variant). */
static void wl_id(FILE *f, const struct vms_report_workload *w, size_t variant)
{
	esc(f, w->rd->name);
	if (variant)
		fprintf(f, "-v%zu", variant);
}

static void run_heading(FILE *f, const struct vms_report_workload *w,
                        const struct vms_report_run *r, size_t i, size_t variant)
{
	fprintf(f, "<section class=\"run\" id=\"");
	wl_id(f, w, variant);
	fprintf(f, "-run-%zu\"><h3>", i + 1);
	esc(f, w->rd->name);
	if (variant) {
		fputs(" [", f);
		esc(f, w->rd->variant);
		fputc(']', f);
	}
	fprintf(f, " run %zu \u2014 ", i + 1);
	esc(f, r->rd->status_name);
	if (isfinite(r->elapsed_s))
		fprintf(f, ", %.2f s", r->elapsed_s);
	if (r->failed || r->interrupted) {
		fputs(" \u2014 ", f);
		esc(f, r->rd->reason ? r->rd->reason : "no reason recorded");
	}
	fputs("</h3>\n", f);
}

/* The n variants of one workload from w on side by side: a table with a column per variant
 * (successful runs, the 2001 rows, elapsed spread); each variant's section follows. */
static void variants_table(FILE *f, const struct vms_report_workload *w, size_t n)
{
	char cell[64];
	size_t r, v;

	fputs("<section class=\"variants\" id=\"", f);
	esc(f, w->rd->name);
	fputs("\">\n<h2>", f);
	esc(f, w->rd->name);
	fputs(": the variants side by side</h2>\n", f);
	if (w->rd->summary) {
		fputs("<p class=\"meta\">", f);
		esc(f, w->rd->summary);
		fputs("</p>\n", f);
	}
	fputs("<table class=\"t2001\"><tr><th></th>", f);
	for (v = 0; v < n; v++) {
		fputs("<th><a href=\"#", f);
		wl_id(f, &w[v], v + 1);
		fputs("\">", f);
		esc(f, w[v].rd->variant);
		fputs("</a></th>", f);
	}
	fputs("</tr>\n", f);
	for (r = 0; r < vms_report_side_rows; r++) {
		fputs("<tr><th>", f);
		esc(f, vms_report_side_label(r));
		fputs("</th>", f);
		for (v = 0; v < n; v++) {
			fputs("<td>", f);
			esc(f, vms_report_side_cell(&w[v], r, cell, sizeof(cell)));
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</section>\n", f);
}

/* A workload's section; variant is 0 when the file has one variant, else the 1-based index of
 * w among its workload's variants (its 2001 block is then in the side-by-side table). */
static void workload(FILE *f, const struct vms_report_model *m, const struct vms_report_workload *w,
                     const struct hist *base, size_t variant)
{
	struct hist h = {0};
	char label[512];
	size_t i;
	int snd;

	fputs("<section class=\"workload\" id=\"", f);
	wl_id(f, w, variant);
	fputs("\">\n<h2>", f);
	esc(f, w->rd->name);
	if (variant) {
		fputs(" \u2014 ", f);
		esc(f, w->rd->variant);
	}
	fputs("</h2>\n", f);
	if (w->rd->summary && !variant) {
		fputs("<p class=\"meta\">", f);
		esc(f, w->rd->summary);
		fputs("</p>\n", f);
	}
	if (!variant)
		table2001(f, w);
	vms_report_workload_lines(w, other_line, f);
	snd = pre_sound(f, "Sound:", &w->sound);
	if (!snd) {
		fputs("<p class=\"note\">No sound line: this workload has no audio metrics", f);
		fputs(m->rd.with_audio ? " (the probe recorded nothing for it).</p>\n"
		                       : " (the suite ran without --with-audio).</p>\n",
		      f);
	}
	for (i = 0; i < w->rd->n_runs; i++)
		hist_add(&h, w->runs[i].rd->window);
	if (h.n || (snd && base->n)) {
		percentiles(f, &w->metrics);
		snprintf(label, sizeof(label), "%s: wake-up lateness histogram", w->rd->name);
		latency_chart(f, &h, w->rd->name, base, label);
	}
	for (i = 0; i < w->rd->n_runs; i++) {
		run_heading(f, w, &w->runs[i], i, variant);
		if (variant)
			snprintf(label, sizeof(label), "%s [%s] run %zu: timeline", w->rd->name,
			         w->rd->variant, i + 1);
		else
			snprintf(label, sizeof(label), "%s run %zu: timeline", w->rd->name, i + 1);
		timeline(f, w->runs[i].rd->series, w->runs[i].rd->window, label, 1,
		         m->rd.with_audio);
		fputs("</section>\n", f);
	}
	if (!w->rd->n_runs)
		fputs("<p class=\"note\">No runs were started.</p>\n", f);
	fputs("</section>\n", f);
}

/* What the whole document lacks, as list items; returns how many. */
static size_t missing(FILE *f, const struct vms_report_model *m)
{
	size_t i, j, runs = 0, no_series = 0, no_audio = 0, n = 0;

	for (i = 0; i < m->n_workloads; i++) {
		for (j = 0; j < m->workloads[i].rd->n_runs; j++) {
			runs++;
			no_series += !m->workloads[i].runs[j].rd->series;
			no_audio += !m->workloads[i].runs[j].rd->window;
		}
	}
#define ITEM(...)                                                                                  \
	do {                                                                                       \
		if (!n++)                                                                          \
			fputs("<ul class=\"missing\">\n", f);                                      \
		fputs("<li>", f);                                                                  \
		fprintf(f, __VA_ARGS__);                                                           \
		fputs("</li>\n", f);                                                               \
	} while (0)
	if (!m->rd.complete)
		ITEM("The suite %s: the figures cover the runs that ended.",
		     vms_report_incomplete(m));
	if (!m->n_workloads)
		ITEM("No workloads in this result.");
	if (!m->rd.with_audio)
		ITEM("No audio: the suite ran without <code>--with-audio</code>, so there are no "
		     "sound lines, no buffer-fill panels, no gaps and no wake-up latency view.");
	else if (!m->rd.has_baseline)
		ITEM("No idle baseline of the audio probe in this result.");
	if (m->rd.with_audio && no_audio)
		ITEM("%zu of %zu runs have no audio detail (no buffer fill or gaps for them).",
		     no_audio, runs);
	if (no_series)
		ITEM("%zu of %zu runs have no time series: no timeline of faults, swap, pressure "
		     "and memory for them.",
		     no_series, runs);
#undef ITEM
	if (n)
		fputs("</ul>\n", f);
	return n;
}

static void baseline(FILE *f, const struct vms_report_model *m, struct hist *h)
{
	struct hist none = {0};

	if (!m->rd.has_baseline)
		return;
	hist_add(h, m->baseline_detail);
	fputs("<section class=\"baseline\" id=\"baseline\">\n<h2>Idle baseline</h2>\n"
	      "<p class=\"meta\">The audio probe playing alone before the workloads: what this "
	      "machine does with no memory pressure.</p>\n",
	      f);
	pre_sound(f, "Sound (idle baseline):", &m->baseline);
	percentiles(f, &m->baseline_metrics);
	if (h->n)
		latency_chart(f, &none, "", h, "idle baseline: wake-up lateness histogram");
	if (m->baseline_detail)
		timeline(f, NULL, m->baseline_detail, "idle baseline: audio buffer fill", 0, 1);
	else
		fputs(
		    "<p class=\"note\">The baseline has no detail: no buffer-fill timeline.</p>\n",
		    f);
	fputs("</section>\n", f);
}

int vms_report_render_html(const struct vms_report_model *m, FILE *out)
{
	const char *label = m->rd.label ? m->rd.label : "?";
	struct hist base = {0};
	size_t i, n, k;

	vms_html_page_begin(out, "vmsuite report", label, m->rd.version ? m->rd.version : "?");
	fputs("<header>\n<h1>vmsuite report: ", out);
	esc(out, label);
	fputs("</h1>\n", out);
	/* the text report's header lines; the baseline's Sound lines have their own section */
	vms_report_header_lines(m, meta_line, out);
	fputs("<nav><p class=\"meta\">Workloads:", out);
	for (i = 0; i < m->n_workloads; i += vms_report_group_size(m, i)) {
		fputs(" <a href=\"#", out);
		esc(out, m->workloads[i].rd->name);
		fputs("\">", out);
		esc(out, m->workloads[i].rd->name);
		fputs("</a>", out);
	}
	fputs("</p></nav>\n</header>\n", out);
	missing(out, m);
	baseline(out, m, &base);
	for (i = 0; i < m->n_workloads; i += n) {
		n = vms_report_group_size(m, i);
		if (n > 1)
			variants_table(out, &m->workloads[i], n);
		for (k = 0; k < n; k++)
			workload(out, m, &m->workloads[i + k], &base, n > 1 ? k + 1 : 0);
	}
	fputs("<footer><p class=\"meta\">Time series are system-wide (/proc/vmstat, "
	      "/proc/pressure, /proc/meminfo) sampled by the runner; long series are drawn as "
	      "the lowest and highest value per pixel column, so no spike is lost. Hover a gap "
	      "band for its duration, cause and evidence.</p></footer>\n</body>\n</html>\n",
	      out);
	return ferror(out) ? -EIO : 0;
}

int vms_report_html(FILE *out, const json_t *doc)
{
	return vms_report_render(out, doc, "html");
}
