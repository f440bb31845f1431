/* Facts about the filesystem holding a directory (the work directory of a run, a swap file's
 * directory): statfs(2), statvfs(3) and /proc/self/mountinfo. */
#ifndef VMS_FSINFO_H
#define VMS_FSINFO_H

#include <jansson.h>
#include <stdint.h>

/* Facts about the filesystem holding a directory. Strings are owned by the struct and freed
 * by vms_fs_info_release(); mount fields are NULL when /proc/self/mountinfo has no match. */
struct vms_fs_info {
	char *path;             /* absolute, symlinks resolved */
	unsigned long magic;    /* statfs(2) f_type */
	const char *magic_name; /* static: "ext2/ext3/ext4", "tmpfs", ... or "unknown" */
	char *fstype;           /* mountinfo filesystem type ("ext4", "fuse.sshfs") */
	char *mount_point;      /* mountinfo mount point of the mount holding path */
	char *device;           /* mountinfo mount source ("/dev/vda", "tmpfs") */
	char *dev;              /* "major:minor" of the mount */
	char *options;          /* per-mount options ("rw,relatime") */
	char *super_options;    /* per-superblock options ("rw,discard") */
	uint64_t free_bytes;    /* available to unprivileged users (f_bavail) */
	uint64_t total_bytes;
	int is_tmpfs;      /* statfs magic or mountinfo type says tmpfs */
	int memory_backed; /* tmpfs, ramfs or hugetlbfs: a file there is RAM, not disk */
};

/* Fills *out for the directory or file at path (statfs/statvfs and /proc/self/mountinfo).
 * Returns 0, or -errno when path cannot be resolved or statfs fails (then *out holds nothing
 * to release). A missing mountinfo entry is not an error. Reports nothing: the caller knows the
 * context. Release with vms_fs_info_release(). */
int vms_fs_info(const char *path, struct vms_fs_info *out);
/* As vms_fs_info(), reading mountinfo at <root>/proc/self/mountinfo (root NULL = "/"). */
int vms_fs_info_at(const char *root, const char *path, struct vms_fs_info *out);
/* Frees the strings of fi and zeroes it; safe on a zeroed struct. */
void vms_fs_info_release(struct vms_fs_info *fi);
/* The JSON object of fi: {path, type, magic, magic_name, mount_point, device, dev, options,
 * super_options, free_bytes, total_bytes, is_tmpfs, memory_backed}. New reference. */
json_t *vms_fs_info_json(const struct vms_fs_info *fi);

#endif
