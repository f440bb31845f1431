/* The suite: sets up the emulated machine (host lock, journal record, memory cgroup), the audio
 * probe and the signal handling around the runner, and undoes them on every exit path.
 * Kernel paths: cgroupfs mkdir/rmdir, flock, sigaction. */
#include "suite/suite.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/result.h"
#include "core/swapfile.h"
#include "core/util.h"

/* One suite per process: signals are process-wide. */
static volatile sig_atomic_t suite_stop;

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};

static void on_stop(int sig)
{
	suite_stop = sig;
}

int vms_suite_stop_signal(void)
{
	return (int)suite_stop;
}

/* No SA_RESTART: a blocking call returns EINTR and the loops around it look at the flag.
 * SIGPIPE is ignored until the host is restored: a reader of stdout or stderr that went away
 * (`| head -1`, a `| tee` that Ctrl-C ended too) turns a message into EPIPE, never into death
 * halfway through the undo. */
static void install_signals(struct vms_suite *s)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, &s->old_pipe);
	sa.sa_handler = on_stop;
	for (i = 0; i < VMS_ARRAY_SIZE(stop_signals); i++) {
		sigaction(stop_signals[i], NULL, &s->old_sa[i]);
		/* under nohup a hangup is not a stop: an inherited ignore stays */
		if (stop_signals[i] == SIGHUP && s->old_sa[i].sa_handler == SIG_IGN)
			continue;
		sigaction(stop_signals[i], &sa, NULL);
	}
	s->signals_installed = 1;
}

static void restore_signals(struct vms_suite *s)
{
	size_t i;

	if (!s->signals_installed)
		return;
	for (i = 0; i < VMS_ARRAY_SIZE(stop_signals); i++)
		sigaction(stop_signals[i], &s->old_sa[i], NULL);
	sigaction(SIGPIPE, &s->old_pipe, NULL);
	s->signals_installed = 0;
}

/* ---- the probe as an audio source ---- */

static int audio_check(void *ctx)
{
	return vms_probe_check(ctx);
}

static int audio_stop(void *ctx)
{
	return vms_probe_stop(ctx);
}

static json_t *audio_window(void *ctx, double t0, double t1, json_t *metrics, size_t run)
{
	return vms_probe_window(ctx, t0, t1, metrics, run);
}

static json_t *audio_facts(void *ctx)
{
	return vms_probe_facts(ctx);
}

static long audio_underruns(void *ctx)
{
	return vms_probe_underruns(ctx);
}

/* ---- host changes ---- */

/* Paths and command lines come from journal files: shown escaped (core/escape.h). */
static void say_repair(const struct vms_host_entry *e, enum vms_host_outcome outcome, int err,
                       void *arg)
{
	const char *what = vms_host_kind_what(e->kind);
	char *path = vms_text_escape(e->path), *cmd = vms_text_escape(e->owner.command);
	char *rec = vms_text_escape(e->record);

	(void)arg;
	switch (outcome) {
	case VMS_HOST_UNDONE: {
		char *done = vms_host_entry_undone(e);

		if (e->earlier_boot)
			vms_note(
			    "repaired what a crash or power loss left: %s, made by pid %ld ('%s') "
			    "in an earlier boot",
			    done, e->owner.pid, cmd);
		else
			vms_note("repaired what a dead vmsuite left: %s, changed by pid %ld ('%s')",
			         done, e->owner.pid, cmd);
		free(done);
		break;
	}
	case VMS_HOST_GONE:
		if (e->earlier_boot)
			vms_note(
			    "repaired the records: the %s '%s' made by pid %ld in an earlier boot "
			    "was already gone",
			    what, path, e->owner.pid);
		else
			vms_note(
			    "repaired the journal: the %s '%s' of the dead pid %ld was already "
			    "gone",
			    what, path, e->owner.pid);
		break;
	case VMS_HOST_FAILED:
		vms_warn("cannot undo the %s '%s' a dead vmsuite left: %s (see 'vmsuite cleanup')",
		         what, path, strerror(-err));
		break;
	case VMS_HOST_REFUSED:
		if (e->earlier_boot) {
			char *why = vms_host_entry_not_ours(e);

			vms_warn("%s", why);
			free(why);
		} else {
			vms_warn("the journal record '%s' names '%s', which vmsuite does not make: "
			         "left alone",
			         rec, path);
		}
		break;
	case VMS_HOST_TEMPORARY:
		vms_note("repaired what a dead vmsuite left: removed '%s', a record pid %ld was "
		         "writing when it died",
		         rec, e->owner.pid);
		break;
	case VMS_HOST_LIVE: break;
	}
	free(path);
	free(cmd);
	free(rec);
}

static void repair_unlocked(struct vms_suite *s);

/* Whether this user can keep a state directory (and so share the host lock) at hs->dir: it is
 * writable, or the nearest of its parents that exists is (the lock makes the missing ones). */
static int can_keep_state(const struct vms_hoststate *hs)
{
	char dir[sizeof(hs->dir)];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", hs->dir);
	while (access(dir, F_OK) && errno == ENOENT) {
		slash = strrchr(dir, '/');
		if (!slash)
			return !access(".", W_OK); /* a relative name: the current directory */
		if (slash == dir) {
			dir[1] = '\0';
			break;
		}
		*slash = '\0';
	}
	return !access(dir, W_OK);
}

/* Takes the host lock (waiting, with a note naming the holder) and repairs what dead runs
 * left. Two runs never overlap on one machine: cache drops, memory pressure and host changes
 * disturb both. A run that changes nothing (must == 0) by a user who cannot keep a state
 * directory there runs without the lock, repairing what it may. Returns an exit code. */
static int lock_host(struct vms_suite *s, int must)
{
	int ret;

	ret = vms_hoststate_init(&s->hs, s->cfg.state_dir);
	if (ret) {
		vms_hoststate_too_long(s->cfg.state_dir);
		return VMS_EXIT_FATAL;
	}
	if (!must && !can_keep_state(&s->hs)) {
		repair_unlocked(s);
		return 0;
	}
	ret = vms_hoststate_lock(&s->hs, 1, &suite_stop);
	if (ret == -EINTR) {
		vms_note("interrupted while waiting for the host lock; nothing was changed");
		return VMS_EXIT_INTERRUPTED;
	}
	if (ret)
		return VMS_EXIT_FATAL;
	vms_hoststate_repair(&s->hs, say_repair, NULL);
	return 0;
}

/* The temporary swap file the machine plans (m->swapfile_bytes): recorded in the journal and
 * in the persistent records (which outlive a reboot), created and switched on, before the
 * cgroup so that the cgroup sees it as host swap. Returns an exit code: the plan was sized for
 * this swap, so a failure ends the run. */
static int setup_swapfile(struct vms_suite *s)
{
	const struct vms_machine *m = s->cfg.machine;
	char size[32];

	if (!m->swapfile_bytes)
		return 0;
	s->swap_entry.kind = VMS_HOST_SWAPFILE;
	if ((size_t)snprintf(s->swap_entry.path, sizeof(s->swap_entry.path), "%s/%s%ld",
	                     m->swapfile_dir, VMS_SWAPFILE_PREFIX,
	                     (long)getpid()) >= sizeof(s->swap_entry.path)) {
		vms_error("swap file path under '%s' too long", m->swapfile_dir);
		return VMS_EXIT_FATAL;
	}
	/* the header's uuid, kept in the persistent record: after a reboot it tells the file
	 * for the one this run made */
	vms_swapfile_new_uuid(s->swap_entry.swap_uuid);
	/* in the journal before it exists: a SIGKILL from here on leaves a record */
	if (vms_hoststate_record(&s->hs, &s->swap_entry))
		return VMS_EXIT_FATAL;
	s->swap_recorded = 1;
	/* and on disk: a power loss from here on leaves a record the next boot finds */
	if (vms_hoststate_persist(&s->hs, &s->swap_entry))
		return VMS_EXIT_FATAL;
	if (!vms_swapfile_create(s->swap_entry.path, m->swapfile_bytes, s->swap_entry.swap_uuid,
	                         s->swap_method, sizeof(s->swap_method)))
		s->swap_created = 1;
	if (!s->swap_created || vms_swapfile_on(s->swap_entry.path)) {
		vms_note("the run was planned with %s of swap from that file; --swap-file no runs "
		         "without it, --swap-dir DIR puts it elsewhere",
		         vms_format_size(m->swapfile_bytes, size, sizeof(size)));
		return VMS_EXIT_FATAL;
	}
	return 0;
}

/* Switches off and removes the swap file, then its records (kept when that fails, so that the
 * next run or `vmsuite cleanup` retries). */
static void teardown_swapfile(struct vms_suite *s)
{
	char *path;
	int ret;

	if (!s->swap_recorded)
		return;
	/* a file this run did not make (the name was taken: EEXIST) is not its to remove */
	ret = s->swap_created ? vms_swapfile_remove(s->swap_entry.path) : 1;
	if (ret < 0 || ret == 2) {
		path = vms_text_escape(s->swap_entry.path);
		vms_warn("cannot remove the swap file '%s': %s (see 'vmsuite cleanup')", path,
		         ret == 2 ? "not a file vmsuite made" : strerror(-ret));
		free(path);
		return;
	}
	vms_hoststate_unpersist(&s->hs, &s->swap_entry); /* reported; a reboot finds it gone */
	if (!vms_hoststate_forget(&s->hs, &s->swap_entry))
		s->swap_recorded = 0;
}

/* protocol.machine.swap_file: what the run added to the host's swap, or null. */
static json_t *swapfile_json(const struct vms_suite *s)
{
	const struct vms_machine *m = s->cfg.machine;
	struct stat st;

	if (!s->swap_recorded || stat(s->swap_entry.path, &st))
		return json_null();
	return json_pack("{s:s, s:I, s:I, s:s, s:s, s:b}", "path", s->swap_entry.path, "size_bytes",
	                 (json_int_t)m->swapfile_bytes, "file_bytes", (json_int_t)st.st_size,
	                 "filesystem", m->swapfile_fs, "preallocation", s->swap_method, "created",
	                 1);
}

/* The zram device of --swap-kind zram: journalled before it exists (the kernel names it only
 * when hot_add is read: a first record says so, the second names the device and its diskseq),
 * added, sized, capped and switched on at the top swap priority, before the cgroup. Returns an
 * exit code. */
static int setup_zram(struct vms_suite *s)
{
	const struct vms_machine *m = s->cfg.machine;
	struct vms_host_entry *pe = &s->zram_pending, *e = &s->zram_entry;
	int ret;

	s->zram.id = -1;
	pe->kind = VMS_HOST_ZRAM;
	snprintf(pe->path, sizeof(pe->path), "%s/hot_add", VMS_ZRAM_CONTROL);
	ret = vms_zram_diskseq_floor(&pe->diskseq);
	if (ret) {
		vms_error("cannot read the block devices' diskseq: %s", strerror(-ret));
		return VMS_EXIT_FATAL;
	}
	/* in the journal before the device exists: a SIGKILL from here on leaves a record */
	if (vms_hoststate_record(&s->hs, pe))
		return VMS_EXIT_FATAL;
	s->zram_pending_recorded = 1;
	ret = vms_zram_add(&s->zram);
	if (!ret) {
		e->kind = VMS_HOST_ZRAM;
		snprintf(e->path, sizeof(e->path), "%s", s->zram.device);
		e->diskseq = s->zram.diskseq;
		vms_swapfile_new_uuid(e->swap_uuid);
		if (vms_hoststate_record(&s->hs, e)) {
			/* not journalled: removed while it surely is this run's */
			vms_zram_remove(s->zram.id, s->zram.diskseq);
			s->zram.id = -1;
			ret = -EIO;
		} else {
			s->zram_recorded = 1;
		}
	}
	/* the device is named by its own record now (or none was added) */
	if (!vms_hoststate_forget(&s->hs, pe))
		s->zram_pending_recorded = 0;
	if (ret || vms_zram_setup(&s->zram, m->zram_disksize, m->zram_pool, e->swap_uuid)) {
		vms_note("the run was planned with zram swap; --swap-kind file swaps to a file");
		return VMS_EXIT_FATAL;
	}
	return 0;
}

/* Switches off and removes the zram device, then its record (kept when that fails, so that
 * the next run or `vmsuite cleanup` retries). */
static void teardown_zram(struct vms_suite *s)
{
	int ret;

	if (s->zram_pending_recorded && !vms_hoststate_forget(&s->hs, &s->zram_pending))
		s->zram_pending_recorded = 0;
	if (!s->zram_recorded)
		return;
	ret = vms_zram_remove(s->zram.id, s->zram.diskseq);
	if (ret < 0) {
		vms_warn("cannot remove the zram device '%s': %s (see 'vmsuite cleanup')",
		         s->zram.device, strerror(-ret));
		return;
	}
	s->zram.id = -1;
	if (!vms_hoststate_forget(&s->hs, &s->zram_entry))
		s->zram_recorded = 0;
}

static const char *const zswap_knobs[2] = {"zswap.max_pool_percent", "zswap.enabled"};

/* zswap of --swap-kind zswap, after the swap file: its pool cap, then the switch, each a
 * journalled knob (core/sysctl.h), so that the journal's newest-first undo switches zswap off
 * before the swap file goes. A pool cap a --sysctl axis owns is left to it. The compressor
 * stays the kernel's. Returns an exit code. */
static int setup_zswap(struct vms_suite *s)
{
	const struct vms_machine *m = s->cfg.machine;
	char value[16], err[1024];
	size_t i, k;

	snprintf(value, sizeof(value), "%u", m->zswap_pool_percent);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < s->cfg.n_knobs; k++)
			if (!strcmp(s->cfg.knobs[k], zswap_knobs[i]))
				break;
		if (k < s->cfg.n_knobs)
			continue;
		if (vms_sysctl_set(&s->hs, zswap_knobs[i], i ? "Y" : value, &s->zswap_e[i], err,
		                   sizeof(err))) {
			vms_error("cannot put zswap in front of the swap: %s", err);
			vms_note(
			    "the run was planned with zswap; --swap-kind file swaps to the file "
			    "alone");
			return VMS_EXIT_FATAL;
		}
		s->zswap_set[i] = 1;
	}
	if (vms_sysctl_read("/sys/module/zswap/parameters/compressor", s->zswap_compressor,
	                    sizeof(s->zswap_compressor)))
		s->zswap_compressor[0] = '\0';
	return 0;
}

/* zswap off, then its pool cap back: the reverse of setup_zswap() (a record that cannot be
 * written back stays for `vmsuite cleanup`, reported). */
static void teardown_zswap(struct vms_suite *s)
{
	size_t i;

	for (i = 2; i-- > 0;)
		if (s->zswap_set[i]) {
			vms_sysctl_restore(&s->hs, &s->zswap_e[i]);
			s->zswap_set[i] = 0;
		}
}

/* protocol.machine.zswap: what --swap-kind zswap set, or null. */
static json_t *zswap_json(const struct vms_suite *s)
{
	const struct vms_machine *m = s->cfg.machine;

	if (!s->zswap_set[1])
		return json_null();
	return json_pack("{s:s, s:s?, s:i, s:I, s:b}", "enabled", "Y", "compressor",
	                 s->zswap_compressor[0] ? s->zswap_compressor : NULL, "max_pool_percent",
	                 (int)m->zswap_pool_percent, "pool_limit_bytes", (json_int_t)m->zswap_pool,
	                 "charged_to_cgroup", m->cg.version == VMS_CGROUP_V2);
}

/* The emulated machine's own swap, by its kind. Returns an exit code. */
static int setup_swap(struct vms_suite *s)
{
	int ret;

	switch (s->cfg.machine->swap_kind) {
	case VMS_SWAP_KIND_ZRAM: return setup_zram(s);
	case VMS_SWAP_KIND_ZSWAP: ret = setup_swapfile(s); return ret ? ret : setup_zswap(s);
	default: return setup_swapfile(s);
	}
}

/* The reverse of setup_swap(): zswap off before its swap file goes. */
static void teardown_swap(struct vms_suite *s)
{
	teardown_zswap(s);
	teardown_swapfile(s);
	teardown_zram(s);
}

/* protocol.machine.zram: the device the run added, or null. */
static json_t *zram_json(const struct vms_suite *s)
{
	const struct vms_zram *z = &s->zram;
	long page = sysconf(_SC_PAGESIZE);

	if (!s->zram_recorded || !z->on)
		return json_null();
	return json_pack("{s:s, s:I, s:I, s:I, s:s, s:I, s:i}", "device", z->device, "diskseq",
	                 (json_int_t)z->diskseq, "size_bytes",
	                 (json_int_t)(z->disksize - (uint64_t)(page > 0 ? page : 4096)),
	                 "disksize_bytes", (json_int_t)z->disksize, "compressor", z->compressor,
	                 "pool_limit_bytes", (json_int_t)z->mem_limit, "priority", z->priority);
}

/* The runner's swap_before: the zram device's counters before a run, its pool peak reset. */
static void zram_before(void *ctx)
{
	struct vms_suite *s = ctx;
	struct vms_zram_mm_stat st;

	vms_zram_reset_peak(s->zram.id);
	if (vms_zram_read_stats(s->zram.id, &st, &s->zram_written, &s->zram_read))
		s->zram_written = s->zram_read = 0;
}

/* The runner's swap_after: what went to and came from the zram device in the run, and the
 * peak of its pool (Documentation/admin-guide/blockdev/zram.rst, mm_stat). */
static json_t *zram_after(void *ctx)
{
	struct vms_suite *s = ctx;
	struct vms_zram_mm_stat st;
	uint64_t written, read;

	if (vms_zram_read_stats(s->zram.id, &st, &written, &read))
		return NULL;
	return json_pack("{s:s, s:I, s:I, s:I, s:I}", "device", s->zram.device, "written_bytes",
	                 (json_int_t)(written - s->zram_written), "read_bytes",
	                 (json_int_t)(read - s->zram_read), "pool_peak_bytes",
	                 (json_int_t)st.mem_used_max, "pool_limit_bytes", (json_int_t)st.mem_limit);
}

/* Keeps vmsuite's own process (the sampler, the checkpoints) off the emulated machine's CPUs
 * when the host has others; its children pin themselves to the machine's CPUs. */
static void pin_self(const struct vms_machine *m)
{
	cpu_set_t set;

	if (!m->cpus || !m->others_list[0] || vms_cpu_list_parse(m->others_list, &set))
		return;
	if (sched_setaffinity(0, sizeof(set), &set))
		vms_warn("cannot keep vmsuite off CPU %s: %s", m->cpu_list, strerror(errno));
}

/* Lock, repair, record, create. Returns an exit code (0 = the cgroup exists). */
static int setup_cgroup(struct vms_suite *s)
{
	const struct vms_machine *m = s->cfg.machine;
	char name[64];
	int ret;

	if ((ret = lock_host(s, 1)) || (ret = setup_swap(s)))
		return ret;

	snprintf(name, sizeof(name), "vmsuite-%ld", (long)getpid());
	s->cg_entry.kind = VMS_HOST_CGROUP;
	s->cg_entry.cgroup_version = m->cg.version == VMS_CGROUP_V2 ? 2 : 1;
	if ((size_t)snprintf(s->cg_entry.path, sizeof(s->cg_entry.path), "%s/%s", m->cg.self_dir,
	                     name) >= sizeof(s->cg_entry.path)) {
		vms_error("cgroup path under '%s' too long", m->cg.self_dir);
		return VMS_EXIT_FATAL;
	}
	/* in the journal before it exists: a SIGKILL from here on leaves a record */
	if (vms_hoststate_record(&s->hs, &s->cg_entry))
		return VMS_EXIT_FATAL;
	s->cg_recorded = 1;
	if (vms_cgroup_create(&s->cg, &m->cg, name, m->mem_limit, m->swap_limit, NULL))
		return VMS_EXIT_FATAL;
	return 0;
}

/* Repairs what dead runs left without the lock (every undo is idempotent, see vmsuite
 * cleanup) when there is a journal. */
static void repair_unlocked(struct vms_suite *s)
{
	struct stat st;

	if (vms_hoststate_init(&s->hs, s->cfg.state_dir) || stat(s->hs.dir, &st))
		return;
	vms_hoststate_repair(&s->hs, say_repair, NULL);
}

/* ---- kernel knobs (--sysctl) ---- */

static const char *knob_value(const struct vms_suite *s, size_t v, size_t k)
{
	return json_string_value(json_object_get(s->cfg.variants[v].settings, s->cfg.knobs[k]));
}

/* Sets knob k to value: the first time journalled (the record keeps the original), later
 * written over. 0, or -errno (reported). */
static int knob_put(struct vms_suite *s, size_t k, const char *value)
{
	struct vms_suite_knob *kn = &s->knobs[k];
	const char *name = s->cfg.knobs[k];
	char err[1024];
	int ret;

	if (kn->set && !strcmp(kn->now, value))
		return 0;
	ret = kn->set ? vms_sysctl_change(&kn->e, name, value, err, sizeof(err))
	              : vms_sysctl_set(&s->hs, name, value, &kn->e, err, sizeof(err));
	if (ret)
		return vms_error_ret(ret, "%s", err);
	kn->set = 1;
	snprintf(kn->now, sizeof(kn->now), "%s", value);
	return 0;
}

/* Writes knob k back to its original value and forgets its record; says so unless quiet.
 * 0, or -errno when it could not be written back (reported; the record stays). */
static int knob_restore(struct vms_suite *s, size_t k, int quiet)
{
	struct vms_suite_knob *kn = &s->knobs[k];
	int ret;

	if (!kn->set)
		return 0;
	ret = vms_sysctl_restore(&s->hs, &kn->e);
	if (!ret && !quiet) {
		char *orig = vms_text_escape(kn->e.original);
		char *porig = vms_text_escape(kn->e.partner_original);

		if (kn->e.partner[0])
			vms_note(
			    "restored %s to '%s' and %s, which the kernel links to it, to '%s'",
			    s->cfg.knobs[k], orig, vms_sysctl_partner(s->cfg.knobs[k]), porig);
		else
			vms_note("restored %s to '%s'", s->cfg.knobs[k], orig);
		free(orig);
		free(porig);
	} /* else reported; the record stays for `vmsuite cleanup` */
	kn->set = 0;
	return ret;
}

static void knobs_restore(struct vms_suite *s)
{
	size_t k;

	for (k = s->knobs ? s->cfg.n_knobs : 0; k-- > 0;)
		knob_restore(s, k, 0);
}

/* Every value of every knob written once and restored, before anything runs: a value the
 * kernel refuses ends the suite with nothing changed. Returns an exit code. */
static int knobs_trial(struct vms_suite *s)
{
	size_t k, v;

	s->knobs = vms_xcalloc(s->cfg.n_knobs ? s->cfg.n_knobs : 1, sizeof(*s->knobs));
	for (k = 0; k < s->cfg.n_knobs; k++) {
		for (v = 0; v < s->cfg.n_variants; v++) {
			const char *val = knob_value(s, v, k);
			int ret;

			if (!val) {
				vms_error("variant '%s' has no value for %s",
				          s->cfg.variants[v].label, s->cfg.knobs[k]);
				return VMS_EXIT_FATAL;
			}
			ret = knob_put(s, k, val);
			/* a knob that cannot be put back must not be measured with: its record
			 * keeps the true original, a later write would journal the trial's value */
			if (knob_restore(s, k, 1) || ret == -ENOTRECOVERABLE) {
				vms_error(
				    "nothing ran: %s cannot be put back to its value before the "
				    "trial write of '%s' (its journal record is kept for 'vmsuite "
				    "cleanup')",
				    s->cfg.knobs[k], val);
				return VMS_EXIT_FATAL;
			}
			/* refused: -ENOENT is zswap's answer to a compressor it does not have */
			if (ret == -EINVAL || ret == -ERANGE || ret == -ENOENT) {
				vms_note("nothing ran; every knob is as it was");
				return VMS_EXIT_USAGE;
			}
			if (ret)
				return VMS_EXIT_FATAL;
		}
	}
	return 0;
}

/* The runner's apply_variant: the host into variant v's settings. */
static int apply_variant(void *ctx, size_t v)
{
	struct vms_suite *s = ctx;
	size_t k;

	for (k = 0; k < s->cfg.n_knobs; k++)
		if (knob_put(s, k, knob_value(s, v, k)))
			return -1;
	return 0;
}

/* The probe names gaps' causes from its own delay accounting (docs/audio-probe.md, Causes):
 * as root, turn kernel.task_delayacct on for the suite, journalled, unless it is on already
 * or a --sysctl axis owns it. Without it the probe infers causes and says why. */
static void delayacct_on(struct vms_suite *s)
{
	char value[16], err[512];
	size_t k;

	if (geteuid() != 0 ||
	    vms_sysctl_read("/proc/sys/kernel/task_delayacct", value, sizeof(value)) ||
	    !strcmp(value, "1"))
		return;
	for (k = 0; k < s->cfg.n_knobs; k++)
		if (!strcmp(s->cfg.knobs[k], "kernel.task_delayacct"))
			return;
	if (vms_sysctl_set(&s->hs, "kernel.task_delayacct", "1", &s->delayacct_e, err, sizeof(err)))
		vms_warn("cannot turn delay accounting on (%s): the audio probe infers the causes "
		         "of gaps instead",
		         err);
	else
		s->delayacct_set = 1;
}

static void delayacct_restore(struct vms_suite *s)
{
	if (s->delayacct_set)
		vms_sysctl_restore(&s->hs, &s->delayacct_e); /* reported when it fails */
	s->delayacct_set = 0;
}

static void teardown(struct vms_suite *s)
{
	vms_probe_free(s->probe);
	s->probe = NULL;
	delayacct_restore(s);
	/* the knobs back while the lock is held: the next run must find the host as it was */
	knobs_restore(s);
	free(s->knobs);
	s->knobs = NULL;
	/* the record goes only once the cgroup is gone: else `vmsuite cleanup` retries */
	if (vms_cgroup_destroy(&s->cg, 1))
		s->cg.created = 0; /* warned; tried once, the record stays */
	else if (s->cg_recorded && !vms_hoststate_forget(&s->hs, &s->cg_entry))
		s->cg_recorded = 0;
	/* after the cgroup: its tasks are gone, so what they swapped out is freed */
	teardown_swap(s);
	vms_hoststate_release(&s->hs);
}

/* ---- the suite ---- */

void vms_suite_init(struct vms_suite *s, const struct vms_suite_config *cfg)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->cg = (struct vms_cgroup)VMS_CGROUP_INIT;
	s->hs = (struct vms_hoststate)VMS_HOSTSTATE_INIT;
	s->zram.id = -1;
}

/* The first save creates the file (another run may have taken the name since the check before
 * the suite); the later ones replace it. */
static int checkpoint(void *ctx, const json_t *doc)
{
	struct vms_suite *s = ctx;
	const char *path = s->cfg.output;
	int ret =
	    vms_json_write_file(doc, path, s->saves || s->cfg.force ? 0 : VMS_WRITE_NOREPLACE);

	if (ret == -EEXIST)
		vms_error("'%s' exists: not overwritten (--overwrite replaces it)", path);
	else if (ret)
		vms_error("cannot write '%s': %s", path, strerror(-ret));
	if (ret)
		s->save_failed = 1;
	else
		s->saves++;
	return ret;
}

int vms_suite_run(struct vms_suite *s, json_t **doc)
{
	const struct vms_machine *m = s->cfg.machine;
	struct vms_run_config rc = {0};
	char why[1024];
	size_t i;
	int ret;

	*doc = NULL;
	suite_stop = 0;
	install_signals(s);
	/* every workload's needs (free disk, not tmpfs) before anything starts or changes */
	for (i = 0; i < s->cfg.n_items; i++) {
		if (vms_run_item_prepare(&s->cfg.items[i], s->cfg.workdir, why, sizeof(why))) {
			vms_error("%s: %s", s->cfg.items[i].spec.w->name, why);
			ret = VMS_EXIT_FATAL;
			goto out;
		}
	}
	if (m->note[0])
		vms_note("%s", m->note);
	if (!m->use_cgroup) /* knobs and delay accounting change the host: the lock */
		ret = lock_host(s, s->cfg.n_knobs > 0 || (s->cfg.with_audio && geteuid() == 0));
	else
		ret = setup_cgroup(s);
	if (ret)
		goto out;
	if (s->cfg.n_knobs && (ret = knobs_trial(s)))
		goto out;
	s->machine_json = vms_machine_json(m, m->use_cgroup ? &s->cg : NULL);
	json_object_set_new(s->machine_json, "swap_file", swapfile_json(s));
	json_object_set_new(s->machine_json, "zram", zram_json(s));
	json_object_set_new(s->machine_json, "zswap", zswap_json(s));
	pin_self(m);
	if (s->cfg.with_audio) {
		/* the player shares the emulated machine's RAM and CPUs, as in 2001 */
		s->cfg.probe.join_procs = m->use_cgroup ? s->cg.procs : NULL;
		s->cfg.probe.cpu_list = s->cfg.probe_cpu_list ? s->cfg.probe_cpu_list
		                        : m->cpu_list[0]      ? m->cpu_list
		                                              : NULL;
		s->cfg.probe.stop = &suite_stop;
		delayacct_on(s);
		ret = vms_probe_start(&s->cfg.probe, &s->probe);
		if (ret == -EINTR) {
			vms_note("interrupted while the audio probe was starting; nothing ran");
			ret = VMS_EXIT_INTERRUPTED;
			goto out;
		}
		if (ret) {
			ret = VMS_EXIT_FATAL;
			goto out;
		}
		s->audio = (struct vms_audio_source){.check = audio_check,
		                                     .stop = audio_stop,
		                                     .window = audio_window,
		                                     .facts = audio_facts,
		                                     .underruns = audio_underruns,
		                                     .ctx = s->probe};
		rc.audio = &s->audio;
		rc.baseline_s = s->cfg.baseline_s;
	}
	rc.items = s->cfg.items;
	rc.n_items = s->cfg.n_items;
	rc.workdir = s->cfg.workdir;
	rc.label = s->cfg.label;
	rc.argc = s->cfg.argc;
	rc.argv = s->cfg.argv;
	rc.progress = s->cfg.progress;
	rc.drop_caches = s->cfg.drop_caches;
	rc.sample_hz = s->cfg.sample_hz;
	rc.disturbed_above = s->cfg.disturbed_above;
	rc.warmup = s->cfg.warmup;
	rc.machine = s->machine_json;
	rc.cpu_list = m->cpu_list[0] ? m->cpu_list : NULL;
	rc.cgroup = m->use_cgroup ? &s->cg : NULL;
	rc.journal = &s->hs; /* initialised by setup_cgroup() or repair_unlocked() */
	rc.stop = &suite_stop;
	rc.checkpoint = checkpoint;
	rc.checkpoint_ctx = s;
	if (s->zram.on) {
		rc.swap_before = zram_before;
		rc.swap_after = zram_after;
		rc.swap_ctx = s;
	}
	rc.variants = s->cfg.variants;
	rc.n_variants = s->cfg.n_variants;
	rc.apply_variant = s->cfg.n_knobs ? apply_variant : NULL;
	rc.variant_ctx = s;
	rc.look = s->cfg.look;
	rc.look_ctx = s->cfg.look_ctx;
	rc.progress_note = s->cfg.progress_note;
	ret = vms_runner_run(&rc, doc);
out:
	teardown(s);
	return ret;
}

void vms_suite_release(struct vms_suite *s)
{
	teardown(s);
	json_decref(s->machine_json);
	s->machine_json = NULL;
	restore_signals(s);
}
