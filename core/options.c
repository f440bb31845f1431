/* The command layer's option parser and help writer, both driven by the command's option table
 * (core/options.h). No getopt: `run --with-audio [FILE]` takes an optional value that may stand
 * in the next argument, and every command reports its errors the same way. No kernel paths. */
#include "core/options.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define HELP_WIDTH 100 /* columns of the generated help */
#define HELP_COL   26  /* where option help starts (longer option names push it right) */
#define MAX_ROWS   VMS_CLI_MAX_ROWS

const struct vms_cli_option *vms_cli_one_row(struct vms_cli_option rows[2], const char *name,
                                             char short_name, const char *arg_name,
                                             const char *help)
{
	rows[0] = (struct vms_cli_option){name, short_name, VMS_CLI_REQUIRED, arg_name, help, 0, 0};
	rows[1] = (struct vms_cli_option){NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0};
	return rows;
}

size_t vms_cli_rows(const struct vms_cli_usage *u, struct vms_cli_option *rows)
{
	const struct vms_cli_option *o, *g;
	size_t n = 0;

	for (o = u->options; o && o->name; o++) {
		if (o->arg != VMS_CLI_GROUP) {
			if (n + 1 >= MAX_ROWS)
				abort(); /* a command with more options than MAX_ROWS */
			rows[n++] = *o;
			continue;
		}
		for (g = u->group ? u->group() : NULL; g && g->name; g++) {
			if (n + 1 >= MAX_ROWS)
				abort();
			rows[n] = *g;
			rows[n++].key = o->key;
		}
	}
	memset(&rows[n], 0, sizeof(rows[n]));
	return n;
}

/* The option argv[i] names, and its attached value ("--x=V", "-xV") in *val. NULL if none. */
static const struct vms_cli_option *find(const struct vms_cli_option *opts, const char *arg,
                                         const char **val)
{
	const struct vms_cli_option *o;

	*val = NULL;
	if (arg[1] == '-') {
		const char *name = arg + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);

		for (o = opts; o && o->name; o++) {
			if (strlen(o->name) == len && !strncmp(o->name, name, len)) {
				*val = eq ? eq + 1 : NULL;
				return o;
			}
		}
		return NULL;
	}
	for (o = opts; o && o->name; o++) {
		if (o->short_name && o->short_name == arg[1]) {
			if (arg[2] && o->arg == VMS_CLI_FLAG)
				return NULL; /* no bundling of short flags */
			*val = arg[2] ? arg + 2 : NULL;
			return o;
		}
	}
	return NULL;
}

/* The option alias (a VMS_CLI_ALIAS row of opts) stands for, or NULL. */
static const struct vms_cli_option *alias_target(const struct vms_cli_option *opts,
                                                 const struct vms_cli_option *alias)
{
	const struct vms_cli_option *o;

	for (o = opts; o->name; o++)
		if (o->arg != VMS_CLI_ALIAS && !strcmp(o->name, alias->arg_name))
			return o;
	return NULL;
}

int vms_cli_usage_verror(const char *cmd, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	vms_error("%s: %s", cmd, msg);
	fprintf(stderr, "Try 'vmsuite %s --help'.\n", cmd);
	return VMS_EXIT_USAGE;
}

int vms_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vms_cli_usage_verror(cmd, fmt, ap);
	va_end(ap);
	return ret;
}

/* The option name (after "--", up to '=') is most like: a row's name within a third of its
 * length in edits (at least 1, at most 3), the old spellings included; NULL when none is. */
static const char *most_similar(const struct vms_cli_option *opts, const char *arg)
{
	const struct vms_cli_option *o;
	const char *best = NULL;
	size_t bestd = SIZE_MAX, len = strcspn(arg, "=");
	char name[64];

	if (len >= sizeof(name))
		return NULL;
	memcpy(name, arg, len);
	name[len] = '\0';
	for (o = opts; o->name; o++) {
		size_t d = vms_edit_distance(name, o->name), limit = strlen(o->name) / 3;

		if (limit < 1)
			limit = 1;
		if (limit > 3)
			limit = 3;
		if (d <= limit && d < bestd) {
			bestd = d;
			best = o->name;
		}
	}
	return best;
}

static int unknown_option(const char *cmd, const struct vms_cli_option *opts, const char *arg)
{
	const char *like = arg[1] == '-' ? most_similar(opts, arg + 2) : NULL;

	if (like)
		return vms_cli_usage_error(cmd, "unknown option '%s'; did you mean '--%s'?", arg,
		                           like);
	return vms_cli_usage_error(cmd, "unknown option '%s'", arg);
}

int vms_cli_parse(const char *cmd, const struct vms_cli_usage *u, int argc, char **argv,
                  vms_cli_handler fn, void *ctx)
{
	struct vms_cli_option opts[MAX_ROWS];
	unsigned char seen[MAX_ROWS] = {0};
	int i, operands_only = 0;
	char err[1024];

	vms_cli_rows(u, opts);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *val;
		const struct vms_cli_option *o;
		char typed[64];

		err[0] = '\0';
		if (operands_only || arg[0] != '-' || !arg[1]) {
			if (fn(ctx, NULL, arg, err, sizeof(err)))
				return vms_cli_usage_error(cmd, "%s", err);
			continue;
		}
		if (!strcmp(arg, "--")) {
			operands_only = 1;
			continue;
		}
		o = find(opts, arg, &val);
		if (!o)
			return unknown_option(cmd, opts, arg);
		if (arg[1] == '-')
			snprintf(typed, sizeof(typed), "--%s", o->name);
		else
			snprintf(typed, sizeof(typed), "-%c", o->short_name);
		if (o->arg == VMS_CLI_ALIAS) {
			const struct vms_cli_option *to = alias_target(opts, o);

			if (!to)
				abort(); /* a table whose alias names no option */
			vms_warn("%s: '%s' is deprecated and goes in the next release: use '--%s'",
			         cmd, typed, to->name);
			o = to;
		}
		/* one meaning, one value: a second -o would silently win over the first */
		if (!o->repeatable && seen[o - opts]++)
			return vms_cli_usage_error(cmd, "option '--%s' given twice%s", o->name,
			                           o->arg == VMS_CLI_FLAG ? ""
			                                                  : ": it takes one value");
		switch (o->arg) {
		case VMS_CLI_FLAG:
			if (val)
				return vms_cli_usage_error(cmd, "option '%s' takes no value",
				                           typed);
			break;
		case VMS_CLI_REQUIRED:
			if (!val) {
				if (i + 1 >= argc)
					return vms_cli_usage_error(cmd,
					                           "option '%s' needs a value (%s)",
					                           typed, o->arg_name);
				val = argv[++i];
			}
			break;
		case VMS_CLI_OPTIONAL:
			if (!val && i + 1 < argc && argv[i + 1][0] != '-')
				val = argv[++i];
			break;
		case VMS_CLI_GROUP:
		case VMS_CLI_ALIAS: break; /* vms_cli_rows() left none; aliases resolved */
		}
		if (fn(ctx, o, val, err, sizeof(err)))
			return vms_cli_usage_error(cmd, "%s", err);
	}
	return 0;
}

/* "-o, --output FILE", "    --with-audio [FILE]" into buf; returns its length. */
static size_t option_label(const struct vms_cli_option *o, char *buf, size_t len)
{
	int n;

	n = snprintf(buf, len, "  %s%c%s--%s%s%s%s%s", o->short_name ? "-" : " ",
	             o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ", o->name,
	             o->arg == VMS_CLI_FLAG ? "" : " ", o->arg == VMS_CLI_OPTIONAL ? "[" : "",
	             o->arg == VMS_CLI_FLAG ? "" : o->arg_name,
	             o->arg == VMS_CLI_OPTIONAL ? "]" : "");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* The usage line: "usage: vmsuite CMD OPERANDS [-w SPEC]... [--rt]", wrapped under itself. */
static void print_synopsis(FILE *f, const char *cmd, const struct vms_cli_usage *u,
                           const struct vms_cli_option *rows)
{
	const struct vms_cli_option *o;
	size_t indent, col;
	char item[128];

	col = (size_t)fprintf(f, "usage: vmsuite %s", cmd);
	indent = col + 1;
	if (u->operands)
		col += (size_t)fprintf(f, " %s", u->operands);
	for (o = rows; o->name; o++) {
		int n;

		if (o->arg == VMS_CLI_ALIAS)
			continue;
		if (o->short_name)
			n = snprintf(item, sizeof(item), "[-%c", o->short_name);
		else
			n = snprintf(item, sizeof(item), "[--%s", o->name);
		if (n > 0 && (size_t)n < sizeof(item))
			snprintf(item + n, sizeof(item) - (size_t)n, "%s%s%s%s]%s",
			         o->arg == VMS_CLI_FLAG ? "" : " ",
			         o->arg == VMS_CLI_OPTIONAL ? "[" : "",
			         o->arg == VMS_CLI_FLAG ? "" : o->arg_name,
			         o->arg == VMS_CLI_OPTIONAL ? "]" : "", o->repeatable ? "..." : "");
		if (col + 1 + strlen(item) > HELP_WIDTH) {
			fprintf(f, "\n%*s", (int)indent - 1, "");
			col = indent - 1;
		}
		col += (size_t)fprintf(f, " %s", item);
	}
	fputc('\n', f);
}

void vms_cli_print_wrapped(FILE *f, const char *text)
{
	size_t col = 0;

	while (*text) {
		size_t word = strcspn(text, " \n");

		if (col && col + 1 + word > HELP_WIDTH) {
			fputc('\n', f);
			col = 0;
		}
		if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, word, f);
		col += word;
		text += word;
		if (*text == '\n')
			fputc('\n', f), col = 0;
		if (*text)
			text++;
	}
	if (col)
		fputc('\n', f);
}

void vms_cli_help_append(char *buf, size_t len, const char *sep, const char *item)
{
	size_t used = strlen(buf);
	const char *nl = strrchr(buf, '\n'), *space = strchr(sep, ' ');
	size_t line = used - (nl ? (size_t)(nl + 1 - buf) : 0);

	if (used && space && line + strlen(sep) + strlen(item) > HELP_WIDTH - HELP_COL)
		snprintf(buf + used, len - used, "%.*s\n%s%s", (int)(space - sep), sep, space + 1,
		         item);
	else
		snprintf(buf + used, len - used, "%s%s", used ? sep : "", item);
}

/* The old spellings, in a paragraph of their own: "Old spellings, ...: --force (now
 * --overwrite), ..." */
static void print_aliases(FILE *f, const struct vms_cli_option *rows)
{
	const struct vms_cli_option *o;
	char *text = NULL, *next;

	for (o = rows; o->name; o++) {
		if (o->arg != VMS_CLI_ALIAS)
			continue;
		next = vms_xasprintf("%s%s--%s (now --%s)", text ? text : "", text ? ", " : "",
		                     o->name, o->arg_name);
		free(text);
		text = next;
	}
	if (!text)
		return;
	next = vms_xasprintf("\nOld spellings, still accepted with a warning until the next "
	                     "release: %s.",
	                     text);
	vms_cli_print_wrapped(f, next);
	free(next);
	free(text);
}

void vms_cli_print_help(FILE *f, const char *cmd, const struct vms_cli_usage *u)
{
	struct vms_cli_option rows[MAX_ROWS];
	const struct vms_cli_option *o;
	size_t width = 0;
	char label[128];

	vms_cli_rows(u, rows);
	print_synopsis(f, cmd, u, rows);
	if (u->about)
		fprintf(f, "\n%s", u->about);
	if (u->generated) {
		char *text = u->generated();

		if (text)
			vms_cli_print_wrapped(f, text);
		free(text);
	}
	for (o = rows; o->name; o++) {
		size_t l = option_label(o, label, sizeof(label)) + 2;

		if (o->arg != VMS_CLI_ALIAS && l > width && l <= HELP_COL)
			width = l;
	}
	if (rows[0].name)
		fputc('\n', f);
	for (o = rows; o->name; o++) {
		const char *line = o->help, *nl;
		size_t l;

		if (o->arg == VMS_CLI_ALIAS)
			continue;
		l = option_label(o, label, sizeof(label));

		fputs(label, f);
		fprintf(f, "%*s", l + 2 <= width ? (int)(width - l) : 2, "");
		while ((nl = strchr(line, '\n'))) {
			fprintf(f, "%.*s\n%*s", (int)(nl - line), line, (int)width, "");
			line = nl + 1;
		}
		fprintf(f, "%s\n", line);
	}
	print_aliases(f, rows);
	if (u->generated_more || u->more)
		fputc('\n', f);
	if (u->generated_more) {
		char *text = u->generated_more();

		if (text)
			vms_cli_print_wrapped(f, text);
		free(text);
	}
	if (u->more)
		fputs(u->more, f);
}

/* text for roff: '-' and '\\' escaped, newlines filled into spaces (so only the text's start
 * begins a line: guarded when it is '.' or '\'', which roff would read as a request) */
static void put_roff(FILE *f, const char *text)
{
	if (*text == '.' || *text == '\'')
		fputs("\\&", f);
	for (; *text; text++) {
		if (*text == '-')
			fputs("\\-", f);
		else if (*text == '\\')
			fputs("\\e", f);
		else if (*text == '\n')
			fputc(' ', f);
		else
			fputc(*text, f);
	}
}

void vms_cli_print_roff(FILE *f, const char *cmd, const struct vms_cli_usage *u)
{
	struct vms_cli_option rows[MAX_ROWS];
	const struct vms_cli_option *o;
	const char *sep = ":";
	int aliases = 0;

	vms_cli_rows(u, rows);
	fprintf(f, ".SS \"vmsuite %s\"\n", cmd);
	for (o = rows; o->name; o++) {
		if (o->arg == VMS_CLI_ALIAS) {
			aliases = 1;
			continue;
		}
		fputs(".TP\n", f);
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
		fputs("\\fB\\-\\-", f);
		put_roff(f, o->name);
		fputs("\\fR", f);
		if (o->arg != VMS_CLI_FLAG) {
			fputs(o->arg == VMS_CLI_OPTIONAL ? " [\\fI" : " \\fI", f);
			put_roff(f, o->arg_name);
			fputs(o->arg == VMS_CLI_OPTIONAL ? "\\fR]" : "\\fR", f);
		}
		fputs(o->repeatable ? " ...\n" : "\n", f);
		put_roff(f, o->help);
		fputc('\n', f);
	}
	if (!aliases)
		return;
	fputs(".PP\nOld spellings, still accepted with a warning until the next release", f);
	for (o = rows; o->name; o++) {
		if (o->arg != VMS_CLI_ALIAS)
			continue;
		fprintf(f, "%s \\fB\\-\\-", sep);
		put_roff(f, o->name);
		fputs("\\fR (now \\fB\\-\\-", f);
		put_roff(f, o->arg_name);
		fputs("\\fR)", f);
		sep = ",";
	}
	fputs(".\n", f);
}
