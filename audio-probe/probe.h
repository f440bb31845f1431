/* The audio probe as the runner sees it: a separate process that decodes an MP3 with
 * libmpg123 and plays it through ALSA for the whole suite, recording every underrun, gap and
 * wake-up into preallocated shared buffers; the runner asks for the metrics of time windows
 * (one per workload run, plus the idle baseline) after the fact. */
#ifndef VMS_PROBE_H
#define VMS_PROBE_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/options.h"

/* The player's geometry: the ranges the options accept (docs/audio-probe.md). The default is
 * the latency preset VMS_PROBE_LATENCY_DEFAULT; VMS_PROBE_PERIOD_MS and VMS_PROBE_BUFFER_MS are
 * the 2001 preset's, the examples of the help texts. */
#define VMS_PROBE_PERIOD_MS     25
#define VMS_PROBE_BUFFER_MS     100
#define VMS_PROBE_PERIOD_MIN_MS 1
#define VMS_PROBE_PERIOD_MAX_MS 1000
#define VMS_PROBE_BUFFER_MIN_MS 2
#define VMS_PROBE_BUFFER_MAX_MS 10000

struct vms_probe_opts {
	const char *file;       /* MP3 to play; NULL = the sample MP3 shipped with vmsuite */
	const char *device;     /* ALSA device; NULL = default card if one exists, else virtual */
	const char *latency;    /* latency preset ("2001", "desktop", "pro"); NULL = the default */
	double period_ms;       /* 0 = the preset's */
	double buffer_ms;       /* 0 = the preset's */
	int rt;                 /* SCHED_FIFO */
	int mlock;              /* mlockall */
	const char *join_procs; /* cgroup.procs (v2) or tasks (v1) file the probe writes its own
	                         * pid into before it loads the MP3; NULL = stay put */
	const char *cpu_list;   /* "0" or "0-1": pin the probe; NULL = no pinning */
	/* Set nonzero (by a signal handler) to give up starting: vms_probe_start() then returns
	 * -EINTR at once. NULL = never. */
	const volatile sig_atomic_t *stop;
};

/* The largest MP3 the probe plays: it is hashed and decoded in full before playing, which must
 * end well within the start's 60 s even on a loaded machine (about 4.6 hours at 128 kbit/s). */
#define VMS_PROBE_MP3_MAX_BYTES (256ull << 20)
/* The most damage an MP3 may have: the share (in %) of its audio data that libmpg123 skips to
 * resynchronise, between the first and the last frame it decodes. Above it the file is refused
 * as corrupt; a truncated file has none (what is missing is not damaged). */
#define VMS_PROBE_MP3_DAMAGE_MAX_PCT 1.0

struct vms_probe;

/* Latency presets: a period/buffer pair each (docs/audio-probe.md, Latency presets). */
struct vms_probe_latency {
	const char *name;
	double period_ms, buffer_ms;
	const char *what;
};
#define VMS_PROBE_LATENCY_DEFAULT "desktop"
/* The presets in order, NULL-name terminated. */
extern const struct vms_probe_latency vms_probe_latencies[];
/* The preset called name (NULL = the default), or NULL. */
const struct vms_probe_latency *vms_probe_latency_find(const char *name);
/* The geometry the options ask for: the preset's (o->latency or the default), each of
 * --period/--buffer overriding its half; but --period alone, without --latency or --buffer,
 * keeps the default preset's number of periods per buffer (buffer = period x that number). */
void vms_probe_geometry(const struct vms_probe_opts *o, double *period_ms, double *buffer_ms);

/* The probe's command-line options, shared by `vmsuite probe` and `vmsuite run --with-audio`
 * so that both accept and refuse the same spellings with the same messages: --device DEV,
 * --latency NAME, --period MS, --buffer MS, --rt, --mlock, --cpu LIST. Each is one row of the
 * table in probe-opts.c (name, argument, help, range); the commands' help and parsing come from
 * it through these. */

/* The options as rows of a command's option table (core/options.h), with the help `vmsuite
 * probe` shows; for a VMS_CLI_GROUP row (struct vms_cli_usage's group). Static, never fails. */
const struct vms_cli_option *vms_probe_cli_options(void);
/* The same rows with the help `vmsuite run` shows (--cpu says more there). */
const struct vms_cli_option *vms_probe_run_cli_options(void);
/* The options' names as a list into buf ("--device, --latency, ... and --cpu"); returns buf,
 * truncated to len. */
const char *vms_probe_opt_names(char *buf, size_t len);
/* 1 when `name` (a long option name without dashes) is one of the probe's options, and then
 * *takes_value says whether it takes a value (NULL allowed). */
int vms_probe_opt_known(const char *name, int *takes_value);
/* Sets the probe option `name` ("period", no dashes) in o from its command-line value
 * (NULL for a flag). --period and --buffer take milliseconds as "25", "25ms" or "0.025s";
 * --cpu takes a CPU list. Strings are not copied: value must outlive o. Returns 0; -ENOENT
 * when name is not a probe option; -EINVAL when the value is refused, with a one-line message
 * naming the option and the value in err (nothing is printed). */
int vms_probe_opt_set(struct vms_probe_opts *o, const char *name, const char *value, char *err,
                      size_t errlen);
/* Checks the options together once all are set: the buffer must hold at least two periods,
 * an unset one counting at its default. 0, or -EINVAL with a message in err. */
int vms_probe_opts_check(const struct vms_probe_opts *o, char *err, size_t errlen);

/* Validates file and device (each bad input gets one clear message, reported here), starts
 * the probe process and returns once it is playing. The file must be a regular file (after
 * symbolic links), not empty, of at most VMS_PROBE_MP3_MAX_BYTES: checked before the probe
 * process starts, so that a FIFO or a huge file is refused at once. 0; -EINTR when *o->stop
 * became nonzero while starting (nothing reported, nothing left); or -1 after reporting the
 * error. */
int vms_probe_start(const struct vms_probe_opts *o, struct vms_probe **out);
/* Underruns seen so far (for progress lines); cheap, reads shared memory. */
long vms_probe_underruns(const struct vms_probe *p);
/* The probe process's pid (for callers that wait for their own children: wait for specific
 * pids, never waitpid(-1), or the probe gets reaped behind its back — that is survived, but
 * its exit status is lost). */
pid_t vms_probe_pid(const struct vms_probe *p);
/* 1 while the probe process is alive and playing. */
int vms_probe_alive(const struct vms_probe *p);
/* Looks at the probe process now, at the end of a window, and remembers what it saw, so that
 * vms_probe_window() can tell whether the probe was playing when that window ended. 0 while
 * it plays (a stop and continue in between included), -1 when it is dead or stopped (SIGSTOP).
 * Cheap: a waitpid and a read of /proc/PID/stat. */
int vms_probe_check(struct vms_probe *p);
/* Stops the probe process (every wait bounded) and keeps its records. A probe that died
 * early keeps what it recorded until then. 0, or -1 when it had died (reported once). */
int vms_probe_stop(struct vms_probe *p);
/* Metrics of the window [t0, t1] (CLOCK_MONOTONIC seconds), stored with vms_metric_record()
 * (core/metric.h) at sample index `run` in `metrics`. Metric names: sound_rating, underruns, skips,
 * gap_total_ms, gap_longest_ms, played_s, window_s, wake_p50_ms, wake_p90_ms, wake_p99_ms,
 * wake_p999_ms, wake_max_ms, headroom_min_ms, headroom_p1_ms, near_misses, decode_ms_per_s,
 * probe_cpu_pct, probe_maxrss_kib. Returns a new object with the window's detail:
 *   {"gaps": [{"start_s", "duration_ms", "cause", "evidence": {...}}...],
 *    "causes": {"paging": n, ...}, "latency_hist": {...}, "series": {...}}
 * (gaps also carry "t_mono", the unclipped start; the cause "probe_died" marks the silence
 * of a probe that died within the window; see docs/audio-probe.md). Metrics with no data in the
 * window (wake percentiles without wakes) are not put. Cheap enough to call after every run while
 * the probe keeps playing. */
json_t *vms_probe_window(struct vms_probe *p, double t0, double t1, json_t *metrics, size_t run);
/* The audio facts (MP3: sha256, version, layer, rate, channels, bitrates, cbr/vbr, duration,
 * decoder version; ALSA device and granted geometry; rt/mlock). New object. */
json_t *vms_probe_facts(const struct vms_probe *p);
/* Frees p (stops it first if needed). */
void vms_probe_free(struct vms_probe *p);

#endif
