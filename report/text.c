/* placeholder */
#include "core/util.h"
int vms_report_placeholder(void);
int vms_report_placeholder(void) { return 0; }
