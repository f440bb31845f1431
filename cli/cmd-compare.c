/* `vmsuite compare BASE OTHER...`: loads result files, builds the comparison model and renders
 * it. Exit codes differ from the other commands: 0 no regression, 1 a primary metric regressed,
 * 2 cannot tell, not comparable or an error (docs/compare.md). No kernel paths of its own. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/builtin.h"
#include "core/metric.h"
#include "core/result.h"
#include "core/resultdoc.h"
#include "core/util.h"
#include "report/compare-render.h"
#include "workloads/workload.h"

#define COMPARE_EXIT_ERROR 2

/* A percentage "2", "2%" or "0.5" into a fraction in (0, max]. 0 or -EINVAL. */
static int parse_pct(const char *s, double max, double *out)
{
	const char *end;
	double v;

	if (vms_parse_decimal(s, &end, &v) || (*end && strcmp(end, "%")) || !(v > 0) ||
	    v / 100 > max)
		return -EINVAL;
	*out = v / 100;
	return 0;
}

static int render(const struct vms_compare_renderer *r, const struct vms_compare *c,
                  const char *out, int overwrite)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (!out) {
		errno = 0;
		ret = r->render(c, stdout);
		if (vms_stdout_flush())
			return -EIO; /* said */
		return ret ? vms_error("cannot render the comparison: %s", strerror(EIO)) : 0;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return vms_error("cannot allocate the output: %s", strerror(errno));
	ret = r->render(c, f);
	if (fclose(f) || ret) {
		free(buf);
		return vms_error("cannot render the comparison: %s", strerror(EIO));
	}
	ret = vms_write_atomic(out, buf, len, overwrite ? 0 : VMS_WRITE_NOREPLACE);
	free(buf);
	if (ret == -EEXIST)
		return vms_error("'%s' exists: not overwritten (--overwrite replaces it)", out);
	if (ret)
		return vms_error("cannot write '%s': %s", out, strerror(-ret));
	return 0;
}

enum compare_key {
	CMP_FORMAT,
	CMP_THRESHOLD,
	CMP_ALPHA,
	CMP_DETECT,
	CMP_CV_LIMIT,
	CMP_IGNORE_HARD,
	CMP_EXIT_ZERO,
	CMP_OUTPUT,
	CMP_OVERWRITE,
	CMP_METRIC,
	CMP_BISECT,
	CMP_DISTURBED,
};

/* -f: its help names the renderer table's formats (report/compare-render.c) */
static const struct vms_cli_option *compare_format_row(void)
{
	static struct vms_cli_option rows[2];

	return vms_cli_one_row(rows, "format", 'f', "FMT", vms_compare_renderer_help());
}

static const struct vms_cli_option compare_options[] = {
    {"", 0, VMS_CLI_GROUP, NULL, NULL, CMP_FORMAT, 0}, /* -f, its help from the renderer table */
    {"threshold", 0, VMS_CLI_REQUIRED, "PCT", "change that matters (default 2)", CMP_THRESHOLD, 0},
    {"alpha", 0, VMS_CLI_REQUIRED, "A", "significance level (default 0.05; intervals at 1-A)",
     CMP_ALPHA, 0},
    {"detect", 0, VMS_CLI_REQUIRED, "PCT", "change the runs-needed estimate aims at (default 5)",
     CMP_DETECT, 0},
    {"cv-limit", 0, VMS_CLI_REQUIRED, "PCT",
     "spread of ln x (~cv) above which a metric is unstable (default 50)", CMP_CV_LIMIT, 0},
    {"ignore-hard-differences", 0, VMS_CLI_FLAG, NULL,
     "compare despite hard environment differences", CMP_IGNORE_HARD, 0},
    {"exit-zero", 0, VMS_CLI_FLAG, NULL, "exit 0 even on a regression or a not-comparable result",
     CMP_EXIT_ZERO, 0},
    {"output", 'o', VMS_CLI_REQUIRED, "FILE",
     "write there (atomically) instead of standard output; - is\n"
     "standard output, as without -o",
     CMP_OUTPUT, 0},
    {"overwrite", 0, VMS_CLI_FLAG, NULL, "let -o replace an existing file", CMP_OVERWRITE, 0},
    {"metric", 'm', VMS_CLI_REQUIRED, "NAME",
     "this metric decides the verdict instead of the primary ones;\n"
     "repeatable (failed_runs always decides)",
     CMP_METRIC, 1},
    {"bisect", 0, VMS_CLI_FLAG, NULL,
     "exit as `git bisect run` reads it: 0 good (every deciding metric\n"
     "non-inferior: its one-sided bound within --detect), 1 bad, 125 skip\n"
     "(cannot tell, not comparable, unstable, not shown non-inferior),\n"
     "128 tool error, 129 usage error (both stop the bisect)",
     CMP_BISECT, 0},
    {"disturbed-above", 0, VMS_CLI_REQUIRED, "PCT",
     "a run whose other processes took more of the CPUs is disturbed\n"
     "(other_cpu_pct; default 5)",
     CMP_DISTURBED, 0},
    /* until the next release: --force meant --ignore-hard-differences here, and
     * --overwrite in the other commands, which now spell it that way too */
    {"force", 0, VMS_CLI_ALIAS, "ignore-hard-differences", NULL, 0, 0},
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};

/* The help's paragraph on the primary metrics, listed from the metric catalogue and the
 * workload table so that it cannot go stale. */
static char *primary_paragraph(void)
{
	char *names = vms_metric_primary_names(", "), *dropped = vms_xstrdup(""), *next, *text;
	const struct vms_workload *const *w;
	const char *const *m;

	for (w = vms_workloads; *w; w++) {
		for (m = (*w)->not_primary; m && *m; m++) {
			next = vms_xasprintf("%s%s%s's %s", dropped, *dropped ? ", " : "",
			                     (*w)->name, *m);
			free(dropped);
			dropped = next;
		}
	}
	text = vms_xasprintf("The primary metrics decide the VERDICT lines (their p-values "
	                     "Holm-adjusted per file) unless --metric names others: %s (the metric "
	                     "catalogue's primary column, docs/result-format.md%s%s%s).",
	                     names, *dropped ? "; not primary for their workload: " : "", dropped,
	                     *dropped ? ", docs/workloads.md" : "");
	free(names);
	free(dropped);
	return text;
}

/* What completes the value of a compare option or the operands (struct vms_cli_usage's
 * values). */
static char *compare_values(const struct vms_cli_option *o)
{
	const struct vms_compare_renderer *r;
	char *words = NULL;
	size_t i;

	if (!o)
		return vms_xstrdup(VMS_CLI_RESULTS);
	switch ((enum compare_key)o->key) {
	case CMP_FORMAT:
		for (i = 0; (r = vms_compare_renderer_at(i)); i++)
			vms_words_add(&words, r->name);
		return words;
	case CMP_OUTPUT: return vms_xstrdup(VMS_CLI_FILES);
	case CMP_METRIC:
		for (i = 0; i < vms_metric_count(); i++)
			vms_words_add(&words, vms_metric_defs[i].name);
		return words;
	default: return NULL;
	}
}

const struct vms_cli_usage vms_compare_usage = {
    .operands = "BASE.json OTHER.json... | VARIANTS.json | A1.json... -- B1.json...",
    .about =
        "Compares result files of `vmsuite run`, each OTHER against BASE (the first). First the "
        "environment\n"
        "facts that differ: expected; soft (possible confounders, marked * on the verdicts they "
        "could\n"
        "explain); HARD (verdicts \"not comparable\" unless --ignore-hard-differences). Then per "
        "workload and\n"
        "metric: mean, cv and n per side, change in % with its confidence interval (Welch's t-test "
        "on\n"
        "log-values, i.e. ratio of geometric means; count metrics: runs with an event, Fisher's "
        "exact "
        "test),\n"
        "p-value and verdict: regression, improvement, probably ..., no change, inconclusive (n≈N: "
        "runs per\n"
        "side needed to detect --detect), unstable, not comparable, cannot tell (a side without a\n"
        "successful run), missing.\n"
        "One file holding several variants (vmsuite run --sysctl): its variants are compared, the "
        "first is\n"
        "BASE, runs made together are paired (paired t-test on the log ratios). Files with "
        "variants are\n"
        "matched by variant label. Sides of several suites (A1 A2 -- B1 B2): the suite means "
        "decide (3 or\n"
        "more suites per side advised), every suite is checked against its side and BASE. A timing "
        "change\n"
        "that other processes on the CPUs could explain (other_cpu_pct) is confounded, never a "
        "regression.\n"
        "See docs/compare.md.\n",
    .generated = primary_paragraph,
    .options = compare_options,
    .group = compare_format_row,
    .more = "Exit status (differs from the other commands): 0 no regression shown (NO CHANGE "
            "when every\n"
            "primary metric is shown within the threshold); 1 a primary metric regressed "
            "(one-sided,\n"
            "failed runs included); 2 cannot tell (a primary metric not measured, unstable, "
            "confounded,\n"
            "or runs failed on B only), not comparable (a workload on one side only or sized "
            "differently,\n"
            "unless another regressed), or an error (bad file, bad option). With "
            "--bisect:\n"
            "0 good (non-inferior), 1 bad, 125 skip, 128 tool error, 129 usage error (git "
            "bisect run;\n"
            "see docs/bisect.md).\n",
    .values = compare_values,
};

struct compare_args {
	const struct vms_compare_renderer *r;
	struct vms_compare_opts opts;
	const char *out;
	int overwrite; /* -o may replace an existing file */
	int exit_zero;
	int bisect;
	const char *files[64];
	size_t n_files;
	size_t side[64]; /* side[i] of files[i] */
	size_t n_sides;  /* separators seen + 1 */
	int grouped;     /* a "--" separated sides */
	const char *metrics[64];
	size_t n_metrics;
};

/* The "--" between sides, swapped in before parsing so that the parser hands it over as an
 * operand (it takes a first "--" as the end of the options); recognised by its address. */
static char side_separator[] = "=--";

/* One option or operand of `compare` (a vms_cli_handler). */
static int compare_option(void *ctx, const struct vms_cli_option *opt, const char *val, char *err,
                          size_t errlen)
{
	struct compare_args *a = ctx;

	if (!opt) {
		if (val == side_separator) {
			if (!a->n_files || a->side[a->n_files - 1] != a->n_sides - 1) {
				snprintf(err, errlen,
				         "'--' needs result files on both sides (A1.json "
				         "A2.json -- B1.json B2.json)");
				return -EINVAL;
			}
			a->grouped = 1;
			if (a->n_sides == 26) {
				snprintf(err, errlen, "at most 26 sides");
				return -EINVAL;
			}
			a->n_sides++;
			return 0;
		}
		if (a->n_files == VMS_ARRAY_SIZE(a->files)) {
			snprintf(err, errlen, "at most %zu result files", a->n_files);
			return -EINVAL;
		}
		if (!a->grouped && a->n_files == 26) {
			snprintf(err, errlen, "at most 26 result files");
			return -EINVAL;
		}
		a->side[a->n_files] = a->n_sides - 1;
		a->files[a->n_files++] = val;
		return 0;
	}
	switch ((enum compare_key)opt->key) {
	case CMP_FORMAT:
		a->r = vms_compare_renderer_find(val);
		if (!a->r) {
			snprintf(err, errlen, "unknown format '%s' (%s)", val,
			         vms_compare_renderer_names());
			return -EINVAL;
		}
		return 0;
	case CMP_THRESHOLD:
		if (parse_pct(val, 1, &a->opts.threshold)) {
			snprintf(err, errlen,
			         "--threshold wants a percentage in (0, 100], not '%s'", val);
			return -EINVAL;
		}
		return 0;
	case CMP_ALPHA:
		if (vms_parse_decimal(val, NULL, &a->opts.alpha) ||
		    !(a->opts.alpha > 0 && a->opts.alpha < 0.5)) {
			snprintf(err, errlen, "--alpha wants a number in (0, 0.5), not '%s'", val);
			return -EINVAL;
		}
		return 0;
	case CMP_DETECT:
		if (parse_pct(val, 10, &a->opts.detect)) {
			snprintf(err, errlen, "--detect wants a percentage in (0, 1000], not '%s'",
			         val);
			return -EINVAL;
		}
		return 0;
	case CMP_CV_LIMIT:
		if (parse_pct(val, 100, &a->opts.cv_limit)) {
			snprintf(err, errlen, "--cv-limit wants a percentage, not '%s'", val);
			return -EINVAL;
		}
		return 0;
	case CMP_IGNORE_HARD: a->opts.force = 1; return 0;
	case CMP_EXIT_ZERO: a->exit_zero = 1; return 0;
	case CMP_OUTPUT: a->out = strcmp(val, "-") ? val : NULL; return 0; /* -: stdout */
	case CMP_OVERWRITE: a->overwrite = 1; return 0;
	case CMP_METRIC:
		if (a->n_metrics == VMS_ARRAY_SIZE(a->metrics)) {
			snprintf(err, errlen, "too many --metric options");
			return -EINVAL;
		}
		if (!*val) {
			snprintf(err, errlen, "--metric needs a metric name (vmsuite list)");
			return -EINVAL;
		}
		a->metrics[a->n_metrics++] = val;
		return 0;
	case CMP_BISECT: a->bisect = 1; return 0;
	case CMP_DISTURBED:
		if (parse_pct(val, 1, &a->opts.disturbed_above)) {
			snprintf(err, errlen,
			         "--disturbed-above wants a percentage in (0, 100], not '%s'", val);
			return -EINVAL;
		}
		a->opts.disturbed_above *= 100; /* other_cpu_pct is in % */
		return 0;
	}
	return -EINVAL;
}

/* Usage errors report like every command's but exit with compare's error status. */
#define usage_error(...) ((void)vms_usage_error(vms_command_find("compare"), __VA_ARGS__))

/* The exit status of an error: 2, or under --bisect (git bisect run stops) 128 for a tool
 * error and 129 for a usage error. */
static int error_status(char **argv, int argc, int usage)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--bisect"))
			return usage ? VMS_EXIT_USAGE : VMS_EXIT_FATAL;
	return COMPARE_EXIT_ERROR;
}

/* Warns about a file given twice (the same inode, whatever the names): on two sides the
 * comparison can only find them equal; within one side its runs count twice. side NULL: each
 * file is its own side. */
static void warn_same_files(const char **files, size_t n, const size_t *side)
{
	struct stat *st = vms_xcalloc(n, sizeof(*st));
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (stat(files[i], &st[i])) {
			st[i].st_ino = 0;
			continue;
		}
		for (j = 0; j < i; j++) {
			if (!st[j].st_ino || st[j].st_dev != st[i].st_dev ||
			    st[j].st_ino != st[i].st_ino)
				continue;
			if (!side || side[i] != side[j])
				vms_warn("'%s' and '%s' are the same file, on two sides: the "
				         "comparison can only find them equal",
				         files[j], files[i]);
			else
				vms_warn("'%s' and '%s' are the same file, in one side: its runs "
				         "count twice",
				         files[j], files[i]);
			break;
		}
	}
	free(st);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = {.r = vms_compare_renderer_find("text"), .n_sides = 1};
	const struct vms_compare_renderer *r;
	struct vms_compare cmp;
	struct vms_compare_input in;
	const char *out;
	const char **files;
	json_t **docs = NULL;
	char **args;
	int exit_zero, status, j;
	size_t n = 0, i;

	status = error_status(argv, argc, 1);
	args = vms_xcalloc((size_t)argc + 1, sizeof(*args));
	for (j = 0; j < argc; j++)
		args[j] = j && !strcmp(argv[j], "--") ? side_separator : argv[j];
	vms_compare_opts_init(&a.opts);
	j = vms_cli_parse("compare", &vms_compare_usage, argc, args, compare_option, &a);
	free(args);
	if (j)
		return status;
	r = a.r, out = a.out, exit_zero = a.exit_zero, files = a.files, n = a.n_files;
	if (a.grouped && (!n || a.side[n - 1] != a.n_sides - 1)) {
		usage_error("%s", "'--' needs result files on both sides (A1.json A2.json -- "
		                  "B1.json B2.json)");
		return status;
	}
	if (!n) {
		usage_error("%s", "needs BASE and at least one other result file (or one file "
		                  "with several variants)");
		return status;
	}
	status = error_status(argv, argc, 0);
	if (!r->render) {
		vms_error("compare: --format %s is not available in this build yet", r->name);
		return status;
	}
	if (out && vms_output_check(NULL, out, a.overwrite, "--overwrite"))
		return status;
	docs = vms_xcalloc(n, sizeof(*docs));
	for (i = 0; i < n; i++) {
		const char *path = files[i];
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
	warn_same_files(files, n, a.grouped ? a.side : NULL);
	in = (struct vms_compare_input){.docs = docs,
	                                .paths = files,
	                                .side = a.grouped ? a.side : NULL,
	                                .n = n,
	                                .decisive = a.n_metrics ? a.metrics : NULL,
	                                .n_decisive = a.n_metrics};
	if (vms_compare_sides(&in) < 2) {
		status = error_status(argv, argc, 1);
		if (n == 1)
			usage_error("needs at least two result files, got only '%s' (BASE and one "
			            "to compare with it), or one file with several variants "
			            "(vmsuite run --sysctl)",
			            files[0]);
		else
			usage_error("%s", "needs two sides: A1.json... -- B1.json...");
		goto out;
	}
	if (a.n_metrics) {
		char err[512];

		if (vms_compare_check_metrics(docs, n, a.metrics, a.n_metrics, err, sizeof(err))) {
			usage_error("%s", err);
			status = error_status(argv, argc, 1);
			goto out;
		}
	}
	vms_compare_build(&cmp, &a.opts, &in);
	if (render(r, &cmp, out, a.overwrite)) {
		vms_compare_release(&cmp);
		status = error_status(argv, argc, 0);
		goto out;
	}
	vms_compare_note_suites(&cmp, a.bisect);
	for (i = 0; i + 1 < cmp.n_files; i++)
		if (vms_compare_confounded(&cmp, i))
			vms_note("%c: other processes took the CPUs: %zu deciding change%s "
			         "confounded, not judged",
			         'A' + (int)i + 1, vms_compare_confounded(&cmp, i),
			         vms_compare_confounded(&cmp, i) > 1 ? "s" : "");
	if (a.bisect)
		status = vms_compare_bisect_status(&cmp);
	else
		status = exit_zero ? 0 : vms_compare_status(&cmp);
	vms_compare_release(&cmp);
out:
	for (i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	return status;
}
