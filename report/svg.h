/* A small SVG writer with an explicit context (no global FILE *), linear and log scales with
 * "nice" ticks, and min/max-per-bucket downsampling so long series draw fast without losing
 * spikes. Used by the HTML report. No kernel paths. */
#ifndef VMS_SVG_H
#define VMS_SVG_H

#include <stddef.h>
#include <stdio.h>

/* One <svg> element being written. Coordinates are user units of its viewBox (0 0 w h). */
struct vms_svg {
	FILE *f;
	double width, height;
	unsigned depth; /* open <g> elements */
};

/* Writes text to f with &, <, >, " and ' escaped for XML/HTML text and attribute values, and
 * control characters and invalid UTF-8 shown as \xNN (vms_xml_put of core/escape.h). */
void vms_xml_escape(FILE *f, const char *text);

/* Opens <svg> with a viewBox of width x height, class cls and an accessible label (role="img",
 * aria-label). Scales to the width of its container. Never fails; write errors show up in
 * ferror(f). */
void vms_svg_begin(struct vms_svg *s, FILE *f, double width, double height, const char *cls,
                   const char *label);
/* Closes open groups and the <svg>. */
void vms_svg_end(struct vms_svg *s);

/* <g class=cls transform="translate(tx,ty)">; cls may be NULL. Nest freely. */
void vms_svg_group_begin(struct vms_svg *s, const char *cls, double tx, double ty);
void vms_svg_group_end(struct vms_svg *s);

void vms_svg_line(struct vms_svg *s, double x1, double y1, double x2, double y2, const char *cls);
/* A rectangle; title (may be NULL) becomes a <title> child, shown on hover. */
void vms_svg_rect(struct vms_svg *s, double x, double y, double w, double h, const char *cls,
                  const char *title);
/* Text at (x, y); anchor is "start", "middle" or "end"; rotate in degrees about (x, y). */
void vms_svg_text(struct vms_svg *s, double x, double y, const char *anchor, double rotate,
                  const char *cls, const char *text);
/* A <path> through the n points; a NAN x or y breaks the line (the next point starts a new
 * subpath). Writes nothing when no point is finite. */
void vms_svg_path(struct vms_svg *s, const double *x, const double *y, size_t n, const char *cls);

/* Maps data values d0..d1 onto r0..r1, linearly or logarithmically (log: d0 > 0). */
struct vms_scale {
	double d0, d1, r0, r1;
	int log;
};
/* The range coordinate of v; values outside the domain extrapolate, a log scale maps v <= 0
 * to r0. */
double vms_scale_map(const struct vms_scale *sc, double v);

/* Up to max ticks at 1, 2 or 5 times a power of ten covering [lo, hi] (lo < hi; when not, the
 * range is widened). Writes the ticks to out, the step to *step, and returns how many. The
 * first tick is <= lo and the last >= hi, so the ticks can serve as the axis domain. max >= 2;
 * at most max + 1 ticks are written, out must hold max + 1. */
size_t vms_nice_ticks(double lo, double hi, size_t max, double *out, double *step);

/* Decade ticks 10^k covering [lo, hi] for a log axis (lo > 0), at most max, one every few
 * decades when there are many. Returns how many. */
size_t vms_log_ticks(double lo, double hi, size_t max, double *out);

/* Formats a tick value compactly: "0", "0.5", "250", "1.5k", "20M", "3G". step is the tick
 * spacing (decides the decimals shown). */
void vms_format_tick(char *buf, size_t len, double v, double step);

/* Reduces the points (x[i], y[i]), i < n, x ascending, for drawing over [x0, x1] split into
 * `buckets` equal columns: per column the points holding the minimum and the maximum y are
 * kept, in their x order, so no spike disappears. A column with only NAN y values yields one
 * NAN point (a break in the line). When n <= 2 * buckets the points are copied unchanged.
 * ox and oy must hold 2 * buckets + 2 points (or n when smaller); returns how many were
 * written (at most 2 * buckets, never more than n). */
size_t vms_downsample_minmax(const double *x, const double *y, size_t n, double x0, double x1,
                             size_t buckets, double *ox, double *oy);

#endif
