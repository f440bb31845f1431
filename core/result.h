/* The result model: one jansson document per `vmsuite run` ("vmsuite.result/2"), its metric
 * objects (unit, better direction, raw per-run samples), atomic writing and validated loading.
 * Layout documented field by field in docs/result-format.md. */
#ifndef VMS_RESULT_H
#define VMS_RESULT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#define VMS_RESULT_FORMAT         "vmsuite.result/2"
#define VMS_RESULT_FORMAT_PREFIX  "vmsuite.result/"
#define VMS_RESULT_FORMAT_VERSION 2
/* The label of the only variant of a suite whose knobs take one value each (and of every
 * format-1 file). */
#define VMS_RESULT_VARIANT_DEFAULT "default"

/* Metrics are recorded with vms_metric_record() of core/metric.h, through the catalogue. */
/* Pads every metric's samples with null to length n (failed runs have no value). */
void vms_metrics_pad(json_t *metrics, size_t n);
/* The non-null samples of metrics[name] as doubles into a new array; *n gets the count.
 * Returns NULL (and *n = 0) when the metric does not exist. Caller frees. */
double *vms_metric_values(const json_t *metrics, const char *name, size_t *n);

/* A new result document holding the header: format, tool (version, build type, compiler),
 * command_line (argv[0..argc)), label, start_time (start_real, a CLOCK_REALTIME value), then
 * end_time null, complete/interrupted false, exit_status null, protocol {}, fingerprint {},
 * audio null, variants [{"label": "default", "settings": {}}] and workloads []. Callers fill the
 * rest. Never fails (aborts on OOM). */
json_t *vms_result_new(int argc, char **argv, const char *label, double start_real);
/* Sets end_time (now), complete, interrupted and exit_status. */
void vms_result_finish(json_t *doc, int complete, int interrupted, int exit_status);
/* The object in doc's "workloads" whose "name" is name, or NULL; the first such (that of the
 * first variant, the baseline) when the file has several variants. Borrowed reference. */
json_t *vms_result_workload(const json_t *doc, const char *name);
/* The object in doc's "workloads" whose "name" is name and whose "variant" is label (an entry
 * without "variant" counts as VMS_RESULT_VARIANT_DEFAULT; label NULL = the first entry of
 * that name), or NULL. Borrowed reference. */
json_t *vms_result_workload_variant(const json_t *doc, const char *name, const char *label);
/* The labels of doc's variants, in run order (first = baseline): the "variants" array; a
 * document without one has one, VMS_RESULT_VARIANT_DEFAULT. */
size_t vms_result_variant_count(const json_t *doc);
const char *vms_result_variant_label(const json_t *doc, size_t i);

/* Appends look (a new reference, stolen) to doc's adaptive.looks, making both when absent
 * (`vmsuite run -n auto`; docs/result-format.md). Never fails (aborts on OOM). */
void vms_result_add_look(json_t *doc, json_t *look);

/* Serialises doc (keys in insertion order, one-space indent, reals with 12 significant digits
 * in the C locale's notation, a final newline) and writes it atomically to path with
 * vms_write_atomic() flags (0 or VMS_WRITE_NOREPLACE). 0 or -errno; reports nothing. */
int vms_json_write_file(const json_t *doc, const char *path, int flags);
/* Writes doc as vms_json_write_file() would to f (`run -o -`: standard output) and flushes
 * it. 0 or -errno; reports nothing. */
int vms_json_write_stream(const json_t *doc, FILE *f);

enum vms_load_error {
	VMS_LOAD_OK = 0,
	VMS_LOAD_IO,        /* cannot open/read: errno-style message in err */
	VMS_LOAD_NOT_JSON,  /* parse error: line/column in err */
	VMS_LOAD_NOT_OURS,  /* JSON but no "format": "vmsuite.result/N" */
	VMS_LOAD_TOO_NEW,   /* a newer format version than this vmsuite reads */
	VMS_LOAD_MALFORMED, /* ours, but a required field is missing or of the wrong type */
};

/* Loads and validates a result file of format 1 or 2 (values by vms_result_check_values()). A
 * format-1 file is read as one variant: the document gets "variants": [{"label": "default",
 * "settings": {}}] and each workload object "variant": "default" (in memory; "format" stays as the
 * file has it). In a format-2 file "variants" must be a non-empty array of objects with distinct
 * string labels and every workload's "variant" one of them (else VMS_LOAD_MALFORMED). On success
 * returns the document (caller decrefs) and *error = VMS_LOAD_OK. On failure returns NULL, sets
 * *error and writes a one-line lowercase reason (without the file name) into err. */
json_t *vms_result_load(const char *path, enum vms_load_error *error, char *err, size_t errlen);

/* The one check of a result's values, for every reader (vms_result_load() applies it): each
 * numeric sample must be finite and within what a measurement can be (|x| <= 1e12 for a time
 * in s or ms, 1e18 otherwise), and not negative for a metric of the catalogue (they all count
 * or measure). 0, or -EINVAL with "WORKLOAD: METRIC: sample N is X, not a measurement (...)"
 * in err. */
int vms_result_check_values(const json_t *doc, char *err, size_t errlen);

#endif
