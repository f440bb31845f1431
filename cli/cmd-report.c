#include "cli/builtin.h"
#include "core/util.h"
int cmd_report(int argc, char **argv) { (void)argc; (void)argv; return VMS_EXIT_FATAL; }
