/* The emulated machine's zram device (see zram.h). Kernel paths: /sys/class/zram-control,
 * /sys/block/zramN, the block device /dev/zramN (its swap header), swapon(2), swapoff(2),
 * /proc/swaps. */
#include "core/zram.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/swapfile.h"
#include "core/util.h"

#define HOT_ADD    VMS_ZRAM_CONTROL "/hot_add"
#define HOT_REMOVE VMS_ZRAM_CONTROL "/hot_remove"

static void sys_path(char *buf, size_t len, int id, const char *attr)
{
	snprintf(buf, len, "/sys/block/zram%d/%s", id, attr);
}

static int read_attr_u64(int id, const char *attr, unsigned long long *out)
{
	char path[96];
	uint64_t v;
	int ret;

	sys_path(path, sizeof(path), id, attr);
	ret = vms_read_u64(path, &v);
	if (!ret)
		*out = v;
	return ret;
}

static int write_attr(int id, const char *attr, const char *value)
{
	char path[96];

	sys_path(path, sizeof(path), id, attr);
	return vms_write_text(path, value);
}

int vms_zram_check(char *why, size_t why_len)
{
	unsigned long long floor;

	if (geteuid() != 0) {
		snprintf(why, why_len, "zram swap needs root (hot_add, swapon)");
		return -ENOTSUP;
	}
	if (access(HOT_ADD, F_OK)) {
		snprintf(why, why_len,
		         "this kernel has no '%s' (zram not built in or loaded: modprobe zram)",
		         HOT_ADD);
		return -ENOTSUP;
	}
	if (vms_zram_diskseq_floor(&floor)) {
		snprintf(why, why_len,
		         "this kernel's block devices have no diskseq (Linux 5.15+), which tells "
		         "vmsuite's zram device from others");
		return -ENOTSUP;
	}
	return 0;
}

int vms_zram_pick_compressor(const char *list, char *out, size_t out_len)
{
	const char *p = list, *open = strchr(list, '['), *close = open ? strchr(open, ']') : NULL;
	size_t want = strlen(VMS_ZRAM_COMPRESSOR);

	/* the names are blank-separated, the current one in brackets */
	while ((p = strstr(p, VMS_ZRAM_COMPRESSOR))) {
		char before = p == list ? ' ' : p[-1], after = p[want];

		if ((before == ' ' || before == '[') &&
		    (after == ' ' || after == ']' || after == '\n' || !after)) {
			snprintf(out, out_len, "%s", VMS_ZRAM_COMPRESSOR);
			return 0;
		}
		p += want;
	}
	if (!open || !close || close == open + 1 || (size_t)(close - open - 1) >= out_len)
		return -EINVAL;
	memcpy(out, open + 1, (size_t)(close - open - 1));
	out[close - open - 1] = '\0';
	return 0;
}

int vms_zram_mm_stat_parse(const char *text, struct vms_zram_mm_stat *st)
{
	unsigned long long v[8] = {0};
	int n;

	n = sscanf(text, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
	           &v[4], &v[5], &v[6], &v[7]);
	if (n < 7)
		return -EINVAL;
	st->orig_data_size = v[0];
	st->compr_data_size = v[1];
	st->mem_used_total = v[2];
	st->mem_limit = v[3];
	st->mem_used_max = v[4];
	st->same_pages = v[5];
	st->pages_compacted = v[6];
	st->huge_pages = n > 7 ? v[7] : 0;
	return 0;
}

int vms_zram_diskseq_floor(unsigned long long *floor)
{
	DIR *dh = opendir("/sys/block");
	struct dirent *d;
	int found = 0;

	*floor = 0;
	if (!dh)
		return -errno;
	while ((d = readdir(dh))) {
		char path[300];
		uint64_t v;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/diskseq", d->d_name);
		if (vms_read_u64(path, &v))
			continue;
		found = 1;
		if (v > *floor)
			*floor = v;
	}
	closedir(dh);
	return found ? 0 : -ENOTSUP;
}

/* "/dev/zramN" is the block device /sys/block/zramN describes (its dev numbers). 0, 1 not
 * (missing, or something else in its place), -errno. */
static int node_matches(int id, const char *device)
{
	char path[96], dev[32];
	unsigned maj, min;
	struct stat st;
	int ret;

	sys_path(path, sizeof(path), id, "dev");
	if ((ret = vms_read_line(path, dev, sizeof(dev))))
		return ret;
	if (sscanf(dev, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	if (lstat(device, &st))
		return errno == ENOENT ? 1 : -errno;
	return S_ISBLK(st.st_mode) && major(st.st_rdev) == maj && minor(st.st_rdev) == min ? 0 : 1;
}

static int hot_remove(int id)
{
	char num[24];

	snprintf(num, sizeof(num), "%d", id);
	return vms_write_text(HOT_REMOVE, num);
}

int vms_zram_add(struct vms_zram *z)
{
	char buf[32], *end;
	ssize_t n;
	long id;
	int fd, ret;

	z->id = -1;
	fd = open(HOT_ADD, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		return vms_error_ret(ret, "cannot open '%s': %s", HOT_ADD, strerror(-ret));
	}
	/* one read: each read of hot_add adds a device */
	n = read(fd, buf, sizeof(buf) - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return vms_error_ret(ret, "cannot add a zram device ('%s'): %s", HOT_ADD,
		                     strerror(-ret));
	buf[n > 0 ? n : 0] = '\0';
	errno = 0;
	id = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || id < 0 || id > 1000000)
		return vms_error_ret(-EIO, "'%s' answered '%s', not a device number", HOT_ADD, buf);
	z->id = (int)id;
	snprintf(z->device, sizeof(z->device), "/dev/zram%d", z->id);
	ret = read_attr_u64(z->id, "diskseq", &z->diskseq);
	if (ret) {
		/* just added, unused: this run's, but it cannot be told from others later */
		hot_remove(z->id);
		z->id = -1;
		return vms_error_ret(ret, "cannot read the diskseq of the new zram device: %s",
		                     strerror(-ret));
	}
	return 0;
}

int vms_zram_setup(struct vms_zram *z, uint64_t disksize, uint64_t mem_limit,
                   const unsigned char uuid[VMS_HOST_UUID_LEN])
{
	char path[96], *list, num[32];
	int fd, ret, flags;

	sys_path(path, sizeof(path), z->id, "comp_algorithm");
	list = vms_read_text(path);
	if (!list) {
		ret = -errno;
		return vms_error_ret(ret, "cannot read '%s': %s", path, strerror(-ret));
	}
	ret = vms_zram_pick_compressor(list, z->compressor, sizeof(z->compressor));
	free(list);
	if (ret)
		return vms_error_ret(ret, "'%s' lists no compressor", path);
	if ((ret = write_attr(z->id, "comp_algorithm", z->compressor)))
		return vms_error_ret(ret, "cannot set the compressor of '%s' to '%s': %s",
		                     z->device, z->compressor, strerror(-ret));
	snprintf(num, sizeof(num), "%" PRIu64, disksize);
	if ((ret = write_attr(z->id, "disksize", num)))
		return vms_error_ret(ret, "cannot size '%s' to %s bytes: %s", z->device, num,
		                     strerror(-ret));
	z->disksize = disksize;
	snprintf(num, sizeof(num), "%" PRIu64, mem_limit);
	if ((ret = write_attr(z->id, "mem_limit", num)))
		return vms_error_ret(ret, "cannot cap the pool of '%s' at %s bytes: %s", z->device,
		                     num, strerror(-ret));
	z->mem_limit = mem_limit;

	/* mkswap: the node must be this very device */
	if ((ret = node_matches(z->id, z->device)))
		return vms_error_ret(ret < 0 ? ret : -ENODEV, "'%s' is not the zram device %d",
		                     z->device, z->id);
	fd = open(z->device, O_WRONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		return vms_error_ret(ret, "cannot open '%s': %s", z->device, strerror(-ret));
	}
	ret = vms_swap_header_write(fd, disksize, uuid);
	if (!ret && fsync(fd))
		ret = -errno;
	close(fd);
	if (ret)
		return vms_error_ret(ret, "cannot write the swap header of '%s': %s", z->device,
		                     strerror(-ret));
	z->priority = VMS_ZRAM_PRIORITY;
	flags = SWAP_FLAG_PREFER | ((z->priority << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
	if (swapon(z->device, flags)) {
		ret = -errno;
		return vms_error_ret(ret, "cannot switch on '%s' as swap: %s", z->device,
		                     strerror(-ret));
	}
	z->on = 1;
	return 0;
}

int vms_zram_read_stats(int id, struct vms_zram_mm_stat *st, uint64_t *written, uint64_t *read)
{
	char path[96], buf[512];
	unsigned long long f[7];
	ssize_t n;
	int ret;

	sys_path(path, sizeof(path), id, "mm_stat");
	n = vms_read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if ((ret = vms_zram_mm_stat_parse(buf, st)))
		return ret;
	if (!written && !read)
		return 0;
	/* Documentation/block/stat.rst: reads, merges, sectors, ticks, writes, merges,
	 * sectors (512 bytes) */
	sys_path(path, sizeof(path), id, "stat");
	n = vms_read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4],
	           &f[5], &f[6]) != 7)
		return -EINVAL;
	if (read)
		*read = (uint64_t)f[2] * 512;
	if (written)
		*written = (uint64_t)f[6] * 512;
	return 0;
}

int vms_zram_reset_peak(int id)
{
	return write_attr(id, "mem_used_max", "0");
}

int vms_zram_ours(int id, unsigned long long diskseq)
{
	unsigned long long now;
	int ret = read_attr_u64(id, "diskseq", &now);

	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	return now == diskseq;
}

int vms_zram_remove(int id, unsigned long long diskseq)
{
	char device[32];
	int ret;

	ret = vms_zram_ours(id, diskseq);
	if (ret <= 0)
		return ret ? ret : 1;
	snprintf(device, sizeof(device), "/dev/zram%d", id);
	ret = vms_swapfile_listed(device, NULL);
	if (ret < 0)
		return ret;
	if (ret) {
		/* the node must be the device checked: never another area's */
		if ((ret = node_matches(id, device)))
			return ret < 0 ? ret : -ENODEV;
		if (swapoff(device) && errno != EINVAL)
			return -errno;
	}
	/* reset frees the pool; a device held open (by anyone) says EBUSY */
	if ((ret = write_attr(id, "reset", "1")))
		return ret;
	ret = hot_remove(id);
	return ret == -ENODEV || ret == -ENOENT ? 1 : ret;
}

/* ---- the host-state kind ---- */

/* The entry's device number from its path "/dev/zramN", or -1. */
static int entry_id(const char *path)
{
	char *end;
	long id;

	if (strncmp(path, "/dev/zram", 9) || path[9] < '0' || path[9] > '9')
		return -1;
	errno = 0;
	id = strtol(path + 9, &end, 10);
	return errno || *end || id > 1000000 ? -1 : (int)id;
}

/* A record made before hot_add (path HOT_ADD, diskseq = the floor then): what was added after
 * it cannot be told from another's; named, never touched. */
static void pending_left(const struct vms_host_entry *e)
{
	DIR *dh = opendir("/sys/block");
	struct dirent *d;
	char list[512] = "";
	size_t used = 0;

	if (!dh)
		return;
	while ((d = readdir(dh))) {
		unsigned long long seq;
		char *end;
		long id;

		if (strncmp(d->d_name, "zram", 4))
			continue;
		id = strtol(d->d_name + 4, &end, 10);
		if (*end || id < 0 || read_attr_u64((int)id, "diskseq", &seq) || seq <= e->diskseq)
			continue;
		used += (size_t)snprintf(list + used, used < sizeof(list) ? sizeof(list) - used : 0,
		                         "%s/dev/%s", used ? ", " : "", d->d_name);
	}
	closedir(dh);
	if (list[0])
		vms_warn(
		    "pid %ld died while adding a zram device; added since, left alone (vmsuite "
		    "cannot tell its own among them): %s",
		    e->owner.pid, list);
}

/* The device is removed only while it still is the one the run added (its number and
 * diskseq); a record written before the device existed removes nothing. */
static int undo_zram(const struct vms_host_entry *e)
{
	int id;

	if (!strcmp(e->path, HOT_ADD)) {
		pending_left(e);
		return 1;
	}
	id = entry_id(e->path);
	if (id < 0 || !e->diskseq)
		return 2;
	return vms_zram_remove(id, e->diskseq);
}

const struct vms_host_kind_row vms_host_row_zram = {
    .name = "zram",
    .what = "zram device",
    .undo = undo_zram,
};
