/* `vmsuite sysinfo [--format text|json] [--workdir DIR]`: prints the environment fingerprint
 * that `vmsuite run` records (core/sysinfo.c reads /proc, /sys and statfs of DIR). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/builtin.h"
#include "core/sysinfo.h"
#include "core/util.h"

enum { OPT_FORMAT = 256, OPT_WORKDIR };

int cmd_sysinfo(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"format", required_argument, NULL, OPT_FORMAT},
	    {"workdir", required_argument, NULL, OPT_WORKDIR},
	    {NULL, 0, NULL, 0},
	};
	const struct vms_command *cmd = vms_command_find("sysinfo");
	const char *format = "text", *workdir = NULL;
	struct stat st;
	json_t *info;
	int c, ret = VMS_EXIT_OK;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FORMAT: format = optarg; break;
		case OPT_WORKDIR: workdir = optarg; break;
		case ':':
			return vms_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				return vms_usage_error(cmd, "unknown option '-%c'", optopt);
			return vms_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return vms_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
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
