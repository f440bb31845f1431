/* `vmsuite sysinfo [--format text|json] [--workdir DIR]`: prints the environment fingerprint
 * that `vmsuite run` records (core/sysinfo.c reads /proc, /sys and statfs of DIR). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/builtin.h"
#include "core/sysinfo.h"
#include "core/util.h"

enum sysinfo_key { SYSINFO_FORMAT, SYSINFO_WORKDIR };

static const struct vms_cli_option sysinfo_options[] = {
    {"format", 0, VMS_CLI_REQUIRED, "FORMAT",
     "text (default): aligned \"key  value  source\" lines, one per sysctl;\n"
     "json: the object a result file stores under \"fingerprint\"",
     SYSINFO_FORMAT, 0},
    {"workdir", 0, VMS_CLI_REQUIRED, "DIR",
     "describe the filesystem of DIR (default: .); give the directory you\n"
     "pass to `vmsuite run --workdir`",
     SYSINFO_WORKDIR, 0},
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};

/* What completes the value of a sysinfo option (struct vms_cli_usage's values). */
static char *sysinfo_values(const struct vms_cli_option *o)
{
	if (!o)
		return NULL;
	return vms_xstrdup(o->key == SYSINFO_FORMAT ? "text json" : VMS_CLI_DIRS);
}

const struct vms_cli_usage vms_sysinfo_usage = {
    .operands = NULL,
    .about = "Prints the environment fingerprint that `vmsuite run` stores in every result "
             "file: kernel\n"
             "release/version/cmdline, every /proc/sys/vm knob, THP, swap devices, memory, CPU "
             "model/\n"
             "count/governor, page size, the work directory's filesystem and mount options, "
             "PSI, cgroup,\n"
             "ALSA cards and the vmsuite build, each with where it was read. Keys: "
             "docs/sysinfo.md.\n",
    .options = sysinfo_options,
    .more = "Exit status: 0 ok; 128 output cannot be written; 129 usage error.\n",
    .values = sysinfo_values,
};

struct sysinfo_args {
	const char *format, *workdir;
};

/* One option or operand of `sysinfo` (a vms_cli_handler). */
static int sysinfo_option(void *ctx, const struct vms_cli_option *opt, const char *val, char *err,
                          size_t errlen)
{
	struct sysinfo_args *a = ctx;

	if (!opt) {
		snprintf(err, errlen, "unexpected argument '%s'", val);
		return -EINVAL;
	}
	if (opt->key == SYSINFO_FORMAT)
		a->format = val;
	else
		a->workdir = val;
	return 0;
}

int cmd_sysinfo(int argc, char **argv)
{
	const struct vms_command *cmd = vms_command_find("sysinfo");
	struct sysinfo_args a = {.format = "text"};
	const char *format, *workdir;
	struct stat st;
	json_t *info;
	int ret;

	if ((ret = vms_cli_parse(cmd->name, cmd->usage, argc, argv, sysinfo_option, &a)))
		return ret;
	format = a.format, workdir = a.workdir;
	if (strcmp(format, "text") && strcmp(format, "json"))
		return vms_usage_error(cmd, "unknown format '%s' (text or json)", format);
	if (workdir && stat(workdir, &st))
		return vms_usage_error(cmd, "cannot use work directory '%s': %s", workdir,
		                       strerror(errno));
	if (workdir && !S_ISDIR(st.st_mode))
		return vms_usage_error(cmd, "work directory '%s' is not a directory", workdir);

	info = vms_sysinfo_collect(workdir);
	if (!strcmp(format, "json")) {
		if (json_dumpf(info, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
		    fputc('\n', stdout) == EOF)
			ret = VMS_EXIT_FATAL;
	} else if (vms_sysinfo_write_text(stdout, info)) {
		ret = VMS_EXIT_FATAL;
	}
	json_decref(info);
	return ret; /* a write error is reported once, by the dispatcher's check of stdout */
}
