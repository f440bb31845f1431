/* The text report: per workload the block the 2001 tester posted to LKML (same labels, same
 * order, same precision), followed by what it lacked — the spread of the runs and the reclaim
 * and pressure figures that explain it. Rendered from the report model; no kernel paths. */
#include "report/report.h"

#include <errno.h>

#include "core/escape.h"
#include "report/model.h"
#include "report/sound.h"

/* A line of the model; the file's strings in it may hold control characters, shown escaped so
 * a label can neither drive the terminal nor start a line of its own. */
static void put_line(void *ctx, enum vms_report_line kind, const char *text)
{
	(void)kind;
	vms_text_put(ctx, text);
	fputc('\n', ctx);
}

int vms_report_render_text(const struct vms_report_model *m, FILE *out)
{
	size_t i;

	vms_report_header_lines(m, put_line, out);
	vms_report_sound_print(out, "Sound (idle baseline):", &m->baseline);
	for (i = 0; i < m->n_workloads; i++) {
		fputc('\n', out);
		vms_text_put(out, m->workloads[i].name);
		fputs("\n\n", out);
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
