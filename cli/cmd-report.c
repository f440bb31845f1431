/* `vmsuite report FILE`: re-renders a saved result with the same renderer `run` uses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/options.h"
#include "core/result.h"
#include "core/util.h"
#include "report/model.h"
#include "report/report.h"

enum report_key { REPORT_FORMAT, REPORT_OUTPUT, REPORT_FORCE };

static const struct vms_cli_option report_options[] = {
    {"format", 0, VMS_CLI_REQUIRED, "FORMAT", "text (default), markdown, json or html",
     REPORT_FORMAT, 0},
    {"output", 'o', VMS_CLI_REQUIRED, "OUT",
     "write there (a new file unless --force) instead of standard output", REPORT_OUTPUT, 0},
    {"force", 0, VMS_CLI_FLAG, NULL, "let -o replace an existing file", REPORT_FORCE, 0},
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};

const struct vms_cli_usage vms_report_usage = {
    .operands = "FILE",
    .about = "Renders a result file written by `vmsuite run`. text (default) prints the\n"
             "2001-style block per workload; markdown the same figures as tables and lists\n"
             "for an issue or a post; json the per-workload summary (means, sd, cv); html\n"
             "one self-contained page (docs/html-report.md): the same tables, and per run a\n"
             "timeline of faults, swap, PSI, memory and the audio buffer fill with every gap\n"
             "marked.\n",
    .options = report_options,
    .more = NULL,
};

struct report_args {
	const char *file, *format, *outpath;
	int force; /* -o may replace an existing file */
};

/* One option or operand of `report` (a vms_cli_handler). */
static int report_option(void *ctx, const struct vms_cli_option *opt, const char *val, char *err,
                         size_t errlen)
{
	struct report_args *a = ctx;

	if (!opt) {
		if (a->file) {
			snprintf(err, errlen, "one result file at a time ('%s' and '%s')", a->file,
			         val);
			return -EINVAL;
		}
		a->file = val;
	} else if (opt->key == REPORT_FORMAT) {
		if (!vms_report_renderer_find(val)) {
			snprintf(err, errlen, "unknown format '%s' (%s)", val,
			         vms_report_renderer_names());
			return -EINVAL;
		}
		a->format = val;
	} else if (opt->key == REPORT_FORCE) {
		a->force = 1;
	} else {
		a->outpath = val;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	const struct vms_command *self = vms_command_find("report");
	struct report_args a = {.format = "text"};
	const char *file, *format, *outpath;
	enum vms_load_error lerr;
	char why[512];
	json_t *doc;
	FILE *out = stdout;
	int ret = 0;

	if ((ret = vms_cli_parse(self, argc, argv, report_option, &a)))
		return ret;
	file = a.file, format = a.format, outpath = a.outpath;
	if (!file)
		return vms_usage_error(self, "which result file? (vmsuite report FILE)");
	if (outpath && vms_output_check(NULL, outpath, a.force, "--force"))
		return VMS_EXIT_FATAL;
	doc = vms_result_load(file, &lerr, why, sizeof(why));
	if (!doc) {
		vms_error("cannot read '%s': %s", file, why);
		return VMS_EXIT_FATAL;
	}
	/* "x": O_EXCL, a file made since the check is not overwritten either */
	if (outpath && !(out = fopen(outpath, a.force ? "we" : "wxe"))) {
		vms_error("cannot write '%s': %s", outpath, strerror(errno));
		json_decref(doc);
		return VMS_EXIT_FATAL;
	}
	vms_report_render(out, doc, format); /* every format through the renderer table */
	if (out != stdout && (ferror(out) | fclose(out))) {
		vms_error("cannot write '%s': %s", outpath, strerror(errno));
		ret = VMS_EXIT_FATAL;
	}
	json_decref(doc);
	return ret;
}
