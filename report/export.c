/* Names, verdicts and numbers shared by the lava and kcidb exports (report/export.h). */
#include "report/export.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/escape.h"

const char *vms_export_variant(const struct vms_report_model *m, size_t i)
{
	if (m->rd.n_variants < 2)
		return NULL;
	return m->workloads[i].rd->variant;
}

char *vms_export_name(const struct vms_report_model *m, size_t i)
{
	return vms_name_token(m->workloads[i].rd->name, vms_export_variant(m, i));
}

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

const json_t *vms_export_verdict(const struct vms_report_model *m, size_t *other, char *err,
                                 size_t errlen)
{
	const json_t *cmp = m->opts && m->opts->verdict ? m->opts->verdict : m->rd.verdict_compare;
	const json_t *f;
	size_t i, k = 0, n_others = 0, n_match = 0, match = 0;
	int is_base = 0;

	if (!cmp)
		return NULL;
	if (!str(cmp, "format") || strcmp(str(cmp, "format"), "vmsuite.compare/1") ||
	    !json_is_array(json_object_get(cmp, "workloads"))) {
		if (err)
			snprintf(err, errlen,
			         "the verdict is not a \"vmsuite.compare/1\" document");
		return NULL;
	}
	json_array_foreach (json_object_get(cmp, "files"), i, f) {
		int same =
		    (m->rd.label && str(f, "label") && !strcmp(str(f, "label"), m->rd.label)) ||
		    (m->opts && m->opts->result_name && str(f, "path") &&
		     !strcmp(base_name(str(f, "path")), m->opts->result_name));

		if (json_is_true(json_object_get(f, "base"))) {
			is_base |= same;
			continue;
		}
		if (same) {
			n_match++;
			match = k;
		}
		k++;
	}
	n_others = k;
	if (n_match) { /* the last one: a stored verdict compares the run itself last */
		*other = match;
		return cmp;
	}
	if (n_others == 1 && !is_base) {
		*other = 0;
		return cmp;
	}
	if (err)
		snprintf(err, errlen,
		         is_base
		             ? "it compares others with this file (the base), not this file"
		             : "it compares %zu files with the base and none is this one ('%s')",
		         n_others, m->rd.label ? m->rd.label : "");
	return NULL;
}

/* The compare workload entry for workload i of m. */
static const json_t *cmp_workload(const struct vms_report_model *m, const json_t *cmp, size_t i)
{
	const char *variant = vms_export_variant(m, i);
	const json_t *w;
	size_t k;

	json_array_foreach (json_object_get(cmp, "workloads"), k, w) {
		const char *v = str(w, "variant");

		if (!str(w, "name") || strcmp(str(w, "name"), m->workloads[i].rd->name))
			continue;
		if (variant && v && strcmp(variant, v))
			continue;
		return w;
	}
	return NULL;
}

static const json_t *cmp_metric(const json_t *w, const char *metric)
{
	const json_t *e;
	size_t k;

	json_array_foreach (json_object_get(w, "metrics"), k, e)
		if (str(e, "name") && !strcmp(str(e, "name"), metric))
			return e;
	return NULL;
}

const char *vms_export_metric_verdict(const struct vms_report_model *m, const json_t *cmp,
                                      size_t other, size_t i, const char *metric)
{
	const json_t *e = cmp_metric(cmp_workload(m, cmp, i), metric);

	return str(json_array_get(json_object_get(e, "others"), other), "verdict");
}

int vms_export_regressed(const struct vms_report_model *m, const json_t *cmp, size_t other,
                         size_t i)
{
	const json_t *named = m->rd.verdict_metrics;
	const json_t *w = cmp_workload(m, cmp, i), *e;
	size_t k;

	if (!w)
		return -1;
	/* a --verdict file overrides the stored one, and with it the stored choice of metrics */
	if (m->opts && m->opts->verdict)
		named = NULL;
	json_array_foreach (json_object_get(w, "metrics"), k, e) {
		const char *v = str(json_array_get(json_object_get(e, "others"), other), "verdict");
		int decides = json_is_true(json_object_get(e, "primary"));

		if (json_array_size(named)) {
			const json_t *n;
			size_t j;

			decides = 0;
			json_array_foreach (named, j, n)
				decides |= json_is_string(n) && str(e, "name") &&
				           !strcmp(json_string_value(n), str(e, "name"));
		}
		if (decides && v && !strcmp(v, "regression"))
			return 1;
	}
	return 0;
}

int vms_export_verdict_rank(const char *verdict)
{
	static const char *const none[] = {"-", "missing", "cannot tell", "not comparable"};
	size_t i;

	if (!verdict)
		return -1;
	if (!strcmp(verdict, "regression"))
		return 1;
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (!strcmp(verdict, none[i]))
			return -1;
	return 0;
}

const char *vms_export_number(char *buf, size_t len, double v, int prec)
{
	int dec = prec < 0 ? 0 : prec;

	if (v != floor(v) && isfinite(v) && fabs(v) < 100) {
		int need = 2 - (int)floor(log10(fabs(v)));

		if (need > dec)
			dec = need;
	}
	if (dec > 9)
		dec = 9;
	snprintf(buf, len, "%.*f", dec, v);
	return buf;
}
