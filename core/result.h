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

/* The "adaptive" object of doc to fill in, NULL when there is none yet (borrowed; the
 * writer's access: results are read with core/resultdoc.h). */
json_t *vms_result_adaptive(json_t *doc);
/* Sets workloads[i].runs_planned of doc to n (nothing when there is no such entry). */
void vms_result_set_runs_planned(json_t *doc, size_t i, long n);
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

#endif
