/* Pause and release on the virtual clock device through alsa-lib: `DEVICE` opens it, plays
 * half a second of silence with a 500 ms buffer kept full, pauses for longer than the buffer
 * holds, checks that the position stood still, releases and checks that the stream runs on
 * from where it stopped, at the clock's rate, without an underrun; twice. Prints what it saw
 * and exits 0, or 1 with a line saying what failed. Kernel paths: timerfd, poll. */
#include <alsa/asoundlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RATE     48000u
#define CHANNELS 2u

static short silence[RATE / 10 * CHANNELS];

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap(double seconds)
{
	struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};

	while (nanosleep(&ts, &ts) < 0)
		;
}

static int fail(const char *what, int err)
{
	if (err)
		printf("FAIL: %s: %s\n", what, snd_strerror(err));
	else
		printf("FAIL: %s\n", what);
	return 1;
}

/* Keeps the ring full for about `seconds`; 0, or the failing call's error. */
static int play(snd_pcm_t *pcm, double seconds)
{
	double end = mono_now() + seconds;
	snd_pcm_sframes_t avail, n;

	do {
		avail = snd_pcm_avail(pcm);
		if (avail < 0)
			return (int)avail;
		while (avail > 0) {
			n = snd_pcm_writei(pcm, silence,
			                   (snd_pcm_uframes_t)avail < RATE / 10
			                       ? (snd_pcm_uframes_t)avail
			                       : RATE / 10);
			if (n < 0)
				return (int)n;
			avail -= n;
		}
		if (snd_pcm_wait(pcm, 100) < 0)
			return -EPIPE;
	} while (mono_now() < end);
	return 0;
}

int main(int argc, char **argv)
{
	snd_pcm_hw_params_t *hw;
	snd_pcm_sw_params_t *sw;
	snd_pcm_uframes_t buffer = RATE / 2, period = RATE / 20;
	snd_pcm_sframes_t d0, d1, d2, d3;
	unsigned int rate = RATE;
	snd_pcm_t *pcm;
	double t2, t3, played;
	int err, round;

	if (argc != 2) {
		fprintf(stderr, "usage: vclock-pause DEVICE\n");
		return 2;
	}
	if ((err = snd_pcm_open(&pcm, argv[1], SND_PCM_STREAM_PLAYBACK, 0)) < 0)
		return fail("open", err);
	snd_pcm_hw_params_alloca(&hw);
	snd_pcm_sw_params_alloca(&sw);
	if ((err = snd_pcm_hw_params_any(pcm, hw)) < 0 ||
	    (err = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) < 0 ||
	    (err = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE)) < 0 ||
	    (err = snd_pcm_hw_params_set_channels(pcm, hw, CHANNELS)) < 0 ||
	    (err = snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, NULL)) < 0 ||
	    (err = snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, NULL)) < 0 ||
	    (err = snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer)) < 0 ||
	    (err = snd_pcm_hw_params(pcm, hw)) < 0)
		return fail("hw params", err);
	if (rate != RATE)
		return fail("rate not granted", 0);
	printf("buffer %lu frames, period %lu, can_pause %d\n", buffer, period,
	       snd_pcm_hw_params_can_pause(hw));
	if ((err = snd_pcm_sw_params_current(pcm, sw)) < 0 ||
	    (err = snd_pcm_sw_params_set_start_threshold(pcm, sw, buffer)) < 0 ||
	    (err = snd_pcm_sw_params(pcm, sw)) < 0)
		return fail("sw params", err);

	if ((err = play(pcm, 0.5)) < 0)
		return fail("playing before the pause", err);
	for (round = 1; round <= 2; round++) {
		if ((err = snd_pcm_pause(pcm, 1)) < 0)
			return fail("pause(1)", err);
		if (snd_pcm_state(pcm) != SND_PCM_STATE_PAUSED)
			return fail("not PAUSED after pause(1)", 0);
		if ((err = snd_pcm_delay(pcm, &d0)) < 0)
			return fail("delay after pause(1)", err);
		nap(0.8); /* longer than the buffer holds */
		if ((err = snd_pcm_delay(pcm, &d1)) < 0)
			return fail("delay while paused", err);
		printf("round %d: paused with %ld frames queued, %ld after 0.8 s\n", round, d0, d1);
		if (d1 != d0)
			return fail("the position moved while paused", 0);
		if ((err = snd_pcm_pause(pcm, 0)) < 0)
			return fail("pause(0)", err);
		t2 = mono_now();
		if (snd_pcm_state(pcm) != SND_PCM_STATE_RUNNING)
			return fail(snd_pcm_state_name(snd_pcm_state(pcm)), 0);
		if ((err = snd_pcm_delay(pcm, &d2)) < 0)
			return fail("delay after pause(0)", err);
		nap(0.2);
		if ((err = snd_pcm_delay(pcm, &d3)) < 0)
			return fail("delay 0.2 s after pause(0)", err);
		t3 = mono_now();
		played = (double)(d2 - d3) / RATE;
		printf("round %d: released with %ld queued; %.3f s played in %.3f s\n", round, d2,
		       played, t3 - t2);
		if (d2 > d0 || d2 < d0 - (snd_pcm_sframes_t)(RATE / 5))
			return fail("the stream did not resume where it stopped", 0);
		/* the clock runs at its rate again: what it played matches the time that passed
		 * between the two readings, give or take the reading's own cost */
		if (played < 0.15 || played > t3 - t2 + 0.01)
			return fail("the position does not advance at the clock's rate", 0);
		if ((err = play(pcm, 0.4)) < 0)
			return fail("playing after the release", err);
	}
	if ((err = snd_pcm_drain(pcm)) < 0)
		return fail("drain", err);
	/* checked last, so that a device without it shows what pausing it does */
	if (!snd_pcm_hw_params_can_pause(hw))
		return fail("the device does not advertise pause", 0);
	snd_pcm_close(pcm);
	printf("ok\n");
	return 0;
}
