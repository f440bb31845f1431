/* Readers for the system-wide VM state: /proc/vmstat, /proc/meminfo and PSI
 * (/proc/pressure/{memory,io,cpu}). Snapshots are plain structs so the 10 Hz sampler can take
 * them without allocating; deltas become JSON objects for the result file. */
#ifndef VMS_PROCFS_H
#define VMS_PROCFS_H

#include <jansson.h>
#include <stdint.h>

#define VMS_VMSTAT_MAX 256

struct vms_vmstat {
	unsigned n;
	struct {
		char name[64];
		uint64_t value;
	} kv[VMS_VMSTAT_MAX];
};

/* Reads /proc/vmstat (or `path` when not NULL, for tests). 0 or -errno. */
int vms_vmstat_read(struct vms_vmstat *s, const char *path);
/* The value of a counter, or 0 when the kernel does not have it. */
uint64_t vms_vmstat_get(const struct vms_vmstat *s, const char *name);
/* The SPEC §5 counters (pgfault, pgmajfault, pswpin/out, pgpgin/out, pgscan_*, pgsteal_*,
 * allocstall_*, workingset_refault_*, compact_stall, oom_kill, thp_fault_*) as after - before.
 * Counters absent in `after` are left out. Returns a new object. */
json_t *vms_vmstat_delta_json(const struct vms_vmstat *before, const struct vms_vmstat *after);

enum vms_psi_resource { VMS_PSI_MEMORY, VMS_PSI_IO, VMS_PSI_CPU, VMS_PSI_NR };

struct vms_psi {
	int available[VMS_PSI_NR];
	uint64_t some_us[VMS_PSI_NR]; /* "some" total stall time, microseconds */
	uint64_t full_us[VMS_PSI_NR]; /* "full" total (0 where the kernel has no full line) */
};

/* Reads /proc/pressure/<resource> files from dir (NULL = "/proc/pressure"; a cgroup v2
 * directory with memory.pressure works too when prefix is "memory." style — see below).
 * Resources that cannot be read have available[r] = 0. Always returns 0. */
int vms_psi_read(struct vms_psi *p, const char *dir);
/* Reads one PSI file ("some avg10=... total=N" / "full ..."). 0 or -errno. */
int vms_psi_read_file(const char *path, uint64_t *some_us, uint64_t *full_us);
/* {"memory": {"some_us": d, "full_us": d}, "io": ..., "cpu": ...} of after - before. */
json_t *vms_psi_delta_json(const struct vms_psi *before, const struct vms_psi *after);
const char *vms_psi_name(enum vms_psi_resource r);

struct vms_meminfo {
	uint64_t mem_total, mem_free, mem_available, cached, dirty, writeback;
	uint64_t swap_total, swap_free, anon, shmem; /* all in bytes */
};

/* Reads /proc/meminfo (or path). 0 or -errno. */
int vms_meminfo_read(struct vms_meminfo *m, const char *path);

#endif
