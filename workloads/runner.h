/* The runner: executes workloads × variants × runs (interleaved), each run in a forked child
 * measured from outside (wait4 rusage, /proc/vmstat and PSI deltas, a ~10 Hz time series), and
 * builds the result document in memory, checkpointing it atomically after every run. */
#ifndef VMS_RUNNER_H
#define VMS_RUNNER_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>

#include "core/cgroup.h"
#include "core/hoststate.h"
#include "workloads/workload.h"

struct vms_run_item {
	struct vms_workload_spec spec;
	long runs;
	const char *workdir; /* where its files go: set by vms_run_item_prepare() */
	int tmpfile;         /* its work files are O_TMPFILEs (set by vms_run_item_prepare(); 0 = a
	                      * private directory per run) */
};

/* An audio source as the runner sees it (the suite adapts the audio probe to it, so that
 * workloads/ does not depend on audio-probe/). Times are CLOCK_MONOTONIC seconds, as from
 * vms_now_mono(). The source plays during the whole suite; the runner cuts it into windows. */
struct vms_audio_source {
	/* Looks at the source at the end of a window (just after the baseline and each run):
	 * 0 while it plays, -1 when it is dead or stopped, so that window() leaves the windows
	 * ending then without sound data. */
	int (*check)(void *ctx);
	/* Stops playing, keeping the records. 0, or -1 when it had died early. */
	int (*stop)(void *ctx);
	/* Metrics of the window [t0, t1], put at sample index `run` of metrics; returns the
	 * window's detail (a new object). A window that ended while the source was dead or
	 * stopped gets no metrics, and its detail says why in "no_sound_data". */
	json_t *(*window)(void *ctx, double t0, double t1, json_t *metrics, size_t run);
	/* The facts of the source (file, device, geometry): a new object. */
	json_t *(*facts)(void *ctx);
	/* Underruns so far, for progress lines; cheap. */
	long (*underruns)(void *ctx);
	void *ctx;
};

/* One variant of the suite (`vmsuite run --sysctl`, `--thp`): a setting of the knobs under
 * which every workload runs. */
struct vms_run_variant {
	const char *label; /* "page-cluster=0 thp=off", or "default" when no axis varies */
	json_t *settings;  /* {NAME: VALUE} strings, recorded in the result (owned by the caller) */
	int thp_off;       /* prctl(PR_SET_THP_DISABLE) in the workload child */
};

struct vms_run_config {
	struct vms_run_item *items;
	size_t n_items;
	/* The variants, first = baseline; each workload runs under each of them, interleaved:
	 * run 1 of every variant, then run 2 of every variant, ... Each (workload, variant) is
	 * one entry of the result's workloads[] ("variant": its label). None (n_variants 0):
	 * one variant "default" with settings {"thp": "kernel"} (no prctl). */
	const struct vms_run_variant *variants;
	size_t n_variants;
	/* Puts the host into variant v's settings before a run of it (called only when the
	 * variant changes). 0, or -errno (reported by it), which ends the suite with 128. NULL =
	 * nothing to apply. */
	int (*apply_variant)(void *ctx, size_t v);
	void *variant_ctx;
	const char *workdir; /* absolute path */
	const char *label;
	int argc; /* the command line, recorded in the result */
	char **argv;
	int progress;    /* progress lines on stderr (a terminal) */
	int drop_caches; /* sync + drop_caches between runs when root */
	double sample_hz;
	/* a run whose other_cpu_pct exceeds this is marked disturbed (`--disturbed-above`);
	 * 0 = VMS_BUSY_DISTURBED_ABOVE */
	double disturbed_above;
	/* Runs of each workload before its first measured one, under the first variant: kept in
	 * its entry's "warmup_runs", never in "runs" or the metrics (a first run pays for memory
	 * and caches the runs after it find ready). */
	long warmup;
	json_t *machine;           /* protocol.machine (owned by the caller), or NULL for "host" */
	const char *cpu_list;      /* pin children to these CPUs ("0-1"), or NULL */
	struct vms_cgroup *cgroup; /* the emulated machine's memory cgroup, or NULL */
	/* Where a run's private work directory (made when the work directory has no O_TMPFILE)
	 * is recorded before it exists, so that `vmsuite cleanup` removes it after a SIGKILL;
	 * NULL = not recorded. */
	struct vms_hoststate *journal;
	const struct vms_audio_source *audio; /* playing during the suite, or NULL; the runner
	                                       * stops it after the last run */
	double baseline_s;                    /* idle audio baseline before the first workload */
	/* Set (to the signal number) by whoever handles signals: the running child is
	 * terminated and the suite ends, marked interrupted. NULL = never stops. */
	const volatile sig_atomic_t *stop;
	/* Saves the document so far: after the header, after every run and at the end. 0, or
	 * -errno (reported by it), which ends the suite with 128. NULL = no checkpoints. */
	int (*checkpoint)(void *ctx, const json_t *doc);
	void *checkpoint_ctx;
	/* Adaptive runs (`run -n auto`): the plan goes in rounds (each visits the items in
	 * order). Before the first (done[] all 0) and after each round, with done[i] the runs of
	 * item i made so far (of every variant), look sets want[i] to the runs item i is to have
	 * after the next round (done[i]: no more of it) and at_most[i] to the most it may come
	 * to (progress lines read "run 4/<=12"). Returns 1 for another round, 0 to stop, or
	 * -errno (reported by it), which ends the suite with 128. It may add to doc; after a
	 * round a checkpoint follows. NULL = one round of items[i].runs runs. */
	int (*look)(void *ctx, json_t *doc, const long *done, long *want, long *at_most);
	void *look_ctx;
	/* Appended to progress lines ("budget 12:30 left"), read at each run; NULL = nothing. */
	const char *progress_note;
};

/* Resolves the workload's computed defaults and checks what it needs (free disk, not tmpfs) in
 * workdir (absolute), once, before anything runs; sets it->workdir (the workload's own dir
 * option, else workdir). A workload that needs a disk also needs work files there: a work
 * directory that is not a directory or where this user cannot create files is refused, and
 * it->tmpfile says how they will be made (vms_workload_probe_dir(); nothing is left). 0, or
 * -errno with a one-line reason in why. */
int vms_run_item_prepare(struct vms_run_item *it, const char *workdir, char *why, size_t len);

/* Runs the plan (every item prepared). *doc_out gets the result document (caller decrefs).
 * Returns an exit code: 0 all runs ok, 1 a run failed, 125 nothing could be measured, 128
 * fatal (a checkpoint failed, or the work filesystem filled up during a run: the document
 * is complete and its exit_status says 128), 130 interrupted (marked incomplete). Errors are
 * reported here. */
int vms_runner_run(const struct vms_run_config *cfg, json_t **doc_out);

#endif
