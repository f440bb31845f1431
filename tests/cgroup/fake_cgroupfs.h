/* A fake cgroupfs + /proc tree in a temporary directory for the cgroup unit tests: plain files
 * stand in for control files, and mkdir/rmdir ops populate and remove them like the kernel. */
#ifndef VMS_TEST_FAKE_CGROUPFS_H
#define VMS_TEST_FAKE_CGROUPFS_H

#include <stdint.h>

#include "core/cgroup.h"

struct fake {
	char root[256];
	int inotify_fd; /* watches each new child (write order checks); -1 = none */
	int mkdirs, rmdirs;
};

/* Creates an empty temp root; dies on failure. */
void fake_init(struct fake *f);
/* Removes the whole tree. */
void fake_cleanup(struct fake *f);
/* cmocka fixtures: a fresh fake tree in *state, and its removal. */
int fake_setup(void **state);
int fake_teardown(void **state);
/* Writes root/rel (creating parent directories) with text. */
void fake_write(const struct fake *f, const char *rel, const char *text);
/* Reads root/rel into a static-lifetime buffer of the caller. Returns buf. */
char *fake_read(const struct fake *f, const char *rel, char *buf, size_t len);
int fake_exists(const struct fake *f, const char *rel);

/* This machine's layout: v1 memory at /sys/fs/cgroup/memory, controller-less cgroup2 at
 * /sys/fs/cgroup/unified, the caller in v1 cgroup self (e.g. "/process_api/abc"). */
void fake_hybrid_v1(struct fake *f, const char *self, uint64_t mem_total, uint64_t swap_total);
/* A pure cgroup2 system mounted at /sys/fs/cgroup with the caller in self; subtree says
 * whether memory is enabled in self's cgroup.subtree_control. */
void fake_v2(struct fake *f, const char *self, int subtree, uint64_t mem_total,
             uint64_t swap_total);
/* Writes a v1 or v2 control-file set into the directory at root/rel. */
void fake_populate(const char *dir, enum vms_cgroup_version v);

/* ops for vms_cgroup_create/destroy: mkdir populates; rmdir refuses (-EBUSY) while the
 * child's cgroup.procs lists a pid that the parent's cgroup.procs does not. */
struct vms_cgroup_fs_ops fake_ops(struct fake *f);

#endif
