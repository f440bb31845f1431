/* What one run leaves in the result, measured from outside the child: its rusage, the host's
 * memory at its start, the clean state before it, its figures as metrics, and why the emulated
 * machine's OOM killer ended it. Part of the runner (workloads/runner.c). */
#include "workloads/run-figures.h"

#include <stdio.h>
#include <unistd.h>

#include "core/metric.h"
#include "core/procfs.h"
#include "core/util.h"
#include "workloads/series.h"

json_t *vms_run_rusage_json(const struct rusage *ru)
{
	return json_pack("{s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "user_s",
	                 vms_timeval_seconds(&ru->ru_utime), "sys_s",
	                 vms_timeval_seconds(&ru->ru_stime), "maxrss_kib",
	                 (json_int_t)ru->ru_maxrss, "minflt", (json_int_t)ru->ru_minflt, "majflt",
	                 (json_int_t)ru->ru_majflt, "nvcsw", (json_int_t)ru->ru_nvcsw, "nivcsw",
	                 (json_int_t)ru->ru_nivcsw, "inblock", (json_int_t)ru->ru_inblock,
	                 "oublock", (json_int_t)ru->ru_oublock);
}

json_t *vms_run_start_state_json(void)
{
	struct vms_meminfo mi;

	if (vms_meminfo_read(&mi, NULL))
		return json_null();
	return json_pack(
	    "{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "mem_free_bytes", (json_int_t)mi.mem_free,
	    "mem_available_bytes", (json_int_t)mi.mem_available, "cached_bytes",
	    (json_int_t)mi.cached, "dirty_bytes", (json_int_t)mi.dirty, "writeback_bytes",
	    (json_int_t)mi.writeback, "swap_used_bytes", (json_int_t)(mi.swap_total - mi.swap_free),
	    "anon_bytes", (json_int_t)mi.anon);
}

/* sync, then drop the page cache, dentries and inodes when allowed. Returns what was done. */
const char *vms_run_clean_state(int drop)
{
	sync();
	if (!drop)
		return "sync";
	if (geteuid() != 0 || vms_write_text("/proc/sys/vm/drop_caches", "3\n"))
		return "sync (drop_caches not permitted)";
	return "sync+drop_caches";
}

/* The run's figures from outside. host_wide: record the host-wide OOM kill and reclaim scan
 * counts, which only a run without a memory cgroup does: in the emulated machine the kill count
 * would count kills in every other cgroup on the host as this run's (cgroup_oom_kill is the
 * run's own), and /proc/vmstat's pgscan_ and pgsteal_ leave out the cgroup's limit reclaim
 * (vms_run_put_cgroup_metrics() takes them from its memory.stat). */
void vms_run_put_metrics(json_t *metrics, size_t run, const struct rusage *ru, double t0, double t1,
                         uint64_t bytes, const struct vms_vmstat *b, const struct vms_vmstat *a,
                         const struct vms_psi *pb, const struct vms_psi *pa, int host_wide,
                         int thrashing)
{
	double user = vms_timeval_seconds(&ru->ru_utime), sys = vms_timeval_seconds(&ru->ru_stime),
	       el = t1 - t0;

#define D(name) ((double)(vms_vmstat_get(a, name) - vms_vmstat_get(b, name)))
#define S(prefix, split)                                                                           \
	((double)(vms_vmstat_sum(a, prefix, split) - vms_vmstat_sum(b, prefix, split)))
	vms_metric_record(metrics, "bytes_allocated", run, (double)bytes);
	vms_metric_record(metrics, "elapsed_s", run, el);
	vms_metric_record(metrics, "user_s", run, user);
	vms_metric_record(metrics, "sys_s", run, sys);
	vms_metric_record(metrics, "cpu_pct", run, el > 0 ? 100 * (user + sys) / el : 0);
	vms_metric_record(metrics, "major_faults", run, (double)ru->ru_majflt);
	vms_metric_record(metrics, "minor_faults", run, (double)ru->ru_minflt);
	vms_metric_record(metrics, "max_rss_kib", run, (double)ru->ru_maxrss);
	vms_metric_record(metrics, "nvcsw", run, (double)ru->ru_nvcsw);
	vms_metric_record(metrics, "nivcsw", run, (double)ru->ru_nivcsw);
	vms_metric_record(metrics, "inblock", run, (double)ru->ru_inblock);
	vms_metric_record(metrics, "oublock", run, (double)ru->ru_oublock);
	vms_metric_record(metrics, "pswpin", run, D("pswpin"));
	vms_metric_record(metrics, "pswpout", run, D("pswpout"));
	/* what zswap took in front of the swap device (no pswpout for those pages); 0 without
	 * zswap, which then stores nothing */
	vms_metric_record(metrics, "zswpin", run, D("zswpin"));
	vms_metric_record(metrics, "zswpout", run, D("zswpout"));
	if (host_wide) {
		vms_metric_record(metrics, "pgscan", run, S("pgscan_", 1));
		vms_metric_record(metrics, "pgsteal", run, S("pgsteal_", 1));
	}
	vms_metric_record(metrics, "allocstall", run, S("allocstall_", 0));
	vms_metric_record(metrics, "workingset_refault", run, S("workingset_refault_", 0));
	if (host_wide)
		vms_metric_record(metrics, "oom_kill", run, D("oom_kill"));
	if (thrashing && el > 0)
		vms_metric_record(metrics, "pswpin_per_s", run, D("pswpin") / el);
#undef D
#undef S
	if (pa->available[VMS_PSI_MEMORY] && pb->available[VMS_PSI_MEMORY]) {
		vms_metric_record(metrics, "psi_memory_some_ms", run,
		                  (double)(pa->some_us[0] - pb->some_us[0]) / 1000);
		vms_metric_record(metrics, "psi_memory_full_ms", run,
		                  (double)(pa->full_us[0] - pb->full_us[0]) / 1000);
		if (thrashing && el > 0)
			vms_metric_record(metrics, "psi_memory_some_pct", run,
			                  (double)(pa->some_us[0] - pb->some_us[0]) / 1e4 / el);
	}
	if (pa->available[VMS_PSI_IO] && pb->available[VMS_PSI_IO]) {
		vms_metric_record(metrics, "psi_io_some_ms", run,
		                  (double)(pa->some_us[1] - pb->some_us[1]) / 1000);
		vms_metric_record(metrics, "psi_io_full_ms", run,
		                  (double)(pa->full_us[1] - pb->full_us[1]) / 1000);
	}
}

/* The emulated machine's own figures as metrics: how close the run came to the limit, and its
 * reclaim. The reclaim scan counts come from its memory.stat: the cgroup's limit reclaim is not
 * in /proc/vmstat's pgscan_ and pgsteal_ (the kernel counts there only reclaim that no cgroup
 * limit started). v1's memory.stat has no scan counters: there the metrics are left out, not
 * recorded as 0. */
void vms_run_put_cgroup_metrics(json_t *metrics, size_t run, const json_t *cg)
{
	static const struct {
		const char *key, *metric;
	} map[] = {
	    {"peak_bytes", "cgroup_peak_bytes"},
	    {"limit_hits", "cgroup_limit_hits"},
	    {"oom_kill", "cgroup_oom_kill"},
	};
	static const char *const from_stat[] = {"pgscan", "pgsteal"};
	const json_t *sd = json_object_get(cg, "stat_delta");
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(map); i++) {
		json_t *v = json_object_get(cg, map[i].key);

		if (json_is_number(v))
			vms_metric_record(metrics, map[i].metric, run, json_number_value(v));
	}
	for (i = 0; i < VMS_ARRAY_SIZE(from_stat); i++) {
		json_t *v = json_object_get(sd, from_stat[i]);

		if (json_is_integer(v))
			vms_metric_record(metrics, from_stat[i], run,
			                  (double)json_integer_value(v));
	}
}

/* Why a run the emulated machine's OOM killer ended failed: the machine's size and how full it
 * was, so that the reader sees whether the workload outgrew it or the kernel gave up early. */
void vms_run_cgroup_oom_reason(char *buf, size_t len, const struct vms_cgroup *cg,
                               const struct vms_cgroup_stats *after)
{
	char ram[32] = "unlimited", swap[48] = "and no swap", size[32], peak[32] = "?";
	uint64_t effective_swap = vms_cgroup_effective_swap(cg);

	if (after->peak != VMS_CGROUP_NA)
		vms_format_size(after->peak, peak, sizeof(peak));
	if (cg->mem_limit != VMS_CGROUP_UNLIMITED)
		vms_format_size(cg->mem_limit, ram, sizeof(ram));
	if (effective_swap)
		snprintf(swap, sizeof(swap), "+ %s swap",
		         vms_format_size(effective_swap, size, sizeof(size)));
	snprintf(buf, len,
	         "killed by the memory cgroup's OOM killer (signal 9): the emulated machine has "
	         "%s RAM %s (cgroup %s, peak %s this run); the kernel log's \"Memory cgroup out "
	         "of memory\" report names the victim and what was in use",
	         ram, swap, vms_cgroup_version_name(cg->version), peak);
}
