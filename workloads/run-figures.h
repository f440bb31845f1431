/* What one run leaves in the result, measured from outside the child (workloads/runner.c runs
 * it): its rusage, the host's memory at its start, the clean state before it, its figures as
 * metrics, and why the emulated machine's OOM killer ended it. No kernel paths but
 * /proc/meminfo (read) and /proc/sys/vm/drop_caches (written by vms_run_clean_state). */
#ifndef VMS_RUN_FIGURES_H
#define VMS_RUN_FIGURES_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "core/cgroup.h"
#include "core/procfs.h"

/* The rusage object of a run (user_s, sys_s, maxrss_kib, faults, switches, blocks). New. */
json_t *vms_run_rusage_json(const struct rusage *ru);
/* The host's memory at the start of a run (/proc/meminfo), or JSON null. New. */
json_t *vms_run_start_state_json(void);
/* sync, then drop the page cache, dentries and inodes when drop and allowed. Returns what was
 * done ("sync", "sync+drop_caches", "sync (drop_caches not permitted)"). */
const char *vms_run_clean_state(int drop);
/* The run's figures from outside, as sample `run` of the metrics: rusage, elapsed t1 - t0,
 * /proc/vmstat deltas b -> a, PSI pb -> pa. host_wide: record the host-wide OOM kill count and
 * pgscan/pgsteal, which only a run without a memory cgroup does (in the emulated machine the
 * kill count would count kills in every other cgroup on the host as this run's, and
 * /proc/vmstat leaves out the cgroup's limit reclaim). thrashing: the thrashing figures too. */
void vms_run_put_metrics(json_t *metrics, size_t run, const struct rusage *ru, double t0, double t1,
                         uint64_t bytes, const struct vms_vmstat *b, const struct vms_vmstat *a,
                         const struct vms_psi *pb, const struct vms_psi *pa, int host_wide,
                         int thrashing);
/* The emulated machine's own figures (the run's cgroup object cg, vms_cgroup_delta_json()) as
 * metrics: cgroup_peak_bytes, cgroup_limit_hits, cgroup_oom_kill, and pgscan/pgsteal from its
 * memory.stat delta where the kernel has them (v2; v1's memory.stat has none: left out). */
void vms_run_put_cgroup_metrics(json_t *metrics, size_t run, const json_t *cg);
/* Why a run the emulated machine's OOM killer ended failed: the machine's size and how full it
 * was, so that the reader sees whether the workload outgrew it or the kernel gave up early. */
void vms_run_cgroup_oom_reason(char *buf, size_t len, const struct vms_cgroup *cg,
                               const struct vms_cgroup_stats *after);
#endif
