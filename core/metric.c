/* The metric catalogue (one row per metric vmsuite records or derives) and the gap causes.
 * Everything that writes or reads a metric by name goes through this table. No kernel paths. */
#include "core/metric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

const char *vms_better_name(enum vms_better b)
{
	switch (b) {
	case VMS_BETTER_LOWER: return "lower";
	case VMS_BETTER_HIGHER: return "higher";
	default: return "none";
	}
}

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
    {"zswpin", "pages", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "zswap in", 0,
     "`/proc/vmstat zswpin` delta over the run: pages faulted back from zswap's compressed "
     "pool (not in `pswpin`); 0 without zswap"},
    {"zswpout", "pages", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "zswap out", 0,
     "`/proc/vmstat zswpout` delta over the run: pages swapped out into zswap's compressed "
     "pool instead of the swap device (not in `pswpout`); 0 without zswap"},
    {"pgscan", "pages", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "scanned", 0,
     "pages reclaim scanned: in the emulated machine its memory cgroup's `memory.stat pgscan` "
     "delta (cgroup v2; v1's memory.stat has no scan counters, so the metric is left out "
     "there), else the sum of `/proc/vmstat pgscan_{kswapd,direct,khugepaged,proactive}` "
     "deltas, the `_anon`/`_file` splits not added twice (`/proc/vmstat` leaves out the "
     "reclaim a cgroup's limit starts)"},
    {"pgsteal", "pages", L, G, 0, VMS_GROUP_RECLAIM, VMS_SOURCE_RUNNER, "stolen", 0,
     "pages reclaim freed, read where `pgscan` is read (`memory.stat pgsteal`, or the sum "
     "of `/proc/vmstat pgsteal_*`)"},
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
    {"other_cpu_pct", "%", N, G, 0, VMS_GROUP_MACHINE, VMS_SOURCE_RUNNER, "other processes' CPU", 1,
     "CPU time user-space processes outside the suite used on the emulated machine's CPUs, % "
     "of elapsed × CPUs (`/proc/stat` per CPU less the suite's; see `runs[].busy`): above "
     "`--disturbed-above` (5) the run is disturbed"},
    {"kthread_cpu_pct", "%", N, G, 0, VMS_GROUP_MACHINE, VMS_SOURCE_RUNNER, "kernel threads' CPU",
     1,
     "kernel threads' and interrupts' time on the emulated machine's CPUs, % of elapsed × "
     "CPUs: the kernel's own work, never a disturbance"},
    {"steal_pct", "%", N, G, 0, VMS_GROUP_MACHINE, VMS_SOURCE_RUNNER, "steal", 1,
     "`/proc/stat` steal on the emulated machine's CPUs: time the hypervisor gave to others, % "
     "of elapsed × CPUs"},
    {"cpu_wait_pct", "%", N, G, 0, VMS_GROUP_MACHINE, VMS_SOURCE_RUNNER, "run-queue wait", 1,
     "the workload's threads' time runnable but waiting for a CPU (`/proc/PID/schedstat`), % "
     "of elapsed: evidence, since a CPU quota and kernel threads also cause it"},
    {"other_io_mb", "MiB", N, G, 0, VMS_GROUP_MACHINE, VMS_SOURCE_RUNNER, "other processes' I/O", 1,
     "sectors read and written on the work filesystem's block device during the run less the "
     "workload's own (rusage inblock + oublock) and swap on that device, MiB, at least 0 (see "
     "`runs[].busy.io`): evidence, since writeback of others' earlier dirty pages, metadata and "
     "the journal also count"},
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
	    [VMS_GROUP_MACHINE] = "machine",   [VMS_GROUP_SOUND] = "sound",
	    [VMS_GROUP_LATENCY] = "latency",   [VMS_GROUP_PROBE] = "probe",
	    [VMS_GROUP_RUNS] = "runs",
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

/* The hatches differ in shape as well as colour, so that causes stay apart in greyscale. */
#define D VMS_CAUSE_BY_DELAYACCT
#define I VMS_CAUSE_BY_INFERENCE
/* The cause table: the one source of what the help, reports and compare say of a gap cause.
 * Adding a cause: its value in enum vms_cause (core/metric.h), its row here, its producer in
 * the audio probe; the checklist is in core/metric.h. */
const struct vms_cause_def vms_cause_defs[VMS_CAUSE_NR] = {
    [VMS_CAUSE_PAGING] =
        {.name = "paging",
         .label = "paging",
         .description = "the player took a major fault",
         .methods = I,
         .stroke = "#b3261e",
         .pattern = "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
                    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" "
                    "fill=\"#f4c7c3\" fill-opacity=\".55\"/><line x1=\"0\" y1=\"0\" x2=\"0\" "
                    "y2=\"6\" stroke=\"#b3261e\" stroke-width=\"2.5\"/>"},
    [VMS_CAUSE_RUNQUEUE] =
        {.name = "runqueue",
         .label = "run queue",
         .description = "the player waited to run for half its lateness or more",
         .methods = D | I,
         .evidence = "runqueue_ms",
         .stroke = "#6a3d9a",
         .pattern = "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" "
                    "height=\"6\" fill=\"#dcd0ec\" fill-opacity=\".55\"/><path d=\"M0 3H6M3 "
                    "0V6\" stroke=\"#6a3d9a\" stroke-width=\"1\"/>"},
    [VMS_CAUSE_SWAPIN] =
        {.name = "swapin",
         .label = "swap-in",
         .description = "the player waited for its pages to come back from swap",
         .methods = D,
         .evidence = "swapin_ms",
         .stroke = "#c51b7d",
         .pattern = "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
                    "patternTransform=\"rotate(-45)\"><rect width=\"6\" height=\"6\" "
                    "fill=\"#f7c6df\" fill-opacity=\".55\"/><line x1=\"0\" y1=\"0\" x2=\"0\" "
                    "y2=\"6\" stroke=\"#c51b7d\" stroke-width=\"2\"/>"},
    [VMS_CAUSE_RECLAIM] =
        {.name = "reclaim",
         .label = "reclaim",
         .description = "the player reclaimed memory itself before it could allocate "
                        "(direct reclaim)",
         .methods = D,
         .evidence = "reclaim_ms",
         .stroke = "#d6604d",
         .pattern = "width=\"7\" height=\"7\" patternUnits=\"userSpaceOnUse\"><rect width=\"7\" "
                    "height=\"7\" fill=\"#f9d2c4\" fill-opacity=\".55\"/><path d=\"M0 7L3.5 "
                    "0L7 7\" fill=\"none\" stroke=\"#d6604d\" stroke-width=\"1.2\"/>"},
    [VMS_CAUSE_THRASHING] =
        {.name = "thrashing",
         .label = "thrashing",
         .description = "the player waited for a page it had just lost to be read back "
                        "(a refault)",
         .methods = D,
         .evidence = "thrashing_ms",
         .stroke = "#7a7a00",
         .pattern = "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" "
                    "height=\"6\" fill=\"#ecebb0\" fill-opacity=\".55\"/><path d=\"M0 0L6 "
                    "6M6 0L0 6\" stroke=\"#7a7a00\" stroke-width=\"1\"/>"},
    [VMS_CAUSE_IO] =
        {.name = "io",
         .label = "block I/O",
         .description = "the player waited for block I/O (delayacct), or I/O pressure grew "
                        "while it was blocked (inference)",
         .methods = D | I,
         .evidence = "io_ms",
         .stroke = "#8c510a",
         .pattern = "width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\"><rect width=\"5\" "
                    "height=\"5\" fill=\"#f0dcb8\" fill-opacity=\".55\"/><circle cx=\"2.5\" "
                    "cy=\"2.5\" r=\"1.2\" fill=\"#8c510a\"/>"},
    [VMS_CAUSE_COMPACTION] =
        {.name = "compaction",
         .label = "compaction",
         .description = "the player compacted memory for an allocation",
         .methods = D,
         .evidence = "compaction_ms",
         .stroke = "#35978f",
         .pattern = "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" "
                    "height=\"6\" fill=\"#cdeae7\" fill-opacity=\".55\"/><rect x=\"1.5\" "
                    "y=\"1.5\" width=\"3\" height=\"3\" fill=\"#35978f\"/>"},
    [VMS_CAUSE_DECODE] =
        {.name = "decode",
         .label = "decode",
         .description = "the player's own CPU time explains its lateness",
         .methods = D | I,
         .stroke = "#01665e",
         .pattern = "width=\"6\" height=\"4\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" "
                    "height=\"4\" fill=\"#c7eae5\" fill-opacity=\".55\"/><line x1=\"0\" "
                    "y1=\"2\" x2=\"6\" y2=\"2\" stroke=\"#01665e\" stroke-width=\"1.2\"/>"},
    [VMS_CAUSE_UNEXPLAINED] =
        {.name = "unexplained",
         .label = "unexplained",
         .description = "no recorded evidence explains the gap",
         .methods = D | I,
         .stroke = "#555",
         .pattern = "width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\"><rect width=\"4\" "
                    "height=\"4\" fill=\"#bbb\" fill-opacity=\".6\"/>"},
    [VMS_CAUSE_PROBE_DIED] = {.name = "probe_died",
                              .label = "probe died",
                              .description = "the probe process died: the sound stopped",
                              .methods = 0,
                              .stroke = "#555"},
#ifdef VMS_TEST_EXTRA_CAUSE
    [VMS_CAUSE_TEST_EXTRA] = {.name = "test_extra",
                              .label = "test extra",
                              .description = "a cause only the test build knows",
                              .methods = D | I,
                              .evidence = "test_extra_ms",
                              .stroke = "#123456",
                              .pattern = "width=\"3\" height=\"3\" patternUnits=\"userSpaceOnUse\">"
                                         "<rect width=\"3\" height=\"3\" fill=\"#abcdef\"/>"},
#endif
};
#undef D
#undef I

const char *vms_cause_method_name(unsigned method)
{
	return method == VMS_CAUSE_BY_DELAYACCT ? "delayacct" : "inference";
}

unsigned vms_cause_methods(enum vms_cause c)
{
	return (unsigned)c < VMS_CAUSE_NR ? vms_cause_defs[c].methods : 0;
}

const char *vms_cause_name(enum vms_cause c)
{
	return vms_cause_defs[(unsigned)c < VMS_CAUSE_NR ? c : VMS_CAUSE_UNEXPLAINED].name;
}

const char *vms_cause_description(enum vms_cause c)
{
	return (unsigned)c < VMS_CAUSE_NR ? vms_cause_defs[c].description : "";
}

int vms_cause_find(const char *name)
{
	int i;

	for (i = 0; name && i < VMS_CAUSE_NR; i++)
		if (!strcmp(vms_cause_defs[i].name, name))
			return i;
	return -1;
}

void vms_cause_delays_line(char *buf, size_t len, const json_t *evidence)
{
	const char *sep = "";
	size_t i, off = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < VMS_CAUSE_NR && off + 1 < len; i++) {
		const struct vms_cause_def *c = &vms_cause_defs[i];
		const json_t *v = c->evidence ? json_object_get(evidence, c->evidence) : NULL;

		if (!c->evidence)
			continue;
		snprintf(buf + off, len - off, "%s%s %.0f", sep, c->label,
		         json_is_number(v) ? json_number_value(v) : 0.0);
		off += strlen(buf + off);
		sep = ", ";
	}
}

char *vms_cause_names(const char *sep)
{
	char *out = vms_xstrdup(""), *next;
	size_t i;

	for (i = 0; i < VMS_CAUSE_NR; i++) {
		next = vms_xasprintf("%s%s%s", out, i ? sep : "", vms_cause_defs[i].name);
		free(out);
		out = next;
	}
	return out;
}
