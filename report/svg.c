/* A small SVG writer with an explicit context, scales with nice ticks and min/max
 * downsampling, for the HTML report's inline charts. Numbers are written in the C locale's
 * format (vmsuite never calls setlocale). No kernel paths. */
#include "report/svg.h"

#include <math.h>
#include <string.h>

#include "core/escape.h"
#include "core/util.h"

void vms_xml_escape(FILE *f, const char *text)
{
	vms_xml_put(f, text);
}

/* Coordinates with one decimal: a tenth of a user unit is below a screen pixel. */
static void num(FILE *f, double v)
{
	if (!isfinite(v))
		v = 0;
	if (fabs(v) < 0.05)
		v = 0;
	fprintf(f, "%.1f", v);
}

static void cls_attr(FILE *f, const char *cls)
{
	if (!cls)
		return;
	fputs(" class=\"", f);
	vms_xml_escape(f, cls);
	fputc('"', f);
}

void vms_svg_begin(struct vms_svg *s, FILE *f, double width, double height, const char *cls,
                   const char *label)
{
	s->f = f;
	s->width = width;
	s->height = height;
	s->depth = 0;
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ", f);
	num(f, width);
	fputc(' ', f);
	num(f, height);
	fputs("\" width=\"", f);
	num(f, width);
	fputs("\" height=\"", f);
	num(f, height);
	fputc('"', f);
	cls_attr(f, cls);
	fputs(" role=\"img\" aria-label=\"", f);
	vms_xml_escape(f, label);
	fputs("\">\n", f);
}

void vms_svg_end(struct vms_svg *s)
{
	while (s->depth)
		vms_svg_group_end(s);
	fputs("</svg>\n", s->f);
}

void vms_svg_group_begin(struct vms_svg *s, const char *cls, double tx, double ty)
{
	fputs("<g", s->f);
	cls_attr(s->f, cls);
	if (tx != 0 || ty != 0) {
		fputs(" transform=\"translate(", s->f);
		num(s->f, tx);
		fputc(',', s->f);
		num(s->f, ty);
		fputs(")\"", s->f);
	}
	fputs(">\n", s->f);
	s->depth++;
}

void vms_svg_group_end(struct vms_svg *s)
{
	if (!s->depth)
		return;
	fputs("</g>\n", s->f);
	s->depth--;
}

void vms_svg_line(struct vms_svg *s, double x1, double y1, double x2, double y2, const char *cls)
{
	fputs("<line x1=\"", s->f);
	num(s->f, x1);
	fputs("\" y1=\"", s->f);
	num(s->f, y1);
	fputs("\" x2=\"", s->f);
	num(s->f, x2);
	fputs("\" y2=\"", s->f);
	num(s->f, y2);
	fputc('"', s->f);
	cls_attr(s->f, cls);
	fputs("/>\n", s->f);
}

void vms_svg_rect(struct vms_svg *s, double x, double y, double w, double h, const char *cls,
                  const char *title)
{
	fputs("<rect x=\"", s->f);
	num(s->f, x);
	fputs("\" y=\"", s->f);
	num(s->f, y);
	fputs("\" width=\"", s->f);
	num(s->f, w > 0 ? w : 0);
	fputs("\" height=\"", s->f);
	num(s->f, h > 0 ? h : 0);
	fputc('"', s->f);
	cls_attr(s->f, cls);
	if (!title) {
		fputs("/>\n", s->f);
		return;
	}
	fputs("><title>", s->f);
	vms_xml_escape(s->f, title);
	fputs("</title></rect>\n", s->f);
}

void vms_svg_text(struct vms_svg *s, double x, double y, const char *anchor, double rotate,
                  const char *cls, const char *text)
{
	fputs("<text x=\"", s->f);
	num(s->f, x);
	fputs("\" y=\"", s->f);
	num(s->f, y);
	fputc('"', s->f);
	if (anchor && strcmp(anchor, "start"))
		fprintf(s->f, " text-anchor=\"%s\"", anchor);
	if (rotate != 0) {
		fputs(" transform=\"rotate(", s->f);
		num(s->f, rotate);
		fputc(' ', s->f);
		num(s->f, x);
		fputc(' ', s->f);
		num(s->f, y);
		fputs(")\"", s->f);
	}
	cls_attr(s->f, cls);
	fputc('>', s->f);
	vms_xml_escape(s->f, text);
	fputs("</text>\n", s->f);
}

void vms_svg_path(struct vms_svg *s, const double *x, const double *y, size_t n, const char *cls)
{
	int open = 0, started = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i])) {
			open = 0;
			continue;
		}
		if (!started) {
			fputs("<path d=\"", s->f);
			started = 1;
		}
		fputc(open ? 'L' : 'M', s->f);
		num(s->f, x[i]);
		fputc(' ', s->f);
		num(s->f, y[i]);
		open = 1;
	}
	if (!started)
		return;
	fputc('"', s->f);
	cls_attr(s->f, cls);
	fputs("/>\n", s->f);
}

double vms_scale_map(const struct vms_scale *sc, double v)
{
	double a = sc->d0, b = sc->d1;

	if (sc->log) {
		if (v <= 0 || a <= 0 || b <= 0)
			return sc->r0;
		v = log10(v);
		a = log10(a);
		b = log10(b);
	}
	if (b == a)
		return sc->r0;
	return sc->r0 + (v - a) * (sc->r1 - sc->r0) / (b - a);
}

size_t vms_nice_ticks(double lo, double hi, size_t max, double *out, double *step)
{
	static const double mult[] = {1, 2, 5, 10};
	double raw, mag, st = 1, first;
	size_t i, n;

	if (max < 2)
		max = 2;
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (hi <= lo) {
		double pad = fabs(lo) > 0 ? fabs(lo) * 0.1 : 1;

		hi = lo + pad;
		if (lo != 0)
			lo -= pad;
	}
	raw = (hi - lo) / (double)max;
	mag = pow(10, floor(log10(raw)));
	for (i = 0; i < VMS_ARRAY_SIZE(mult); i++) {
		st = mult[i] * mag;
		if (st >= raw * (1 - 1e-9) &&
		    ceil(hi / st - 1e-9) - floor(lo / st + 1e-9) <= (double)max)
			break;
	}
	first = floor(lo / st + 1e-9) * st;
	n = (size_t)(ceil(hi / st - 1e-9) - floor(lo / st + 1e-9)) + 1;
	if (n > max + 1)
		n = max + 1;
	for (i = 0; i < n; i++) {
		out[i] = first + (double)i * st;
		if (fabs(out[i]) < st * 1e-9)
			out[i] = 0;
	}
	*step = st;
	return n;
}

size_t vms_log_ticks(double lo, double hi, size_t max, double *out)
{
	int a, b, every, k;
	size_t n = 0;

	if (lo <= 0)
		lo = 1;
	if (hi <= lo)
		hi = lo * 10;
	a = (int)floor(log10(lo) + 1e-9);
	b = (int)ceil(log10(hi) - 1e-9);
	if (b <= a)
		b = a + 1;
	if (max < 2)
		max = 2;
	every = (int)(((size_t)(b - a) + max - 2) / (max - 1));
	if (every < 1)
		every = 1;
	for (k = a; n < max; k += every) {
		out[n++] = pow(10, k);
		if (k >= b)
			break;
	}
	return n;
}

void vms_format_tick(char *buf, size_t len, double v, double step)
{
	static const struct {
		double f;
		const char *suffix;
	} units[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
	double a = fabs(v);
	size_t i;
	int dec;

	if (a < step * 1e-6 || a == 0) {
		snprintf(buf, len, "0");
		return;
	}
	for (i = 0; i < VMS_ARRAY_SIZE(units); i++) {
		if (a >= units[i].f) {
			double sv = step / units[i].f;

			dec = sv >= 1 ? 0 : (int)ceil(-log10(sv) - 1e-9);
			if (dec > 3)
				dec = 3;
			snprintf(buf, len, "%.*f%s", dec, v / units[i].f, units[i].suffix);
			return;
		}
	}
	dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	if (dec > 6)
		dec = 6;
	snprintf(buf, len, "%.*f", dec, v);
}

size_t vms_downsample_minmax(const double *x, const double *y, size_t n, double x0, double x1,
                             size_t buckets, double *ox, double *oy)
{
	size_t i = 0, out = 0, b;
	double width;

	if (n <= 2 * buckets || buckets == 0 || !(x1 > x0)) {
		memcpy(ox, x, n * sizeof(*x));
		memcpy(oy, y, n * sizeof(*y));
		return n;
	}
	width = (x1 - x0) / (double)buckets;
	for (b = 0; b < buckets && i < n; b++) {
		double end = b + 1 == buckets ? INFINITY : x0 + width * (double)(b + 1);
		size_t imin = SIZE_MAX, imax = SIZE_MAX, start = i;

		for (; i < n && x[i] < end; i++) {
			if (isnan(y[i]))
				continue;
			if (imin == SIZE_MAX || y[i] < y[imin])
				imin = i;
			if (imax == SIZE_MAX || y[i] > y[imax])
				imax = i;
		}
		if (i == start)
			continue; /* an empty column: the line runs straight across it */
		if (imin == SIZE_MAX) {
			ox[out] = x[start];
			oy[out++] = NAN;
			continue;
		}
		if (imax < imin) {
			size_t t = imin;

			imin = imax;
			imax = t;
		}
		ox[out] = x[imin];
		oy[out++] = y[imin];
		if (imax != imin) {
			ox[out] = x[imax];
			oy[out++] = y[imax];
		}
	}
	return out;
}
