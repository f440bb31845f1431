/* `vmsuite compare BASE OTHER...`: loads result files, builds the comparison model and renders
 * it. Exit codes differ from the other commands: 0 no regression, 1 a primary metric regressed,
 * 2 not comparable or an error (docs/compare.md). No kernel paths of its own. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "core/result.h"
#include "core/util.h"
#include "report/compare.h"

#define COMPARE_EXIT_ERROR 2

/* A percentage "2", "2%" or "0.5" into a fraction in (0, max]. 0 or -EINVAL. */
static int parse_pct(const char *s, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || (*end && strcmp(end, "%")) || !(v > 0) || v / 100 > max)
		return -EINVAL;
	*out = v / 100;
	return 0;
}

/* Usage errors report like every command's but exit with compare's error status. */
#define usage_error(...)                                                                           \
	(vms_usage_error(vms_command_find("compare"), __VA_ARGS__), COMPARE_EXIT_ERROR)

static int render(const struct vms_compare_renderer *r, const struct vms_compare *c,
                  const char *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (!out)
		return r->render(c, stdout)
		           ? vms_error("cannot write to standard output: %s", strerror(EIO))
		           : 0;
	f = open_memstream(&buf, &len);
	if (!f)
		return vms_error("cannot allocate the output: %s", strerror(errno));
	ret = r->render(c, f);
	if (fclose(f) || ret) {
		free(buf);
		return vms_error("cannot render the comparison: %s", strerror(EIO));
	}
	ret = vms_write_atomic(out, buf, len);
	free(buf);
	if (ret)
		return vms_error("cannot write '%s': %s", out, strerror(-ret));
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"format", required_argument, NULL, 'f'},
	    {"threshold", required_argument, NULL, 't'},
	    {"alpha", required_argument, NULL, 'a'},
	    {"detect", required_argument, NULL, 'd'},
	    {"cv-limit", required_argument, NULL, 'c'},
	    {"force", no_argument, NULL, 'F'},
	    {"exit-zero", no_argument, NULL, 'z'},
	    {"output", required_argument, NULL, 'o'},
	    {NULL, 0, NULL, 0},
	};
	const struct vms_compare_renderer *r = vms_compare_renderer_find("text");
	struct vms_compare_opts opts;
	struct vms_compare cmp;
	const char *out = NULL;
	json_t **docs = NULL;
	int opt, exit_zero = 0, status = COMPARE_EXIT_ERROR;
	size_t n = 0, i;

	vms_compare_opts_init(&opts);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			r = vms_compare_renderer_find(optarg);
			if (!r)
				return usage_error(
				    "unknown format '%s' (text, markdown, json, html)", optarg);
			break;
		case 't':
			if (parse_pct(optarg, 1, &opts.threshold))
				return usage_error("--threshold wants a percentage in (0, 100], "
				                   "not '%s'",
				                   optarg);
			break;
		case 'a': {
			char *end;

			errno = 0;
			opts.alpha = strtod(optarg, &end);
			if (end == optarg || *end || errno || !(opts.alpha > 0 && opts.alpha < 0.5))
				return usage_error("--alpha wants a number in (0, 0.5), not '%s'",
				                   optarg);
			break;
		}
		case 'd':
			if (parse_pct(optarg, 10, &opts.detect))
				return usage_error("--detect wants a percentage in (0, 1000], "
				                   "not '%s'",
				                   optarg);
			break;
		case 'c':
			if (parse_pct(optarg, 100, &opts.cv_limit))
				return usage_error("--cv-limit wants a percentage, not '%s'",
				                   optarg);
			break;
		case 'F': opts.force = 1; break;
		case 'z': exit_zero = 1; break;
		case 'o': out = optarg; break;
		case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
		default: return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind == 1)
		return usage_error("needs at least two result files, got only '%s' (BASE and one "
		                   "to compare with it)",
		                   argv[optind]);
	if (argc - optind < 2)
		return usage_error("%s", "needs BASE and at least one other result file");
	if (!r->render) {
		vms_error("compare: --format %s is not available in this build yet", r->name);
		return COMPARE_EXIT_ERROR;
	}
	n = argc - optind;
	if (n > 26)
		return usage_error("%s", "at most 26 result files");
	docs = vms_xcalloc(n, sizeof(*docs));
	for (i = 0; i < n; i++) {
		const char *path = argv[optind + i];
		enum vms_load_error e;
		char err[512];

		docs[i] = vms_result_load(path, &e, err, sizeof(err));
		if (!docs[i]) {
			if (e == VMS_LOAD_IO)
				vms_error("cannot open '%s': %s", path, err);
			else
				vms_error("cannot compare '%s': %s", path, err);
			goto out;
		}
	}
	vms_compare_build(&cmp, &opts, docs, (const char *const *)argv + optind, n);
	if (render(r, &cmp, out)) {
		vms_compare_release(&cmp);
		goto out;
	}
	status = exit_zero ? 0 : vms_compare_status(&cmp);
	vms_compare_release(&cmp);
out:
	for (i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	return status;
}
