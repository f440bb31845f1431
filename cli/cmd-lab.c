/* `vmsuite lab ...`: the kernel lab is a shell script (lab/vmsuite-lab.sh, installed as
 * libexec/vmsuite/vmsuite-lab), dispatched like git's shell subcommands: this command finds the
 * script, tells it which vmsuite build, ALSA plugin and sample MP3 to put in the guest, and
 * execs it with the arguments. Its options and help live in the script (`vmsuite lab --help`,
 * `vmsuite help lab`); docs/kernel-lab.md is the guide. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio-probe/probe-internal.h"
#include "cli/builtin.h"
#include "core/util.h"
#include "core/version.h"

/* The directory of the running binary (…/bin or the build tree's cli), without a slash. */
static int exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

/* The lab script: $VMSUITE_LAB_SCRIPT; else <prefix>/libexec/vmsuite/vmsuite-lab next to an
 * installed binary; else the source tree's, for a binary of the build tree. NULL if none, after
 * saying where it looked and how to get the script. */
static char *lab_script(void)
{
	const char *env = getenv("VMSUITE_LAB_SCRIPT");
	char dir[PATH_MAX], *path, *slash, *installed = NULL, *source = NULL, *looked;

	if (env && *env) {
		if (!access(env, X_OK))
			return vms_xstrdup(env);
		vms_error(
		    "lab: VMSUITE_LAB_SCRIPT names '%s', which is not an executable file (%s); "
		    "unset it to use the installed script",
		    env, strerror(errno));
		return NULL;
	}
	if (exe_dir(dir, sizeof(dir))) {
		vms_error(
		    "lab: cannot find the lab script: cannot find my own binary (%s); set "
		    "VMSUITE_LAB_SCRIPT to the script (lab/vmsuite-lab.sh of the source tree)",
		    strerror(errno));
		return NULL;
	}
	if (!strcmp(dir, VMS_BINARY_DIR "/cli")) {
		path = vms_xasprintf("%s/lab/vmsuite-lab.sh", VMS_SOURCE_DIR);
		if (!access(path, X_OK))
			return path;
		source = path;
	}
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		path = vms_xasprintf("%s/%s/vmsuite/vmsuite-lab", dir, VMS_INSTALL_LIBEXECDIR_REL);
		if (!access(path, X_OK)) {
			free(source);
			return path;
		}
		installed = path;
	}
	looked = installed && source ? vms_xasprintf("'%s' and '%s'", installed, source)
	         : installed         ? vms_xasprintf("'%s'", installed)
	         : source            ? vms_xasprintf("'%s'", source)
	                             : vms_xstrdup("no place (the binary is in '/')");
	vms_error(
	    "lab: cannot find the lab script: looked for %s; it is installed with vmsuite "
	    "(`cmake --install build` puts it in <prefix>/libexec/vmsuite/vmsuite-lab next to "
	    "<prefix>/bin/vmsuite), and a build tree's binary uses lab/vmsuite-lab.sh of its "
	    "source tree; or set VMSUITE_LAB_SCRIPT to the script",
	    looked);
	free(looked);
	free(installed);
	free(source);
	return NULL;
}

int cmd_lab(int argc, char **argv)
{
	char exe[PATH_MAX], *script = lab_script(), *plugin, *mp3;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (!script)
		return VMS_EXIT_FATAL; /* said where it looked */
	if (n <= 0) {
		vms_error("lab: cannot find my own binary: %s", strerror(errno));
		free(script);
		return VMS_EXIT_FATAL;
	}
	exe[n] = '\0';
	plugin = vms_vclock_plugin_path();
	mp3 = vms_sample_mp3_path();
	if (setenv("VMSUITE_LAB_VMSUITE", exe, 1) || setenv("VMSUITE_LAB_PLUGIN", plugin, 1) ||
	    setenv("VMSUITE_LAB_MP3", mp3, 1)) {
		vms_error("lab: cannot set the environment: %s", strerror(errno));
		return VMS_EXIT_FATAL;
	}
	free(plugin);
	free(mp3);
	fflush(stdout);
	argv[0] = script;
	execv(script, argv);
	vms_error("lab: cannot run %s: %s", script, strerror(errno));
	free(script);
	(void)argc;
	return VMS_EXIT_FATAL;
}

/* `vmsuite help lab` and `vmsuite lab --help`: the script's own help. */
int vms_lab_help(void)
{
	char *argv[] = {(char *)"lab", (char *)"--help", NULL};

	return cmd_lab(2, argv);
}
