/* Reference costs for scripts/bench-probe.sh. `FILE SECONDS`: libmpg123 decoding to nowhere
 * with the probe's output format (S16 stereo at the file's rate) and read size (16 MPEG
 * frames), looped for that much audio; prints "audio_s cpu_s", the CPU of the decoding loop
 * alone (not the start-up). `--wake-floor PERIOD_MS SECONDS`: the bare cost of waking once per
 * period (poll on a periodic timerfd, nothing else); prints "wall_s cpu_s" of the loop.
 * `--alsa-floor PERIOD_MS BUFFER_MS SECONDS`: the least an alsa-lib player pays on the virtual
 * clock device, set up as the probe sets it up: poll, revents, avail, write silence, nothing
 * else; prints "wall_s cpu_s" of the loop. Kernel paths: read, page cache; timerfd, poll,
 * scheduler wake-ups. */
#include <alsa/asoundlib.h>
#include <mpg123.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "audio-probe/probe-internal.h"

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int wake_floor(double period_ms, double seconds)
{
	long ns = (long)(period_ms * 1e6), n = (long)(seconds * 1000 / period_ms), i;
	struct itimerspec its = {{ns / 1000000000, ns % 1000000000},
	                         {ns / 1000000000, ns % 1000000000}};
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct pollfd p = {fd, POLLIN, 0};
	uint64_t x;
	double cpu0;

	if (fd < 0 || timerfd_settime(fd, 0, &its, NULL) < 0)
		return 1;
	cpu0 = cpu_now();
	for (i = 0; i < n; i++)
		if (poll(&p, 1, 1000) < 0 || read(fd, &x, sizeof(x)) < 0)
			return 1;
	printf("%.3f %.6f\n", (double)n * period_ms / 1000, cpu_now() - cpu0);
	return 0;
}

static int alsa_floor(double period_ms, double buffer_ms, double seconds)
{
	static int16_t silence[48000 * 2]; /* one second of stereo */
	snd_pcm_uframes_t period, buffer;
	struct pollfd pfds[8];
	snd_pcm_t *pcm;
	char err[1024];
	double cpu0, t0;
	int batch, n;

	setenv("LIBASOUND_THREAD_SAFE", "0", 1); /* as the probe */
	if (vms_pcm_open(&pcm, "virtual", NULL, err, sizeof(err)) ||
	    vms_pcm_setup(pcm, "virtual", 44100, period_ms, buffer_ms, &period, &buffer, &batch,
	                  err, sizeof(err))) {
		fprintf(stderr, "probe-decode-only: %s\n", err);
		return 1;
	}
	n = snd_pcm_poll_descriptors(pcm, pfds, 8);
	if (n <= 0 || snd_pcm_writei(pcm, silence, buffer) < 0 || snd_pcm_start(pcm) < 0)
		return 1;
	cpu0 = cpu_now();
	t0 = mono_now();
	while (mono_now() - t0 < seconds) {
		unsigned short revents;
		snd_pcm_sframes_t avail;

		if (poll(pfds, (nfds_t)n, 1000) < 0)
			return 1;
		snd_pcm_poll_descriptors_revents(pcm, pfds, (unsigned)n, &revents);
		avail = snd_pcm_avail(pcm);
		if (avail < 0) {
			snd_pcm_prepare(pcm);
			avail = (snd_pcm_sframes_t)buffer;
		}
		if (avail > 0 && snd_pcm_writei(pcm, silence, (snd_pcm_uframes_t)avail) < 0)
			snd_pcm_prepare(pcm);
	}
	printf("%.3f %.6f\n", mono_now() - t0, cpu_now() - cpu0);
	snd_pcm_close(pcm);
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char buf[1152 * 4 * 16]; /* the probe's STAGE_BYTES */
	double want, audio = 0, cpu;
	mpg123_handle *mh;
	long rate;
	int ch, enc, err;

	if (argc == 4 && !strcmp(argv[1], "--wake-floor"))
		return wake_floor(atof(argv[2]), atof(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "--alsa-floor"))
		return alsa_floor(atof(argv[2]), atof(argv[3]), atof(argv[4]));
	if (argc != 3) {
		fprintf(stderr,
		        "usage: probe-decode-only FILE AUDIO_SECONDS\n"
		        "       probe-decode-only --wake-floor PERIOD_MS SECONDS\n"
		        "       probe-decode-only --alsa-floor PERIOD_MS BUFFER_MS SECONDS\n");
		return 2;
	}
	want = atof(argv[2]);
	mh = mpg123_new(NULL, &err);
	if (!mh || mpg123_param(mh, MPG123_ADD_FLAGS, MPG123_QUIET, 0) != MPG123_OK ||
	    mpg123_open(mh, argv[1]) != MPG123_OK || mpg123_getformat(mh, &rate, &ch, &enc)) {
		fprintf(stderr, "probe-decode-only: cannot open '%s'\n", argv[1]);
		return 1;
	}
	mpg123_format_none(mh);
	mpg123_format(mh, rate, MPG123_STEREO, MPG123_ENC_SIGNED_16);
	cpu = cpu_now();
	while (audio < want) {
		size_t done = 0;
		int ret = mpg123_read(mh, buf, sizeof(buf), &done);

		audio += (double)done / 4.0 / (double)rate;
		if (ret == MPG123_DONE || (ret != MPG123_OK && ret != MPG123_NEW_FORMAT && !done))
			if (mpg123_seek(mh, 0, SEEK_SET) < 0)
				return 1;
	}
	cpu = cpu_now() - cpu;
	printf("%.3f %.6f\n", audio, cpu);
	mpg123_delete(mh);
	return 0;
}
