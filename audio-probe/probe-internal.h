/* Inside the audio probe: the records the probe process writes into memory shared with its
 * parent, the MP3 and ALSA helpers, and the pure window/cause computations (unit-tested on
 * synthetic records). Not for use outside audio-probe/ and its tests. */
#ifndef VMS_PROBE_INTERNAL_H
#define VMS_PROBE_INTERNAL_H

#include <alsa/asoundlib.h>
#include <jansson.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <stdint.h>

#include "core/metric.h"

/* One wake-up of the probe (one per period when all is well). */
struct vms_wake_rec {
	double t;      /* CLOCK_MONOTONIC seconds */
	float late_ms; /* wake time minus when it should have woken (buffer fell to one period) */
	float fill_ms; /* audio queued in the device at the wake; 0 at an underrun */
};

/* The evidence gathered between the wake before an underrun and the wake that saw it. */
struct vms_gap_evidence {
	double late_ms;     /* lateness of the wake that saw the underrun */
	double interval_ms; /* time between the two wakes */
	long majflt, minflt;
	double runq_ms;               /* run-queue wait (/proc/thread-self/schedstat, 2nd field) */
	double cpu_ms;                /* own user+system CPU */
	double psi_mem_ms, psi_io_ms; /* system "some" stall totals growth */
	/* The player's own delay accounting (taskstats), when delayacct is set: the growth of its
	 * delay totals over the same interval. */
	int delayacct;
	double io_ms, swapin_ms, reclaim_ms, thrashing_ms, compaction_ms;
	double gap_ms; /* the silence, dry to resume (0 = unknown): what a delay must cover */
};

/* One underrun (or suspend): the silence from dry to resume. */
struct vms_xrun_rec {
	double dry;      /* when the ring ran dry (probe's view: last write + what it queued) */
	double detected; /* the wake that saw -EPIPE/-ESTRPIPE */
	double resume;   /* sound resumed (snd_pcm_start after refill); 0 = not yet */
	int suspend;     /* -ESTRPIPE rather than -EPIPE */
	struct vms_gap_evidence ev;
};

/* Once a second: cumulative costs of the probe process. */
struct vms_tick_rec {
	double t;
	double cpu_s;        /* the player thread's user+system */
	double watch_cpu_s;  /* the watcher thread's CPU time; < 0 = no watcher */
	double decode_cpu_s; /* CPU inside libmpg123 */
	double audio_s;      /* audio decoded */
	long maxrss_kib;
	long majflt, minflt;
};

/* A read-only view of the records for the window computation. */
struct vms_probe_view {
	const struct vms_wake_rec *wakes;
	size_t n_wakes;
	const struct vms_xrun_rec *xruns;
	size_t n_xruns;
	const struct vms_tick_rec *ticks;
	size_t n_ticks;
	double period_ms;
	double last_dry; /* when the ring runs dry given the last write (0 = unknown) */
	double last_wake;
	double died_at; /* 0 = alive */
	double now;
	unsigned cause_method; /* VMS_CAUSE_BY_DELAYACCT or _INFERENCE (0 counts as inference) */
};

/* The cause rules of docs/audio-probe.md on one gap's evidence. With the player's delay
 * accounting (e->delayacct): the largest of its swap-in, reclaim, thrashing and compaction
 * delays when it covers at least half the gap (e->gap_ms, else the lateness), else runqueue,
 * io (its block I/O delay) or decode (its own CPU) when that does, else unexplained. Without
 * (inference): paging if major faults, else runqueue if run-queue wait is at least half the
 * lateness, else io if PSI io grew by at least VMS_CAUSE_IO_FRACTION of the lateness, else decode
 * if own CPU is at least half of it, else unexplained. *delay_ms (NULL allowed) gets the delay that
 * names the cause (0 for paging and unexplained). Pure. */
#define VMS_CAUSE_IO_FRACTION 0.1
enum vms_cause vms_probe_classify(const struct vms_gap_evidence *e, double *delay_ms);

/* ---- delay accounting (probe-delay.c) ---- */
/* Cumulative delay totals of one thread, seconds. */
struct vms_delays {
	int version; /* the kernel's taskstats version */
	double runq_s, io_s, swapin_s, reclaim_s, thrashing_s, compaction_s;
};

struct vms_delay {
	int fd;
	unsigned short family;
	unsigned seq;
	int version;
	char buf[2048]; /* one reply */
};

/* Opens the taskstats reader: kernel.task_delayacct must be on, the TASKSTATS genetlink family
 * present and readable (CAP_NET_ADMIN). 0, or -errno with a one-line reason in err. */
int vms_delay_open(struct vms_delay *d, char *err, size_t errlen);
/* The delay totals of thread tid now: one request, one reply, no allocation. 0 or -errno. */
int vms_delay_read(struct vms_delay *d, pid_t tid, struct vms_delays *out);
void vms_delay_close(struct vms_delay *d);

/* The index of the first wake-up at or after t in wakes[0..n) (sorted by time); n when none. */
size_t vms_wake_index(const struct vms_wake_rec *wakes, size_t n, double t);

/* Skips: gaps closer than this much sound merge into one skip. */
#define VMS_SKIP_MERGE_S 0.050

/* The metrics of window [t0, t1] from the records (see probe.h for names), stored at sample
 * index run; returns the detail object. Pure apart from allocation. */
json_t *vms_probe_window_compute(const struct vms_probe_view *v, double t0, double t1,
                                 json_t *metrics, size_t run);

/* ---- MP3 (probe-mp3.c) ---- */
struct vms_mp3_facts {
	char sha256[65];
	char version[8]; /* "1", "2", "2.5" */
	int layer;
	long rate;
	int channels;
	int bitrate_kbps; /* nominal (first frame) */
	double avg_kbps;
	char mode[8]; /* "cbr", "vbr", "abr" */
	double duration_s;
	long frames; /* decoded */
	long frames_expected;
	long frames_dropped;
	long resyncs;       /* times libmpg123 skipped bytes between two frames it decoded */
	long damaged_bytes; /* the bytes it skipped so: damage (not the tags before the first
	                     * frame, not a truncated tail) */
	long audio_bytes;   /* from the first decoded frame to the end of the last */
	long rate_changes;  /* frames whose native rate differs from the first */
	long other_rate;    /* one such rate */
	char decoder[48];
};

struct vms_mp3 {
	void *map;
	size_t len;
	size_t pos;
	void *mh; /* mpg123_handle */
};

/* Checks that the file at path can be an MP3 to play, from its stat(2) (`st`, or stat()ed
 * here when NULL): a regular file, not empty, at most VMS_PROBE_MP3_MAX_BYTES. 0, or -1 with
 * a one-line reason in err ("'x' is a FIFO, not an MP3 file"). Opens nothing. */
int vms_mp3_check_stat(const char *path, const struct stat *st, char *err, size_t errlen);
/* Maps the file, checks it is MP3 audio, decodes it once to collect facts and count frames
 * libmpg123 had to drop. Writes a one-line reason into err on failure. 0 or -1. */
int vms_mp3_open(struct vms_mp3 *m, const char *path, struct vms_mp3_facts *f, char *err,
                 size_t errlen);
/* Decodes up to cap bytes of S16 stereo at the first rate into buf, looping at the end.
 * Returns bytes (> 0) or -1 when nothing more can be decoded. Allocates nothing. */
long vms_mp3_read(struct vms_mp3 *m, unsigned char *buf, size_t cap);
void vms_mp3_close(struct vms_mp3 *m);

/* ---- ALSA devices (probe-device.c) ---- */
/* The virtual clock plugin's path for this binary (build tree or install tree); new string. */
char *vms_vclock_plugin_path(void);
/* The sample MP3 shipped with vmsuite; new string. */
char *vms_sample_mp3_path(void);
/* 1 when /proc/asound/cards lists a card. */
int vms_have_sound_card(void);
/* Opens dev ("virtual" = the virtual clock device, with an optional underrun log) for
 * non-blocking playback. 0 or negative errno; err gets a one-line reason naming the device
 * and listing the PCM devices that exist. */
int vms_pcm_open(snd_pcm_t **pcm, const char *dev, const char *vclock_log, char *err,
                 size_t errlen);
/* Sets S16 stereo at rate, period/buffer near the given ms, MONOTONIC timestamps, manual
 * start. Refuses (with a reason) what the device cannot do or a geometry off by more than 2x.
 * *batch: the device's position moves once per period (snd_pcm_hw_params_is_batch); avail_min
 * is then half a period, else one period (docs/audio-probe.md, Devices). */
int vms_pcm_setup(snd_pcm_t *pcm, const char *dev, unsigned rate, double period_ms,
                  double buffer_ms, snd_pcm_uframes_t *period, snd_pcm_uframes_t *buffer,
                  int *batch, char *err, size_t errlen);
/* How many of the avail free frames to write: whole periods when at least one is free (so that
 * every period interrupt finds a full period free and wakes the player), else all of them.
 * Pure. */
snd_pcm_sframes_t vms_pcm_write_size(snd_pcm_sframes_t avail, snd_pcm_uframes_t period);
/* When the position last read (snd_pcm_avail) was the device's: ALSA's status timestamp,
 * CLOCK_MONOTONIC seconds. On a batch device that is its last step, up to a period before now;
 * elsewhere about now. now when the device gives none, or one in the future or more than
 * max_age seconds old. */
double vms_pcm_position_time(snd_pcm_t *pcm, double now, double max_age);

#endif
