/* The subcommands of vmsuite. Adding a command: write cli/cmd-NAME.c with
 * `int cmd_NAME(int argc, char **argv)` (argv[0] is the command name) and its usage (an option
 * table and help text, core/options.h), declare both here, add one line to the table in
 * cli/vmsuite.c (name, summary, usage), and document it in docs/vmsuite.1 and the README.
 * Commands return an exit code from core/util.h. */
#ifndef VMS_BUILTIN_H
#define VMS_BUILTIN_H

#include "core/options.h"

struct vms_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const struct vms_cli_usage
	    *usage; /* options and help (`vmsuite help NAME`, `NAME --help`); NULL: lab's script */
};

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_completion(int argc, char **argv);
/* `vmsuite lab`: execs the lab script (cli/cmd-lab.c); returns only on failure. */
int cmd_lab(int argc, char **argv);
/* Execs the lab script's --help; returns only on failure (after saying why), with exit code
 * VMS_EXIT_FATAL. */
int vms_lab_help(void);

extern const struct vms_cli_usage vms_run_usage, vms_list_usage, vms_report_usage,
    vms_sysinfo_usage, vms_probe_usage, vms_compare_usage, vms_cleanup_usage, vms_completion_usage;

/* Appends word to the space-separated list *words (NULL: empty), for values() functions. */
void vms_words_add(char **words, const char *word);

/* The command table; NULL-name terminated. */
extern const struct vms_command vms_commands[];
const struct vms_command *vms_command_find(const char *name);
/* Prints the command's help to stdout. Returns an exit code: 0, or VMS_EXIT_FATAL when the
 * help could not be shown (lab: the script is missing; said why). */
int vms_command_usage(const struct vms_command *c);
/* Reports a usage error for command c ("vmsuite: <cmd>: <msg>") and a hint; returns 129. */
int vms_usage_error(const struct vms_command *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Flushes stdout and checks it for a write error since the start. On an error reports it once
 * ("cannot write to standard output: ..." with errno as the failed write left it, else EIO;
 * callers that need the cause clear errno before writing) and returns -errno; later calls
 * return the error without saying it again. A command that reported it this way keeps its
 * own exit status; otherwise main exits 128 on it. 0 when all written. */
int vms_stdout_flush(void);
/* True when argv holds -h or --help before any "--"; commands call it first. */
int vms_wants_help(int argc, char **argv);

#endif
