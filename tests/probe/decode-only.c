/* Reference costs for scripts/bench-probe.sh. `FILE SECONDS`: libmpg123 decoding to nowhere
 * with the probe's output format (S16 stereo at the file's rate) and read size (16 MPEG
 * frames), looped for that much audio; prints "audio_s cpu_s", the CPU of the decoding loop
 * alone (not the start-up). `--wake-floor PERIOD_MS SECONDS`: the bare cost of waking once per
 * period (poll on a periodic timerfd, nothing else); prints "wall_s cpu_s" of the loop. Kernel
 * paths: read, page cache; timerfd, poll, scheduler wake-ups. */
#include <mpg123.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
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

int main(int argc, char **argv)
{
	static unsigned char buf[1152 * 4 * 16]; /* the probe's STAGE_BYTES */
	double want, audio = 0, cpu;
	mpg123_handle *mh;
	long rate;
	int ch, enc, err;

	if (argc == 4 && !strcmp(argv[1], "--wake-floor"))
		return wake_floor(atof(argv[2]), atof(argv[3]));
	if (argc != 3) {
		fprintf(stderr, "usage: probe-decode-only FILE AUDIO_SECONDS\n"
		                "       probe-decode-only --wake-floor PERIOD_MS SECONDS\n");
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
