/* The comparison model of `vmsuite compare` — BASE against one or more other result files, per
 * workload and metric, with each side's samples, statistics and verdicts. It prints nothing:
 * the renderers are declared in report/compare-render.h. No kernel paths of its own. */
#ifndef VMS_COMPARE_H
#define VMS_COMPARE_H

#include <jansson.h>
#include <stddef.h>

#include "core/metric.h"
#include "core/result.h"
#include "core/resultdoc.h"
#include "compare/envdiff.h"
#include "compare/sound.h"
#include "compare/stats.h"

struct vms_compare_opts {
	double threshold; /* relative change that matters, 0.02 = 2 % */
	double alpha;     /* significance level; the CI level is 1 - alpha. A caller that looks
	                   * again at more runs (adaptive runs) passes its per-look level here:
	                   * every test, bound and runs-needed estimate of the model uses it */
	double detect;    /* change the runs-needed estimate aims at, 0.05 = 5 % */
	double cv_limit;  /* above this spread of ln x (sd of the logs, ~ a cv) on a side, or of the
	                   * log ratios of pairs, a metric is "unstable", 0.50; runs in two groups
	                   * or more outliers than trimming removes also are */
	int force;        /* compare despite hard environment differences */

	/* a run whose other_cpu_pct exceeds this (in %, 5) is disturbed */
	double disturbed_above;
};
/* The defaults above: 2 %, 0.05, 5 %, 50 %, no force, 5 %. */
void vms_compare_opts_init(struct vms_compare_opts *o);

enum vms_compare_verdict {
	VMS_VERDICT_INFO, /* better = "none": numbers only */
	VMS_VERDICT_REGRESSION,
	VMS_VERDICT_IMPROVEMENT,
	VMS_VERDICT_PROB_REGRESSION,
	VMS_VERDICT_PROB_IMPROVEMENT,
	VMS_VERDICT_NO_CHANGE,
	VMS_VERDICT_INCONCLUSIVE,
	VMS_VERDICT_UNSTABLE,
	VMS_VERDICT_NOT_COMPARABLE,
	VMS_VERDICT_CANNOT_TELL, /* a side has no successful run of the workload */
	VMS_VERDICT_MISSING,     /* the metric is absent from one side, or has no value there */
	VMS_VERDICT_CONFOUNDED,  /* a timing change that other processes on the CPUs of the busier
	                          * side could explain (struct vms_compare_busy) */
};
/* "regression", "probably regression", "no change", ... */
const char *vms_compare_verdict_name(enum vms_compare_verdict v);

enum vms_compare_method {
	VMS_METHOD_NONE,       /* nothing computed (missing, too few runs, not comparable) */
	VMS_METHOD_LOG_T,      /* Welch on log-values: ratio of geometric means */
	VMS_METHOD_RAW_T,      /* Welch on raw values (a value <= 0 was present) */
	VMS_METHOD_FISHER,     /* count kind: runs with an event, Fisher's exact test */
	VMS_METHOD_PAIRED_LOG, /* variants of one file: paired t on ln(b_i / a_i), runs paired by
	                        * their index (made together) */
	VMS_METHOD_PAIRED_RAW, /* the same on b_i - a_i (a value <= 0 was present) */
	VMS_METHOD_SUITES_LOG, /* several suites per side, drift between them beyond the runs'
	                        * spread: t-test on the suites' log means */
	VMS_METHOD_YUEN_LOG,   /* an outlier on a side: Yuen's test of the 20 % trimmed means of
	                        * the log-values (ratio of the trimmed geometric means) */
};
const char *vms_compare_method_name(enum vms_compare_method m);

/* One side of a metric: its non-null samples in run order and their summary. For count metrics
 * also the runs with an event (value > 0) among them. */
struct vms_compare_side {
	int present;     /* the file has the metric (a derived count: the workload has runs) */
	double *values;  /* s.n values (nulls left out), in run order; owned by the model */
	size_t *runs;    /* runs[i]: the run values[i] comes from (its index in samples/runs[]) */
	unsigned *suite; /* suite[i]: the file of the side values[i] comes from (0-based) */
	long *index;     /* index[i]: that run's runs[].index (1-based run number; made together
	                  * with the runs of the other variants of that number) */
	size_t n_suites; /* files on this side with the workload */
	struct vms_summary s;
	unsigned events;
	double lsd;             /* sd of ln values (NAN when a value is <= 0 or n < 2) */
	double esd;             /* the per-run sd of ln values the tests use: sqrt(n times the
	                         * variance of their mean, vms_mean_var()); lsd unless the runs
	                         * drift together (NAN as lsd) */
	size_t outliers;        /* runs far from the others on the log scale (vms_outliers()) */
	unsigned char *outlier; /* outlier[i]: values[i] is one */
	int bimodal;            /* the runs fall into two groups (vms_bimodal()) */
};

/* One metric of one other file against BASE. change/lo/hi are ratios (1.05 = +5 %), NAN when
 * not defined. For Fisher, change is the ratio of the mean counts (NAN if the base mean is 0). */
struct vms_compare_cell {
	struct vms_compare_side side;
	enum vms_compare_method method;
	double change, lo, hi, p;
	enum vms_compare_verdict verdict;
	unsigned runs_needed; /* inconclusive: runs per side to detect opts.detect; 0 = unknown */
	unsigned runs_have;   /* the smaller n of the two sides */
	int unstable_side;    /* unstable: 0 = base, 1 = other, 2 = both */
	int confounded;       /* a soft environment difference could explain this verdict */
	int by_design;        /* missing because a file did not ask for it (sound metrics of a
	                       * file recorded without --with-audio): no verdict is owed */
	size_t pairs;         /* paired methods: the pairs used */
	double p_adj;         /* Holm-adjusted one-sided p (in the direction the change went) when
	                       * the cell is in the family of deciding (workload, metric) pairs of
	                       * its file, else NAN; the verdict used it */
	double p_worse, p_better; /* the test's own one-sided p-values of a change in the worse
	                           * and the better direction (NAN: none) */
	double p_adj_worse, p_adj_better; /* their Holm adjustments in the family, else NAN */
	double bound;         /* the one-sided (1 - alpha) bound of the change in the worse
	                       * direction (the upper one when lower is better), NAN if none */
	double shown;         /* a shown regression or improvement: the one-sided bound that made
	                       * it one (the side of the interval nearest no change, at the
	                       * verdict's level), else NAN */
	int noninferior;      /* bisect "good" for this metric: the bound stays within --detect
	                       * (counts: no more runs with an event than BASE; failed_runs: none) */
	struct vms_change ch; /* the test's change (method != NONE and not Fisher) */
	double drift;         /* several suites per side: the between-suite sd beyond what the
	                       * runs' spread explains (log units, 0.03 ~ 3 %), else NAN */
	double within;        /* ... and the within-suite sd of the runs (log units), else NAN */
	double need_cv;       /* the spread the runs-needed estimate uses: the larger sd of ln x
	                       * of the sides (paired: the sd of the log ratios; raw: the cv) */
};

/* unit, better and kind are the file's own (the first file that has the metric), completed from
 * the catalogue; a metric the catalogue lacks (from a newer vmsuite) has def NULL and audio 0. */
struct vms_compare_metric {
	char *name, *unit;
	enum vms_better better;
	const struct vms_metric_def *def; /* its catalogue row, or NULL */
	int primary, count;
	int audio;   /* a sound, latency or probe metric: the Sound section */
	int derived; /* derived from runs[] (catalogue source "runs") */
	struct vms_compare_side base;
	struct vms_compare_cell *cells; /* one per other file */
};

/* What else ran on the emulated machine's CPUs during one side's runs of a workload: the runs'
 * other_cpu_pct samples (CPU time of processes outside the suite, % of the CPUs), pooled over
 * the side's suites. known 0: no run recorded it (an older result file). */
struct vms_compare_busy {
	int known;
	size_t runs;      /* runs with an other_cpu_pct sample */
	size_t disturbed; /* ... above opts.disturbed_above */
	double mean, max; /* other_cpu_pct over those runs, % */
	/* other_io_mb: what other processes read and wrote on the work device, evidence only */
	size_t io_runs;         /* runs with an other_io_mb sample (0: not recorded) */
	double io_mean, io_max; /* over those runs, MiB */
};

struct vms_compare_workload {
	char *name;
	char *variant; /* files matched by this variant label (files with several variants), or
	                * NULL: by name alone */
	char *display; /* name, or "name [variant]" */
	struct vms_compare_metric *metrics;
	size_t n_metrics;
	int *present; /* per other file: 1 when the workload is in it */

	/* per column ([0] = BASE): what other processes took of the CPUs during its runs */
	struct vms_compare_busy *busy;
};

struct vms_compare_file {
	char *path, *label;
	char *variant;   /* the variant this column is (variants of one file compared), or NULL */
	size_t n_suites; /* result files on this side (vmsuite compare A1 A2 -- B1 B2) */
	char **suite_paths; /* their paths (NULL for a variant); path joins them with " + " */
	int paired;         /* its runs pair with BASE's by run index (variants of one file) */
	/* the idle audio baseline, one window per file (no statistics): its figures when
	 * has_baseline; skipped = it had underruns with no workload running */
	int has_baseline, baseline_skipped;
	struct vms_compare_sound baseline;
};

struct vms_compare {
	struct vms_compare_opts opts;
	struct vms_compare_file *files; /* [0] = BASE */
	size_t n_files;
	struct vms_envdiff *env; /* [i - 1] = file i against BASE */
	struct vms_compare_workload *workloads;
	size_t n_workloads;
	char **not_compared; /* "name (only in FILE)" lines */
	size_t n_not_compared;
	int variants;   /* the columns are the variants of one file (files[k].variant) */
	int holm;       /* deciding verdicts use Holm-adjusted one-sided p-values */
	size_t *family; /* per other column: primary (workload, metric) pairs in the family */
	const char *const *decisive; /* NULL = the primary metrics decide; else these names */
	size_t n_decisive;

	/* per other column: workloads on one of the two sides only */
	size_t *unmatched;
};

/* What is compared: n documents (paths name them), side[i] = the side docs[i] belongs to
 * (0 = BASE; non-decreasing; several documents on one side are its suites); side NULL: every
 * document is its own side. One document with several variants: its variants are the sides
 * (the first is BASE). decisive: metric names that decide the verdict instead of the primary
 * ones (NULL = primary). */
struct vms_compare_input {
	json_t *const *docs;
	const char *const *paths;
	const size_t *side;
	size_t n;
	const char *const *decisive;
	size_t n_decisive;
};
/* The number of sides vms_compare_build() would make of in (columns). */
size_t vms_compare_sides(const struct vms_compare_input *in);

/* Builds the comparison of the input's sides: in->docs[1..n) against in->docs[0] (loaded
 * result documents; paths name them in the output), or sides of several suites, the variants
 * of one file, chosen metrics. The input needs vms_compare_sides(in) >= 2. Never fails
 * (aborts on OOM); the documents are only read and may be freed afterwards. Release with
 * vms_compare_release(). */
void vms_compare_build(struct vms_compare *c, const struct vms_compare_opts *opts,
                       const struct vms_compare_input *in);
void vms_compare_release(struct vms_compare *c);

/* What the VERDICT block of other file k (0 = the first after BASE) says. */
enum vms_compare_outcome {
	VMS_OUTCOME_NO_REGRESSION,  /* no regression shown: no deciding metric regressed, but one
	                             * is not decided (inconclusive, probably) */
	VMS_OUTCOME_REGRESSION,     /* a deciding metric regressed */
	VMS_OUTCOME_NOT_COMPARABLE, /* no regression, and a workload is on one side only or a
	                             * hard difference touches a deciding metric (or nothing is
	                             * common) */
	VMS_OUTCOME_CANNOT_TELL,    /* a deciding metric was not measured on a side (missing, or
	                             * no successful run), is unstable or confounded, or B failed
	                             * runs that A did not */
	VMS_OUTCOME_NO_CHANGE,      /* shown: every deciding metric is "no change" (its interval
	                             * inside the threshold) or an improvement */
};
enum vms_compare_outcome vms_compare_outcome(const struct vms_compare *c, size_t k);

/* The verdicts of the deciding metrics of side k + 1 (primary, on both sides' workloads, not
 * left out by design), counted once: vms_compare_outcome() decides on them and the VERDICT
 * line of every format says them. */
struct vms_compare_tally {
	size_t primary;     /* deciding metrics */
	size_t regressions; /* regression */
	size_t improved;    /* improvement */
	size_t no_change;   /* no change (shown) */
	size_t undecided;   /* inconclusive, probably regression, probably improvement */
	size_t unmeasured;  /* missing on a side, or no successful run there (cannot tell) */
	size_t failed;      /* failed_runs cannot tell: runs failed on the side, none on BASE */
	size_t unstable;    /* unstable */
	size_t confounded;  /* confounded by other processes on the CPUs */
	size_t blocked;     /* not comparable (hard environment differences) */
	size_t common;      /* workloads on both sides */
};
/* Fills *t for side k + 1. Never fails. */
void vms_compare_tally(const struct vms_compare *c, size_t k, struct vms_compare_tally *t);

/* Exit status the model calls for: 1 if a deciding metric regressed in some file, else 2 if a
 * file is not comparable or cannot tell, else 0 (docs/compare.md). */
int vms_compare_status(const struct vms_compare *c);

/* The `git bisect run` reading of side k + 1: 1 (bad) a deciding metric regressed; 0 (good)
 * every deciding metric is non-inferior (its one-sided bound stays within --detect; no failed
 * run); else 125 (skip: cannot tell, not comparable, unstable, or not shown non-inferior). */
#define VMS_BISECT_SKIP 125
int vms_compare_bisect_side(const struct vms_compare *c, size_t k);
/* The same over every side: 1 if one is bad, else 125 if one is a skip, else 0. */
int vms_compare_bisect_status(const struct vms_compare *c);

/* True when every deciding metric of side k + 1 is decided: a regression, an improvement, or
 * no change within the threshold (failed_runs: none on either side, or a change). For
 * adaptive runs: more runs cannot change a decided comparison's outcome class, only an
 * undecided one's. Sound metrics not recorded by design are left out. */
int vms_compare_decided(const struct vms_compare *c, size_t k);
/* The same for one cell: 1 when its verdict is a regression, an improvement or no change. */
int vms_compare_cell_decided(const struct vms_compare_cell *c);

/* Every name must be a metric of some workload of some document, or a metric derived from
 * runs[] (failed_runs): a typo would leave the verdict with nothing to decide. 0, or -EINVAL
 * with the reason in err. */
int vms_compare_check_metrics(json_t *const *docs, size_t n, const char *const *names,
                              size_t n_names, char *err, size_t errlen);
/* The deciding metrics of side k + 1 whose change other processes on the CPUs could explain
 * (verdict "confounded"). */
size_t vms_compare_confounded(const struct vms_compare *c, size_t k);
/* Notes to stderr on the suites per side (vms_note): one suite per side under bisect (the drift
 * between suites cannot be seen), fewer than 3 suites on a side of several (the suite-means
 * test has few degrees of freedom). For vmsuite compare and run --against. */
void vms_compare_note_suites(const struct vms_compare *c, int bisect);

/* The most runs per side an inconclusive deciding metric of side k + 1 asks for (its n≈N),
 * 0 when none does. */
unsigned vms_compare_runs_to_decide(const struct vms_compare *c, size_t k);

/* ---- parts of the model in compare/judge.c (for compare/compare.c) --------------------- */

/* The verdict of a Fisher cell (p-values set); fam: the size of the Holm family it is in (its
 * adjusted one-sided p-values decide), 0 outside it. */
void vms_compare_decide_fisher(const struct vms_compare_opts *o, const struct vms_compare_metric *m,
                               struct vms_compare_cell *c, size_t fam);
/* Tests a count metric's cell (runs with an event, Fisher's exact test) and decides it. */
void vms_compare_judge_fisher(const struct vms_compare_opts *o, const struct vms_compare_metric *m,
                              struct vms_compare_cell *c);
/* The verdict of a t cell (change, bounds and p-values set); fam as for Fisher. */
void vms_compare_decide_t(const struct vms_compare_opts *o, const struct vms_compare_metric *m,
                          struct vms_compare_cell *c, size_t fam);
/* Tests a measured metric's cell (paired when the sides' runs pair, suite means for sides of
 * several suites, else Welch or Yuen on the logs) and decides it outside any family. */
void vms_compare_judge_t(const struct vms_compare *cmp, const struct vms_compare_metric *m,
                         struct vms_compare_cell *c, int paired);

/* ---- parts of the model in compare/sides.c (for compare/compare.c) --------------------- */

/* The suite-means test of side b against side a when a side has several suites: each suite's
 * geometric mean is one observation. ch gets the change, *drift and *within the between-suite
 * drift and the runs' spread (log units) measured from the runs. 0, or -EINVAL (too few values
 * or suites), -EDOM (a value <= 0, or every suite mean the same: the runs may decide then). */
int vms_compare_suite_means_change(const struct vms_compare_side *a,
                                   const struct vms_compare_side *b, double alpha,
                                   struct vms_change *ch, double *drift, double *within);

/* Checks suites docs[1..n) of side k against its first suite docs[0] and, for k > 0, against
 * base (BASE's first suite): what they show goes to c->env of side k, or of every other side
 * for k = 0, with keys "b2.json: KEY" (against BASE) and "b2.json vs b1.json: KEY" (within the
 * side). Another kernel within a side, other variants and a workload some suites lack are
 * hard; another label is soft. Never fails (aborts on OOM). */
void vms_compare_check_suites(struct vms_compare *c, size_t k, const struct vms_rdoc *docs,
                              size_t n, const struct vms_rdoc *base);

/* What other processes took of the CPUs during the runs of the n workloads wls (one
 * per suite of a side; NULL entries skipped): their other_cpu_pct samples, a run above `above`
 * (in %) and not below its resolution_pct (two clock ticks) disturbed. b->known 0 when no run
 * recorded it. Also their other_io_mb samples (b->io_runs 0 when none). */
void vms_compare_busy_of(struct vms_compare_busy *b, const struct vms_rdoc_workload *const *wls,
                         size_t n, double above);

/* Other processes that took a share d of the CPUs (other_cpu_pct / 100) can slow a side's
 * wall-clock metrics by at most 1 / (1 - GAIN x d): a CPU-bound workload that loses d of its
 * CPU runs 1 / (1 - d) as long; competitors on the emulated CPU of the development machine
 * slowed mtest01 by 0.8-1.4 times that (docs/compare.md), and GAIN 2 leaves a margin. */
#define VMS_COMPARE_DISTURBANCE_GAIN 2.0

/* True when the disturbance of the busier side (w->busy, side k + 1 against BASE) could explain
 * cell c of metric m: a timing metric (elapsed_s, the workload's rates, the sound and latency
 * metrics) changed the way busier CPUs move it, and that side had disturbed runs and more of
 * other processes' CPU time on average; a shown change of elapsed_s or a rate only when it is
 * within what that much more CPU time can explain (VMS_COMPARE_DISTURBANCE_GAIN; threshold:
 * the relative change that matters, opts.threshold). The rule in full in sides.c. */
int vms_compare_disturbance_explains(const struct vms_compare_workload *w,
                                     const struct vms_compare_metric *m,
                                     const struct vms_compare_cell *c, size_t k, double threshold);

/* The settings in which variant b of doc differs from variant a, added to d as expected
 * differences ("variant: NAME"): what the tester chose to vary. */
void vms_compare_variant_settings_diff(const struct vms_rdoc *doc, size_t a, size_t b,
                                       struct vms_envdiff *d);

#endif
