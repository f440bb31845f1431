/* One option table per command and one parser for all of them: each command lists its options
 * (names, argument, help) next to its code; the parser and `vmsuite help CMD` read the same
 * table, so what the help shows is what the command accepts. The parser knows commands only by
 * name and table (the command table is cli's). No kernel paths. */
#ifndef VMS_CORE_OPTIONS_H
#define VMS_CORE_OPTIONS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum vms_cli_arg {
	VMS_CLI_FLAG,     /* --rt */
	VMS_CLI_REQUIRED, /* --output FILE, --output=FILE, -o FILE, -oFILE */
	VMS_CLI_OPTIONAL, /* --with-audio [FILE]: =FILE, or the next argument unless it starts with
	                   * '-' */
	VMS_CLI_GROUP,    /* not an option: the rows of the usage's group() go here, each given
	                   * this row's key (a library's own options, e.g. the audio probe's) */
	VMS_CLI_ALIAS,    /* not an option of its own: an old spelling of the option arg_name
	                   * names (in the same table or group), kept for one release. The parser
	                   * warns on stderr and hands over that option; the help lists it apart,
	                   * completion does not offer it */
};

struct vms_cli_option {
	const char *name; /* long name without "--"; NULL ends a table */
	char short_name;  /* 0 = none */
	enum vms_cli_arg arg;
	const char *arg_name; /* "FILE"; NULL for a flag; VMS_CLI_ALIAS: the option's name */
	const char *help;     /* one line, or several separated by '\n' */
	int key;              /* for the command's handler */
	int repeatable;       /* shown as "[-w SPEC]..." in the usage line */
};

/* What `vmsuite help CMD` prints: "usage: vmsuite CMD OPERANDS [options...]" (generated),
 * the description, the option lines (generated from the table), then the rest. */
struct vms_cli_usage {
	const char *operands; /* "FILE", "[FILE]", NULL = none */
	const char *about;    /* paragraph after the usage line; may be NULL */
	/* a paragraph after about made at run time from a catalogue (e.g. the primary metrics),
	 * so that the help cannot go stale; word-wrapped by the help writer. A new string; may be
	 * NULL */
	char *(*generated)(void);
	const struct vms_cli_option *options; /* NULL-name terminated */
	/* the rows a VMS_CLI_GROUP row of options stands for (NULL-name terminated, no group
	 * row in them); NULL = none */
	const struct vms_cli_option *(*group)(void);
	/* a paragraph before more, made at run time (a new string, newlines kept, word-wrapped
	 * by the help writer); may be NULL */
	char *(*generated_more)(void);
	const char *more; /* examples, exit status; may be NULL */
	/* What `vmsuite completion` offers for the value of option o (a row of options or of
	 * group()) or, with o NULL, for the command's operands: a new string of words separated
	 * by spaces, taken from the tables the command checks values against; VMS_CLI_FILES,
	 * VMS_CLI_DIRS or VMS_CLI_RESULTS stand for paths. NULL: nothing to offer (a number, a
	 * size, a free name). The function may be NULL. */
	char *(*values)(const struct vms_cli_option *o);
};

/* The path kinds a values() string may be */
#define VMS_CLI_FILES   "<file>"   /* any file */
#define VMS_CLI_DIRS    "<dir>"    /* a directory */
#define VMS_CLI_RESULTS "<result>" /* a result file: *.json */

/* The most rows a command has, a group's included */
#define VMS_CLI_MAX_ROWS 64

/* A group() of one option with an argument whose help is made at run time (e.g. --format
 * naming a renderer table's formats): rows[0] becomes that option, rows[1] ends the group.
 * Returns rows. */
const struct vms_cli_option *vms_cli_one_row(struct vms_cli_option rows[2], const char *name,
                                             char short_name, const char *arg_name,
                                             const char *help);

/* u's option rows into rows[VMS_CLI_MAX_ROWS], a VMS_CLI_GROUP row replaced by the rows of
 * u->group() with that row's key; NULL-name terminated: what the parser and the help read.
 * Returns the number of rows. */
size_t vms_cli_rows(const struct vms_cli_usage *u, struct vms_cli_option *rows);

/* Called once per option (opt set, value NULL for a flag or an absent optional value; opt is
 * valid during the call only) and once per operand (opt NULL, value the argument), in
 * command-line order. Returns 0, or non-zero
 * with a one-line message in err (no prefix; the parser reports it as a usage error). */
typedef int (*vms_cli_handler)(void *ctx, const struct vms_cli_option *opt, const char *value,
                               char *err, size_t errlen);

/* Parses argv[1..argc-1] of command cmd against its option table u->options, calling fn for
 * each option and operand; "--" ends the options. Long options match exactly (no
 * abbreviations). argv is not reordered. Returns 0, or VMS_EXIT_USAGE after reporting the one
 * usage error (vms_cli_usage_error) on stderr. */
int vms_cli_parse(const char *cmd, const struct vms_cli_usage *u, int argc, char **argv,
                  vms_cli_handler fn, void *ctx);

/* Reports a usage error of command cmd on stderr ("vmsuite: CMD: MSG" and the hint
 * "Try 'vmsuite CMD --help'."); returns VMS_EXIT_USAGE. */
int vms_cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int vms_cli_usage_verror(const char *cmd, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Appends sep and item to the option help being built in buf (len bytes, a string): when the
 * line would pass the width of option help, it breaks at sep's first space (", " ends the line
 * with the comma, " or " starts the next with "or"). For help made from a table at run time
 * (a group() row, e.g. -f's formats from a renderer table). */
void vms_cli_help_append(char *buf, size_t len, const char *sep, const char *item);

/* Writes text to f word-wrapped at the help's width (100 columns), ending with a newline; '\n'
 * in text ends a line. */
void vms_cli_print_wrapped(FILE *f, const char *text);

/* Writes the options of command cmd (u's rows, a group's included) to f as the man page's
 * subsection `.SS "vmsuite CMD"`: one `.TP` entry a row, its help filled as one paragraph, the
 * old spellings in a paragraph after; text escaped for roff. What `vmsuite help --roff`
 * prints and docs/vmsuite.1 holds between its markers (scripts/update-man.sh). */
void vms_cli_print_roff(FILE *f, const char *cmd, const struct vms_cli_usage *u);

/* Writes the help of command cmd (see struct vms_cli_usage) to f. */
void vms_cli_print_help(FILE *f, const char *cmd, const struct vms_cli_usage *u);

#endif
