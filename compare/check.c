/* Refusals before a comparison: --metric names no file has (samples are checked on load, by
 * vms_result_check_values()). Reads the loaded result documents only; no kernel paths. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"
#include "core/metric.h"

/* Whether some workload of doc has a metric called name in its file. */
static int has_metric(const json_t *doc, const char *name)
{
	struct vms_rdoc d;
	char err[256];
	size_t w, j;
	int found = 0;

	if (vms_rdoc_init(&d, doc, err, sizeof(err)))
		return 0;
	for (w = 0; w < d.n_workloads; w++)
		for (j = 0; j < d.workloads[w].n_metrics; j++)
			found |= !strcmp(d.workloads[w].metrics[j].name, name);
	vms_rdoc_release(&d);
	return found;
}

int vms_compare_check_metrics(json_t *const *docs, size_t n, const char *const *names,
                              size_t n_names, char *err, size_t errlen)
{
	size_t i, k;

	for (i = 0; i < n_names; i++) {
		const struct vms_metric_def *d = vms_metric_find(names[i]);
		int found = d && d->source == VMS_SOURCE_RUNS;

		for (k = 0; k < n && !found; k++)
			found |= has_metric(docs[k], names[i]);
		if (!found) {
			snprintf(err, errlen,
			         "--metric %s: no workload of these files has that metric",
			         names[i]);
			return -EINVAL;
		}
	}
	return 0;
}
