/* The workload registry. Adding a workload:
 *   1. write workloads/NAME.c ending in `const struct vms_workload vms_workload_NAME = {...}`:
 *      its options, its needs (root, swap, a disk work directory), and if it sizes itself from
 *      the machine a plan() hook (RAM, swap, free disk come in struct vms_machine_facts);
 *   2. add one line VMS_WORKLOAD(NAME) to VMS_WORKLOAD_LIST below;
 *   3. add a test in tests/workloads/ and a section in docs/workloads.md (and docs/vmsuite.1).
 * Nothing else names it: `vmsuite list`, -w parsing, planning and the runner go through this
 * table. Putting it in a profile's default plan is one line in workloads/plan.c.
 * A workload declares its options, what it needs and its run function; the runner forks a
 * child per run, calls run() there and measures it from outside with wait4(). */
#ifndef VMS_WORKLOAD_H
#define VMS_WORKLOAD_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/machine.h"

enum vms_opt_type {
	VMS_OPT_SIZE,    /* bytes, K/M/G suffixes */
	VMS_OPT_COUNT,   /* whole number */
	VMS_OPT_PERCENT, /* 1..100 */
	VMS_OPT_BOOL,    /* 0/1, yes/no, true/false */
	VMS_OPT_PATH,    /* a directory */
};

struct vms_option_def {
	const char *name;
	enum vms_opt_type type;
	const char *def;  /* default as text; NULL = unset (computed by the workload) */
	const char *unit; /* "bytes", "pages", "%", ... for `vmsuite list` */
	const char *help;
	uint64_t min, max; /* inclusive range for numbers; 0, 0 = any */
};

struct vms_opt_value {
	int set;    /* given on the command line (or by a profile) */
	uint64_t u; /* numbers and bools */
	char *s;    /* paths; owned */
};

/* What a workload needs from the machine; vms_workload_available() checks them. */
enum vms_need {
	VMS_NEED_DISK = 1 << 0, /* a disk-backed work directory (not tmpfs); prepare() checks
	                         * the directory it really uses and the free space */
	VMS_NEED_ROOT = 1 << 1, /* euid 0 */
	VMS_NEED_SWAP = 1 << 2, /* some swap the workload can use */
};

/* What a workload child shares with the runner: lives in a MAP_SHARED page so that it
 * survives the child being killed (bytes allocated so far stays visible). */
struct vms_workload_shared {
	volatile uint64_t bytes_allocated;
	volatile int thp_disabled; /* prctl(PR_SET_THP_DISABLE) succeeded in the child */
	volatile double own_value; /* the workload's own figure (vms_workload.own_metric) */
	volatile int own_set;      /* own_value was set */
	char reason[512];          /* why the child failed, set before a non-zero exit */
	volatile int disk_full;    /* the work filesystem was full: a SIGBUS (runner), ENOSPC
	                            * or EDQUOT (vms_workload_fail_file) */
};

/* The largest size any size option takes (1 EiB): no machine has more, and every size
 * arithmetic of the workloads (pages × 4096, 3R, size + margins, off_t) stays far from
 * wrapping below it. */
#define VMS_SIZE_MAX (UINT64_C(1) << 60)

/* One run's context. The runner fills it. A file-backed workload gets its file from
 * vms_workload_open_file(), never by a name of its own: with O_TMPFILE the file has no name at
 * all; otherwise `file` is a fresh name in a private directory the runner made for the run
 * (mode 0700, a random name, in the journal) and removes after the child ends, whatever
 * happened. */
struct vms_workload_ctx {
	const struct vms_workload *w;
	struct vms_opt_value *opts; /* indexed like w->options */
	const char *workdir;
	int tmpfile;     /* the work file is an O_TMPFILE in workdir (file is "") */
	char file[4096]; /* else its path in the run's private directory */
	struct vms_workload_shared *shared;
};

struct vms_workload {
	const char *name;
	const char *summary;  /* one line */
	const char *stresses; /* which kernel paths it exercises */
	const struct vms_option_def *options;
	size_t n_options;
	unsigned needs; /* enum vms_need */
	long default_runs;
	const char *faithful_to; /* the 2001 command it reproduces */
	/* The version of its definition (what it does, hence what its figures mean), recorded
	 * as workloads[].version; 0 = 1. Bump it when a change makes old figures incomparable:
	 * compare treats different versions as a hard difference. */
	int version;
	/* Catalogue metrics (core/metric.c) that are primary by default but not results of this
	 * workload, e.g. the elapsed time of a fixed-duration load; NULL-terminated, NULL = none.
	 * The runner records them as not primary, so compare's verdict ignores them. */
	const char *const *not_primary;
	/* The catalogue metric the workload measures itself (memload: pages touched per second),
	 * set in the child as shared->own_value; NULL = none. */
	const char *own_metric;
	/* A thrashing load: the runner also records the rates that show it thrashes,
	 * pswpin_per_s and psi_memory_some_pct. */
	int thrashing;
	/* Parent side, when the plan is made (NULL = nothing to size): fills the options that
	 * neither the user nor the machine profile set (opts[i].set == 0) from the machine's
	 * facts, marking them set. 0, with what it adjusted for the user in note ("" = nothing);
	 * or -errno when no size works here, with the reason in note. Runs before prepare(). */
	int (*plan)(const struct vms_machine_facts *f, struct vms_opt_value *opts, char *note,
	            size_t len);
	/* Whether it can run on this machine beyond its needs flags (NULL = the flags say it
	 * all). 0, or -errno with a short reason ("needs ...") in why. */
	int (*available)(const struct vms_machine_facts *f, char *why, size_t len);
	/* Parent side, before any run: resolve computed defaults into ctx->opts, check what the
	 * workload needs (free disk, tmpfs). 0, or -errno with a one-line reason in why. */
	int (*prepare)(struct vms_workload_ctx *ctx, char *why, size_t len);
	/* Child side: does the work. Returns the child's exit status (0 ok); on failure writes
	 * ctx->shared->reason. Must not use the tool's aborting allocators. */
	int (*run)(struct vms_workload_ctx *ctx);
};

#define VMS_WORKLOAD_LIST                                                                          \
	VMS_WORKLOAD(mmap001)                                                                      \
	VMS_WORKLOAD(mtest01)                                                                      \
	VMS_WORKLOAD(mmap002)                                                                      \
	VMS_WORKLOAD(memload)

#define VMS_WORKLOAD(n) extern const struct vms_workload vms_workload_##n;
VMS_WORKLOAD_LIST
#undef VMS_WORKLOAD

/* w's definition version: w->version, or 1 when it declares none. */
static inline int vms_workload_version(const struct vms_workload *w)
{
	return w->version > 0 ? w->version : 1;
}

/* NULL-terminated table of all workloads, in registration order. */
extern const struct vms_workload *const vms_workloads[];
const struct vms_workload *vms_workload_find(const char *name);
/* Whether workload clears "primary" for metric (its not_primary list): 1 it does, 0 it does
 * not, -1 no such workload. The reader of result documents asks it (vms_rdoc_use_workloads). */
int vms_workload_not_primary(const char *workload, const char *metric);
/* Index of option `name` in w->options, or -1. */
int vms_workload_option_index(const struct vms_workload *w, const char *name);

/* A parsed -w SPEC: NAME[:key=value]... */
struct vms_workload_spec {
	const struct vms_workload *w;
	struct vms_opt_value *opts; /* w->n_options entries */
};

/* Parses SPEC into spec (defaults applied for unset options with a default). Returns 0, or
 * -EINVAL with a one-line reason in why ("unknown workload 'x' (known: ...)", "mtest01:
 * unknown option 'foo'", "mmap001: malformed size 'lots' for bytes"). */
int vms_workload_spec_parse(const char *text, struct vms_workload_spec *spec, char *why,
                            size_t len);
/* Sets option `name` from text as if given on the command line. 0 or -EINVAL with why. */
int vms_workload_opt_set(struct vms_workload_spec *spec, const char *name, const char *value,
                         char *why, size_t len);
void vms_workload_spec_release(struct vms_workload_spec *spec);
/* The options as a JSON object {name: number|string|bool} (set or defaulted ones only). */
json_t *vms_workload_opts_json(const struct vms_workload *w, const struct vms_opt_value *opts);

/* Whether w can run on the machine f describes: its needs flags (less those in `ignore`), then
 * its available() hook. 0, or -errno (-EPERM no root, -ENOTSUP no swap, -EXDEV a memory-backed
 * work directory, or the hook's) with a short reason in why ("needs root"). Never reports. */
int vms_workload_available(const struct vms_workload *w, const struct vms_machine_facts *f,
                           unsigned ignore, char *why, size_t len);

/* Helpers for workload code. */
/* Reports a failure reason from the child (printf-style) into ctx->shared->reason. Returns 1. */
int vms_workload_fail(struct vms_workload_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Reports a failure on the work file from the child, as vms_workload_fail() followed by ": "
 * and strerror(err). ENOSPC and EDQUOT (no block, inode or quota left) also set
 * ctx->shared->disk_full: the work filesystem filled up after the start-up checks, which the
 * runner reports as such, not as the kernel's doing. Returns 1. */
int vms_workload_fail_file(struct vms_workload_ctx *ctx, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Checks that dir is on a disk filesystem (not tmpfs/ramfs) with at least `need` bytes free.
 * 0, or -errno with a reason in why. */
int vms_workload_check_dir(const char *dir, uint64_t need, char *why, size_t len);
/* Child side: creates the run's work file, read-write, 0600, so that no name can be planted
 * for it: O_TMPFILE in ctx->workdir when ctx->tmpfile, else ctx->file with O_CREAT | O_EXCL |
 * O_NOFOLLOW. Returns the descriptor (the caller closes it; the runner removes the file), or
 * -1 with the reason in ctx->shared->reason. */
int vms_workload_open_file(struct vms_workload_ctx *ctx);
/* Parent side, before anything runs: whether work files can be created in dir, and how. *tmpfile
 * = 1 when dir takes O_TMPFILE (unless the environment variable VMSUITE_NO_O_TMPFILE is set to
 * something other than "0": tests force the fallback with it); else 0, after making and
 * removing a private directory there. Leaves nothing behind. 0, or -errno with a reason naming
 * dir in why ("cannot create work files in '/mnt': Read-only file system"). */
int vms_workload_probe_dir(const char *dir, int *tmpfile, char *why, size_t len);
/* A name for a private directory in dir: "<dir>/.vmsuite-<what>.<6 random letters>" into buf.
 * Creates nothing (mkdir(path, 0700) it, retrying on EEXIST). 0, or -ENAMETOOLONG. */
int vms_workload_private_name(char *buf, size_t len, const char *dir, const char *what);

#endif
