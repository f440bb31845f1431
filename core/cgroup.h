/* Memory cgroups for the emulated machine, cgroup v2 and v1: detection, a child cgroup with a
 * memory (and swap) limit, joining it, per-run statistics and removal. Exercises the memcg
 * charge/limit/reclaim paths (memory.max, memory.limit_in_bytes, memsw, failcnt, OOM). */
#ifndef VMS_CGROUP_H
#define VMS_CGROUP_H

#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

/* "No limit" for mem/swap limits and "not available" for statistics. */
#define VMS_CGROUP_UNLIMITED UINT64_MAX
#define VMS_CGROUP_NA        UINT64_MAX

enum vms_cgroup_version {
	VMS_CGROUP_NONE = 0, /* no usable memory cgroup hierarchy */
	VMS_CGROUP_V1 = 1,
	VMS_CGROUP_V2 = 2,
};

/* How directories are made and removed. NULL ops (the normal case) = mkdir(2)/rmdir(2) on the
 * real cgroupfs. Unit tests pass ops that populate a fake cgroupfs tree of plain files, since a
 * plain directory gets no control files on mkdir and cannot be rmdir'ed while it has files.
 * Both return 0 or -errno. */
struct vms_cgroup_fs_ops {
	int (*mkdir)(const char *path, enum vms_cgroup_version version, void *arg);
	int (*rmdir)(const char *path, void *arg);
	void *arg;
};

/* What vms_cgroup_detect() found about the caller's memory cgroup. Paths include the root
 * prefix. Plain data: copy it freely. */
struct vms_cgroup_info {
	enum vms_cgroup_version version;
	char root[256];       /* root prefix given to detect ("" = the real system) */
	char mount[PATH_MAX]; /* mount point of the memory hierarchy, e.g. /sys/fs/cgroup/memory */
	char self_path[PATH_MAX]; /* own cgroup as in /proc/self/cgroup, e.g. /user.slice/x */
	char self_dir[PATH_MAX];  /* mount + own cgroup: where children are created */
	int writable;             /* a child with a memory limit can be created here */
	char why[768];        /* when !writable: why, and what to do (one sentence, no newline) */
	int swap_accounting;  /* memsw files (v1) / memory.swap.max (v2) are expected */
	int pressure;         /* per-cgroup memory.pressure (v2) */
	int v2_enable_memory; /* v2 root cgroup: create must first write +memory */
};

/* Finds the caller's memory cgroup from <root>/proc/self/cgroup and <root>/proc/self/mountinfo:
 * cgroup v2 when the memory controller is in the own cgroup's cgroup.controllers, else a v1
 * hierarchy mounted with the "memory" option, else none. root NULL or "" = the real system; a
 * directory = a fake tree whose mount points are below it. Fills *info (version NONE with `why`
 * when there is nothing usable) and returns 0; -errno only when /proc/self/cgroup cannot be read.
 * Reports nothing; creates nothing. */
int vms_cgroup_detect(struct vms_cgroup_info *info, const char *root);

/* Statistics of one cgroup at one moment. Fields not available on this version/kernel are
 * VMS_CGROUP_NA. Fixed size: reading it allocates nothing. */
#define VMS_CGROUP_STAT_MAX 160
struct vms_cgroup_stats {
	double t;            /* CLOCK_MONOTONIC seconds */
	uint64_t usage;      /* memory.usage_in_bytes (v1) / memory.current (v2) */
	uint64_t peak;       /* memory.max_usage_in_bytes (v1) / memory.peak (v2) */
	uint64_t swap;       /* swap in use: memsw.usage - usage (v1) / memory.swap.current (v2) */
	uint64_t limit_hits; /* memory.failcnt (v1, see limit_reached) / memory.events "max" (v2) */
	uint64_t swap_hits;  /* memory.memsw.failcnt (v1) / memory.swap.events "max" (v2) */
	uint64_t high_events; /* memory.events "high" (v2 only) */
	uint64_t oom;         /* memory.events "oom" (v2 only) */
	uint64_t oom_kill;    /* memory.oom_control "oom_kill" (v1) / memory.events (v2) */
	uint64_t psi_some_us; /* memory.pressure "some" total (v2 only) */
	uint64_t psi_full_us;
	unsigned nstat; /* memory.stat; v1 hierarchical total_X stored as X */
	struct {
		char name[40];
		uint64_t value;
	} stat[VMS_CGROUP_STAT_MAX];
};

/* A child memory cgroup owned by this process. Zero it (or use VMS_CGROUP_INIT) before use. */
struct vms_cgroup {
	enum vms_cgroup_version version;
	int created;            /* the directory exists and is ours */
	char dir[PATH_MAX];     /* the child's directory */
	char parent[PATH_MAX];  /* the caller's cgroup (where remaining tasks are moved) */
	char procs[PATH_MAX];   /* the file a process writes its pid into to join */
	uint64_t mem_requested; /* as asked (VMS_CGROUP_UNLIMITED = no limit) */
	uint64_t swap_requested;
	uint64_t mem_limit;       /* read back from the kernel (page-rounded) */
	uint64_t swap_limit;      /* read back: memsw - mem (v1) / memory.swap.max (v2);
	                           * VMS_CGROUP_UNLIMITED when not enforced */
	int swap_accounting;      /* the child has memsw / memory.swap.* files */
	int peak_per_run;         /* peak is reset at each vms_cgroup_run_begin() */
	int pressure;             /* memory.pressure exists */
	int usage_fd;             /* memory.current / usage_in_bytes, for cheap sampling */
	int peak_fd;              /* v2 memory.peak, opened once: its reset is per fd */
	uint64_t host_swap_total; /* SwapTotal of <root>/proc/meminfo at create */
	int swappiness;           /* v1: the memory.swappiness the last run began with (the
	                           * host's vm.swappiness, written there); -1 = not set */
	char root[256];           /* root prefix of the system (as given to detect) */
	const struct vms_cgroup_fs_ops *ops;
};

/* clang-format off */
#define VMS_CGROUP_INIT { .usage_fd = -1, .peak_fd = -1, .swappiness = -1 }
/* clang-format on */

/* Creates <info->self_dir>/<name> (name NULL = "vmsuite-<pid>"), first removing stale
 * "vmsuite-<pid>" siblings whose process is gone and which hold no tasks, then sets the limits:
 * v2 memory.max and memory.swap.max; v1 memory.limit_in_bytes and memory.memsw.limit_in_bytes
 * (= mem + swap, written in the order the kernel accepts: memsw may never be below the memory
 * limit). swap_limit is ignored (and reported as not enforced) when the kernel has no swap
 * accounting. mem_limit VMS_CGROUP_UNLIMITED = no limit. Reads the limits back into cg.
 * ops NULL = the real cgroupfs (else ops must outlive cg). Opens two descriptors kept until
 * vms_cgroup_destroy(). On failure reports one error, removes what it made and returns
 * -errno (-EPERM/-EACCES: not root; -ENOTSUP: info->version NONE or not writable). */
int vms_cgroup_create(struct vms_cgroup *cg, const struct vms_cgroup_info *info, const char *name,
                      uint64_t mem_limit, uint64_t swap_limit, const struct vms_cgroup_fs_ops *ops);

/* Moves process pid (all its threads) into cg. 0 or -errno; reports nothing. */
int vms_cgroup_join(const struct vms_cgroup *cg, pid_t pid);

/* Moves the calling process into the cgroup whose join file is procs_path (cg->procs): for a
 * child between fork() and exec(). Only open/write/close and getpid: async-signal-safe, no
 * allocation, no stdio. 0 or -errno; reports nothing. Join before touching the memory that
 * should be charged: neither version moves existing charges with a task (v1's
 * move_charge_at_immigrate is deprecated and off). */
int vms_cgroup_join_self(const char *procs_path);

/* Memory in use by the cgroup now (one pread of memory.current / memory.usage_in_bytes on a
 * kept descriptor: cheap enough for a 10 Hz sampler). 0 or -errno. */
int vms_cgroup_usage(const struct vms_cgroup *cg, uint64_t *bytes);

/* Reads every statistic of cg into *s (see struct vms_cgroup_stats). Allocates nothing.
 * 0, or -errno when memory.stat cannot be read. */
int vms_cgroup_stats_read(const struct vms_cgroup *cg, struct vms_cgroup_stats *s);

/* Starts a run: resets the peak where the kernel allows (v1: writes max_usage_in_bytes; v2 ≥
 * 6.12: writes the kept memory.peak descriptor; older v2: cg->peak_per_run stays 0 and the peak
 * is cumulative since create); on v1 writes the host's vm.swappiness into the cgroup's own
 * memory.swappiness (cg->swappiness; v1 gives each cgroup a copy of its parent's value at mkdir
 * and never follows the sysctl after, while v2 has only the sysctl); then snapshots into
 * *before. 0 or -errno. */
int vms_cgroup_run_begin(struct vms_cgroup *cg, struct vms_cgroup_stats *before);

/* Whether a peak means the memory limit was reached: peak within max(1 MiB, 1 %) of it.
 * The reliable "limit hit" signal on v1, where kernel 6.18 never counts memsw.failcnt and so
 * leaves memory.failcnt at 0 when memsw == memory limit (swap limit 0). */
int vms_cgroup_limit_reached(const struct vms_cgroup *cg, uint64_t peak);

/* The run's figures as a new JSON object:
 *   {"peak_bytes", "peak_scope": "run"|"since_create", "limit_reached": bool,
 *    "usage_start_bytes", "usage_end_bytes",
 *    "swap_end_bytes", "limit_hits", "swap_limit_hits", "high_events", "oom", "oom_kill",
 *    "pressure": {"some_us", "full_us"}, "stat_delta": {"<memory.stat key>": after - before}}
 * Keys whose figure is not available are left out. Never fails. */
json_t *vms_cgroup_delta_json(const struct vms_cgroup *cg, const struct vms_cgroup_stats *before,
                              const struct vms_cgroup_stats *after);

/* Facts for the result file: {"version", "path", "mem_limit_requested_bytes",
 * "mem_limit_bytes", "swap_limit_requested_bytes", "swap_limit_bytes", "swap_accounting",
 * "host_swap_total_bytes", "effective_swap_bytes", "peak_scope", "pressure"}; null for
 * "unlimited"/unknown. New object. */
json_t *vms_cgroup_facts_json(const struct vms_cgroup *cg);

/* Swap the emulated machine really has: min(swap limit, host SwapTotal). */
uint64_t vms_cgroup_effective_swap(const struct vms_cgroup *cg);

/* Stops using cg: kills its remaining tasks when kill_tasks (cgroup.kill on v2, else SIGKILL to
 * each), else moves them to the parent cgroup; then removes the directory, retrying for about
 * two seconds on EBUSY. Safe from a cleanup path after Ctrl-C (not from a signal handler) and
 * idempotent: a cg never created or already destroyed returns 0. Reports a warning when the
 * directory cannot be removed and returns -errno. */
int vms_cgroup_destroy(struct vms_cgroup *cg, int kill_tasks);

/* Memory as a program inside the caller's memory cgroup should see it (mtest01): */
struct vms_cgroup_meminfo {
	uint64_t ram;       /* min(memory limit, MemTotal) */
	uint64_t free_ram;  /* ram - usage (0 when usage exceeds it) */
	uint64_t swap;      /* min(swap limit, host SwapTotal) */
	uint64_t free_swap; /* swap - swap in use, at most host SwapFree */
	uint64_t limit;     /* the effective (smallest ancestor) memory limit */
	uint64_t usage;
};

/* Fills *m from the memory cgroup the calling process is in (<root>/proc/self/cgroup, root
 * NULL = real system) and <root>/proc/meminfo. Returns 0; -ENOENT when the process is in no
 * memory cgroup or in one without a limit below MemTotal (the caller falls back to sysinfo());
 * other -errno on read errors. Reports nothing. */
int vms_cgroup_self_meminfo(struct vms_cgroup_meminfo *m, const char *root);

/* "none", "v1", "v2". */
const char *vms_cgroup_version_name(enum vms_cgroup_version v);

#endif
