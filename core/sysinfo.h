/* The environment fingerprint a result records (keys: docs/sysinfo.md): kernel, /proc/sys/vm,
 * THP, swap, memory, CPU, work dir filesystem, PSI, cgroups and ALSA cards, each with its source:
 * /proc/{cmdline,swaps,meminfo,cpuinfo,self/mountinfo,self/cgroup}, /sys, statfs(2). */
#ifndef VMS_SYSINFO_H
#define VMS_SYSINFO_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

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

/* The bracketed word of a sysfs selection ("always [madvise] never" -> "madvise") into buf.
 * 0, or -ENODATA when there is no bracketed word, -ERANGE when buf is too small. */
int vms_sysfs_selection(const char *text, char *buf, size_t len);
/* Parses /proc/swaps text into a new array of {name, type, size_bytes, used_bytes, priority}.
 * Malformed lines are skipped. Never NULL. */
json_t *vms_swaps_parse(const char *text);

/* The keys vms_sysinfo_collect() always sets, in order; NULL-terminated. */
extern const char *const vms_sysinfo_keys[];

/* The fingerprint of this machine with the filesystem of workdir (NULL = "."): a new object
 * whose every entry is {"value": ..., "source": "<where it was read>"}; value is null for
 * what this machine does not have or could not be read. Keys and their meaning:
 * docs/sysinfo.md. Never fails (aborts on out-of-memory); reports nothing. */
json_t *vms_sysinfo_collect(const char *workdir);
/* As vms_sysinfo_collect(), reading /proc and /sys below root (NULL or "/" = the real ones;
 * a fake tree for tests). Sources name the paths as seen from root ("/proc/swaps"). uname(2),
 * sysconf(3) and statfs(2) of workdir always describe the real machine. */
json_t *vms_sysinfo_collect_at(const char *root, const char *workdir);

/* Writes the fingerprint as an aligned "key  value  source" listing, nested values flattened
 * to dotted keys, vm_sysctl one sysctl per line. 0, or -EIO when the stream has an error. */
int vms_sysinfo_write_text(FILE *f, const json_t *info);

/* Adds the noise-source facts to info (keys page_reporting, virtio_balloon, damon_threads,
 * cpufreq and noise_sources; docs/sysinfo.md), reading below root like
 * vms_sysinfo_collect_at(); info must already hold kernel_cmdline and thp_enabled. Never
 * fails. (core/sysinfo-noise.c) */
void vms_sysinfo_put_noise(json_t *info, const char *root);
/* Writes the "noise sources" section of the text listing: each source found, what was found
 * and what to do about it. 0, or -1 when the stream has an error. */
int vms_sysinfo_write_noise(FILE *f, const json_t *info);

#endif
