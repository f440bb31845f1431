/* `vmsuite report FILE`: re-renders a saved result with the same renderer `run` uses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "core/result.h"
#include "core/resultdoc.h"
#include "core/util.h"
#include "report/export.h"
#include "report/model.h"
#include "report/report.h"

enum report_key {
	REPORT_FORMAT,
	REPORT_OUTPUT,
	REPORT_OVERWRITE,
	REPORT_VERDICT,
	REPORT_ORIGIN,
	REPORT_CHECKOUT_ID,
	REPORT_BUILD_ID,
	REPORT_GIT_COMMIT,
	REPORT_OUTPUT_URL,
	REPORT_GIT_URL,
	REPORT_TREE,
	REPORT_BRANCH,
};

/* --format: its help names the renderer table's formats (report/model.c) */
static const struct vms_cli_option *report_format_row(void)
{
	static struct vms_cli_option rows[2];

	return vms_cli_one_row(rows, "format", 0, "FORMAT", vms_report_renderer_help());
}

static const struct vms_cli_option report_options[] = {
    {"", 0, VMS_CLI_GROUP, NULL, NULL, REPORT_FORMAT, 0}, /* --format, from the renderer table */
    {"output", 'o', VMS_CLI_REQUIRED, "OUT",
     "write there (a new file unless --overwrite) instead of standard\n"
     "output; - is standard output, as without -o",
     REPORT_OUTPUT, 0},
    {"overwrite", 0, VMS_CLI_FLAG, NULL, "let -o replace an existing file", REPORT_OVERWRITE, 0},
    {"force", 0, VMS_CLI_ALIAS, "overwrite", NULL, 0, 0},
    {"verdict", 0, VMS_CLI_REQUIRED, "FILE",
     "lava, kcidb: carry the verdicts of this `vmsuite compare --format json`\n"
     "output instead of a verdict stored in the result file",
     REPORT_VERDICT, 0},
    {"origin", 0, VMS_CLI_REQUIRED, "NAME",
     "kcidb: the submitting CI system, [a-z0-9_]+ (default vmsuite)", REPORT_ORIGIN, 0},
    {"checkout-id", 0, VMS_CLI_REQUIRED, "ID",
     "kcidb: the checkout's id, ORIGIN:LOCAL or a local id, at most\n"
     "255 characters in all (default: ORIGIN: and a hash of the result)",
     REPORT_CHECKOUT_ID, 0},
    {"build-id", 0, VMS_CLI_REQUIRED, "ID", "kcidb: the build's id, the same way", REPORT_BUILD_ID,
     0},
    {"git-commit", 0, VMS_CLI_REQUIRED, "HASH",
     "kcidb: the kernel's full commit hash (40 lowercase hex digits)", REPORT_GIT_COMMIT, 0},
    {"git-url", 0, VMS_CLI_REQUIRED, "URL",
     "kcidb: the kernel's git repository (git_repository_url), the\n"
     "shortest https:// URL; with --git-commit, --tree and --branch, KCIDB\n"
     "can match these results with other CI systems' for the same tree",
     REPORT_GIT_URL, 0},
    {"tree", 0, VMS_CLI_REQUIRED, "NAME",
     "kcidb: the tree's common name (tree_name), e.g. mainline or\n"
     "net-next: letters, digits and . _ + -",
     REPORT_TREE, 0},
    {"branch", 0, VMS_CLI_REQUIRED, "NAME",
     "kcidb: the git branch the commit was checked out from\n"
     "(git_repository_branch), e.g. master",
     REPORT_BRANCH, 0},
    {"output-url", 0, VMS_CLI_REQUIRED, "URL",
     "kcidb: where the result file is published (https://); listed\n"
     "in each test's output_files",
     REPORT_OUTPUT_URL, 0},
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};

/* What completes the value of a report option or the operand (struct vms_cli_usage's
 * values). */
static char *report_values(const struct vms_cli_option *o)
{
	const struct vms_report_renderer *r;
	char *words = NULL;
	size_t i;

	if (!o)
		return vms_xstrdup(VMS_CLI_RESULTS);
	switch ((enum report_key)o->key) {
	case REPORT_FORMAT:
		for (i = 0; (r = vms_report_renderer_at(i)); i++)
			vms_words_add(&words, r->name);
		return words;
	case REPORT_OUTPUT: return vms_xstrdup(VMS_CLI_FILES);
	case REPORT_VERDICT: return vms_xstrdup(VMS_CLI_RESULTS);
	default: return NULL;
	}
}

const struct vms_cli_usage vms_report_usage = {
    .operands = "FILE",
    .about = "Renders a result file written by `vmsuite run`. text (default) prints the\n"
             "2001-style block per workload; markdown the same figures as tables and lists\n"
             "for an issue or a post; json the per-workload summary (means, sd, cv); html\n"
             "one self-contained page (docs/html-report.md): the same tables, and per run a\n"
             "timeline of faults, swap, PSI, memory and the audio buffer fill with every gap\n"
             "marked. lava and kcidb are for test labs (docs/scale-out.md): lava prints\n"
             "Linaro result.txt lines, NAME RESULT [MEASUREMENT [UNITS]], per workload a\n"
             "-runs case, the primary and key metrics and, with a verdict, a -verdict case;\n"
             "kcidb one KernelCI (KCIDB v5.3) document, a test per workload and metric.\n",
    .options = report_options,
    .group = report_format_row,
    .more =
        "Examples:\n"
        "  vmsuite report r.json --format lava > output/result.txt\n"
        "  vmsuite report r.json --format kcidb --origin mylab --git-commit HASH \\\n"
        "      --git-url https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git \\\n"
        "      --tree mainline --branch master -o k.json\n"
        "  vmsuite compare base.json r.json --format json -o cmp.json\n"
        "  vmsuite report r.json --format lava --verdict cmp.json\n",
    .values = report_values,
};

struct report_args {
	const char *file, *format, *outpath, *verdict;
	int overwrite; /* -o may replace an existing file */
	int lab_opt;   /* the option of the lava/kcidb formats last given, 0 = none */
	int kcidb_opt; /* the option of the kcidb format last given, 0 = none */
	struct vms_report_opts opts;
};

static int all_of(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

#define LOWER_DIGITS "abcdefghijklmnopqrstuvwxyz0123456789"

/* A KCIDB id as given: "ORIGIN:LOCAL" (ORIGIN as --origin) or a non-empty LOCAL. */
static int id_ok(const char *s)
{
	const char *colon = strchr(s, ':');

	if (!colon)
		return *s != '\0';
	return colon > s && strspn(s, LOWER_DIGITS "_") == (size_t)(colon - s);
}

/* scheme ":" and then only what RFC 3986 allows in a URI (no spaces, no quotes) */
static int url_ok(const char *s)
{
	static const char uri_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                                "0123456789-._~:/?#[]@!$&'()*+,;=%";
	const char *colon = strchr(s, ':');
	size_t i;

	if (!colon || colon == s ||
	    !strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", s[0]))
		return 0;
	for (i = 1; s + i < colon; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+.-",
		            s[i]))
			return 0;
	return colon[1] && strspn(s, uri_chars) == strlen(s);
}

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
	} else if (opt->key == REPORT_OVERWRITE) {
		a->overwrite = 1;
	} else if (opt->key == REPORT_OUTPUT) {
		a->outpath = strcmp(val, "-") ? val : NULL; /* -: standard output */
	} else if (opt->key == REPORT_VERDICT) {
		a->verdict = val;
		a->lab_opt = opt->key;
	} else {
		a->kcidb_opt = opt->key;
		if (opt->key == REPORT_ORIGIN && !all_of(val, LOWER_DIGITS "_")) {
			snprintf(err, errlen, "--origin '%s': lowercase letters, digits and _ only",
			         val);
			return -EINVAL;
		}
		if ((opt->key == REPORT_CHECKOUT_ID || opt->key == REPORT_BUILD_ID) &&
		    !id_ok(val)) {
			snprintf(err, errlen,
			         "--%s '%s': ORIGIN:LOCAL with ORIGIN of [a-z0-9_], or a local id",
			         opt->name, val);
			return -EINVAL;
		}
		if (opt->key == REPORT_GIT_COMMIT &&
		    (strlen(val) != 40 || !all_of(val, "0123456789abcdef"))) {
			snprintf(err, errlen,
			         "--git-commit '%s': a full commit hash, 40 lowercase hex digits",
			         val);
			return -EINVAL;
		}
		if (opt->key == REPORT_OUTPUT_URL && !url_ok(val)) {
			snprintf(err, errlen,
			         "--output-url '%s': not a URL (scheme:..., no spaces)", val);
			return -EINVAL;
		}
		if (opt->key == REPORT_ORIGIN)
			a->opts.origin = val;
		else if (opt->key == REPORT_CHECKOUT_ID)
			a->opts.checkout_id = val;
		else if (opt->key == REPORT_BUILD_ID)
			a->opts.build_id = val;
		else if (opt->key == REPORT_GIT_COMMIT)
			a->opts.git_commit = val;
		else if (opt->key == REPORT_GIT_URL)
			a->opts.git_url = val;
		else if (opt->key == REPORT_TREE)
			a->opts.tree = val;
		else if (opt->key == REPORT_BRANCH)
			a->opts.branch = val;
		else
			a->opts.output_url = val;
	}
	return 0;
}

static const char *option_name(int key)
{
	size_t i;

	for (i = 0; report_options[i].name; i++)
		if (report_options[i].key == key)
			return report_options[i].name;
	return "?";
}

/* The verdict the lava/kcidb output carries, from --verdict or the file: 0, or an error
 * (reported) when there is one that does not fit. *loaded: the --verdict document (decref). */
static int lab_verdict(struct report_args *a, const json_t *doc, json_t **loaded)
{
	struct vms_report_model m;
	json_error_t jerr;
	char why[512];
	size_t other;
	int ret = 0;

	*loaded = NULL;
	if (a->verdict) {
		*loaded = json_load_file(a->verdict, 0, &jerr);
		if (!*loaded) {
			vms_error("cannot read the verdict '%s': %s", a->verdict, jerr.text);
			return VMS_EXIT_FATAL;
		}
		a->opts.verdict = *loaded;
	}
	vms_report_model_init(&m, doc);
	m.opts = &a->opts;
	if (!vms_export_verdict(&m, &other, why, sizeof(why)) && (a->verdict || m.rd.verdict)) {
		vms_error("%s%s: %s", a->verdict ? "the verdict " : "the verdict stored in ",
		          a->verdict ? a->verdict : a->file, why);
		ret = VMS_EXIT_FATAL;
	}
	vms_report_model_release(&m);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	const struct vms_command *self = vms_command_find("report");
	struct report_args a = {.format = "text"};
	json_t *verdict = NULL;
	const char *slash;
	const char *file, *format, *outpath;
	enum vms_load_error lerr;
	char why[512];
	json_t *doc;
	FILE *out = stdout;
	int ret = 0;

	if ((ret = vms_cli_parse(self->name, self->usage, argc, argv, report_option, &a)))
		return ret;
	file = a.file, format = a.format, outpath = a.outpath;
	if (!file)
		return vms_usage_error(self, "which result file? (vmsuite report FILE)");
	if (a.kcidb_opt && strcmp(format, "kcidb"))
		return vms_usage_error(self, "--%s goes with --format kcidb",
		                       option_name(a.kcidb_opt));
	if (a.lab_opt && strcmp(format, "kcidb") && strcmp(format, "lava"))
		return vms_usage_error(self, "--%s goes with --format lava or kcidb",
		                       option_name(a.lab_opt));
	if (!strcmp(format, "kcidb") && vms_kcidb_opts_check(&a.opts, why, sizeof(why)))
		return vms_usage_error(self, "%s", why);
	slash = strrchr(file, '/');
	a.opts.result_name = slash && slash[1] ? slash + 1 : file;
	if (outpath && vms_output_check(NULL, outpath, a.overwrite, "--overwrite"))
		return VMS_EXIT_FATAL;
	doc = vms_result_load(file, &lerr, why, sizeof(why));
	if (!doc) {
		vms_error("cannot read '%s': %s", file, why);
		return VMS_EXIT_FATAL;
	}
	if ((!strcmp(format, "lava") || !strcmp(format, "kcidb")) &&
	    (ret = lab_verdict(&a, doc, &verdict))) {
		json_decref(verdict);
		json_decref(doc);
		return ret;
	}
	/* "x": O_EXCL, a file made since the check is not overwritten either */
	if (outpath && !(out = fopen(outpath, a.overwrite ? "we" : "wxe"))) {
		vms_error("cannot write '%s': %s", outpath, strerror(errno));
		json_decref(verdict);
		json_decref(doc);
		return VMS_EXIT_FATAL;
	}
	/* every format through the renderer table */
	errno = 0;
	vms_report_render_opts(out, doc, format, &a.opts);
	if (out == stdout && vms_stdout_flush()) {
		ret = VMS_EXIT_FATAL;
	} else if (out != stdout && (ferror(out) | fclose(out))) {
		vms_error("cannot write '%s': %s", outpath, strerror(errno));
		ret = VMS_EXIT_FATAL;
	}
	json_decref(verdict);
	json_decref(doc);
	return ret;
}
