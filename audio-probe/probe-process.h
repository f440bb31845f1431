/* Inside the audio probe process: what the parent's side (probe.c), the player child
 * (probe-player.c) and its watcher thread (probe-watcher.c) share: the memory the child writes
 * its records into and the parent reads, and the player's full readings. No kernel paths. */
#ifndef VMS_PROBE_PROCESS_H
#define VMS_PROBE_PROCESS_H

#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <time.h>

#include "audio-probe/probe-internal.h"

/* Record capacities of the shared memory. */
#define WAKE_CAP (1u << 21) /* 14.5 h of 25 ms periods */
#define XRUN_CAP (1u << 16)
#define TICK_CAP (1u << 18) /* 72 h of once-a-second ticks */
/* How often the full reading is taken while all is well (docs/audio-probe.md, Causes): how far
 * before a gap its evidence starts. The watcher thread takes it; the player only without one. */
#define FULL_READING_S 0.25

/* The probe process's state in the shared header. */
enum { ST_STARTING, ST_PLAYING, ST_FAILED, ST_STOPPED };

/* The start of the shared memory: the player's state, facts and counters. */
struct vms_probe_shm_hdr {
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

/* The records in the shared memory: the header, then the wake-ups, underruns and ticks. */
struct vms_probe_records {
	struct vms_probe_shm_hdr *h;
	struct vms_wake_rec *wakes;
	struct vms_xrun_rec *xruns;
	struct vms_tick_rec *ticks;
};

static inline void store_d(double *p, double v)
{
	__atomic_store(p, &v, __ATOMIC_RELEASE);
}

static inline double load_d(double *p)
{
	double v;

	__atomic_load(p, &v, __ATOMIC_ACQUIRE);
	return v;
}

static inline double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct vms_probe_opts;

/* The probe process: prepares itself as o asks (cgroup, CPUs, --rt, --mlock; o->file and
 * o->device resolved), opens the MP3 and the device, starts the watcher and plays until
 * r->h->stop or the parent's death, writing its records into r; errors go to r->h->error with
 * state ST_FAILED. Runs in the child of fork(); never returns. */
void vms_probe_player_main(const struct vms_probe_opts *o, const struct vms_probe_records *r,
                           pid_t parent) __attribute__((noreturn));

/* A full reading of the player: taken by itself (take_snap) or by the watcher (watch_snap),
 * from the same counters. */
struct vms_probe_snap {
	double t;
	long majflt, minflt;
	double cpu_s; /* on-CPU time (schedstat), else user+system (rusage) */
	double runq_s;
	double psi_mem_s, psi_io_s;
	int dl_ok; /* dl holds the delay totals */
	struct vms_delays dl;
};

/* The PSI total (seconds of stall) of an open /proc/pressure/ file, read with pread; 0 when it
 * cannot be read (fd < 0 included). */
double vms_probe_psi_total(int fd);

/* The watcher thread (probe-watcher.c): every FULL_READING_S it reads the player's counters
 * from outside (/proc/self/task/TID/stat and schedstat, PSI, taskstats for TID). */
struct vms_watcher;

/* Starts the watcher for the player thread tid on `cpus`, at normal priority whatever the
 * player's, reading PSI from the player's open files (pread: no shared file position) and the
 * delay totals when have_delay. NULL when it cannot read what the player reads itself: the
 * player then takes its periodic readings. Lives until the process exits. */
struct vms_watcher *vms_watcher_start(pid_t tid, int psi_mem_fd, int psi_io_fd, int have_delay,
                                      const cpu_set_t *cpus);
/* The watcher's newest reading into s when there is one newer than after (1), else 0; never
 * waits. w may be NULL (0). */
int vms_watcher_newest(struct vms_watcher *w, double after, struct vms_probe_snap *s);
/* The watcher thread's own CPU time in seconds, or -1 when w is NULL or it cannot be read. */
double vms_watcher_cpu_s(const struct vms_watcher *w);

#endif
