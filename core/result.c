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

json_t *vms_result_adaptive(json_t *doc)
{
	json_t *ad = json_object_get(doc, "adaptive");

	return json_is_object(ad) ? ad : NULL;
}

void vms_result_set_runs_planned(json_t *doc, size_t i, long n)
{
	json_t *wl = json_array_get(json_object_get(doc, "workloads"), i);

	if (json_is_object(wl))
		json_object_set_new(wl, "runs_planned", json_integer(n));
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
