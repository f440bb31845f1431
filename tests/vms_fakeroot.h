/* A fake root for the cmocka tests of code that reads and writes kernel knobs: a private
 * directory under /tmp in which a test plants the /proc/sys and /sys files it needs, and to
 * which it points the knob code with vms_sysctl_set_root(). Include after <cmocka.h>. No
 * kernel paths. */
#ifndef VMS_FAKEROOT_H
#define VMS_FAKEROOT_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/sysctl.h"

/* Makes a new directory /tmp/vms-NAME-XXXXXX into dir (len bytes, which must outlive the
 * test: the knob code keeps the pointer) and points the knob code at it. 0, or -1 when the
 * directory cannot be made. */
static inline int vms_fakeroot_make(char *dir, size_t len, const char *name)
{
	snprintf(dir, len, "/tmp/vms-%s-XXXXXX", name);
	if (!mkdtemp(dir))
		return -1;
	vms_sysctl_set_root(dir);
	return 0;
}

/* Points the knob code back at the real root and removes dir with everything in it. Returns
 * 0, or non-zero when the removal failed. */
static inline int vms_fakeroot_remove(const char *dir)
{
	char cmd[PATH_MAX + 16];

	vms_sysctl_set_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* Writes text to the file root + rel ("/proc/sys/vm/page-cluster"), making the directories
 * below root that it needs. */
static inline void vms_fakeroot_put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

#endif
