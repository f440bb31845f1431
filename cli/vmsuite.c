/* vmsuite's entry point: the command table (single source for dispatch, `help` and "did you
 * mean"), global options, and the final flush-and-check of stdout. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "core/util.h"
#include "core/version.h"

#define RUN_HELP                                                                                   \
	"usage: vmsuite run [-w SPEC]... [-n RUNS] [-o FILE] [--label NAME] [--workdir DIR]\n"     \
	"                   [--machine PROFILE] [--mem-limit SIZE] [--swap-limit SIZE] [--cpus "   \
	"N]\n"                                                                                     \
	"                   [--no-drop-caches] [--with-audio [FILE]] [--quiet]\n"                  \
	"\n"                                                                                       \
	"Runs each workload RUNS times in a forked child inside the emulated machine, measures\n"  \
	"every run (rusage, /proc/vmstat, PSI, the memory cgroup's own figures, a 10 Hz time\n"    \
	"series), writes every raw number to a JSON result file and prints the 2001-style "        \
	"report.\n"                                                                                \
	"\n"                                                                                       \
	"  -w, --workload SPEC   NAME[:key=value]...; repeatable. Sizes take K/M/G suffixes.\n"    \
	"                        Default: the 2001 plan, mmap001 (5 runs) then mtest01 (10 "       \
	"runs),\n"                                                                                 \
	"                        sized by the machine profile. See `vmsuite list`.\n"              \
	"  -n, --runs RUNS       runs per workload (overrides the profile's and workload's)\n"     \
	"  -o, --output FILE     result file (default vmsuite-<label>-<YYYYmmdd-HHMMSS>.json)\n"   \
	"      --label NAME      name of this kernel/setup in reports (default: uname -r)\n"       \
	"      --workdir DIR     where file-backed workloads create their files (default: .);\n"   \
	"                        must be a disk filesystem, not tmpfs\n"                           \
	"      --machine PROFILE hron2001: the 2001 box, a memory cgroup of 512 MiB RAM + up to\n" \
	"                        1 GiB swap (default when a memory cgroup can be created, as "     \
	"root);\n"                                                                                 \
	"                        host: no cgroup, sizes from the real machine (mmap001 = 4 x "     \
	"RAM,\n"                                                                                   \
	"                        capped by free disk)\n"                                           \
	"      --mem-limit SIZE  the emulated machine's RAM (overrides the profile)\n"             \
	"      --swap-limit SIZE the swap it may use (only swap the host has can be used)\n"       \
	"      --cpus N          pin the workloads (and the audio probe) to the first N CPUs\n"    \
	"      --no-drop-caches  only sync between runs (default, as root: sync + drop_caches)\n"  \
	"      --with-audio [FILE]  play FILE (default: the bundled sample MP3) through the "      \
	"audio\n"                                                                                  \
	"                        probe during the suite: idle baseline first, then a Sound line\n" \
	"                        per workload (underruns, gaps, skips, rating; see vmsuite "       \
	"probe)\n"                                                                                 \
	"      --baseline SECONDS  idle audio baseline before the first workload (default 10)\n"   \
	"      --device DEV, --period MS, --buffer MS, --rt, --mlock  as for vmsuite probe\n"      \
	"  -q, --quiet           no progress and no report on stdout\n"                            \
	"\n"                                                                                       \
	"Examples:\n"                                                                              \
	"  vmsuite run                                       # the 2001 plan on the 2001 "         \
	"machine\n"                                                                                \
	"  vmsuite run -w mmap001:bytes=256M -w mtest01:percent=80:write=1 -n 3\n"                 \
	"  vmsuite run --machine host -w mtest01:bytes=1G -n 5 -o host.json\n"                     \
	"\n"                                                                                       \
	"Exit status: 0 all runs ok; 1 a run failed (OOM kill, signal, error); 125 nothing "       \
	"could\n"                                                                                  \
	"be measured; 128 tool error; 129 usage error; 130 interrupted (result kept, "             \
	"incomplete).\n"

const struct vms_command vms_commands[] = {
    {"run", cmd_run, "run workloads N times each and write a result file", RUN_HELP},
    {"list", cmd_list, "list the workloads, their options and defaults",
     "usage: vmsuite list\n\nPrints every workload: its name, what it stresses, its options with\n"
     "defaults and units, what it needs, and whether it can run here.\n"},
    {"report", cmd_report, "render a saved result file",
     "usage: vmsuite report FILE [--format text|json|html] [-o OUT]\n"
     "\n"
     "Renders a result file written by `vmsuite run`. text (default) prints the 2001-style\n"
     "block per workload; json prints the per-workload summary (means, sd, cv) as JSON; html\n"
     "writes one self-contained page (docs/html-report.md): the same tables, and per run a\n"
     "timeline of faults, swap, PSI, memory and the audio buffer fill with every gap marked.\n"},
    {"sysinfo", cmd_sysinfo, "print the environment fingerprint a run records",
     "usage: vmsuite sysinfo [--format text|json] [--workdir DIR]\n\n"
     "Prints the environment fingerprint that `vmsuite run` stores in every result file: kernel\n"
     "release/version/cmdline, every /proc/sys/vm knob, THP, swap devices, memory, CPU model/\n"
     "count/governor, page size, the work directory's filesystem and mount options, PSI, cgroup,\n"
     "ALSA cards and the vmsuite build, each with where it was read. Keys: docs/sysinfo.md.\n\n"
     "  --format FORMAT   text (default): aligned \"key  value  source\" lines, one per sysctl;\n"
     "                    json: the object a result file stores under \"fingerprint\"\n"
     "  --workdir DIR     describe the filesystem of DIR (default: .); give the directory you\n"
     "                    pass to `vmsuite run --workdir`\n\n"
     "Exit status: 0 ok; 128 output cannot be written; 129 usage error.\n"},
    {"probe", cmd_probe, "run the audio probe alone (device check, idle baseline)",
     "usage: vmsuite probe [FILE] [--seconds N] [--device DEV] [--period MS] [--buffer MS]\n"
     "                     [--rt] [--mlock] [--cpu LIST] [-o FILE]\n"
     "\n"
     "Plays FILE (default: the bundled sample MP3) through ALSA with the audio probe alone for N\n"
     "seconds (a device check and an idle baseline) and prints its Sound line: the 0-10 rating,\n"
     "played N of M seconds, skips, underruns, the longest gap and the p99 wake-up lateness.\n"
     "\n"
     "  --seconds N        how long to play (default 10; \"300ms\", \"2m\" accepted)\n"
     "  --device DEV       ALSA device; 'virtual' is vmsuite's virtual clock device. Default: the\n"
     "                     ALSA default device when there is a sound card, else the virtual "
     "device\n"
     "                     (it measures timing only; nothing is heard)\n"
     "  --period MS        period in milliseconds (default 25)\n"
     "  --buffer MS        buffer in milliseconds (default 100; at least two periods)\n"
     "  --rt               run the probe SCHED_FIFO (needs root or CAP_SYS_NICE)\n"
     "  --mlock            lock the probe's memory (mlockall) to take paging out of the picture\n"
     "  --cpu LIST         pin the probe to these CPUs (\"0\", \"0-1\", \"0,2\")\n"
     "  -o, --output FILE  write a vmsuite.result/1 file with the audio facts and the baseline\n"
     "\n"
     "Exit status: 0 played; 1 the probe process died; 128 bad file or device (one message\n"
     "before anything plays); 129 usage error; 130 interrupted.\n"},
    {"compare", cmd_compare, "compare result files: kernel A vs B, with statistics",
     "usage: vmsuite compare BASE.json OTHER.json [MORE.json...] [--format "
     "text|markdown|json|html]\n"
     "                       [--threshold PCT] [--alpha A] [--detect PCT] [--cv-limit PCT] "
     "[--force]\n"
     "                       [--exit-zero] [-o OUT]\n"
     "\n"
     "Compares result files of `vmsuite run`, each OTHER against BASE (the first). First the\n"
     "environment facts that differ: expected; soft (possible confounders, marked * on the "
     "verdicts\n"
     "they could explain); HARD (verdicts \"not comparable\" unless --force). Then per workload "
     "and\n"
     "metric: mean, cv and n per side, change in % with its confidence interval (Welch's t-test "
     "on\n"
     "log-values, i.e. ratio of geometric means; count metrics: runs with an event, Fisher's "
     "exact\n"
     "test), p-value and verdict: regression, improvement, probably ..., no change, inconclusive\n"
     "(n≈N: runs per side needed to detect --detect), unstable, not comparable. Primary metrics\n"
     "(elapsed_s, sys_s, sound_rating, underruns) decide the VERDICT lines. See docs/compare.md.\n"
     "\n"
     "  -f, --format FMT      text (default, fits 100 columns), markdown, json, html\n"
     "      --threshold PCT   change that matters (default 2)\n"
     "      --alpha A         significance level (default 0.05; intervals at 1-A)\n"
     "      --detect PCT      change the runs-needed estimate aims at (default 5)\n"
     "      --cv-limit PCT    cv above which a metric is unstable (default 20)\n"
     "      --force           compare despite hard environment differences\n"
     "      --exit-zero       exit 0 even on a regression or a not-comparable result\n"
     "  -o, --output FILE     write there (atomically) instead of standard output\n"
     "\n"
     "Exit status (differs from the other commands): 0 no regression; 1 a primary metric "
     "regressed;\n"
     "2 not comparable, or an error (bad file, bad option).\n"},
    {"cleanup", cmd_cleanup, "undo what a killed run left on the host (its memory cgroup)",
     "usage: vmsuite cleanup\n\nReads the journal of host changes in /run/vmsuite "
     "(docs/host-state.md) and undoes\nthose whose run is gone (killed with SIGKILL, a crash): "
     "removes its memory cgroup,\nkilling what is left in it. Changes of running runs and "
     "anything vmsuite did not make\nare left alone. `vmsuite run` does the same when it "
     "starts.\n\nExit status: 0 nothing of a dead run left to undo; 128 something could not be "
     "undone.\n"},
    {NULL, NULL, NULL, NULL},
};

const struct vms_command *vms_command_find(const char *name)
{
	const struct vms_command *c;

	for (c = vms_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void vms_command_usage(const struct vms_command *c)
{
	fputs(c->help, stdout);
}

int vms_usage_error(const struct vms_command *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vms_error("%s: %s", c->name, msg);
	fprintf(stderr, "Try 'vmsuite %s --help'.\n", c->name);
	return VMS_EXIT_USAGE;
}

int vms_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

static void usage(FILE *f)
{
	const struct vms_command *c;

	fprintf(f, "usage: vmsuite [--version] [--help] <command> [<args>]\n\n"
	           "VM stress workloads with an audio skip probe, for people who test Linux "
	           "kernels.\n\nCommands:\n");
	for (c = vms_commands; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(
	    f,
	    "\nSee 'vmsuite help <command>' for a command's options.\n"
	    "Typical session: `vmsuite run -o before.json` on the old kernel, the same on the new\n"
	    "one with -o after.json, then `vmsuite compare before.json after.json`.\n");
}

/* Edit distance for "did you mean". */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64];

	if (lb >= VMS_ARRAY_SIZE(row))
		return lb;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t prev = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t sub = prev + (a[i - 1] != b[j - 1]);
			size_t best = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;

			row[j] = sub < best ? sub : best;
			prev = cur;
		}
	}
	return row[lb];
}

static int unknown_command(const char *name)
{
	const struct vms_command *c, *best = NULL;
	size_t bestd = 3;

	for (c = vms_commands; c->name; c++) {
		size_t d = distance(name, c->name);

		if (d < bestd) {
			bestd = d;
			best = c;
		}
	}
	vms_error("'%s' is not a vmsuite command; see 'vmsuite --help'", name);
	if (best)
		fprintf(stderr, "\nThe most similar command is\n\t%s\n", best->name);
	return VMS_EXIT_USAGE;
}

static int cmd_help(int argc, char **argv)
{
	const struct vms_command *c;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	c = vms_command_find(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	vms_command_usage(c);
	return 0;
}

static int finish(int ret)
{
	if (fflush(stdout) || ferror(stdout)) {
		vms_error("cannot write to standard output: %s", strerror(errno ? errno : EIO));
		return VMS_EXIT_FATAL;
	}
	return ret;
}

int main(int argc, char **argv)
{
	const struct vms_command *c;

	if (argc < 2) {
		usage(stderr);
		return VMS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("vmsuite %s (%s, %s)\n", VMS_VERSION, VMS_BUILD_TYPE, VMS_C_COMPILER);
		return finish(0);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return finish(cmd_help(1, argv));
	if (!strcmp(argv[1], "help"))
		return finish(cmd_help(argc - 1, argv + 1));
	if (argv[1][0] == '-') {
		vms_error("unknown option '%s'; see 'vmsuite --help'", argv[1]);
		return VMS_EXIT_USAGE;
	}
	c = vms_command_find(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	if (vms_wants_help(argc - 1, argv + 1)) {
		vms_command_usage(c);
		return finish(0);
	}
	return finish(c->fn(argc - 1, argv + 1));
}
