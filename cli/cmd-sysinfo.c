/* `vmsuite sysinfo`: placeholder until its issue lands. */
#include "cli/builtin.h"
#include "core/util.h"

int cmd_sysinfo(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	vms_error("sysinfo: not available in this build yet");
	return VMS_EXIT_FATAL;
}
