/* vmsuite's entry point: the command table (single source for dispatch, `help` and "did you
 * mean"; each command's options and help live with its code), global options, and the final
 * flush-and-check of stdout. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "core/resultdoc.h"
#include "core/util.h"
#include "core/version.h"
#include "workloads/workload.h"

const struct vms_command vms_commands[] = {
    {"run", cmd_run, "run workloads N times each and write a result file", &vms_run_usage},
    {"list", cmd_list, "list the workloads, their options and defaults", &vms_list_usage},
    {"report", cmd_report, "render a saved result file", &vms_report_usage},
    {"sysinfo", cmd_sysinfo, "print the environment fingerprint a run records", &vms_sysinfo_usage},
    {"probe", cmd_probe, "run the audio probe alone (device check, idle baseline)",
     &vms_probe_usage},
    {"compare", cmd_compare, "compare result files: kernel A vs B, with statistics",
     &vms_compare_usage},
    {"cleanup", cmd_cleanup, "undo what a killed run left on the host: cgroup, swap file, knobs",
     &vms_cleanup_usage},
    {"completion", cmd_completion, "print a shell completion script (bash or zsh)",
     &vms_completion_usage},
    /* a script: its help is its own (usage NULL, see vms_command_usage) */
    {"lab", cmd_lab, "boot kernels in QEMU, run vmsuite in each, compare them", NULL},
    {NULL, NULL, NULL, NULL},
};

const struct vms_command *vms_command_find(const char *name)
{
	const struct vms_command *c;

	for (c = vms_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int vms_command_usage(const struct vms_command *c)
{
	if (!c->usage) {
		fflush(stdout);
		return vms_lab_help();
	}
	vms_cli_print_help(stdout, c->name, c->usage);
	return 0;
}

int vms_usage_error(const struct vms_command *c, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vms_cli_usage_verror(c->name, fmt, ap);
	va_end(ap);
	return ret;
}

int vms_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

static void usage(FILE *f)
{
	const struct vms_command *c;

	fprintf(f, "usage: vmsuite [--version] [--help] <command> [<args>]\n\n"
	           "VM stress workloads with an audio skip probe, for people who test Linux "
	           "kernels.\n\nCommands:\n");
	for (c = vms_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(
	    f,
	    "\nSee 'vmsuite help <command>' for a command's options.\n"
	    "Typical session: `vmsuite run -o before.json` on the old kernel, the same on the new\n"
	    "one with -o after.json, then `vmsuite compare before.json after.json`.\n");
}

static int unknown_command(const char *name)
{
	const struct vms_command *c, *best = NULL;
	size_t bestd = 3;

	for (c = vms_commands; c->name; c++) {
		size_t d = vms_edit_distance(name, c->name);

		if (d < bestd) {
			bestd = d;
			best = c;
		}
	}
	vms_error("'%s' is not a vmsuite command; see 'vmsuite --help'", name);
	if (best)
		fprintf(stderr, "\nThe most similar command is\n\t%s\n", best->name);
	return VMS_EXIT_USAGE;
}

static int cmd_help(int argc, char **argv)
{
	const struct vms_command *c;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--roff")) {
		/* the man page's OPTIONS, from the same tables (scripts/update-man.sh) */
		for (c = vms_commands; c->name; c++)
			if (c->usage)
				vms_cli_print_roff(stdout, c->name, c->usage);
		return 0;
	}
	c = vms_command_find(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	return vms_command_usage(c);
}

static int stdout_failed; /* vms_stdout_flush() reported a write error */

int vms_stdout_flush(void)
{
	int e;

	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	e = errno ? errno : EIO;
	if (!stdout_failed)
		vms_error("cannot write to standard output: %s", strerror(e));
	stdout_failed = 1;
	return -e;
}

/* The exit status: the command's, or 128 when stdout could not be written and the command
 * did not see it (one that reported it chose its status: compare's is 2). */
static int finish(int ret)
{
	int seen = stdout_failed;

	if (vms_stdout_flush() && !(seen && ret))
		return VMS_EXIT_FATAL;
	return ret;
}

int main(int argc, char **argv)
{
	const struct vms_command *c;

	/* every command reads results with this build's workloads: which metrics decide for each */
	vms_rdoc_use_workloads(vms_workload_not_primary);
	if (argc < 2) {
		usage(stderr);
		return VMS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("vmsuite %s (%s, %s)\n", VMS_VERSION, VMS_BUILD_TYPE, VMS_C_COMPILER);
		return finish(0);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return finish(cmd_help(1, argv));
	if (!strcmp(argv[1], "help"))
		return finish(cmd_help(argc - 1, argv + 1));
	if (argv[1][0] == '-') {
		vms_error("unknown option '%s'; see 'vmsuite --help'", argv[1]);
		return VMS_EXIT_USAGE;
	}
	c = vms_command_find(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	if (vms_wants_help(argc - 1, argv + 1))
		return finish(vms_command_usage(c));
	return finish(c->fn(argc - 1, argv + 1));
}
