/* placeholder */
#include "core/util.h"
int vms_workloads_placeholder(void);
int vms_workloads_placeholder(void) { return 0; }
