/* The markdown report (`vmsuite report FILE --format markdown`): the text report's figures for
 * pasting into an issue or a mailing-list post — the header, then per workload the 2001 block
 * as a table and the other lines as a list, the Sound lines in a fenced block. Rendered from the
 * report model; a metric the file lacks reads "n/a". No kernel paths. */
#include <errno.h>
#include <string.h>

#include "core/escape.h"
#include "report/model.h"
#include "compare/sound.h"

/* Writes s with the characters markdown would read as markup backslash-escaped and control
 * characters shown as \xNN (vms_md_put). */
static void md_esc(FILE *f, const char *s)
{
	vms_md_put(f, s);
}

static void header_line(void *ctx, enum vms_report_line kind, const char *text)
{
	(void)kind;
	md_esc(ctx, text);
	fputs("  \n", ctx);
}

struct wl_ctx {
	FILE *f;
	int in_list, in_sound;
};

/* Caption and rows make the table, the other lines a list; the Sound lines, where the text
 * report has them, go verbatim into a fenced block (their alignment matters). */
static void wl_line(void *ctx, enum vms_report_line kind, const char *text)
{
	struct wl_ctx *c = ctx;
	const char *colon;

	if (kind == VMS_LINE_SOUND) {
		if (!c->in_sound)
			fputs("\n```\n", c->f);
		c->in_sound = 1;
		c->in_list = 0;
		vms_text_put(c->f, text); /* a fenced block shows markup as it is */
		fputc('\n', c->f);
		return;
	}
	if (c->in_sound)
		fputs("```\n", c->f);
	c->in_sound = 0;
	switch (kind) {
	case VMS_LINE_CAPTION:
		fputs("| ", c->f);
		md_esc(c->f, text);
		fputs(" | |\n|:--|--:|\n", c->f);
		return;
	case VMS_LINE_ROW2001:
		colon = strrchr(text, ':');
		fputs("| ", c->f);
		fwrite(text, 1, (size_t)(colon - text), c->f);
		fputs(" | ", c->f);
		md_esc(c->f, colon + 2);
		fputs(" |\n", c->f);
		return;
	case VMS_LINE_FAILED_RUN:
		fputs("  - ", c->f);
		md_esc(c->f, text + strspn(text, " "));
		fputc('\n', c->f);
		return;
	default:
		if (!c->in_list)
			fputc('\n', c->f);
		c->in_list = 1;
		fputs("- ", c->f);
		md_esc(c->f, text);
		fputc('\n', c->f);
	}
}

/* The idle baseline's Sound lines in a fenced block. */
static void baseline_block(FILE *f, const struct vms_compare_sound *s)
{
	char line[512];

	if (vms_compare_sound_line(line, sizeof(line), "Sound (idle baseline):", s))
		return;
	fputs("\n```\n", f);
	fprintf(f, "%s\n", line);
	if (!vms_compare_sound_causes_line(line, sizeof(line), s))
		fprintf(f, "%s\n", line);
	fputs("```\n", f);
}

/* A variant's lines that its column of the side-by-side table does not show. */
static void wl_beside(void *ctx, enum vms_report_line kind, const char *text)
{
	if (vms_report_line_beside(kind))
		wl_line(ctx, kind, text);
}

/* The n variants of one workload from w on: the 2001 block as one table with a column per
 * variant, then each variant's other lines under its label. */
static void variants_block(FILE *out, const struct vms_report_workload *w, size_t n)
{
	char cell[64];
	size_t r, v;

	fputs("| |", out);
	for (v = 0; v < n; v++) {
		fputc(' ', out);
		md_esc(out, w[v].rd->variant);
		fputs(" |", out);
	}
	fputs("\n|:--|", out);
	for (v = 0; v < n; v++)
		fputs("--:|", out);
	fputc('\n', out);
	for (r = 0; r < vms_report_side_rows; r++) {
		fputs("| ", out);
		md_esc(out, vms_report_side_label(r));
		fputs(" |", out);
		for (v = 0; v < n; v++) {
			fputc(' ', out);
			md_esc(out, vms_report_side_cell(&w[v], r, cell, sizeof(cell)));
			fputs(" |", out);
		}
		fputc('\n', out);
	}
	for (v = 0; v < n; v++) {
		struct wl_ctx c = {out, 0, 0};

		fputs("\n### ", out);
		md_esc(out, w[v].rd->name);
		fputs(" \u2014 ", out);
		md_esc(out, w[v].rd->variant);
		fputc('\n', out);
		vms_report_workload_lines(&w[v], wl_beside, &c);
		if (c.in_sound)
			fputs("```\n", out);
	}
}

int vms_report_render_markdown(const struct vms_report_model *m, FILE *out)
{
	size_t i, n;

	fputs("# vmsuite report: ", out);
	md_esc(out, m->rd.label ? m->rd.label : "?");
	fputs("\n\n", out);
	vms_report_header_lines(m, header_line, out);
	baseline_block(out, &m->baseline);
	for (i = 0; i < m->n_workloads; i += n) {
		const struct vms_report_workload *w = &m->workloads[i];
		struct wl_ctx c = {out, 0, 0};

		n = vms_report_group_size(m, i);
		fputs("\n## ", out);
		md_esc(out, w->rd->name);
		fputs("\n\n", out);
		if (n > 1) {
			variants_block(out, w, n);
			continue;
		}
		vms_report_workload_lines(w, wl_line, &c);
		if (c.in_sound)
			fputs("```\n", out);
	}
	return ferror(out) ? -EIO : 0;
}
