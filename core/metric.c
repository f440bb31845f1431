/* The metric catalogue (one row per metric vmsuite records or derives) and the gap causes.
 * Everything that writes or reads a metric by name goes through this table. No kernel paths. */
#include "core/metric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define L VMS_BETTER_LOWER
#define H VMS_BETTER_HIGHER
#define N VMS_BETTER_NONE
#define G VMS_KIND_GAUGE
#define C VMS_KIND_COUNT

/* name, unit, better, kind, primary, group, source, label, precision, description */
const struct vms_metric_def vms_metric_defs[] = {
    {"bytes_allocated", "bytes", N, G, 0, VMS_GROUP_WORKLOAD, VMS_SOURCE_RUNNER, "bytes allocated",
     0,
     "reported by the workload (mmap001: the mapping; mtest01: the 2001 byte count, which "
     "starts at one chunk; mmap002: 3R)"},
    {"pages_touched_per_s", "pages/s", H, G, 1, VMS_GROUP_WORKLOAD, VMS_SOURCE_RUNNER,
     "pages touched per second", 0,
     "measured by the workload itself (memload: random page stores per second of its run; "
     "falls when the working set thrashes)"},
    {"elapsed_s", "s", L, G, 1, VMS_GROUP_TIME, VMS_SOURCE_RUNNER, "elapsed", 2,
     "CLOCK_MONOTONIC from fork to the pidfd turning readable"},
    {"user_s", "s", L, G, 0, VMS_GROUP_TIME, VMS_SOURCE_RUNNER, "user time", 3,
     "`wait4()` rusage user time of the child"},
    {"sys_s", "s", L, G, 1, VMS_GROUP_TIME, VMS_SOURCE_RUNNER, "system time", 3,
     "`wait4()` rusage system time of the child"},
    {"cpu_pct", "%", N, G, 0, VMS_GROUP_TIME, VMS_SOURCE_RUNNER, "CPU", 2,
     "100 × (user + sys) / elapsed"},
    {"major_faults", "faults", L, G, 0, VMS_GROUP_PROCESS, VMS_SOURCE_RUNNER, "major faults", 1,
     "rusage `ru_majflt`: faults that needed I/O"},
    {"minor_faults", "faults", L, G, 0, VMS_GROUP_PROCESS, VMS_SOURCE_RUNNER, "minor faults", 1,
     "rusage `ru_minflt`: faults served without I/O"},
    {"max_rss_kib", "KiB", N, G, 0, VMS_GROUP_PROCESS, VMS_SOURCE_RUNNER, "max RSS", 0,
     "rusage `ru_maxrss`"},
    {"nvcsw", "switches", L, G, 0, VMS_GROUP_PROCESS, VMS_SOURCE_RUNNER, "voluntary switches", 0,
     "rusage `ru_nvcsw`: voluntary context switches"},
    {"nivcsw", "switches", L, G, 0, VMS_GROUP_PROCESS, VMS_SOURCE_RUNNER, "involuntary switches", 0,
     "rusage `ru_nivcsw`: involuntary context switches"},
    {"inblock", "blocks", L, G, 0, VMS_GROUP_PROCESS, VMS_SOURCE_RUNNER, "blocks in", 0,
     "rusage `ru_inblock`, 512-byte blocks"},
    {"oublock", "blocks", N, G, 0, VMS_GROUP_PROCESS, VMS_SOURCE_RUNNER, "blocks out", 0,
     "rusage `ru_oublock`, 512-byte blocks"},
    {"pswpin", "pages", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "swap in", 0,
     "`/proc/vmstat pswpin` delta over the run"},
    {"pswpin_per_s", "pages/s", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "swap-ins/s", 0,
     "`pswpin` / `elapsed_s`: how fast the run's pages came back from swap; recorded for a "
     "thrashing load (memload)"},
    {"pswpout", "pages", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "swap out", 0,
     "`/proc/vmstat pswpout` delta over the run"},
    {"pgscan", "pages", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "scanned", 0,
     "sum of `pgscan_{kswapd,direct,khugepaged,proactive}` deltas; the `_anon`/`_file` splits "
     "are not added twice"},
    {"pgsteal", "pages", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "stolen", 0,
     "sum of `pgsteal_*` deltas, counted like `pgscan`"},
    {"allocstall", "stalls", L, C, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "allocstalls", 0,
     "sum of `allocstall_*` deltas: direct reclaim entries"},
    {"workingset_refault", "pages", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "refaults", 0,
     "`workingset_refault_anon + _file` deltas"},
    {"oom_kill", "kills", L, C, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "host OOM kills", 0,
     "`/proc/vmstat oom_kill` delta: kills anywhere on the host, in any cgroup; recorded only "
     "for runs without a memory cgroup (in one, `cgroup_oom_kill` is the run's own)"},
    {"psi_memory_some_ms", "ms", L, G, 0, VMS_GROUP_PRESSURE, VMS_SOURCE_RUNNER,
     "memory pressure (some)", 0, "`/proc/pressure/memory` some total delta"},
    {"psi_memory_some_pct", "%", L, G, 0, VMS_GROUP_PRESSURE, VMS_SOURCE_RUNNER,
     "memory pressure share (some)", 1,
     "100 × `psi_memory_some_ms` / `elapsed_s`: the share of the run with some task stalled "
     "on memory (host-wide `/proc/pressure/memory`); recorded for a thrashing load (memload)"},
    {"psi_memory_full_ms", "ms", L, G, 0, VMS_GROUP_PRESSURE, VMS_SOURCE_RUNNER,
     "memory pressure (full)", 0, "`/proc/pressure/memory` full total delta"},
    {"psi_io_some_ms", "ms", L, G, 0, VMS_GROUP_PRESSURE, VMS_SOURCE_RUNNER, "io pressure (some)",
     0, "`/proc/pressure/io` some total delta"},
    {"psi_io_full_ms", "ms", L, G, 0, VMS_GROUP_PRESSURE, VMS_SOURCE_RUNNER, "io pressure (full)",
     0, "`/proc/pressure/io` full total delta"},
    {"cgroup_peak_bytes", "bytes", N, G, 0, VMS_GROUP_CGROUP, VMS_SOURCE_RUNNER, "cgroup peak", 0,
     "the emulated machine's memory peak during the run"},
    {"cgroup_limit_hits", "events", L, G, 0, VMS_GROUP_CGROUP, VMS_SOURCE_RUNNER, "limit hits", 0,
     "times the emulated machine's memory limit was hit (v2 `memory.events max`, v1 "
     "`memory.failcnt`)"},
    {"cgroup_oom_kill", "kills", L, C, 0, VMS_GROUP_CGROUP, VMS_SOURCE_RUNNER, "cgroup OOM kills",
     1, "OOM kills inside the emulated machine (its cgroup's own count)"},
    {"sound_rating", "score", H, G, 1, VMS_GROUP_SOUND, VMS_SOURCE_PROBE, "sound rating", 1,
     "10 × clean seconds / seconds; a second is clean when no gap touches it"},
    {"underruns", "count", L, C, 1, VMS_GROUP_SOUND, VMS_SOURCE_PROBE, "underruns", 0,
     "xruns the device reported"},
    {"skips", "count", L, C, 0, VMS_GROUP_SOUND, VMS_SOURCE_PROBE, "skips", 0,
     "audible interruptions: gaps less than 50 ms of sound apart count as one"},
    {"gap_total_ms", "ms", L, G, 0, VMS_GROUP_SOUND, VMS_SOURCE_PROBE, "silence", 0,
     "total silence in the window"},
    {"gap_longest_ms", "ms", L, G, 0, VMS_GROUP_SOUND, VMS_SOURCE_PROBE, "longest gap", 0,
     "the longest gap in the window"},
    {"played_s", "s", H, G, 0, VMS_GROUP_SOUND, VMS_SOURCE_PROBE, "played", 0,
     "window minus silence"},
    {"window_s", "s", N, G, 0, VMS_GROUP_SOUND, VMS_SOURCE_PROBE, "window", 0,
     "length of the window"},
    {"wake_p50_ms", "ms", L, G, 0, VMS_GROUP_LATENCY, VMS_SOURCE_PROBE, "p50 wake", 1,
     "median lateness of the player's wake-ups against the period boundary"},
    {"wake_p90_ms", "ms", L, G, 0, VMS_GROUP_LATENCY, VMS_SOURCE_PROBE, "p90 wake", 1,
     "90th percentile of wake-up lateness"},
    {"wake_p99_ms", "ms", L, G, 0, VMS_GROUP_LATENCY, VMS_SOURCE_PROBE, "p99 wake", 1,
     "99th percentile of wake-up lateness"},
    {"wake_p999_ms", "ms", L, G, 0, VMS_GROUP_LATENCY, VMS_SOURCE_PROBE, "p99.9 wake", 1,
     "99.9th percentile of wake-up lateness"},
    {"wake_max_ms", "ms", L, G, 0, VMS_GROUP_LATENCY, VMS_SOURCE_PROBE, "max wake", 1,
     "the latest wake-up"},
    {"headroom_min_ms", "ms", H, G, 0, VMS_GROUP_LATENCY, VMS_SOURCE_PROBE, "min headroom", 1,
     "the least audio left in the buffer at a wake-up; 0 in a window with an underrun"},
    {"headroom_p1_ms", "ms", H, G, 1, VMS_GROUP_LATENCY, VMS_SOURCE_PROBE, "p1 headroom", 1,
     "1st percentile of the audio left in the buffer at the player's wake-ups: how close it "
     "came to running dry, continuous where underruns are mostly zero"},
    {"near_misses", "count", L, C, 0, VMS_GROUP_LATENCY, VMS_SOURCE_PROBE, "near misses", 0,
     "wake-ups with less than one period left in the buffer"},
    {"decode_ms_per_s", "ms/s", L, G, 0, VMS_GROUP_PROBE, VMS_SOURCE_PROBE, "decode cost", 2,
     "the player's CPU inside libmpg123, ms per second of audio decoded"},
    {"probe_cpu_pct", "%", L, G, 0, VMS_GROUP_PROBE, VMS_SOURCE_PROBE, "probe CPU", 2,
     "the player's CPU share over the window (the probe's playing thread)"},
    {"probe_watch_cpu_pct", "%", L, G, 0, VMS_GROUP_PROBE, VMS_SOURCE_PROBE, "watcher CPU", 2,
     "the probe's watcher thread's CPU share: its periodic readings of the player, on another "
     "CPU when there is one"},
    {"probe_maxrss_kib", "KiB", L, G, 0, VMS_GROUP_PROBE, VMS_SOURCE_PROBE, "probe max RSS", 0,
     "the probe process's peak resident memory"},
    {"failed_runs", "runs", L, C, 1, VMS_GROUP_RUNS, VMS_SOURCE_RUNS, "failed runs", 0,
     "runs whose status is failed (1) among those that ended (ok or failed)"},
    {"oom_kills", "runs", L, C, 0, VMS_GROUP_RUNS, VMS_SOURCE_RUNS, "OOM-killed runs", 0,
     "runs whose child was killed by the OOM killer (in the emulated machine: by its "
     "cgroup's)"},
};

#undef L
#undef H
#undef N
#undef G
#undef C

size_t vms_metric_count(void)
{
	return VMS_ARRAY_SIZE(vms_metric_defs);
}

const struct vms_metric_def *vms_metric_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < VMS_ARRAY_SIZE(vms_metric_defs); i++)
		if (!strcmp(vms_metric_defs[i].name, name))
			return &vms_metric_defs[i];
	return NULL;
}

const char *vms_metric_group_name(enum vms_metric_group g)
{
	static const char *const names[VMS_GROUP_NR] = {
	    [VMS_GROUP_WORKLOAD] = "workload", [VMS_GROUP_TIME] = "time",
	    [VMS_GROUP_PROCESS] = "process",   [VMS_GROUP_RECLAIM] = "reclaim",
	    [VMS_GROUP_PRESSURE] = "pressure", [VMS_GROUP_CGROUP] = "cgroup",
	    [VMS_GROUP_SOUND] = "sound",       [VMS_GROUP_LATENCY] = "latency",
	    [VMS_GROUP_PROBE] = "probe",       [VMS_GROUP_RUNS] = "runs",
	};

	return (unsigned)g < VMS_GROUP_NR ? names[g] : "?";
}

const char *vms_metric_kind_name(enum vms_metric_kind k)
{
	return k == VMS_KIND_COUNT ? "count" : "gauge";
}

char *vms_metric_primary_names(const char *sep)
{
	char *out = vms_xstrdup(""), *next;
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(vms_metric_defs); i++) {
		if (!vms_metric_defs[i].primary)
			continue;
		next = vms_xasprintf("%s%s%s", out, *out ? sep : "", vms_metric_defs[i].name);
		free(out);
		out = next;
	}
	return out;
}

void vms_metric_record(json_t *metrics, const char *name, size_t run, double value)
{
	const struct vms_metric_def *d = vms_metric_find(name);
	json_t *m = json_object_get(metrics, name);
	json_t *samples;

	if (!d || d->source == VMS_SOURCE_RUNS) {
		fprintf(stderr,
		        "vmsuite: bug: metric '%s' is not a recorded metric of the catalogue\n",
		        name);
		abort();
	}
	if (!m) {
		m = json_pack("{s:s, s:s, s:b, s:s, s:[]}", "unit", d->unit, "better",
		              vms_better_name(d->better), "primary", d->primary, "kind",
		              vms_metric_kind_name(d->kind), "samples");
		if (!m)
			abort();
		json_object_set_new(metrics, name, m);
	}
	samples = json_object_get(m, "samples");
	while (json_array_size(samples) <= run)
		json_array_append_new(samples, json_null());
	json_array_set_new(samples, run, json_real(value));
}

void vms_metric_set_primary(json_t *metrics, const char *name, int primary)
{
	json_t *m = json_object_get(metrics, name);

	if (m)
		json_object_set_new(m, "primary", json_boolean(primary));
}

#define D VMS_CAUSE_BY_DELAYACCT
#define I VMS_CAUSE_BY_INFERENCE
static const struct {
	const char *name, *description;
	unsigned methods;
} causes[VMS_CAUSE_NR] = {
    [VMS_CAUSE_PAGING] = {"paging", "the player took a major fault", I},
    [VMS_CAUSE_RUNQUEUE] = {"runqueue", "the player waited to run for half its lateness or more",
                            D | I},
    [VMS_CAUSE_SWAPIN] = {"swapin", "the player waited for its pages to come back from swap", D},
    [VMS_CAUSE_RECLAIM] = {"reclaim",
                           "the player reclaimed memory itself before it could allocate "
                           "(direct reclaim)",
                           D},
    [VMS_CAUSE_THRASHING] = {"thrashing",
                             "the player waited for a page it had just lost to be read back "
                             "(a refault)",
                             D},
    [VMS_CAUSE_IO] = {"io",
                      "the player waited for block I/O (delayacct), or I/O pressure grew while "
                      "it was blocked (inference)",
                      D | I},
    [VMS_CAUSE_COMPACTION] = {"compaction", "the player compacted memory for an allocation", D},
    [VMS_CAUSE_DECODE] = {"decode", "the player's own CPU time explains its lateness", D | I},
    [VMS_CAUSE_UNEXPLAINED] = {"unexplained", "no recorded evidence explains the gap", D | I},
    [VMS_CAUSE_PROBE_DIED] = {"probe_died", "the probe process died: the sound stopped", 0},
};
#undef D
#undef I

const char *vms_cause_method_name(unsigned method)
{
	return method == VMS_CAUSE_BY_DELAYACCT ? "delayacct" : "inference";
}

unsigned vms_cause_methods(enum vms_cause c)
{
	return (unsigned)c < VMS_CAUSE_NR ? causes[c].methods : 0;
}

const char *vms_cause_name(enum vms_cause c)
{
	return (unsigned)c < VMS_CAUSE_NR ? causes[c].name : causes[VMS_CAUSE_UNEXPLAINED].name;
}

const char *vms_cause_description(enum vms_cause c)
{
	return (unsigned)c < VMS_CAUSE_NR ? causes[c].description : "";
}

int vms_cause_find(const char *name)
{
	int i;

	for (i = 0; name && i < VMS_CAUSE_NR; i++)
		if (!strcmp(causes[i].name, name))
			return i;
	return -1;
}
