/* The virtual clock device: an alsa-lib ioplug PCM that consumes frames in real time by
 * CLOCK_MONOTONIC, uses a periodic timerfd as its period interrupt and poll descriptor, and
 * reports an underrun (-EPIPE) when everything written has been played. Kernel paths:
 * timerfd (hrtimer), poll, clock_gettime. Optional `log "/path"` records each underrun (and
 * suspend); optional `suspend_at_ms N` suspends the stream once, N ms after it first started,
 * as a system suspend would (the next write fails with -ESTRPIPE; resume or prepare recovers).
 * Pause stops the clock and its timer; release plays on from the frame where it stopped. */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

struct vclock {
	snd_pcm_ioplug_t io;
	int tfd;
	int log_fd;
	uint64_t written;  /* frames given to us since prepare */
	uint64_t consumed; /* frames played since prepare */
	uint64_t base;     /* frames played before the last start (since prepare or resume) */
	uint64_t boundary; /* the wrap point of the pointer (BOUNDARY_WA) */
	uint64_t period_ns;
	struct timespec t_start;
	double dry_at; /* monotonic seconds the ring ran dry; 0 = none pending */
	unsigned long underruns;
	long suspend_at_ms;  /* suspend this long after the first start; < 0 = never */
	double t_first;      /* monotonic seconds of the first start; 0 = not started yet */
	double suspended_at; /* monotonic seconds of the suspend; 0 = none pending */
	unsigned long suspends;
};

static double ts_sec(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

static void log_underrun(struct vclock *vc, double resume)
{
	char line[160];
	int n;

	if (vc->log_fd < 0)
		return;
	if (resume > 0)
		n = snprintf(line, sizeof(line), "underrun %lu dry %.6f resume %.6f gap_ms %.3f\n",
		             vc->underruns, vc->dry_at, resume, (resume - vc->dry_at) * 1e3);
	else
		n = snprintf(line, sizeof(line), "underrun %lu dry %.6f resume - gap_ms -\n",
		             vc->underruns, vc->dry_at);
	if (n > 0 && write(vc->log_fd, line, (size_t)n) < 0)
		return;
}

static void log_suspend(struct vclock *vc, double resume)
{
	char line[160];
	int n;

	if (vc->log_fd < 0)
		return;
	if (resume > 0)
		n = snprintf(line, sizeof(line), "suspend %lu at %.6f resume %.6f gap_ms %.3f\n",
		             vc->suspends, vc->suspended_at, resume,
		             (resume - vc->suspended_at) * 1e3);
	else
		n = snprintf(line, sizeof(line), "suspend %lu at %.6f resume - gap_ms -\n",
		             vc->suspends, vc->suspended_at);
	if (n > 0 && write(vc->log_fd, line, (size_t)n) < 0)
		return;
}

static int arm(struct vclock *vc, const struct timespec *first, int abs)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	its.it_interval.tv_sec = (time_t)(vc->period_ns / 1000000000u);
	its.it_interval.tv_nsec = (long)(vc->period_ns % 1000000000u);
	if (first)
		its.it_value = *first;
	return timerfd_settime(vc->tfd, abs ? TFD_TIMER_ABSTIME : 0, &its, NULL) < 0 ? -errno : 0;
}

static int vclock_start(snd_pcm_ioplug_t *io)
{
	struct vclock *vc = io->private_data;
	struct timespec first;
	uint64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &vc->t_start);
	if (vc->t_first <= 0)
		vc->t_first = ts_sec(&vc->t_start);
	if (vc->dry_at > 0) {
		log_underrun(vc, ts_sec(&vc->t_start));
		vc->dry_at = 0;
	}
	if (vc->suspended_at > 0) {
		log_suspend(vc, ts_sec(&vc->t_start));
		vc->suspended_at = 0;
	}
	ns = (uint64_t)vc->t_start.tv_nsec + vc->period_ns;
	first.tv_sec = vc->t_start.tv_sec + (time_t)(ns / 1000000000u);
	first.tv_nsec = (long)(ns % 1000000000u);
	return arm(vc, &first, 1);
}

static int vclock_stop(snd_pcm_ioplug_t *io)
{
	struct vclock *vc = io->private_data;

	return arm(vc, NULL, 0);
}

static snd_pcm_sframes_t vclock_pointer(snd_pcm_ioplug_t *io)
{
	struct vclock *vc = io->private_data;

	if (io->state == SND_PCM_STATE_XRUN)
		return -EPIPE;
	if (io->state == SND_PCM_STATE_RUNNING || io->state == SND_PCM_STATE_DRAINING) {
		struct timespec now;
		double elapsed;
		uint64_t frames;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (io->state == SND_PCM_STATE_RUNNING && vc->suspend_at_ms >= 0 &&
		    (ts_sec(&now) - vc->t_first) * 1e3 >= (double)vc->suspend_at_ms) {
			/* a system suspend: the device stops and loses what it held. A negative
			 * pointer would read as an xrun (-EPIPE) to ioplug, so the state says it,
			 * and alsa-lib's state check fails the next write with -ESTRPIPE */
			vc->suspend_at_ms = -1;
			vc->suspends++;
			vc->suspended_at = ts_sec(&now);
			vc->consumed = vc->written;
			snd_pcm_ioplug_set_state(io, SND_PCM_STATE_SUSPENDED);
			return (snd_pcm_sframes_t)(vc->consumed % vc->boundary);
		}
		elapsed = ts_sec(&now) - ts_sec(&vc->t_start);
		frames = vc->base + (elapsed > 0 ? (uint64_t)(elapsed * io->rate) : 0);
		if (frames >= vc->written) {
			vc->consumed = vc->written;
			if (io->state == SND_PCM_STATE_RUNNING) {
				vc->dry_at = ts_sec(&vc->t_start) +
				             (double)(vc->written - vc->base) / io->rate;
				vc->underruns++;
				snd_pcm_ioplug_set_state(io, SND_PCM_STATE_XRUN);
				return -EPIPE;
			}
		} else {
			vc->consumed = frames;
		}
	}
	return (snd_pcm_sframes_t)(vc->consumed % vc->boundary);
}

static snd_pcm_sframes_t vclock_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                         snd_pcm_uframes_t offset, snd_pcm_uframes_t size)
{
	struct vclock *vc = io->private_data;

	(void)areas;
	(void)offset;
	vc->written += size;
	return (snd_pcm_sframes_t)size;
}

static int vclock_prepare(snd_pcm_ioplug_t *io)
{
	struct vclock *vc = io->private_data;
	struct timespec soon = {0, 1000};

	vc->written = 0;
	vc->consumed = 0;
	vc->base = 0;
	return arm(vc, &soon, 0);
}

/* Back from a suspend: prepared again (not running), playing on from where it stopped once
 * the application starts it. */
static int vclock_resume(snd_pcm_ioplug_t *io)
{
	struct vclock *vc = io->private_data;

	if (io->state != SND_PCM_STATE_SUSPENDED)
		return 0;
	vc->base = vc->consumed;
	snd_pcm_ioplug_set_state(io, SND_PCM_STATE_PREPARED);
	return 0;
}

/* Pause stops the clock where it stands: the pointer keeps the frames played so far and the
 * period timer stops. Release starts the clock again from that frame, so the paused time does
 * not count as played (which would drain the ring and read as an underrun). Returns 0, or
 * -EPIPE / -ESTRPIPE when the ring ran dry or the device suspended before the pause. */
static int vclock_pause(snd_pcm_ioplug_t *io, int enable)
{
	struct vclock *vc = io->private_data;
	snd_pcm_sframes_t pos;

	if (enable) {
		pos = vclock_pointer(io); /* brings consumed up to now */
		if (pos < 0)
			return (int)pos;
		if (io->state == SND_PCM_STATE_SUSPENDED)
			return -ESTRPIPE;
		vc->base = vc->consumed;
		return arm(vc, NULL, 0);
	}
	vc->base = vc->consumed;
	return vclock_start(io);
}

static int vclock_hw_params(snd_pcm_ioplug_t *io, snd_pcm_hw_params_t *params)
{
	struct vclock *vc = io->private_data;
	uint64_t b = io->buffer_size;

	(void)params;
	vc->period_ns = (uint64_t)io->period_size * 1000000000u / io->rate;
	if (!vc->period_ns)
		vc->period_ns = 1000000;
	/* the same boundary alsa-lib computes for this buffer size */
	while (b * 2 <= (uint64_t)LONG_MAX - io->buffer_size)
		b *= 2;
	vc->boundary = b;
	return 0;
}

static int vclock_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int nfds,
                               unsigned short *revents)
{
	struct vclock *vc = io->private_data;
	uint64_t ticks;
	unsigned short r = 0;

	if (nfds != 1)
		return -EINVAL;
	if (pfd->revents & POLLIN) {
		/* one read drains every expiration: the next poll sleeps until the next period */
		if (read(vc->tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
			r |= POLLERR;
		r |= POLLOUT;
	}
	if (pfd->revents & (POLLERR | POLLNVAL))
		r |= POLLERR;
	if (io->state == SND_PCM_STATE_XRUN || io->state == SND_PCM_STATE_SUSPENDED)
		r |= POLLOUT | POLLERR;
	*revents = r;
	return 0;
}

static int vclock_close(snd_pcm_ioplug_t *io)
{
	struct vclock *vc = io->private_data;

	if (vc->dry_at > 0)
		log_underrun(vc, 0);
	if (vc->suspended_at > 0)
		log_suspend(vc, 0);
	close(vc->tfd);
	if (vc->log_fd >= 0)
		close(vc->log_fd);
	free(vc);
	return 0;
}

static const snd_pcm_ioplug_callback_t vclock_callback = {
    .start = vclock_start,
    .stop = vclock_stop,
    .pointer = vclock_pointer,
    .transfer = vclock_transfer,
    .prepare = vclock_prepare,
    .resume = vclock_resume,
    .pause = vclock_pause,
    .hw_params = vclock_hw_params,
    .poll_revents = vclock_poll_revents,
    .close = vclock_close,
};

static int set_constraints(snd_pcm_ioplug_t *io)
{
	static const unsigned int access[] = {SND_PCM_ACCESS_RW_INTERLEAVED,
	                                      SND_PCM_ACCESS_MMAP_INTERLEAVED};
	static const unsigned int formats[] = {SND_PCM_FORMAT_S16_LE, SND_PCM_FORMAT_S32_LE,
	                                       SND_PCM_FORMAT_FLOAT_LE};
	int err;

	if ((err = snd_pcm_ioplug_set_param_list(io, SND_PCM_IOPLUG_HW_ACCESS, 2, access)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_list(io, SND_PCM_IOPLUG_HW_FORMAT, 3, formats)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 8)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(io, SND_PCM_IOPLUG_HW_RATE, 8000, 192000)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 64,
	                                           1 << 21)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(io, SND_PCM_IOPLUG_HW_BUFFER_BYTES, 128,
	                                           1 << 22)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(io, SND_PCM_IOPLUG_HW_PERIODS, 2, 1024)) < 0)
		return err;
	return 0;
}

SND_PCM_PLUGIN_DEFINE_FUNC(vmsclock);
SND_PCM_PLUGIN_DEFINE_FUNC(vmsclock)
{
	snd_config_iterator_t i, next;
	const char *log_path = NULL;
	long suspend_at_ms = -1;
	struct vclock *vc;
	int err;

	(void)root;
	snd_config_for_each(i, next, conf)
	{
		snd_config_t *n = snd_config_iterator_entry(i);
		const char *id;

		if (snd_config_get_id(n, &id) < 0)
			continue;
		if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint"))
			continue;
		if (!strcmp(id, "log")) {
			if (snd_config_get_string(n, &log_path) < 0) {
				SNDERR("vmsclock: log must be a file name");
				return -EINVAL;
			}
			continue;
		}
		if (!strcmp(id, "suspend_at_ms")) {
			if (snd_config_get_integer(n, &suspend_at_ms) < 0 || suspend_at_ms < 0) {
				SNDERR("vmsclock: suspend_at_ms must be a number of milliseconds");
				return -EINVAL;
			}
			continue;
		}
		SNDERR("vmsclock: unknown field %s", id);
		return -EINVAL;
	}
	if (stream != SND_PCM_STREAM_PLAYBACK) {
		SNDERR("vmsclock: playback only");
		return -EINVAL;
	}

	vc = calloc(1, sizeof(*vc));
	if (!vc)
		return -ENOMEM;
	vc->log_fd = -1;
	vc->suspend_at_ms = suspend_at_ms;
	vc->boundary = LONG_MAX;
	vc->period_ns = 25000000;
	vc->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (vc->tfd < 0) {
		err = -errno;
		goto out_free;
	}
	if (log_path) {
		vc->log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (vc->log_fd < 0) {
			err = -errno;
			SNDERR("vmsclock: cannot open log %s: %s", log_path, strerror(errno));
			goto out_timer;
		}
	}
	vc->io.version = SND_PCM_IOPLUG_VERSION;
	vc->io.name = "vmsuite virtual clock device";
	vc->io.callback = &vclock_callback;
	vc->io.private_data = vc;
	vc->io.poll_fd = vc->tfd;
	vc->io.poll_events = POLLIN;
	vc->io.mmap_rw = 0;
	vc->io.flags = SND_PCM_IOPLUG_FLAG_MONOTONIC | SND_PCM_IOPLUG_FLAG_BOUNDARY_WA;

	err = snd_pcm_ioplug_create(&vc->io, name, stream, mode);
	if (err < 0)
		goto out_log;
	err = set_constraints(&vc->io);
	if (err < 0) {
		snd_pcm_ioplug_delete(&vc->io); /* calls vclock_close, which frees vc */
		return err;
	}
	*pcmp = vc->io.pcm;
	return 0;

out_log:
	if (vc->log_fd >= 0)
		close(vc->log_fd);
out_timer:
	close(vc->tfd);
out_free:
	free(vc);
	return err;
}

SND_PCM_PLUGIN_SYMBOL(vmsclock)
