/* The host-state kind of the memory cgroups vmsuite makes (core/hostkind.h): its row and undo,
 * which kills what is left in the cgroup and removes it. Kernel paths: cgroupfs (cgroup.procs or
 * tasks, rmdir) through core/cgroup.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cgroup.h"
#include "core/hostkind.h"

static int undo_cgroup(const struct vms_host_entry *e)
{
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	const char *base = strrchr(e->path, '/');
	struct stat st;
	char *slash;

	if (!base || strncmp(base + 1, "vmsuite-", 8))
		return 2; /* vmsuite names every cgroup it makes vmsuite-* */
	if (lstat(e->path, &st))
		return errno == ENOENT ? 1 : -errno;
	if (!S_ISDIR(st.st_mode))
		return 2;
	cg.version = e->cgroup_version == 2 ? VMS_CGROUP_V2 : VMS_CGROUP_V1;
	cg.created = 1;
	snprintf(cg.dir, sizeof(cg.dir), "%s", e->path);
	snprintf(cg.parent, sizeof(cg.parent), "%s", e->path);
	slash = strrchr(cg.parent, '/');
	*(slash == cg.parent ? slash + 1 : slash) = '\0';
	/* its tasks are vmsuite's own orphans (a workload child, the probe): killed */
	return vms_cgroup_destroy(&cg, 1);
}

const struct vms_host_kind_row vms_host_row_cgroup = {
    .name = "cgroup",
    .what = "memory cgroup",
    .undo = undo_cgroup,
};
