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
#include "cli/run-args.h"
#include "audio-probe/probe.h"
#include "core/machine.h"
#include "core/metric.h"
#include "core/procfs.h"
#include "core/result.h"
#include "core/resultdoc.h"
#include "core/util.h"
#include "report/compare-render.h"
#include "report/report.h"
#include "suite/adaptive.h"
#include "suite/suite.h"
#include "suite/variants.h"
#include "workloads/plan.h"
#include "workloads/workload.h"

/* Loads the --against baselines into docs[0..n) before anything runs: a baseline that cannot
 * be compared is a usage error (exit 129: `git bisect run` stops, nothing was measured). */
static int load_baselines(const struct vms_command *self, const struct vms_run_args *a,
                          json_t **docs)
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
static int probe_died(const struct vms_rdoc *d)
{
	size_t i, j;

	for (i = 0; i < d->n_workloads; i++)
		for (j = 0; j < d->workloads[i].n_runs; j++) {
			const char *why = d->workloads[i].runs[j].no_sound_data;

			if (why && !strcmp(why, "probe_died"))
				return 1;
		}
	return 0;
}

/* doc's exit_status, 0 when it has none. */
static long exit_status(const json_t *doc)
{
	struct vms_rdoc d;
	long st;

	vms_rdoc_read(&d, doc);
	st = d.has_exit_status ? d.exit_status : 0;
	vms_rdoc_release(&d);
	return st;
}

/* `--against`: compares doc (written to output, named shown) with the baselines, prints the
 * verdict lines to rep (NULL: none), stores the verdict in the result and returns the `git
 * bisect run` status: 0, 1 or 125. */
static int against(const struct vms_run_args *a, json_t **base, json_t *doc, const char *output,
                   const char *shown, FILE *rep)
{
	json_t *docs[VMS_ARRAY_SIZE(a->against) + 1];
	const char *paths[VMS_ARRAY_SIZE(a->against) + 1];
	size_t side[VMS_ARRAY_SIZE(a->against) + 1], i, n = a->n_against + 1;
	struct vms_compare_opts opts;
	struct vms_compare_input in;
	struct vms_compare c;
	char err[512];
	struct vms_rdoc rd;
	int died;
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
	paths[i] = shown;
	side[i] = 1;
	in = (struct vms_compare_input){.docs = docs,
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
		         shown, vms_compare_confounded(&c, 0),
		         vms_compare_confounded(&c, 0) > 1 ? "s" : "");
	vms_rdoc_read(&rd, doc);
	died = probe_died(&rd);
	vms_rdoc_release(&rd);
	if (status == 0 && died) {
		vms_note("--against: the audio probe died during the run: its sound cannot be "
		         "judged (exit 125)");
		status = VMS_EXIT_SKIP;
	}
	if (rep) {
		fprintf(rep, "\n");
		vms_compare_render_verdicts(&c, rep);
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
static int adaptive_check_baselines(const struct vms_command *self, const struct vms_run_args *a,
                                    json_t *const *base, const struct vms_run_item *items, size_t n)
{
	size_t i, b;

	for (i = 0; i < n; i++) {
		const char *name = items[i].spec.w->name;
		long ok = 0;

		for (b = 0; b < a->n_against; b++) {
			const struct vms_rdoc_workload *w;
			struct vms_rdoc d;

			vms_rdoc_read(&d, base[b]);
			w = vms_rdoc_workload(&d, name, NULL);
			ok += w ? (long)w->n_ok : 0;
			vms_rdoc_release(&d);
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
static void adaptive_setup(const struct vms_run_args *a, json_t *const *base, const char *output,
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
	struct vms_rdoc rd;
	size_t i;

	if (ad->why[0])
		vms_note("-n auto: %s", ad->why);
	vms_rdoc_read(&rd, doc);
	for (i = 0; i < rd.adaptive.n_last_look; i++) {
		const struct vms_rdoc_look_workload *w = &rd.adaptive.last_look[i];
		json_int_t base = w->baseline_runs;
		const char *name = w->workload, *d = w->decision;

		/* a decided workload did not need more of it */
		if (!w->baseline_too_few || (d && !strcmp(d, "decided")))
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
			         base, name, (json_int_t)w->runs);
	}
	vms_rdoc_release(&rd);
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

/* `-o -`: the checkpoints go to a new private file in $TMPDIR (default /tmp), removed at the
 * end; the result reaches standard output once, at the end. NULL when it cannot be made
 * (reported). */
static char *stdout_checkpoints(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	path = vms_xasprintf("%s/vmsuite-result-%ld-XXXXXX.json", dir, (long)getpid());
	fd = mkstemps(path, 5);
	if (fd < 0) {
		vms_error("cannot create the checkpoint file for -o - in '%s': %s", dir,
		          strerror(errno));
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

int cmd_run(int argc, char **argv)
{
	const struct vms_command *self = vms_command_find("run");
	struct vms_run_args a = {.drop_caches = 1, .baseline_s = 10, .warmup = 1};
	struct vms_suite_config sc = {0};
	struct vms_suite suite;
	struct vms_machine machine;
	struct vms_run_item items[64] = {0};
	struct vms_variants variants = {0};
	struct vms_adaptive adaptive = {0};
	char why[1024], workdir[PATH_MAX], swap_dir[PATH_MAX];
	char *output = NULL, *tmp_output = NULL;
	const char *shown;
	FILE *rep;
	int to_stdout;
	struct utsname uts;
	json_t *doc = NULL, *base[VMS_ARRAY_SIZE(a.against)] = {NULL};
	size_t i, n = 0;
	int ret, e;

	if ((ret = vms_run_parse_args(self, argc, argv, &a)))
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
	/* zswap stands in front of the swap file: --swap-file and --swap-dir choose that file */
	if (a.machine.swap_kind == VMS_SWAP_KIND_ZRAM && (a.swap_file_given || a.swap_dir)) {
		ret = vms_usage_error(self,
		                      "--swap-file and --swap-dir choose the swap file of "
		                      "--swap-kind file, not of --swap-kind %s",
		                      vms_swap_kinds[a.machine.swap_kind].name);
		goto out;
	}
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
			ret = vms_usage_error(
			    self,
			    "--probe-cpus %s is outside the emulated machine's CPUs (%s); "
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
	if (a.machine.swap_kind == VMS_SWAP_KIND_ZSWAP) {
		size_t k;

		for (k = 0; k < variants.n_knobs; k++)
			if (!strcmp(variants.knobs[k], "zswap.enabled")) {
				ret = vms_usage_error(self,
				                      "--swap-kind zswap switches zswap on for the "
				                      "run: --sysctl zswap.enabled goes with "
				                      "--swap-kind file");
				goto out;
			}
	}
	uname(&uts);
	if (!a.label)
		a.label = uts.release;
	to_stdout = a.output && !strcmp(a.output, "-");
	/* the report goes where the result does not */
	rep = a.no_report ? NULL : to_stdout ? stderr : stdout;
	if (to_stdout) {
		output = tmp_output = stdout_checkpoints();
		shown = "(stdout)";
		if (!output) {
			ret = VMS_EXIT_FATAL;
			goto out;
		}
	} else {
		output = a.output ? vms_xstrdup(a.output) : default_output(a.label);
		shown = output;
		if (vms_output_check("result", output, a.overwrite, "--overwrite")) {
			ret = VMS_EXIT_FATAL;
			goto out;
		}
	}

	/* the suite owns everything from here: lock, cgroup, probe, signals, checkpoints */
	sc.items = items;
	sc.n_items = n;
	sc.machine = &machine;
	sc.workdir = workdir;
	sc.label = a.label;
	sc.output = output;
	sc.force = a.overwrite || to_stdout; /* the private file exists, empty */
	sc.argc = argc + 1;
	sc.argv = argv - 1;
	sc.progress = a.quiet               ? VMS_PROGRESS_OFF
	              : vms_stderr_is_tty() ? VMS_PROGRESS_TTY
	                                    : VMS_PROGRESS_LINES;
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
		adaptive_setup(&a, base, shown, n, variants.n, &adaptive, &sc);
	vms_suite_init(&suite, &sc);
	ret = vms_suite_run(&suite, &doc);
	vms_suite_release(&suite);
	if (doc && rep)
		vms_report_text(rep, doc);
	if (doc && suite.save_failed) {
		/* reported by the checkpoint; the file holds the last save, if there was one */
		if (suite.saves && !to_stdout)
			vms_error("the result could not be written completely: '%s' holds it as it "
			          "was after the last save (it did not finish)",
			          output);
		else
			vms_error("the result could not be written: nothing was kept");
		ret = VMS_EXIT_FATAL;
		doc = (json_decref(doc), NULL);
	} else if (doc && rep && !to_stdout) {
		fprintf(rep, "\nResult: %s\n", output);
	}
	if (ret == VMS_EXIT_INTERRUPTED && doc)
		vms_note("interrupted: the result so far is %s%s%s, marked incomplete",
		         to_stdout ? "on standard output" : "in '", to_stdout ? "" : output,
		         to_stdout ? "" : "'");
	if (a.adaptive && doc)
		adaptive_done(&adaptive, doc);
	/* the verdict: only of a run that finished (interrupted: 130 stops a bisect; a tool
	 * error stays 128); a failed run is judged, failed_runs decides */
	if (a.n_against && doc && (ret == VMS_EXIT_OK || ret == VMS_EXIT_FAILED))
		ret = against(&a, base, doc, output, shown, rep);
	else if (a.n_against && ret == VMS_EXIT_SKIP)
		vms_note("--against: nothing was measured: exit 125 (skip)");
	else if (a.n_against && ret == VMS_EXIT_FATAL && doc &&
	         exit_status(doc) == VMS_EXIT_FATAL) {
		/* a finished result that says 128: the work filesystem filled up (runner.h) */
		vms_note("--against: the work filesystem filled up: exit 125 (skip)");
		ret = VMS_EXIT_SKIP;
	}
	/* once, at the end: a reader of the pipe gets one whole document */
	if (to_stdout && doc && (e = vms_json_write_stream(doc, stdout))) {
		if (!vms_stdout_flush()) /* a write error is said there, once */
			vms_error("cannot write the result to standard output: %s", strerror(-e));
		ret = VMS_EXIT_FATAL;
	}
out:
	if (tmp_output)
		unlink(tmp_output);
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
