/* Facts about the filesystem holding a directory: statfs(2), statvfs(3) and its line in
 * /proc/self/mountinfo (type, mount point, device, options), and whether it is memory-backed. */
#include "core/fsinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#include "core/procfs.h"
#include "core/util.h"

/* statfs(2) f_type values (linux/magic.h and filesystems' own headers). */
#define MAGIC_TMPFS     0x01021994UL
#define MAGIC_RAMFS     0x858458f6UL
#define MAGIC_HUGETLBFS 0x958458f6UL

static const struct {
	unsigned long magic;
	const char *name;
} fs_magics[] = {
    {0xef53UL, "ext2/ext3/ext4"}, {0x58465342UL, "xfs"},
    {0x9123683eUL, "btrfs"},      {0xf2f52010UL, "f2fs"},
    {0xca451a4eUL, "bcachefs"},   {0x2fc12fc1UL, "zfs"},
    {0x3153464aUL, "jfs"},        {0x52654973UL, "reiserfs"},
    {0x2011bab0UL, "exfat"},      {0x4d44UL, "vfat/msdos"},
    {0x5346544eUL, "ntfs"},       {0x6969UL, "nfs"},
    {0xff534d42UL, "cifs"},       {0xfe534d42UL, "smb2"},
    {0x01021997UL, "9p"},         {0x65735546UL, "fuse"},
    {0x794c7630UL, "overlay"},    {0x73717368UL, "squashfs"},
    {0x9660UL, "iso9660"},        {MAGIC_TMPFS, "tmpfs"},
    {MAGIC_RAMFS, "ramfs"},       {MAGIC_HUGETLBFS, "hugetlbfs"},
    {0x9fa0UL, "proc"},           {0x62656572UL, "sysfs"},
    {0x1373UL, "devfs"},
};

static const char *magic_name(unsigned long magic)
{
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(fs_magics); i++)
		if (fs_magics[i].magic == magic)
			return fs_magics[i].name;
	return "unknown";
}

void vms_fs_info_release(struct vms_fs_info *fi)
{
	free(fi->path);
	free(fi->fstype);
	free(fi->mount_point);
	free(fi->device);
	free(fi->dev);
	free(fi->options);
	free(fi->super_options);
	memset(fi, 0, sizeof(*fi));
}

int vms_fs_info_at(const char *root, const char *path, struct vms_fs_info *out)
{
	char resolved[PATH_MAX];
	struct statfs sfs;
	struct statvfs svfs;
	struct vms_mount m;
	char *mi;

	memset(out, 0, sizeof(*out));
	if (!realpath(path ? path : ".", resolved))
		return -errno;
	if (statfs(resolved, &sfs) || statvfs(resolved, &svfs))
		return -errno;
	out->path = vms_xstrdup(resolved);
	out->magic = (unsigned long)sfs.f_type & 0xffffffffUL;
	out->magic_name = magic_name(out->magic);
	out->free_bytes = (uint64_t)svfs.f_bavail * svfs.f_frsize;
	out->total_bytes = (uint64_t)svfs.f_blocks * svfs.f_frsize;

	mi = root && strcmp(root, "/") ? vms_xasprintf("%s/proc/self/mountinfo", root)
	                               : vms_xstrdup("/proc/self/mountinfo");
	if (!vms_mountinfo_find(mi, resolved, &m)) {
		out->fstype = m.fstype;
		out->mount_point = m.mount_point;
		out->device = m.device;
		out->options = m.options;
		out->super_options = m.super_options;
		out->dev = vms_xasprintf("%u:%u", m.major, m.minor);
		free(m.root);
	}
	free(mi);
	out->is_tmpfs = out->magic == MAGIC_TMPFS || (out->fstype && !strcmp(out->fstype, "tmpfs"));
	out->memory_backed =
	    out->is_tmpfs || out->magic == MAGIC_RAMFS || out->magic == MAGIC_HUGETLBFS ||
	    (out->fstype && (!strcmp(out->fstype, "ramfs") || !strcmp(out->fstype, "hugetlbfs")));
	return 0;
}

int vms_fs_info(const char *path, struct vms_fs_info *out)
{
	return vms_fs_info_at(NULL, path, out);
}

static json_t *str_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;

	return j ? j : json_null();
}

json_t *vms_fs_info_json(const struct vms_fs_info *fi)
{
	char magic[32];
	json_t *o = json_object();

	snprintf(magic, sizeof(magic), "0x%lx", fi->magic);
	json_object_set_new(o, "path", str_or_null(fi->path));
	json_object_set_new(o, "type", str_or_null(fi->fstype ? fi->fstype : fi->magic_name));
	json_object_set_new(o, "magic", json_string(magic));
	json_object_set_new(o, "magic_name", str_or_null(fi->magic_name));
	json_object_set_new(o, "mount_point", str_or_null(fi->mount_point));
	json_object_set_new(o, "device", str_or_null(fi->device));
	json_object_set_new(o, "dev", str_or_null(fi->dev));
	json_object_set_new(o, "options", str_or_null(fi->options));
	json_object_set_new(o, "super_options", str_or_null(fi->super_options));
	json_object_set_new(o, "free_bytes", json_integer((json_int_t)fi->free_bytes));
	json_object_set_new(o, "total_bytes", json_integer((json_int_t)fi->total_bytes));
	json_object_set_new(o, "is_tmpfs", json_boolean(fi->is_tmpfs));
	json_object_set_new(o, "memory_backed", json_boolean(fi->memory_backed));
	return o;
}
