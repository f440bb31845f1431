/* The metric catalogue: every metric vmsuite records, with its unit, better direction, kind,
 * group, label, display precision and meaning, and the table of gap causes. Producers (the
 * runner, the audio probe) write through it and renderers read from it; docs/result-format.md
 * lists the same table (checked by a test). No kernel paths.
 *
 * Adding a metric:
 *   1. its row in vms_metric_defs (core/metric.c): name, unit, better, kind, primary, group,
 *      source, label, precision, description;
 *   2. its producer: vms_metric_record() in workloads/runner.c (source runner) or
 *      audio-probe/probe-metrics.c (source probe); a runs[]-derived one (source runs) in
 *      derived_make() of core/resultdoc.c, the one reader of results;
 *   3. the table in docs/result-format.md from `build/tests/core/metric-table markdown`
 *      (ctest metric_docs checks it, and the primary lists of help and docs);
 *   4. a metric a real run records changes tests/cli/golden/real-names.txt
 *      (scripts/update-goldens.sh).
 * The text, markdown, HTML and JSON reports, compare and KCIDB read its row.
 * Adding a gap cause: see enum vms_cause below. */
#ifndef VMS_METRIC_H
#define VMS_METRIC_H

#include <jansson.h>
#include <stddef.h>

enum vms_better {
	VMS_BETTER_LOWER,
	VMS_BETTER_HIGHER,
	VMS_BETTER_NONE, /* informational: a size, a setting */
};

/* "lower"/"higher"/"none". */
const char *vms_better_name(enum vms_better b);

enum vms_metric_kind {
	VMS_KIND_GAUGE, /* a measured amount: compared by its values */
	VMS_KIND_COUNT, /* a count of events that is mostly zero: compared by runs with one */
};

/* Where a metric belongs in a report. */
enum vms_metric_group {
	VMS_GROUP_WORKLOAD, /* what the workload did: bytes allocated, its own rate */
	VMS_GROUP_TIME,     /* wait4 rusage times */
	VMS_GROUP_PROCESS,  /* the rest of the workload's rusage: faults, RSS, switches, blocks */
	VMS_GROUP_RECLAIM,  /* system-wide /proc/vmstat deltas */
	VMS_GROUP_PRESSURE, /* system-wide PSI deltas */
	VMS_GROUP_CGROUP,   /* the emulated machine's memory cgroup */
	VMS_GROUP_MACHINE,  /* what else used the emulated machine's CPUs during the run */
	VMS_GROUP_SOUND,    /* the audio probe: what a listener hears */
	VMS_GROUP_LATENCY,  /* the audio probe: wake-up lateness and buffer headroom */
	VMS_GROUP_PROBE,    /* the audio probe's own cost */
	VMS_GROUP_RUNS,     /* derived from the runs' outcomes, not recorded as samples */
	VMS_GROUP_NR
};

enum vms_metric_source {
	VMS_SOURCE_RUNNER, /* recorded per run by the runner */
	VMS_SOURCE_PROBE,  /* recorded per window by the audio probe */
	VMS_SOURCE_RUNS,   /* derived by readers from runs[] (a run counts 1 or 0) */
};

struct vms_metric_def {
	const char *name; /* JSON key: lowercase, unit in its own field */
	const char *unit; /* "s", "ms", "bytes", "pages", ... */
	enum vms_better better;
	enum vms_metric_kind kind;
	int primary; /* decides compare's verdict, unless the workload says otherwise */
	enum vms_metric_group group;
	enum vms_metric_source source;
	const char *label; /* short human name for tables */
	int precision;     /* decimals when a mean is shown */
	const char *description;
};

/* The catalogue, in report order; vms_metric_count() rows. */
extern const struct vms_metric_def vms_metric_defs[];
size_t vms_metric_count(void);
/* The row called name, or NULL. */
const struct vms_metric_def *vms_metric_find(const char *name);
/* "workload", "time", ... "runs". */
const char *vms_metric_group_name(enum vms_metric_group g);
/* "gauge" or "count". */
const char *vms_metric_kind_name(enum vms_metric_kind k);
/* The names of the primary metrics (the catalogue's primary column), in catalogue order,
 * joined by sep: "pages_touched_per_s, elapsed_s, ..." for ", ". A new string; caller frees.
 * Help texts and docs list the primary metrics from here (checked by the metric_docs test). */
char *vms_metric_primary_names(const char *sep);

/* Records metrics[name].samples[run] = value for a catalogue metric, creating the metric object
 *   {"unit", "better", "primary", "kind", "samples": []}
 * from its row on first use and padding samples with null up to run. A name the catalogue
 * lacks is a bug in the caller: it is reported and the program aborts. Never fails otherwise
 * (aborts on OOM). */
void vms_metric_record(json_t *metrics, const char *name, size_t run, double value);
/* Overrides the "primary" flag of metrics[name] (a property of a workload and a metric: a
 * fixed-duration workload's elapsed time is not a result). No-op when absent. */
void vms_metric_set_primary(json_t *metrics, const char *name, int primary);

/* Why a gap in the music happened, in the order reports list them. Two methods name them:
 * "delayacct" from the player's own delay accounting (taskstats), "inference" from its faults,
 * schedstat and system PSI when delay accounting is unavailable (docs/audio-probe.md).
 *
 * Adding a gap cause:
 *   1. a value here and its row in vms_cause_defs (core/metric.c): name, label, description,
 *      methods, evidence key, band colour, hatch pattern;
 *   2. its producer in the audio probe: what measures it (audio-probe/probe-delay.c and
 *      probe-player.c fill struct vms_gap_evidence, audio-probe/probe-internal.h) and the rule
 *      that names it (vms_probe_classify(), probe-metrics.c, which also writes the evidence);
 *   3. the causes table in docs/result-format.md from `build/tests/core/metric-table causes`
 *      (checked by ctest metric_docs) and the rule in docs/audio-probe.md, Causes.
 * The help of `vmsuite probe`, the HTML stylesheet, hatches, bands, hover text and legend, the
 * result's `causes`, compare and KCIDB read the row (ctest extra_cause proves it). */
enum vms_cause {
	VMS_CAUSE_PAGING,      /* inference: the player took major faults */
	VMS_CAUSE_RUNQUEUE,    /* it waited to run for at least half of its lateness */
	VMS_CAUSE_SWAPIN,      /* delayacct: it waited for its pages to come back from swap */
	VMS_CAUSE_RECLAIM,     /* delayacct: it reclaimed memory itself (direct reclaim) */
	VMS_CAUSE_THRASHING,   /* delayacct: it waited for a refault of a page it had just lost */
	VMS_CAUSE_IO,          /* I/O: its block I/O delay (delayacct), PSI io (inference) */
	VMS_CAUSE_COMPACTION,  /* delayacct: it compacted memory for an allocation */
	VMS_CAUSE_DECODE,      /* its own CPU time explains the lateness */
	VMS_CAUSE_UNEXPLAINED, /* none of the above */
	VMS_CAUSE_PROBE_DIED,  /* the probe process died: the sound stopped for good */
#ifdef VMS_TEST_EXTRA_CAUSE
	VMS_CAUSE_TEST_EXTRA, /* only in the test build that proves a cause is one row */
#endif
	VMS_CAUSE_NR
};
/* How causes were named: bits of a cause's `methods`. */
#define VMS_CAUSE_BY_DELAYACCT 1u
#define VMS_CAUSE_BY_INFERENCE 2u

/* One gap cause: everything the help, reports and compare show of it. */
struct vms_cause_def {
	const char *name;        /* in result files and compare ("paging"); its band's CSS class
	                          * is gap-NAME and its hatch pattern pat-NAME */
	const char *label;       /* in a gap's hover text before its delay ("swap-in") */
	const char *description; /* one line, for legends, help and docs */
	unsigned methods;        /* VMS_CAUSE_BY_* bits that can name it; 0: either (probe_died) */
	/* the key of the player's delay total for it in a gap's evidence ("swapin_ms"), listed
	 * among "the player's own delays" of the hover text; NULL when no delay total names it */
	const char *evidence;
	const char *stroke; /* the outline colour of its band ("#b3261e") */
	/* the SVG <pattern> its band is filled with, after `<pattern id="pat-NAME" `: attributes
	 * and content, closed by the writer; NULL: the cause shares unexplained's pattern */
	const char *pattern;
};

/* The causes, indexed by enum vms_cause. */
extern const struct vms_cause_def vms_cause_defs[VMS_CAUSE_NR];
/* "delayacct" or "inference" for one of the bits above. */
const char *vms_cause_method_name(unsigned method);
/* The methods (VMS_CAUSE_BY_* bits) that can name cause c; 0 for probe_died, which is named by
 * what happened to the probe, under either method. */
unsigned vms_cause_methods(enum vms_cause c);
/* "paging", "runqueue", ...; "unexplained" for an out-of-range value. */
const char *vms_cause_name(enum vms_cause c);
/* The one-line meaning of a cause, for legends and docs. */
const char *vms_cause_description(enum vms_cause c);
/* The cause called name, or -1. */
int vms_cause_find(const char *name);
/* The names of all causes in report order, joined by sep: "paging, runqueue, ...". A new
 * string; caller frees. */
char *vms_cause_names(const char *sep);
/* Writes into buf the delay totals a gap's evidence object holds under the causes' evidence
 * keys, in the table's order, labelled: "run queue 12, swap-in 0, ..., compaction 0" (ms,
 * rounded; a key the object lacks reads 0). Truncates to len. Never fails. */
void vms_cause_delays_line(char *buf, size_t len, const json_t *evidence);

#endif
