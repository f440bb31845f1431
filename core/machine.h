/* Machine profiles: the emulated 2001 box (hron2001: a 512 MiB memory cgroup) or the real host,
 * overrides (memory/swap limit, CPU count), the facts the workloads plan from and the
 * protocol.machine record. Reads /proc/meminfo, statfs(2) of the work directory and the CPU
 * affinity mask. Knows no workload: workloads/plan.c turns the facts into a plan. */
#ifndef VMS_MACHINE_H
#define VMS_MACHINE_H

#include <jansson.h>
#include <sched.h>
#include <stdint.h>

#include "core/cgroup.h"
#include "core/cpulist.h"

/* One row of the profile table (also the source for `vmsuite list` and help text). */
struct vms_machine_profile {
	const char *name;
	const char *summary; /* one line for list/help */
	int cgroup;          /* runs the workloads (and the audio probe) in a memory cgroup */
	long cpus;           /* CPUs of the emulated machine (0 = all the host's) */
	uint64_t mem_limit;  /* bytes (cgroup profiles) */
	uint64_t swap_limit; /* bytes of swap allowed on top (cgroup profiles) */
};

/* The profiles, terminated by a row with name NULL. The first row is the preferred default. */
extern const struct vms_machine_profile vms_machine_profiles[];

/* The profile called name, or NULL. */
const struct vms_machine_profile *vms_machine_profile_find(const char *name);

/* [{"name", "summary", "cgroup", "mem_limit_bytes"|null, "swap_limit_bytes"|null}, ...]: a new
 * array. (Each profile's plan is in workloads/plan.h.) */
json_t *vms_machine_profiles_json(void);

/* --swap-file: whether a cgroup profile whose swap the host lacks gets a temporary swap file. */
enum vms_swapfile_mode {
	VMS_SWAPFILE_AUTO, /* when root and the swap directory can hold one (default) */
	VMS_SWAPFILE_YES,  /* required: an error when it cannot be made */
	VMS_SWAPFILE_NO,   /* never: only the host's own swap */
};

/* --swap-kind: what the emulated machine swaps to. Adding a kind: a value here, its row in
 * vms_swap_kinds (core/machine.c, with its plan), its set-up and undo in suite/suite.c
 * (setup_swap(), teardown_swap()), its record in protocol.machine and the docs. */
enum vms_swap_kind {
	VMS_SWAP_KIND_FILE,  /* a swap file on disk, as in 2001 (default; --swap-file) */
	VMS_SWAP_KIND_ZRAM,  /* a zram device vmsuite adds (core/zram.h) */
	VMS_SWAP_KIND_ZSWAP, /* the swap file (as file) with zswap switched on in front of it */
	VMS_SWAP_KIND_NR
};

/* One row per swap kind: its name (--swap-kind, protocol.machine.swap_kind) and a line for
 * help. */
struct vms_swap_kind_row {
	const char *name;
	const char *summary;
};

extern const struct vms_swap_kind_row vms_swap_kinds[VMS_SWAP_KIND_NR];

/* The kind called name: 0 and *kind, or -EINVAL. */
int vms_swap_kind_parse(const char *name, enum vms_swap_kind *kind);

/* The share of the emulated RAM that a zram pool is capped at (1/VMS_ZRAM_POOL_DIVISOR): its
 * compressed pages live in RAM the memory cgroup does not charge, so the cgroup gets the
 * rest. */
#define VMS_ZRAM_POOL_DIVISOR 4

/* The switch of zswap (Documentation/admin-guide/mm/zswap.rst): --swap-kind zswap needs it. */
#define VMS_ZSWAP_ENABLED "/sys/module/zswap/parameters/enabled"

/* --cpus all in vms_machine_request.cpus: no pinning, whatever the profile says. */
#define VMS_MACHINE_CPUS_ALL (-1L)

/* What the user asked for. Zero it and set what was given. */
struct vms_machine_request {
	const char *profile; /* --machine, NULL = default */
	int set_mem_limit;   /* --mem-limit given */
	uint64_t mem_limit;
	int set_swap_limit; /* --swap-limit given */
	uint64_t swap_limit;
	long cpus; /* --cpus: N, 0 = the profile's CPUs, VMS_MACHINE_CPUS_ALL = no pinning */
	enum vms_swapfile_mode swap_file; /* --swap-file */
	enum vms_swap_kind swap_kind;     /* --swap-kind (0 = file) */
	const char *swap_dir;             /* --swap-dir, NULL = the work directory */
	const char *workdir;              /* for the facts (free disk, filesystem); NULL = "." */
	const char *root; /* NULL = the real system; a fake /proc + cgroupfs tree in tests */
};

/* VMS_MACHINE_UNKNOWN in a facts field: it could not be read. */
#define VMS_MACHINE_UNKNOWN UINT64_MAX

/* What the workloads are told about the machine they will run in, to size themselves (their
 * plan hook) and to say whether they can run here (their needs, their available hook). Plain
 * data; tests build it by hand. */
struct vms_machine_facts {
	uint64_t ram;       /* bytes: the memory cgroup's limit, else MemTotal */
	uint64_t swap;      /* bytes of swap the workloads can use (the effective swap) */
	uint64_t disk_free; /* bytes free to non-root in workdir, or VMS_MACHINE_UNKNOWN */
	int disk_backed;    /* workdir is on a disk filesystem (not tmpfs, ramfs or hugetlbfs) */
	int cgroup;         /* the workloads run in a memory cgroup (an emulated machine) */
	int root;           /* vmsuite runs as root (euid 0) */
	char workdir[4096]; /* the work directory, for messages */
	char fs_type[64];   /* its filesystem ("ext4", "tmpfs"), "" if unknown */
};

/* The resolved machine the runner uses. Plain data. */
struct vms_machine {
	const struct vms_machine_profile *profile;
	int explicit_profile;     /* --machine was given */
	int use_cgroup;           /* create a cgroup with mem_limit/swap_limit */
	uint64_t mem_limit;       /* requested limit; VMS_CGROUP_UNLIMITED on host */
	uint64_t swap_limit;      /* requested swap; VMS_CGROUP_UNLIMITED on host */
	uint64_t host_mem_total;  /* MemTotal */
	uint64_t host_swap_total; /* SwapTotal */
	uint64_t effective_swap; /* min(swap_limit, host SwapTotal) (cgroup), else host SwapTotal */
	long cpus;               /* 0 = not pinned */
	char cpu_list[256];      /* "0" / "0-1" / "0,2" when pinned, else "" */
	cpu_set_t cpuset;        /* the same CPUs, for sched_setaffinity() in the children */
	const char *cpus_from;   /* "profile" or "--cpus" when pinned, else NULL */
	char others_list[256];   /* the CPUs this process may use besides cpu_list ("" = none):
	                          * vmsuite's own sampling runs there, off the emulated machine */
	/* the temporary swap file that makes up the swap the host lacks (0 bytes = none) */
	uint64_t swapfile_bytes;      /* usable swap it adds (the file is one header page more) */
	char swapfile_dir[4096];      /* where it goes (absolute when the request's dir was) */
	char swapfile_fs[64];         /* that directory's filesystem */
	enum vms_swap_kind swap_kind; /* what the emulated machine swaps to */
	/* VMS_SWAP_KIND_ZRAM: the device's size (the swap limit, a header page included) and the
	 * cap of its pool; ram = the emulated RAM, mem_limit + zram_pool */
	uint64_t zram_disksize;
	uint64_t zram_pool;
	/* VMS_SWAP_KIND_ZSWAP: zswap.max_pool_percent (of the host's RAM: a quarter of the
	 * emulated RAM, at least 1) and the pool cap it gives; charged to the memory cgroup only
	 * on cgroup v2 */
	unsigned zswap_pool_percent;
	uint64_t zswap_pool;
	uint64_t ram;
	struct vms_machine_facts facts; /* for the workloads' plan and available hooks */
	struct vms_cgroup_info cg;      /* detection result (also when not used) */
	char note[2048]; /* one line for the user and the result ("" = nothing to say) */
	/* protocol.machine.plan as JSON text, set by the workload layer once the plan is made
	 * ("" = none, recorded as null): core does not know the workloads */
	char plan_json[2048];
};

/* Resolves req into *m: the named profile, or by default hron2001 when a memory cgroup can be
 * created here and host otherwise (with m->note saying why and what is lost). Applies the
 * overrides, fills m->facts (RAM, swap, free disk and filesystem of req->workdir, root) and
 * picks the CPUs. Sizes nothing: the workload layer plans from m->facts. Does not create the
 * cgroup: the runner calls vms_cgroup_create(&cg, &m->cg, NULL, m->mem_limit, m->swap_limit,
 * NULL) when m->use_cgroup. With --swap-kind zram the swap is a zram device of the swap limit
 * (plus a header page), its pool capped at 1/VMS_ZRAM_POOL_DIVISOR of the emulated RAM and the
 * cgroup's memory limit the rest (m->ram keeps the whole); it is an error (-EINVAL) with the
 * host profile, and -ENOTSUP when this host cannot give vmsuite a zram device (see
 * vms_zram_check()). Errors, reported once, return -errno: unknown profile (-EINVAL), a
 * cgroup profile or a --mem-limit/--swap-limit that cannot be honoured here (-ENOTSUP, with
 * what to do), limits given with the host profile (-EINVAL), --swap-file yes or --swap-dir with
 * the host profile (-EINVAL), a swap file required but impossible (-ENOTSUP), more CPUs than
 * allowed (-ERANGE). */
int vms_machine_resolve(struct vms_machine *m, const struct vms_machine_request *req);

/* Appends one clause (printf-style) to m->note, "; "-separated, unless the note already holds
 * the same text. Truncates silently; never fails. */
void vms_machine_add_note(struct vms_machine *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The emulated machine's n CPUs: the n highest-numbered ones this process may run on
 * (sched_getaffinity, vms_cpu_set_last()) into set; same returns as vms_cpu_set_first(), or
 * -errno from sched_getaffinity. Deterministic for a given affinity mask. */
int vms_machine_cpus(long n, cpu_set_t *set);

/* protocol.machine for the result file: {"profile", "mem_limit_bytes", "swap_limit_bytes",
 * "effective_swap_bytes", "cpus", "cpu_list", "cgroup_version", "cgroup_path", "note",
 * "host_mem_total_bytes", "host_swap_total_bytes", "swap_kind", "ram_bytes" (the emulated
 * RAM: the cgroup's limit plus a zram pool's cap), "plan": m->plan_json|null,
 * "cgroup": facts|null}. cg is the created cgroup (its read-back limits win over the requested
 * ones) or NULL. New object; never fails. */
json_t *vms_machine_json(const struct vms_machine *m, const struct vms_cgroup *cg);

#endif
