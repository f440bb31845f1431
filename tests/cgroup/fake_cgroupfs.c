/* Fake cgroupfs + /proc tree for the cgroup unit tests (see fake_cgroupfs.h). */
#include "tests/cgroup/fake_cgroupfs.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fake cgroupfs: %s '%s': %s\n", what, path, strerror(errno));
	abort();
}

void fake_init(struct fake *f)
{
	const char *tmp = getenv("TMPDIR");

	memset(f, 0, sizeof(*f));
	f->inotify_fd = -1;
	snprintf(f->root, sizeof(f->root), "%s/vms-cgfake-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(f->root))
		die("mkdtemp", f->root);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void fake_cleanup(struct fake *f)
{
	if (f->inotify_fd >= 0)
		close(f->inotify_fd);
	f->inotify_fd = -1;
	if (f->root[0])
		nftw(f->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	f->root[0] = '\0';
}

static void mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			die("mkdir", path);
		*p = '/';
	}
}

static void write_file(const char *path, const char *text)
{
	char *dup = vms_xstrdup(path);
	int fd;

	mkdirs(dup);
	free(dup);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("open", path);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die("write", path);
	close(fd);
}

void fake_write(const struct fake *f, const char *rel, const char *text)
{
	char *path = vms_xasprintf("%s%s", f->root, rel);

	write_file(path, text);
	free(path);
}

char *fake_read(const struct fake *f, const char *rel, char *buf, size_t len)
{
	char path[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s%s", f->root, rel);
	buf[0] = '\0';
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return buf;
	n = read(fd, buf, len - 1);
	buf[n < 0 ? 0 : n] = '\0';
	close(fd);
	return buf;
}

int fake_exists(const struct fake *f, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s%s", f->root, rel);
	return access(path, F_OK) == 0;
}

static void meminfo(struct fake *f, uint64_t mem_total, uint64_t swap_total)
{
	char buf[512];

	snprintf(buf, sizeof(buf),
	         "MemTotal:       %" PRIu64 " kB\nMemFree:        %" PRIu64 " kB\n"
	         "MemAvailable:   %" PRIu64 " kB\nCached:         0 kB\n"
	         "SwapTotal:      %" PRIu64 " kB\nSwapFree:       %" PRIu64 " kB\n",
	         mem_total / 1024, mem_total / 2048, mem_total / 2048, swap_total / 1024,
	         swap_total / 1024);
	fake_write(f, "/proc/meminfo", buf);
}

void fake_populate(const char *dir, enum vms_cgroup_version v)
{
	static const char *const v1[][2] = {
	    {"cgroup.procs", ""},
	    {"tasks", ""},
	    {"memory.limit_in_bytes", "9223372036854771712\n"},
	    {"memory.memsw.limit_in_bytes", "9223372036854771712\n"},
	    {"memory.usage_in_bytes", "0\n"},
	    {"memory.memsw.usage_in_bytes", "0\n"},
	    {"memory.max_usage_in_bytes", "0\n"},
	    {"memory.memsw.max_usage_in_bytes", "0\n"},
	    {"memory.failcnt", "0\n"},
	    {"memory.memsw.failcnt", "0\n"},
	    {"memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n"},
	    {"memory.swappiness", "60\n"},
	    {"memory.stat", "cache 0\nrss 0\npgfault 0\nhierarchical_memory_limit "
	                    "9223372036854771712\ntotal_cache 0\ntotal_rss 0\n"
	                    "total_pgfault 0\n"},
	};
	static const char *const v2[][2] = {
	    {"cgroup.procs", ""},
	    {"cgroup.controllers", "memory\n"},
	    {"cgroup.subtree_control", ""},
	    {"memory.max", "max\n"},
	    {"memory.swap.max", "max\n"},
	    {"memory.current", "0\n"},
	    {"memory.swap.current", "0\n"},
	    {"memory.peak", "0\n"},
	    {"memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n"},
	    {"memory.swap.events", "high 0\nmax 0\nfail 0\n"},
	    {"memory.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
	                        "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"},
	    {"memory.stat", "anon 0\nfile 0\npgfault 0\npgscan 0\n"},
	};
	size_t i, n = v == VMS_CGROUP_V1 ? VMS_ARRAY_SIZE(v1) : VMS_ARRAY_SIZE(v2);

	for (i = 0; i < n; i++) {
		char *path = vms_xasprintf("%s/%s", dir, v == VMS_CGROUP_V1 ? v1[i][0] : v2[i][0]);

		write_file(path, v == VMS_CGROUP_V1 ? v1[i][1] : v2[i][1]);
		free(path);
	}
}

void fake_hybrid_v1(struct fake *f, const char *self, uint64_t mem_total, uint64_t swap_total)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
	         "9:name=systemd:/\n8:pids:/\n4:memory:%s\n3:cpuset:/\n1:cpu:/\n0::/\n", self);
	fake_write(f, "/proc/self/cgroup", buf);
	fake_write(f, "/proc/self/mountinfo",
	           "24 1 253:0 / / rw,relatime - ext4 /dev/vda rw\n"
	           "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	           "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	           "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	           "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n");
	fake_write(f, "/sys/fs/cgroup/unified/cgroup.controllers", "hugetlb\n");
	fake_write(f, "/sys/fs/cgroup/unified/memory.pressure",
	           "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
	snprintf(buf, sizeof(buf), "%s/sys/fs/cgroup/memory%s", f->root, self);
	fake_populate(buf, VMS_CGROUP_V1);
	meminfo(f, mem_total, swap_total);
}

void fake_v2(struct fake *f, const char *self, int subtree, uint64_t mem_total, uint64_t swap_total)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "0::%s\n", self);
	fake_write(f, "/proc/self/cgroup", buf);
	fake_write(f, "/proc/self/mountinfo",
	           "24 1 253:0 / / rw,relatime - ext4 /dev/vda rw\n"
	           "30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - "
	           "cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n");
	fake_write(f, "/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory hugetlb pids\n");
	fake_write(f, "/sys/fs/cgroup/cgroup.subtree_control", "cpu io memory pids\n");
	snprintf(buf, sizeof(buf), "%s/sys/fs/cgroup%s", f->root, self);
	fake_populate(buf, VMS_CGROUP_V2);
	snprintf(buf, sizeof(buf), "/sys/fs/cgroup%s/cgroup.controllers", self);
	fake_write(f, buf, "cpu io memory pids\n");
	snprintf(buf, sizeof(buf), "/sys/fs/cgroup%s/cgroup.subtree_control", self);
	fake_write(f, buf, subtree ? "memory\n" : "");
	meminfo(f, mem_total, swap_total);
}

static int ops_mkdir(const char *path, enum vms_cgroup_version v, void *arg)
{
	struct fake *f = arg;

	if (mkdir(path, 0755))
		return -errno;
	fake_populate(path, v);
	f->mkdirs++;
	if (f->inotify_fd >= 0)
		inotify_add_watch(f->inotify_fd, path, IN_CLOSE_WRITE);
	return 0;
}

static int rm_files(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_F ? remove(path) : 0;
}

static int ops_rmdir(const char *path, void *arg)
{
	struct fake *f = arg;
	char procs[4096], parent[4096], mine[256] = "", theirs[256] = "";
	char *slash;
	int fd;
	ssize_t n;

	if (access(path, F_OK))
		return -ENOENT;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	*slash = '\0';
	snprintf(slash, sizeof(parent) - (size_t)(slash - parent), "/cgroup.procs");
	fd = open(procs, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, mine, sizeof(mine) - 1);
		mine[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	fd = open(parent, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, theirs, sizeof(theirs) - 1);
		theirs[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	mine[strcspn(mine, "\n")] = '\0';
	if (mine[0] && !strstr(theirs, mine))
		return -EBUSY;
	nftw(path, rm_files, 16, FTW_PHYS);
	if (rmdir(path))
		return -errno;
	f->rmdirs++;
	return 0;
}

struct vms_cgroup_fs_ops fake_ops(struct fake *f)
{
	struct vms_cgroup_fs_ops ops = {ops_mkdir, ops_rmdir, f};

	return ops;
}

int fake_setup(void **state)
{
	struct fake *f = vms_xcalloc(1, sizeof(*f));

	fake_init(f);
	*state = f;
	return 0;
}

int fake_teardown(void **state)
{
	struct fake *f = *state;

	fake_cleanup(f);
	free(f);
	return 0;
}
