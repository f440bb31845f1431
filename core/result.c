/* The result model on jansson: metric objects with raw samples, atomic writing, and loading
 * with a clear reason for every way a file can fail to be a vmsuite result. */
#include "core/result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/metric.h"
#include "core/util.h"
#include "core/version.h"

void vms_metrics_pad(json_t *metrics, size_t n)
{
	const char *name;
	json_t *m;

	json_object_foreach (metrics, name, m) {
		json_t *samples = json_object_get(m, "samples");

		while (json_array_size(samples) < n)
			json_array_append_new(samples, json_null());
	}
}

double *vms_metric_values(const json_t *metrics, const char *name, size_t *n)
{
	json_t *samples = json_object_get(json_object_get(metrics, name), "samples");
	size_t i, k = 0;
	json_t *v;
	double *out;

	*n = 0;
	if (!json_is_array(samples))
		return NULL;
	out = vms_xcalloc(json_array_size(samples) + 1, sizeof(*out));
	json_array_foreach (samples, i, v)
		if (json_is_number(v))
			out[k++] = json_number_value(v);
	*n = k;
	return out;
}

json_t *vms_result_new(int argc, char **argv, const char *label, double start_real)
{
	json_t *doc = json_object(), *cl = json_array();
	char when[64];
	int i;

	for (i = 0; i < argc; i++)
		json_array_append_new(cl, json_string(argv[i]));
	json_object_set_new(doc, "format", json_string(VMS_RESULT_FORMAT));
	json_object_set_new(doc, "tool",
	                    json_pack("{s:s, s:s, s:s, s:s}", "name", "vmsuite", "version",
	                              VMS_VERSION, "build_type", VMS_BUILD_TYPE, "compiler",
	                              VMS_C_COMPILER));
	json_object_set_new(doc, "command_line", cl);
	json_object_set_new(doc, "label", json_string(label));
	json_object_set_new(doc, "start_time",
	                    json_string(vms_format_utc(start_real, when, sizeof(when))));
	json_object_set_new(doc, "end_time", json_null());
	json_object_set_new(doc, "complete", json_false());
	json_object_set_new(doc, "interrupted", json_false());
	json_object_set_new(doc, "exit_status", json_null());
	json_object_set_new(doc, "protocol", json_object());
	json_object_set_new(doc, "fingerprint", json_object());
	json_object_set_new(doc, "audio", json_null());
	json_object_set_new(
	    doc, "variants",
	    json_pack("[{s:s, s:{}}]", "label", VMS_RESULT_VARIANT_DEFAULT, "settings"));
	json_object_set_new(doc, "workloads", json_array());
	return doc;
}

void vms_result_finish(json_t *doc, int complete, int interrupted, int exit_status)
{
	char when[64];

	json_object_set_new(doc, "end_time",
	                    json_string(vms_format_utc(vms_now_real(), when, sizeof(when))));
	json_object_set_new(doc, "complete", json_boolean(complete));
	json_object_set_new(doc, "interrupted", json_boolean(interrupted));
	json_object_set_new(doc, "exit_status", json_integer(exit_status));
}

json_t *vms_result_workload(const json_t *doc, const char *name)
{
	json_t *wl;
	size_t i;

	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const char *n = json_string_value(json_object_get(wl, "name"));

		if (n && !strcmp(n, name))
			return wl;
	}
	return NULL;
}

static const char *variant_of(const json_t *wl)
{
	const char *v = json_string_value(json_object_get(wl, "variant"));

	return v ? v : VMS_RESULT_VARIANT_DEFAULT;
}

json_t *vms_result_workload_variant(const json_t *doc, const char *name, const char *label)
{
	json_t *wl;
	size_t i;

	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const char *n = json_string_value(json_object_get(wl, "name"));

		if (n && !strcmp(n, name) && (!label || !strcmp(variant_of(wl), label)))
			return wl;
	}
	return NULL;
}

size_t vms_result_variant_count(const json_t *doc)
{
	size_t n = json_array_size(json_object_get(doc, "variants"));

	return n ? n : 1;
}

const char *vms_result_variant_label(const json_t *doc, size_t i)
{
	const json_t *vs = json_object_get(doc, "variants");
	const char *l = json_string_value(json_object_get(json_array_get(vs, i), "label"));

	return l ? l : VMS_RESULT_VARIANT_DEFAULT;
}

/* Format 1: one variant, "default". */
static void variants_v1(json_t *doc)
{
	json_t *wl;
	size_t i;

	json_object_set_new(
	    doc, "variants",
	    json_pack("[{s:s, s:{}}]", "label", VMS_RESULT_VARIANT_DEFAULT, "settings"));
	json_array_foreach (json_object_get(doc, "workloads"), i, wl)
		if (json_is_object(wl))
			json_object_set_new(wl, "variant", json_string(VMS_RESULT_VARIANT_DEFAULT));
}

/* Format 2: the variants and every workload's variant. 0 or -EINVAL with the reason. */
static int variants_check(const json_t *doc, char *err, size_t errlen)
{
	const json_t *vs = json_object_get(doc, "variants"), *v, *wl;
	size_t i, k;

	if (!json_is_array(vs) || !json_array_size(vs)) {
		snprintf(err, errlen, "malformed result: no \"variants\" array");
		return -EINVAL;
	}
	json_array_foreach (vs, i, v) {
		const char *l = json_string_value(json_object_get(v, "label"));

		if (!l || !json_is_object(json_object_get(v, "settings"))) {
			snprintf(err, errlen,
			         "malformed result: variant %zu has no \"label\" or \"settings\"",
			         i + 1);
			return -EINVAL;
		}
		for (k = 0; k < i; k++)
			if (!strcmp(l, vms_result_variant_label(doc, k))) {
				snprintf(err, errlen,
				         "malformed result: two variants labelled '%s'", l);
				return -EINVAL;
			}
	}
	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const char *l = json_string_value(json_object_get(wl, "variant"));

		if (!json_is_object(wl))
			continue;
		for (k = 0; l && k < json_array_size(vs); k++)
			if (!strcmp(l, vms_result_variant_label(doc, k)))
				break;
		if (!l || k == json_array_size(vs)) {
			snprintf(err, errlen,
			         "malformed result: workload %zu names no variant of \"variants\"",
			         i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

void vms_result_add_look(json_t *doc, json_t *look)
{
	json_t *ad = json_object_get(doc, "adaptive"), *looks;

	if (!json_is_object(ad)) {
		ad = json_object();
		json_object_set_new(doc, "adaptive", ad);
	}
	looks = json_object_get(ad, "looks");
	if (!json_is_array(looks)) {
		looks = json_array();
		json_object_set_new(ad, "looks", looks);
	}
	json_array_append_new(looks, look);
}

/* The text of doc as result files hold it (vms_json_write_file()), in *len bytes; NULL on
 * OOM. Caller frees. */
static char *json_text(const json_t *doc, size_t *len)
{
	char *text =
	    json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));

	if (!text)
		return NULL;
	*len = strlen(text);
	text = vms_xrealloc(text, *len + 2);
	text[(*len)++] = '\n';
	text[*len] = '\0';
	return text;
}

int vms_json_write_file(const json_t *doc, const char *path, int flags)
{
	size_t len;
	char *text = json_text(doc, &len);
	int ret;

	if (!text)
		return -ENOMEM;
	ret = vms_write_atomic(path, text, len, flags);
	free(text);
	return ret;
}

int vms_json_write_stream(const json_t *doc, FILE *f)
{
	size_t len;
	char *text = json_text(doc, &len);
	int ret = 0;

	if (!text)
		return -ENOMEM;
	if (fwrite(text, 1, len, f) != len || fflush(f))
		ret = -(errno ? errno : EIO);
	free(text);
	return ret;
}

/* Largest magnitude a sample in unit may have: a time beyond 1e12 s or ms (more than 31 years)
 * or any other value beyond 1e18 (an exabyte, 10^18 events) is no measurement, and such values
 * overflow the statistics' squares. */
static double sample_limit(const char *unit)
{
	return unit && (!strcmp(unit, "s") || !strcmp(unit, "ms")) ? 1e12 : 1e18;
}

int vms_result_check_values(const json_t *doc, char *err, size_t errlen)
{
	const json_t *wl, *mo, *v;
	const char *name;
	size_t i, j;

	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const char *wname = json_string_value(json_object_get(wl, "name"));

		json_object_foreach ((json_t *)json_object_get(wl, "metrics"), name, mo) {
			const struct vms_metric_def *d = vms_metric_find(name);
			const char *unit = json_string_value(json_object_get(mo, "unit"));
			double lim = sample_limit(d ? d->unit : unit); /* the catalogue wins */

			json_array_foreach (json_object_get(mo, "samples"), j, v) {
				double x = json_number_value(v);
				char why[32];

				if (!json_is_number(v))
					continue;
				if (!isfinite(x) || fabs(x) > lim)
					snprintf(why, sizeof(why), "beyond %g", lim);
				else if (d && x < 0) /* every catalogue metric counts or measures */
					snprintf(why, sizeof(why), "negative");
				else
					continue;
				snprintf(err, errlen,
				         "%s: %s: sample %zu is %g, not a measurement (%s)",
				         wname ? wname : "?", name, j + 1, x, why);
				return -EINVAL;
			}
		}
	}
	return 0;
}

json_t *vms_result_load(const char *path, enum vms_load_error *error, char *err, size_t errlen)
{
	json_error_t jerr;
	const char *format;
	json_t *doc;
	FILE *f;
	long version;
	char *end;

	f = fopen(path, "re");
	if (!f) {
		*error = VMS_LOAD_IO;
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	doc = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	if (!doc) {
		*error = VMS_LOAD_NOT_JSON;
		if (jerr.line > 0)
			snprintf(err, errlen, "not JSON (line %d, column %d: %s)", jerr.line,
			         jerr.column, jerr.text);
		else
			snprintf(err, errlen, "not JSON (%s)", jerr.text);
		return NULL;
	}
	format = json_string_value(json_object_get(doc, "format"));
	if (!json_is_object(doc) || !format ||
	    strncmp(format, VMS_RESULT_FORMAT_PREFIX, strlen(VMS_RESULT_FORMAT_PREFIX))) {
		*error = VMS_LOAD_NOT_OURS;
		snprintf(err, errlen, "not a vmsuite result (no \"format\": \"%s\")",
		         VMS_RESULT_FORMAT);
		goto fail;
	}
	version = strtol(format + strlen(VMS_RESULT_FORMAT_PREFIX), &end, 10);
	if (*end || version < 1) {
		*error = VMS_LOAD_NOT_OURS;
		snprintf(err, errlen, "unknown result format '%s'", format);
		goto fail;
	}
	if (version > VMS_RESULT_FORMAT_VERSION) {
		*error = VMS_LOAD_TOO_NEW;
		snprintf(
		    err, errlen,
		    "result format '%s' is newer than this vmsuite reads (%s); upgrade vmsuite",
		    format, VMS_RESULT_FORMAT);
		goto fail;
	}
	if (!json_is_array(json_object_get(doc, "workloads"))) {
		*error = VMS_LOAD_MALFORMED;
		snprintf(err, errlen, "malformed result: no \"workloads\" array");
		goto fail;
	}
	if (version == 1)
		variants_v1(doc);
	else if (variants_check(doc, err, errlen)) {
		*error = VMS_LOAD_MALFORMED;
		goto fail;
	}
	if (vms_result_check_values(doc, err, errlen)) {
		*error = VMS_LOAD_MALFORMED;
		goto fail;
	}
	*error = VMS_LOAD_OK;
	return doc;
fail:
	json_decref(doc);
	return NULL;
}
