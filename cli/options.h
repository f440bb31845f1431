/* One option table per command and one parser for all of them: each command lists its options
 * (names, argument, help) next to its code; the parser and `vmsuite help CMD` read the same
 * table, so what the help shows is what the command accepts. */
#ifndef VMS_OPTIONS_H
#define VMS_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum vms_cli_arg {
	VMS_CLI_FLAG,     /* --rt */
	VMS_CLI_REQUIRED, /* --output FILE, --output=FILE, -o FILE, -oFILE */
	VMS_CLI_OPTIONAL, /* --with-audio [FILE]: =FILE, or the next argument unless it starts with
	                   * '-' */
};

struct vms_cli_option {
	const char *name; /* long name without "--"; NULL ends a table */
	char short_name;  /* 0 = none */
	enum vms_cli_arg arg;
	const char *arg_name; /* "FILE"; NULL for a flag */
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
	const char *more;                     /* examples, exit status; may be NULL */
};

struct vms_command;

/* Called once per option (opt set, value NULL for a flag or an absent optional value) and once
 * per operand (opt NULL, value the argument), in command-line order. Returns 0, or non-zero
 * with a one-line message in err (no prefix; the parser reports it as a usage error). */
typedef int (*vms_cli_handler)(void *ctx, const struct vms_cli_option *opt, const char *value,
                               char *err, size_t errlen);

/* Parses argv[1..argc-1] of command c against its option table, calling fn for each option
 * and operand; "--" ends the options. Long options match exactly (no abbreviations). argv is
 * not reordered. Returns 0, or VMS_EXIT_USAGE after reporting the one usage error
 * ("vmsuite: CMD: ..." and a hint) on stderr. */
int vms_cli_parse(const struct vms_command *c, int argc, char **argv, vms_cli_handler fn,
                  void *ctx);

/* The rows of the audio probe's playback options (--device, --latency, --period, --buffer, --rt,
 * --mlock) as `run` and `probe` both take them, with their help from audio-probe/probe.h; each row
 * gets key. The values go to vms_probe_opt_set(). */
#define VMS_CLI_PROBE_OPTIONS(key)                                                                 \
	{"device", 0, VMS_CLI_REQUIRED, "DEV", VMS_PROBE_HELP_DEVICE, (key), 0},                   \
	    {"latency", 0, VMS_CLI_REQUIRED, "NAME", VMS_PROBE_HELP_LATENCY, (key), 0},            \
	    {"period", 0, VMS_CLI_REQUIRED, "MS", VMS_PROBE_HELP_PERIOD, (key), 0},                \
	    {"buffer", 0, VMS_CLI_REQUIRED, "MS", VMS_PROBE_HELP_BUFFER, (key), 0},                \
	    {"rt", 0, VMS_CLI_FLAG, NULL, VMS_PROBE_HELP_RT, (key), 0},                            \
	{                                                                                          \
		"mlock", 0, VMS_CLI_FLAG, NULL, VMS_PROBE_HELP_MLOCK, (key), 0                     \
	}

/* Writes text to f word-wrapped at the help's width (100 columns), ending with a newline; '\n'
 * in text ends a line. */
void vms_cli_print_wrapped(FILE *f, const char *text);

/* Writes command c's help (see struct vms_cli_usage) to f. */
void vms_cli_print_help(FILE *f, const struct vms_command *c);

#endif
