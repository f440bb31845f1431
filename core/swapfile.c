/* The emulated machine's temporary swap file (see swapfile.h). Kernel paths: statfs(2),
 * FS_IOC_GETFLAGS/SETFLAGS, fallocate(2), swapon(2), swapoff(2), /proc/swaps. */
#include "core/swapfile.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/swap.h>
#include <unistd.h>

#include "core/procfs.h"
#include "core/util.h"

#define MIB         (UINT64_C(1) << 20)
#define FREE_MARGIN (256 * MIB)

#ifndef F2FS_SUPER_MAGIC
#define F2FS_SUPER_MAGIC 0xF2F52010
#endif
#ifndef XFS_SUPER_MAGIC
#define XFS_SUPER_MAGIC 0x58465342
#endif
#ifndef MSDOS_SUPER_MAGIC
#define MSDOS_SUPER_MAGIC 0x4d44
#endif

/* The filesystems whose swap files the kernel activates (they implement swap_activate or
 * bmap with stable extents). Everything else is refused: tmpfs and ramfs are RAM, NFS and
 * CIFS swap over the network, overlayfs and FUSE have no swap support. */
static const struct {
	unsigned long magic;
	const char *name;
} swap_fs[] = {
    {EXT4_SUPER_MAGIC, "ext2/ext3/ext4"}, {XFS_SUPER_MAGIC, "xfs"},    {BTRFS_SUPER_MAGIC, "btrfs"},
    {F2FS_SUPER_MAGIC, "f2fs"},           {MSDOS_SUPER_MAGIC, "vfat"},
};

static const char *refused_name(unsigned long magic)
{
	switch (magic) {
	case TMPFS_MAGIC: return "tmpfs";
	case RAMFS_MAGIC: return "ramfs";
	case NFS_SUPER_MAGIC: return "NFS";
	case OVERLAYFS_SUPER_MAGIC: return "overlayfs";
	case 0x65735546: return "FUSE";
	case 0xFF534D42: return "CIFS";
	case 0xFE534D42: return "SMB2";
	case 0x01021997: return "9p";
	case SQUASHFS_MAGIC: return "squashfs";
	default: return NULL;
	}
}

int vms_swapfile_name_ok(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, VMS_SWAPFILE_PREFIX, strlen(VMS_SWAPFILE_PREFIX)) &&
	       base[strlen(VMS_SWAPFILE_PREFIX)] != '\0';
}

int vms_swapfile_check_dir(const char *dir, uint64_t usable, char *fstype, size_t fstype_len,
                           char *why, size_t why_len)
{
	struct statfs sf;
	struct rlimit rl;
	const char *name = NULL, *bad;
	uint64_t avail;
	char a[32], b[32];
	size_t i;

	if (fstype && fstype_len)
		fstype[0] = '\0';
	if (statfs(dir, &sf)) {
		int e = -errno;

		snprintf(why, why_len, "cannot use '%s' for a swap file: %s", dir, strerror(-e));
		return e;
	}
	for (i = 0; i < VMS_ARRAY_SIZE(swap_fs); i++)
		if ((unsigned long)sf.f_type == swap_fs[i].magic)
			name = swap_fs[i].name;
	if (fstype && fstype_len)
		snprintf(fstype, fstype_len, "%s", name ? name : "unknown");
	if (!name) {
		bad = refused_name((unsigned long)sf.f_type);
		if (bad && fstype && fstype_len)
			snprintf(fstype, fstype_len, "%s", bad);
		snprintf(why, why_len,
		         "'%s' is on %s (magic 0x%lx), which cannot hold a swap file (vmsuite "
		         "makes them on ext2/3/4, xfs, btrfs, f2fs or vfat)",
		         dir, bad ? bad : "a filesystem", (unsigned long)sf.f_type);
		return -EOPNOTSUPP;
	}
	/* a file size limit (ulimit -f) would stop the preallocation half-way */
	if (!getrlimit(RLIMIT_FSIZE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    (uint64_t)rl.rlim_cur < usable + 65536) {
		snprintf(why, why_len,
		         "the file size limit (ulimit -f) is %s, less than a swap file "
		         "of %s",
		         vms_format_size((uint64_t)rl.rlim_cur, a, sizeof(a)),
		         vms_format_size(usable, b, sizeof(b)));
		return -EFBIG;
	}
	avail = (uint64_t)sf.f_bavail * (uint64_t)sf.f_bsize;
	if (avail < usable + FREE_MARGIN) {
		snprintf(why, why_len,
		         "'%s' has %s free, too little for a swap file of %s and 256 MiB to spare",
		         dir, vms_format_size(avail, a, sizeof(a)),
		         vms_format_size(usable, b, sizeof(b)));
		return -ENOSPC;
	}
	return 0;
}

/* The version-1 swap header util-linux's mkswap writes (include/swapheader.h there): the
 * kernel reads it from the first page (mm/swapfile.c, read_swap_header). */
struct swap_header_v1 {
	char bootbits[1024];
	uint32_t version;
	uint32_t last_page;
	uint32_t nr_badpages;
	unsigned char uuid[16];
	char volume_name[16];
	uint32_t padding[117];
	uint32_t badpages[1];
};

static int write_header(int fd, uint64_t pages, size_t page)
{
	/* the signature is not a C string: 10 bytes at the end of the page, no terminator */
	static const char sig[10] = {'S', 'W', 'A', 'P', 'S', 'P', 'A', 'C', 'E', '2'};
	char *buf = vms_xcalloc(1, page);
	struct swap_header_v1 *h = (struct swap_header_v1 *)(void *)buf;
	ssize_t n;

	h->version = 1;
	h->last_page = (uint32_t)(pages - 1);
	h->nr_badpages = 0;
	if (getrandom(h->uuid, sizeof(h->uuid), 0) != (ssize_t)sizeof(h->uuid))
		memset(h->uuid, 0x5a, sizeof(h->uuid));
	snprintf(h->volume_name, sizeof(h->volume_name), "vmsuite");
	memcpy(buf + page - sizeof(sig), sig, sizeof(sig));
	n = pwrite(fd, buf, page, 0);
	free(buf);
	if (n < 0)
		return -errno;
	return n == (ssize_t)page ? 0 : -EIO;
}

static int zero_fill(int fd, uint64_t size)
{
	size_t chunk = (size_t)MIB;
	char *zeros = vms_xcalloc(1, chunk);
	uint64_t done = 0;
	int ret = 0;

	while (done < size) {
		size_t want = size - done < chunk ? (size_t)(size - done) : chunk;
		ssize_t n = pwrite(fd, zeros, want, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		done += (uint64_t)n;
	}
	free(zeros);
	return ret;
}

int vms_swapfile_create(const char *path, uint64_t usable, char *method, size_t method_len)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t page = psz > 0 ? (size_t)psz : 4096;
	uint64_t pages = (usable + page - 1) / page + 1, size = pages * page;
	struct statfs sf;
	const char *how = "fallocate";
	int fd, ret;

	if (method && method_len)
		method[0] = '\0';
	if (!vms_swapfile_name_ok(path))
		return vms_error_ret(-EINVAL, "'%s': swap files vmsuite makes are named %s*", path,
		                     VMS_SWAPFILE_PREFIX);
	if (pages > UINT32_MAX)
		return vms_error_ret(-EFBIG, "a swap file of %llu pages is too large",
		                     (unsigned long long)pages);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		return vms_error_ret(ret, "cannot create the swap file '%s': %s", path,
		                     strerror(-ret));
	}
	/* btrfs swaps only to NOCOW files, and NOCOW can only be set while the file is empty */
	if (!fstatfs(fd, &sf) && (unsigned long)sf.f_type == BTRFS_SUPER_MAGIC) {
		int flags = 0;

		if (ioctl(fd, FS_IOC_GETFLAGS, &flags) ||
		    (flags |= FS_NOCOW_FL, ioctl(fd, FS_IOC_SETFLAGS, &flags))) {
			ret = -errno;
			vms_error("cannot make the swap file '%s' NOCOW on btrfs: %s", path,
			          strerror(-ret));
			goto fail;
		}
	}
	if (fallocate(fd, 0, 0, (off_t)size)) {
		if (errno != EOPNOTSUPP && errno != ENOSYS) {
			ret = -errno;
			vms_error("cannot allocate %llu bytes for the swap file '%s': %s",
			          (unsigned long long)size, path, strerror(-ret));
			goto fail;
		}
		/* no extents to preallocate (vfat, ...): write every block */
		how = "zero-fill";
		if ((ret = zero_fill(fd, size))) {
			vms_error("cannot fill the swap file '%s': %s", path, strerror(-ret));
			goto fail;
		}
	}
	if ((ret = write_header(fd, pages, page)) || (fsync(fd) ? (ret = -errno) : 0)) {
		vms_error("cannot write the swap header of '%s': %s", path, strerror(-ret));
		goto fail;
	}
	close(fd);
	if (method && method_len)
		snprintf(method, method_len, "%s", how);
	return 0;
fail:
	close(fd);
	unlink(path);
	return ret;
}

int vms_swapfile_on(const char *path)
{
	int ret;

	if (!swapon(path, 0))
		return 0;
	ret = -errno;
	return vms_error_ret(ret, "cannot switch on the swap file '%s': %s", path,
	                     ret == -EINVAL ? "the kernel refused it as swap (Invalid argument)"
	                                    : strerror(-ret));
}

int vms_swapfile_listed(const char *path, const char *swaps)
{
	char *text = NULL, *line, *save = NULL;
	int found = 0;

	if (!swaps) {
		text = vms_read_text("/proc/swaps");
		if (!text)
			return -errno;
	} else {
		text = vms_xstrdup(swaps);
	}
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *end = line;

		/* the kernel escapes blanks and backslashes in names, so the name ends at the
		 * first blank */
		while (*end && *end != ' ' && *end != '\t')
			end++;
		*end = '\0';
		found = !strcmp(vms_unescape_octal_inplace(line), path);
	}
	free(text);
	return found;
}

int vms_swapfile_remove(const char *path)
{
	struct stat st;
	int listed;

	if (!vms_swapfile_name_ok(path) || path[0] != '/')
		return 2;
	if (lstat(path, &st))
		return errno == ENOENT ? 1 : -errno;
	if (!S_ISREG(st.st_mode))
		return 2; /* a symlink or anything else in its place: never followed */
	listed = vms_swapfile_listed(path, NULL);
	if (listed < 0)
		return listed;
	if (listed && swapoff(path) && errno != EINVAL)
		return -errno;
	if (unlink(path))
		return errno == ENOENT ? 1 : -errno;
	return 0;
}
