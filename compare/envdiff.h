/* The environment diff of `vmsuite compare`: which recorded facts differ between two result
 * files (fingerprint, protocol, workload options, audio facts), each classed as expected, soft
 * (a possible confounder) or hard (makes the comparison invalid). No kernel paths of its own. */
#ifndef VMS_ENVDIFF_H
#define VMS_ENVDIFF_H

#include <jansson.h>
#include <stddef.h>

#include "core/resultdoc.h"

enum vms_env_class {
	VMS_ENV_EXPECTED, /* differs by design: kernel, label, times */
	VMS_ENV_SOFT,     /* may move the numbers: sysctls, THP, cmdline, governor, ... */
	VMS_ENV_HARD,     /* the numbers are not comparable: hardware, limits, sizes, MP3, ... */
};

/* What a difference invalidates or could explain. */
enum vms_env_scope {
	VMS_ENV_GLOBAL,   /* every workload */
	VMS_ENV_WORKLOAD, /* one workload (its options) */
	VMS_ENV_AUDIO,    /* the sound metrics of every workload */
};

struct vms_env_item {
	enum vms_env_class cls;
	enum vms_env_scope scope;
	char *key;      /* "mem_total_bytes", "vm.page-cluster", "mmap001: bytes", "audio: rate" */
	char *workload; /* for VMS_ENV_WORKLOAD, else NULL */
	char *base;     /* the value in BASE as text, "(absent)" when missing */
	char *other;
};

struct vms_envdiff {
	struct vms_env_item *items;
	size_t n;
};

/* Fills d with every difference between the two results (as core/resultdoc.h read them), in
 * a fixed order (top-level facts, protocol, fingerprint, workloads, audio). Values equal in
 * both are left out. Never fails (aborts on OOM); release with vms_envdiff_release(). */
void vms_envdiff_of(const struct vms_rdoc *base, const struct vms_rdoc *other,
                    struct vms_envdiff *d);
/* The same of two loaded result documents (each read with vms_rdoc_init(); one the reader
 * refuses counts as empty). */
void vms_envdiff_build(const json_t *base, const json_t *other, struct vms_envdiff *d);
void vms_envdiff_release(struct vms_envdiff *d);

/* True when d holds an item of class cls that applies to the given scope: a GLOBAL item
 * applies everywhere, a WORKLOAD item to that workload only, an AUDIO item to sound metrics. */
int vms_envdiff_blocks(const struct vms_envdiff *d, const char *workload, int audio);
/* Number of items of class cls. */
size_t vms_envdiff_count(const struct vms_envdiff *d, enum vms_env_class cls);
/* "expected", "soft", "hard". */
const char *vms_env_class_name(enum vms_env_class cls);

#endif
