/* The runner: forks one child per workload run, measures it from outside (wait4 rusage,
 * /proc/vmstat, PSI, /proc/meminfo start state, a ~10 Hz series, what else used its CPUs:
 * workloads/busy.c), stores every raw number in the result document and checkpoints that
 * document atomically after each run. */
#include "workloads/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/machine.h"
#include "core/procfs.h"
#include "core/metric.h"
#include "core/result.h"
#include "core/sysinfo.h"
#include "core/util.h"
#include "core/version.h"
#include "workloads/busy.h"
#include "workloads/run-figures.h"
#include "workloads/progress.h"
#include "workloads/series.h"

/* The stop signal received so far (0 = none). */
static int stop_signal(const struct vms_run_config *cfg)
{
	return cfg->stop ? (int)*cfg->stop : 0;
}

/* ---- one run ------------------------------------------------------------------------ */

struct run_outcome {
	int status; /* wait status */
	int waited;
	int interrupted;
	struct rusage ru;
	double t0, t1;
};

/* The child's SIGBUS: a write fault on a file mapping gets one when the filesystem cannot
 * give the page a block. The handler notes whether the work filesystem is full (less than
 * 1 MiB left for users) and returns; the fault then repeats under the default action, so
 * the run still ends by the signal. */
static struct vms_workload_shared *bus_shared;
static const char *bus_dir;

static void on_sigbus(int sig)
{
	struct statfs sf; /* statfs(2), a plain system call, unlike statvfs(3) */

	(void)sig;
	if (!statfs(bus_dir, &sf) &&
	    (uint64_t)sf.f_bavail * (uint64_t)(sf.f_frsize ? sf.f_frsize : sf.f_bsize) <
	        (UINT64_C(1) << 20))
		bus_shared->disk_full = 1;
}

static void child_main(struct vms_workload_ctx *ctx, const struct vms_run_config *cfg, int thp_off)
{
	struct sigaction sa, hup;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* ignored when vmsuite kept an inherited ignore (nohup): the run goes on */
	if (!sigaction(SIGHUP, NULL, &hup) && hup.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	if (ctx->w->needs & VMS_NEED_DISK) {
		bus_shared = ctx->shared;
		bus_dir = ctx->workdir;
		sa.sa_handler = on_sigbus;
		sa.sa_flags = SA_RESETHAND;
		sigaction(SIGBUS, &sa, NULL);
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(126);
	if (cfg->cgroup && vms_cgroup_join_self(cfg->cgroup->procs)) {
		vms_workload_fail(ctx, "cannot join the memory cgroup via '%s'",
		                  cfg->cgroup->procs);
		_exit(126);
	}
	if (cfg->cpu_list) {
		cpu_set_t set;
		int e = vms_cpu_list_parse(cfg->cpu_list, &set);

		/* the result records the pinning: a run that is not pinned must not count */
		if (e || sched_setaffinity(0, sizeof(set), &set)) {
			vms_workload_fail(ctx, "cannot pin the workload to CPUs '%s': %s",
			                  cfg->cpu_list, strerror(e ? -e : errno));
			_exit(126);
		}
	}
	/* --thp off: 4 KiB pages, so fault counts mean what they meant in 2001 (docs/knobs.md) */
	ctx->shared->thp_disabled = thp_off && prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0;
	fflush(NULL);
	_exit(ctx->w->run(ctx));
}

static int pidfd_open_(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* Waits for the child while sampling; on a stop signal, terminates it (SIGTERM, then SIGKILL
 * after 2 s) and still reaps it. */
static void supervise(pid_t pid, struct vms_series *se, double hz, struct run_outcome *o,
                      const struct vms_run_config *cfg, struct vms_progress *pg,
                      struct vms_busy *busy)
{
	int pfd = pidfd_open_(pid);
	double period = 1.0 / hz, next = o->t0, kill_at = 0;
	int termed = 0;

	vms_series_take(se, 0);
	vms_busy_sample_wait(busy, pid);
	for (;;) {
		siginfo_t si;

		double now = vms_now_mono();
		int timeout;
		pid_t r;

		if (stop_signal(cfg) && !termed) {
			kill(pid, SIGTERM);
			termed = 1;
			kill_at = now + 2;
			o->interrupted = 1;
		}
		if (termed && now >= kill_at)
			kill(pid, SIGKILL);
		next += period;
		if (next < now)
			next = now + period;
		timeout = (int)((next - now) * 1000) + 1;
		if (pfd >= 0) {
			struct pollfd p = {.fd = pfd, .events = POLLIN};

			if (poll(&p, 1, timeout) > 0) {
				/* exited, not reaped: its schedstat is still there */
				vms_busy_child_exited(busy, pid);
				r = wait4(pid, &o->status, WNOHANG, &o->ru);
				if (r == pid)
					break;
			}
		} else {
			si.si_pid = 0;
			if (!waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
			    si.si_pid)
				vms_busy_child_exited(busy, pid);
			r = wait4(pid, &o->status, WNOHANG, &o->ru);
			if (r == pid)
				break;
			vms_sleep(period / 10, NULL);
			if (vms_now_mono() < next)
				continue;
		}
		now = vms_now_mono();
		vms_series_take(se, now - o->t0);
		vms_busy_sample_wait(busy, pid);
		vms_progress_tick(pg, now - o->t0,
		                  cfg->audio && pg->mode == VMS_PROGRESS_TTY
		                      ? cfg->audio->underruns(cfg->audio->ctx)
		                      : -1,
		                  now);
	}
	o->t1 = vms_now_mono();
	o->waited = 1;
	vms_series_take(se, o->t1 - o->t0);
	if (pfd >= 0)
		close(pfd);
	vms_progress_clear(pg);
}

/* ---- the work file ------------------------------------------------------------------ */

/* Without O_TMPFILE: the run's private directory for its work file, a random name made with
 * mode 0700, recorded in the journal before it exists (a SIGKILL from here on leaves a record
 * that `vmsuite cleanup` undoes); ctx->file gets the file's name in it. 0, or -errno
 * (reported). */
static int private_dir_make(const struct vms_run_config *cfg, struct vms_workload_ctx *ctx,
                            size_t index, struct vms_host_entry *e, int *recorded)
{
	char what[96];
	int tries, ret = -EEXIST;

	snprintf(what, sizeof(what), "%s-%ld-%zu", ctx->w->name, (long)getpid(), index + 1);
	for (tries = 0; tries < 100 && ret == -EEXIST; tries++) {
		memset(e, 0, sizeof(*e));
		e->kind = VMS_HOST_WORKDIR;
		if (vms_workload_private_name(e->path, sizeof(e->path), ctx->workdir, what) ||
		    (size_t)snprintf(ctx->file, sizeof(ctx->file), "%s/.vmsuite-%s.tmp", e->path,
		                     ctx->w->name) >= sizeof(ctx->file))
			return vms_error_ret(-ENAMETOOLONG, "work directory '%s': name too long",
			                     ctx->workdir);
		if (cfg->journal && (ret = vms_hoststate_record(cfg->journal, e)))
			return ret;
		*recorded = cfg->journal != NULL;
		ret = mkdir(e->path, 0700) ? -errno : 0;
		if (ret && *recorded) {
			vms_hoststate_forget(cfg->journal, e);
			*recorded = 0;
		}
	}
	if (ret)
		vms_error("cannot create '%s': %s", e->path, strerror(-ret));
	return ret;
}

/* Removes the private directory and its file (the journal's own undo: only vmsuite's files),
 * then its record; a directory that cannot be removed keeps its record for `vmsuite
 * cleanup`. */
static void private_dir_remove(const struct vms_run_config *cfg, struct vms_host_entry *e,
                               int *made, int *recorded)
{
	int r;

	if (!*made)
		return;
	*made = 0;
	r = vms_host_entry_undo(e);
	if (r < 0 || r == 2) {
		vms_warn("cannot remove the private work directory '%s': %s", e->path,
		         r < 0 ? strerror(-r) : "it holds files vmsuite did not make");
		return;
	}
	if (*recorded)
		vms_hoststate_forget(cfg->journal, e);
	*recorded = 0;
}

/* Runs one workload run; fills `run` (a new JSON object) and the workload's metrics. Returns
 * 0 ok, 1 failed, 2 interrupted, 3 stopped before the child was started (run holds nothing
 * worth keeping), 4 failed because the work filesystem filled up. */
static int run_once(const struct vms_run_config *cfg, struct vms_workload_ctx *ctx, json_t *metrics,
                    json_t *run, size_t index, const struct vms_run_variant *var,
                    struct vms_progress *pg)
{
	struct vms_vmstat *vb = vms_xmalloc(sizeof(*vb)), *va = vms_xmalloc(sizeof(*va));
	struct vms_psi pb, pa;
	struct vms_series se = {0};
	struct run_outcome o = {0};
	struct rusage self0, self1;
	struct vms_workload_shared *sh;
	struct vms_cgroup_stats *cgb = cfg->cgroup ? vms_xmalloc(sizeof(*cgb)) : NULL;
	struct vms_cgroup_stats *cga = cfg->cgroup ? vms_xmalloc(sizeof(*cga)) : NULL;
	struct vms_host_entry wd = {0};
	int wd_made = 0, wd_recorded = 0;
	json_t *cgj = NULL;
	struct vms_busy *busy = NULL;
	double disturbed_above =
	    cfg->disturbed_above > 0 ? cfg->disturbed_above : VMS_BUSY_DISTURBED_ABOVE;
	int ret = 0;
	pid_t pid;

	json_object_set_new(run, "index", json_integer((json_int_t)index + 1));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		vms_error("cannot map shared memory: %s", strerror(errno));
		json_object_set_new(run, "status", json_string("failed"));
		json_object_set_new(run, "reason", json_string("cannot map shared memory"));
		ret = 1;
		goto out_free;
	}
	memset(sh, 0, sizeof(*sh));
	ctx->shared = sh;
	ctx->file[0] = '\0';
	/* a file-backed workload's file: an O_TMPFILE, or a fresh name in a private directory */
	if ((ctx->w->needs & VMS_NEED_DISK) && !ctx->tmpfile) {
		if (private_dir_make(cfg, ctx, index, &wd, &wd_recorded)) {
			json_object_set_new(run, "status", json_string("failed"));
			json_object_set_new(
			    run, "reason", json_string("cannot create the private work directory"));
			ret = 1;
			goto out;
		}
		wd_made = 1;
	}
	json_object_set_new(run, "clean_state", json_string(vms_run_clean_state(cfg->drop_caches)));
	/* sync and drop_caches take a while: a stop that came meanwhile starts no child */
	if (stop_signal(cfg)) {
		ret = 3;
		goto out;
	}
	json_object_set_new(run, "start_state", vms_run_start_state_json());
	se.cg = cfg->cgroup;
	if (cfg->cgroup && vms_cgroup_run_begin(cfg->cgroup, cgb)) {
		free(cgb);
		cgb = NULL;
	}
	if (cfg->swap_before)
		cfg->swap_before(cfg->swap_ctx);
	vms_vmstat_read(vb, NULL);
	vms_psi_read(&pb, NULL);

	fflush(NULL);
	busy = vms_busy_begin(cfg->cpu_list, ctx->workdir);
	getrusage(RUSAGE_SELF, &self0);
	o.t0 = vms_now_mono();
	pid = fork();
	if (pid < 0) {
		vms_error("cannot fork: %s", strerror(errno));
		ret = 1;
		json_object_set_new(run, "status", json_string("failed"));
		json_object_set_new(run, "reason", json_string("fork failed"));
		goto out;
	}
	if (pid == 0)
		child_main(ctx, cfg, var->thp_off);
	supervise(pid, &se, cfg->sample_hz, &o, cfg, pg, busy);
	vms_busy_end(busy, &o.ru);
	getrusage(RUSAGE_SELF, &self1);
	/* whatever happened to the child, its file goes (an O_TMPFILE went with it) */
	private_dir_remove(cfg, &wd, &wd_made, &wd_recorded);
	/* the cost of measuring: the runner's own CPU while the child ran (sampling, polling) */
	json_object_set_new(
	    run, "runner_cpu_s",
	    json_real(vms_timeval_seconds(&self1.ru_utime) + vms_timeval_seconds(&self1.ru_stime) -
	              vms_timeval_seconds(&self0.ru_utime) - vms_timeval_seconds(&self0.ru_stime)));

	vms_vmstat_read(va, NULL);
	vms_psi_read(&pa, NULL);
	vms_busy_swap(busy, vms_vmstat_get(va, "pswpin") - vms_vmstat_get(vb, "pswpin"),
	              vms_vmstat_get(va, "pswpout") - vms_vmstat_get(vb, "pswpout"));
	if (cfg->swap_after) {
		json_t *sd = cfg->swap_after(cfg->swap_ctx);

		if (sd)
			json_object_set_new(run, "swap_device", sd);
	}
	json_object_set_new(run, "t_start", json_real(o.t0));
	json_object_set_new(run, "t_end", json_real(o.t1));
	json_object_set_new(run, "thp_disabled", json_boolean(sh->thp_disabled));

	/* the emulated machine's figures first: they say whether its OOM killer ended the run */
	if (cfg->cgroup) {
		cgj = json_null();
		if (cgb && !vms_cgroup_stats_read(cfg->cgroup, cga))
			cgj = vms_cgroup_delta_json(cfg->cgroup, cgb, cga);
	}
	{
		int sig = WIFSIGNALED(o.status) ? WTERMSIG(o.status) : 0;
		int code = WIFEXITED(o.status) ? WEXITSTATUS(o.status) : -1;
		json_t *cg_kills = cgj ? json_object_get(cgj, "oom_kill") : NULL;
		/* in a memory cgroup only its own kills count: /proc/vmstat counts every cgroup's,
		 * and other processes on the host may be OOM-killed in theirs meanwhile */
		uint64_t ooms = json_is_integer(cg_kills) ? (uint64_t)json_integer_value(cg_kills)
		                                          : vms_vmstat_get(va, "oom_kill") -
		                                                vms_vmstat_get(vb, "oom_kill");
		int oom = sig == SIGKILL && ooms > 0 && !o.interrupted;
		char reason[700];

		json_object_set_new(run, "exit_code", code >= 0 ? json_integer(code) : json_null());
		json_object_set_new(run, "signal", sig ? json_integer(sig) : json_null());
		json_object_set_new(run, "oom_killed", json_boolean(oom));
		if (o.interrupted) {
			ret = 2;
			snprintf(reason, sizeof(reason), "interrupted by %s",
			         strsignal(stop_signal(cfg) ? stop_signal(cfg) : SIGINT));
		} else if (oom && json_is_integer(cg_kills)) {
			ret = 1;
			vms_run_cgroup_oom_reason(reason, sizeof(reason), cfg->cgroup, cga);
		} else if ((sig == SIGBUS || (!sig && code)) && sh->disk_full) {
			/* not the kernel's doing: something filled the disk after the checks (a
			 * write fault's SIGBUS, or ENOSPC sizing the work file) */
			ret = 4;
			snprintf(reason, sizeof(reason),
			         "the work filesystem filled up: '%s' had no space left for the "
			         "work file",
			         ctx->workdir);
		} else if (sig) {
			ret = 1;
			snprintf(reason, sizeof(reason), "killed by signal %d (%s)%s", sig,
			         strsignal(sig), oom ? " (the OOM killer)" : "");
		} else if (code) {
			ret = 1;
			snprintf(reason, sizeof(reason), "%s",
			         sh->reason[0] ? sh->reason : "exited with a non-zero status");
			if (!sh->reason[0])
				snprintf(reason, sizeof(reason), "exited with status %d", code);
		}
		json_object_set_new(run, "status",
		                    json_string(ret == 0   ? "ok"
		                                : ret == 2 ? "interrupted"
		                                           : "failed"));
		if (ret)
			json_object_set_new(run, "reason", json_string(reason));
	}
	json_object_set_new(run, "bytes_allocated", json_integer((json_int_t)sh->bytes_allocated));
	json_object_set_new(run, "rusage", vms_run_rusage_json(&o.ru));
	json_object_set_new(run, "vmstat_delta", vms_vmstat_delta_json(vb, va));
	json_object_set_new(run, "psi_delta", vms_psi_delta_json(&pb, &pa));
	if (cgj)
		json_object_set_new(run, "cgroup", cgj);
	/* what else used the emulated machine's CPUs: the run's figures may not be the kernel's */
	json_object_set_new(run, "busy", vms_busy_json(busy, disturbed_above));
	json_object_set_new(run, "disturbed",
	                    json_boolean(vms_busy_disturbed(busy, disturbed_above)));
	json_object_set_new(run, "series", vms_series_json(&se, cfg->sample_hz));
	if (ret == 0) {
		vms_run_put_metrics(metrics, index, &o.ru, o.t0, o.t1, sh->bytes_allocated, vb, va,
		                    &pb, &pa, cfg->cgroup == NULL, ctx->w->thrashing);
		vms_run_put_cgroup_metrics(metrics, index, json_object_get(run, "cgroup"));
		vms_busy_record(busy, metrics, index);
		if (ctx->w->own_metric && sh->own_set)
			vms_metric_record(metrics, ctx->w->own_metric, index, sh->own_value);
	}
out:
	vms_busy_free(busy);
	private_dir_remove(cfg, &wd, &wd_made, &wd_recorded);
	munmap(sh, sizeof(*sh));
	ctx->shared = NULL;
	free(se.s);
out_free:
	free(cgb);
	free(cga);
	free(vb);
	free(va);
	return ret;
}

/* ---- the suite ---------------------------------------------------------------------- */

static json_t *protocol_json(const struct vms_run_config *cfg)
{
	json_t *p = json_pack("{s:s, s:o, s:f, s:b, s:b}", "workdir", cfg->workdir, "thp_disabled",
	                      json_null(), "sample_hz", cfg->sample_hz, "drop_caches",
	                      cfg->drop_caches && geteuid() == 0, "with_audio", cfg->audio != NULL);
	json_t *plan = json_array();
	size_t i, off = 0;

	/* true/false when every variant asks the same (--thp); null when THP is a variant axis */
	for (i = 0; i < cfg->n_variants; i++)
		off += (size_t)(cfg->variants[i].thp_off != 0);
	if (off == 0 || off == cfg->n_variants)
		json_object_set_new(p, "thp_disabled", json_boolean(off != 0));

	for (i = 0; i < cfg->n_items; i++)
		json_array_append_new(
		    plan,
		    json_pack("{s:s, s:o, s:i}", "workload", cfg->items[i].spec.w->name, "options",
		              vms_workload_opts_json(cfg->items[i].spec.w, cfg->items[i].spec.opts),
		              "runs", (int)cfg->items[i].runs));
	json_object_set_new(p, "plan", plan);
	json_object_set_new(p, "warmup_runs", json_integer(cfg->warmup > 0 ? cfg->warmup : 0));
	json_object_set_new(
	    p, "disturbed_above_pct",
	    json_real(cfg->disturbed_above > 0 ? cfg->disturbed_above : VMS_BUSY_DISTURBED_ABOVE));
	json_object_set_new(p, "machine",
	                    cfg->machine ? json_incref(cfg->machine)
	                                 : json_pack("{s:s, s:n, s:n, s:n, s:n, s:i, s:n}",
	                                             "profile", "host", "mem_limit_bytes",
	                                             "swap_limit_bytes", "effective_swap_bytes",
	                                             "cpus", "cgroup_version", 0, "cgroup_path"));
	return p;
}

static json_t *new_document(const struct vms_run_config *cfg)
{
	json_t *doc = vms_result_new(cfg->argc, cfg->argv, cfg->label, vms_now_real());

	json_t *variants = json_array();
	size_t i;

	json_object_set_new(doc, "protocol", protocol_json(cfg));
	json_object_set_new(doc, "fingerprint", vms_sysinfo_collect(cfg->workdir));
	for (i = 0; i < cfg->n_variants; i++)
		json_array_append_new(variants,
		                      json_pack("{s:s, s:O}", "label", cfg->variants[i].label,
		                                "settings", cfg->variants[i].settings));
	json_object_set_new(doc, "variants", variants);
	return doc;
}

static int checkpoint(const struct vms_run_config *cfg, const json_t *doc)
{
	return cfg->checkpoint ? cfg->checkpoint(cfg->checkpoint_ctx, doc) : 0;
}

/* The idle baseline: the probe plays alone for baseline_s before the first workload. */
static void audio_baseline(const struct vms_run_config *cfg, double *t0, double *t1)
{
	*t0 = vms_now_mono();
	if (cfg->progress)
		fprintf(stderr, "vmsuite: audio baseline, %.0f s idle\n", cfg->baseline_s);
	vms_sleep(cfg->baseline_s, (volatile int *)cfg->stop);
	*t1 = vms_now_mono();
}

/* "primary" is a property of a workload and a metric: clears it where the workload says. */
static void apply_primary(const struct vms_workload *w, json_t *metrics)
{
	const char *const *m;

	for (m = w && w->not_primary ? w->not_primary : NULL; m && *m; m++)
		vms_metric_set_primary(metrics, *m, 0);
}

/* Looks at the audio source at the end of a window; warns once when it stopped playing. */
static void audio_check(const struct vms_run_config *cfg, const char *what, long run, long runs,
                        int *warned)
{
	const struct vms_audio_source *au = cfg->audio;

	if (!au || !au->check || !au->check(au->ctx) || *warned)
		return;
	*warned = 1;
	if (run > 0)
		vms_warn("the audio probe is dead or stopped at the end of %s run %ld/%ld: that "
		         "window and the later ones get no sound data",
		         what, run, runs);
	else
		vms_warn("the audio probe is dead or stopped at the end of %s: that window and the "
		         "later ones get no sound data",
		         what);
}

/* 1 when the window's detail says it has no sound data. */
static int no_sound(const json_t *detail)
{
	return json_is_string(json_object_get(detail, "no_sound_data"));
}

/* Stops the probe and cuts its records into the baseline and one window per run. Returns 1
 * when the probe died or was stopped (some windows have no sound data), else 0. */
static int audio_windows(const struct vms_run_config *cfg, json_t *doc, double b0, double b1)
{
	json_t *baseline = json_object(), *wl, *d;
	size_t i, windows = 1, empty;
	const struct vms_audio_source *au = cfg->audio;
	int died = au->stop(au->ctx) != 0;

	json_object_set_new(baseline, "t_start", json_real(b0));
	json_object_set_new(baseline, "t_end", json_real(b1));
	json_object_set_new(baseline, "metrics", json_object());
	d = au->window(au->ctx, b0, b1, json_object_get(baseline, "metrics"), 0);
	empty = (size_t)no_sound(d);
	json_object_set_new(baseline, "detail", d);
	json_object_set_new(
	    doc, "audio",
	    json_pack("{s:o, s:o}", "facts", au->facts(au->ctx), "baseline", baseline));
	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		json_t *metrics = json_object_get(wl, "metrics"), *run;
		size_t r;

		json_array_foreach (json_object_get(wl, "runs"), r, run) {
			double t0 = json_number_value(json_object_get(run, "t_start"));
			double t1 = json_number_value(json_object_get(run, "t_end"));

			if (!json_is_number(json_object_get(run, "t_end")))
				continue;
			d = au->window(au->ctx, t0, t1, metrics, r);
			windows++;
			empty += (size_t)no_sound(d);
			json_object_set_new(run, "audio", d);
		}
		vms_metrics_pad(metrics, json_array_size(json_object_get(wl, "runs")));
		if (i / cfg->n_variants < cfg->n_items)
			apply_primary(cfg->items[i / cfg->n_variants].spec.w, metrics);
	}
	if (empty)
		vms_warn("the audio probe died or was stopped during the suite: %zu of %zu windows "
		         "have no sound data (n/a); the earlier ones are kept",
		         empty, windows);
	else if (died)
		vms_warn("the audio probe died after the last window; every window has its sound "
		         "data");
	return died || empty;
}

/* Checks the workload's needs again when its turn comes (the disk may have filled since the
 * check before the suite). 0, or -errno with the reason in why. */
static int still_runnable(const struct vms_workload_ctx *ctx, char *why, size_t len)
{
	struct vms_workload_ctx c = *ctx;

	return c.w->prepare ? c.w->prepare(&c, why, len) : 0;
}

/* The line of the run that just ended (its record holds status, times and disturbed). */
static void progress_end(struct vms_progress *pg, const json_t *run)
{
	const json_t *t0 = json_object_get(run, "t_start"), *t1 = json_object_get(run, "t_end");

	vms_progress_end(pg, json_string_value(json_object_get(run, "status")),
	                 json_is_true(json_object_get(run, "disturbed")),
	                 json_is_number(t0) && json_is_number(t1)
	                     ? json_number_value(t1) - json_number_value(t0)
	                     : -1,
	                 vms_now_mono());
}

/* One (workload, variant) entry of the result being filled. */
struct entry {
	json_t *wl, *metrics, *runs; /* borrowed from the document */
};

/* The rounds of the plan: every item's runs up to want[i], then a look (when adaptive). */
struct rounds {
	struct entry *es; /* n_items x n_variants */
	long *done, *want, *most;
	int *started, *skip, *warm;
	size_t current; /* the variant the host is in */
	int failed;     /* bit 1: a run failed; bit 2: the environment failed it (a full disk) */
	int measured, warned;
	struct vms_progress pg;
};

/* Runs run r (of at most rd->most[i]) of every variant of item i, ctx's workload (interleaved:
 * the variants take turns). Returns 0 to go on, 2 interrupted, 3 a fatal error (reported). A
 * failed run sets bit 1 of rd->failed, bit 2 when the environment failed it (the work
 * filesystem filled up). */
static int run_round(const struct vms_run_config *cfg, const json_t *doc,
                     struct vms_workload_ctx *ctx, struct rounds *rd, size_t i, long r)
{
	struct entry *es = &rd->es[i * cfg->n_variants];
	long nruns = rd->most[i];
	size_t v;

	for (v = 0; v < cfg->n_variants; v++) {
		const struct vms_run_variant *var = &cfg->variants[v];
		json_t *run;
		int st;

		if (stop_signal(cfg)) /* arrived between two runs: start no other */
			return 2;
		if (rd->current != v && cfg->apply_variant) {
			if (cfg->apply_variant(cfg->variant_ctx, v))
				return 3;
		}
		rd->current = v;
		run = json_object();
		json_array_append_new(es[v].runs, run);
		vms_progress_start(&rd->pg, i, ctx->w->name,
		                   cfg->n_variants > 1 ? var->label : NULL, r, nruns,
		                   vms_now_mono());
		st = run_once(cfg, ctx, es[v].metrics, run, (size_t)r, var, &rd->pg);
		if (st == 3) {
			vms_progress_cancel(&rd->pg);
			json_array_remove(es[v].runs, json_array_size(es[v].runs) - 1);
			return 2;
		}
		progress_end(&rd->pg, run);
		audio_check(cfg, ctx->w->name, r + 1, nruns, &rd->warned);
		vms_metrics_pad(es[v].metrics, (size_t)r + 1);
		apply_primary(ctx->w, es[v].metrics);
		if (st == 2)
			return 2;
		if (st == 1 || st == 4) {
			rd->failed |= st == 4 ? 2 : 1;
			if (cfg->n_variants > 1)
				vms_warn("%s [%s] run %ld/%ld failed: %s", ctx->w->name, var->label,
				         r + 1, nruns,
				         json_string_value(json_object_get(run, "reason")));
			else
				vms_warn("%s run %ld/%ld failed: %s", ctx->w->name, r + 1, nruns,
				         json_string_value(json_object_get(run, "reason")));
		} else {
			rd->measured = 1;
		}
		if (stop_signal(cfg))
			return 2;
		if (checkpoint(cfg, doc))
			return 3;
	}
	return 0;
}

/* The warm-up runs of item i (ctx's workload) before its first measured run, under the variant
 * the host is in (the first one when none is yet): each recorded in that variant's entry as
 * "warmup_runs", its figures thrown away, a progress line of its own. A failed warm-up run is
 * reported and recorded; the measured runs that follow say whether the workload itself fails.
 * Returns 0 to go on, 2 interrupted, 3 a fatal error (reported). */
static int warm_up(const struct vms_run_config *cfg, const json_t *doc,
                   struct vms_workload_ctx *ctx, struct rounds *rd, size_t i)
{
	struct entry *es = &rd->es[i * cfg->n_variants];
	size_t v = rd->current < cfg->n_variants ? rd->current : 0;
	json_t *list;
	long k;

	if (cfg->warmup <= 0)
		return 0;
	if (rd->current != v && cfg->apply_variant && cfg->apply_variant(cfg->variant_ctx, v))
		return 3;
	rd->current = v;
	list = json_array();
	json_object_set_new(es[v].wl, "warmup_runs", list);
	for (k = 1; k <= cfg->warmup; k++) {
		json_t *scratch = json_object(), *run = json_object(), *t0, *t1;
		int st;

		if (stop_signal(cfg)) {
			json_decref(scratch);
			json_decref(run);
			return 2;
		}
		st = run_once(cfg, ctx, scratch, run, (size_t)k - 1, &cfg->variants[v], &rd->pg);
		json_decref(scratch);
		if (st == 3) {
			json_decref(run);
			return 2;
		}
		json_array_append_new(list, run);
		t0 = json_object_get(run, "t_start");
		t1 = json_object_get(run, "t_end");
		vms_progress_line(&rd->pg, "%s warm-up run %ld/%ld: %s in %.2f s (not counted)",
		                  ctx->w->name, k, cfg->warmup,
		                  json_string_value(json_object_get(run, "status")),
		                  json_is_number(t0) && json_is_number(t1)
		                      ? json_number_value(t1) - json_number_value(t0)
		                      : 0.0);
		if (st == 2)
			return 2;
		if (st == 1 || st == 4)
			vms_warn("%s warm-up run %ld/%ld failed: %s", ctx->w->name, k, cfg->warmup,
			         json_string_value(json_object_get(run, "reason")));
		if (checkpoint(cfg, doc))
			return 3;
	}
	return 0;
}

static int runner_run(const struct vms_run_config *cfg, json_t **doc_out);

int vms_runner_run(const struct vms_run_config *cfg, json_t **doc_out)
{
	struct vms_run_config one;
	struct vms_run_variant def = {"default", NULL, 0};
	int ret;

	if (cfg->n_variants)
		return runner_run(cfg, doc_out);
	/* no variants given: one, the kernel's own THP policy, nothing applied */
	one = *cfg;
	def.settings = json_pack("{s:s}", "thp", "kernel");
	one.variants = &def;
	one.n_variants = 1;
	one.apply_variant = NULL;
	ret = runner_run(&one, doc_out);
	json_decref(def.settings);
	return ret;
}

static void rounds_free(struct rounds *rd)
{
	free(rd->es);
	free(rd->done);
	free(rd->want);
	free(rd->most);
	free(rd->started);
	free(rd->skip);
	free(rd->warm);
	vms_progress_release(&rd->pg);
}

/* Adds item i's entries (one per variant) to the document at its first turn, and marks it
 * skipped when it cannot run now. 0, or 3 when a checkpoint failed. */
static int item_start(const struct vms_run_config *cfg, json_t *doc, struct rounds *rd, size_t i,
                      const struct vms_workload_ctx *ctx)
{
	json_t *workloads = json_object_get(doc, "workloads");
	struct entry *es = &rd->es[i * cfg->n_variants];
	char why[512];
	size_t v;

	rd->started[i] = 1;
	for (v = 0; v < cfg->n_variants; v++) {
		es[v].metrics = json_object();
		es[v].runs = json_array();
		es[v].wl = json_pack("{s:s, s:i, s:s, s:s, s:o, s:i, s:o, s:o}", "name",
		                     ctx->w->name, "version", vms_workload_version(ctx->w),
		                     "variant", cfg->variants[v].label, "summary", ctx->w->summary,
		                     "options", vms_workload_opts_json(ctx->w, ctx->opts),
		                     "runs_planned", (int)cfg->items[i].runs, "metrics",
		                     es[v].metrics, "runs", es[v].runs);
		json_array_append_new(workloads, es[v].wl);
	}
	if (!still_runnable(ctx, why, sizeof(why)))
		return 0;
	for (v = 0; v < cfg->n_variants; v++) {
		json_object_set_new(es[v].wl, "status", json_string("skipped"));
		json_object_set_new(es[v].wl, "reason", json_string(why));
	}
	vms_progress_skip(&rd->pg, i);
	vms_warn("%s skipped: %s", ctx->w->name, why);
	rd->skip[i] = 1;
	return checkpoint(cfg, doc) ? 3 : 0;
}

static int runner_run(const struct vms_run_config *cfg, json_t **doc_out)
{
	json_t *doc = new_document(cfg);
	int interrupted = 0, skipped = 0, audio_dead = 0;
	struct rounds rd = {.current = (size_t)-1};
	const char **names = vms_xcalloc(cfg->n_items + 1, sizeof(*names));
	int ret = 0, more = 1;
	double b0 = 0, b1 = 0;
	size_t i;

	*doc_out = doc;
	rd.es = vms_xcalloc(cfg->n_items * cfg->n_variants + 1, sizeof(*rd.es));
	rd.done = vms_xcalloc(cfg->n_items + 1, sizeof(long));
	rd.want = vms_xcalloc(cfg->n_items + 1, sizeof(long));
	rd.most = vms_xcalloc(cfg->n_items + 1, sizeof(long));
	rd.started = vms_xcalloc(cfg->n_items + 1, sizeof(int));
	rd.skip = vms_xcalloc(cfg->n_items + 1, sizeof(int));
	rd.warm = vms_xcalloc(cfg->n_items + 1, sizeof(int));
	for (i = 0; i < cfg->n_items; i++) {
		rd.want[i] = rd.most[i] = cfg->items[i].runs;
		names[i] = cfg->items[i].spec.w->name;
	}
	vms_progress_init(&rd.pg, cfg->progress, stderr, cfg->n_items, cfg->n_variants, rd.most,
	                  cfg->look != NULL, cfg->progress_note);
	if (checkpoint(cfg, doc)) {
		rounds_free(&rd);
		free(names);
		return VMS_EXIT_FATAL;
	}
	vms_progress_header(&rd.pg, names);
	free(names);
	if (cfg->audio) {
		audio_baseline(cfg, &b0, &b1);
		audio_check(cfg, "the idle baseline", 0, 0, &rd.warned);
	}
	interrupted = stop_signal(cfg) != 0;
	/* adaptive: the look plans the first round (done[] all 0) */
	if (cfg->look && !interrupted &&
	    (more = cfg->look(cfg->look_ctx, doc, rd.done, rd.want, rd.most)) < 0) {
		rounds_free(&rd);
		return VMS_EXIT_FATAL;
	}
	while (more && !interrupted) {
		for (i = 0; i < cfg->n_items && !interrupted; i++) {
			const struct vms_run_item *it = &cfg->items[i];
			struct vms_workload_ctx ctx = {.w = it->spec.w,
			                               .opts = it->spec.opts,
			                               .workdir =
			                                   it->workdir ? it->workdir : cfg->workdir,
			                               .tmpfile = it->tmpfile};
			long r;

			if (stop_signal(cfg)) {
				interrupted = 1;
				break;
			}
			if (!rd.started[i] && item_start(cfg, doc, &rd, i, &ctx)) {
				rounds_free(&rd);
				return VMS_EXIT_FATAL;
			}
			if (rd.skip[i]) {
				/* keeps an earlier full-disk failure (bit 2) */
				skipped = 1;
				rd.failed |= 1;
				continue;
			}
			if (rd.done[i] == 0 && rd.want[i] > 0 && !rd.warm[i]) {
				int st = warm_up(cfg, doc, &ctx, &rd, i);

				rd.warm[i] = 1;
				if (st == 3) {
					rounds_free(&rd);
					return VMS_EXIT_FATAL;
				}
				if (st == 2) {
					interrupted = 1;
					break;
				}
			}
			for (r = rd.done[i]; r < rd.want[i] && !interrupted; r++) {
				int st = run_round(cfg, doc, &ctx, &rd, i, r);

				if (st == 3) {
					rounds_free(&rd);
					return VMS_EXIT_FATAL;
				}
				interrupted = st == 2;
				if (!interrupted)
					rd.done[i] = r + 1;
			}
		}
		if (interrupted || !cfg->look)
			break;
		more = cfg->look(cfg->look_ctx, doc, rd.done, rd.want, rd.most);
		if (more < 0 || checkpoint(cfg, doc)) {
			rounds_free(&rd);
			return VMS_EXIT_FATAL;
		}
	}
	rounds_free(&rd);
	if (cfg->audio)
		audio_dead = audio_windows(cfg, doc, b0, b1);
	/* a dead probe is a failure of the measurement: its windows have no sound data */
	ret = interrupted               ? VMS_EXIT_INTERRUPTED
	      : rd.failed & 2           ? VMS_EXIT_FATAL
	      : rd.failed || audio_dead ? VMS_EXIT_FAILED
	      : rd.measured             ? VMS_EXIT_OK
	                                : VMS_EXIT_SKIP;
	if (rd.failed == 1 && !rd.measured && !interrupted)
		ret = VMS_EXIT_FAILED;
	if (ret == VMS_EXIT_FATAL)
		vms_error("the work filesystem filled up during the run: its failed runs say "
		          "nothing about the kernel");
	vms_result_finish(doc, !interrupted && !skipped, interrupted, ret);
	if (checkpoint(cfg, doc))
		return VMS_EXIT_FATAL;
	return ret;
}

int vms_run_item_prepare(struct vms_run_item *it, const char *workdir, char *why, size_t len)
{
	struct vms_workload_ctx ctx = {.w = it->spec.w, .opts = it->spec.opts, .workdir = workdir};
	int ret = ctx.w->prepare ? ctx.w->prepare(&ctx, why, len) : 0;

	/* prepare may point ctx.workdir at the workload's own dir option (owned by the spec) */
	it->workdir = ret ? NULL : ctx.workdir;
	it->tmpfile = 0;
	if (!ret && (ctx.w->needs & VMS_NEED_DISK))
		ret = vms_workload_probe_dir(ctx.workdir, &it->tmpfile, why, len);
	return ret;
}
