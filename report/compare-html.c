/* The compare view (`vmsuite compare --format html`), drawn from the comparison model alone: the
 * environment diff, per primary metric each file's runs as points with the mean and its change
 * against BASE with the confidence interval, and the text comparison. No kernel paths. */
#include "report/compare-render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/version.h"
#include "report/html-common.h"
#include "report/svg.h"

static void esc(FILE *f, const char *s)
{
	vms_xml_escape(f, s);
}

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

static const char *verdict_class(enum vms_compare_verdict v)
{
	switch (v) {
	case VMS_VERDICT_REGRESSION: return "v-reg";
	case VMS_VERDICT_PROB_REGRESSION: return "v-preg";
	case VMS_VERDICT_IMPROVEMENT: return "v-imp";
	case VMS_VERDICT_PROB_IMPROVEMENT: return "v-pimp";
	default: return "v-none";
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
static void cmp_chart(FILE *f, const struct vms_compare *c, const struct vms_compare_workload *w,
                      const struct vms_compare_metric *m)
{
	size_t nf = c->n_files, k, i, nt;
	double lo = INFINITY, hi = -INFINITY;
	double clo = 1 - 2 * c->opts.threshold, chi = 1 + 2 * c->opts.threshold;
	double ticks[16], step, H = 34 + (double)nf * CMP_ROW_H + 46, y;
	struct vms_scale xs, cs;
	struct vms_svg s;
	char buf[256], a[32], b[32], d[32];

	for (k = 0; k < nf; k++) {
		const struct vms_compare_side *side = k ? &m->cells[k - 1].side : &m->base;

		for (i = 0; i < side->s.n; i++) {
			lo = fmin(lo, side->values[i]);
			hi = fmax(hi, side->values[i]);
		}
		if (side->s.n && isfinite(side->s.mean)) {
			lo = fmin(lo, side->s.mean);
			hi = fmax(hi, side->s.mean);
		}
		if (k) {
			const struct vms_compare_cell *cell = &m->cells[k - 1];

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
	snprintf(buf, sizeof(buf), "%s / %s: samples and change", w->display, m->name);
	vms_svg_begin(&s, f, VMS_HTML_CHART_W, H, "chart compare", buf);
	fputs("<title>", f);
	esc(f, buf);
	fputs("</title>\n", f);
	snprintf(buf, sizeof(buf), "%s (%s, %s is better)", m->name, m->unit,
	         m->better == VMS_BETTER_NONE ? "neither" : vms_better_name(m->better));
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
		const struct vms_compare_side *side = k ? &m->cells[k - 1].side : &m->base;
		double ry = 28 + CMP_ROW_H * ((double)k + 0.5);

		snprintf(buf, sizeof(buf), "%c: %s", letter(k), c->files[k].label);
		if (strlen(buf) > 20) {
			size_t cut = 17;

			while (cut && ((unsigned char)buf[cut] & 0xc0) == 0x80)
				cut--; /* not inside a UTF-8 character */
			memcpy(buf + cut, "...", 4);
		}
		vms_svg_text(&s, CMP_LABEL_W - 8, ry + 4, "end", 0, "legend", buf);
		for (i = 0; i < side->s.n; i++) {
			double jitter = ((double)(i % 5) - 2) * 2.4;

			snprintf(buf, sizeof(buf), "%c run: %g %s", letter(k), side->values[i],
			         m->unit);
			marker(&s, k, vms_scale_map(&xs, side->values[i]), ry + jitter, buf);
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
			const struct vms_compare_cell *cell = &m->cells[k - 1];

			if (isfinite(cell->lo) && isfinite(cell->hi))
				vms_svg_line(&s, vms_scale_map(&cs, 100 * (cell->lo - 1)), ry,
				             vms_scale_map(&cs, 100 * (cell->hi - 1)), ry, "ci");
			if (isfinite(cell->change)) {
				fmt_ratio_pct(a, sizeof(a), cell->change);
				fmt_ratio_pct(b, sizeof(b), cell->lo);
				fmt_ratio_pct(d, sizeof(d), cell->hi);
				snprintf(buf, sizeof(buf), "%c vs A: %s [%s, %s], p %.3g \u2014 %s",
				         letter(k), a, b, d, cell->p,
				         vms_compare_verdict_name(cell->verdict));
				marker(&s, k, vms_scale_map(&cs, 100 * (cell->change - 1)), ry,
				       buf);
			}
			vms_svg_text(&s, CMP_FOREST_X1 + 8, ry + 4, "start", 0,
			             verdict_class(cell->verdict),
			             vms_compare_verdict_name(cell->verdict));
		}
	}
	vms_svg_end(&s);
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
		        c->opts.force ? " unless forced (--ignore-hard-differences was given)"
		                      : "");
	if (vms_envdiff_count(d, VMS_ENV_SOFT))
		fputs("<p class=\"meta\">Soft differences are possible confounders of the verdicts "
		      "they could explain.</p>\n",
		      f);
}

/* The text comparison, escaped into a <pre>, so every number of the text output is on the page
 * (shown as it is, never read back). Nothing when it cannot be rendered. */
static void cmp_text(FILE *f, const struct vms_compare *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	vms_compare_render_text(c, m);
	if (!fclose(m) && len) {
		char *line = buf, *nl;

		fputs("<h2>The comparison as text</h2>\n<pre class=\"cmptext\">", f);
		for (; (nl = strchr(line, '\n')); line = nl + 1) { /* its own line breaks */
			*nl = '\0';
			esc(f, line);
			fputc('\n', f);
		}
		esc(f, line);
		fputs("</pre>\n", f);
	}
	free(buf);
}

int vms_compare_render_html(const struct vms_compare *c, FILE *f)
{
	size_t i, j, k;
	char title[256];

	snprintf(title, sizeof(title), "%s against %s", c->n_files > 1 ? c->files[1].label : "?",
	         c->files[0].label);
	vms_html_page_begin(f, "vmsuite compare", title, VMS_VERSION);
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
	    "unstable above log-sd %g%%</p>\n</header>\n",
	    c->opts.alpha, 100 * (1 - c->opts.alpha), 100 * c->opts.threshold, 100 * c->opts.detect,
	    100 * c->opts.cv_limit);
	fputs("<section class=\"envdiff\">\n<h2>Environment</h2>\n", f);
	for (k = 0; k + 1 < c->n_files; k++)
		cmp_env(f, c, k);
	fputs("</section>\n", f);
	for (i = 0; i < c->n_workloads; i++) {
		const struct vms_compare_workload *w = &c->workloads[i];
		size_t shown = 0;

		fputs("<section class=\"workload\">\n<h2>", f);
		esc(f, w->display);
		fputs("</h2>\n", f);
		for (j = 0; j < w->n_metrics; j++) {
			if (!w->metrics[j].primary)
				continue;
			cmp_chart(f, c, w, &w->metrics[j]);
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
	      "the threshold within which a change does not matter.</p></footer>\n",
	      f);
	vms_html_page_end(f);
	return ferror(f) ? -EIO : 0;
}
