/* `vmsuite compare`: placeholder until its issue lands. */
#include "cli/builtin.h"
#include "core/util.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	vms_error("compare: not available in this build yet");
	return VMS_EXIT_FATAL;
}
