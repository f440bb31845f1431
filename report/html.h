/* The HTML report of a result document: one self-contained page (inline CSS and SVG, nothing
 * fetched) with the 2001 tables and sound lines of the text report, and per run a timeline
 * where faults, swap, PSI, memory and the audio probe's buffer fill share one time axis with
 * every gap in the music drawn across them. No kernel paths of its own. */
#ifndef VMS_REPORT_HTML_H
#define VMS_REPORT_HTML_H

#include <jansson.h>
#include <stdio.h>

/* Pixel columns of a timeline's plot area: long series are reduced to min/max pairs per
 * column (at most 2 points per column and line) before they are drawn. */
#define VMS_HTML_PLOT_WIDTH 860

/* Writes the whole page for doc (a loaded "vmsuite.result/1") to out. Whatever the document
 * lacks (time series, audio, a baseline, successful runs) is rendered as a note saying so, at
 * the top and where it would have been. Returns 0, or -EIO when writing to out failed (not
 * reported). */
int vms_report_html(FILE *out, const json_t *doc);

struct vms_compare;
/* The compare view (`vmsuite compare --format html`): the environment diff at the top, then
 * per workload and primary metric every run's value of each file as points with the means, and
 * each file's change against BASE with its confidence interval and the threshold band; the
 * text comparison at the end. The samples are read again from the files the model names;
 * when that fails only the means and changes are drawn. Returns 0 or -EIO of a failed write
 * (not reported): the signature of a struct vms_compare_renderer. */
int vms_compare_render_html(const struct vms_compare *c, FILE *f);

#endif
