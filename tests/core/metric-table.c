/* Prints the metric catalogue for docs and tests: `metric-table markdown` writes the table that
 * docs/result-format.md holds between its metrics markers, `metric-table names` one recorded
 * metric name a line, `metric-table causes` one gap cause a line, `metric-table primary` the
 * primary metrics as the docs list them between their primary-metrics markers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/metric.h"

static const char *source_name(enum vms_metric_source s)
{
	return s == VMS_SOURCE_RUNNER ? "runner" : s == VMS_SOURCE_PROBE ? "audio probe" : "runs[]";
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "markdown";
	size_t i;

	if (!strcmp(what, "names")) {
		for (i = 0; i < vms_metric_count(); i++)
			if (vms_metric_defs[i].source != VMS_SOURCE_RUNS)
				puts(vms_metric_defs[i].name);
	} else if (!strcmp(what, "primary")) {
		char *names = vms_metric_primary_names(", ");

		puts(names);
		free(names);
	} else if (!strcmp(what, "causes")) {
		puts("| cause | named by | meaning |");
		puts("|---|---|---|");
		for (i = 0; i < VMS_CAUSE_NR; i++) {
			unsigned m = vms_cause_methods((enum vms_cause)i);

			printf("| `%s` | %s | %s |\n", vms_cause_name((enum vms_cause)i),
			       m == (VMS_CAUSE_BY_DELAYACCT | VMS_CAUSE_BY_INFERENCE) ? "both"
			       : m ? vms_cause_method_name(m)
			           : "either (the probe's state)",
			       vms_cause_description((enum vms_cause)i));
		}
	} else if (!strcmp(what, "markdown")) {
		puts("| metric | unit | better | kind | primary | group | from | meaning |");
		puts("|---|---|---|---|---|---|---|---|");
		for (i = 0; i < vms_metric_count(); i++) {
			const struct vms_metric_def *d = &vms_metric_defs[i];

			printf("| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", d->name, d->unit,
			       vms_better_name(d->better), vms_metric_kind_name(d->kind),
			       d->primary ? "yes" : "", vms_metric_group_name(d->group),
			       source_name(d->source), d->description);
		}
	} else {
		fprintf(stderr, "usage: metric-table [markdown|names|causes|primary]\n");
		return 2;
	}
	return ferror(stdout) ? 1 : 0;
}
