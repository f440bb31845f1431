/* The report model: a result document ("vmsuite.result/2", or 1) read once into the figures the
 * reports show — header, machine, audio baseline, and per workload the 2001 block, the spread,
 * sound, reclaim, pressure, memory cgroup, failed runs and the per-run data of the timelines.
 * The text, markdown and HTML renderers all render this model, so a metric the file lacks is
 * "absent" in one place and shows as "n/a" everywhere. No kernel paths. */
#ifndef VMS_REPORT_MODEL_H
#define VMS_REPORT_MODEL_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "core/metric.h"
#include "core/resultdoc.h"
#include "compare/sound.h"
#include "compare/stats.h"

/* One metric of a workload (or of the idle baseline) as the file has it. */
struct vms_report_metric {
	const char *name;                 /* key in the file's "metrics" */
	const struct vms_metric_def *def; /* the catalogue's row; NULL for a name it lacks */
	const struct vms_rdoc_metric *rd; /* the reader's: unit, better, primary, values */
	struct vms_summary s;             /* over the runs' samples; s.n == 0: no samples */
};

/* The metrics of a workload, in the file's order. */
struct vms_report_metrics {
	struct vms_report_metric *v;
	size_t n;
};

/* What the reports derive of a run; the rest is the reader's (rd: status_name, reason, series,
 * window, disturbed, other_cpu_pct). */
struct vms_report_run {
	const struct vms_rdoc_run *rd; /* the reader's run (m->rd) */
	int failed;                    /* status is neither "ok" nor "interrupted" */
	int interrupted;               /* status is "interrupted": stopped by a signal to vmsuite */
	double elapsed_s;              /* t_end - t_start, NAN when unknown */
};

/* What the reports derive of a workload; the rest is the reader's (rd: name, variant, summary,
 * skipped, n_runs and the counts of failed, interrupted, OOM-killed and disturbed runs). */
struct vms_report_workload {
	const struct vms_rdoc_workload *rd; /* the reader's workload (m->rd) */
	struct vms_report_metrics metrics;
	struct vms_summary elapsed; /* elapsed_s; n == 0: no successful runs */
	struct vms_compare_sound sound;
	int has_pressure; /* the file has a PSI metric (none on kernels without PSI) */
	int has_cgroup;   /* the file has a memory cgroup metric (an emulated machine) */
	int has_busy;     /* the file has other_cpu_pct (what else used the machine's CPUs) */
	struct vms_report_run *runs; /* rd->n_runs, in the file's order */
};

/* What `report` tells the lava and kcidb renderers beyond the result file; all NULL: the
 * defaults (origin "vmsuite", ids derived from the result, the file's own verdict). */
struct vms_report_opts {
	const char *origin;      /* KCIDB origin, ^[a-z0-9_]+$ */
	const char *checkout_id; /* KCIDB ids: "ORIGIN:LOCAL" as given, or a local id */
	const char *build_id;
	const char *git_commit;  /* 40 lowercase hex digits */
	const char *git_url;     /* the kernel's git repository, https:// */
	const char *tree;        /* the tree's name (mainline, net-next) */
	const char *branch;      /* the git branch */
	const char *output_url;  /* where the result file is published */
	const char *result_name; /* the result file's name for output_files */
	const json_t *verdict; /* a "vmsuite.compare/1" document that replaces the file's verdict */
};

/* What the reports derive of a result document; the document itself is the reader's (rd:
 * version, label, start_time, complete, interrupted, finished, machine, with_audio, audio,
 * has_baseline, the variants, first = baseline). */
struct vms_report_model {
	const struct vms_report_opts *opts; /* borrowed; NULL: the defaults */
	struct vms_rdoc rd;                 /* the document as read */
	struct vms_compare_sound baseline;
	struct vms_report_metrics baseline_metrics;
	const struct vms_rdoc_window *baseline_detail; /* NULL when the baseline has none */
	struct vms_report_workload *workloads;         /* one per rd.workloads[], in order */
	size_t n_workloads;
};

/* Builds the model of doc (a loaded result document, read with vms_rdoc_init(); the model
 * takes a reference). Never fails (aborts on OOM); whatever doc lacks is absent in the model,
 * and a document the reader refuses (never one vms_result_load() accepted) gives an empty
 * model. Release with vms_report_model_release. */
void vms_report_model_init(struct vms_report_model *m, const json_t *doc);
void vms_report_model_release(struct vms_report_model *m);

/* The summary of metrics[name], or NULL when the file lacks it or it has no samples. */
const struct vms_summary *vms_report_metric_get(const struct vms_report_metrics *ms,
                                                const char *name);

/* The 2001 block: the labels the 2001 tester posted, in order; each value is the mean of the
 * catalogue metric shown with the catalogue's precision. */
struct vms_report_row2001 {
	const char *label;
	const char *metric;
};
extern const struct vms_report_row2001 vms_report_rows2001[];
extern const size_t vms_report_rows2001_n;

/* Formats a mean into buf: "%.*f" of the mean of s scaled by scale, followed by unit (when
 * unit is not NULL), or "n/a" when s is NULL (the metric is absent). Returns buf. */
const char *vms_report_fmt(char *buf, size_t len, const struct vms_summary *s, int prec,
                           double scale, const char *unit);

/* The lines of the text report that renderers show verbatim, by kind. */
enum vms_report_line {
	VMS_LINE_HEADER,    /* "vmsuite 0.1.0 — label — started ... — machine ..." */
	VMS_LINE_MACHINE,   /* "Machine: ..." and "Note: ..." */
	VMS_LINE_CAPTION,   /* "Average for 3 mmap001 runs" */
	VMS_LINE_ROW2001,   /* "bytes allocated: 2048000000" */
	VMS_LINE_NO_RUNS,   /* "No successful mmap001 runs." */
	VMS_LINE_SPREAD,    /* "Elapsed low/high: ..." */
	VMS_LINE_SOUND,     /* "Sound: ..." and its "gaps caused by" line */
	VMS_LINE_RECLAIM,   /* "System-wide reclaim per run: ..." */
	VMS_LINE_PRESSURE,  /* "Pressure per run: ..." */
	VMS_LINE_CGROUP,    /* "Memory cgroup per run: ..." */
	VMS_LINE_BUSY,      /* "Beside the workload per run: other processes 0.4 % of the CPU..." */
	VMS_LINE_DISTURBED, /* "disturbed: run 2 (other processes took 12 % of the CPU)" */
	VMS_LINE_FAILED,    /* "Failed runs: 1 of 3" */
	VMS_LINE_FAILED_RUN, /* "  run 2: failed — reason" (also of an interrupted run) */
	VMS_LINE_STOPPED,    /* "Interrupted runs: 1 of 3" */
	VMS_LINE_VARIANT, /* "Variants (...)" and "  page-cluster=0: vm.page-cluster=0, thp=kernel"
	                   * (header lines, only when the file has more than one variant) */
};

/* How the suite of m ended when it is not complete: "INCOMPLETE (interrupted)", "did not
 * finish (killed or crashed)" (no end_time or exit_status: vmsuite died, or is still running)
 * or "INCOMPLETE (not every workload ran)"; NULL when complete. A static string. */
const char *vms_report_incomplete(const struct vms_report_model *m);

/* Calls emit once per header line of the text report (the header and machine lines, not the
 * baseline's Sound lines), in order. */
void vms_report_header_lines(const struct vms_report_model *m,
                             void (*emit)(void *ctx, enum vms_report_line kind, const char *text),
                             void *ctx);
/* Calls emit once per line of the text report's block of workload w after its name, in order:
 * caption and 2001 rows (or the no-runs line), spread, sound, reclaim, pressure, cgroup, what
 * else used the CPUs, disturbed runs and failed runs. Absent metrics read "n/a". */
void vms_report_workload_lines(const struct vms_report_workload *w,
                               void (*emit)(void *ctx, enum vms_report_line kind, const char *text),
                               void *ctx);

/* The number of entries of m->workloads from i on that belong to one workload: its variants
 * side by side (the runner writes them together); 1 when the file has one variant. */
size_t vms_report_group_size(const struct vms_report_model *m, size_t i);

/* The block of a workload's variants side by side: rows of a label and one cell per variant
 * (vms_report_side_cell) — successful runs, the 2001 rows, elapsed low/high and sd/cv. */
extern const size_t vms_report_side_rows;
const char *vms_report_side_label(size_t row);
/* The cell of row for the variant w: the figure with the catalogue's precision, "n/a". */
const char *vms_report_side_cell(const struct vms_report_workload *w, size_t row, char *buf,
                                 size_t len);
/* The lines of the text report's block of w that the side-by-side rows do not show (sound,
 * reclaim, pressure, cgroup, failed runs, skipped): kinds other than caption, 2001 rows and
 * spread. */
int vms_report_line_beside(enum vms_report_line kind);

/* A renderer of the model: text, markdown, html or json. */
struct vms_report_renderer {
	const char *name;
	const char *note; /* in -f's help after the name, in parentheses; NULL = none */
	/* Writes the whole report to out. Returns 0, or -EIO when writing failed (not
	 * reported). */
	int (*render)(const struct vms_report_model *m, FILE *out);
};

/* The renderer called name, or NULL. */
const struct vms_report_renderer *vms_report_renderer_find(const char *name);
/* The i-th renderer of the table (0, 1, ...), NULL past its end. */
const struct vms_report_renderer *vms_report_renderer_at(size_t i);
/* "text, markdown, html or json": the names from the renderer table, for usage messages. */
const char *vms_report_renderer_names(void);
/* `vmsuite report -f`'s help, made from the renderer table: each name with its note, the
 * table's order. A static string. */
const char *vms_report_renderer_help(void);

/* The JSON summary (see vms_report_summary_json in report/report.h) of the model. New
 * object. */
json_t *vms_report_summary_of_model(const struct vms_report_model *m);

/* The renderers of the table; each returns 0 or -EIO of a failed write (not reported). */
int vms_report_render_text(const struct vms_report_model *m, FILE *out);
int vms_report_render_markdown(const struct vms_report_model *m, FILE *out);
int vms_report_render_html(const struct vms_report_model *m, FILE *out);
int vms_report_render_json(const struct vms_report_model *m, FILE *out);
/* Linaro's test-definitions result.txt lines (report/lava.c). */
int vms_report_render_lava(const struct vms_report_model *m, FILE *out);
/* One KCIDB v5.3 I/O document (report/kcidb.c). */
int vms_report_render_kcidb(const struct vms_report_model *m, FILE *out);
/* Whether o's KCIDB fields can go into a document: the origin ^[a-z0-9_]+$, the ids the
 * document will carry (ORIGIN:LOCAL) at most 255 printable ASCII characters with such an
 * origin, the output and git URLs https://, a tree name of [A-Za-z0-9._+-], a branch name git
 * accepts. 0, or -EINVAL with a one-line reason in why. */
int vms_kcidb_opts_check(const struct vms_report_opts *o, char *why, size_t len);

#endif
