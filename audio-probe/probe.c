/* The audio probe process: forked, joins the measured cgroup and CPU set, maps and decodes
 * the MP3 with libmpg123 and plays it through ALSA non-blocking + poll, writing every wake-up,
 * underrun and its evidence into preallocated memory shared with the parent. A second thread,
 * the watcher, takes the periodic readings of the player from a CPU other than the player's
 * when there is one, so that measuring costs the player's CPU nothing while all is well.
 * Kernel paths: scheduler wake-up latency, page faults, poll/timers, ALSA PCM, PSI,
 * schedstat, taskstats. */
#include "audio-probe/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "audio-probe/probe-internal.h"
#include "core/machine.h"
#include "core/util.h"

#define WAKE_CAP (1u << 21) /* 14.5 h of 25 ms periods */
#define XRUN_CAP (1u << 16)
#define TICK_CAP (1u << 18) /* 72 h of once-a-second ticks */
/* Decoded audio is staged 16 MPEG frames (0.42 s at 44.1 kHz) at a time: one decode burst
 * every ~20 wake-ups runs with warm caches, at the cost of decoding to nowhere (bench-probe) */
#define STAGE_BYTES     (1152 * 4 * 16)
#define START_TIMEOUT_S 60.0
/* The real-time check: after this long playing, a device must not have taken more than
 * REALTIME_MAX times the audio real time would (docs/audio-probe.md, Devices). */
#define REALTIME_CHECK_S 0.5
/* How often the full reading is taken while all is well (docs/audio-probe.md, Causes): how far
 * before a gap its evidence starts. The watcher thread takes it; the player only without one. */
#define FULL_READING_S 0.25
#define REALTIME_MAX   1.5

enum { ST_STARTING, ST_PLAYING, ST_FAILED, ST_STOPPED };

/* What the parent saw of the probe process at a moment (struct seen). */
enum { SEEN_PLAYING, SEEN_STOPPED, SEEN_DEAD };

struct seen {
	double t;
	int what;
};

struct shm_hdr {
	_Atomic int state;
	_Atomic int stop;
	char error[1024];
	char warning[1024];
	struct vms_mp3_facts mp3;
	char file[PATH_MAX];
	char device[128];
	int virtual_dev;
	unsigned rate;
	unsigned long period_frames, buffer_frames;
	double period_ms, buffer_ms;
	double t_playing;
	_Atomic size_t n_wakes, n_xruns, n_ticks;
	_Atomic unsigned long wakes_lost, xruns_lost, poll_timeouts, suspends;
	_Atomic long underruns;
	double last_dry, last_wake; /* written with __atomic_store */
	int batch;                  /* the device's position moves once per period */
	int watcher;                /* a watcher thread takes the periodic readings */
	unsigned cause_method;      /* VMS_CAUSE_BY_DELAYACCT or _INFERENCE */
	char cause_note[256];       /* why not delayacct */
	int taskstats_version;
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
	struct shm_hdr *h;
	struct vms_wake_rec *wakes;
	struct vms_xrun_rec *xruns;
	struct vms_tick_rec *ticks;
};

static void store_d(double *p, double v)
{
	__atomic_store(p, &v, __ATOMIC_RELEASE);
}

static double load_d(double *p)
{
	double v;

	__atomic_load(p, &v, __ATOMIC_ACQUIRE);
	return v;
}

static size_t page_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (n + pg - 1) / pg * pg;
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---------------------------------------------------------------- the probe process */

/* A full reading of the player: taken by itself (take_snap) or by the watcher (watch_snap),
 * from the same counters. */
struct snap {
	double t;
	long majflt, minflt;
	double cpu_s; /* on-CPU time (schedstat), else user+system (rusage) */
	double runq_s;
	double psi_mem_s, psi_io_s;
	int dl_ok; /* dl holds the delay totals */
	struct vms_delays dl;
};

struct child {
	struct vms_probe *p;
	struct shm_hdr *h;
	snd_pcm_t *pcm;
	struct vms_mp3 mp3;
	unsigned char *stage;
	size_t staged, stage_off; /* bytes */
	int schedstat_fd, psi_mem_fd, psi_io_fd;
	double decode_cpu, audio_s;
	snd_pcm_status_t *status;
	struct pollfd pfds[8];
	int npfds;
	struct snap xrun_from; /* the wake before the pending underrun */
	int have_delay;        /* delay accounting readable: delay and tid */
	struct vms_delay delay;
	pid_t tid;
	struct watcher *watch; /* NULL: the player takes its periodic readings itself */
};

/* The watcher thread: every FULL_READING_S it reads the player's counters from outside
 * (/proc/self/task/TID/stat and schedstat, PSI, taskstats for TID) into `last`. */
struct watcher {
	pthread_t thread;
	clockid_t cpu_clock; /* its own CPU time */
	pthread_mutex_t lock;
	struct snap last; /* the newest reading; last.t = 0 before the first */
	int stat_fd, schedstat_fd, psi_mem_fd, psi_io_fd;
	int have_delay;
	struct vms_delay delay;
	pid_t tid; /* the player's */
};

static void fail(struct shm_hdr *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct shm_hdr *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->error, sizeof(h->error), fmt, ap);
	va_end(ap);
	atomic_store(&h->state, ST_FAILED);
	_exit(2);
}

static double psi_total(int fd)
{
	char buf[256];
	const char *end;
	uint64_t v;
	ssize_t n;
	char *t;

	if (fd < 0)
		return 0;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	t = strstr(buf, "total=");
	return t && !vms_parse_u64(t + 6, &end, &v) ? (double)v / 1e6 : 0;
}

static void take_snap(struct child *c, struct snap *s, int with_psi)
{
	struct rusage ru;
	char buf[128];
	ssize_t n;

	s->t = now_mono();
	getrusage(RUSAGE_THREAD, &ru);
	s->majflt = ru.ru_majflt;
	s->minflt = ru.ru_minflt;
	s->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	s->runq_s = 0;
	if (c->schedstat_fd >= 0) {
		n = pread(c->schedstat_fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			const char *end;
			uint64_t cpu_ns, wait_ns;

			buf[n] = '\0';
			/* "<on-CPU ns> <runqueue wait ns> <timeslices>" */
			if (!vms_parse_u64(buf, &end, &cpu_ns) &&
			    !vms_parse_u64(end, &end, &wait_ns)) {
				s->cpu_s = (double)cpu_ns / 1e9;
				s->runq_s = (double)wait_ns / 1e9;
			}
		}
	}
	if (with_psi) {
		s->psi_mem_s = psi_total(c->psi_mem_fd);
		s->psi_io_s = psi_total(c->psi_io_fd);
	}
	s->dl_ok = c->have_delay && !vms_delay_read(&c->delay, c->tid, &s->dl);
}

/* Minor and major faults from a /proc/.../stat line; 0 when it does not parse. */
static int parse_stat_faults(const char *buf, long *minflt, long *majflt)
{
	const char *p = strrchr(buf, ')'); /* the command name may hold spaces and ')' */
	long v[10];
	int i;

	if (!p)
		return -1;
	p++;
	/* state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt */
	for (i = 0; i < 10; i++) {
		char *end;

		while (*p == ' ')
			p++;
		if (i == 0) { /* the state letter */
			if (!*p)
				return -1;
			p++;
			v[0] = 0;
			continue;
		}
		v[i] = strtol(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
	}
	*minflt = v[7];
	*majflt = v[9];
	return 0;
}

/* The watcher's full reading of the player: the counters take_snap() reads, from outside. */
static void watch_snap(struct watcher *w, struct snap *s)
{
	char buf[1024];
	const char *end;
	uint64_t cpu_ns, wait_ns;
	ssize_t n;

	memset(s, 0, sizeof(*s));
	s->t = now_mono();
	n = pread(w->stat_fd, buf, sizeof(buf) - 1, 0);
	if (n > 0) {
		buf[n] = '\0';
		parse_stat_faults(buf, &s->minflt, &s->majflt);
	}
	n = pread(w->schedstat_fd, buf, sizeof(buf) - 1, 0);
	if (n > 0) {
		buf[n] = '\0';
		if (!vms_parse_u64(buf, &end, &cpu_ns) && !vms_parse_u64(end, &end, &wait_ns)) {
			s->cpu_s = (double)cpu_ns / 1e9;
			s->runq_s = (double)wait_ns / 1e9;
		}
	}
	s->psi_mem_s = psi_total(w->psi_mem_fd);
	s->psi_io_s = psi_total(w->psi_io_fd);
	s->dl_ok = w->have_delay && !vms_delay_read(&w->delay, w->tid, &s->dl);
}

static void *watch_main(void *arg)
{
	struct watcher *w = arg;
	struct timespec next;
	long step = (long)(FULL_READING_S * 1e9);

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		struct snap s;

		next.tv_nsec += step;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		watch_snap(w, &s);
		pthread_mutex_lock(&w->lock);
		w->last = s;
		pthread_mutex_unlock(&w->lock);
	}
	return NULL;
}

/* The watcher's newest reading into s when there is one newer than after; never waits. */
static int watch_newest(struct watcher *w, double after, struct snap *s)
{
	int got = 0;

	if (!w || pthread_mutex_trylock(&w->lock))
		return 0;
	if (w->last.t > after) {
		*s = w->last;
		got = 1;
	}
	pthread_mutex_unlock(&w->lock);
	return got;
}

/* Starts the watcher on `cpus` (the CPUs the probe had before it pinned the player, less the
 * player's when that leaves any), at normal priority whatever the player's. NULL when it
 * cannot read what the player reads itself: the player then takes its periodic readings. */
static struct watcher *watch_start(struct child *c, const cpu_set_t *cpus)
{
	struct watcher *w = vms_xcalloc(1, sizeof(*w));
	char path[64], why[256];
	struct sched_param sp = {.sched_priority = 0};
	pthread_attr_t attr;
	int ok;

	w->tid = c->tid;
	snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", (long)w->tid);
	w->stat_fd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/self/task/%ld/schedstat", (long)w->tid);
	w->schedstat_fd = open(path, O_RDONLY | O_CLOEXEC);
	w->psi_mem_fd = c->psi_mem_fd; /* pread: no shared file position */
	w->psi_io_fd = c->psi_io_fd;
	w->have_delay = c->have_delay && vms_delay_open(&w->delay, why, sizeof(why)) == 0;
	pthread_mutex_init(&w->lock, NULL);
	ok = w->stat_fd >= 0 && w->schedstat_fd >= 0 && c->schedstat_fd >= 0 &&
	     w->have_delay == c->have_delay && !pthread_attr_init(&attr);
	if (ok) {
		pthread_attr_setaffinity_np(&attr, sizeof(*cpus), cpus);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
		pthread_attr_setschedparam(&attr, &sp);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		ok = !pthread_create(&w->thread, &attr, watch_main, w);
		pthread_attr_destroy(&attr);
	}
	if (ok)
		pthread_setname_np(w->thread, "vmsuite-watch"); /* for ps and the tests */
	if (ok && pthread_getcpuclockid(w->thread, &w->cpu_clock))
		w->cpu_clock = (clockid_t)-1;
	if (ok)
		return w;
	if (w->stat_fd >= 0)
		close(w->stat_fd);
	if (w->schedstat_fd >= 0)
		close(w->schedstat_fd);
	if (w->have_delay)
		vms_delay_close(&w->delay);
	pthread_mutex_destroy(&w->lock);
	free(w);
	return NULL;
}

static void add_tick(struct child *c, double t)
{
	struct shm_hdr *h = c->h;
	size_t n = atomic_load_explicit(&h->n_ticks, memory_order_relaxed);
	struct vms_tick_rec *r;
	struct rusage ru;

	if (n >= TICK_CAP)
		return;
	r = &c->p->ticks[n];
	/* the player's thread; maxrss is the process's */
	getrusage(RUSAGE_THREAD, &ru);
	r->t = t;
	r->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	r->watch_cpu_s = -1;
	if (c->watch && c->watch->cpu_clock != (clockid_t)-1) {
		struct timespec ts;

		if (!clock_gettime(c->watch->cpu_clock, &ts))
			r->watch_cpu_s = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	}
	r->decode_cpu_s = c->decode_cpu;
	r->audio_s = c->audio_s;
	r->maxrss_kib = ru.ru_maxrss;
	r->majflt = ru.ru_majflt;
	r->minflt = ru.ru_minflt;
	atomic_store_explicit(&h->n_ticks, n + 1, memory_order_release);
}

static void add_wake(struct child *c, double t, double late_s, double fill_s)
{
	struct shm_hdr *h = c->h;
	size_t n = atomic_load_explicit(&h->n_wakes, memory_order_relaxed);

	if (n >= WAKE_CAP) {
		atomic_fetch_add(&h->wakes_lost, 1);
		return;
	}
	c->p->wakes[n].t = t;
	c->p->wakes[n].late_ms = (float)(late_s > 0 ? late_s * 1000 : 0);
	c->p->wakes[n].fill_ms = (float)(fill_s > 0 ? fill_s * 1000 : 0);
	atomic_store_explicit(&h->n_wakes, n + 1, memory_order_release);
}

/* The growth of everything the probe watches from snapshot a to b, as a gap's evidence. */
static void set_evidence(struct vms_gap_evidence *ev, const struct snap *a, const struct snap *b)
{
	ev->interval_ms = (b->t - a->t) * 1000;
	ev->majflt = b->majflt - a->majflt;
	ev->minflt = b->minflt - a->minflt;
	ev->runq_ms = (b->runq_s - a->runq_s) * 1000;
	ev->cpu_ms = (b->cpu_s - a->cpu_s) * 1000;
	ev->psi_mem_ms = (b->psi_mem_s - a->psi_mem_s) * 1000;
	ev->psi_io_ms = (b->psi_io_s - a->psi_io_s) * 1000;
	ev->delayacct = a->dl_ok && b->dl_ok;
	if (ev->delayacct) {
		ev->io_ms = (b->dl.io_s - a->dl.io_s) * 1000;
		ev->swapin_ms = (b->dl.swapin_s - a->dl.swapin_s) * 1000;
		ev->reclaim_ms = (b->dl.reclaim_s - a->dl.reclaim_s) * 1000;
		ev->thrashing_ms = (b->dl.thrashing_s - a->dl.thrashing_s) * 1000;
		ev->compaction_ms = (b->dl.compaction_s - a->dl.compaction_s) * 1000;
	}
}

/* Records an underrun seen at `now`; returns its index or -1. */
static long add_xrun(struct child *c, double dry, double expected, const struct snap *prev,
                     const struct snap *cur, int suspend)
{
	struct shm_hdr *h = c->h;
	size_t n = atomic_load_explicit(&h->n_xruns, memory_order_relaxed);
	struct vms_xrun_rec *x;

	atomic_fetch_add(&h->underruns, 1);
	if (n >= XRUN_CAP) {
		atomic_fetch_add(&h->xruns_lost, 1);
		return -1;
	}
	x = &c->p->xruns[n];
	c->xrun_from = *prev;
	x->dry = dry < cur->t ? dry : cur->t;
	x->detected = cur->t;
	x->resume = 0;
	x->suspend = suspend;
	x->ev.late_ms = (cur->t - expected) * 1000;
	set_evidence(&x->ev, prev, cur);
	atomic_store_explicit(&h->n_xruns, n + 1, memory_order_release);
	return (long)n;
}

/* Writes decoded audio into avail free frames, in whole periods (vms_pcm_write_size). Returns
 * frames written or -errno. */
static long fill(struct child *c, snd_pcm_sframes_t avail)
{
	long total = 0;

	avail = vms_pcm_write_size(avail, c->h->period_frames);
	while (avail > 0) {
		snd_pcm_sframes_t n, w;

		if (c->staged == 0) {
			double t = thread_cpu();
			long got = vms_mp3_read(&c->mp3, c->stage, STAGE_BYTES);

			c->decode_cpu += thread_cpu() - t;
			if (got <= 0)
				return total ? total : -EIO;
			c->staged = (size_t)got;
			c->stage_off = 0;
			c->audio_s += (double)got / 4.0 / c->h->rate;
		}
		n = (snd_pcm_sframes_t)(c->staged / 4);
		if (n > avail)
			n = avail;
		w = snd_pcm_writei(c->pcm, c->stage + c->stage_off, (snd_pcm_uframes_t)n);
		if (w == -EAGAIN)
			break;
		if (w < 0)
			return w;
		c->stage_off += (size_t)w * 4;
		c->staged -= (size_t)w * 4;
		avail -= w;
		total += w;
	}
	return total;
}

/* When the device started (ALSA's MONOTONIC trigger timestamp), else `fallback`. */
static double trigger_time(struct child *c, double fallback)
{
	snd_htimestamp_t ts;
	double t;

	if (snd_pcm_status(c->pcm, c->status) < 0)
		return fallback;
	snd_pcm_status_get_trigger_htstamp(c->status, &ts);
	t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return t >= fallback && t < fallback + 10 ? t : fallback;
}

static void prepare_process(struct child *c)
{
	const struct vms_probe_opts *o = &c->p->opts;
	struct shm_hdr *h = c->h;

	if (o->join_procs) {
		char pid[32];
		int ret;

		snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		ret = vms_write_text(o->join_procs, pid);
		if (ret)
			fail(h, "audio probe: cannot join the cgroup via '%s': %s", o->join_procs,
			     strerror(-ret));
	}
	if (o->cpu_list) {
		cpu_set_t set;

		if (vms_cpu_list_parse(o->cpu_list, &set))
			fail(h, "audio probe: bad CPU list '%s'", o->cpu_list);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			fail(h, "audio probe: cannot pin to CPUs '%s': %s", o->cpu_list,
			     strerror(errno));
	}
	if (o->rt) {
		struct sched_param sp = {.sched_priority = 50};

		if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
			fail(h, "audio probe: --rt: cannot use SCHED_FIFO: %s%s", strerror(errno),
			     errno == EPERM ? " (needs root or CAP_SYS_NICE)" : "");
	}
	if (o->mlock && mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) < 0)
		fail(h, "audio probe: --mlock: mlockall failed: %s%s", strerror(errno),
		     errno == EPERM || errno == ENOMEM ? " (needs root or a higher RLIMIT_MEMLOCK)"
		                                       : "");
}

static void open_all(struct child *c)
{
	struct shm_hdr *h = c->h;
	const struct vms_probe_opts *o = &c->p->opts;
	snd_pcm_uframes_t period, buffer;
	char err[1024];
	int n;

	if (vms_mp3_open(&c->mp3, c->p->file, &h->mp3, err, sizeof(err)))
		fail(h, "%s", err);
	if (h->mp3.damaged_bytes > 0) /* under the limit, else vms_mp3_open() refused it */
		snprintf(h->warning, sizeof(h->warning),
		         "'%s': libmpg123 skipped %ld damaged bytes in %ld places (%.1f %% of its "
		         "audio data; vmsuite refuses more than %.0f %%); the rest plays",
		         c->p->file, h->mp3.damaged_bytes, h->mp3.resyncs,
		         100.0 * (double)h->mp3.damaged_bytes / (double)h->mp3.audio_bytes,
		         VMS_PROBE_MP3_DAMAGE_MAX_PCT);
	else if (h->mp3.frames_dropped > 0)
		snprintf(h->warning, sizeof(h->warning),
		         "'%s': %ld of %ld MPEG frames could not be decoded (corrupt or "
		         "truncated file); libmpg123 resynchronised and the rest plays",
		         c->p->file, h->mp3.frames_dropped, h->mp3.frames_expected);
	else if (h->mp3.rate_changes > 0)
		snprintf(h->warning, sizeof(h->warning),
		         "'%s': the sample rate changes midway (%ld -> %ld Hz in %ld frames); "
		         "libmpg123 resamples those frames to %ld Hz",
		         c->p->file, h->mp3.rate, h->mp3.other_rate, h->mp3.rate_changes,
		         h->mp3.rate);
	c->stage = vms_xmalloc(STAGE_BYTES);
	memset(c->stage, 0, STAGE_BYTES);

	/* one thread: alsa-lib's PCM locking is only a cost here */
	setenv("LIBASOUND_THREAD_SAFE", "0", 1);
	if (vms_pcm_open(&c->pcm, c->p->device, getenv("VMSUITE_VCLOCK_LOG"), err, sizeof(err)))
		fail(h, "%s", err);
	h->rate = (unsigned)h->mp3.rate;
	if (vms_pcm_setup(c->pcm, c->p->device, h->rate, o->period_ms, o->buffer_ms, &period,
	                  &buffer, &h->batch, err, sizeof(err)))
		fail(h, "%s", err);
	h->period_frames = period;
	h->buffer_frames = buffer;
	h->period_ms = (double)period * 1000.0 / h->rate;
	h->buffer_ms = (double)buffer * 1000.0 / h->rate;
	n = snd_pcm_poll_descriptors(c->pcm, c->pfds, VMS_ARRAY_SIZE(c->pfds));
	if (n <= 0)
		fail(h, "ALSA device '%s' has no poll descriptors", c->p->device);
	c->npfds = n;
	if (snd_pcm_status_malloc(&c->status) < 0)
		fail(h, "out of memory");
	c->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	c->psi_mem_fd = open("/proc/pressure/memory", O_RDONLY | O_CLOEXEC);
	c->psi_io_fd = open("/proc/pressure/io", O_RDONLY | O_CLOEXEC);
	/* the causes from the player's own delay accounting, else inferred (docs/audio-probe.md) */
	c->tid = getpid(); /* the probe is one thread */
	if (vms_delay_open(&c->delay, h->cause_note, sizeof(h->cause_note)) == 0) {
		c->have_delay = 1;
		h->cause_method = VMS_CAUSE_BY_DELAYACCT;
		h->taskstats_version = c->delay.version;
	} else {
		h->cause_method = VMS_CAUSE_BY_INFERENCE;
	}
}

static void child_main(struct vms_probe *p, pid_t parent) __attribute__((noreturn));
static void child_main(struct vms_probe *p, pid_t parent)
{
	struct child c = {.p = p, .h = p->h, .schedstat_fd = -1, .psi_mem_fd = -1, .psi_io_fd = -1};
	struct shm_hdr *h = p->h;
	struct snap prev, cur;
	double expected = 0, next_tick, rate;
	double buffer_s, period_s;
	long pending = -1, wakes = 0, every;
	int danger = 1;     /* the last wake-up was late or short of headroom */
	double written = 0; /* frames */
	int started = 0, verified = 0;
	cpu_set_t before, player;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, "vmsuite-probe"); /* so that ps, pgrep and the tests can find it */
	if (getppid() != parent)
		_exit(3);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	{
		/* errors go through shared memory; libmpg123 prints some even when quiet */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, STDERR_FILENO);
			close(null);
		}
	}
	/* the watcher runs where the probe was allowed before it pinned the player */
	if (sched_getaffinity(0, sizeof(before), &before) < 0)
		CPU_ZERO(&before);
	prepare_process(&c);
	open_all(&c);
	if (sched_getaffinity(0, sizeof(player), &player) == 0 && CPU_COUNT(&before) > 0) {
		cpu_set_t rest;

		CPU_XOR(&rest, &before, &player);
		CPU_AND(&rest, &rest, &before);
		c.watch = watch_start(&c, CPU_COUNT(&rest) > 0 ? &rest : &before);
	}
	h->watcher = c.watch != NULL;
	rate = h->rate;
	buffer_s = (double)h->buffer_frames / rate;
	period_s = (double)h->period_frames / rate;

	/* The full reading (faults, CPU, run-queue wait, PSI, delay totals: five system calls and
	 * a netlink round trip) is taken about every FULL_READING_S by the watcher thread (by the
	 * player itself when there is none), and by the player at every wake-up in danger (late by
	 * half a period or more, or with less than half its usual headroom) and at every underrun
	 * and resume; the other wake-ups only read the clock. A gap's evidence starts at the last
	 * full reading before the wake-up that preceded it. */
	every = (long)(FULL_READING_S / period_s + 0.5);
	if (every < 1)
		every = 1;
	take_snap(&c, &prev, 1);
	add_tick(&c, prev.t);
	next_tick = prev.t + 1;
	{
		/* the first fill, then a manual start: the device plays from here on */
		long w = fill(&c, (snd_pcm_sframes_t)h->buffer_frames);
		double t;

		if (w <= 0)
			fail(h, "'%s': nothing could be decoded", p->file);
		if (snd_pcm_start(c.pcm) < 0)
			fail(h, "ALSA device '%s' does not start", p->device);
		t = now_mono();
		store_d(&h->last_dry, t + (double)w / rate);
		expected = t + ((double)w / rate - (buffer_s - period_s));
		h->t_playing = t;
		started = 1;
		written = (double)w;
		/* ST_PLAYING once the device proved to play in real time (in the loop) */
	}

	while (!atomic_load_explicit(&h->stop, memory_order_acquire)) {
		snd_pcm_sframes_t avail;
		unsigned short revents = 0;
		double t_fill, t_avail;
		int r, full;
		long w;

		if ((++wakes & 63) == 0 && getppid() != parent)
			break;
		r = poll(c.pfds, (nfds_t)c.npfds, (int)(buffer_s * 4000) + 200);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			atomic_fetch_add(&h->poll_timeouts, 1);
		else if (r > 0)
			snd_pcm_poll_descriptors_revents(c.pcm, c.pfds, (unsigned)c.npfds,
			                                 &revents);
		avail = snd_pcm_avail(c.pcm);
		t_avail = now_mono();
		full = danger || (!c.watch && wakes % every == 0) || avail < 0;
		if (full) {
			take_snap(&c, &cur, 1);
		} else {
			cur = prev; /* the last full reading; only the time is new */
			cur.t = t_avail;
		}
		store_d(&h->last_wake, cur.t);
		t_fill = cur.t;
		if (avail == -EPIPE || avail == -ESTRPIPE) {
			int suspend = avail == -ESTRPIPE;

			pending =
			    add_xrun(&c, load_d(&h->last_dry), expected, &prev, &cur, suspend);
			add_wake(&c, cur.t, cur.t - expected, 0);
			danger = 1;
			if (suspend) {
				int tries = 0;

				atomic_fetch_add(&h->suspends, 1);
				while (snd_pcm_resume(c.pcm) == -EAGAIN && tries++ < 20)
					usleep(10000);
			}
			snd_pcm_prepare(c.pcm);
			started = 0;
			avail = (snd_pcm_sframes_t)h->buffer_frames;
		} else if (avail < 0) {
			danger = 1;
			snd_pcm_prepare(c.pcm);
			started = 0;
			avail = (snd_pcm_sframes_t)h->buffer_frames;
		} else {
			/* the space read is the device's as of its last position move: on a
			 * batch device its last step (ALSA's status timestamp), on another the
			 * snd_pcm_avail() above. The audio queued now is less by the time since,
			 * and the next period is due a period after that move */
			double t_pos =
			    h->batch ? vms_pcm_position_time(c.pcm, cur.t, buffer_s) : t_avail;
			double fill_s =
			    (double)((snd_pcm_sframes_t)h->buffer_frames - avail) / rate -
			    (cur.t - t_pos);

			add_wake(&c, cur.t, cur.t - expected, fill_s);
			danger =
			    cur.t - expected >= period_s / 2 || fill_s < (buffer_s - period_s) / 2;
			t_fill = t_pos;
		}
		w = fill(&c, avail);
		if (w == -EPIPE || w == -ESTRPIPE) {
			/* ran dry between the wake and the write */
			take_snap(&c, &cur, 1);
			full = danger = 1;
			pending = add_xrun(&c, load_d(&h->last_dry), expected, &prev, &cur,
			                   w == -ESTRPIPE);
			snd_pcm_prepare(c.pcm);
			started = 0;
			avail = (snd_pcm_sframes_t)h->buffer_frames;
			t_fill = cur.t;
			w = fill(&c, avail);
		}
		if (w < 0)
			w = 0;
		written += (double)w;
		if (!verified && cur.t - h->t_playing >= REALTIME_CHECK_S) {
			/* it has consumed at least what was written minus a full buffer */
			double took = (written - (double)h->buffer_frames) / rate,
			       in = cur.t - h->t_playing;

			if (took > REALTIME_MAX * in)
				fail(h,
				     "ALSA device '%s' does not play in real time: it took %.1f s "
				     "of "
				     "audio in %.1f s (%.0f\u00d7); the probe's timing means "
				     "nothing "
				     "there: use a sound card or --device virtual",
				     p->device, took, in, took / in);
			verified = 1;
			atomic_store(&h->state, ST_PLAYING);
		}
		if (!started) {
			double t;

			t = now_mono();
			snd_pcm_start(c.pcm);
			if (pending >= 0) {
				struct snap rs;

				/* the evidence covers the whole silence: from the wake before it
				 * to the moment sound resumed (published with the resume time) */
				take_snap(&c, &rs, 1);
				set_evidence(&p->xruns[pending].ev, &c.xrun_from, &rs);
				store_d(&p->xruns[pending].resume, trigger_time(&c, t));
			}
			t = now_mono();
			pending = -1;
			started = 1;
			t_fill = t;
			avail = (snd_pcm_sframes_t)h->buffer_frames - w;
		} else {
			avail -= w;
		}
		{
			double queued =
			    (double)((snd_pcm_sframes_t)h->buffer_frames - avail) / rate;

			store_d(&h->last_dry, t_fill + queued);
			expected =
			    t_fill +
			    (queued > buffer_s - period_s ? queued - (buffer_s - period_s) : 0);
		}
		if (cur.t >= next_tick) {
			add_tick(&c, cur.t);
			next_tick += 1;
			if (next_tick < cur.t)
				next_tick = cur.t + 1;
		}
		if (full)
			prev = cur;
		/* a watcher reading taken before this wake-up can start the next gap's evidence */
		if (!danger && watch_newest(c.watch, prev.t, &cur))
			prev = cur;
	}
	snd_pcm_drop(c.pcm);
	add_tick(&c, now_mono());
	snd_pcm_close(c.pcm);
	vms_mp3_close(&c.mp3);
	atomic_store(&h->state, ST_STOPPED);
	_exit(0);
}

/* ---------------------------------------------------------------- the parent's side */

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

	hdr = page_round(sizeof(struct shm_hdr));
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
	if (p->pid == 0)
		child_main(p, parent);

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
