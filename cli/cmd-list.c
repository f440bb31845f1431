/* `vmsuite list`: every workload with what it stresses, its options, defaults and units. */
#include <errno.h>
#include <stdio.h>

#include "cli/builtin.h"
#include "core/machine.h"
#include "core/util.h"
#include "workloads/workload.h"

static const struct vms_cli_option list_options[] = {
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};

const struct vms_cli_usage vms_list_usage = {
    .operands = NULL,
    .about = "Prints every workload: its name, what it stresses, its options with\n"
             "defaults and units, what it needs, and whether it can run here; then the\n"
             "machine profiles `vmsuite run --machine` takes.\n",
    .options = list_options,
    .more = NULL,
};

/* `list` takes no operand (a vms_cli_handler). */
static int list_option(void *ctx, const struct vms_cli_option *opt, const char *val, char *err,
                       size_t errlen)
{
	(void)ctx, (void)opt;
	snprintf(err, errlen, "unexpected argument '%s'", val);
	return -EINVAL;
}

int cmd_list(int argc, char **argv)
{
	size_t i, k;
	int ret;

	if ((ret = vms_cli_parse(vms_command_find("list"), argc, argv, list_option, NULL)))
		return ret;
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
