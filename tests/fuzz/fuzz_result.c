/* Fuzz target: loading result files (vms_result_load) and rendering what loads, as `report`
 * and `compare` would: text, markdown, HTML and JSON through the report model, the HTML page,
 * the JSON summary, the comparison of the document against itself in every format, and the
 * lava and kcidb formats with that comparison as their verdict. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/result.h"
#include "core/resultdoc.h"
#include "report/compare-render.h"
#include "report/html.h"
#include "report/model.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Output goes to /dev/null: the renderers run in full, nothing piles up. */
static FILE *sink(void)
{
	static FILE *null;

	if (!null && !(null = fopen("/dev/null", "we")))
		abort();
	return null;
}

static void render_all(json_t *doc)
{
	static const char *const formats[] = {"text", "markdown", "html", "json"};
	static const char *const lab[] = {"lava", "kcidb"};
	struct vms_report_opts ropts = {.result_name = "b.json"};
	json_t *docs[2] = {doc, doc};
	const char *const paths[2] = {"a.json", "b.json"};
	struct vms_compare_opts opts;
	struct vms_compare c;
	json_t *j;
	size_t i;
	int status;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (vms_report_render(sink(), doc, formats[i]) == -EINVAL)
			abort(); /* every format is known */
	vms_report_html(sink(), doc);
	json_decref(vms_report_summary_json(doc));

	vms_compare_opts_init(&opts);
	vms_compare_build(&c, &opts,
	                  &(struct vms_compare_input){.docs = docs, .paths = paths, .n = 2});
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		const struct vms_compare_renderer *r = vms_compare_renderer_find(formats[i]);

		if (r && r->render)
			r->render(&c, sink());
	}
	j = vms_compare_to_json(&c);
	/* the lab formats, with the file's own verdict and with the comparison as --verdict */
	for (i = 0; i < sizeof(lab) / sizeof(lab[0]); i++) {
		if (vms_report_render(sink(), doc, lab[i]) == -EINVAL)
			abort();
		ropts.verdict = j;
		vms_report_render_opts(sink(), doc, lab[i], &ropts);
	}
	json_decref(j);
	status = vms_compare_status(&c);
	if (status < 0 || status > 2)
		abort();
	vms_compare_release(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-result", MFD_CLOEXEC);
	enum vms_load_error e;
	char path[64], why[256];
	json_t *doc;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	doc = vms_result_load(path, &e, why, sizeof(why));
	if (!doc != (e != VMS_LOAD_OK))
		abort();
	if (doc)
		render_all(doc);
	json_decref(doc);
	close(fd);
	return 0;
}
