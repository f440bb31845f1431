/* `vmsuite list`: every workload with what it stresses, its options, defaults and units. */
#include <stdio.h>

#include "cli/builtin.h"
#include "core/machine.h"
#include "core/util.h"
#include "workloads/workload.h"

int cmd_list(int argc, char **argv)
{
	size_t i, k;

	if (argc > 1)
		return vms_usage_error(vms_command_find("list"), "unexpected argument '%s'",
		                       argv[1]);
	for (i = 0; vms_workloads[i]; i++) {
		const struct vms_workload *w = vms_workloads[i];

		printf("%s — %s\n", w->name, w->summary);
		printf("  stresses: %s\n", w->stresses);
		printf("  2001:     %s\n", w->faithful_to);
		printf("  runs:     %ld by default%s\n", w->default_runs,
		       w->needs & VMS_NEED_DISK ? "; needs a disk-backed work directory" : "");
		for (k = 0; k < w->n_options; k++) {
			const struct vms_option_def *d = &w->options[k];
			char def[64];

			snprintf(def, sizeof(def), "%s", d->def ? d->def : "-");
			printf("  %-8s %-11s [%s] %s\n", d->name, def, d->unit, d->help);
		}
		putchar('\n');
	}
	printf("Machine profiles (vmsuite run --machine NAME):\n");
	for (i = 0; vms_machine_profiles[i].name; i++)
		printf("  %-9s %s\n", vms_machine_profiles[i].name,
		       vms_machine_profiles[i].summary);
	printf("\nUse as: vmsuite run -w NAME[:key=value]...   e.g. -w mmap001:bytes=256M\n");
	return 0;
}
