/* The runner: executes workloads × runs, each run in a forked child measured from outside
 * (wait4 rusage, /proc/vmstat and PSI deltas, a ~10 Hz time series), and builds the result
 * document in memory, checkpointing it atomically after every run. */
#ifndef VMS_RUNNER_H
#define VMS_RUNNER_H

#include <jansson.h>
#include <stddef.h>

#include "audio-probe/probe.h"
#include "core/cgroup.h"
#include "workloads/workload.h"

struct vms_run_item {
	struct vms_workload_spec spec;
	long runs;
};

struct vms_run_config {
	struct vms_run_item *items;
	size_t n_items;
	const char *workdir; /* absolute path */
	const char *label;
	const char *output; /* result file path */
	int argc;           /* the command line, recorded in the result */
	char **argv;
	int progress;    /* progress lines on stderr (a terminal) */
	int drop_caches; /* sync + drop_caches between runs when root */
	double sample_hz;
	json_t *machine;           /* protocol.machine (owned by the caller), or NULL for "host" */
	const char *cpu_list;      /* pin children to these CPUs ("0-1"), or NULL */
	struct vms_cgroup *cgroup; /* the emulated machine's memory cgroup, or NULL */
	struct vms_probe *probe;   /* a started audio probe, or NULL; the runner stops it */
	double baseline_s;         /* idle audio baseline before the first workload */
};

/* Runs the plan. *doc_out gets the result document (caller decrefs), also written to
 * cfg->output. Returns an exit code: 0 all runs ok, 1 a run failed, 125 nothing could be
 * measured, 128 fatal (e.g. cannot write the result), 130 interrupted (result written,
 * marked incomplete). Errors are reported here. */
int vms_runner_run(const struct vms_run_config *cfg, json_t **doc_out);

/* Installs SIGINT/SIGTERM handlers that make the runner stop at the next check. */
void vms_runner_install_signals(void);

#endif
