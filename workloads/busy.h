/* What else the machine did during one run: the CPU time user-space processes outside the
 * suite used on the emulated machine's CPUs (the decider of "disturbed"), kernel threads' and
 * interrupts' time there, time stolen by the hypervisor, and the workload's run-queue wait.
 * Also the I/O other processes did on the work filesystem's block device (evidence only).
 * Reads /proc/stat, /proc/PID/stat, /proc/PID/task/TID/stat, /proc/PID/schedstat,
 * /sys/dev/block/MAJ:MIN/stat and /proc/swaps. */
#ifndef VMS_BUSY_H
#define VMS_BUSY_H

#include <jansson.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/* The default of `vmsuite run --disturbed-above PCT`: a run whose other_cpu_pct exceeds it is
 * disturbed. */
#define VMS_BUSY_DISTURBED_ABOVE 5.0

/* The CPU seconds of one run window on the emulated machine's CPUs, as measured (the input of
 * vms_busy_apportion()). */
struct vms_busy_totals {
	double elapsed_s;      /* the window */
	unsigned cpus;         /* the emulated machine's CPUs */
	double user_s, sys_s;  /* /proc/stat: user+nice, system+irq+softirq on those CPUs */
	double steal_s;        /* /proc/stat steal on those CPUs */
	double suite_user_s;   /* the suite on those CPUs: the workload (wait4 rusage), the audio
	                        * probe's and vmsuite's own threads that may run there */
	double suite_sys_s;    /*   (the same, system time) */
	double in_user_s;      /* other user-space processes allowed only on those CPUs */
	double in_sys_s;       /*   (their system time, reaped children's in the window included) */
	double split_user_s;   /* other user-space processes allowed there and elsewhere */
	double split_sys_s;    /*   (their system time) */
	double kthread_seen_s; /* kernel threads allowed on those CPUs: all their time (at most what
	                        * they can have spent there) */
	double irq_s;          /* /proc/stat irq + softirq on those CPUs (within sys_s) */
	double prior_share;    /* the share of those CPUs among all: used for split processes
	                        * when they had no user time to tell where they ran */
};

/* What vms_busy_apportion() makes of the totals, in seconds and % of elapsed x CPUs. */
struct vms_busy_figures {
	double other_s, kthread_s;
	double split_share;  /* estimated share of split processes' time on those CPUs */
	int share_from_user; /* 1: split_share from their user time, 0: prior_share */
	double other_scale;  /* 1, or how much the cap at busy - suite cut the estimate */
	double other_cpu_pct, kthread_cpu_pct, steal_pct;
};

/* Splits the CPUs' busy time into the suite's, other processes' and the kernel's:
 *   other user = max(0, user - suite user) (kernel threads have no user time; processes that
 *                lived only inside the window are in it too);
 *   split share f = (other user - in_user) / split_user, at most 1 (prior_share when the
 *                split processes had no user time);
 *   other = other user + in_sys + f x split_sys, plus whatever the kernel would get beyond
 *           kthread_seen + irq (system time of processes the scans missed), at most
 *           busy - suite;
 *   kthread = busy - suite - other, at least 0 (kernel threads and interrupts).
 * Never fails; a zero window gives zero percentages. */
void vms_busy_apportion(const struct vms_busy_totals *t, struct vms_busy_figures *out);

/* The I/O of one run window on the work filesystem's block device, in 512-byte sectors (the
 * input of vms_busy_other_io_mb()). */
struct vms_busy_io_totals {
	double device_read, device_written; /* on the device (/sys/dev/block/MAJ:MIN/stat) */
	double suite_read;                  /* the workload's wait4 rusage inblock */
	double suite_written;               /* its oublock (pages it dirtied), less the pages it
	                                     * dirtied and then truncated unwritten when known */
	double swap_in, swap_out; /* pswpin, pswpout x 8 when a swap area lies on the device */
};

/* Other processes' I/O on the device in MiB: reads and writes each less the suite's and the
 * swap's, at least 0, summed (the workload's writes never hide another's reads). Cannot tell
 * apart writeback of other processes' dirty pages from before the window, the filesystem's
 * metadata and journal (the workload's included), and counts the workload's dirtied pages that
 * were still dirty at the end as its own: an underestimate then. Never fails. */
double vms_busy_other_io_mb(const struct vms_busy_io_totals *t);

struct vms_busy;

/* Starts measuring a run window on the CPUs of cpu_list (NULL = every CPU: the machine is not
 * pinned) and on the block device holding io_dir (NULL, or no block device behind it: no I/O
 * figures): scans the processes and snapshots /proc/stat and the device's counters. Call it
 * just before the workload is forked. Returns a new state (vms_busy_free()), never NULL (aborts
 * on OOM); what cannot be read is left out of the figures, which then say so. */
struct vms_busy *vms_busy_begin(const char *cpu_list, const char *io_dir);
/* Reads the run-queue wait of every thread of the workload child pid (its
 * /proc/PID/task/TID/schedstat); the sampler calls it, so that threads that end before the
 * child are counted. Cheap; allocates nothing after the first call. */
void vms_busy_sample_wait(struct vms_busy *b, pid_t pid);
/* The child has exited but is not reaped: reads its main thread's final wait. */
void vms_busy_child_exited(struct vms_busy *b, pid_t pid);
/* Ends the window just after the child was reaped (/proc/stat first, then the processes) and
 * computes the figures; child is the child's wait4 rusage. */
void vms_busy_end(struct vms_busy *b, const struct rusage *child);
/* The machine's swap traffic in the window (the run's /proc/vmstat pswpin and pswpout delta,
 * pages): subtracted from the device's I/O when a swap area lies on it. Call after
 * vms_busy_end(), before vms_busy_json(); without it no swap is subtracted. */
void vms_busy_swap(struct vms_busy *b, uint64_t pswpin, uint64_t pswpout);
/* The run's "busy" object (docs/result-format.md): percentages, the seconds behind them, the
 * processes that took the most, and disturbed (other_cpu_pct > disturbed_above). New object;
 * call after vms_busy_end(). */
json_t *vms_busy_json(const struct vms_busy *b, double disturbed_above);
/* Records other_cpu_pct, kthread_cpu_pct, steal_pct, cpu_wait_pct and other_io_mb at sample
 * run. */
void vms_busy_record(const struct vms_busy *b, json_t *metrics, size_t run);
/* The workload's threads' run-queue wait so far, seconds. */
double vms_busy_wait_s(const struct vms_busy *b);
/* 1 when the run was disturbed: other_cpu_pct > disturbed_above, and other processes' time
 * is at least two clock ticks (less is within the rounding of /proc/stat). */
int vms_busy_disturbed(const struct vms_busy *b, double disturbed_above);
void vms_busy_free(struct vms_busy *b);

#endif
