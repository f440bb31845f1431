/* `vmsuite run`: parses the plan, checks everything that can be checked before the first
 * workload starts (bad input exits 129/128 with nothing run), then hands over to the suite
 * (suite/suite.h) and prints the 2001-style report. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "audio-probe/probe.h"
#include "core/machine.h"
#include "core/procfs.h"
#include "core/result.h"
#include "core/util.h"
#include "report/compare-render.h"
#include "report/report.h"
#include "suite/adaptive.h"
#include "suite/suite.h"
#include "suite/variants.h"
#include "workloads/plan.h"
#include "workloads/workload.h"

struct run_args {
	const char *specs[64];
	size_t n_specs;
	long runs;     /* 0 = each workload's default */
	int adaptive;  /* -n auto */
	double budget; /* --budget, seconds; 0 = not given */
	const char *output, *label, *workdir, *swap_dir;
	int force; /* -o may replace an existing file */
	int quiet;
	int with_audio;
	const char *audio_file;
	int drop_caches;
	struct vms_machine_request machine;
	struct vms_probe_opts probe;
	int probe_opts; /* a probe option was given */
	double baseline_s;
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

enum run_key {
	RUN_WORKLOAD,
	RUN_RUNS,
	RUN_OUTPUT,
	RUN_FORCE,
	RUN_LABEL,
	RUN_WORKDIR,
	RUN_MACHINE,
	RUN_MEM_LIMIT,
	RUN_SWAP_LIMIT,
	RUN_CPUS,
	RUN_SWAP_FILE,
	RUN_SWAP_DIR,
	RUN_NO_DROP_CACHES,
	RUN_WITH_AUDIO,
	RUN_BASELINE,
	RUN_DISTURBED_ABOVE,
	RUN_WARMUP,
	RUN_PROBE, /* the probe's own options, parsed by audio-probe */
	RUN_QUIET,
	RUN_SYSCTL,
	RUN_THP,
	RUN_AGAINST,
	RUN_METRIC,
	RUN_BUDGET,
};

static const struct vms_cli_option run_options[] = {
    {"workload", 'w', VMS_CLI_REQUIRED, "SPEC",
     "NAME[:key=value]...; repeatable. Sizes take K/M/G suffixes.\n"
     "Default: the 2001 plan, mmap001 (5 runs) then mtest01 (10 runs),\n"
     "sized by the machine profile. See `vmsuite list`.",
     RUN_WORKLOAD, 1},
    {"runs", 'n', VMS_CLI_REQUIRED, "RUNS|auto",
     "runs per workload (overrides the profile's and workload's); auto:\n"
     "rounds of runs until every deciding metric is decided (against\n"
     "--against, across variants, or alone precise to +-threshold/2) or\n"
     "the budget is spent",
     RUN_RUNS, 0},
    {"budget", 0, VMS_CLI_REQUIRED, "DURATION",
     "with -n auto: the time the runs may take (default 20m); a round\n"
     "that would overrun it is not started",
     RUN_BUDGET, 0},
    {"output", 'o', VMS_CLI_REQUIRED, "FILE",
     "result file, a new one unless --force (default\n"
     "vmsuite-<label>-<YYYYmmdd-HHMMSS>.json, with -2, -3... when taken)",
     RUN_OUTPUT, 0},
    {"force", 0, VMS_CLI_FLAG, NULL, "let -o replace an existing result file", RUN_FORCE, 0},
    {"label", 0, VMS_CLI_REQUIRED, "NAME",
     "name of this kernel/setup in reports (default: uname -r); no '/',\n"
     "no control characters",
     RUN_LABEL, 0},
    {"workdir", 0, VMS_CLI_REQUIRED, "DIR",
     "where file-backed workloads create their files (default: .);\n"
     "must be a disk filesystem, not tmpfs",
     RUN_WORKDIR, 0},
    {"machine", 0, VMS_CLI_REQUIRED, "PROFILE",
     "hron2001: the 2001 box, one CPU and a memory cgroup of 512 MiB RAM\n"
     "+ up to 1 GiB swap (default when a memory cgroup can be created, as\n"
     "root);\n"
     "host: no cgroup, sizes from the real machine (mmap001 = 4 x RAM,\n"
     "capped by free disk)",
     RUN_MACHINE, 0},
    {"mem-limit", 0, VMS_CLI_REQUIRED, "SIZE", "the emulated machine's RAM (overrides the profile)",
     RUN_MEM_LIMIT, 0},
    {"swap-limit", 0, VMS_CLI_REQUIRED, "SIZE",
     "the swap it may use (what the host lacks comes from a swap file,\n"
     "see --swap-file)",
     RUN_SWAP_LIMIT, 0},
    {"cpus", 0, VMS_CLI_REQUIRED, "N|all",
     "the emulated machine's CPUs: the workloads and the audio probe run\n"
     "on the N highest-numbered CPUs vmsuite may use, vmsuite itself on\n"
     "the others (hron2001: 1, as in 2001); all: no pinning",
     RUN_CPUS, 0},
    {"swap-file", 0, VMS_CLI_REQUIRED, "MODE",
     "as root, a temporary swap file (.vmsuite-swap-PID, switched off and\n"
     "removed at the end) makes up the swap the host lacks. MODE: auto\n"
     "(default) when the directory can hold one, yes: an error when it\n"
     "cannot, no: only the host's own swap",
     RUN_SWAP_FILE, 0},
    {"swap-dir", 0, VMS_CLI_REQUIRED, "DIR",
     "where the swap file goes (default: the work directory); not tmpfs,\n"
     "NFS or another filesystem that cannot hold swap",
     RUN_SWAP_DIR, 0},
    {"no-drop-caches", 0, VMS_CLI_FLAG, NULL,
     "only sync between runs (default, as root: sync + drop_caches)", RUN_NO_DROP_CACHES, 0},
    {"with-audio", 0, VMS_CLI_OPTIONAL, "FILE",
     "play FILE (default: the bundled sample MP3) through the audio\n"
     "probe during the suite: idle baseline first, then a Sound line\n"
     "per workload (underruns, gaps, skips, rating; see vmsuite probe)",
     RUN_WITH_AUDIO, 0},
    {"baseline", 0, VMS_CLI_REQUIRED, "SECONDS",
     "idle audio baseline before the first workload (default 10)", RUN_BASELINE, 0},
    {"disturbed-above", 0, VMS_CLI_REQUIRED, "PCT",
     "mark a run disturbed when other processes used more than PCT % of\n"
     "the emulated machine's CPUs during it (default 5)",
     RUN_DISTURBED_ABOVE, 0},
    {"warmup", 0, VMS_CLI_REQUIRED, "N",
     "N warm-up runs before each workload's first measured run (default\n"
     "1; 0 = none): recorded in the result, never counted in its figures\n"
     "(a first run is often slower: memory the VM handed back to its host)",
     RUN_WARMUP, 0},
    {"sysctl", 0, VMS_CLI_REQUIRED, "NAME=V1[,V2...]",
     "run under these values of a kernel knob (repeatable): vm.NAME,\n"
     "kernel.sched_*, kernel.task_delayacct, transparent_hugepage.*;\n"
     "each combination of values is a variant, the variants' runs\n"
     "interleaved; every knob is restored afterwards (docs/knobs.md)",
     RUN_SYSCTL, 0},
    {"thp", 0, VMS_CLI_REQUIRED, "off|kernel|off,kernel",
     "transparent huge pages in the workloads: off =\n"
     "prctl(PR_SET_THP_DISABLE), 4 KiB pages as in 2001; kernel = the\n"
     "kernel's own policy (default); both = a variant axis",
     RUN_THP, 0},
    {"", 0, VMS_CLI_GROUP, NULL, NULL, RUN_PROBE, 0}, /* the probe's: --device ... --cpu */
    {"quiet", 'q', VMS_CLI_FLAG, NULL, "no progress and no report on stdout", RUN_QUIET, 0},
    {"against", 0, VMS_CLI_REQUIRED, "BASELINE.json",
     "compare the result with this baseline and exit as `git bisect\n"
     "run` reads it: 0 good, 1 a regression, 125 cannot judge;\n"
     "repeatable (several baseline suites, 3 or more advised: each\n"
     "is checked, their suite means decide).\n"
     "The verdict is stored in the result. See docs/bisect.md",
     RUN_AGAINST, 1},
    {"metric", 'm', VMS_CLI_REQUIRED, "NAME",
     "with --against: this metric decides instead of the primary ones\n"
     "(repeatable; failed_runs always decides)",
     RUN_METRIC, 1},
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};

/* The rule for the probe's options in run: "--device, ... and --cpu go with --with-audio",
 * with sep before --with-audio. Returns buf. */
static const char *probe_rule(char *buf, size_t len, const char *sep)
{
	char names[256];

	snprintf(buf, len, "%s go with%s--with-audio", vms_probe_opt_names(names, sizeof(names)),
	         sep);
	return buf;
}

/* The rule in the help, after the options. */
static char *probe_rule_help(void)
{
	char rule[512];

	return vms_xasprintf("%s; they are the options of `vmsuite probe` and take the same "
	                     "values.\n",
	                     probe_rule(rule, sizeof(rule), "\n"));
}

const struct vms_cli_usage vms_run_usage = {
    .operands = NULL,
    .about = "Runs each workload RUNS times in a forked child inside the emulated machine, "
             "measures\n"
             "every run (rusage, /proc/vmstat, PSI, the memory cgroup's own figures, a 10 Hz "
             "time\n"
             "series), writes every raw number to a JSON result file and prints the 2001-style "
             "report.\n"
             "With --sysctl or --thp off,kernel every combination of values is a variant: run 1 "
             "of\n"
             "every variant, then run 2, ...; the knobs are restored afterwards.\n",
    .options = run_options,
    .group = vms_probe_run_cli_options,
    .generated_more = probe_rule_help,
    .more =
        "\nExamples:\n"
        "  vmsuite run                                       # the 2001 plan on the 2001 "
        "machine\n"
        "  vmsuite run -w mmap001:bytes=256M -w mtest01:percent=80:write=1 -n 3\n"
        "  vmsuite run --machine host -w mtest01:bytes=1G -n 5 -o host.json\n"
        "  vmsuite run --with-audio --latency pro            # a low-latency player\n"
        "  vmsuite run --cpus all --swap-file no             # all CPUs, the host's own swap only\n"
        "  vmsuite run -w mtest01:bytes=256M -n 5 --sysctl vm.page-cluster=0,3\n"
        "                                                    # two variants, interleaved\n"
        "  vmsuite run -w mtest01:bytes=256M -n auto -o good.json  # until precise, <= 20 min\n"
        "  vmsuite run -w mtest01:bytes=256M -n auto --against good.json --budget 30m\n"
        "                                                    # until good or bad, <= 30 min\n"
        "\n"
        "Exit status: 0 all runs ok; 1 a run failed (OOM kill, signal, error) or the audio\n"
        "probe died; 125 nothing could be measured; 128 tool error; 129 usage error (also\n"
        "a --sysctl value the kernel refuses: nothing ran, every knob as it was);\n"
        "130 interrupted (result kept, incomplete). With --against: 0 no regression against\n"
        "the baseline, 1 a regression (failed runs included), 125 cannot judge (not comparable,\n"
        "in any baseline suite; a workload missing or sized differently; not measured; a\n"
        "deciding metric unstable, or a timing change confounded by other processes; the\n"
        "audio probe died). With -n auto the verdict is that of the last look, at its\n"
        "per-look alpha (docs/compare.md, Adaptive runs).\n",
};

static const char *profile_names(void)
{
	static char names[256];
	size_t n = 0, i;

	if (!names[0])
		for (i = 0; vms_machine_profiles[i].name && n < sizeof(names); i++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
			                      vms_machine_profiles[i].name);
	return names;
}

/* One option or operand of `run` (a vms_cli_handler). */
/* True when s holds a C0 control character, DEL, or a C1 control in UTF-8 (U+0080-U+009F). */
static int has_control(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return 1;
	return 0;
}

static int run_option(void *ctx, const struct vms_cli_option *opt, const char *val, char *err,
                      size_t errlen)
{
	struct run_args *a = ctx;

	if (!opt) {
		snprintf(err, errlen, "unexpected argument '%s' (workloads go with -w)", val);
		return -EINVAL;
	}
	switch ((enum run_key)opt->key) {
	case RUN_WORKLOAD:
		if (a->n_specs == VMS_ARRAY_SIZE(a->specs)) {
			snprintf(err, errlen, "too many -w options");
			return -EINVAL;
		}
		a->specs[a->n_specs++] = val;
		return 0;
	case RUN_RUNS:
		if (!strcmp(val, "auto")) {
			a->adaptive = 1;
			a->runs = 0;
			return 0;
		}
		if (vms_parse_long(val, 1, 100000, &a->runs)) {
			snprintf(err, errlen,
			         "runs must be a whole number from 1 to 100000 or 'auto', not '%s'",
			         val);
			return -EINVAL;
		}
		a->adaptive = 0;
		return 0;
	case RUN_BUDGET:
		if (vms_parse_seconds(val, &a->budget) || a->budget < 1 || a->budget > 7 * 86400) {
			snprintf(err, errlen,
			         "--budget needs a duration from 1s to 7 days (90s, 20m, 2h), not "
			         "'%s'",
			         val);
			return -EINVAL;
		}
		return 0;
	case RUN_OUTPUT:
		if (!*val) {
			snprintf(err, errlen, "-o needs a file name");
			return -EINVAL;
		}
		a->output = val;
		return 0;
	case RUN_FORCE: a->force = 1; return 0;
	case RUN_LABEL:
		if (!*val || strchr(val, '/')) {
			snprintf(err, errlen, "--label needs a name without '/'");
			return -EINVAL;
		}
		/* it names the default result file and heads every report: no newline, ESC... */
		if (has_control(val)) {
			snprintf(err, errlen,
			         "--label needs a name without control characters (newline, tab, "
			         "escape)");
			return -EINVAL;
		}
		a->label = val;
		return 0;
	case RUN_WORKDIR:
		if (!*val) {
			snprintf(err, errlen, "--workdir needs a directory");
			return -EINVAL;
		}
		a->workdir = val;
		return 0;
	case RUN_MACHINE:
		if (!vms_machine_profile_find(val)) {
			if (*val)
				snprintf(err, errlen, "unknown machine profile '%s' (%s)", val,
				         profile_names());
			else
				snprintf(err, errlen, "--machine needs a profile (%s)",
				         profile_names());
			return -EINVAL;
		}
		a->machine.profile = val;
		return 0;
	case RUN_MEM_LIMIT: {
		struct vms_meminfo mi;
		char ram[32];

		/* the emulated machine's RAM must be real RAM: a larger limit emulates nothing
		 * and sizes the workloads for memory the host does not have */
		if (vms_meminfo_read(&mi, NULL))
			mi.mem_total = UINT64_MAX;
		if (vms_parse_size(val, &a->machine.mem_limit) ||
		    a->machine.mem_limit < (16u << 20) || a->machine.mem_limit > mi.mem_total) {
			snprintf(
			    err, errlen,
			    "--mem-limit needs a size from 16M to the host's RAM (%s), not '%s'",
			    vms_format_size(mi.mem_total, ram, sizeof(ram)), val);
			return -EINVAL;
		}
		a->machine.set_mem_limit = 1;
		return 0;
	}
	case RUN_SWAP_LIMIT:
		if (vms_parse_size(val, &a->machine.swap_limit)) {
			snprintf(err, errlen, "--swap-limit needs a size, not '%s'", val);
			return -EINVAL;
		}
		a->machine.set_swap_limit = 1;
		return 0;
	case RUN_CPUS:
		if (!strcmp(val, "all")) {
			a->machine.cpus = VMS_MACHINE_CPUS_ALL;
			return 0;
		}
		if (vms_parse_long(val, 1, 4096, &a->machine.cpus)) {
			snprintf(err, errlen, "--cpus needs a number of CPUs or 'all', not '%s'",
			         val);
			return -EINVAL;
		}
		return 0;
	case RUN_SWAP_FILE:
		if (!strcmp(val, "auto"))
			a->machine.swap_file = VMS_SWAPFILE_AUTO;
		else if (!strcmp(val, "yes"))
			a->machine.swap_file = VMS_SWAPFILE_YES;
		else if (!strcmp(val, "no"))
			a->machine.swap_file = VMS_SWAPFILE_NO;
		else {
			snprintf(err, errlen, "--swap-file takes auto, yes or no, not '%s'", val);
			return -EINVAL;
		}
		return 0;
	case RUN_SWAP_DIR:
		if (!*val) {
			snprintf(err, errlen, "--swap-dir needs a directory");
			return -EINVAL;
		}
		a->swap_dir = val;
		return 0;
	case RUN_NO_DROP_CACHES: a->drop_caches = 0; return 0;
	case RUN_WITH_AUDIO:
		a->with_audio = 1;
		a->audio_file = val;
		return 0;
	case RUN_BASELINE:
		if (vms_parse_seconds(val, &a->baseline_s) || a->baseline_s > 3600) {
			snprintf(err, errlen, "--baseline needs seconds (0 to 3600), not '%s'",
			         val);
			return -EINVAL;
		}
		return 0;
	case RUN_DISTURBED_ABOVE:
		if (vms_parse_decimal(val, NULL, &a->disturbed_above) || a->disturbed_above <= 0 ||
		    a->disturbed_above > 100) {
			snprintf(
			    err, errlen,
			    "--disturbed-above needs a percentage above 0 and at most 100, not "
			    "'%s'",
			    val);
			return -EINVAL;
		}
		return 0;
	case RUN_WARMUP:
		if (vms_parse_long(val, 0, 10, &a->warmup)) {
			snprintf(err, errlen,
			         "--warmup needs a whole number from 0 to 10, not '%s'", val);
			return -EINVAL;
		}
		return 0;
	case RUN_PROBE:
		a->probe_opts = 1;
		return vms_probe_opt_set(&a->probe, opt->name, val, err, errlen);
	case RUN_QUIET: a->quiet = 1; return 0;
	case RUN_SYSCTL:
		if (a->n_sysctls == VMS_ARRAY_SIZE(a->sysctls)) {
			snprintf(err, errlen, "at most %d --sysctl options", VMS_VARIANT_KNOBS_MAX);
			return -EINVAL;
		}
		a->sysctls[a->n_sysctls++] = val;
		return 0;
	case RUN_THP:
		if (strcmp(val, "off") && strcmp(val, "kernel") && strcmp(val, "off,kernel") &&
		    strcmp(val, "kernel,off")) {
			snprintf(err, errlen,
			         "--thp takes off, kernel, off,kernel or kernel,off, not '%s'",
			         val);
			return -EINVAL;
		}
		a->thp = val;
		return 0;
	case RUN_AGAINST:
		if (a->n_against == VMS_ARRAY_SIZE(a->against) || !*val) {
			snprintf(err, errlen, "--against needs a result file (at most %zu)",
			         VMS_ARRAY_SIZE(a->against));
			return -EINVAL;
		}
		a->against[a->n_against++] = val;
		return 0;
	case RUN_METRIC:
		if (a->n_metrics == VMS_ARRAY_SIZE(a->metrics) || !*val) {
			snprintf(err, errlen, "--metric needs a metric name (at most %zu)",
			         VMS_ARRAY_SIZE(a->metrics));
			return -EINVAL;
		}
		a->metrics[a->n_metrics++] = val;
		return 0;
	}
	snprintf(err, errlen, "unknown option '--%s'", opt->name);
	return -EINVAL;
}

static int parse_args(const struct vms_command *self, int argc, char **argv, struct run_args *a)
{
	char why[512];
	int ret, i;

	if ((ret = vms_cli_parse(self->name, self->usage, argc, argv, run_option, a)))
		return ret;
	/* JSON holds UTF-8 only: jansson would drop such a label, path or argument silently */
	for (i = 1; i < argc; i++)
		if (!vms_utf8_valid(argv[i]))
			return vms_usage_error(
			    self,
			    "argument %d is not valid UTF-8; the result file "
			    "records labels, paths and the command line as UTF-8 "
			    "text",
			    i);
	if (!a->with_audio && a->probe_opts)
		return vms_usage_error(self, "%s", probe_rule(why, sizeof(why), " "));
	if (a->with_audio && vms_probe_opts_check(&a->probe, why, sizeof(why)))
		return vms_usage_error(self, "%s", why);
	if (a->n_metrics && !a->n_against)
		return vms_usage_error(self, "--metric goes with --against");
	if (a->budget && !a->adaptive)
		return vms_usage_error(self, "--budget goes with -n auto");
	return 0;
}

/* Loads the --against baselines into docs[0..n) before anything runs: a baseline that cannot
 * be compared is a usage error (exit 129: `git bisect run` stops, nothing was measured). */
static int load_baselines(const struct vms_command *self, const struct run_args *a, json_t **docs)
{
	char err[512];
	size_t i;

	for (i = 0; i < a->n_against; i++) {
		enum vms_load_error e;

		docs[i] = vms_result_load(a->against[i], &e, err, sizeof(err));
		if (!docs[i])
			return vms_usage_error(self, "--against '%s': %s", a->against[i], err);
	}
	if (a->n_metrics && vms_compare_check_metrics(docs, a->n_against, a->metrics, a->n_metrics,
	                                              err, sizeof(err)))
		return vms_usage_error(self, "%s", err);
	return 0;
}

/* True when the audio probe died during the run (a window without sound data). */
static int probe_died(const json_t *doc)
{
	const json_t *wl, *run;
	size_t i, j;

	json_array_foreach (json_object_get(doc, "workloads"), i, wl)
		json_array_foreach (json_object_get(wl, "runs"), j, run) {
			const char *why = json_string_value(
			    json_object_get(json_object_get(run, "audio"), "no_sound_data"));

			if (why && !strcmp(why, "probe_died"))
				return 1;
		}
	return 0;
}

/* `--against`: compares doc (written to output) with the baselines, prints the verdict lines,
 * stores the verdict in the result and returns the `git bisect run` status: 0, 1 or 125. */
static int against(const struct run_args *a, json_t **base, json_t *doc, const char *output)
{
	json_t *docs[VMS_ARRAY_SIZE(a->against) + 1];
	const char *paths[VMS_ARRAY_SIZE(a->against) + 1];
	size_t side[VMS_ARRAY_SIZE(a->against) + 1], i, n = a->n_against + 1;
	struct vms_compare_opts opts;
	struct vms_cmp_input in;
	struct vms_compare c;
	char err[512];
	int status, ret;

	if (vms_result_check_values(doc, err, sizeof(err))) {
		vms_error("--against: this run's result cannot be compared: %s", err);
		return VMS_EXIT_SKIP;
	}
	for (i = 0; i < a->n_against; i++) {
		docs[i] = base[i];
		paths[i] = a->against[i];
		side[i] = 0;
	}
	docs[i] = doc;
	paths[i] = output;
	side[i] = 1;
	in = (struct vms_cmp_input){.docs = docs,
	                            .paths = paths,
	                            .side = side,
	                            .n = n,
	                            .decisive = a->n_metrics ? a->metrics : NULL,
	                            .n_decisive = a->n_metrics};
	vms_compare_opts_init(&opts);
	/* an adaptive run's verdict is its last look's: at the per-look alpha */
	opts.alpha = vms_adaptive_alpha(doc, opts.alpha);
	vms_compare_build(&c, &opts, &in);
	status = vms_compare_bisect_status(&c);
	vms_compare_note_suites(&c, 1);
	if (vms_compare_confounded(&c, 0))
		vms_note("--against: other processes took the CPUs during %s's runs or the "
		         "baseline's: %zu deciding timing change%s confounded, not judged",
		         output, vms_compare_confounded(&c, 0),
		         vms_compare_confounded(&c, 0) > 1 ? "s" : "");
	if (status == 0 && probe_died(doc)) {
		vms_note("--against: the audio probe died during the run: its sound cannot be "
		         "judged (exit 125)");
		status = VMS_EXIT_SKIP;
	}
	if (!a->quiet) {
		printf("\n");
		vms_compare_render_verdicts(&c, stdout);
	}
	json_object_set_new(doc, "verdict",
	                    vms_compare_verdict_json(&c, a->against, a->n_against, status));
	vms_compare_release(&c);
	ret = vms_json_write_file(doc, output, 0);
	if (ret) {
		vms_error("--against: cannot store the verdict in '%s': %s", output,
		          strerror(-ret));
		return VMS_EXIT_FATAL;
	}
	vms_note("verdict against %s%s: exit %d (%s)", a->against[0],
	         a->n_against > 1 ? " and more" : "", status,
	         status == 0   ? "good: not worse than the baseline by --detect"
	         : status == 1 ? "bad: a regression"
	                       : "skip: cannot judge");
	return status;
}

/* -n auto --against: every workload of the plan needs VMS_ADAPTIVE_MIN_BASE successful runs
 * on the baseline side (all baselines together), else a usage error (129) before anything
 * runs. With 2, Welch's test is too often fooled by a baseline whose two values happen to be
 * close (6.2 % false "bad" at cv 10 % in simulation, against 2.9 % with 3). */
#define VMS_ADAPTIVE_MIN_BASE 3
static int adaptive_check_baselines(const struct vms_command *self, const struct run_args *a,
                                    json_t *const *base, const struct vms_run_item *items, size_t n)
{
	size_t i, b, r;

	for (i = 0; i < n; i++) {
		const char *name = items[i].spec.w->name;
		long ok = 0;

		for (b = 0; b < a->n_against; b++) {
			const json_t *run;

			json_array_foreach (
			    json_object_get(vms_result_workload(base[b], name), "runs"), r, run) {
				const char *st = json_string_value(json_object_get(run, "status"));

				ok += st && !strcmp(st, "ok");
			}
		}
		if (ok < VMS_ADAPTIVE_MIN_BASE)
			return vms_usage_error(
			    self,
			    "-n auto --against: the baseline has %ld successful run%s of %s; "
			    "deciding against it needs at least %d (make the baseline with -n "
			    "auto)",
			    ok, ok == 1 ? "" : "s", name, VMS_ADAPTIVE_MIN_BASE);
	}
	return 0;
}

/* -n auto: the suite's look between rounds (suite/adaptive.h) over the plan's n_items items
 * and n_variants variants, within --budget. */
static void adaptive_setup(const struct run_args *a, json_t *const *base, const char *output,
                           size_t n_items, size_t n_variants, struct vms_adaptive *ad,
                           struct vms_suite_config *sc)
{
	struct vms_adaptive_config ac = {0};

	vms_compare_opts_init(&ac.opts);
	ac.budget_s = a->budget ? a->budget : VMS_ADAPTIVE_BUDGET_S;
	ac.alpha = ac.opts.alpha;
	ac.baselines = base;
	ac.baseline_paths = a->against;
	ac.n_baselines = a->n_against;
	ac.decisive = a->n_metrics ? a->metrics : NULL;
	ac.n_decisive = a->n_metrics;
	ac.output = output;
	ac.n_items = n_items;
	ac.n_variants = n_variants ? n_variants : 1;
	ac.progress = sc->progress;
	vms_adaptive_init(ad, &ac);
	sc->look = vms_adaptive_look;
	sc->look_ctx = ad;
	sc->progress_note = ad->note;
}

/* After an adaptive run: why it stopped, and each workload whose baseline has too few runs
 * to show "no change" however many runs this kernel adds (its runs bound the interval). */
static void adaptive_done(const struct vms_adaptive *ad, const json_t *doc)
{
	const json_t *looks = json_object_get(json_object_get(doc, "adaptive"), "looks"), *w;
	const json_t *last = json_array_get(looks, json_array_size(looks) - 1);
	size_t i;

	if (ad->why[0])
		vms_note("-n auto: %s", ad->why);
	json_array_foreach (json_object_get(last, "workloads"), i, w) {
		json_int_t base = json_integer_value(json_object_get(w, "baseline_runs"));
		const char *name = json_string_value(json_object_get(w, "workload"));

		const char *d = json_string_value(json_object_get(w, "decision"));

		/* a decided workload did not need more of it */
		if (!json_is_true(json_object_get(w, "baseline_too_few")) ||
		    (d && !strcmp(d, "decided")))
			continue;
		if (base >= vms_adaptive_schedule[VMS_ADAPTIVE_MAX_LOOKS - 1])
			vms_note(
			    "--against: the baseline's %" JSON_INTEGER_FORMAT
			    " runs of %s spread too much to show a change within the threshold "
			    "however many runs this kernel adds: quiet the machine (vmsuite "
			    "sysinfo lists noise sources) and remake it",
			    base, name);
		else
			vms_note("--against: the baseline has only %" JSON_INTEGER_FORMAT
			         " runs of %s (this run %" JSON_INTEGER_FORMAT
			         "): too few to show a change within the threshold, however many "
			         "runs this kernel adds; make the baseline with -n auto",
			         base, name, json_integer_value(json_object_get(w, "runs")));
	}
}

/* vmsuite-<label>-<stamp>.json, or -2, -3... after the stamp when that is taken (quick runs
 * share a second); the first checkpoint still refuses a name taken meanwhile. */
static char *default_output(const char *label)
{
	char stamp[32];
	time_t now = time(NULL);
	struct stat st;
	struct tm tm;
	char *name;
	int k;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	name = vms_xasprintf("vmsuite-%s-%s.json", label, stamp);
	for (k = 2; k < 1000 && !lstat(name, &st); k++) {
		free(name);
		name = vms_xasprintf("vmsuite-%s-%s-%d.json", label, stamp, k);
	}
	return name;
}

int cmd_run(int argc, char **argv)
{
	const struct vms_command *self = vms_command_find("run");
	struct run_args a = {.drop_caches = 1, .baseline_s = 10, .warmup = 1};
	struct vms_suite_config sc = {0};
	struct vms_suite suite;
	struct vms_machine machine;
	struct vms_run_item items[64] = {0};
	struct vms_variants variants = {0};
	struct vms_adaptive adaptive = {0};
	char why[1024], workdir[PATH_MAX], swap_dir[PATH_MAX];
	char *output = NULL;
	struct utsname uts;
	json_t *doc = NULL, *base[VMS_ARRAY_SIZE(a.against)] = {NULL};
	size_t i, n = 0;
	int ret, e;

	if ((ret = parse_args(self, argc, argv, &a)))
		return ret;
	if ((ret = load_baselines(self, &a, base)))
		goto out;
	/* no -w: the machine profile's default plan, made once the machine is known */
	for (i = 0; i < a.n_specs; i++) {
		if (vms_workload_spec_parse(a.specs[i], &items[n].spec, why, sizeof(why))) {
			ret = vms_usage_error(self, "%s", why);
			goto out;
		}
		n++;
	}
	if (!realpath(a.workdir ? a.workdir : ".", workdir)) {
		vms_error("cannot use work directory '%s': %s", a.workdir ? a.workdir : ".",
		          strerror(errno));
		ret = VMS_EXIT_FATAL;
		goto out;
	}
	if (!vms_utf8_valid(workdir)) {
		vms_error("cannot use work directory '%s': its path is not valid UTF-8, and the "
		          "result file records it as UTF-8 text; use another directory",
		          workdir);
		ret = VMS_EXIT_FATAL;
		goto out;
	}
	a.machine.workdir = workdir;
	if (a.swap_dir) {
		if (a.machine.swap_file == VMS_SWAPFILE_NO) {
			ret = vms_usage_error(self, "--swap-dir goes with a swap file, not with "
			                            "--swap-file no");
			goto out;
		}
		/* a file or a read-only directory would fail only once the suite has set up */
		e = realpath(a.swap_dir, swap_dir) ? -vms_dir_writable(swap_dir) : errno;
		if (e) {
			vms_error("cannot use swap directory '%s': %s", a.swap_dir, strerror(e));
			ret = VMS_EXIT_FATAL;
			goto out;
		}
		a.machine.swap_dir = swap_dir;
	}
	if (vms_machine_resolve(&machine, &a.machine)) {
		ret = VMS_EXIT_FATAL;
		goto out;
	}
	if (a.probe.cpu_list && machine.cpus) {
		cpu_set_t want, both;

		/* the player is pinned within the emulated machine's CPUs */
		vms_cpu_list_parse(a.probe.cpu_list, &want);
		CPU_AND(&both, &want, &machine.cpuset);
		if (!CPU_EQUAL(&both, &want)) {
			ret =
			    vms_usage_error(self,
			                    "--cpu %s is outside the emulated machine's CPUs (%s); "
			                    "--cpus changes those",
			                    a.probe.cpu_list, machine.cpu_list);
			goto out;
		}
	}
	/* sizes the machine gives to what -w left unset (or the profile's whole plan) */
	if (vms_plan_apply(items, &n, VMS_ARRAY_SIZE(items), &machine,
	                   a.adaptive ? vms_adaptive_schedule[0] : a.runs)) {
		ret = VMS_EXIT_FATAL;
		goto out;
	}
	if (a.adaptive && a.n_against && (ret = adaptive_check_baselines(self, &a, base, items, n)))
		goto out;
	/* the knobs: names, values and writability checked before anything changes */
	ret = vms_variants_build(&variants, a.sysctls, a.n_sysctls, a.thp, 1, why, sizeof(why));
	if (ret == -EINVAL || ret == -ENOENT) {
		ret = vms_usage_error(self, "%s", why);
		goto out;
	}
	if (ret) {
		vms_error("%s", why);
		ret = VMS_EXIT_FATAL;
		goto out;
	}
	uname(&uts);
	if (!a.label)
		a.label = uts.release;
	output = a.output ? vms_xstrdup(a.output) : default_output(a.label);
	if (vms_output_check("result", output, a.force, "--force")) {
		ret = VMS_EXIT_FATAL;
		goto out;
	}

	/* the suite owns everything from here: lock, cgroup, probe, signals, checkpoints */
	sc.items = items;
	sc.n_items = n;
	sc.machine = &machine;
	sc.workdir = workdir;
	sc.label = a.label;
	sc.output = output;
	sc.force = a.force;
	sc.argc = argc + 1;
	sc.argv = argv - 1;
	sc.progress = !a.quiet && vms_stderr_is_tty();
	sc.drop_caches = a.drop_caches;
	sc.sample_hz = 10;
	sc.with_audio = a.with_audio;
	sc.probe = a.probe;
	sc.probe.file = a.audio_file;
	sc.probe_cpu_list = a.probe.cpu_list;
	sc.baseline_s = a.baseline_s;
	sc.disturbed_above = a.disturbed_above;
	sc.warmup = a.warmup;
	sc.variants = variants.v;
	sc.n_variants = variants.n;
	sc.knobs = variants.knobs;
	sc.n_knobs = variants.n_knobs;
	if (a.adaptive)
		adaptive_setup(&a, base, output, n, variants.n, &adaptive, &sc);
	vms_suite_init(&suite, &sc);
	ret = vms_suite_run(&suite, &doc);
	vms_suite_release(&suite);
	if (doc && !a.quiet)
		vms_report_text(stdout, doc);
	if (doc && suite.save_failed) {
		/* reported by the checkpoint; the file holds the last save, if there was one */
		if (suite.saves)
			vms_error("the result could not be written completely: '%s' holds it as it "
			          "was after the last save (it did not finish)",
			          output);
		else
			vms_error("the result could not be written: nothing was kept");
		ret = VMS_EXIT_FATAL;
		doc = (json_decref(doc), NULL);
	} else if (doc && !a.quiet) {
		printf("\nResult: %s\n", output);
	}
	if (ret == VMS_EXIT_INTERRUPTED && doc)
		vms_note("interrupted: the result so far is in '%s', marked incomplete", output);
	if (a.adaptive && doc)
		adaptive_done(&adaptive, doc);
	/* the verdict: only of a run that finished (interrupted: 130 stops a bisect; a tool
	 * error stays 128); a failed run is judged, failed_runs decides */
	if (a.n_against && doc && (ret == VMS_EXIT_OK || ret == VMS_EXIT_FAILED))
		ret = against(&a, base, doc, output);
	else if (a.n_against && ret == VMS_EXIT_SKIP)
		vms_note("--against: nothing was measured: exit 125 (skip)");
	else if (a.n_against && ret == VMS_EXIT_FATAL && doc &&
	         json_integer_value(json_object_get(doc, "exit_status")) == VMS_EXIT_FATAL) {
		/* a finished result that says 128: the work filesystem filled up (runner.h) */
		vms_note("--against: the work filesystem filled up: exit 125 (skip)");
		ret = VMS_EXIT_SKIP;
	}
out:
	for (i = 0; i < a.n_against; i++)
		json_decref(base[i]);
	json_decref(doc);
	vms_variants_release(&variants);
	vms_adaptive_release(&adaptive);
	for (i = 0; i < n; i++)
		vms_workload_spec_release(&items[i].spec);
	free(output);
	return ret;
}
