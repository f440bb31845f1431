/* `vmsuite run`'s options: the table (help, completion, parser) and the checks of each value
 * and of the rules between options. */
#include "cli/run-args.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/metric.h"
#include "core/procfs.h"
#include "core/util.h"
#include "report/compare-render.h"
#include "report/report.h"
#include "suite/adaptive.h"
#include "workloads/plan.h"
#include "workloads/workload.h"

enum run_key {
	RUN_WORKLOAD,
	RUN_RUNS,
	RUN_OUTPUT,
	RUN_OVERWRITE,
	RUN_LABEL,
	RUN_WORKDIR,
	RUN_MACHINE,
	RUN_MEM_LIMIT,
	RUN_SWAP_LIMIT,
	RUN_CPUS,
	RUN_SWAP_FILE,
	RUN_SWAP_DIR,
	RUN_SWAP_KIND,
	RUN_NO_DROP_CACHES,
	RUN_WITH_AUDIO,
	RUN_IDLE_SECONDS,
	RUN_DISTURBED_ABOVE,
	RUN_WARMUP,
	RUN_PROBE, /* the probe's own options, parsed by audio-probe */
	RUN_QUIET,
	RUN_NO_REPORT,
	RUN_SYSCTL,
	RUN_THP,
	RUN_AGAINST,
	RUN_METRIC,
	RUN_BUDGET,
};

/* The values --thp and --swap-file take (the parser and the completion read these) */
static const char *const thp_values[] = {"off", "kernel", "off,kernel", "kernel,off", NULL};
static const struct {
	const char *name;
	enum vms_swapfile_mode mode;
} swap_file_values[] = {
    {"auto", VMS_SWAPFILE_AUTO},
    {"yes", VMS_SWAPFILE_YES},
    {"no", VMS_SWAPFILE_NO},
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
     "result file, a new one unless --overwrite (default\n"
     "vmsuite-<label>-<YYYYmmdd-HHMMSS>.json, with -2, -3... when taken);\n"
     "-: the result JSON on standard output once, at the end (the report\n"
     "then goes to standard error)",
     RUN_OUTPUT, 0},
    {"overwrite", 0, VMS_CLI_FLAG, NULL, "let -o replace an existing result file", RUN_OVERWRITE,
     0},
    {"force", 0, VMS_CLI_ALIAS, "overwrite", NULL, 0, 0},
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
    {"swap-kind", 0, VMS_CLI_REQUIRED, "KIND",
     "what the emulated machine swaps to: file (default): a swap file on\n"
     "disk, as in 2001 (see --swap-file); zram: as root, a zram device\n"
     "vmsuite adds (hot_add), sizes to the swap limit and removes at the\n"
     "end, its compressed pool capped at a quarter of the RAM, which the\n"
     "memory cgroup does not get (--swap-file and --swap-dir: not zram);\n"
     "zswap: as root, the swap file with zswap switched on in front of it\n"
     "(max_pool_percent near a quarter of the RAM; on cgroup v1 its pool is\n"
     "not charged to the memory cgroup), put back at the end; not with\n"
     "--sysctl zswap.enabled",
     RUN_SWAP_KIND, 0},
    {"no-drop-caches", 0, VMS_CLI_FLAG, NULL,
     "only sync between runs (default, as root: sync + drop_caches)", RUN_NO_DROP_CACHES, 0},
    {"with-audio", 0, VMS_CLI_OPTIONAL, "FILE",
     "play FILE (default: the bundled sample MP3) through the audio\n"
     "probe during the suite: idle baseline first, then a Sound line\n"
     "per workload (underruns, gaps, skips, rating; see vmsuite probe)",
     RUN_WITH_AUDIO, 0},
    {"idle-seconds", 0, VMS_CLI_REQUIRED, "SECONDS",
     "with --with-audio: the idle audio baseline, played before the first\n"
     "workload (default 10)",
     RUN_IDLE_SECONDS, 0},
    {"baseline", 0, VMS_CLI_ALIAS, "idle-seconds", NULL, 0, 0},
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
     "kernel.sched_*, kernel.task_delayacct, transparent_hugepage.*,\n"
     "lru_gen.* (MGLRU: enabled=n,y) and zswap.* (enabled=0,1);\n"
     "each combination of values is a variant, the variants' runs\n"
     "interleaved; every knob is restored afterwards (docs/knobs.md)",
     RUN_SYSCTL, 1},
    {"thp", 0, VMS_CLI_REQUIRED, "off|kernel|off,kernel",
     "transparent huge pages in the workloads: off =\n"
     "prctl(PR_SET_THP_DISABLE), 4 KiB pages as in 2001; kernel = the\n"
     "kernel's own policy (default); both = a variant axis",
     RUN_THP, 0},
    {"", 0, VMS_CLI_GROUP, NULL, NULL, RUN_PROBE, 0}, /* the probe's: --device ... --probe-cpus */
    {"quiet", 'q', VMS_CLI_FLAG, NULL,
     "no progress on standard error (the report is still printed)", RUN_QUIET, 0},
    {"no-report", 0, VMS_CLI_FLAG, NULL,
     "print no report (nor the verdict lines of --against); the result\n"
     "file is written all the same",
     RUN_NO_REPORT, 0},
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

/* The rule for the probe's options in run: "--device, ... and --probe-cpus go with --with-audio",
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

/* What completes the value of a run option (struct vms_cli_usage's values). */
static char *run_values(const struct vms_cli_option *o)
{
	const struct vms_workload *const *w;
	char *words = NULL;
	size_t i;

	if (!o)
		return NULL; /* workloads go with -w */
	switch ((enum run_key)o->key) {
	case RUN_WORKLOAD:
		for (w = vms_workloads; *w; w++)
			vms_words_add(&words, (*w)->name);
		return words;
	case RUN_RUNS: return vms_xstrdup("auto");
	case RUN_OUTPUT:
	case RUN_WITH_AUDIO: return vms_xstrdup(VMS_CLI_FILES);
	case RUN_WORKDIR:
	case RUN_SWAP_DIR: return vms_xstrdup(VMS_CLI_DIRS);
	case RUN_AGAINST: return vms_xstrdup(VMS_CLI_RESULTS);
	case RUN_MACHINE:
		for (i = 0; vms_machine_profiles[i].name; i++)
			vms_words_add(&words, vms_machine_profiles[i].name);
		return words;
	case RUN_CPUS: return vms_xstrdup("all");
	case RUN_SWAP_FILE:
		for (i = 0; i < VMS_ARRAY_SIZE(swap_file_values); i++)
			vms_words_add(&words, swap_file_values[i].name);
		return words;
	case RUN_SWAP_KIND:
		for (i = 0; i < VMS_SWAP_KIND_NR; i++)
			vms_words_add(&words, vms_swap_kinds[i].name);
		return words;
	case RUN_THP:
		for (i = 0; thp_values[i]; i++)
			vms_words_add(&words, thp_values[i]);
		return words;
	case RUN_METRIC:
		for (i = 0; i < vms_metric_count(); i++)
			vms_words_add(&words, vms_metric_defs[i].name);
		return words;
	case RUN_PROBE: return vms_probe_opt_values(o->name);
	default: return NULL; /* numbers, sizes, durations, names */
	}
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
             "every variant, then run 2, ...; the knobs are restored afterwards.\n"
             "Progress goes to standard error: a header, then a line as each run ends ([run i/n "
             "of the\n"
             "suite], workload run, status, elapsed time, time left); on a terminal also a live "
             "line.\n"
             "Each line is flushed, so a pipe, a CI log or a serial console shows them as they "
             "come.\n"
             "The report goes to standard output, or to standard error with -o -.\n",
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
        "  vmsuite run --swap-kind zram -w mtest01 -n 2      # swap to a zram device\n"
        "  vmsuite run -w mtest01:bytes=256M -n 5 --sysctl vm.page-cluster=0,3\n"
        "                                                    # two variants, interleaved\n"
        "  vmsuite run -w memload -n 3 --sysctl zswap.enabled=0,1  # zswap off and on\n"
        "  vmsuite run -w mtest01:bytes=256M -n auto -o good.json  # until precise, <= 20 min\n"
        "  vmsuite run -w mtest01:bytes=256M -n auto --against good.json --budget 30m\n"
        "                                                    # until good or bad, <= 30 min\n"
        "  vmsuite run -w mtest01:bytes=64M -n 2 -o - --no-report | jq .exit_status\n"
        "                                                    # the result JSON on stdout\n"
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
    .values = run_values,
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
	struct vms_run_args *a = ctx;

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
	case RUN_OVERWRITE: a->overwrite = 1; return 0;
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
	case RUN_SWAP_FILE: {
		size_t k;

		for (k = 0; k < VMS_ARRAY_SIZE(swap_file_values); k++) {
			if (!strcmp(val, swap_file_values[k].name)) {
				a->machine.swap_file = swap_file_values[k].mode;
				a->swap_file_given = 1;
				return 0;
			}
		}
		snprintf(err, errlen, "--swap-file takes auto, yes or no, not '%s'", val);
		return -EINVAL;
	}
	case RUN_SWAP_KIND: {
		char names[128] = "";
		size_t used = 0;
		unsigned k;

		if (!vms_swap_kind_parse(val, &a->machine.swap_kind))
			return 0;
		for (k = 0; k < VMS_SWAP_KIND_NR; k++)
			used +=
			    (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
			                     k ? (k + 1 < VMS_SWAP_KIND_NR ? ", " : " or ") : "",
			                     vms_swap_kinds[k].name);
		snprintf(err, errlen, "--swap-kind takes %s, not '%s'", names, val);
		return -EINVAL;
	}
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
	case RUN_IDLE_SECONDS:
		if (vms_parse_seconds(val, &a->baseline_s) || a->baseline_s > 3600) {
			snprintf(err, errlen, "--idle-seconds needs seconds (0 to 3600), not '%s'",
			         val);
			return -EINVAL;
		}
		a->idle_given = 1;
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
	case RUN_NO_REPORT: a->no_report = 1; return 0;
	case RUN_SYSCTL:
		if (a->n_sysctls == VMS_ARRAY_SIZE(a->sysctls)) {
			snprintf(err, errlen, "at most %d --sysctl options", VMS_VARIANT_KNOBS_MAX);
			return -EINVAL;
		}
		a->sysctls[a->n_sysctls++] = val;
		return 0;
	case RUN_THP: {
		const char *const *t;

		for (t = thp_values; *t && strcmp(*t, val); t++)
			;
		if (!*t) {
			snprintf(err, errlen,
			         "--thp takes off, kernel, off,kernel or kernel,off, not '%s'",
			         val);
			return -EINVAL;
		}
		a->thp = val;
		return 0;
	}
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

int vms_run_parse_args(const struct vms_command *self, int argc, char **argv,
                       struct vms_run_args *a)
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
	if (!a->with_audio && a->idle_given)
		return vms_usage_error(self, "--idle-seconds goes with --with-audio");
	if (a->with_audio && vms_probe_opts_check(&a->probe, why, sizeof(why)))
		return vms_usage_error(self, "%s", why);
	if (a->n_metrics && !a->n_against)
		return vms_usage_error(self, "--metric goes with --against");
	if (a->budget && !a->adaptive)
		return vms_usage_error(self, "--budget goes with -n auto");
	return 0;
}
