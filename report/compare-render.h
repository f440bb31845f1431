/* The renderers of the compare model (compare/compare.h): text, markdown, json and html, one
 * table of them for `--format`, and the verdict object `vmsuite run --against` stores. No
 * kernel paths. */
/* Adding an output format to `vmsuite compare -f`:
 *   1. report/compare-NAME.c with int vms_compare_render_NAME(const struct vms_compare *c,
 *      FILE *f), declared below; it reads the model only (compare/compare.h);
 *   2. one row {"NAME", NOTE, vms_compare_render_NAME} in the renderer table
 *      (report/compare-render.c);
 *   3. docs/compare.md and docs/vmsuite.1 (-f's help and the unknown-format message are made
 *      from the table);
 *   4. a test in tests/compare/ (a golden file for text that people read). */
#ifndef VMS_REPORT_COMPARE_RENDER_H
#define VMS_REPORT_COMPARE_RENDER_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/compare.h"

/* A renderer writes the whole model to f. Returns 0 or -errno of a failed write (not
 * reported). */
struct vms_compare_renderer {
	const char *name; /* "text", "markdown", "json", "html" */
	const char *note; /* in -f's help after the name, in parentheses; NULL = none */
	int (*render)(const struct vms_compare *c, FILE *f);
};
/* The renderer called name, or NULL. */
const struct vms_compare_renderer *vms_compare_renderer_find(const char *name);
/* "text, markdown, json, html": the names in the table's order, for the unknown-format
 * message. A static string. */
const char *vms_compare_renderer_names(void);
/* `vmsuite compare -f`'s help, made from the table: each name with its note. A static
 * string. */
const char *vms_compare_renderer_help(void);
/* The i-th renderer of the table (0, 1, ...), NULL past its end. */
const struct vms_compare_renderer *vms_compare_renderer_at(size_t i);

int vms_compare_render_text(const struct vms_compare *c, FILE *f);
int vms_compare_render_markdown(const struct vms_compare *c, FILE *f);
int vms_compare_render_json(const struct vms_compare *c, FILE *f);
/* The compare view (report/compare-html.c): one self-contained page with the environment diff,
 * per workload and primary metric every run's value of each file as points with the means, and
 * each file's change against BASE with its confidence interval and the threshold band; the text
 * comparison at the end. Draws the model only (its samples), reads no file. */
int vms_compare_render_html(const struct vms_compare *c, FILE *f);
/* The JSON document ("format": "vmsuite.compare/1") the json renderer prints. New reference. */
json_t *vms_compare_to_json(const struct vms_compare *c);

/* The VERDICT block of every other side (as the text output ends), to f. */
void vms_compare_render_verdicts(const struct vms_compare *c, FILE *f);

/* The verdict `vmsuite run --against` stores in the result (contract: {"baseline": [paths],
 * "exit": 0|1|125, "metrics": [names; empty = the primary ones], "compare": the compare JSON
 * document}). New reference. */
json_t *vms_compare_verdict_json(const struct vms_compare *c, const char *const *baselines,
                                 size_t n_baselines, int exit_status);

#endif
