/* `vmsuite list`: every workload with what it stresses, its options, defaults and units, and
 * whether it can run here; the machine profiles with their default plans. Reads /proc/meminfo,
 * the cgroup hierarchy and statfs(2) of the current directory (the default work directory). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/builtin.h"
#include "core/machine.h"
#include "core/util.h"
#include "workloads/plan.h"
#include "workloads/workload.h"

static void print_needs(const struct vms_workload *w)
{
	static const struct {
		unsigned need;
		const char *text;
	} needs[] = {
	    {VMS_NEED_DISK, "a disk-backed work directory"},
	    {VMS_NEED_ROOT, "root"},
	    {VMS_NEED_SWAP, "swap"},
	};
	size_t i, n = 0;

	for (i = 0; i < VMS_ARRAY_SIZE(needs); i++)
		if (w->needs & needs[i].need)
			printf("%s%s", n++ ? ", " : "; needs ", needs[i].text);
}

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
	struct vms_machine_request req = {0};
	struct vms_machine *m;
	const struct vms_profile_plan *pp;
	const struct vms_plan_step *s;
	int have_machine;
	size_t i, k;
	int ret;

	if ((ret = vms_cli_parse("list", &vms_list_usage, argc, argv, list_option, NULL)))
		return ret;
	/* "can run here" is for the machine `vmsuite run` would use by default */
	m = vms_xcalloc(1, sizeof(*m));
	have_machine = !vms_machine_resolve(m, &req);
	for (i = 0; vms_workloads[i]; i++) {
		const struct vms_workload *w = vms_workloads[i];
		char why[512];

		printf("%s — %s\n", w->name, w->summary);
		printf("  stresses: %s\n", w->stresses);
		printf("  2001:     %s\n", w->faithful_to);
		printf("  runs:     %ld by default", w->default_runs);
		print_needs(w);
		putchar('\n');
		if (!have_machine)
			printf("  can run here: unknown\n");
		else if (vms_workload_available(w, &m->facts, 0, why, sizeof(why)))
			printf("  can run here: no: %s\n", why);
		else
			printf("  can run here: yes\n");
		for (k = 0; k < w->n_options; k++) {
			const struct vms_option_def *d = &w->options[k];
			char def[64];

			snprintf(def, sizeof(def), "%s", d->def ? d->def : "-");
			printf("  %-8s %-11s [%s] %s\n", d->name, def, d->unit, d->help);
		}
		putchar('\n');
	}
	printf("Machine profiles (vmsuite run --machine NAME):\n");
	for (i = 0; vms_machine_profiles[i].name; i++) {
		printf("  %-9s %s\n", vms_machine_profiles[i].name,
		       vms_machine_profiles[i].summary);
		pp = vms_profile_plan_find(vms_machine_profiles[i].name);
		printf("  %-9s plan:", "");
		for (s = pp ? pp->steps : NULL; s && s->spec; s++)
			printf("%s -w %s x %ld", s == pp->steps ? "" : ",", s->spec, s->runs);
		printf("%s\n", pp ? "" : " none (give -w)");
	}
	if (have_machine)
		printf("\n\"can run here\" is for the default machine here (%s) with the work "
		       "directory '.' (%s)\n",
		       m->profile->name, m->facts.fs_type[0] ? m->facts.fs_type : "unknown");
	printf("\nUse as: vmsuite run -w NAME[:key=value]...   e.g. -w mmap001:bytes=256M\n");
	free(m);
	return 0;
}
