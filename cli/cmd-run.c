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
#include "cli/options.h"
#include "core/machine.h"
#include "core/result.h"
#include "core/util.h"
#include "report/report.h"
#include "suite/suite.h"
#include "workloads/workload.h"

struct run_args {
	const char *specs[64];
	size_t n_specs;
	long runs; /* 0 = each workload's default */
	const char *output, *label, *workdir;
	int quiet;
	int with_audio;
	const char *audio_file;
	int drop_caches;
	struct vms_machine_request machine;
	struct vms_probe_opts probe;
	double baseline_s;
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

static int parse_args(const struct vms_command *self, int argc, char **argv, struct run_args *a)
{
	const char *val;
	int i, r;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if ((r = vms_opt_value(argc, argv, &i, "-w", "--workload", &val))) {
			if (r < 0)
				return vms_usage_error(self,
				                       "-w needs a workload, e.g. -w mmap001");
			if (a->n_specs == VMS_ARRAY_SIZE(a->specs))
				return vms_usage_error(self, "too many -w options");
			a->specs[a->n_specs++] = val;
		} else if ((r = vms_opt_value(argc, argv, &i, "-n", "--runs", &val))) {
			if (r < 0)
				return vms_usage_error(self, "-n needs a number of runs");
			if (vms_parse_long(val, 1, 100000, &a->runs))
				return vms_usage_error(self,
				                       "runs must be a whole number from 1 to "
				                       "100000, not '%s'",
				                       val);
		} else if ((r = vms_opt_value(argc, argv, &i, "-o", "--output", &val))) {
			if (r < 0 || !*val)
				return vms_usage_error(self, "-o needs a file name");
			a->output = val;
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--label", &val))) {
			if (r < 0 || !*val || strchr(val, '/'))
				return vms_usage_error(self, "--label needs a name without '/'");
			a->label = val;
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--workdir", &val))) {
			if (r < 0 || !*val)
				return vms_usage_error(self, "--workdir needs a directory");
			a->workdir = val;
		} else if (!strncmp(arg, "--with-audio", 12) &&
		           (arg[12] == '\0' || arg[12] == '=')) {
			a->with_audio = 1;
			if (arg[12] == '=')
				a->audio_file = arg + 13;
			else if (i + 1 < argc && argv[i + 1][0] != '-')
				a->audio_file = argv[++i];
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--machine", &val))) {
			if (r < 0 || !*val)
				return vms_usage_error(self, "--machine needs a profile (%s)",
				                       profile_names());
			if (!vms_machine_profile_find(val))
				return vms_usage_error(self, "unknown machine profile '%s' (%s)",
				                       val, profile_names());
			a->machine.profile = val;
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--mem-limit", &val))) {
			if (r < 0 || vms_parse_size(val, &a->machine.mem_limit) ||
			    a->machine.mem_limit < (16u << 20))
				return vms_usage_error(self,
				                       "--mem-limit needs a size of at least 16M, "
				                       "not '%s'",
				                       r < 0 ? "" : val);
			a->machine.set_mem_limit = 1;
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--swap-limit", &val))) {
			if (r < 0 || vms_parse_size(val, &a->machine.swap_limit))
				return vms_usage_error(self, "--swap-limit needs a size, not '%s'",
				                       r < 0 ? "" : val);
			a->machine.set_swap_limit = 1;
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--cpus", &val))) {
			if (r < 0 || vms_parse_long(val, 1, 4096, &a->machine.cpus))
				return vms_usage_error(self,
				                       "--cpus needs a number of CPUs, not '%s'",
				                       r < 0 ? "" : val);
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--baseline", &val))) {
			if (r < 0 || vms_parse_seconds(val, &a->baseline_s) || a->baseline_s > 3600)
				return vms_usage_error(
				    self, "--baseline needs seconds (0 to 3600), not '%s'",
				    r < 0 ? "" : val);
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--device", &val))) {
			if (r < 0 || !*val)
				return vms_usage_error(self, "--device needs an ALSA device name");
			a->probe.device = val;
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--period", &val))) {
			if (r < 0 || vms_parse_seconds(val, &a->probe.period_ms) ||
			    a->probe.period_ms < 1 || a->probe.period_ms > 1000)
				return vms_usage_error(self,
				                       "--period needs milliseconds (1 to 1000)");
		} else if ((r = vms_opt_value(argc, argv, &i, NULL, "--buffer", &val))) {
			if (r < 0 || vms_parse_seconds(val, &a->probe.buffer_ms) ||
			    a->probe.buffer_ms < 2 || a->probe.buffer_ms > 10000)
				return vms_usage_error(self,
				                       "--buffer needs milliseconds (2 to 10000)");
		} else if (vms_opt_flag(arg, NULL, "--rt")) {
			a->probe.rt = 1;
		} else if (vms_opt_flag(arg, NULL, "--mlock")) {
			a->probe.mlock = 1;
		} else if (vms_opt_flag(arg, "-q", "--quiet")) {
			a->quiet = 1;
		} else if (vms_opt_flag(arg, NULL, "--no-drop-caches")) {
			a->drop_caches = 0;
		} else if (arg[0] == '-') {
			return vms_usage_error(self, "unknown option '%s'", arg);
		} else {
			return vms_usage_error(
			    self, "unexpected argument '%s' (workloads go with -w)", arg);
		}
	}
	return 0;
}

/* Sizes and run counts the machine profile gives to options the user left unset. */
static void apply_profile(struct vms_run_item *it, const struct vms_machine *m, long runs,
                          int explicit_plan)
{
	const struct vms_workload *w = it->spec.w;
	char val[32], why[256];

	it->runs = runs ? runs : w->default_runs;
	if (!strcmp(w->name, "mmap001")) {
		if (!it->spec.opts[vms_workload_option_index(w, "bytes")].set &&
		    !it->spec.opts[vms_workload_option_index(w, "pages")].set) {
			snprintf(val, sizeof(val), "%llu", (unsigned long long)m->mmap001_bytes);
			vms_workload_opt_set(&it->spec, "bytes", val, why, sizeof(why));
		}
		if (!runs)
			it->runs = m->mmap001_runs;
	} else if (!strcmp(w->name, "mtest01")) {
		if (!explicit_plan) {
			snprintf(val, sizeof(val), "%u", m->mtest01_percent);
			vms_workload_opt_set(&it->spec, "percent", val, why, sizeof(why));
			vms_workload_opt_set(&it->spec, "write", m->mtest01_write ? "1" : "0", why,
			                     sizeof(why));
		}
		if (!runs)
			it->runs = m->mtest01_runs;
	} else if (!strcmp(w->name, "mmap002")) {
		/* memtest's R is the machine's RAM; the file (2R) must fit the disk */
		if (!it->spec.opts[vms_workload_option_index(w, "bytes")].set && m->use_cgroup) {
			snprintf(val, sizeof(val), "%llu", (unsigned long long)m->mem_limit);
			vms_workload_opt_set(&it->spec, "bytes", val, why, sizeof(why));
		}
	}
}

static char *default_output(const char *label)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	return vms_xasprintf("vmsuite-%s-%s.json", label, stamp);
}

/* The output must be a writable file path; checked before anything runs. */
static int check_output(const char *path)
{
	char *dir = vms_xstrdup(path), *slash = strrchr(dir, '/');
	struct stat st;
	int ret = 0;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		vms_error("cannot write result to '%s': it is a directory", path);
		ret = -1;
	} else if (access(slash ? dir : ".", W_OK)) {
		vms_error("cannot write result to '%s': %s", path, strerror(errno));
		ret = -1;
	}
	free(dir);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	const struct vms_command *self = vms_command_find("run");
	struct run_args a = {.drop_caches = 1, .baseline_s = 10};
	struct vms_suite_config sc = {0};
	struct vms_suite suite;
	struct vms_machine machine;
	struct vms_run_item items[64] = {0};
	char why[1024], workdir[PATH_MAX];
	char *output = NULL;
	struct utsname uts;
	json_t *doc = NULL;
	size_t i, n = 0;
	int ret;

	int explicit_plan;

	if ((ret = parse_args(self, argc, argv, &a)))
		return ret;
	explicit_plan = a.n_specs > 0;
	if (!a.n_specs) {
		a.specs[a.n_specs++] = "mmap001"; /* the 2001 plan */
		a.specs[a.n_specs++] = "mtest01";
	}
	for (i = 0; i < a.n_specs; i++) {
		if (vms_workload_spec_parse(a.specs[i], &items[n].spec, why, sizeof(why))) {
			ret = vms_usage_error(self, "%s", why);
			goto out;
		}
		n++;
	}
	if (!a.with_audio && (a.probe.device || a.probe.period_ms || a.probe.buffer_ms ||
	                      a.probe.rt || a.probe.mlock)) {
		ret =
		    vms_usage_error(self, "--device, --period, --buffer, --rt and --mlock go with "
		                          "--with-audio");
		goto out;
	}
	if (a.probe.period_ms && a.probe.buffer_ms && a.probe.buffer_ms < 2 * a.probe.period_ms) {
		ret = vms_usage_error(self, "--buffer must hold at least two periods");
		goto out;
	}
	if (!realpath(a.workdir ? a.workdir : ".", workdir)) {
		vms_error("cannot use work directory '%s': %s", a.workdir ? a.workdir : ".",
		          strerror(errno));
		ret = VMS_EXIT_FATAL;
		goto out;
	}
	a.machine.workdir = workdir;
	if (vms_machine_resolve(&machine, &a.machine)) {
		ret = VMS_EXIT_FATAL;
		goto out;
	}
	for (i = 0; i < n; i++)
		apply_profile(&items[i], &machine, a.runs, explicit_plan);
	uname(&uts);
	if (!a.label)
		a.label = uts.release;
	output = a.output ? vms_xstrdup(a.output) : default_output(a.label);
	if (check_output(output)) {
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
	sc.argc = argc + 1;
	sc.argv = argv - 1;
	sc.progress = !a.quiet && vms_stderr_is_tty();
	sc.drop_caches = a.drop_caches;
	sc.sample_hz = 10;
	sc.with_audio = a.with_audio;
	sc.probe = a.probe;
	sc.probe.file = a.audio_file;
	sc.baseline_s = a.baseline_s;
	vms_suite_init(&suite, &sc);
	ret = vms_suite_run(&suite, &doc);
	vms_suite_release(&suite);
	if (doc && !a.quiet) {
		vms_report_text(stdout, doc);
		printf("\nResult: %s\n", output);
	}
	if (ret == VMS_EXIT_INTERRUPTED && doc)
		vms_note("interrupted: the result so far is in '%s', marked incomplete", output);
out:
	json_decref(doc);
	for (i = 0; i < n; i++)
		vms_workload_spec_release(&items[i].spec);
	free(output);
	return ret;
}
