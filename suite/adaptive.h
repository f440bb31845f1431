/* Adaptive runs (`vmsuite run -n auto`): the plan goes in rounds, and after each round a look
 * compares what was measured (against --against baselines, across variants, or, alone, checks
 * the precision) and decides which workloads run again, within a time budget. No kernel paths
 * of its own (docs/compare.md, Adaptive runs). */
#ifndef VMS_ADAPTIVE_H
#define VMS_ADAPTIVE_H

#include <jansson.h>
#include <stddef.h>

#include "compare/compare.h"

/* The looks' schedule: the runs per workload (per side) after each round. */
#define VMS_ADAPTIVE_MAX_LOOKS 10
extern const long vms_adaptive_schedule[VMS_ADAPTIVE_MAX_LOOKS];
/* The default budget: 20 minutes (docs/compare.md says why). */
#define VMS_ADAPTIVE_BUDGET_S 1200.0

struct vms_adaptive_config {
	double budget_s; /* wall-clock time the runs may take, from vms_adaptive_init() */
	double alpha;    /* the false-alarm rate over every look, 0.05 */
	struct vms_compare_opts opts; /* threshold, detect...; alpha is set per look */
	/* --against: the baselines (loaded, checked); none = the variants of the run, or with
	 * one variant, the precision rule */
	json_t *const *baselines;
	const char *const *baseline_paths;
	size_t n_baselines;
	const char *const *decisive; /* --metric names, or NULL = the primary metrics */
	size_t n_decisive;
	const char *output; /* names this run in comparisons */
	size_t n_items;     /* the plan's items, in order; each has n_variants entries */
	size_t n_variants;
	int progress; /* a line per look on stderr */
	/* For the simulation (tests/compare/sim-adaptive.c): its own clock (NULL =
	 * vms_now_mono), and looks without the correction (to show what that costs). */
	double (*clock)(void);
	int uncorrected;
};

enum vms_adaptive_stop {
	VMS_ADAPTIVE_RUNNING,
	VMS_ADAPTIVE_DECIDED,     /* every deciding metric decided, or one regressed */
	VMS_ADAPTIVE_BUDGET,      /* the next round would overrun the budget */
	VMS_ADAPTIVE_MAX_RUNS,    /* the schedule's last look was made */
	VMS_ADAPTIVE_CANNOT_JUDGE /* not comparable, or nothing measured */
};

struct vms_adaptive {
	struct vms_adaptive_config cfg;
	double t0, t_last; /* CLOCK_MONOTONIC at init and at the last look */
	long *prev_done;   /* the runs per item at the last look */
	int planned;       /* the first round was planned */
	int looks;         /* looks made */
	int max_looks;     /* fixed at the first look from the budget (>= 1) */
	double alpha_look; /* alpha / max_looks, fixed at the first look */
	enum vms_adaptive_stop stop;
	char note[64]; /* the progress lines' "budget 12:30 left" */
	char why[512]; /* when stopped: "decided after 9 runs: ..." */
};

/* Prepares a for cfg (copied; what it points to must outlive a). Starts the budget's clock.
 * Never fails (aborts on OOM). Release with vms_adaptive_release(). */
void vms_adaptive_init(struct vms_adaptive *a, const struct vms_adaptive_config *cfg);
void vms_adaptive_release(struct vms_adaptive *a);

/* The runner's look (workloads/runner.h): with done[] all 0 it plans the first round; after a
 * round it compares doc at the per-look alpha, records the look in doc ("adaptive", see
 * docs/result-format.md), and sets want[]/at_most[]. Returns 1 for another round, 0 when
 * stopped (a->stop and a->why say why). Never fails. */
int vms_adaptive_look(void *ctx, json_t *doc, const long *done, long *want, long *at_most);

/* The per-look alpha of a plain compare (the `--against` verdict of an adaptive run): doc's
 * adaptive.alpha_per_look, or alpha when doc was not made with -n auto. */
double vms_adaptive_alpha(const json_t *doc, double alpha);

#endif
