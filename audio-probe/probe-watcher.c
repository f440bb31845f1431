/* The probe's watcher thread: every FULL_READING_S it takes the full reading of the player
 * (faults, CPU and run-queue time, PSI, delay totals) from a CPU other than the player's when
 * there is one, so that measuring costs the player's CPU nothing while all is well.
 * Kernel paths: /proc/self/task/TID/{stat,schedstat}, PSI, taskstats, clock_nanosleep. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio-probe/probe-process.h"
#include "core/util.h"

/* Every FULL_READING_S the watcher reads the player's counters from outside
 * (/proc/self/task/TID/stat and schedstat, PSI, taskstats for TID) into `last`. */
struct vms_watcher {
	pthread_t thread;
	clockid_t cpu_clock; /* its own CPU time */
	pthread_mutex_t lock;
	struct vms_probe_snap last; /* the newest reading; last.t = 0 before the first */
	int stat_fd, schedstat_fd, psi_mem_fd, psi_io_fd;
	int have_delay;
	struct vms_delay delay;
	pid_t tid; /* the player's */
};

double vms_probe_psi_total(int fd)
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
static void watch_snap(struct vms_watcher *w, struct vms_probe_snap *s)
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
	s->psi_mem_s = vms_probe_psi_total(w->psi_mem_fd);
	s->psi_io_s = vms_probe_psi_total(w->psi_io_fd);
	s->dl_ok = w->have_delay && !vms_delay_read(&w->delay, w->tid, &s->dl);
}

static void *watch_main(void *arg)
{
	struct vms_watcher *w = arg;
	struct timespec next;
	long step = (long)(FULL_READING_S * 1e9);

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		struct vms_probe_snap s;

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

int vms_watcher_newest(struct vms_watcher *w, double after, struct vms_probe_snap *s)
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

double vms_watcher_cpu_s(const struct vms_watcher *w)
{
	struct timespec ts;

	if (!w || w->cpu_clock == (clockid_t)-1 || clock_gettime(w->cpu_clock, &ts))
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct vms_watcher *vms_watcher_start(pid_t tid, int psi_mem_fd, int psi_io_fd, int have_delay,
                                      const cpu_set_t *cpus)
{
	struct vms_watcher *w = vms_xcalloc(1, sizeof(*w));
	char path[64], why[256];
	struct sched_param sp = {.sched_priority = 0};
	pthread_attr_t attr;
	int ok;

	w->tid = tid;
	snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", (long)w->tid);
	w->stat_fd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/self/task/%ld/schedstat", (long)w->tid);
	w->schedstat_fd = open(path, O_RDONLY | O_CLOEXEC);
	w->psi_mem_fd = psi_mem_fd; /* pread: no shared file position */
	w->psi_io_fd = psi_io_fd;
	w->have_delay = have_delay && vms_delay_open(&w->delay, why, sizeof(why)) == 0;
	pthread_mutex_init(&w->lock, NULL);
	ok = w->stat_fd >= 0 && w->schedstat_fd >= 0 && w->have_delay == have_delay &&
	     !pthread_attr_init(&attr);
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
