/* `vmsuite run`'s options: the table its help, completion and parser share, and what they
 * leave in struct vms_run_args. Checks each value and the rules between options (usage errors,
 * 129); cli/cmd-run.c runs what they ask for. */
#ifndef VMS_CLI_RUN_ARGS_H
#define VMS_CLI_RUN_ARGS_H
#include <stddef.h>

#include "audio-probe/probe.h"
#include "cli/builtin.h"
#include "core/machine.h"
#include "suite/variants.h"

struct vms_run_args {
	const char *specs[64];
	size_t n_specs;
	long runs;     /* 0 = each workload's default */
	int adaptive;  /* -n auto */
	double budget; /* --budget, seconds; 0 = not given */
	const char *output, *label, *workdir, *swap_dir;
	int overwrite;       /* -o may replace an existing file */
	int swap_file_given; /* --swap-file was given */
	int quiet;           /* -q: no progress */
	int no_report;
	int with_audio;
	const char *audio_file;
	int drop_caches;
	struct vms_machine_request machine;
	struct vms_probe_opts probe;
	int probe_opts; /* a probe option was given */
	double baseline_s;
	int idle_given;         /* --idle-seconds was given */
	double disturbed_above; /* --disturbed-above: other_cpu_pct that marks a run disturbed */
	long warmup;            /* --warmup: unrecorded-in-statistics runs before each workload */
	const char *sysctls[VMS_VARIANT_KNOBS_MAX]; /* --sysctl NAME=V1[,V2...] as given */
	size_t n_sysctls;
	const char *thp;         /* --thp off|kernel|off,kernel; NULL = the default */
	const char *against[16]; /* baseline result files: compare with them at the end */
	size_t n_against;
	const char *metrics[32]; /* --metric: these decide the verdict instead of the primary */
	size_t n_metrics;
};

/* Parses argv (argv[0] = "run") into a, which the caller set to the defaults first. 0, or the
 * exit status of a usage error (reported). */
int vms_run_parse_args(const struct vms_command *self, int argc, char **argv,
                       struct vms_run_args *a);
#endif
