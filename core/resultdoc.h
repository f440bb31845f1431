/* The one reader of result documents: a loaded "vmsuite.result/N" document (vms_result_load)
 * walked once into a typed model — header, machine and protocol facts, variants, workloads with
 * their runs and metrics, the audio baseline, the adaptive looks — with the counts derived from
 * runs[] (failed_runs, oom_kills) made here and nowhere else. report, compare, envdiff, kcidb,
 * lava and the adaptive runs read results through it; ctest style_result_reader keeps
 * json_object_get on result documents out of every other module. No kernel paths.
 *
 * Metric metadata (unit, better, kind) is the catalogue's; the file's copy serves only a metric
 * the catalogue lacks. Whether a metric decides compare's verdict ("primary") is the
 * catalogue's, cleared where the workload says (vms_rdoc_use_workloads()). */
#ifndef VMS_RESULTDOC_H
#define VMS_RESULTDOC_H

#include <jansson.h>
#include <stddef.h>

#include "core/metric.h"
#include "core/result.h"

enum vms_load_error {
	VMS_LOAD_OK = 0,
	VMS_LOAD_IO,        /* cannot open/read: errno-style message in err */
	VMS_LOAD_NOT_JSON,  /* parse error: line/column in err */
	VMS_LOAD_NOT_OURS,  /* JSON but no "format": "vmsuite.result/N" */
	VMS_LOAD_TOO_NEW,   /* a newer format version than this vmsuite reads */
	VMS_LOAD_MALFORMED, /* ours, but a required field is missing or of the wrong type */
};

/* Loads and validates a result file of format 1 or 2 (values by vms_result_check_values(), the
 * types of the fields readers read by vms_rdoc_init(): "malformed result: FIELD: ..."). A
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

/* One metric of a workload (or of the audio baseline), or a count derived from runs[]. */
struct vms_rdoc_metric {
	const char *name;
	const struct vms_metric_def *def; /* the catalogue's row; NULL for a name it lacks */
	const char *unit;                 /* the catalogue's; else the file's; "" when none */
	enum vms_better better;           /* the catalogue's; else the file's */
	int count;                        /* kind "count": compared by runs with an event */
	int primary;                      /* decides compare's verdict */
	int derived;                      /* a count derived from runs[], not in the file */
	int has_samples;                  /* "samples" is an array */
	size_t n_samples;                 /* its length (one per run) */
	double *values;    /* the numeric samples (nulls of failed runs left out), in run order */
	size_t *value_run; /* value_run[i]: the run values[i] belongs to (index in samples) */
	size_t n_values;
};

/* A JSON array of numbers as doubles: v[i] NAN where the file has null or not a number (for
 * a latency histogram, 0 as the file's counts read). v NULL and n 0 when it is not an array. */
struct vms_rdoc_array {
	double *v;
	size_t n;
};

/* The runner's time series of a run ("series": t_s and columns, docs/result-format.md). */
struct vms_rdoc_series {
	struct vms_rdoc_array t; /* t_s */
	struct vms_rdoc_column {
		const char *name;
		struct vms_rdoc_array values;
	} * cols;
	size_t n_cols;
};

/* A gap the probe heard in a window. Figures the file lacks are NAN (start_s), 0 (the rest). */
struct vms_rdoc_gap {
	double start_s, duration_ms;
	const char *cause;      /* NULL when none */
	const json_t *evidence; /* what the probe saw (vms_cause_delays_line), NULL when none */
	double late_ms, major_faults, minor_faults, runqueue_ms, psi_memory_ms, psi_io_ms;
	int has_delay, has_unclipped, ongoing;
	double delay_ms, unclipped_ms;
};

/* The probe's detail of one window (a run's "audio", or the idle baseline's "detail"). */
struct vms_rdoc_window {
	double t0, t1;                                /* 0 when absent */
	struct vms_rdoc_array t, fill_min_ms;         /* its 1 Hz series */
	struct vms_rdoc_array hist_lower, hist_count; /* latency_hist; non-numbers read 0 */
	struct vms_rdoc_gap *gaps;
	size_t n_gaps;
};

/* How a run ended, from runs[].status. */
enum vms_rdoc_status {
	VMS_RDOC_OK,          /* "ok" */
	VMS_RDOC_FAILED,      /* "failed" */
	VMS_RDOC_INTERRUPTED, /* "interrupted": stopped by a signal to vmsuite */
	VMS_RDOC_NO_STATUS,   /* none recorded */
	VMS_RDOC_OTHER,       /* another word (none the runner writes): not ok, so the report
	                       * lists it with the failed runs; no outcome for the derived counts */
};

struct vms_rdoc_run {
	enum vms_rdoc_status status;
	const char *status_name;     /* "ok", "failed", "interrupted"; "ok" when none recorded */
	const char *reason;          /* why it failed; NULL when none was recorded */
	int oom_killed;              /* runs[].oom_killed */
	long index;                  /* runs[].index (1-based, made together with the other
	                              * variants' run of that number); position + 1 when absent */
	double t_start, t_end;       /* monotonic seconds, NAN when absent */
	int disturbed;               /* other processes took the emulated machine's CPU */
	double other_cpu_pct;        /* runs[].busy.other_cpu_pct, NAN when absent */
	double resolution_pct;       /* runs[].busy.resolution_pct (two clock ticks of the run
	                              * window), NAN when absent */
	const char *no_sound_data;   /* why its probe window has no sound data, NULL: it has */
	size_t causes[VMS_CAUSE_NR]; /* its probe window's gaps by cause ("causes"), 0 when none */
	struct vms_rdoc_series *series; /* the runner's time series, NULL when none */
	const json_t *audio;            /* the probe's window detail, NULL when none: */
	struct vms_rdoc_window *window; /* ... as read (gaps, fill, histogram) */
};

struct vms_rdoc_workload {
	const char *name;                /* "?" when the file has none */
	int has_name;                    /* the file names it */
	const char *variant;             /* its variant's label ("default" in a format-1 file) */
	const char *summary;             /* one line, NULL when none */
	const char *skipped;             /* the reason when its status is "skipped", else NULL */
	long version;                    /* the workload's version (1 when the file has none) */
	const json_t *options;           /* the options it ran with (an open map), NULL when none */
	struct vms_rdoc_metric *metrics; /* the file's, in its order */
	size_t n_metrics;
	struct vms_rdoc_metric *derived; /* one per catalogue row of source "runs", in order */
	size_t n_derived;
	struct vms_rdoc_run *runs;
	size_t n_runs;
	size_t n_ok, n_interrupted;
	size_t n_failed; /* runs whose status is neither ok nor interrupted (failed or other) */
	size_t n_oom;    /* ... of them, those the OOM killer ended */
	size_t n_disturbed;
};

struct vms_rdoc_machine {
	int shown;           /* the file says whether a memory limit was set */
	int limited;         /* a memory limit is set: the figures below mean something */
	const char *profile; /* "hron2001", "host", ...; NULL when none */
	double mem_limit_bytes, effective_swap_bytes;
	int cgroup_version;
	int cpus;           /* -1 when not set */
	const char *note;   /* NULL when none */
	const json_t *json; /* the whole object (KCIDB's environment), NULL when none */
};

/* One knob's value in a variant. */
struct vms_rdoc_setting {
	const char *knob;
	const char *value; /* NULL when the file's value is not a string */
};

struct vms_rdoc_variant {
	const char *label;
	const json_t *settings;         /* knob -> value, as the file has it; NULL when none */
	struct vms_rdoc_setting *knobs; /* the same, in the file's order */
	size_t n_knobs;
};

/* A workload at the last look of `run -n auto`. */
struct vms_rdoc_look_workload {
	const char *workload, *decision; /* NULL when absent */
	long runs, baseline_runs;        /* 0 when absent */
	int baseline_too_few;
};

/* What `run -n auto` recorded ("adaptive"; docs/result-format.md). */
struct vms_rdoc_adaptive {
	int present;
	double budget_s, alpha_per_look; /* NAN when absent */
	long max_looks;                  /* -1 when absent */
	size_t n_looks;
	const json_t *stop;    /* {"reason", "text"}, JSON null while running; NULL: absent */
	const char *stop_text; /* why it stopped; NULL when it did not stop by itself */
	const json_t *json;    /* the whole object, NULL when none */
	struct vms_rdoc_look_workload *last_look; /* the workloads of the last look */
	size_t n_last_look;
};

struct vms_rdoc {
	json_t *json;     /* a reference: every string and json pointer below is borrowed from it */
	const char *path; /* the file it was read from, NULL for a document in memory */
	const char *version;                       /* tool.version, NULL when none */
	const char *label, *start_time, *end_time; /* NULL when absent (end_time also null) */
	int has_label, has_start_time, has_tool_version;
	int end_time_state; /* 0 absent, 1 null, 2 a string */
	int complete_state; /* 0 absent, else complete + 1 */
	int complete, interrupted;
	int finished; /* end_time and exit_status are set: vmsuite got to the end */
	int has_exit_status;
	long exit_status;
	const json_t *command_line;    /* array of strings, NULL when none */
	const json_t *protocol;        /* the protocol facts (an open map), NULL when none */
	const json_t *fingerprint;     /* the host facts (an open map), NULL when none */
	const json_t *verdict;         /* "verdict" as `vmsuite lab` stores it, NULL when none: */
	const json_t *verdict_compare; /* its "compare" document ("vmsuite.compare/1") */
	const json_t *verdict_metrics; /* its "metrics" that decide (array of names) */
	struct vms_rdoc_machine machine;
	int with_audio;            /* the suite ran with the audio probe */
	int audio_off;             /* protocol.with_audio is false */
	const json_t *audio;       /* the "audio" object, NULL when none */
	const json_t *audio_facts; /* audio.facts (an open map), NULL when none */
	const char *audio_device;  /* audio.facts.device, NULL when none */
	int audio_virtual;         /* audio.facts.virtual_device: -1 absent, else 0 or 1 */
	int has_baseline;          /* audio.baseline is an object */
	struct vms_rdoc_metric *baseline_metrics;
	size_t n_baseline_metrics;
	const json_t *baseline_detail;           /* NULL when the baseline has no detail */
	struct vms_rdoc_window *baseline_window; /* ... as read; NULL when none */
	const char *baseline_no_sound_data;      /* ... why it has no sound data, NULL: it has */
	size_t baseline_causes[VMS_CAUSE_NR];
	double baseline_t_start;           /* NAN when absent */
	struct vms_rdoc_variant *variants; /* first = baseline; at least one */
	size_t n_variants;
	int variants_listed;         /* the file has a "variants" array: */
	const json_t *variants_json; /* it as the file has it, NULL when none */
	struct vms_rdoc_workload *workloads;
	size_t n_workloads;
	struct vms_rdoc_adaptive adaptive;
};

/* Reads doc (a document vms_result_load() accepted, or one being written by the runner) into
 * d, which takes a reference. Checks the types of the fields it reads: 0, or -EINVAL with
 * "FIELD: what is wrong" (a JSON path, e.g. "workloads[2].runs[0].status: not a string") in
 * err, d left empty. Aborts on OOM. Release with vms_rdoc_release(). */
int vms_rdoc_init(struct vms_rdoc *d, const json_t *doc, char *err, size_t errlen);
/* vms_rdoc_init() for a caller that cannot fail: a document the reader refuses (never one
 * vms_result_load() accepted or the runner wrote) reads as an empty one ({}). */
void vms_rdoc_read(struct vms_rdoc *d, const json_t *doc);
/* vms_result_load() and vms_rdoc_init() of path. 0, or -1 with *error set and a one-line reason
 * that names the field in err (not the file: the caller names it). */
int vms_rdoc_load(struct vms_rdoc *d, const char *path, enum vms_load_error *error, char *err,
                  size_t errlen);
void vms_rdoc_release(struct vms_rdoc *d);

/* The workload of d named name whose variant is label (NULL: the first of that name), or
 * NULL. */
const struct vms_rdoc_workload *vms_rdoc_workload(const struct vms_rdoc *d, const char *name,
                                                  const char *label);
/* The metric name of w (file metrics first, then the derived counts), or NULL. */
const struct vms_rdoc_metric *vms_rdoc_metric(const struct vms_rdoc_workload *w, const char *name);
/* The value of host fact key (fingerprint.KEY.value) when it is a string, else NULL. */
const char *vms_rdoc_fact(const struct vms_rdoc *d, const char *key);
/* The baseline's metric name, or NULL. */
const struct vms_rdoc_metric *vms_rdoc_baseline_metric(const struct vms_rdoc *d, const char *name);

/* Where a workload clears "primary" for a catalogue metric (memload's elapsed_s): fn(workload,
 * metric) returns 1 when it does, 0 when it does not, -1 for a workload it does not know. Set
 * once by a program that links the workload registry (the CLI); without it, or for a workload
 * it does not know, the file's "primary": false (which the runner writes from the same
 * registry) clears it. */
void vms_rdoc_use_workloads(int (*fn)(const char *workload, const char *metric));

#endif
