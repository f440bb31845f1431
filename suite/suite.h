/* The suite behind `vmsuite run`: owns signal handling, host lock and journal, the emulated
 * machine's memory cgroup, the audio probe and the result checkpoints around the runner, and
 * undoes them on every exit path. Kernel paths: cgroupfs mkdir/rmdir, flock, sigaction. */
#ifndef VMS_SUITE_H
#define VMS_SUITE_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>

#include "audio-probe/probe.h"
#include "core/cgroup.h"
#include "core/hoststate.h"
#include "core/machine.h"
#include "core/sysctl.h"
#include "core/zram.h"
#include "workloads/runner.h"

/* What the command parsed and resolved. Everything pointed to must outlive the suite. */
struct vms_suite_config {
	struct vms_run_item *items; /* specs parsed, sizes applied; prepared by the suite */
	size_t n_items;
	const struct vms_machine *machine; /* resolved (vms_machine_resolve) */
	const char *workdir;               /* absolute */
	const char *label;
	const char *output; /* result file, checked writable */
	int force;          /* the first checkpoint may replace an existing output (--overwrite) */
	int argc;           /* the command line, recorded in the result */
	char **argv;
	enum vms_progress_mode progress; /* on stderr (workloads/progress.h) */
	int drop_caches;
	double sample_hz;
	int with_audio;              /* start the probe with `probe` (file etc. set) */
	struct vms_probe_opts probe; /* join_procs and cpu_list are set by the suite */
	double baseline_s;           /* idle audio baseline */
	double disturbed_above;      /* other_cpu_pct that marks a run disturbed; 0 = 5 */
	long warmup;                 /* warm-up runs before each workload's first measured one */
	const char *state_dir;       /* NULL = vms_hoststate_default_dir() */
	const char *probe_cpu_list; /* the probe's own --cpu (within the machine's CPUs), or NULL */
	/* The variants (`--sysctl`, `--thp`; see workloads/runner.h), first = baseline; none =
	 * one "default". Each variant's settings hold a value for every name of knobs. */
	const struct vms_run_variant *variants;
	size_t n_variants;
	const char *const *knobs; /* dotted names (core/sysctl.h) the variants set, validated */
	size_t n_knobs;
	/* Adaptive runs (-n auto, suite/adaptive.h): the runner's look between rounds and the
	 * progress lines' note; NULL = the plan's runs */
	int (*look)(void *ctx, json_t *doc, const long *done, long *want, long *at_most);
	void *look_ctx;
	const char *progress_note;
};

/* A knob the suite changes: its journal record while it is changed. */
struct vms_suite_knob {
	struct vms_host_entry e;
	int set;                        /* changed and journalled: restored by the teardown */
	char now[VMS_SYSCTL_VALUE_MAX]; /* the value written last */
};

struct vms_suite {
	struct vms_suite_config cfg;
	struct vms_hoststate hs;
	struct vms_cgroup cg;
	struct vms_host_entry cg_entry;   /* the journal record of cg */
	int cg_recorded;                  /* cg_entry is in the journal */
	struct vms_host_entry swap_entry; /* the journal record of the temporary swap file */
	int swap_recorded;                /* swap_entry is in the journal (the file may exist) */
	int swap_created;                 /* this run made the file (it is this run's to remove) */
	char swap_method[32];             /* how it was preallocated */
	struct vms_zram zram;             /* the zram device (--swap-kind zram); id -1 = none */
	struct vms_host_entry zram_pending; /* its record before the kernel named it */
	int zram_pending_recorded;
	struct vms_host_entry zram_entry; /* its record once added */
	int zram_recorded;
	uint64_t zram_written, zram_read; /* its counters before the current run */
	/* --swap-kind zswap: zswap.max_pool_percent [0] and zswap.enabled [1], journalled knobs */
	struct vms_host_entry zswap_e[2];
	int zswap_set[2];
	char zswap_compressor[64]; /* the compressor zswap used (the kernel's own) */
	struct vms_probe *probe;
	struct vms_audio_source audio; /* the probe as the runner sees it */
	json_t *machine_json;
	struct sigaction old_sa[3]; /* the handlers before vms_suite_run() */
	struct sigaction old_pipe;  /* SIGPIPE's, ignored while the host is changed */
	int signals_installed;
	int saves;       /* checkpoints written to cfg.output */
	int save_failed; /* a checkpoint failed: the file holds the last one saved, if any */
	struct vms_suite_knob *knobs;      /* cfg.n_knobs of them while the suite runs */
	struct vms_host_entry delayacct_e; /* kernel.task_delayacct turned on for the probe */
	int delayacct_set;                 /* delayacct_e is to be restored */
};

/* Prepares s for cfg (copied; what it points to is not). Allocates nothing; never fails. */
void vms_suite_init(struct vms_suite *s, const struct vms_suite_config *cfg);

/* Runs the suite: installs the signal handlers (SIGPIPE ignored until vms_suite_release(), so
 * that a closed stdout or stderr never stops the undo), prepares every workload (a failure ends
 * here with nothing changed), takes the host lock (waiting, with a message naming the holder, while
 * another run holds it; a run without a cgroup by a user who cannot keep a state directory goes
 * without it), repairs what dead runs left, and when the machine needs a memory cgroup records
 * it in the journal and creates it (after its swap, when the machine has its own: a temporary
 * swap file, or a zram device with --swap-kind zram; recorded, made, switched on; then, with
 * --swap-kind zswap, zswap's pool cap and switch, journalled knobs); keeps its own
 * process off the emulated machine's CPUs when there are others; with knobs, writes every value of
 * every knob once and restores it (a value the kernel refuses ends here: 129, nothing ran, every
 * knob as it was; one whose original cannot be written back: 128, nothing ran, its record kept);
 * with audio, as root, turns kernel.task_delayacct on for the probe's causes (journalled, restored
 * at the end; docs/audio-probe.md, Causes); starts the probe; runs the plan, putting the host into
 * each variant's settings before its runs (journalled, core/sysctl.h), checkpointing the result to
 * cfg->output (the first checkpoint does not replace an existing file unless cfg->force:
 * -EEXIST, 128); then undoes all of it. *doc gets the result document (caller decrefs; NULL
 * when nothing ran). Returns an exit code: those of vms_runner_run(); 128 when the set-up
 * failed (reported); 130 when interrupted (also while waiting for the lock). */
int vms_suite_run(struct vms_suite *s, json_t **doc);

/* Undoes whatever is still set up (probe, knobs written back, cgroup and its record, zswap
 * off, swap file or zram device and its record, lock, signal handlers).
 * Idempotent; safe after a failed or interrupted vms_suite_run(). */
void vms_suite_release(struct vms_suite *s);

/* The signal that stopped the suite, or 0. */
int vms_suite_stop_signal(void);

#endif
