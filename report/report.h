/* Renderers of a result document ("vmsuite.result/2", or 1): the 2001-style text report, a markdown
 * report, the HTML page and a JSON summary. One report model (report/model.h), several
 * renderers over it; `run` and `report` share them, so what `run` prints is exactly what
 * `report` re-renders from the file. */
/* Adding an output format to `vmsuite report -f`:
 *   1. report/NAME.c with int vms_report_render_NAME(const struct vms_report_model *m,
 *      FILE *out), declared in report/model.h beside the others;
 *   2. one row {"NAME", NOTE, vms_report_render_NAME} in the renderer table (report/model.c):
 *      -f finds it, and its help (NAME with its NOTE) and unknown-format message list it;
 *   3. docs/vmsuite.1, README;
 *   4. a test (a golden file for text that people read, tests/README.md).
 * A format of `vmsuite compare -f`: see report/compare-render.h. */
#ifndef VMS_REPORT_H
#define VMS_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "compare/stats.h"
#include "core/resultdoc.h"

/* Fills s (see compare/stats.h) from the values of m (the reader's), with the text report's
 * conventions: sd and cv are 0 (not NAN) for a single sample, cv is 0 when the mean is 0.
 * Returns 0, or -ENOENT when m is NULL or has no values (s->n = 0). */
int vms_summary_of(const struct vms_rdoc_metric *m, struct vms_summary *s);

/* Writes the text report: a header line, then per workload the 2001 block, the spread, the
 * reclaim/pressure figures that explain it, failed runs, and the sound lines when the run had
 * audio; a metric the file lacks reads "n/a". Returns 0, or -EIO when writing failed (not
 * reported; it also shows up in ferror(out)). */
int vms_report_text(FILE *out, const json_t *doc);

/* Renders doc with the renderer called format ("text", "markdown", "html", "json"; see
 * vms_report_renderer_find in report/model.h). Returns 0, -EINVAL for an unknown format, or
 * -EIO when writing failed (neither reported). */
int vms_report_render(FILE *out, const json_t *doc, const char *format);
/* The same with the options of the lava and kcidb renderers (report/model.h); opts NULL is
 * vms_report_render. */
struct vms_report_opts;
int vms_report_render_opts(FILE *out, const json_t *doc, const char *format,
                           const struct vms_report_opts *opts);

/* A JSON summary: per workload per metric n/mean/sd/cv/min/max with unit and direction, plus
 * label, kernel and machine. New object. */
json_t *vms_report_summary_json(const json_t *doc);

#endif
