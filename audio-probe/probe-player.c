/* The audio probe's player, the child process: joins the measured cgroup and CPU set, maps and
 * decodes the MP3 with libmpg123 and plays it through ALSA non-blocking + poll, writing every
 * wake-up, underrun and its evidence into preallocated memory shared with the parent.
 * Kernel paths: scheduler wake-up latency, page faults, poll/timers, ALSA PCM, PSI, schedstat,
 * taskstats. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "audio-probe/probe-process.h"
#include "audio-probe/probe.h"
#include "core/machine.h"
#include "core/util.h"

/* Decoded audio is staged 16 MPEG frames (0.42 s at 44.1 kHz) at a time: one decode burst
 * every ~20 wake-ups runs with warm caches, at the cost of decoding to nowhere (bench-probe) */
#define STAGE_BYTES (1152 * 4 * 16)
/* The real-time check: after this long playing, a device must not have taken more than
 * REALTIME_MAX times the audio real time would (docs/audio-probe.md, Devices). */
#define REALTIME_CHECK_S 0.5
#define REALTIME_MAX     1.5

struct child {
	const struct vms_probe_opts *o; /* o->file and o->device resolved */
	const struct vms_probe_records *r;
	struct vms_probe_shm_hdr *h;
	snd_pcm_t *pcm;
	struct vms_mp3 mp3;
	unsigned char *stage;
	size_t staged, stage_off; /* bytes */
	int schedstat_fd, psi_mem_fd, psi_io_fd;
	double decode_cpu, audio_s;
	snd_pcm_status_t *status;
	struct pollfd pfds[8];
	int npfds;
	struct vms_probe_snap xrun_from; /* the wake before the pending underrun */
	struct vms_probe_snap prev, cur; /* the last full reading; the reading of this wake-up */
	double expected;                 /* when the next wake-up is due */
	long pending;                    /* the underrun waiting for sound to resume, or -1 */
	int danger;                      /* the last wake-up was late or short of headroom */
	int started;                     /* the device is running */
	int have_delay;                  /* delay accounting readable: delay and tid */
	struct vms_delay delay;
	pid_t tid;
	struct vms_watcher *watch; /* NULL: the player takes its periodic readings itself */
};

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(struct vms_probe_shm_hdr *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fail(struct vms_probe_shm_hdr *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->error, sizeof(h->error), fmt, ap);
	va_end(ap);
	atomic_store(&h->state, ST_FAILED);
	_exit(2);
}

static void take_snap(struct child *c, struct vms_probe_snap *s, int with_psi)
{
	struct rusage ru;
	char buf[128];
	ssize_t n;

	s->t = now_mono();
	getrusage(RUSAGE_THREAD, &ru);
	s->majflt = ru.ru_majflt;
	s->minflt = ru.ru_minflt;
	s->cpu_s = vms_timeval_seconds(&ru.ru_utime) + vms_timeval_seconds(&ru.ru_stime);
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
		s->psi_mem_s = vms_probe_psi_total(c->psi_mem_fd);
		s->psi_io_s = vms_probe_psi_total(c->psi_io_fd);
	}
	s->dl_ok = c->have_delay && !vms_delay_read(&c->delay, c->tid, &s->dl);
}

static void add_tick(struct child *c, double t)
{
	struct vms_probe_shm_hdr *h = c->h;
	size_t n = atomic_load_explicit(&h->n_ticks, memory_order_relaxed);
	struct vms_tick_rec *r;
	struct rusage ru;

	if (n >= TICK_CAP)
		return;
	r = &c->r->ticks[n];
	/* the player's thread; maxrss is the process's */
	getrusage(RUSAGE_THREAD, &ru);
	r->t = t;
	r->cpu_s = vms_timeval_seconds(&ru.ru_utime) + vms_timeval_seconds(&ru.ru_stime);
	r->watch_cpu_s = vms_watcher_cpu_s(c->watch);
	r->decode_cpu_s = c->decode_cpu;
	r->audio_s = c->audio_s;
	r->maxrss_kib = ru.ru_maxrss;
	r->majflt = ru.ru_majflt;
	r->minflt = ru.ru_minflt;
	atomic_store_explicit(&h->n_ticks, n + 1, memory_order_release);
}

static void add_wake(struct child *c, double t, double late_s, double fill_s)
{
	struct vms_probe_shm_hdr *h = c->h;
	size_t n = atomic_load_explicit(&h->n_wakes, memory_order_relaxed);

	if (n >= WAKE_CAP) {
		atomic_fetch_add(&h->wakes_lost, 1);
		return;
	}
	c->r->wakes[n].t = t;
	c->r->wakes[n].late_ms = (float)(late_s > 0 ? late_s * 1000 : 0);
	c->r->wakes[n].fill_ms = (float)(fill_s > 0 ? fill_s * 1000 : 0);
	atomic_store_explicit(&h->n_wakes, n + 1, memory_order_release);
}

/* The growth of everything the probe watches from snapshot a to b, as a gap's evidence. */
static void set_evidence(struct vms_gap_evidence *ev, const struct vms_probe_snap *a,
                         const struct vms_probe_snap *b)
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
static long add_xrun(struct child *c, double dry, double expected,
                     const struct vms_probe_snap *prev, const struct vms_probe_snap *cur,
                     int suspend)
{
	struct vms_probe_shm_hdr *h = c->h;
	size_t n = atomic_load_explicit(&h->n_xruns, memory_order_relaxed);
	struct vms_xrun_rec *x;

	atomic_fetch_add(&h->underruns, 1);
	if (n >= XRUN_CAP) {
		atomic_fetch_add(&h->xruns_lost, 1);
		return -1;
	}
	x = &c->r->xruns[n];
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
	const struct vms_probe_opts *o = c->o;
	struct vms_probe_shm_hdr *h = c->h;

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
	struct vms_probe_shm_hdr *h = c->h;
	const struct vms_probe_opts *o = c->o;
	snd_pcm_uframes_t period, buffer;
	char err[1024];
	int n;

	if (vms_mp3_open(&c->mp3, c->o->file, &h->mp3, err, sizeof(err)))
		fail(h, "%s", err);
	if (h->mp3.damaged_bytes > 0) /* under the limit, else vms_mp3_open() refused it */
		snprintf(h->warning, sizeof(h->warning),
		         "'%s': libmpg123 skipped %ld damaged bytes in %ld places (%.1f %% of its "
		         "audio data; vmsuite refuses more than %.0f %%); the rest plays",
		         c->o->file, h->mp3.damaged_bytes, h->mp3.resyncs,
		         100.0 * (double)h->mp3.damaged_bytes / (double)h->mp3.audio_bytes,
		         VMS_PROBE_MP3_DAMAGE_MAX_PCT);
	else if (h->mp3.frames_dropped > 0)
		snprintf(h->warning, sizeof(h->warning),
		         "'%s': %ld of %ld MPEG frames could not be decoded (corrupt or "
		         "truncated file); libmpg123 resynchronised and the rest plays",
		         c->o->file, h->mp3.frames_dropped, h->mp3.frames_expected);
	else if (h->mp3.rate_changes > 0)
		snprintf(h->warning, sizeof(h->warning),
		         "'%s': the sample rate changes midway (%ld -> %ld Hz in %ld frames); "
		         "libmpg123 resamples those frames to %ld Hz",
		         c->o->file, h->mp3.rate, h->mp3.other_rate, h->mp3.rate_changes,
		         h->mp3.rate);
	c->stage = vms_xmalloc(STAGE_BYTES);
	memset(c->stage, 0, STAGE_BYTES);

	/* one thread: alsa-lib's PCM locking is only a cost here */
	setenv("LIBASOUND_THREAD_SAFE", "0", 1);
	if (vms_pcm_open(&c->pcm, c->o->device, getenv("VMSUITE_VCLOCK_LOG"), err, sizeof(err)))
		fail(h, "%s", err);
	h->rate = (unsigned)h->mp3.rate;
	if (vms_pcm_setup(c->pcm, c->o->device, h->rate, o->period_ms, o->buffer_ms, &period,
	                  &buffer, &h->batch, err, sizeof(err)))
		fail(h, "%s", err);
	h->period_frames = period;
	h->buffer_frames = buffer;
	h->period_ms = (double)period * 1000.0 / h->rate;
	h->buffer_ms = (double)buffer * 1000.0 / h->rate;
	n = snd_pcm_poll_descriptors(c->pcm, c->pfds, VMS_ARRAY_SIZE(c->pfds));
	if (n <= 0)
		fail(h, "ALSA device '%s' has no poll descriptors", c->o->device);
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

/* Brings the device back after it stopped; err is what snd_pcm_avail() or a write returned.
 * An underrun (-EPIPE) or a suspend (-ESTRPIPE) is recorded, its evidence from c->prev to c->cur
 * until sound resumes (c->pending); with resume, a suspended device is counted and resumed
 * first. The device is left prepared for the caller to refill and start. Returns the space for
 * that refill: the whole buffer. */
static snd_pcm_sframes_t recover(struct child *c, long err, int resume)
{
	struct vms_probe_shm_hdr *h = c->h;

	c->danger = 1;
	if (err == -EPIPE || err == -ESTRPIPE)
		c->pending = add_xrun(c, load_d(&h->last_dry), c->expected, &c->prev, &c->cur,
		                      err == -ESTRPIPE);
	if (resume && err == -ESTRPIPE) {
		int tries = 0;

		atomic_fetch_add(&h->suspends, 1);
		while (snd_pcm_resume(c->pcm) == -EAGAIN && tries++ < 20)
			usleep(10000);
	}
	snd_pcm_prepare(c->pcm);
	c->started = 0;
	return (snd_pcm_sframes_t)h->buffer_frames;
}

/* The probe process's setup before playing: signals, stderr, the process's place (cgroup, CPUs,
 * policy, locked memory), the MP3 and the device, and the watcher on the CPUs the probe had
 * before it pinned the player (less the player's when that leaves any). Fails through fail(). */
static void setup(struct child *c, pid_t parent)
{
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
	if (sched_getaffinity(0, sizeof(before), &before) < 0)
		CPU_ZERO(&before);
	prepare_process(c);
	open_all(c);
	if (sched_getaffinity(0, sizeof(player), &player) == 0 && CPU_COUNT(&before) > 0 &&
	    c->schedstat_fd >= 0) {
		cpu_set_t rest;

		CPU_XOR(&rest, &before, &player);
		CPU_AND(&rest, &rest, &before);
		c->watch = vms_watcher_start(c->tid, c->psi_mem_fd, c->psi_io_fd, c->have_delay,
		                             CPU_COUNT(&rest) > 0 ? &rest : &before);
	}
	c->h->watcher = c->watch != NULL;
}

void vms_probe_player_main(const struct vms_probe_opts *o, const struct vms_probe_records *rec,
                           pid_t parent)
{
	struct child c = {.o = o,
	                  .r = rec,
	                  .h = rec->h,
	                  .schedstat_fd = -1,
	                  .psi_mem_fd = -1,
	                  .psi_io_fd = -1,
	                  .pending = -1,
	                  .danger = 1};
	struct vms_probe_shm_hdr *h = rec->h;
	double next_tick, rate;
	double buffer_s, period_s;
	long wakes = 0, every;
	double written = 0; /* frames */
	int verified = 0;

	setup(&c, parent);
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
	take_snap(&c, &c.prev, 1);
	add_tick(&c, c.prev.t);
	next_tick = c.prev.t + 1;
	{
		/* the first fill, then a manual start: the device plays from here on */
		long w = fill(&c, (snd_pcm_sframes_t)h->buffer_frames);
		double t;

		if (w <= 0)
			fail(h, "'%s': nothing could be decoded", o->file);
		if (snd_pcm_start(c.pcm) < 0)
			fail(h, "ALSA device '%s' does not start", o->device);
		t = now_mono();
		store_d(&h->last_dry, t + (double)w / rate);
		c.expected = t + ((double)w / rate - (buffer_s - period_s));
		h->t_playing = t;
		c.started = 1;
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
		full = c.danger || (!c.watch && wakes % every == 0) || avail < 0;
		if (full) {
			take_snap(&c, &c.cur, 1);
		} else {
			c.cur = c.prev; /* the last full reading; only the time is new */
			c.cur.t = t_avail;
		}
		store_d(&h->last_wake, c.cur.t);
		t_fill = c.cur.t;
		if (avail < 0) {
			if (avail == -EPIPE || avail == -ESTRPIPE)
				add_wake(&c, c.cur.t, c.cur.t - c.expected, 0);
			avail = recover(&c, avail, 1);
		} else {
			/* the space read is the device's as of its last position move: on a
			 * batch device its last step (ALSA's status timestamp), on another the
			 * snd_pcm_avail() above. The audio queued now is less by the time since,
			 * and the next period is due a period after that move */
			double t_pos =
			    h->batch ? vms_pcm_position_time(c.pcm, c.cur.t, buffer_s) : t_avail;
			double fill_s =
			    (double)((snd_pcm_sframes_t)h->buffer_frames - avail) / rate -
			    (c.cur.t - t_pos);

			add_wake(&c, c.cur.t, c.cur.t - c.expected, fill_s);
			c.danger = c.cur.t - c.expected >= period_s / 2 ||
			           fill_s < (buffer_s - period_s) / 2;
			t_fill = t_pos;
		}
		w = fill(&c, avail);
		if (w == -EPIPE || w == -ESTRPIPE) {
			/* ran dry between the wake and the write */
			take_snap(&c, &c.cur, 1);
			full = 1;
			avail = recover(&c, w, 0);
			t_fill = c.cur.t;
			w = fill(&c, avail);
		}
		if (w < 0)
			w = 0;
		written += (double)w;
		if (!verified && c.cur.t - h->t_playing >= REALTIME_CHECK_S) {
			/* it has consumed at least what was written minus a full buffer */
			double took = (written - (double)h->buffer_frames) / rate,
			       in = c.cur.t - h->t_playing;

			if (took > REALTIME_MAX * in)
				fail(h,
				     "ALSA device '%s' does not play in real time: it took %.1f s "
				     "of "
				     "audio in %.1f s (%.0f\u00d7); the probe's timing means "
				     "nothing "
				     "there: use a sound card or --device virtual",
				     o->device, took, in, took / in);
			verified = 1;
			atomic_store(&h->state, ST_PLAYING);
		}
		if (!c.started) {
			double t;

			t = now_mono();
			snd_pcm_start(c.pcm);
			if (c.pending >= 0) {
				struct vms_probe_snap rs;

				/* the evidence covers the whole silence: from the wake before it
				 * to the moment sound resumed (published with the resume time) */
				take_snap(&c, &rs, 1);
				set_evidence(&rec->xruns[c.pending].ev, &c.xrun_from, &rs);
				store_d(&rec->xruns[c.pending].resume, trigger_time(&c, t));
			}
			t = now_mono();
			c.pending = -1;
			c.started = 1;
			t_fill = t;
			avail = (snd_pcm_sframes_t)h->buffer_frames - w;
		} else {
			avail -= w;
		}
		{
			double queued =
			    (double)((snd_pcm_sframes_t)h->buffer_frames - avail) / rate;

			store_d(&h->last_dry, t_fill + queued);
			c.expected =
			    t_fill +
			    (queued > buffer_s - period_s ? queued - (buffer_s - period_s) : 0);
		}
		if (c.cur.t >= next_tick) {
			add_tick(&c, c.cur.t);
			next_tick += 1;
			if (next_tick < c.cur.t)
				next_tick = c.cur.t + 1;
		}
		if (full)
			c.prev = c.cur;
		/* a watcher reading taken before this wake-up can start the next gap's evidence */
		if (!c.danger && vms_watcher_newest(c.watch, c.prev.t, &c.cur))
			c.prev = c.cur;
	}
	snd_pcm_drop(c.pcm);
	add_tick(&c, now_mono());
	snd_pcm_close(c.pcm);
	vms_mp3_close(&c.mp3);
	atomic_store(&h->state, ST_STOPPED);
	_exit(0);
}
