/* Readers for the system-wide VM state: /proc/vmstat, /proc/meminfo and PSI
 * (/proc/pressure/{memory,io,cpu}); snapshots are plain structs so the 10 Hz sampler can take
 * them without allocating. Also the parsers of /proc/self/mountinfo and /proc/self/cgroup, and
 * of the CPU accounting files: /proc/stat per CPU, /proc/<pid>/stat and /proc/<pid>/schedstat. */
#ifndef VMS_PROCFS_H
#define VMS_PROCFS_H

#include <jansson.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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
/* The counters a run records as "vmstat_delta" (docs/result-format.md): pgfault, pgmajfault,
 * pswpin/out, zswpin/out, zswpwb, pgpgin/out, pgscan_*, pgsteal_*, allocstall_*,
 * workingset_refault_*, compact_stall, oom_kill and thp_fault_*, as after - before. Counters absent
 * in `after` are left out. Returns a new object. */
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

struct vms_meminfo {
	uint64_t mem_total, mem_free, mem_available, cached, dirty, writeback;
	uint64_t swap_total, swap_free, anon, shmem; /* all in bytes */
};

/* Reads /proc/meminfo (or path). 0 or -errno. */
int vms_meminfo_read(struct vms_meminfo *m, const char *path);

/* Decodes, in place, the octal escapes procfs writes in paths and names (mountinfo, swaps):
 * "\040" -> ' ', "\011" -> tab, "\012" -> newline, "\134" -> backslash. Other backslashes
 * stay. Returns s. */
char *vms_unescape_octal_inplace(char *s);

/* One line of /proc/<pid>/mountinfo (proc(5)), its paths decoded:
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   id par maj:min root point options [optional fields] - fstype source super_options
 * The strings point into the reader's line buffer: valid until the next vms_mountinfo_next()
 * or vms_mountinfo_release(). super_options is "" when the line has none. */
struct vms_mountinfo_entry {
	unsigned mount_id, parent_id, major, minor;
	char *root, *mount_point, *options, *fstype, *source, *super_options;
};

/* Splits one mountinfo line (without or with its newline) in place into *e and decodes its
 * paths. Returns 0, or -EINVAL when the line is not mountinfo. */
int vms_mountinfo_parse_line(char *line, struct vms_mountinfo_entry *e);

/* A reader going through a mountinfo file one mount at a time:
 *   struct vms_mountinfo mi;
 *   const struct vms_mountinfo_entry *e;
 *   if (vms_mountinfo_open(&mi, NULL) == 0) {
 *           while ((e = vms_mountinfo_next(&mi)))
 *                   ...;
 *           vms_mountinfo_release(&mi);
 *   } */
struct vms_mountinfo {
	FILE *f;
	char *line;
	size_t cap;
	struct vms_mountinfo_entry entry;
};

/* Opens path (NULL = /proc/self/mountinfo). 0 or -errno; on failure nothing to release. */
int vms_mountinfo_open(struct vms_mountinfo *mi, const char *path);
/* The next mount, or NULL at the end of the file. Lines that are not mountinfo are skipped. */
const struct vms_mountinfo_entry *vms_mountinfo_next(struct vms_mountinfo *mi);
/* Closes the file and frees the buffer; safe twice and on a zeroed struct. */
void vms_mountinfo_release(struct vms_mountinfo *mi);

/* A mount found by vms_mountinfo_find(): a copy of its entry that owns its strings. */
struct vms_mount {
	char *root, *mount_point, *fstype, *device, *options, *super_options;
	unsigned major, minor;
};

/* Finds the mount holding abs_path (absolute, already resolved) in the mountinfo file at
 * mountinfo_path: the longest matching mount point, the last one listed on a tie (the one on
 * top). Returns 0, -ENOENT when nothing matches, -EINVAL when abs_path is not absolute, or
 * -errno from opening the file. Release *out with vms_mount_release(). Reports nothing. */
int vms_mountinfo_find(const char *mountinfo_path, const char *abs_path, struct vms_mount *out);
/* Frees the strings of m and zeroes it; safe on a zeroed struct. */
void vms_mount_release(struct vms_mount *m);

/* The caller's cgroups as /proc/<pid>/cgroup lists them, one "id:controllers:path" line per
 * hierarchy (cgroups(7)):
 *   cgroup v2 (unified): "0::/user.slice/x" - hierarchy 0, no controllers;
 *   cgroup v1: "4:memory:/user.slice", "3:cpu,cpuacct:/"; "1:name=systemd:/" is a named
 *   hierarchy without controllers, which does not make the system v1 by itself.
 * A hybrid system lists both kinds. The first line of each kind wins. Strings are owned and
 * NULL when the file has no such line. */
struct vms_proc_cgroup {
	char *v2_path;        /* path of the "0::" line */
	char *v1_memory_path; /* path of the v1 hierarchy whose controllers include memory */
	char *v1_first_path;  /* path of the first v1 hierarchy with a controller */
	int have_v1;          /* a v1 hierarchy with a controller is listed */
};

/* Parses /proc/<pid>/cgroup text into *pc (zeroed first). Malformed lines are skipped. Never
 * fails; release with vms_proc_cgroup_release(). */
void vms_proc_cgroup_parse(struct vms_proc_cgroup *pc, const char *text);
/* Reads and parses the file at path (NULL = /proc/self/cgroup). 0 or -errno (then *pc holds
 * nothing to release). */
int vms_proc_cgroup_read(struct vms_proc_cgroup *pc, const char *path);
/* Frees the strings of pc and zeroes it; safe on a zeroed struct. */
void vms_proc_cgroup_release(struct vms_proc_cgroup *pc);

/* CPU time of a set of CPUs from the "cpuN" lines of /proc/stat (proc(5)), summed over the
 * CPUs of the set that the file lists, in clock ticks (sysconf(_SC_CLK_TCK)). user includes
 * nice (and guest, which the kernel counts in user too); system includes irq and softirq. */
struct vms_cpustat {
	uint64_t user, system, idle, iowait, steal;
	uint64_t irq;  /* irq + softirq: also in system */
	unsigned cpus; /* how many CPUs of the set the file listed */
};

/* Parses /proc/stat text into *out for the CPUs in set (NULL = every "cpuN" line). 0, or
 * -ENOENT when no CPU of the set is listed. */
int vms_cpustat_parse(const char *text, const cpu_set_t *set, struct vms_cpustat *out);
/* Reads path (NULL = /proc/stat) with vms_cpustat_parse(). 0 or -errno; reports nothing. */
int vms_cpustat_read(const char *path, const cpu_set_t *set, struct vms_cpustat *out);

/* The fields of one /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat line that say who used
 * how much CPU (proc(5); times in clock ticks). */
struct vms_pid_stat {
	pid_t pid, ppid;
	char comm[64]; /* without the parentheses; may hold spaces and ')' */
	char state;
	unsigned long flags; /* PF_* ; PF_KTHREAD (0x00200000) marks a kernel thread */
	uint64_t utime, stime, cutime, cstime;
	uint64_t starttime; /* ticks after boot: tells a reused pid apart */
	int processor;      /* the CPU it last ran on */
};

#define VMS_PF_KTHREAD 0x00200000UL

/* Parses one stat line into *out. The command name is the text between the first '(' and the
 * last ')'. 0, or -EINVAL when the line is not a stat line. */
int vms_pid_stat_parse(const char *line, struct vms_pid_stat *out);

/* Parses /proc/<pid>/schedstat ("run_ns wait_ns timeslices"): time on the CPU and time spent
 * runnable on a run queue, both in nanoseconds. 0, or -EINVAL. */
int vms_schedstat_parse(const char *text, uint64_t *run_ns, uint64_t *wait_ns);

#endif
