/* The ~10 Hz time series of one workload run: vmstat counters, PSI, /proc/meminfo and the
 * emulated machine's cgroup usage, sampled by the runner while the child runs and stored in
 * the run's "series" (docs/result-format.md). Reads /proc/vmstat, /proc/pressure,
 * /proc/meminfo and the memory cgroup's usage file. */
#ifndef VMS_SERIES_H
#define VMS_SERIES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cgroup.h"
#include "core/procfs.h"

enum vms_series_col {
	VMS_SERIES_PGFAULT,
	VMS_SERIES_PGMAJFAULT,
	VMS_SERIES_PSWPIN,
	VMS_SERIES_PSWPOUT,
	VMS_SERIES_PGSCAN,
	VMS_SERIES_PGSTEAL,
	VMS_SERIES_PSI_MEM_SOME,
	VMS_SERIES_PSI_IO_SOME,
	VMS_SERIES_MEM_FREE,
	VMS_SERIES_DIRTY,
	VMS_SERIES_WRITEBACK,
	VMS_SERIES_SWAP_USED,
	VMS_SERIES_CGROUP_USAGE,
	VMS_SERIES_NR
};

struct vms_series_sample {
	double t;
	uint64_t v[VMS_SERIES_NR];
};

/* The samples of one run; cg is sampled too when not NULL. Zero-initialise, set cg, then
 * vms_series_take() at each tick; free(s) when done. */
struct vms_series {
	struct vms_series_sample *s;
	size_t n, cap;
	const struct vms_cgroup *cg; /* sampled too when not NULL */
	struct vms_vmstat vm;        /* scratch, too large for the stack of a tight loop */
};

/* The sum of the vmstat counters whose names start with prefix; with skip_type_split, the
 * _anon/_file/_direct_throttle splits of pgscan_/pgsteal_ are left out (same pages). */
uint64_t vms_vmstat_sum(const struct vms_vmstat *s, const char *prefix, int skip_type_split);
/* Appends a sample taken now, at t seconds since the run started. Aborts on out-of-memory
 * (the tool's own allocation); a file that cannot be read leaves its columns 0. */
void vms_series_take(struct vms_series *se, double t);
/* The series as the result's "series" object (counters as increases since the first
 * sample); interval_s is 1 / hz. Returns a new reference. */
json_t *vms_series_json(const struct vms_series *se, double hz);

#endif
