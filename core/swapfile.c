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
#include <time.h>
#include <unistd.h>

#include "core/hostkind.h"
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

/* the signature is not a C string: 10 bytes at the end of the page, no terminator */
static const char swap_sig[10] = {'S', 'W', 'A', 'P', 'S', 'P', 'A', 'C', 'E', '2'};

static size_t page_size(void)
{
	long psz = sysconf(_SC_PAGESIZE);

	return psz > 0 ? (size_t)psz : 4096;
}

void vms_swapfile_new_uuid(unsigned char uuid[VMS_SWAPFILE_UUID_LEN])
{
	size_t got = 0;

	while (got < VMS_SWAPFILE_UUID_LEN) {
		ssize_t n = getrandom(uuid + got, VMS_SWAPFILE_UUID_LEN - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got < VMS_SWAPFILE_UUID_LEN) { /* no getrandom: pid and time, still unlike another's */
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		memset(uuid, 0x5a, VMS_SWAPFILE_UUID_LEN);
		memcpy(uuid, &ts, sizeof(ts) < 12 ? sizeof(ts) : 12);
		uuid[12] ^= (unsigned char)getpid();
		uuid[13] ^= (unsigned char)(getpid() >> 8);
	}
	uuid[6] = (unsigned char)((uuid[6] & 0x0f) | 0x40); /* version 4, variant 1, as mkswap */
	uuid[8] = (unsigned char)((uuid[8] & 0x3f) | 0x80);
}

static const char hex_digits[] = "0123456789abcdef";

void vms_swapfile_uuid_text(const unsigned char uuid[VMS_SWAPFILE_UUID_LEN], char *buf)
{
	size_t i;
	char *p = buf;

	for (i = 0; i < VMS_SWAPFILE_UUID_LEN; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		*p++ = hex_digits[uuid[i] >> 4];
		*p++ = hex_digits[uuid[i] & 0xf];
	}
	*p = '\0';
}

int vms_swapfile_uuid_parse(const char *text, unsigned char uuid[VMS_SWAPFILE_UUID_LEN])
{
	const char *hex = hex_digits;
	size_t i, pos = 0;

	for (i = 0; i < VMS_SWAPFILE_UUID_LEN; i++) {
		const char *hi, *lo;

		if (i == 4 || i == 6 || i == 8 || i == 10) {
			if (text[pos] != '-')
				return -EINVAL;
			pos++;
		}
		if (!text[pos] || !text[pos + 1] || !(hi = strchr(hex, text[pos])) ||
		    !(lo = strchr(hex, text[pos + 1])))
			return -EINVAL;
		uuid[i] = (unsigned char)(((hi - hex) << 4) | (lo - hex));
		pos += 2;
	}
	return text[pos] ? -EINVAL : 0;
}

static int write_header(int fd, uint64_t pages, size_t page,
                        const unsigned char uuid[VMS_SWAPFILE_UUID_LEN])
{
	char *buf = vms_xcalloc(1, page);
	struct swap_header_v1 *h = (struct swap_header_v1 *)(void *)buf;
	ssize_t n;

	h->version = 1;
	h->last_page = (uint32_t)(pages - 1);
	h->nr_badpages = 0;
	memcpy(h->uuid, uuid, sizeof(h->uuid));
	snprintf(h->volume_name, sizeof(h->volume_name), "%s", VMS_SWAPFILE_LABEL);
	memcpy(buf + page - sizeof(swap_sig), swap_sig, sizeof(swap_sig));
	n = pwrite(fd, buf, page, 0);
	free(buf);
	if (n < 0)
		return -errno;
	return n == (ssize_t)page ? 0 : -EIO;
}

int vms_swap_header_write(int fd, uint64_t bytes, const unsigned char uuid[VMS_SWAPFILE_UUID_LEN])
{
	size_t page = page_size();

	if (bytes / page < 2 || bytes / page > UINT32_MAX)
		return -EINVAL;
	return write_header(fd, bytes / page, page, uuid);
}

/* Writes zeros from offset from up to size. */
static int zero_fill(int fd, uint64_t from, uint64_t size)
{
	size_t chunk = (size_t)MIB;
	char *zeros = vms_xcalloc(1, chunk);
	uint64_t done = from;
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

int vms_swapfile_create(const char *path, uint64_t usable,
                        const unsigned char uuid[VMS_SWAPFILE_UUID_LEN], char *method,
                        size_t method_len)
{
	size_t page = page_size();
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
	/* the header first, on disk before the bulk: a file a power loss leaves half-made still
	 * carries vmsuite's label and uuid, so the next boot can tell it for vmsuite's */
	if ((ret = write_header(fd, pages, page, uuid)) || (fsync(fd) ? (ret = -errno) : 0)) {
		vms_error("cannot write the swap header of '%s': %s", path, strerror(-ret));
		goto fail;
	}
	/* fallocate keeps the header: it allocates, it does not overwrite written blocks */
	if (fallocate(fd, 0, 0, (off_t)size)) {
		if (errno != EOPNOTSUPP && errno != ENOSYS) {
			ret = -errno;
			vms_error("cannot allocate %llu bytes for the swap file '%s': %s",
			          (unsigned long long)size, path, strerror(-ret));
			goto fail;
		}
		/* no extents to preallocate (vfat, ...): write every block after the header */
		how = "zero-fill";
		if ((ret = zero_fill(fd, page, size))) {
			vms_error("cannot fill the swap file '%s': %s", path, strerror(-ret));
			goto fail;
		}
	}
	if (fsync(fd)) {
		ret = -errno;
		vms_error("cannot write the swap file '%s' to disk: %s", path, strerror(-ret));
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

/* Checks the open file fd against vmsuite's marks: 0 it carries them, 2 not (why), -errno. */
static int verify_fd(int fd, const unsigned char uuid[VMS_SWAPFILE_UUID_LEN], char *why,
                     size_t why_len)
{
	size_t page = page_size();
	char *buf, label[sizeof(((struct swap_header_v1 *)0)->volume_name) + 1];
	const struct swap_header_v1 *h;
	char want[40], have[40];
	struct stat st;
	ssize_t n;
	int ret = 2;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, why_len, "it is not a regular file");
		return 2;
	}
	if ((uint64_t)st.st_size < page) {
		snprintf(why, why_len, "it is %lld bytes long, shorter than a swap header",
		         (long long)st.st_size);
		return 2;
	}
	buf = vms_xcalloc(1, page);
	n = pread(fd, buf, page, 0);
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	h = (const struct swap_header_v1 *)(const void *)buf;
	memcpy(label, h->volume_name, sizeof(h->volume_name));
	label[sizeof(h->volume_name)] = '\0';
	if (n != (ssize_t)page ||
	    memcmp(buf + page - sizeof(swap_sig), swap_sig, sizeof(swap_sig)) || h->version != 1) {
		snprintf(why, why_len, "it carries no swap header");
	} else if (strcmp(label, VMS_SWAPFILE_LABEL)) {
		snprintf(why, why_len, "its swap header is not labelled '%s'", VMS_SWAPFILE_LABEL);
	} else if (memcmp(h->uuid, uuid, sizeof(h->uuid))) {
		vms_swapfile_uuid_text(uuid, want);
		vms_swapfile_uuid_text(h->uuid, have);
		snprintf(why, why_len, "its swap header has uuid %s, not the recorded %s", have,
		         want);
	} else {
		ret = 0;
	}
out:
	free(buf);
	return ret;
}

/* Opens path for the checks without following a symlink: the descriptor; or 1 nothing there,
 * 2 refused (why), -errno (as vms_swapfile_verify() returns them) with *fd = -1. */
static int open_checked(const char *path, int *fd, char *why, size_t why_len)
{
	*fd = -1;
	if (why_len)
		why[0] = '\0';
	if (!vms_swapfile_name_ok(path) || path[0] != '/') {
		snprintf(why, why_len, "it is not a name vmsuite gives its swap files (%s*)",
		         VMS_SWAPFILE_PREFIX);
		return 2;
	}
	/* O_NONBLOCK: a FIFO put in its place must not block the open */
	*fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (*fd >= 0)
		return 0;
	if (errno == ELOOP) {
		snprintf(why, why_len, "it is a symbolic link");
		return 2;
	}
	return errno == ENOENT ? 1 : -errno;
}

int vms_swapfile_verify(const char *path, const unsigned char uuid[VMS_SWAPFILE_UUID_LEN],
                        char *why, size_t why_len)
{
	int fd, ret = open_checked(path, &fd, why, why_len);

	if (fd < 0)
		return ret;
	ret = verify_fd(fd, uuid, why, why_len);
	close(fd);
	return ret;
}

/* vms_swapfile_remove_verified(), and with swap_off a file found active is switched off first
 * (the journal's undo of this boot's run: its file is still on). */
static int remove_checked(const char *path, const unsigned char uuid[VMS_SWAPFILE_UUID_LEN],
                          int swap_off, char *why, size_t why_len)
{
	struct stat opened, now;
	int fd, ret = open_checked(path, &fd, why, why_len), listed;

	if (fd < 0)
		return ret;
	ret = verify_fd(fd, uuid, why, why_len);
	if (ret)
		goto out;
	listed = vms_swapfile_listed(path, NULL);
	if (listed > 0 && swap_off) {
		if (swapoff(path) && errno != EINVAL) {
			ret = -errno;
			goto out;
		}
	} else if (listed) {
		ret = listed < 0 ? listed : 2;
		if (listed > 0)
			snprintf(why, why_len, "it is active swap (listed in /proc/swaps)");
		goto out;
	}
	/* the file checked is the file removed: not one put in its place meanwhile */
	if (fstat(fd, &opened) || lstat(path, &now)) {
		ret = errno == ENOENT ? 1 : -errno;
		goto out;
	}
	if (opened.st_dev != now.st_dev || opened.st_ino != now.st_ino) {
		snprintf(why, why_len, "it was replaced while it was checked");
		ret = 2;
		goto out;
	}
	ret = unlink(path) ? (errno == ENOENT ? 1 : -errno) : 0;
out:
	close(fd);
	return ret;
}

int vms_swapfile_remove_verified(const char *path, const unsigned char uuid[VMS_SWAPFILE_UUID_LEN],
                                 char *why, size_t why_len)
{
	return remove_checked(path, uuid, 0, why, why_len);
}

/* ---- the host-state kind (core/hostkind.h) ---- */

_Static_assert(VMS_SWAPFILE_UUID_LEN == VMS_HOST_UUID_LEN, "a journal entry keeps the uuid");

/* The file is removed only when it still is the one the run made: its name, a regular file
 * whose swap header carries vmsuite's label and the uuid recorded in the journal (the checks
 * of vms_swapfile_remove_verified(); anything else is refused, nothing touched); switched off
 * first when /proc/swaps lists this very path. A record of an older vmsuite without a uuid:
 * its name and a regular file only. */
static int undo_swapfile(const struct vms_host_entry *e)
{
	static const unsigned char none[VMS_SWAPFILE_UUID_LEN];
	char why[256];

	if (!memcmp(e->swap_uuid, none, sizeof(none)))
		return vms_swapfile_remove(e->path);
	return remove_checked(e->path, e->swap_uuid, 1, why, sizeof(why));
}

const struct vms_host_kind_row vms_host_row_swapfile = {
    .name = "swapfile",
    .what = "swap file",
    .undo = undo_swapfile,
};
