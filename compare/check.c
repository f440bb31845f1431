/* Refusals before a comparison: --metric names no file has (samples are checked on load, by
 * vms_result_check_values()). Reads the loaded result documents only; no kernel paths. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"
#include "core/metric.h"

int vms_compare_check_metrics(json_t *const *docs, size_t n, const char *const *names,
                              size_t n_names, char *err, size_t errlen)
{
	size_t i, k, w;

	for (i = 0; i < n_names; i++) {
		const struct vms_metric_def *d = vms_metric_find(names[i]);
		int found = d && d->source == VMS_SOURCE_RUNS;
		const json_t *wl;

		for (k = 0; k < n && !found; k++)
			json_array_foreach (json_object_get(docs[k], "workloads"), w, wl)
				found |= json_object_get(json_object_get(wl, "metrics"),
				                         names[i]) != NULL;
		if (!found) {
			snprintf(err, errlen,
			         "--metric %s: no workload of these files has that metric",
			         names[i]);
			return -EINVAL;
		}
	}
	return 0;
}
