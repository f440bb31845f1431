/* The text report: per workload the block the 2001 tester posted to LKML (same labels, same
 * order, same precision), followed by what it lacked — the spread of the runs and the reclaim
 * and pressure figures that explain it. Rendered from the report model; no kernel paths. */
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/util.h"
#include "report/model.h"
#include "report/sound-text.h"

/* A line of the model; the file's strings in it may hold control characters, shown escaped so
 * a label can neither drive the terminal nor start a line of its own. */
static void put_line(void *ctx, enum vms_report_line kind, const char *text)
{
	(void)kind;
	vms_text_put(ctx, text);
	fputc('\n', ctx);
}

/* The lines of a variant's block that its column does not show. */
static void put_beside(void *ctx, enum vms_report_line kind, const char *text)
{
	if (vms_report_line_beside(kind))
		put_line(ctx, kind, text);
}

/* Writes s (escaped) left-aligned in a field of width columns. */
static void put_cell(FILE *out, const char *s, size_t width)
{
	size_t n = strlen(s);

	vms_text_put(out, s);
	for (; n < width; n++)
		fputc(' ', out);
}

/* The n variants of one workload from w on: a table with one column per variant (the 2001
 * block side by side), then each variant's other lines under its label. */
static void variants_block(FILE *out, const struct vms_report_workload *w, size_t n)
{
	size_t lw = 0, *cw = vms_xcalloc(n, sizeof(*cw)), r, v;
	char cell[64];

	for (r = 0; r < vms_report_side_rows; r++)
		if (strlen(vms_report_side_label(r)) > lw)
			lw = strlen(vms_report_side_label(r));
	for (v = 0; v < n; v++) {
		cw[v] = strlen(w[v].rd->variant);
		for (r = 0; r < vms_report_side_rows; r++) {
			size_t l = strlen(vms_report_side_cell(&w[v], r, cell, sizeof(cell)));

			cw[v] = l > cw[v] ? l : cw[v];
		}
	}
	put_cell(out, "", lw + 2);
	for (v = 0; v < n; v++)
		put_cell(out, w[v].rd->variant, v + 1 < n ? cw[v] + 2 : 0);
	fputc('\n', out);
	for (r = 0; r < vms_report_side_rows; r++) {
		put_cell(out, vms_report_side_label(r), lw + 2);
		for (v = 0; v < n; v++)
			put_cell(out, vms_report_side_cell(&w[v], r, cell, sizeof(cell)),
			         v + 1 < n ? cw[v] + 2 : 0);
		fputc('\n', out);
	}
	for (v = 0; v < n; v++) {
		fputs("\n[", out);
		vms_text_put(out, w[v].rd->variant);
		fputs("]\n", out);
		vms_report_workload_lines(&w[v], put_beside, out);
	}
	free(cw);
}

int vms_report_render_text(const struct vms_report_model *m, FILE *out)
{
	size_t i, n;

	vms_report_header_lines(m, put_line, out);
	vms_report_sound_print(out, "Sound (idle baseline):", &m->baseline);
	for (i = 0; i < m->n_workloads; i += n) {
		n = vms_report_group_size(m, i);
		fputc('\n', out);
		vms_text_put(out, m->workloads[i].rd->name);
		fputs("\n\n", out);
		if (n > 1)
			variants_block(out, &m->workloads[i], n);
		else
			vms_report_workload_lines(&m->workloads[i], put_line, out);
	}
	return ferror(out) ? -EIO : 0;
}

int vms_report_render(FILE *out, const json_t *doc, const char *format)
{
	return vms_report_render_opts(out, doc, format, NULL);
}

int vms_report_render_opts(FILE *out, const json_t *doc, const char *format,
                           const struct vms_report_opts *opts)
{
	const struct vms_report_renderer *r = vms_report_renderer_find(format);
	struct vms_report_model m;
	int ret;

	if (!r)
		return -EINVAL;
	vms_report_model_init(&m, doc);
	m.opts = opts;
	ret = r->render(&m, out);
	vms_report_model_release(&m);
	return ret;
}

int vms_report_text(FILE *out, const json_t *doc)
{
	return vms_report_render(out, doc, "text");
}
