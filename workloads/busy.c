/* What else the machine did during one run (docs/result-format.md, "busy"): per-CPU time from
 * /proc/stat on the emulated machine's CPUs, split into the suite's, other user-space
 * processes' (from /proc/PID/stat and each one's CPU affinity) and the kernel's; the workload's
 * run-queue wait from /proc/PID/task/TID/schedstat; other processes' I/O on the work
 * filesystem's block device from its /sys/dev/block/MAJ:MIN/stat less the workload's rusage.
 * Two process scans per run, no sampling. */
#include "workloads/busy.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/machine.h"
#include "core/metric.h"
#include "core/procfs.h"
#include "core/util.h"

enum busy_class { CLS_SUITE, CLS_OTHER, CLS_KTHREAD };
enum busy_where { WHERE_IN, WHERE_SPLIT, WHERE_OUT };

/* A process (a thread for the suite's) at one scan; times in clock ticks. */
struct busy_proc {
	pid_t pid, ppid;
	uint64_t start;
	uint64_t user, sys; /* others: with their reaped children; the suite: its own only */
	enum busy_class cls;
	enum busy_where where;
	char comm[64];
};

struct busy_scan {
	struct busy_proc *v;
	size_t n, cap;
};

struct busy_thread_wait {
	pid_t tid;
	uint64_t wait_ns;
};

#define BUSY_TOP  5  /* the largest others listed */
#define BUSY_KEEP 32 /* kept, so that pinned ones beyond the largest are listed too */

struct vms_busy {
	cpu_set_t cpus; /* the emulated machine's CPUs */
	int pinned;     /* cpu_list given */
	char cpu_list[256];
	unsigned ncpus_all;
	struct busy_scan s0, s1;
	struct vms_cpustat c0, c1;
	int have_cpustat;
	double hz; /* clock ticks per second of /proc/stat and /proc/PID/stat */
	double t0, t1;
	struct busy_thread_wait waits[64];
	size_t n_waits;
	int have_wait;
	double child_user_s, child_sys_s;
	struct vms_busy_totals tot;
	struct vms_busy_figures fig;
	struct {
		pid_t pid;
		char comm[64];
		double cpu_s;
		int pinned;
	} top[BUSY_KEEP];
	size_t n_top;
	/* the work filesystem's block device: its stat counters at both ends of the window */
	int have_io, swap_on_dev, have_swap, have_cancelled;
	uint64_t cancelled; /* the exited child's cancelled_write_bytes (/proc/PID/io) */
	dev_t io_dev;
	char io_name[64];
	uint64_t io0[3], io1[3]; /* sectors read, sectors written, ms busy */
	struct vms_busy_io_totals io;
};

void vms_busy_apportion(const struct vms_busy_totals *t, struct vms_busy_figures *out)
{
	double other_user = t->user_s - t->suite_user_s, split_user, other, busy_else;
	double denom = t->elapsed_s * t->cpus;

	memset(out, 0, sizeof(*out));
	if (other_user < 0)
		other_user = 0;
	split_user = other_user - t->in_user_s;
	if (split_user < 0)
		split_user = 0;
	if (t->split_user_s > 0) {
		out->split_share = split_user / t->split_user_s;
		out->share_from_user = 1;
	} else {
		out->split_share = t->prior_share;
	}
	if (out->split_share > 1)
		out->split_share = 1;
	other = other_user + t->in_sys_s + out->split_share * t->split_sys_s;
	busy_else = t->user_s + t->sys_s - t->suite_user_s - t->suite_sys_s;
	if (busy_else < 0)
		busy_else = 0;
	/* kernel time beyond what every kernel thread allowed here ran, and the interrupts, is
	 * system time of processes the scans did not see whole (born and reaped in the window) */
	if (busy_else - other > t->kthread_seen_s + t->irq_s)
		other = busy_else - t->kthread_seen_s - t->irq_s;
	out->other_scale = 1;
	if (other > busy_else) {
		out->other_scale = other > 0 ? busy_else / other : 1;
		other = busy_else;
	}
	out->other_s = other;
	out->kthread_s = busy_else - other;
	/* /proc/stat counts in ticks: over a run of a few ticks a share can read above 100 %,
	 * which no CPU gives; clamp, so that --disturbed-above 100 means never */
	if (denom > 0) {
		out->other_cpu_pct = fmin(100, 100 * out->other_s / denom);
		out->kthread_cpu_pct = fmin(100, 100 * out->kthread_s / denom);
		out->steal_pct = fmin(100, 100 * t->steal_s / denom);
	}
}

double vms_busy_other_io_mb(const struct vms_busy_io_totals *t)
{
	double rd = t->device_read - t->suite_read - t->swap_in;
	double wr = t->device_written - t->suite_written - t->swap_out;

	return (fmax(0, rd) + fmax(0, wr)) * 512 / (1024.0 * 1024.0);
}

/* ---- the work filesystem's block device ---------------------------------------------- */

/* Reads the device's sectors read, written and ms busy; -1 when it cannot. */
static int io_read(const struct vms_busy *b, uint64_t v[3])
{
	unsigned long long f[10];
	char path[96], buf[512];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", major(b->io_dev),
	         minor(b->io_dev));
	if (vms_read_small(path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2],
	           &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9]) != 10)
		return -1;
	v[0] = f[2];
	v[1] = f[6];
	v[2] = f[9];
	return 0;
}

/* 1 when an active swap area (/proc/swaps) is a file on the device or the device itself. */
static int swap_on(dev_t dev)
{
	char buf[4096], *line, *save = NULL;
	int first = 1;

	if (vms_read_small("/proc/swaps", buf, sizeof(buf)) <= 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		struct stat st;

		if (first || !sp) { /* the header */
			first = 0;
			continue;
		}
		*sp = '\0';
		if (stat(line, &st))
			continue;
		if (S_ISBLK(st.st_mode) ? st.st_rdev == dev : st.st_dev == dev)
			return 1;
	}
	return 0;
}

static void io_begin(struct vms_busy *b, const char *dir)
{
	char path[96], link[256];
	struct stat st;
	ssize_t n;

	if (!dir || stat(dir, &st) || !major(st.st_dev))
		return; /* tmpfs, btrfs and overlayfs have no block device of their own */
	b->io_dev = st.st_dev;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		const char *base;

		link[n] = '\0';
		base = strrchr(link, '/');
		snprintf(b->io_name, sizeof(b->io_name), "%.63s", base ? base + 1 : link);
	}
	b->swap_on_dev = swap_on(st.st_dev);
	b->have_io = !io_read(b, b->io0);
}

/* ---- process scans ------------------------------------------------------------------ */

static struct busy_proc *scan_add(struct busy_scan *s)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->v = vms_xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	memset(&s->v[s->n], 0, sizeof(s->v[0]));
	return &s->v[s->n++];
}

static int read_stat(const char *path, struct vms_pid_stat *st)
{
	char buf[1024];

	if (vms_read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	return vms_pid_stat_parse(buf, st);
}

/* Where a task may run relative to the emulated machine's CPUs; -1 when it is gone. */
static int where_of(const struct vms_busy *b, pid_t tid, enum busy_where *w)
{
	cpu_set_t a, in;

	if (!b->pinned) {
		*w = WHERE_IN;
		return 0;
	}
	if (sched_getaffinity(tid, sizeof(a), &a))
		return -1;
	CPU_AND(&in, &a, &b->cpus);
	*w = !CPU_COUNT(&in) ? WHERE_OUT : CPU_EQUAL(&in, &a) ? WHERE_IN : WHERE_SPLIT;
	return 0;
}

/* Calls fn(b, pid, tid, arg) for each thread tid of process pid (its /proc/PID/task); none
 * when pid is gone. The per-run scan and the wait sampler share it. */
static void for_each_task(struct vms_busy *b, pid_t pid,
                          void (*fn)(struct vms_busy *b, pid_t pid, pid_t tid, void *arg),
                          void *arg)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			fn(b, pid, (pid_t)atol(de->d_name), arg);
	closedir(d);
}

/* One of the suite's threads, with its own affinity (the probe's watcher runs elsewhere). */
static void suite_thread(struct vms_busy *b, pid_t pid, pid_t tid, void *arg)
{
	struct busy_scan *s = arg;
	struct vms_pid_stat st;
	struct busy_proc *p;
	enum busy_where w;
	char sp[96];

	snprintf(sp, sizeof(sp), "/proc/%ld/task/%ld/stat", (long)pid, (long)tid);
	if (read_stat(sp, &st) || where_of(b, st.pid, &w))
		return;
	p = scan_add(s);
	p->pid = st.pid;
	p->ppid = pid;
	p->start = st.starttime;
	p->user = st.utime;
	p->sys = st.stime;
	p->cls = CLS_SUITE;
	p->where = w;
	snprintf(p->comm, sizeof(p->comm), "%s", st.comm);
}

/* 1 when pid is vmsuite or one of its descendants, by the parents in all[0..n). */
static int in_suite(const struct vms_pid_stat *all, size_t n, size_t i, pid_t self)
{
	size_t hops, j;
	pid_t p = all[i].pid, pp = all[i].ppid;

	for (hops = 0; hops < 64; hops++) {
		if (p == self)
			return 1;
		if (pp <= 1)
			return 0;
		for (j = 0; j < n && all[j].pid != pp; j++)
			;
		if (j == n)
			return 0;
		p = all[j].pid;
		pp = all[j].ppid;
	}
	return 0;
}

static void scan(struct vms_busy *b, struct busy_scan *s)
{
	struct vms_pid_stat *all = NULL;
	size_t n = 0, cap = 0, i;
	pid_t self = getpid();
	struct dirent *de;
	DIR *d = opendir("/proc");

	s->n = 0;
	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[64];

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			all = vms_xrealloc(all, cap * sizeof(*all));
		}
		snprintf(path, sizeof(path), "/proc/%ld/stat", atol(de->d_name));
		if (!read_stat(path, &all[n]))
			n++;
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		const struct vms_pid_stat *st = &all[i];
		struct busy_proc *p;
		enum busy_where w;

		if (in_suite(all, n, i, self)) {
			for_each_task(b, st->pid, suite_thread, s);
			continue;
		}
		if (where_of(b, st->pid, &w))
			continue;
		p = scan_add(s);
		p->pid = st->pid;
		p->ppid = st->ppid;
		p->start = st->starttime;
		p->user = st->utime + st->cutime;
		p->sys = st->stime + st->cstime;
		p->cls = st->flags & VMS_PF_KTHREAD ? CLS_KTHREAD : CLS_OTHER;
		p->where = w;
		snprintf(p->comm, sizeof(p->comm), "%s", st->comm);
	}
	free(all);
}

static const struct busy_proc *scan_find(const struct busy_scan *s, const struct busy_proc *p)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].pid == p->pid && s->v[i].start == p->start && s->v[i].cls == p->cls)
			return &s->v[i];
	return NULL;
}

/* ---- the window --------------------------------------------------------------------- */

struct vms_busy *vms_busy_begin(const char *cpu_list, const char *io_dir)
{
	struct vms_busy *b = vms_xcalloc(1, sizeof(*b));
	struct vms_cpustat all;
	unsigned i;

	CPU_ZERO(&b->cpus);
	if (cpu_list && !vms_cpu_list_parse(cpu_list, &b->cpus)) {
		b->pinned = 1;
		snprintf(b->cpu_list, sizeof(b->cpu_list), "%s", cpu_list);
	} else {
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &b->cpus);
	}
	if (!vms_cpustat_read(NULL, NULL, &all))
		b->ncpus_all = all.cpus;
	scan(b, &b->s0);
	io_begin(b, io_dir);
	b->t0 = vms_now_mono();
	b->have_cpustat = !vms_cpustat_read(NULL, &b->cpus, &b->c0);
	return b;
}

static void wait_put(struct vms_busy *b, pid_t tid, uint64_t wait_ns)
{
	size_t i;

	for (i = 0; i < b->n_waits && b->waits[i].tid != tid; i++)
		;
	if (i == b->n_waits) {
		if (b->n_waits == VMS_ARRAY_SIZE(b->waits))
			return;
		b->n_waits++;
	}
	b->waits[i].tid = tid;
	b->waits[i].wait_ns = wait_ns;
	b->have_wait = 1;
}

static void read_wait(struct vms_busy *b, const char *path, pid_t tid)
{
	uint64_t run, wait;
	char buf[128];

	if (vms_read_small(path, buf, sizeof(buf)) > 0 && !vms_schedstat_parse(buf, &run, &wait))
		wait_put(b, tid, wait);
}

static void thread_wait(struct vms_busy *b, pid_t pid, pid_t tid, void *arg)
{
	char sp[96];

	(void)arg;
	snprintf(sp, sizeof(sp), "/proc/%ld/task/%ld/schedstat", (long)pid, (long)tid);
	read_wait(b, sp, tid);
}

void vms_busy_sample_wait(struct vms_busy *b, pid_t pid)
{
	for_each_task(b, pid, thread_wait, NULL);
}

void vms_busy_child_exited(struct vms_busy *b, pid_t pid)
{
	char path[64];

	char buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%ld/schedstat", (long)pid);
	read_wait(b, path, pid);
	/* its file's dirty pages that went with it unwritten (an O_TMPFILE closed at exit): in
	 * its oublock, never on the device */
	snprintf(path, sizeof(path), "/proc/%ld/io", (long)pid);
	if (b->have_io && vms_read_small(path, buf, sizeof(buf)) > 0 &&
	    (p = strstr(buf, "cancelled_write_bytes:"))) {
		b->cancelled = strtoull(p + strlen("cancelled_write_bytes:"), NULL, 10);
		b->have_cancelled = 1;
	}
}

/* The processes that took the most of the emulated machine's CPUs, largest first. */
static void top_put(struct vms_busy *b, const struct busy_proc *p, double cpu_s)
{
	size_t i, j;

	if (cpu_s <= 0)
		return;
	for (i = 0; i < b->n_top && b->top[i].cpu_s >= cpu_s; i++)
		;
	if (i == BUSY_KEEP)
		return;
	if (b->n_top < BUSY_KEEP)
		b->n_top++;
	for (j = b->n_top - 1; j > i; j--)
		b->top[j] = b->top[j - 1];
	b->top[i].pid = p->pid;
	b->top[i].cpu_s = cpu_s;
	b->top[i].pinned = p->where == WHERE_IN;
	snprintf(b->top[i].comm, sizeof(b->top[i].comm), "%s", p->comm);
}

/* What a process gone since the first scan had used by then, and the process alive at the
 * second that reaped it: its parent, or the nearest ancestor through gone ones (a reaped
 * child's whole life lands in its parent's cutime/cstime, and so up to the living reaper). */
struct busy_reaped {
	pid_t reaper;
	uint64_t reaper_start;
	uint64_t user, sys;
};

static struct busy_reaped *reaped_list(const struct vms_busy *b, size_t *n)
{
	struct busy_reaped *r = NULL;
	size_t i, j, hops;

	*n = 0;
	for (i = 0; i < b->s0.n; i++) {
		const struct busy_proc *c = &b->s0.v[i], *cur = c, *par;

		if (c->cls != CLS_OTHER || scan_find(&b->s1, c))
			continue;
		for (hops = 0; hops < 64; hops++, cur = par) {
			for (j = 0, par = NULL; j < b->s0.n && !par; j++)
				if (b->s0.v[j].pid == cur->ppid && b->s0.v[j].cls == CLS_OTHER &&
				    b->s0.v[j].start <= cur->start)
					par = &b->s0.v[j];
			if (!par)
				break;
			if (scan_find(&b->s1, par)) {
				r = vms_xrealloc(r, (*n + 1) * sizeof(*r));
				r[*n].reaper = par->pid;
				r[*n].reaper_start = par->start;
				r[*n].user = c->user;
				r[*n].sys = c->sys;
				(*n)++;
				break;
			}
		}
	}
	return r;
}

/* p's CPU time in the window, clock ticks: its growth since the first scan (q; NULL: born
 * since), less what the processes it reaped meanwhile had used before the window. What is
 * left of theirs ran in the window, and is placed where p may run (where they ran is not
 * known). */
static void window_ticks(const struct busy_proc *p, const struct busy_proc *q,
                         const struct busy_reaped *r, size_t n_reaped, uint64_t *user,
                         uint64_t *sys)
{
	size_t i;

	*user = p->user - (q && q->user <= p->user ? q->user : 0);
	*sys = p->sys - (q && q->sys <= p->sys ? q->sys : 0);
	for (i = 0; i < n_reaped && p->cls == CLS_OTHER; i++) {
		if (r[i].reaper != p->pid || r[i].reaper_start != p->start)
			continue;
		*user -= r[i].user < *user ? r[i].user : *user;
		*sys -= r[i].sys < *sys ? r[i].sys : *sys;
	}
}

void vms_busy_end(struct vms_busy *b, const struct rusage *child)
{
	double hz = (double)sysconf(_SC_CLK_TCK);
	struct vms_busy_totals *t = &b->tot;
	struct busy_reaped *reaped;
	size_t i, n_reaped;

	b->t1 = vms_now_mono();
	b->have_cpustat &= !vms_cpustat_read(NULL, &b->cpus, &b->c1);
	b->have_io &= !io_read(b, b->io1);
	scan(b, &b->s1);
	reaped = reaped_list(b, &n_reaped);
	if (hz <= 0)
		hz = 100;
	b->hz = hz;
	memset(t, 0, sizeof(*t));
	t->elapsed_s = b->t1 - b->t0;
	b->child_user_s = vms_timeval_seconds(&child->ru_utime);
	b->child_sys_s = vms_timeval_seconds(&child->ru_stime);
	if (b->have_io) {
		b->io.device_read = (double)(b->io1[0] - b->io0[0]);
		b->io.device_written = (double)(b->io1[1] - b->io0[1]);
		b->io.suite_read = (double)child->ru_inblock;
		b->io.suite_written =
		    fmax(0, (double)child->ru_oublock - (double)b->cancelled / 512);
	}
	if (b->have_cpustat) {
		t->cpus = b->c1.cpus;
		t->user_s = (double)(b->c1.user - b->c0.user) / hz;
		t->sys_s = (double)(b->c1.system - b->c0.system) / hz;
		t->steal_s = (double)(b->c1.steal - b->c0.steal) / hz;
		t->irq_s = (double)(b->c1.irq - b->c0.irq) / hz;
	}
	/* the workload is pinned to these CPUs (or every CPU is the machine's) */
	t->suite_user_s = b->child_user_s;
	t->suite_sys_s = b->child_sys_s;
	t->prior_share = b->ncpus_all && t->cpus ? (double)t->cpus / b->ncpus_all : 1;
	for (i = 0; i < b->s1.n; i++) {
		const struct busy_proc *p = &b->s1.v[i], *q = scan_find(&b->s0, p);
		uint64_t ut, st;
		double u, s;

		if (p->where == WHERE_OUT)
			continue;
		window_ticks(p, q, reaped, n_reaped, &ut, &st);
		u = (double)ut / hz;
		s = (double)st / hz;
		if (p->cls == CLS_KTHREAD) {
			t->kthread_seen_s += u + s;
			continue;
		}
		if (p->cls == CLS_SUITE) { /* a split suite thread counts as if it ran here */
			t->suite_user_s += u;
			t->suite_sys_s += s;
		} else if (p->where == WHERE_IN) {
			t->in_user_s += u;
			t->in_sys_s += s;
		} else {
			t->split_user_s += u;
			t->split_sys_s += s;
		}
	}
	vms_busy_apportion(t, &b->fig);
	for (i = 0; i < b->s1.n; i++) {
		const struct busy_proc *p = &b->s1.v[i];
		uint64_t ut, st;
		double cpu;

		if (p->cls != CLS_OTHER || p->where == WHERE_OUT)
			continue;
		window_ticks(p, scan_find(&b->s0, p), reaped, n_reaped, &ut, &st);
		cpu = (double)(ut + st) / hz;
		/* one process's share of those CPUs is never more than all others' */
		top_put(
		    b, p,
		    fmin(b->fig.other_s, (p->where == WHERE_IN ? cpu : cpu * b->fig.split_share) *
		                             b->fig.other_scale));
	}
	free(reaped);
}

static double round3(double v)
{
	return (double)(long long)(v * 1000 + (v < 0 ? -0.5 : 0.5)) / 1000;
}

int vms_busy_disturbed(const struct vms_busy *b, double disturbed_above)
{
	/* /proc/stat counts in clock ticks: less than two of them is within its rounding */
	return b->have_cpustat && b->fig.other_cpu_pct > disturbed_above &&
	       b->fig.other_s >= 2 / b->hz;
}

void vms_busy_swap(struct vms_busy *b, uint64_t pswpin, uint64_t pswpout)
{
	b->have_swap = 1;
	b->io.swap_in = b->swap_on_dev ? (double)pswpin * 8 : 0;
	b->io.swap_out = b->swap_on_dev ? (double)pswpout * 8 : 0;
}

/* The "io" object: the device, its traffic in the window and what of it was the suite's. */
static json_t *io_json(const struct vms_busy *b)
{
	const double mib = 512 / (1024.0 * 1024.0);
	double ms = (b->t1 - b->t0) * 1000;
	char dev[32];
	json_t *o;

	if (!b->have_io)
		return json_null();
	snprintf(dev, sizeof(dev), "%u:%u", major(b->io_dev), minor(b->io_dev));
	o = json_pack("{s:s, s:s, s:f, s:f, s:f, s:b, s:f, s:f}", "device", b->io_name, "dev", dev,
	              "device_mb", round3((b->io.device_read + b->io.device_written) * mib),
	              "suite_mb", round3((b->io.suite_read + b->io.suite_written) * mib), "swap_mb",
	              round3((b->io.swap_in + b->io.swap_out) * mib), "swap_on_device",
	              b->swap_on_dev, "other_mb", round3(vms_busy_other_io_mb(&b->io)),
	              "device_busy_pct",
	              round3(ms > 0 ? fmin(100, 100 * (double)(b->io1[2] - b->io0[2]) / ms) : 0));
	json_object_set_new(o, "suite_cancelled_mb",
	                    b->have_cancelled
	                        ? json_real(round3((double)b->cancelled / (1024.0 * 1024.0)))
	                        : json_null());
	return o;
}

json_t *vms_busy_json(const struct vms_busy *b, double disturbed_above)
{
	const struct vms_busy_totals *t = &b->tot;
	const struct vms_busy_figures *f = &b->fig;
	json_t *o = json_object(), *top = json_array();
	double denom = t->elapsed_s * t->cpus;
	size_t i;

	json_object_set_new(o, "cpu_list", b->pinned ? json_string(b->cpu_list) : json_null());
	json_object_set_new(o, "cpus", json_integer(t->cpus));
	if (!b->have_cpustat) {
		json_object_set_new(o, "other_cpu_pct", json_null());
		json_object_set_new(o, "kthread_cpu_pct", json_null());
		json_object_set_new(o, "steal_pct", json_null());
	} else {
		json_object_set_new(o, "other_cpu_pct", json_real(round3(f->other_cpu_pct)));
		json_object_set_new(o, "kthread_cpu_pct", json_real(round3(f->kthread_cpu_pct)));
		json_object_set_new(o, "steal_pct", json_real(round3(f->steal_pct)));
	}
	json_object_set_new(o, "cpu_wait_pct",
	                    b->have_wait && t->elapsed_s > 0
	                        ? json_real(round3(100 * vms_busy_wait_s(b) / t->elapsed_s))
	                        : json_null());
	json_object_set_new(o, "other_io_mb",
	                    b->have_io ? json_real(round3(vms_busy_other_io_mb(&b->io)))
	                               : json_null());
	json_object_set_new(o, "io", io_json(b));
	json_object_set_new(o, "disturbed", json_boolean(vms_busy_disturbed(b, disturbed_above)));
	json_object_set_new(o, "cpu_s",
	                    json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "window",
	                              round3(t->elapsed_s), "busy", round3(t->user_s + t->sys_s),
	                              "suite", round3(t->suite_user_s + t->suite_sys_s), "other",
	                              round3(f->other_s), "kthreads_irq", round3(f->kthread_s),
	                              "steal", round3(t->steal_s), "wait",
	                              round3(vms_busy_wait_s(b))));
	json_object_set_new(json_object_get(o, "cpu_s"), "kthreads_seen",
	                    json_real(round3(t->kthread_seen_s)));
	json_object_set_new(json_object_get(o, "cpu_s"), "irq", json_real(round3(t->irq_s)));
	json_object_set_new(o, "resolution_pct",
	                    json_real(round3(denom > 0 ? 100 * 2 / b->hz / denom : 0)));
	json_object_set_new(o, "split_share", json_real(round3(f->split_share)));
	json_object_set_new(o, "split_share_from",
	                    json_string(f->share_from_user ? "user_time" : "cpu_count"));
	for (i = 0; i < b->n_top; i++)
		if (i < BUSY_TOP ||
		    (b->top[i].pinned && denom > 0 && 100 * b->top[i].cpu_s / denom >= 1))
			json_array_append_new(
			    top, json_pack("{s:i, s:s, s:f, s:b}", "pid", (int)b->top[i].pid,
			                   "comm", b->top[i].comm, "cpu_pct",
			                   round3(denom > 0 ? 100 * b->top[i].cpu_s / denom : 0),
			                   "pinned", b->top[i].pinned));
	json_object_set_new(o, "others", top);
	return o;
}

double vms_busy_wait_s(const struct vms_busy *b)
{
	uint64_t ns = 0;
	size_t i;

	for (i = 0; i < b->n_waits; i++)
		ns += b->waits[i].wait_ns;
	return (double)ns / 1e9;
}

void vms_busy_record(const struct vms_busy *b, json_t *metrics, size_t run)
{
	if (b->have_cpustat) {
		vms_metric_record(metrics, "other_cpu_pct", run, b->fig.other_cpu_pct);
		vms_metric_record(metrics, "kthread_cpu_pct", run, b->fig.kthread_cpu_pct);
		vms_metric_record(metrics, "steal_pct", run, b->fig.steal_pct);
	}
	if (b->have_wait && b->tot.elapsed_s > 0)
		vms_metric_record(metrics, "cpu_wait_pct", run,
		                  100 * vms_busy_wait_s(b) / b->tot.elapsed_s);
	if (b->have_io)
		vms_metric_record(metrics, "other_io_mb", run, vms_busy_other_io_mb(&b->io));
}

void vms_busy_free(struct vms_busy *b)
{
	if (!b)
		return;
	free(b->s0.v);
	free(b->s1.v);
	free(b);
}
