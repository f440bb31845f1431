/* `vmsuite report FILE`: re-renders a saved result with the same renderer `run` uses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/options.h"
#include "core/result.h"
#include "core/util.h"
#include "report/html.h"
#include "report/report.h"

int cmd_report(int argc, char **argv)
{
	const struct vms_command *self = vms_command_find("report");
	const char *file = NULL, *format = "text", *outpath = NULL, *val;
	enum vms_load_error lerr;
	char why[512];
	json_t *doc;
	FILE *out = stdout;
	int i, r, ret = 0;

	for (i = 1; i < argc; i++) {
		if ((r = vms_opt_value(argc, argv, &i, NULL, "--format", &val))) {
			if (r < 0)
				return vms_usage_error(self, "--format needs a value");
			format = val;
		} else if ((r = vms_opt_value(argc, argv, &i, "-o", "--output", &val))) {
			if (r < 0)
				return vms_usage_error(self, "-o needs a file name");
			outpath = val;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return vms_usage_error(self, "unknown option '%s'", argv[i]);
		} else if (file) {
			return vms_usage_error(self, "one result file at a time ('%s' and '%s')",
			                       file, argv[i]);
		} else {
			file = argv[i];
		}
	}
	if (!file)
		return vms_usage_error(self, "which result file? (vmsuite report FILE)");
	if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json") &&
	    strcmp(format, "html"))
		return vms_usage_error(self, "unknown format '%s' (text, markdown, json or html)",
		                       format);
	doc = vms_result_load(file, &lerr, why, sizeof(why));
	if (!doc) {
		vms_error("cannot read '%s': %s", file, why);
		return VMS_EXIT_FATAL;
	}
	if (outpath && !(out = fopen(outpath, "we"))) {
		vms_error("cannot write '%s': %s", outpath, strerror(errno));
		json_decref(doc);
		return VMS_EXIT_FATAL;
	}
	if (!strcmp(format, "json")) {
		json_t *sum = vms_report_summary_json(doc);

		json_dumpf(sum, out,
		           JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		fputc('\n', out);
		json_decref(sum);
	} else if (!strcmp(format, "html")) {
		vms_report_html(out, doc);
	} else {
		vms_report_render(out, doc, format); /* text or markdown */
	}
	if (out != stdout && (ferror(out) | fclose(out))) {
		vms_error("cannot write '%s': %s", outpath, strerror(errno));
		ret = VMS_EXIT_FATAL;
	}
	json_decref(doc);
	return ret;
}
