/* Refusals before a comparison: --metric names no file has, and samples no run can produce.
 * Reads the loaded result documents only; no kernel paths. */
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

/* Largest magnitude a sample of a metric in unit may have (docs/compare.md): a time beyond
 * 1e12 s or ms (more than 31 years) or any other value beyond 1e18 (an exabyte, 10^18
 * events) is no measurement, and such values overflow the statistics' squares. */
static double sample_limit(const char *unit)
{
	return unit && (!strcmp(unit, "s") || !strcmp(unit, "ms")) ? 1e12 : 1e18;
}

int vms_compare_check_doc(const json_t *doc, char *err, size_t errlen)
{
	const json_t *wl, *mo, *v;
	const char *name;
	size_t i, j;

	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const char *wname = json_string_value(json_object_get(wl, "name"));

		json_object_foreach ((json_t *)json_object_get(wl, "metrics"), name, mo) {
			const char *unit = json_string_value(json_object_get(mo, "unit"));
			const struct vms_metric_def *d = vms_metric_find(name);
			double lim = sample_limit(d ? d->unit : unit);

			json_array_foreach (json_object_get(mo, "samples"), j, v) {
				double x = json_number_value(v);

				if (!json_is_number(v) || (isfinite(x) && fabs(x) <= lim))
					continue;
				snprintf(err, errlen,
				         "%s: %s: sample %zu is %g, not a measurement (beyond %g)",
				         wname ? wname : "?", name, j + 1, x, lim);
				return -EINVAL;
			}
		}
	}
	return 0;
}
