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

/* Writes the whole page for doc (a loaded "vmsuite.result/2", or 1) to out. Whatever the document
 * lacks (time series, audio, a baseline, successful runs) is rendered as a note saying so, at
 * the top and where it would have been. Returns 0, or -EIO when writing to out failed (not
 * reported). */
int vms_report_html(FILE *out, const json_t *doc);

#endif
