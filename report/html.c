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
#include "core/version.h"
#include "core/metric.h"
#include "report/compare.h"
#include "report/model.h"
#include "report/report.h"
#include "report/sound.h"
#include "report/svg.h"

/* ---- page-wide pieces ----------------------------------------------------------------- */

static const char css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
    "color:#111;background:#fff;max-width:1000px;margin:1.5em auto;padding:0 1em}\n"
    "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.25em;margin:1.6em 0 .4em;"
    "border-bottom:2px solid #333}h3{font-size:1.05em;margin:1.2em 0 .3em}\n"
    ".meta{color:#333}.note{color:#6b3d00;background:#fff6e0;border-left:4px solid #c08000;"
    "padding:.3em .6em;margin:.4em 0}\n"
    "ul.missing{background:#fff6e0;border-left:4px solid #c08000;padding:.4em .6em .4em 2em}\n"
    "table.t2001{border-collapse:collapse;margin:.4em 0}"
    "table.t2001 caption{text-align:left;font-weight:600;padding:.2em 0}"
    "table.t2001 th{text-align:left;font-weight:normal;padding:.1em 1.2em .1em 0}"
    "table.t2001 td{text-align:right;font-variant-numeric:tabular-nums;"
    "font-family:ui-monospace,'DejaVu Sans Mono',monospace}"
    "table.t2001 tr:nth-child(odd){background:#f3f3f3}\n"
    "p.line{margin:.15em 0;font-family:ui-monospace,'DejaVu Sans Mono',monospace;"
    "font-size:13px}\n"
    "pre.sound{background:#eef3fa;border-left:4px solid #1b4f9c;padding:.4em .6em;"
    "white-space:pre-wrap;margin:.5em 0}\n"
    "svg.chart{display:block;width:100%;height:auto;margin:.3em 0 1em}\n"
    ".frame{fill:none;stroke:#444;stroke-width:1}.grid{stroke:#ddd;stroke-width:1}"
    ".tick{font-size:11px;fill:#333}.axis{font-size:12px;fill:#111}"
    ".ptitle{font-size:12px;font-weight:600;fill:#111}.pnote{font-size:11px;fill:#6b3d00}"
    ".legend{font-size:11px;fill:#222}\n"
    ".s0,.s1,.s2{fill:none;stroke-width:1.5;stroke-linejoin:round}"
    ".s0{stroke:#1b4f9c}.s1{stroke:#d0580f;stroke-dasharray:6 3}"
    ".s2{stroke:#2a7d2a;stroke-dasharray:1.5 2.5}\n"
    ".bar0{fill:#1b4f9c;stroke:#0d2a55}.bar1{fill:url(#pat-base);stroke:#555}\n"
    ".gap{stroke-width:.6}.gap-paging{fill:url(#pat-paging);stroke:#b3261e}"
    ".gap-runqueue{fill:url(#pat-runqueue);stroke:#6a3d9a}"
    ".gap-io{fill:url(#pat-io);stroke:#8c510a}.gap-decode{fill:url(#pat-decode);stroke:#01665e}"
    ".gap-unexplained,.gap-probe_died{fill:url(#pat-unexplained);stroke:#555}\n"
    "section.run{break-inside:avoid}\n"
    ".pt{stroke:#111;stroke-width:.8}.pt0{fill:#1b4f9c}.pt1{fill:#f2a65a}.pt2{fill:#2a7d2a}"
    ".pt3{fill:#fff}.mean{stroke:#111;stroke-width:2.5}.ci{stroke:#111;stroke-width:2}"
    ".zero{stroke:#555;stroke-width:1}.thr{fill:#e6e6e6}\n"
    ".v-reg,.v-preg{font-size:11px;fill:#b3261e;font-weight:600}"
    ".v-imp,.v-pimp{font-size:11px;fill:#1e6b1e;font-weight:600}.v-none{font-size:11px;fill:#333}"
    ".v-preg,.v-pimp{font-style:italic;font-weight:normal}\n"
    "table.env,table.files{border-collapse:collapse;margin:.3em 0;font-size:13px}"
    "table.env td,table.env th,table.files td,table.files th{padding:.15em .6em;"
    "text-align:left;border-bottom:1px solid #ddd}"
    "tr.env-hard td{background:#fde2df;font-weight:600}tr.env-soft td{background:#fff3d6}"
    "tr.env-expected td{color:#555}\n"
    "pre.cmptext{font-size:12px;background:#f6f6f6;padding:.5em;overflow-x:auto}\n"
    "@media print{body{max-width:none;margin:0;font-size:11px}svg.chart{break-inside:avoid}"
    "h2{break-after:avoid}}\n";

/* Hatches differ in shape as well as colour, so causes stay apart in greyscale. */
static const char defs[] =
    "<svg class=\"defs\" width=\"0\" height=\"0\" style=\"position:absolute\" "
    "aria-hidden=\"true\"><defs>\n"
    "<pattern id=\"pat-paging\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f4c7c3\" "
    "fill-opacity=\".55\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#b3261e\" "
    "stroke-width=\"2.5\"/></pattern>\n"
    "<pattern id=\"pat-runqueue\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"6\" height=\"6\" fill=\"#dcd0ec\" fill-opacity=\".55\"/><path d=\"M0 3H6M3 "
    "0V6\" stroke=\"#6a3d9a\" stroke-width=\"1\"/></pattern>\n"
    "<pattern id=\"pat-io\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"5\" height=\"5\" fill=\"#f0dcb8\" fill-opacity=\".55\"/><circle cx=\"2.5\" "
    "cy=\"2.5\" r=\"1.2\" fill=\"#8c510a\"/></pattern>\n"
    "<pattern id=\"pat-decode\" width=\"6\" height=\"4\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"6\" height=\"4\" fill=\"#c7eae5\" fill-opacity=\".55\"/><line x1=\"0\" "
    "y1=\"2\" x2=\"6\" y2=\"2\" stroke=\"#01665e\" stroke-width=\"1.2\"/></pattern>\n"
    "<pattern id=\"pat-unexplained\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"4\" height=\"4\" fill=\"#bbb\" fill-opacity=\".6\"/></pattern>\n"
    "<pattern id=\"pat-base\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(-45)\"><rect width=\"5\" height=\"5\" fill=\"#fff\"/>"
    "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" stroke=\"#555\" stroke-width=\"1.5\"/>"
    "</pattern>\n"
    "</defs></svg>\n";

static const char *str(const json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

static double num(const json_t *o, const char *key, double def)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

static void esc(FILE *f, const char *s)
{
	vms_xml_escape(f, s);
}

/* ---- data extraction ------------------------------------------------------------------ */

/* The numbers of a JSON array as doubles (null and non-numbers become NAN), or NULL when arr
 * is not an array of exactly want elements (want 0: any length, stored in *n). */
static double *doubles(const json_t *arr, size_t want, size_t *n)
{
	size_t i, len = json_array_size(arr);
	double *v;

	if (!json_is_array(arr) || !len || (want && len != want))
		return NULL;
	v = vms_xmalloc(len * sizeof(*v));
	for (i = 0; i < len; i++) {
		const json_t *e = json_array_get(arr, i);

		v[i] = json_is_number(e) ? json_number_value(e) : NAN;
	}
	if (n)
		*n = len;
	return v;
}

static double *column(const json_t *series, const char *name, size_t n)
{
	return doubles(
	    json_object_get(json_object_get(json_object_get(series, "columns"), name), "values"), n,
	    NULL);
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

#define CHART_W   960.0
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
static void gap_title(char *buf, size_t len, const json_t *g)
{
	const json_t *ev = json_object_get(g, "evidence");
	size_t off;

	snprintf(buf, len, "gap of %.0f ms at %.2f s: %s", num(g, "duration_ms", 0),
	         num(g, "start_s", 0), str(g, "cause", "unexplained"));
	off = strlen(buf);
	if (json_is_object(ev))
		snprintf(buf + off, len - off,
		         " (late %.0f ms; major faults %.0f, minor %.0f; run queue %.0f ms; "
		         "PSI memory %.0f ms, io %.0f ms)",
		         num(ev, "late_ms", 0), num(ev, "major_faults", 0),
		         num(ev, "minor_faults", 0), num(ev, "runqueue_ms", 0),
		         num(ev, "psi_memory_ms", 0), num(ev, "psi_io_ms", 0));
	off = strlen(buf);
	if (json_is_number(json_object_get(g, "unclipped_ms")))
		snprintf(buf + off, len - off,
		         "; the whole gap lasted %.0f ms (cut to this window)",
		         num(g, "unclipped_ms", 0));
	off = strlen(buf);
	if (json_is_true(json_object_get(g, "ongoing")))
		snprintf(buf + off, len - off, "; still silent when the window ended");
}

/* The bands of the gaps, across every panel from y0 to y1. Returns which causes occurred
 * (bit i = cause i of the catalogue; a cause it lacks is drawn as unexplained). */
static unsigned draw_gaps(struct vms_svg *s, const struct vms_scale *xs, double y0, double y1,
                          const json_t *gaps)
{
	const json_t *g;
	unsigned seen = 0;
	size_t i;
	char title[512], cls[40];

	vms_svg_group_begin(s, "gaps", 0, 0);
	json_array_foreach (gaps, i, g) {
		double a = num(g, "start_s", NAN), d = num(g, "duration_ms", 0) / 1000;
		double x0, x1;
		int c = vms_cause_find(str(g, "cause", "unexplained"));
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
static size_t build_panels(const json_t *series, const json_t *audio, struct panel *p,
                           double **t_out, double **ta_out, double *T)
{
	size_t n = 0, nt = 0, na = 0, k = 0;
	double *t = series ? doubles(json_object_get(series, "t_s"), 0, &nt) : NULL;
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
		if (json_object_get(json_object_get(series, "columns"), "cgroup_usage_kib")) {
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
	if (json_is_object(audio)) {
		const json_t *as = json_object_get(audio, "series");
		double *fill = NULL, win;

		ta = doubles(json_object_get(as, "t_s"), 0, &na);
		if (ta)
			fill = doubles(json_object_get(as, "fill_min_ms"), na, NULL);
		/* the window's length; its last second may be partial */
		win = num(audio, "t1", 0) - num(audio, "t0", 0);
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
static void timeline(FILE *f, const json_t *series, const json_t *audio, const char *label,
                     int want_series, int want_audio)
{
	struct panel p[8];
	double *t = NULL, *ta = NULL, T, height, y, bottom;
	struct vms_scale xs;
	struct vms_svg s;
	size_t n, i;
	unsigned seen = 0;
	const json_t *gaps = json_object_get(audio, "gaps");

	memset(p, 0, sizeof(p));
	n = build_panels(series, audio, p, &t, &ta, &T);
	if (!series && want_series)
		fputs("<p class=\"note\">No time series in this run: the runner recorded none, so "
		      "only its totals are shown.</p>\n",
		      f);
	else if (series && (!t || json_array_size(json_object_get(series, "t_s")) < 2))
		fputs("<p class=\"note\">The time series of this run has fewer than two samples: "
		      "nothing to draw.</p>\n",
		      f);
	if (want_audio && !json_is_object(audio))
		fputs("<p class=\"note\">No audio detail for this run (the probe recorded no "
		      "window for it).</p>\n",
		      f);
	if (!n)
		goto out;
	bottom = 24 + (double)(n - 1) * (PANEL_H + PANEL_GAP) + PANEL_H;
	height = bottom + 40 + (json_array_size(gaps) ? 22 : 0);
	xs = (struct vms_scale){0, T, ML, ML + PLOT_W, 0};
	vms_svg_begin(&s, f, CHART_W, height, "chart timeline", label);
	fputs("<title>", f);
	esc(f, label);
	fputs("</title>\n", f);
	if (json_array_size(gaps))
		seen = draw_gaps(&s, &xs, 24,
		                 24 + (double)(n - 1) * (PANEL_H + PANEL_GAP) + PANEL_H, gaps);
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
static int hist_add(struct hist *h, const json_t *detail)
{
	const json_t *lh = json_object_get(detail, "latency_hist");
	const json_t *lo = json_object_get(lh, "lower_ms"), *cnt = json_object_get(lh, "count");
	size_t i, n = json_array_size(lo);

	if (!n || n != json_array_size(cnt) || n > VMS_ARRAY_SIZE(h->lower))
		return 0;
	if (h->n && h->n != n)
		return 0;
	for (i = 0; i < n; i++) {
		double l = json_number_value(json_array_get(lo, i));

		if (h->n && h->lower[i] != l)
			return 0;
	}
	for (i = 0; i < n; i++) {
		h->lower[i] = json_number_value(json_array_get(lo, i));
		h->count[i] += json_number_value(json_array_get(cnt, i));
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
		snprintf(buf, sizeof(buf), "No successful %s runs.", w->name);
		line_p(f, buf);
		return;
	}
	fputs("<table class=\"t2001\"><caption>", f);
	fprintf(f, "%s for %zu ", strcmp(w->name, "mtest01") ? "Average" : "Averages",
	        w->elapsed.n);
	esc(f, w->name);
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
	default: line_p(ctx, text);
	}
}

/* The Sound lines of s in a block; returns 0 when s has none (nothing written). */
static int pre_sound(FILE *f, const char *label, const struct vms_report_sound *s)
{
	char line[512];

	if (vms_report_sound_line(line, sizeof(line), label, s))
		return 0;
	fputs("<pre class=\"sound\">", f);
	esc(f, line);
	if (!vms_report_sound_causes_line(line, sizeof(line), s)) {
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

static void run_heading(FILE *f, const struct vms_report_workload *w,
                        const struct vms_report_run *r, size_t i)
{
	fprintf(f, "<section class=\"run\" id=\"");
	esc(f, w->name);
	fprintf(f, "-run-%zu\"><h3>", i + 1);
	esc(f, w->name);
	fprintf(f, " run %zu \u2014 %s", i + 1, r->status);
	if (isfinite(r->elapsed_s))
		fprintf(f, ", %.2f s", r->elapsed_s);
	if (r->failed) {
		fputs(" \u2014 ", f);
		esc(f, r->reason ? r->reason : "no reason recorded");
	}
	fputs("</h3>\n", f);
}

static void workload(FILE *f, const struct vms_report_model *m, const struct vms_report_workload *w,
                     const struct hist *base)
{
	struct hist h = {0};
	char label[256];
	size_t i;
	int snd;

	fputs("<section class=\"workload\" id=\"", f);
	esc(f, w->name);
	fputs("\">\n<h2>", f);
	esc(f, w->name);
	fputs("</h2>\n", f);
	if (w->summary) {
		fputs("<p class=\"meta\">", f);
		esc(f, w->summary);
		fputs("</p>\n", f);
	}
	table2001(f, w);
	vms_report_workload_lines(w, other_line, f);
	snd = pre_sound(f, "Sound:", &w->sound);
	if (!snd) {
		fputs("<p class=\"note\">No sound line: this workload has no audio metrics", f);
		fputs(m->with_audio ? " (the probe recorded nothing for it).</p>\n"
		                    : " (the suite ran without --with-audio).</p>\n",
		      f);
	}
	for (i = 0; i < w->n_runs; i++)
		hist_add(&h, w->runs[i].audio);
	if (h.n || (snd && base->n)) {
		percentiles(f, &w->metrics);
		snprintf(label, sizeof(label), "%s: wake-up lateness histogram", w->name);
		latency_chart(f, &h, w->name, base, label);
	}
	for (i = 0; i < w->n_runs; i++) {
		run_heading(f, w, &w->runs[i], i);
		snprintf(label, sizeof(label), "%s run %zu: timeline", w->name, i + 1);
		timeline(f, w->runs[i].series, w->runs[i].audio, label, 1, m->with_audio);
		fputs("</section>\n", f);
	}
	if (!w->n_runs)
		fputs("<p class=\"note\">No runs were started.</p>\n", f);
	fputs("</section>\n", f);
}

/* What the whole document lacks, as list items; returns how many. */
static size_t missing(FILE *f, const struct vms_report_model *m)
{
	size_t i, j, runs = 0, no_series = 0, no_audio = 0, n = 0;

	for (i = 0; i < m->n_workloads; i++) {
		for (j = 0; j < m->workloads[i].n_runs; j++) {
			runs++;
			no_series += !m->workloads[i].runs[j].series;
			no_audio += !m->workloads[i].runs[j].audio;
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
	if (!m->complete)
		ITEM("The suite did not complete (interrupted or still running): the figures "
		     "cover the runs that ended.");
	if (!m->n_workloads)
		ITEM("No workloads in this result.");
	if (!m->with_audio)
		ITEM("No audio: the suite ran without <code>--with-audio</code>, so there are no "
		     "sound lines, no buffer-fill panels, no gaps and no wake-up latency view.");
	else if (!m->has_baseline)
		ITEM("No idle baseline of the audio probe in this result.");
	if (m->with_audio && no_audio)
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

	if (!m->has_baseline)
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

/* <!DOCTYPE> to <body>, with the stylesheet and the shared hatch patterns. */
static void page_begin(FILE *out, const char *what, const char *label, const char *version)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"vmsuite ",
	      out);
	esc(out, version);
	fprintf(out, "\">\n<title>%s \u2014 ", what);
	esc(out, label);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n%s", css, defs);
}

int vms_report_render_html(const struct vms_report_model *m, FILE *out)
{
	const char *label = m->label ? m->label : "?";
	struct hist base = {0};
	size_t i;

	page_begin(out, "vmsuite report", label, m->version ? m->version : "?");
	fputs("<header>\n<h1>vmsuite report: ", out);
	esc(out, label);
	fputs("</h1>\n", out);
	/* the text report's header lines; the baseline's Sound lines have their own section */
	vms_report_header_lines(m, meta_line, out);
	fputs("<nav><p class=\"meta\">Workloads:", out);
	for (i = 0; i < m->n_workloads; i++) {
		fputs(" <a href=\"#", out);
		esc(out, m->workloads[i].name);
		fputs("\">", out);
		esc(out, m->workloads[i].name);
		fputs("</a>", out);
	}
	fputs("</p></nav>\n</header>\n", out);
	missing(out, m);
	baseline(out, m, &base);
	for (i = 0; i < m->n_workloads; i++)
		workload(out, m, &m->workloads[i], &base);
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

/* ---- the compare view ------------------------------------------------------------------ */

#define CMP_LABEL_W   150.0 /* row labels */
#define CMP_STRIP_X1  560.0
#define CMP_FOREST_X0 600.0
#define CMP_FOREST_X1 790.0
#define CMP_ROW_H     28.0

static char letter(size_t k)
{
	return k < 26 ? (char)('A' + k) : '?';
}

/* "+1.2%" of a ratio, or "n/a". */
static void fmt_ratio_pct(char *buf, size_t len, double ratio)
{
	double x = 100 * (ratio - 1);

	if (!isfinite(x))
		snprintf(buf, len, "n/a");
	else if (fabs(x) >= 100)
		snprintf(buf, len, "%+.0f%%", fabs(x) < 0.05 ? 0 : x);
	else
		snprintf(buf, len, "%+.1f%%", fabs(x) < 0.05 ? 0 : x);
}

static const char *verdict_class(enum vms_verdict v)
{
	switch (v) {
	case VMS_VERDICT_REGRESSION: return "v-reg";
	case VMS_VERDICT_PROB_REGRESSION: return "v-preg";
	case VMS_VERDICT_IMPROVEMENT: return "v-imp";
	case VMS_VERDICT_PROB_IMPROVEMENT: return "v-pimp";
	default: return "v-none";
	}
}

/* The values every file has for (workload, metric): samples[k] (n[k] of them), NULL when the
 * file could not be reloaded or lacks them. */
static void cmp_samples(json_t *const *docs, size_t nf, const char *workload, const char *metric,
                        double **samples, size_t *n)
{
	size_t k, i;

	for (k = 0; k < nf; k++) {
		const json_t *wl;

		samples[k] = NULL;
		n[k] = 0;
		json_array_foreach (json_object_get(docs[k], "workloads"), i, wl) {
			if (!strcmp(str(wl, "name", ""), workload)) {
				samples[k] = vms_metric_values(json_object_get(wl, "metrics"),
				                               metric, &n[k]);
				break;
			}
		}
	}
}

/* Marker k (circle, square, triangle, diamond) at (x, y) with a hover title: the files
 * differ in shape as well as colour. */
static void marker(struct vms_svg *s, size_t k, double x, double y, const char *title)
{
	switch (k % 4) {
	case 0:
		fprintf(s->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.6\" class=\"pt pt0\">", x, y);
		break;
	case 1:
		fprintf(
		    s->f,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"6.4\" height=\"6.4\" class=\"pt pt1\">",
		    x - 3.2, y - 3.2);
		break;
	case 2:
		fprintf(s->f,
		        "<path transform=\"translate(%.1f,%.1f)\" d=\"M0 -4.2L3.8 3L-3.8 3Z\" "
		        "class=\"pt pt2\">",
		        x, y);
		break;
	default:
		fprintf(
		    s->f,
		    "<path transform=\"translate(%.1f,%.1f)\" d=\"M0 -4.5L4.5 0L0 4.5L-4.5 0Z\" "
		    "class=\"pt pt3\">",
		    x, y);
	}
	fputs("<title>", s->f);
	esc(s->f, title);
	fputs(k % 4 == 0   ? "</title></circle>\n"
	      : k % 4 == 1 ? "</title></rect>\n"
	                   : "</title></path>\n",
	      s->f);
}

/* One primary metric: every sample of every file as points with its mean (left), and each
 * file's change against BASE with its confidence interval and the ±threshold band (right). */
static void cmp_chart(FILE *f, const struct vms_compare *c, const struct vms_cmp_workload *w,
                      const struct vms_cmp_metric *m, json_t *const *docs)
{
	size_t nf = c->n_files, k, i, nt;
	double **smp = vms_xcalloc(nf, sizeof(*smp)), lo = INFINITY, hi = -INFINITY;
	double clo = 1 - 2 * c->opts.threshold, chi = 1 + 2 * c->opts.threshold;
	double ticks[16], step, H = 34 + (double)nf * CMP_ROW_H + 46, y;
	size_t *n = vms_xcalloc(nf, sizeof(*n));
	struct vms_scale xs, cs;
	struct vms_svg s;
	char buf[256], a[32], b[32], d[32];

	cmp_samples(docs, nf, w->name, m->derived ? "" : m->name, smp, n);
	for (k = 0; k < nf; k++) {
		const struct vms_cmp_side *side = k ? &m->cells[k - 1].side : &m->base;

		for (i = 0; i < n[k]; i++) {
			lo = fmin(lo, smp[k][i]);
			hi = fmax(hi, smp[k][i]);
		}
		if (side->s.n && isfinite(side->s.mean)) {
			lo = fmin(lo, side->s.mean);
			hi = fmax(hi, side->s.mean);
		}
		if (k) {
			const struct vms_cmp_cell *cell = &m->cells[k - 1];

			for (i = 0; i < 3; i++) {
				double r = i == 0 ? cell->change : i == 1 ? cell->lo : cell->hi;

				if (isfinite(r)) {
					clo = fmin(clo, r);
					chi = fmax(chi, r);
				}
			}
		}
	}
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	}
	if (hi > lo) { /* keep the extreme points off the frame */
		double pad = (hi - lo) * 0.04;

		lo = lo >= 0 ? fmax(0, lo - pad) : lo - pad;
		hi += pad;
	}
	if (hi - lo < fabs(hi) * 1e-6 || hi == lo) {
		lo -= fabs(lo) * 0.05 + 0.5;
		hi += fabs(hi) * 0.05 + 0.5;
	}
	snprintf(buf, sizeof(buf), "%s / %s: samples and change", w->name, m->name);
	vms_svg_begin(&s, f, CHART_W, H, "chart compare", buf);
	fputs("<title>", f);
	esc(f, buf);
	fputs("</title>\n", f);
	snprintf(buf, sizeof(buf), "%s (%s, %s is better)", m->name, m->unit,
	         !strcmp(m->better, "none") ? "neither" : m->better);
	vms_svg_text(&s, CMP_LABEL_W, 16, "start", 0, "ptitle", buf);

	/* the samples */
	nt = vms_nice_ticks(lo, hi, 6, ticks, &step);
	xs = (struct vms_scale){ticks[0], ticks[nt - 1], CMP_LABEL_W, CMP_STRIP_X1, 0};
	y = 28 + (double)nf * CMP_ROW_H;
	for (i = 0; i < nt; i++) {
		double x = vms_scale_map(&xs, ticks[i]);

		vms_svg_line(&s, x, 28, x, y, "grid");
		vms_format_tick(a, sizeof(a), ticks[i], step);
		vms_svg_text(&s, x, y + 14, "middle", 0, "tick", a);
	}
	snprintf(buf, sizeof(buf), "%s per run (%s)", m->name, m->unit);
	vms_svg_text(&s, (CMP_LABEL_W + CMP_STRIP_X1) / 2, y + 32, "middle", 0, "axis", buf);
	vms_svg_rect(&s, CMP_LABEL_W, 28, CMP_STRIP_X1 - CMP_LABEL_W, y - 28, "frame", NULL);

	/* the change */
	if (clo < 0.5)
		clo = 0.5;
	nt = vms_nice_ticks(100 * (clo - 1), 100 * (chi - 1), 4, ticks, &step);
	cs = (struct vms_scale){ticks[0], ticks[nt - 1], CMP_FOREST_X0, CMP_FOREST_X1, 0};
	vms_svg_rect(&s, vms_scale_map(&cs, -100 * c->opts.threshold), 28,
	             vms_scale_map(&cs, 100 * c->opts.threshold) -
	                 vms_scale_map(&cs, -100 * c->opts.threshold),
	             y - 28, "thr", NULL);
	for (i = 0; i < nt; i++) {
		double x = vms_scale_map(&cs, ticks[i]);

		vms_svg_line(&s, x, 28, x, y, ticks[i] == 0 ? "zero" : "grid");
		snprintf(a, sizeof(a), "%+g%%", ticks[i]);
		vms_svg_text(&s, x, y + 14, "middle", 0, "tick", ticks[i] == 0 ? "0" : a);
	}
	snprintf(buf, sizeof(buf), "change vs A, %g%% CI", 100 * (1 - c->opts.alpha));
	vms_svg_text(&s, (CMP_FOREST_X0 + CMP_FOREST_X1) / 2, y + 32, "middle", 0, "axis", buf);
	vms_svg_rect(&s, CMP_FOREST_X0, 28, CMP_FOREST_X1 - CMP_FOREST_X0, y - 28, "frame", NULL);

	for (k = 0; k < nf; k++) {
		const struct vms_cmp_side *side = k ? &m->cells[k - 1].side : &m->base;
		double ry = 28 + CMP_ROW_H * ((double)k + 0.5);

		snprintf(buf, sizeof(buf), "%c: %s", letter(k), c->files[k].label);
		if (strlen(buf) > 20)
			memcpy(buf + 17, "...", 4);
		vms_svg_text(&s, CMP_LABEL_W - 8, ry + 4, "end", 0, "legend", buf);
		for (i = 0; i < n[k]; i++) {
			double jitter = ((double)(i % 5) - 2) * 2.4;

			snprintf(buf, sizeof(buf), "%c run: %g %s", letter(k), smp[k][i], m->unit);
			marker(&s, k, vms_scale_map(&xs, smp[k][i]), ry + jitter, buf);
		}
		if (side->s.n && isfinite(side->s.mean)) {
			double x = vms_scale_map(&xs, side->s.mean);

			vms_svg_line(&s, x, ry - 10, x, ry + 10, "mean");
		}
		if (!k) {
			vms_svg_text(&s, CMP_FOREST_X1 + 8, ry + 4, "start", 0, "legend", "BASE");
			continue;
		}
		{
			const struct vms_cmp_cell *cell = &m->cells[k - 1];

			if (isfinite(cell->lo) && isfinite(cell->hi))
				vms_svg_line(&s, vms_scale_map(&cs, 100 * (cell->lo - 1)), ry,
				             vms_scale_map(&cs, 100 * (cell->hi - 1)), ry, "ci");
			if (isfinite(cell->change)) {
				fmt_ratio_pct(a, sizeof(a), cell->change);
				fmt_ratio_pct(b, sizeof(b), cell->lo);
				fmt_ratio_pct(d, sizeof(d), cell->hi);
				snprintf(buf, sizeof(buf), "%c vs A: %s [%s, %s], p %.3g \u2014 %s",
				         letter(k), a, b, d, cell->p,
				         vms_verdict_name(cell->verdict));
				marker(&s, k, vms_scale_map(&cs, 100 * (cell->change - 1)), ry,
				       buf);
			}
			vms_svg_text(&s, CMP_FOREST_X1 + 8, ry + 4, "start", 0,
			             verdict_class(cell->verdict), vms_verdict_name(cell->verdict));
		}
	}
	vms_svg_end(&s);
	for (k = 0; k < nf; k++)
		free(smp[k]);
	free(smp);
	free(n);
}

static void cmp_env(FILE *f, const struct vms_compare *c, size_t k)
{
	const struct vms_envdiff *d = &c->env[k];
	size_t i;

	fprintf(f, "<h3>Environment, %c against A</h3>\n", letter(k + 1));
	if (!d->n) {
		fputs("<p class=\"meta\">No differences.</p>\n", f);
		return;
	}
	fputs("<table class=\"env\"><tr><th>class</th><th>fact</th><th>A</th><th>", f);
	fputc(letter(k + 1), f);
	fputs("</th></tr>\n", f);
	for (i = 0; i < d->n; i++) {
		const struct vms_env_item *it = &d->items[i];

		fprintf(f, "<tr class=\"env-%s\"><td>%s</td><td>", vms_env_class_name(it->cls),
		        it->cls == VMS_ENV_HARD ? "HARD" : vms_env_class_name(it->cls));
		esc(f, it->key);
		fputs("</td><td>", f);
		esc(f, it->base);
		fputs("</td><td>", f);
		esc(f, it->other);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (vms_envdiff_count(d, VMS_ENV_HARD))
		fprintf(f,
		        "<p class=\"note\">%zu hard difference(s): the verdicts they affect are "
		        "\"not comparable\"%s.</p>\n",
		        vms_envdiff_count(d, VMS_ENV_HARD),
		        c->opts.force ? " unless forced (--force was given)" : "");
	if (vms_envdiff_count(d, VMS_ENV_SOFT))
		fputs("<p class=\"meta\">Soft differences are possible confounders of the verdicts "
		      "they could explain.</p>\n",
		      f);
}

static void cmp_text(FILE *f, const struct vms_compare *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	vms_compare_render_text(c, m);
	if (!fclose(m) && len) {
		fputs("<h2>The comparison as text</h2>\n<pre class=\"cmptext\">", f);
		esc(f, buf);
		fputs("</pre>\n", f);
	}
	free(buf);
}

int vms_compare_render_html(const struct vms_compare *c, FILE *f)
{
	json_t **docs = vms_xcalloc(c->n_files, sizeof(*docs));
	size_t i, j, k, unread = 0;
	char title[256];

	for (k = 0; k < c->n_files; k++) {
		enum vms_load_error e;
		char err[256];

		docs[k] = vms_result_load(c->files[k].path, &e, err, sizeof(err));
		unread += !docs[k];
	}
	snprintf(title, sizeof(title), "%s against %s", c->n_files > 1 ? c->files[1].label : "?",
	         c->files[0].label);
	page_begin(f, "vmsuite compare", title, VMS_VERSION);
	fputs("<header>\n<h1>vmsuite compare</h1>\n<table class=\"files\">\n", f);
	for (k = 0; k < c->n_files; k++) {
		fprintf(f, "<tr><th>%c%s</th><td>", letter(k), k ? "" : " (BASE)");
		esc(f, c->files[k].label);
		fputs("</td><td>", f);
		esc(f, c->files[k].path);
		fputs("</td></tr>\n", f);
	}
	fprintf(
	    f,
	    "</table>\n<p class=\"meta\">alpha %g (%g%% CI), threshold \u00b1%g%%, detect %g%%, "
	    "unstable above cv %g%%</p>\n</header>\n",
	    c->opts.alpha, 100 * (1 - c->opts.alpha), 100 * c->opts.threshold, 100 * c->opts.detect,
	    100 * c->opts.cv_limit);
	if (unread)
		fputs("<ul class=\"missing\"><li>Some result files could not be read again: their "
		      "samples are not drawn, only their means and changes.</li></ul>\n",
		      f);
	fputs("<section class=\"envdiff\">\n<h2>Environment</h2>\n", f);
	for (k = 0; k + 1 < c->n_files; k++)
		cmp_env(f, c, k);
	fputs("</section>\n", f);
	for (i = 0; i < c->n_workloads; i++) {
		const struct vms_cmp_workload *w = &c->workloads[i];
		size_t shown = 0;

		fputs("<section class=\"workload\">\n<h2>", f);
		esc(f, w->name);
		fputs("</h2>\n", f);
		for (j = 0; j < w->n_metrics; j++) {
			if (!w->metrics[j].primary)
				continue;
			cmp_chart(f, c, w, &w->metrics[j], docs);
			shown++;
		}
		if (!shown)
			fputs("<p class=\"note\">No primary metric to draw.</p>\n", f);
		fputs("</section>\n", f);
	}
	if (c->n_not_compared) {
		fputs("<h2>Not compared</h2>\n<ul>\n", f);
		for (i = 0; i < c->n_not_compared; i++) {
			fputs("<li>", f);
			esc(f, c->not_compared[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	cmp_text(f, c);
	fputs("<footer><p class=\"meta\">Points: every run's value (hover for it); a bar: the "
	      "mean. Right: the change against A with its confidence interval; the shaded band is "
	      "the threshold within which a change does not matter.</p></footer>\n</body>\n"
	      "</html>\n",
	      f);
	for (k = 0; k < c->n_files; k++)
		json_decref(docs[k]);
	free(docs);
	return ferror(f) ? -EIO : 0;
}
