/* The audio probe's parent side: vms_probe_start() maps the record memory, forks the player
 * (probe-player.c) and waits until it plays in real time; the rest reads its records, watches
 * the process (alive, stopped, dead) and stops it. The player and its watcher thread
 * (probe-watcher.c) write; this side only reads, through probe-process.h.
 * Kernel paths: fork, shared anonymous memory, waitpid, /proc/PID/stat. */
#include "audio-probe/probe.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audio-probe/probe-process.h"
#include "core/util.h"

#define START_TIMEOUT_S 60.0

/* What the parent saw of the probe process at a moment (struct seen). */
enum { SEEN_PLAYING, SEEN_STOPPED, SEEN_DEAD };

struct seen {
	double t;
	int what;
};

struct vms_probe {
	struct vms_probe_opts opts;
	char *file, *device;
	pid_t pid;
	int status; /* wait status once reaped */
	int reaped;
	int stopped;
	double died_at;
	char err[1024];
	struct seen *seen; /* every look at the process, in time order (vms_probe_check) */
	size_t n_seen, cap_seen;
	void *map;
	size_t map_len;
	struct vms_probe_shm_hdr *h;
	struct vms_wake_rec *wakes;
	struct vms_xrun_rec *xruns;
	struct vms_tick_rec *ticks;
};

static size_t page_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (n + pg - 1) / pg * pg;
}

static void reap(struct vms_probe *p, int options)
{
	int status;
	pid_t r;

	if (p->reaped || p->pid <= 0)
		return;
	r = waitpid(p->pid, &status, options);
	if (r < 0 && errno == ECHILD) {
		/* somebody else reaped it (a waitpid(-1) in the caller): it is gone */
		r = p->pid;
		status = atomic_load(&p->h->state) == ST_STOPPED ? 0 : SIGKILL;
	}
	if (r == p->pid) {
		p->reaped = 1;
		p->status = status;
		if (!p->stopped)
			p->died_at = now_mono();
	}
}

static const char *pick_device(const struct vms_probe_opts *o, int *virtual_dev)
{
	*virtual_dev = 0;
	if (o->device) {
		*virtual_dev = !strcmp(o->device, "virtual");
		return o->device;
	}
	if (vms_have_sound_card())
		return "default";
	*virtual_dev = 2; /* chosen for want of a card: say so once it plays */
	return "virtual";
}

int vms_probe_start(const struct vms_probe_opts *o, struct vms_probe **out)
{
	struct vms_probe *p;
	size_t hdr, wl, xl;
	double deadline;
	pid_t parent = getpid();
	int state;

	*out = NULL;
	p = vms_xcalloc(1, sizeof(*p));
	p->file = o->file ? vms_xstrdup(o->file) : vms_sample_mp3_path();
	/* before the probe process: its open() of a FIFO would block, a huge file take minutes */
	if (vms_mp3_check_stat(p->file, NULL, p->err, sizeof(p->err))) {
		vms_error("%s", p->err);
		goto fail;
	}
	p->opts = *o;
	vms_probe_geometry(o, &p->opts.period_ms, &p->opts.buffer_ms);
	{
		const struct vms_probe_latency *l = vms_probe_latency_find(o->latency);

		p->opts.latency = l ? l->name : VMS_PROBE_LATENCY_DEFAULT; /* static strings */
	}
	p->device = vms_xstrdup(pick_device(o, &state));
	p->opts.file = p->file;
	p->opts.device = p->device;
	p->opts.join_procs = o->join_procs ? vms_xstrdup(o->join_procs) : NULL;
	p->opts.cpu_list = o->cpu_list ? vms_xstrdup(o->cpu_list) : NULL;

	hdr = page_round(sizeof(struct vms_probe_shm_hdr));
	wl = page_round(WAKE_CAP * sizeof(struct vms_wake_rec));
	xl = page_round(XRUN_CAP * sizeof(struct vms_xrun_rec));
	p->map_len = hdr + wl + xl + page_round(TICK_CAP * sizeof(struct vms_tick_rec));
	p->map = mmap(NULL, p->map_len, PROT_READ | PROT_WRITE,
	              MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		vms_error("audio probe: cannot map its record buffers: %s", strerror(errno));
		goto fail;
	}
	p->h = p->map;
	p->wakes = (void *)((char *)p->map + hdr);
	p->xruns = (void *)((char *)p->map + hdr + wl);
	p->ticks = (void *)((char *)p->map + hdr + wl + xl);
	snprintf(p->h->file, sizeof(p->h->file), "%s", p->file);
	snprintf(p->h->device, sizeof(p->h->device), "%s", p->device);
	p->h->virtual_dev = state;

	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0) {
		vms_error("audio probe: cannot fork: %s", strerror(errno));
		goto fail;
	}
	if (p->pid == 0) {
		const struct vms_probe_records r = {p->h, p->wakes, p->xruns, p->ticks};

		vms_probe_player_main(&p->opts, &r, parent);
	}

	/* workloads forked later by the caller must not inherit the records */
	madvise(p->map, p->map_len, MADV_DONTFORK);
	deadline = now_mono() + START_TIMEOUT_S;
	while ((state = atomic_load(&p->h->state)) == ST_STARTING) {
		reap(p, WNOHANG);
		if (p->reaped || now_mono() > deadline)
			break;
		if (o->stop && *o->stop) {
			kill(p->pid, SIGKILL);
			reap(p, 0);
			p->stopped = 1;
			vms_probe_free(p);
			return -EINTR;
		}
		usleep(2000);
	}
	if (state == ST_FAILED) {
		reap(p, 0);
		vms_error("%s", p->h->error);
		goto fail;
	}
	if (state != ST_PLAYING) {
		if (p->reaped)
			vms_error("audio probe: the probe process died while starting (%s %d)",
			          WIFSIGNALED(p->status) ? "signal" : "exit status",
			          WIFSIGNALED(p->status) ? WTERMSIG(p->status)
			                                 : WEXITSTATUS(p->status));
		else
			vms_error("audio probe: not playing after %.0f s; giving up",
			          START_TIMEOUT_S);
		goto fail;
	}
	if (p->h->virtual_dev == 2)
		vms_note("no sound card: using the virtual clock device; it measures timing only, "
		         "nothing is heard");
	if (p->h->warning[0])
		vms_warn("%s", p->h->warning);
	*out = p;
	return 0;
fail:
	vms_probe_free(p);
	return -1;
}

long vms_probe_underruns(const struct vms_probe *p)
{
	return p ? atomic_load(&p->h->underruns) : 0;
}

pid_t vms_probe_pid(const struct vms_probe *p)
{
	return p ? p->pid : -1;
}

int vms_probe_alive(const struct vms_probe *p)
{
	struct vms_probe *q = (struct vms_probe *)p;

	if (!p)
		return 0;
	reap(q, WNOHANG);
	return !q->reaped && atomic_load(&q->h->state) == ST_PLAYING;
}

/* The state letter of /proc/PID/stat ('R', 'S', 'T'...), or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512];
	const char *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	paren = strrchr(buf, ')'); /* the command name may hold anything */
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

static void add_seen(struct vms_probe *p, int what)
{
	if (p->n_seen == p->cap_seen) {
		p->cap_seen = p->cap_seen ? 2 * p->cap_seen : 64;
		p->seen = vms_xrealloc(p->seen, p->cap_seen * sizeof(*p->seen));
	}
	p->seen[p->n_seen++] = (struct seen){now_mono(), what};
}

/* Looks at the process now and remembers what it saw. */
static int look(struct vms_probe *p)
{
	char st;

	reap(p, WNOHANG);
	if (p->reaped) {
		if (p->died_at > 0)
			add_seen(p, SEEN_DEAD);
		return p->died_at > 0 ? SEEN_DEAD : SEEN_PLAYING;
	}
	st = proc_state(p->pid);
	add_seen(p, st == 'T' || st == 't' ? SEEN_STOPPED : SEEN_PLAYING);
	return p->seen[p->n_seen - 1].what;
}

int vms_probe_check(struct vms_probe *p)
{
	if (!p || p->pid <= 0)
		return -1;
	if (p->stopped)
		return p->died_at > 0 ? -1 : 0;
	return look(p) == SEEN_PLAYING ? 0 : -1;
}

int vms_probe_stop(struct vms_probe *p)
{
	double deadline;

	if (!p || p->pid <= 0)
		return -1;
	if (!p->reaped && !p->stopped && look(p) == SEEN_STOPPED) {
		/* SIGSTOPped and never continued: it cannot see the stop flag */
		kill(p->pid, SIGKILL);
		deadline = now_mono() + 3.0;
		while (!p->reaped && now_mono() < deadline) {
			usleep(2000);
			reap(p, WNOHANG);
		}
		p->stopped = 1;
		return vms_error("audio probe: the probe process was stopped (SIGSTOP) and never "
		                 "continued; its records end at %.1f s",
		                 load_d(&p->h->last_wake) - p->h->t_playing);
	}
	reap(p, WNOHANG);
	if (p->reaped) {
		if (!p->stopped && p->died_at > 0) {
			p->stopped = 1;
			add_seen(p, SEEN_DEAD);
			return vms_error("audio probe: the probe process died (%s %d); its records "
			                 "end at %.1f s",
			                 WIFSIGNALED(p->status) ? "signal" : "exit status",
			                 WIFSIGNALED(p->status) ? WTERMSIG(p->status)
			                                        : WEXITSTATUS(p->status),
			                 load_d(&p->h->last_wake) - p->h->t_playing);
		}
		return p->died_at > 0 ? -1 : 0;
	}
	atomic_store_explicit(&p->h->stop, 1, memory_order_release);
	deadline = now_mono() + 2.0 + 4 * p->opts.buffer_ms / 1000;
	while (!p->reaped && now_mono() < deadline) {
		usleep(2000);
		reap(p, WNOHANG);
	}
	if (!p->reaped) {
		kill(p->pid, SIGKILL);
		deadline = now_mono() + 3.0;
		while (!p->reaped && now_mono() < deadline) {
			usleep(2000);
			reap(p, WNOHANG);
		}
		p->stopped = 1;
		if (!p->reaped)
			return vms_error(
			    "audio probe: process %ld does not exit, even after SIGKILL",
			    (long)p->pid);
		return vms_error("audio probe: the probe process did not stop in time; killed");
	}
	p->stopped = 1;
	p->died_at = 0;
	return 0;
}

/* Why the window ending at t1 has no sound data, or NULL when it has: the probe was dead, or
 * stopped (SIGSTOP), at t1. Judged from the first look at the process after t1: stopped then
 * and not woken since t1; dead then and its records end before t1. No look after t1 yet: one
 * now. A probe stopped and continued before the look is data: its gap is a real gap. */
static const char *no_data_cause(struct vms_probe *p, double t1, size_t n_wakes)
{
	const struct seen *s = NULL;
	size_t i, w;

	for (i = 0; i < p->n_seen && !s; i++)
		if (p->seen[i].t >= t1)
			s = &p->seen[i];
	if (!s && !p->stopped) {
		look(p);
		s = &p->seen[p->n_seen - 1];
	}
	if (!s)
		return NULL; /* after a clean stop */
	switch (s->what) {
	case SEEN_STOPPED:
		w = vms_wake_index(p->wakes, n_wakes, t1);
		return w < n_wakes && p->wakes[w].t <= s->t ? NULL : "probe_stopped";
	case SEEN_DEAD: return load_d(&p->h->last_wake) >= t1 ? NULL : "probe_died";
	default: return NULL;
	}
}

json_t *vms_probe_window(struct vms_probe *p, double t0, double t1, json_t *metrics, size_t run)
{
	struct vms_probe_view v;
	const char *why;
	json_t *d;

	if (!p || !p->h)
		return json_object();
	vms_probe_alive(p);
	memset(&v, 0, sizeof(v));
	v.n_wakes = atomic_load_explicit(&p->h->n_wakes, memory_order_acquire);
	v.n_xruns = atomic_load_explicit(&p->h->n_xruns, memory_order_acquire);
	v.n_ticks = atomic_load_explicit(&p->h->n_ticks, memory_order_acquire);
	why = no_data_cause(p, t1, v.n_wakes);
	if (why)
		return json_pack("{s:f, s:f, s:s, s:f}", "t0", t0, "t1", t1, "no_sound_data", why,
		                 "records_end", load_d(&p->h->last_wake));
	v.wakes = p->wakes;
	v.xruns = p->xruns;
	v.ticks = p->ticks;
	v.period_ms = p->h->period_ms;
	v.last_dry = load_d(&p->h->last_dry);
	v.last_wake = load_d(&p->h->last_wake);
	v.died_at = p->died_at;
	v.now = now_mono();
	v.cause_method = p->h->cause_method;
	if (p->stopped && !p->died_at) /* stopped on purpose: silence after that is not a gap */
		v.last_dry = 0;
	d = vms_probe_window_compute(&v, t0, t1, metrics, run);
	if (atomic_load(&p->h->wakes_lost) || atomic_load(&p->h->xruns_lost))
		json_object_set_new(
		    d, "records_lost",
		    json_pack("{s:I, s:I}", "wakes", (json_int_t)atomic_load(&p->h->wakes_lost),
		              "underruns", (json_int_t)atomic_load(&p->h->xruns_lost)));
	return d;
}

/* How the gaps' causes are named in this probe's records. */
static json_t *cause_facts(const struct vms_probe *p)
{
	json_t *o;

	o = json_pack("{s:s}", "cause_method", vms_cause_method_name(p->h->cause_method));
	if (p->h->cause_method == VMS_CAUSE_BY_DELAYACCT)
		json_object_set_new(o, "taskstats_version", json_integer(p->h->taskstats_version));
	else if (p->h->cause_note[0])
		json_object_set_new(o, "cause_method_why", json_string(p->h->cause_note));
	return o;
}

json_t *vms_probe_facts(const struct vms_probe *p)
{
	const struct vms_mp3_facts *f;
	json_t *o;

	if (!p || !p->h)
		return json_object();
	f = &p->h->mp3;
	o = json_pack(
	    "{s:s, s:s, s:s, s:i, s:I, s:i, s:i, s:f, s:s, s:f, s:I, s:I, s:I, s:I, s:I, s:s,"
	    " s:s, s:b, s:f, s:f, s:f, s:f, s:I, s:I, s:b, s:b, s:s?, s:s?, s:f}",
	    "file", p->file, "sha256", f->sha256, "mpeg_version", f->version, "layer", f->layer,
	    "sample_rate", (json_int_t)f->rate, "channels", f->channels, "bitrate_kbps",
	    f->bitrate_kbps, "avg_bitrate_kbps", round(f->avg_kbps * 10) / 10, "bitrate_mode",
	    f->mode, "duration_s", round(f->duration_s * 1000) / 1000, "frames",
	    (json_int_t)f->frames, "frames_dropped", (json_int_t)f->frames_dropped, "resyncs",
	    (json_int_t)f->resyncs, "damaged_bytes", (json_int_t)f->damaged_bytes, "rate_changes",
	    (json_int_t)f->rate_changes, "decoder", f->decoder, "device", p->device,
	    "virtual_device", p->h->virtual_dev != 0, "period_ms",
	    round(p->h->period_ms * 1000) / 1000, "buffer_ms", round(p->h->buffer_ms * 1000) / 1000,
	    "asked_period_ms", p->opts.period_ms, "asked_buffer_ms", p->opts.buffer_ms,
	    "period_frames", (json_int_t)p->h->period_frames, "buffer_frames",
	    (json_int_t)p->h->buffer_frames, "rt", p->opts.rt, "mlock", p->opts.mlock,
	    "cgroup_procs", p->opts.join_procs, "cpu_list", p->opts.cpu_list, "t_playing",
	    p->h->t_playing);
	json_object_update_new(o, cause_facts(p));
	/* the preset asked for; asked_period_ms/asked_buffer_ms say whether an option overrode it
	 */
	json_object_set_new(o, "latency", json_string(p->opts.latency));
	/* how lateness and headroom are measured on this device (docs/audio-probe.md, Devices) */
	json_object_set_new(o, "position_method", json_string(p->h->batch ? "batch" : "pointer"));
	/* who takes the periodic readings (docs/audio-probe.md, Causes) */
	json_object_set_new(o, "readings_by", json_string(p->h->watcher ? "watcher" : "player"));
	return o;
}

void vms_probe_free(struct vms_probe *p)
{
	if (!p)
		return;
	if (p->pid > 0 && !p->reaped && !p->stopped)
		vms_probe_stop(p);
	if (p->map)
		munmap(p->map, p->map_len);
	free(p->seen);
	free(p->file);
	free(p->device);
	free((char *)p->opts.join_procs);
	free((char *)p->opts.cpu_list);
	free(p);
}
