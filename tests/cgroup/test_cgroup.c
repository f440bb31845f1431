/* Unit tests of core/cgroup.c on fake cgroupfs trees (v1 and v2): detection from
 * /proc/self/{cgroup,mountinfo}, limits and their write order, statistics and deltas, the
 * in-cgroup meminfo view, joining and removal. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/cgroup.h"
#include "core/util.h"
#include "tests/cgroup/fake_cgroupfs.h"
#include "tests/vms_test.h"

#define MIB   (UINT64_C(1) << 20)
#define GIB   (UINT64_C(1) << 30)
#define SELF  "/process_api/abc"
#define V1DIR "/sys/fs/cgroup/memory" SELF

static void expect_path(const struct fake *f, const char *got, const char *rel)
{
	char want[1024];

	snprintf(want, sizeof(want), "%s%s", f->root, rel);
	assert_string_equal(got, want);
}

/* ---- detection ---- */

static void test_detect_hybrid_v1(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(info.version, VMS_CGROUP_V1);
	expect_path(f, info.mount, "/sys/fs/cgroup/memory");
	expect_path(f, info.self_dir, V1DIR);
	assert_string_equal(info.self_path, SELF);
	assert_true(info.writable);
	assert_string_equal(info.why, "");
	assert_true(info.swap_accounting);
	assert_false(info.pressure);
}

static void test_detect_v1_namespaced_mount(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;
	char dir[1024];

	/* a container: the mount's root is /docker/x and the caller sits in /docker/x/sub */
	fake_write(f, "/proc/self/cgroup", "4:memory:/docker/x/sub\n0::/\n");
	fake_write(f, "/proc/self/mountinfo",
	           "35 31 0:32 /docker/x /sys/fs/cgroup/memory ro,relatime - cgroup cgroup "
	           "rw,memory\n");
	snprintf(dir, sizeof(dir), "%s/sys/fs/cgroup/memory/sub", f->root);
	fake_populate(dir, VMS_CGROUP_V1);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(info.version, VMS_CGROUP_V1);
	expect_path(f, info.self_dir, "/sys/fs/cgroup/memory/sub");
}

static void test_detect_mount_escape(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;
	char dir[1024];

	fake_write(f, "/proc/self/cgroup", "7:cpu,memory:/a\n");
	fake_write(f, "/proc/self/mountinfo",
	           "35 31 0:32 / /mnt/my\\040cg rw - cgroup cgroup rw,cpu,memory\n");
	snprintf(dir, sizeof(dir), "%s/mnt/my cg/a", f->root);
	fake_populate(dir, VMS_CGROUP_V1);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(info.version, VMS_CGROUP_V1);
	expect_path(f, info.self_dir, "/mnt/my cg/a");
	assert_true(info.writable);
}

static void test_detect_hybrid_memory_on_v2(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;
	char dir[1024];

	/* v1 hierarchies without memory (a named one, cpu) and memory on the unified one, whose
	 * mount point is escaped and whose lines carry optional fields */
	fake_write(f, "/proc/self/cgroup", "1:name=systemd:/s\n2:cpu:/c\n0::/u\n");
	fake_write(f, "/proc/self/mountinfo",
	           "24 1 253:0 / / rw - ext4 /dev/vda rw\n"
	           "32 31 0:29 / /sys/fs/cgroup/systemd rw shared:9 - cgroup cgroup "
	           "rw,xattr,name=systemd\n"
	           "33 31 0:30 / /sys/fs/cgroup/cpu rw shared:10 - cgroup cgroup rw,cpu\n"
	           "41 31 0:38 / /sys/fs/cgroup/my\\040unified rw shared:11 master:1 - cgroup2 "
	           "cgroup2 rw\n");
	snprintf(dir, sizeof(dir), "%s/sys/fs/cgroup/my unified/u", f->root);
	fake_populate(dir, VMS_CGROUP_V2);
	fake_write(f, "/sys/fs/cgroup/my unified/u/cgroup.controllers", "cpu memory\n");
	fake_write(f, "/sys/fs/cgroup/my unified/u/cgroup.subtree_control", "memory\n");
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(info.version, VMS_CGROUP_V2);
	assert_string_equal(info.self_path, "/u");
	expect_path(f, info.mount, "/sys/fs/cgroup/my unified");
	expect_path(f, info.self_dir, "/sys/fs/cgroup/my unified/u");
	assert_true(info.writable);
}

static void test_detect_v1_no_memsw(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;
	char path[1024];

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	snprintf(path, sizeof(path), "%s%s/memory.memsw.limit_in_bytes", f->root, V1DIR);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(info.version, VMS_CGROUP_V1);
	assert_false(info.swap_accounting);
}

static void test_detect_v2(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;

	fake_v2(f, "/user.slice/u", 1, 8 * GIB, 2 * GIB);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(info.version, VMS_CGROUP_V2);
	expect_path(f, info.mount, "/sys/fs/cgroup");
	expect_path(f, info.self_dir, "/sys/fs/cgroup/user.slice/u");
	assert_true(info.writable);
	assert_true(info.pressure);
	assert_true(info.swap_accounting);
	assert_false(info.v2_enable_memory);
}

static void test_detect_v2_no_subtree(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;
	char want[1200];

	fake_v2(f, "/user.slice/u", 0, 8 * GIB, 2 * GIB);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(info.version, VMS_CGROUP_V2);
	assert_false(info.writable);
	snprintf(want, sizeof(want),
	         "echo +memory > %s/sys/fs/cgroup/user.slice/u/cgroup.subtree_control", f->root);
	assert_non_null(strstr(info.why, want));
}

static void test_detect_v2_root_cgroup(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;

	fake_write(f, "/proc/self/cgroup", "0::/\n");
	fake_write(f, "/proc/self/mountinfo",
	           "30 24 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	fake_write(f, "/sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");
	fake_write(f, "/sys/fs/cgroup/cgroup.subtree_control", "cpu\n");
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(info.version, VMS_CGROUP_V2);
	assert_true(info.writable);
	assert_true(info.v2_enable_memory);
}

static void test_detect_none(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;

	/* this machine's cgroup2 (no controllers) without the v1 memory hierarchy */
	fake_write(f, "/proc/self/cgroup", "8:pids:/\n0::/\n");
	fake_write(f, "/proc/self/mountinfo",
	           "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	           "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n");
	fake_write(f, "/sys/fs/cgroup/unified/cgroup.controllers", "hugetlb\n");
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(info.version, VMS_CGROUP_NONE);
	assert_false(info.writable);
	assert_non_null(strstr(info.why, "cgroup.controllers"));
	assert_non_null(strstr(info.why, "no cgroup v1 memory hierarchy"));
}

static void test_detect_no_proc(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_info info;

	assert_int_equal(vms_cgroup_detect(&info, f->root), -ENOENT);
	assert_int_equal(info.version, VMS_CGROUP_NONE);
}

static void test_detect_unprivileged(void **state)
{
	struct fake *f = *state;
	pid_t pid;
	int status;

	if (geteuid() != 0)
		vms_test_skip("needs root to drop to the nobody user");
	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	assert_int_equal(chmod(f->root, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct vms_cgroup_info info;

		if (setgid(65534) || setuid(65534))
			_exit(3);
		if (vms_cgroup_detect(&info, f->root) || info.version != VMS_CGROUP_V1)
			_exit(4);
		if (info.writable || !strstr(info.why, "run as root"))
			_exit(5);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* ---- create: limits and their order ---- */

/* The control files closed after writing in dir, in order, as one "a,b,c" string. */
static void write_order(int ifd, char *out, size_t len)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n = read(ifd, buf, sizeof(buf));
	char *p;

	out[0] = '\0';
	for (p = buf; n > 0 && p < buf + n;) {
		struct inotify_event *ev = (struct inotify_event *)p;
		size_t used = strlen(out);

		if (ev->len && strncmp(ev->name, "cgroup.", 7))
			snprintf(out + used, len - used, "%s%s", used ? "," : "", ev->name);
		p += sizeof(*ev) + ev->len;
	}
}

static void create_v1(struct fake *f, struct vms_cgroup *cg, struct vms_cgroup_fs_ops *ops,
                      uint64_t mem, uint64_t swap)
{
	struct vms_cgroup_info info;

	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	*ops = fake_ops(f);
	assert_int_equal(vms_cgroup_create(cg, &info, "vmsuite-test", mem, swap, ops), 0);
}

static void test_create_v1_limits(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	char buf[256], order[512];

	fake_hybrid_v1(f, SELF, 24 * GIB, 2 * GIB);
	f->inotify_fd = inotify_init1(IN_NONBLOCK);
	assert_true(f->inotify_fd >= 0);
	create_v1(f, &cg, &ops, 512 * MIB, 1 * GIB);
	assert_int_equal(f->mkdirs, 1);
	assert_int_equal(cg.version, VMS_CGROUP_V1);
	expect_path(f, cg.dir, V1DIR "/vmsuite-test");
	expect_path(f, cg.parent, V1DIR);
	expect_path(f, cg.procs, V1DIR "/vmsuite-test/cgroup.procs");
	assert_string_equal(fake_read(f, V1DIR "/vmsuite-test/memory.limit_in_bytes", buf, 256),
	                    "536870912");
	assert_string_equal(
	    fake_read(f, V1DIR "/vmsuite-test/memory.memsw.limit_in_bytes", buf, 256),
	    "1610612736");
	/* a fresh v1 cgroup has unlimited memsw: the memory limit goes first */
	write_order(f->inotify_fd, order, sizeof(order));
	assert_string_equal(order, "memory.limit_in_bytes,memory.memsw.limit_in_bytes");
	assert_true(cg.swap_accounting);
	assert_int_equal(cg.mem_limit, 512 * MIB);
	assert_int_equal(cg.swap_limit, 1 * GIB);
	assert_int_equal(cg.host_swap_total, 2 * GIB);
	assert_int_equal(vms_cgroup_effective_swap(&cg), 1 * GIB);
	assert_true(cg.peak_per_run);
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
}

/* mkdir op of a kernel whose new cgroups start with memsw 256 MiB / mem 128 MiB. */
static int mkdir_tight(const char *path, enum vms_cgroup_version v, void *arg)
{
	struct fake *f = arg;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	char file[1024];
	FILE *fp;
	int ret = ops.mkdir(path, v, arg);

	if (ret)
		return ret;
	snprintf(file, sizeof(file), "%s/memory.memsw.limit_in_bytes", path);
	fp = fopen(file, "w");
	fprintf(fp, "268435456\n");
	fclose(fp);
	/* drain the populate events, so only vms_cgroup_create's writes are seen */
	write_order(f->inotify_fd, file, sizeof(file));
	return 0;
}

static void test_create_v1_raise_order(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	struct vms_cgroup_info info;
	char order[512];

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	f->inotify_fd = inotify_init1(IN_NONBLOCK);
	ops = fake_ops(f);
	ops.mkdir = mkdir_tight;
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, "vmsuite-test", 512 * MIB, 0, &ops), 0);
	/* memsw (256 MiB) is below the new memory limit: memsw must be raised first */
	write_order(f->inotify_fd, order, sizeof(order));
	assert_string_equal(order, "memory.memsw.limit_in_bytes,memory.limit_in_bytes");
	assert_int_equal(cg.mem_limit, 512 * MIB);
	assert_int_equal(cg.swap_limit, 0);
	assert_int_equal(vms_cgroup_effective_swap(&cg), 0);
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
}

static int mkdir_no_memsw(const char *path, enum vms_cgroup_version v, void *arg)
{
	struct vms_cgroup_fs_ops ops = fake_ops(arg);
	static const char *const memsw[] = {"limit_in_bytes", "usage_in_bytes",
	                                    "max_usage_in_bytes", "failcnt"};
	char file[1024];
	size_t i;
	int ret = ops.mkdir(path, v, arg);

	for (i = 0; !ret && i < VMS_ARRAY_SIZE(memsw); i++) {
		snprintf(file, sizeof(file), "%s/memory.memsw.%s", path, memsw[i]);
		unlink(file);
	}
	return ret;
}

static void test_create_v1_no_swap_accounting(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	struct vms_cgroup_info info;
	char buf[256];
	json_t *facts;

	fake_hybrid_v1(f, SELF, 24 * GIB, 4 * GIB);
	ops = fake_ops(f);
	ops.mkdir = mkdir_no_memsw;
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, "vmsuite-test", 64 * MIB, GIB, &ops), 0);
	assert_false(cg.swap_accounting);
	assert_false(fake_exists(f, V1DIR "/vmsuite-test/memory.memsw.limit_in_bytes"));
	assert_string_equal(fake_read(f, V1DIR "/vmsuite-test/memory.limit_in_bytes", buf, 256),
	                    "67108864");
	assert_int_equal(cg.swap_limit, VMS_CGROUP_UNLIMITED);
	/* not enforced: the whole host swap is usable */
	assert_int_equal(vms_cgroup_effective_swap(&cg), 4 * GIB);
	facts = vms_cgroup_facts_json(&cg);
	assert_true(json_is_null(json_object_get(facts, "swap_limit_bytes")));
	assert_int_equal(json_integer_value(json_object_get(facts, "swap_limit_requested_bytes")),
	                 GIB);
	assert_true(json_is_false(json_object_get(facts, "swap_accounting")));
	json_decref(facts);
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
}

static void test_create_v2_limits(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	struct vms_cgroup_info info;
	char buf[256];

	fake_v2(f, "/user.slice/u", 1, 8 * GIB, 0);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, "vmsuite-test", 512 * MIB, GIB, &ops), 0);
	assert_int_equal(cg.version, VMS_CGROUP_V2);
	assert_string_equal(
	    fake_read(f, "/sys/fs/cgroup/user.slice/u/vmsuite-test/memory.max", buf, 256),
	    "536870912");
	assert_string_equal(
	    fake_read(f, "/sys/fs/cgroup/user.slice/u/vmsuite-test/memory.swap.max", buf, 256),
	    "1073741824");
	assert_int_equal(cg.mem_limit, 512 * MIB);
	assert_int_equal(cg.swap_limit, GIB);
	/* the host has no swap: none can be emulated */
	assert_int_equal(vms_cgroup_effective_swap(&cg), 0);
	assert_true(cg.pressure);
	assert_true(cg.peak_per_run);
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	assert_false(fake_exists(f, "/sys/fs/cgroup/user.slice/u/vmsuite-test"));
}

static void test_create_v2_unlimited_swap(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	struct vms_cgroup_info info;
	char buf[256];

	fake_v2(f, "/u", 1, 8 * GIB, GIB);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, "x", 256 * MIB, VMS_CGROUP_UNLIMITED, &ops),
	                 0);
	assert_string_equal(fake_read(f, "/sys/fs/cgroup/u/x/memory.swap.max", buf, 256), "max");
	assert_int_equal(cg.swap_limit, VMS_CGROUP_UNLIMITED);
	assert_int_equal(vms_cgroup_effective_swap(&cg), GIB);
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
}

static void test_create_v2_root_enables_memory(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	struct vms_cgroup_info info;
	char buf[256];

	fake_write(f, "/proc/self/cgroup", "0::/\n");
	fake_write(f, "/proc/self/mountinfo",
	           "30 24 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	fake_write(f, "/proc/meminfo", "MemTotal: 1048576 kB\nSwapTotal: 0 kB\n");
	fake_write(f, "/sys/fs/cgroup/cgroup.controllers", "cpu memory\n");
	fake_write(f, "/sys/fs/cgroup/cgroup.subtree_control", "");
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, "x", 64 * MIB, 0, &ops), 0);
	assert_string_equal(fake_read(f, "/sys/fs/cgroup/cgroup.subtree_control", buf, 256),
	                    "+memory");
	expect_path(f, cg.dir, "/sys/fs/cgroup/x");
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
}

static void test_create_not_writable(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	struct vms_cgroup_info info;

	fake_v2(f, "/user.slice/u", 0, 8 * GIB, 0);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, NULL, 512 * MIB, 0, &ops), -ENOTSUP);
	assert_int_equal(f->mkdirs, 0);
	assert_false(cg.created);
	/* destroy of a cgroup never made is harmless */
	assert_int_equal(vms_cgroup_destroy(&cg, 1), 0);
}

static void test_create_default_name_and_stale(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	struct vms_cgroup_info info;
	char dir[1024], rel[256];
	pid_t dead;
	int status;

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	dead = fork();
	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	waitpid(dead, &status, 0);
	/* a left-over of a dead vmsuite, and one of a live process (pid 1) */
	snprintf(dir, sizeof(dir), "%s%s/vmsuite-%ld", f->root, V1DIR, (long)dead);
	fake_populate(dir, VMS_CGROUP_V1);
	snprintf(dir, sizeof(dir), "%s%s/vmsuite-1", f->root, V1DIR);
	fake_populate(dir, VMS_CGROUP_V1);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, NULL, 64 * MIB, 0, &ops), 0);
	snprintf(rel, sizeof(rel), "%s/vmsuite-%ld", V1DIR, (long)getpid());
	expect_path(f, cg.dir, rel);
	snprintf(rel, sizeof(rel), "%s/vmsuite-%ld", V1DIR, (long)dead);
	assert_false(fake_exists(f, rel));
	assert_true(fake_exists(f, V1DIR "/vmsuite-1"));
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
}

/* ---- statistics ---- */

static void test_stats_v1_delta(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	struct vms_cgroup_stats *before = vms_xmalloc(sizeof(*before));
	struct vms_cgroup_stats *after = vms_xmalloc(sizeof(*after));
	char buf[256];
	json_t *d, *sd;
	uint64_t usage;

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	create_v1(f, &cg, &ops, 64 * MIB, 0);
#define C V1DIR "/vmsuite-test/"
	fake_write(f, C "memory.usage_in_bytes", "1000\n");
	fake_write(f, C "memory.memsw.usage_in_bytes", "1000\n");
	fake_write(f, C "memory.max_usage_in_bytes", "5000\n");
	fake_write(f, C "memory.failcnt", "3\n");
	fake_write(f, C "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
	fake_write(f, C "memory.stat",
	           "cache 4096\nrss 8192\npgfault 10\npgmajfault 1\ndirty 0\n"
	           "hierarchical_memory_limit 67108864\ntotal_cache 4096\ntotal_rss 8192\n"
	           "total_pgfault 20\ntotal_pgmajfault 2\ntotal_dirty 0\n");
	assert_int_equal(vms_cgroup_run_begin(&cg, before), 0);
	/* v1 peak reset: 0 written to max_usage_in_bytes */
	assert_string_equal(fake_read(f, C "memory.max_usage_in_bytes", buf, 256), "0");
	assert_int_equal(before->usage, 1000);
	assert_int_equal(before->limit_hits, 3);
	assert_int_equal(before->oom_kill, 1);
	assert_int_equal(before->oom, VMS_CGROUP_NA);

	fake_write(f, C "memory.usage_in_bytes", "2000\n");
	fake_write(f, C "memory.memsw.usage_in_bytes", "6096\n");
	fake_write(f, C "memory.max_usage_in_bytes", "60000\n");
	fake_write(f, C "memory.failcnt", "10\n");
	fake_write(f, C "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
	fake_write(f, C "memory.stat",
	           "cache 4096\nrss 8192\npgfault 110\npgmajfault 5\ndirty 4096\n"
	           "hierarchical_memory_limit 67108864\ntotal_cache 4096\ntotal_rss 8192\n"
	           "total_pgfault 120\ntotal_pgmajfault 7\ntotal_dirty 8192\n");
	assert_int_equal(vms_cgroup_usage(&cg, &usage), 0);
	assert_int_equal(usage, 2000);
	assert_int_equal(vms_cgroup_stats_read(&cg, after), 0);
	d = vms_cgroup_delta_json(&cg, before, after);
	assert_int_equal(json_integer_value(json_object_get(d, "peak_bytes")), 60000);
	assert_string_equal(json_string_value(json_object_get(d, "peak_scope")), "run");
	assert_int_equal(json_integer_value(json_object_get(d, "usage_start_bytes")), 1000);
	assert_int_equal(json_integer_value(json_object_get(d, "usage_end_bytes")), 2000);
	assert_int_equal(json_integer_value(json_object_get(d, "swap_end_bytes")), 4096);
	assert_int_equal(json_integer_value(json_object_get(d, "limit_hits")), 7);
	assert_int_equal(json_integer_value(json_object_get(d, "oom_kill")), 1);
	assert_null(json_object_get(d, "oom"));
	assert_null(json_object_get(d, "pressure"));
	sd = json_object_get(d, "stat_delta");
	/* the hierarchical total_ figures, under v2-like names */
	assert_int_equal(json_integer_value(json_object_get(sd, "pgfault")), 100);
	assert_int_equal(json_integer_value(json_object_get(sd, "pgmajfault")), 5);
	assert_int_equal(json_integer_value(json_object_get(sd, "dirty")), 8192);
	assert_null(json_object_get(sd, "total_pgfault"));
	assert_null(json_object_get(sd, "hierarchical_memory_limit"));
	json_decref(d);
#undef C
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	free(before);
	free(after);
}

/* v1 gives a cgroup a copy of its parent's memory.swappiness at mkdir and never follows
 * vm.swappiness after: each run begins with the host's sysctl written into the cgroup, so that
 * the emulated machine swaps as the host is set (and --sysctl vm.swappiness variants apply). */
static void test_v1_swappiness_follows_sysctl(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	struct vms_cgroup_stats *before = vms_xmalloc(sizeof(*before));
	char buf[64];
	json_t *d;

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	create_v1(f, &cg, &ops, 64 * MIB, 0);
#define C V1DIR "/vmsuite-test/"
	/* no readable sysctl: the cgroup's value is left alone and not reported */
	assert_int_equal(vms_cgroup_run_begin(&cg, before), 0);
	assert_int_equal(cg.swappiness, -1);
	assert_string_equal(fake_read(f, C "memory.swappiness", buf, sizeof(buf)), "60\n");
	d = vms_cgroup_delta_json(&cg, before, before);
	assert_null(json_object_get(d, "swappiness"));
	json_decref(d);

	fake_write(f, "/proc/sys/vm/swappiness", "10\n");
	assert_int_equal(vms_cgroup_run_begin(&cg, before), 0);
	assert_int_equal(cg.swappiness, 10);
	assert_string_equal(fake_read(f, C "memory.swappiness", buf, sizeof(buf)), "10");
	d = vms_cgroup_delta_json(&cg, before, before);
	assert_int_equal(json_integer_value(json_object_get(d, "swappiness")), 10);
	json_decref(d);

	/* a knob variant changes the sysctl between runs: the next run follows it */
	fake_write(f, "/proc/sys/vm/swappiness", "100\n");
	assert_int_equal(vms_cgroup_run_begin(&cg, before), 0);
	assert_string_equal(fake_read(f, C "memory.swappiness", buf, sizeof(buf)), "100");
	assert_int_equal(cg.swappiness, 100);
#undef C
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	free(before);
}

static void test_stats_v2_delta(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	struct vms_cgroup_info info;
	struct vms_cgroup_stats *before = vms_xmalloc(sizeof(*before));
	struct vms_cgroup_stats *after = vms_xmalloc(sizeof(*after));
	char buf[256];
	json_t *d, *sd, *pr;

	fake_v2(f, "/u", 1, 8 * GIB, GIB);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, "x", 512 * MIB, GIB, &ops), 0);
#define C "/sys/fs/cgroup/u/x/"
	fake_write(f, C "memory.current", "4096\n");
	fake_write(f, C "memory.events", "low 0\nhigh 1\nmax 2\noom 0\noom_kill 0\n");
	fake_write(f, C "memory.stat", "anon 4096\nfile 0\npgfault 5\npgscan 0\npgsteal 0\n");
	fake_write(f, C "memory.pressure",
	           "some avg10=0.00 avg60=0.00 avg300=0.00 total=100\n"
	           "full avg10=0.00 avg60=0.00 avg300=0.00 total=40\n");
	assert_int_equal(vms_cgroup_run_begin(&cg, before), 0);
	/* v2 peak reset goes through the kept descriptor */
	assert_non_null(strstr(fake_read(f, C "memory.peak", buf, 256), "reset"));
	fake_write(f, C "memory.peak", "536870912\n");
	fake_write(f, C "memory.current", "8192\n");
	fake_write(f, C "memory.swap.current", "12288\n");
	fake_write(f, C "memory.events", "low 0\nhigh 5\nmax 9\noom 1\noom_kill 1\n");
	fake_write(f, C "memory.swap.events", "high 0\nmax 3\nfail 0\n");
	fake_write(f, C "memory.stat",
	           "anon 8192\nfile 0\npgfault 105\npgscan 4000\npgsteal 3000\n"
	           "workingset_refault_file 17\n");
	fake_write(f, C "memory.pressure",
	           "some avg10=0.00 avg60=0.00 avg300=0.00 total=1100\n"
	           "full avg10=0.00 avg60=0.00 avg300=0.00 total=540\n");
	assert_int_equal(vms_cgroup_stats_read(&cg, after), 0);
	d = vms_cgroup_delta_json(&cg, before, after);
	assert_int_equal(json_integer_value(json_object_get(d, "peak_bytes")), 536870912);
	assert_int_equal(json_integer_value(json_object_get(d, "limit_hits")), 7);
	assert_int_equal(json_integer_value(json_object_get(d, "high_events")), 4);
	assert_int_equal(json_integer_value(json_object_get(d, "oom")), 1);
	assert_int_equal(json_integer_value(json_object_get(d, "oom_kill")), 1);
	assert_int_equal(json_integer_value(json_object_get(d, "swap_limit_hits")), 3);
	assert_int_equal(json_integer_value(json_object_get(d, "swap_end_bytes")), 12288);
	pr = json_object_get(d, "pressure");
	assert_int_equal(json_integer_value(json_object_get(pr, "some_us")), 1000);
	assert_int_equal(json_integer_value(json_object_get(pr, "full_us")), 500);
	sd = json_object_get(d, "stat_delta");
	assert_int_equal(json_integer_value(json_object_get(sd, "pgfault")), 100);
	assert_int_equal(json_integer_value(json_object_get(sd, "pgscan")), 4000);
	assert_int_equal(json_integer_value(json_object_get(sd, "pgsteal")), 3000);
	assert_int_equal(json_integer_value(json_object_get(sd, "workingset_refault_file")), 17);
	json_decref(d);
#undef C
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	free(before);
	free(after);
}

/* ---- join / destroy ---- */

static void test_join(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	char buf[256], want[32];
	pid_t pid;
	int status;

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	create_v1(f, &cg, &ops, 64 * MIB, 0);
	assert_int_equal(vms_cgroup_join(&cg, 777), 0);
	assert_string_equal(fake_read(f, V1DIR "/vmsuite-test/cgroup.procs", buf, 256), "777");
	fake_write(f, V1DIR "/vmsuite-test/cgroup.procs", "");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(vms_cgroup_join_self(cg.procs) ? 1 : 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	snprintf(want, sizeof(want), "%ld", (long)pid);
	assert_string_equal(fake_read(f, V1DIR "/vmsuite-test/cgroup.procs", buf, 256), want);
	assert_int_equal(vms_cgroup_join_self("/nonexistent/cgroup.procs"), -ENOENT);
	fake_write(f, V1DIR "/vmsuite-test/cgroup.procs", "");
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
}

static void test_destroy_moves_tasks(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	char buf[256];

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	create_v1(f, &cg, &ops, 64 * MIB, 0);
	/* a task still inside: rmdir is refused until it has moved to the parent */
	fake_write(f, V1DIR "/vmsuite-test/cgroup.procs", "4242\n");
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	assert_string_equal(fake_read(f, V1DIR "/cgroup.procs", buf, 256), "4242");
	assert_false(fake_exists(f, V1DIR "/vmsuite-test"));
	assert_int_equal(f->rmdirs, 1);
	assert_false(cg.created);
	/* idempotent */
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	assert_int_equal(f->rmdirs, 1);
}

/* rmdir that fails with EBUSY while *arg (a count of refusals left) is above zero; counts
 * every call in busy_calls */
static int busy_calls;

static int rmdir_busy(const char *path, void *arg)
{
	int *left = arg;

	(void)path;
	busy_calls++;
	if (*left < 0 || (*left)-- > 0)
		return -EBUSY;
	return 0;
}

static void test_destroy_gives_up(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	int forever = -1;

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	create_v1(f, &cg, &ops, 64 * MIB, 0);
	ops.rmdir = rmdir_busy;
	ops.arg = &forever;
	busy_calls = 0;
	assert_int_equal(vms_cgroup_destroy(&cg, 0), -EBUSY);
	/* retried a good number of times (tasks take a moment to leave), not forever */
	assert_true(busy_calls >= 10);
	assert_true(busy_calls <= 1000);
	assert_true(cg.created);
	ops = fake_ops(f);
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	assert_false(cg.created);
}

static void test_destroy_retries_busy(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	int busy = 3;

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	create_v1(f, &cg, &ops, 64 * MIB, 0);
	ops.rmdir = rmdir_busy;
	ops.arg = &busy;
	busy_calls = 0;
	/* busy three times, then gone: destroy succeeds on the fourth attempt */
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	assert_int_equal(busy_calls, 4);
	assert_false(cg.created);
}

/* ---- the view from inside ---- */

static void test_self_meminfo_v1(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_meminfo m;
	char buf[512];

	fake_hybrid_v1(f, "/a/b", 24 * GIB, 2 * GIB);
	snprintf(buf, sizeof(buf),
	         "cache 0\nrss 0\nhierarchical_memory_limit %llu\n"
	         "hierarchical_memsw_limit %llu\ntotal_rss 0\n",
	         (unsigned long long)(512 * MIB), (unsigned long long)(512 * MIB + GIB));
	fake_write(f, "/sys/fs/cgroup/memory/a/b/memory.stat", buf);
	fake_write(f, "/sys/fs/cgroup/memory/a/b/memory.usage_in_bytes", "104857600\n");
	fake_write(f, "/sys/fs/cgroup/memory/a/b/memory.memsw.usage_in_bytes", "115343360\n");
	assert_int_equal(vms_cgroup_self_meminfo(&m, f->root), 0);
	assert_int_equal(m.ram, 512 * MIB);
	assert_int_equal(m.free_ram, 412 * MIB);
	assert_int_equal(m.swap, GIB);
	assert_int_equal(m.free_swap, GIB - 10 * MIB);

	/* the host has no swap: the emulated machine has none either */
	fake_write(f, "/proc/meminfo", "MemTotal: 25165824 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n");
	assert_int_equal(vms_cgroup_self_meminfo(&m, f->root), 0);
	assert_int_equal(m.ram, 512 * MIB);
	assert_int_equal(m.swap, 0);
	assert_int_equal(m.free_swap, 0);

	/* usage above the limit (charges racing the limit) reads as no free RAM */
	fake_write(f, "/sys/fs/cgroup/memory/a/b/memory.usage_in_bytes", "600000000\n");
	assert_int_equal(vms_cgroup_self_meminfo(&m, f->root), 0);
	assert_int_equal(m.free_ram, 0);

	/* unlimited: fall back to sysinfo() */
	fake_write(f, "/sys/fs/cgroup/memory/a/b/memory.stat",
	           "hierarchical_memory_limit 9223372036854771712\n"
	           "hierarchical_memsw_limit 9223372036854771712\n");
	assert_int_equal(vms_cgroup_self_meminfo(&m, f->root), -ENOENT);
}

static void test_self_meminfo_v2_nested(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_meminfo m;

	fake_v2(f, "/a/b", 1, 8 * GIB, 512 * MIB);
	fake_write(f, "/sys/fs/cgroup/a/memory.max", "536870912\n");
	fake_write(f, "/sys/fs/cgroup/a/memory.swap.max", "max\n");
	fake_write(f, "/sys/fs/cgroup/a/b/memory.max", "max\n");
	fake_write(f, "/sys/fs/cgroup/a/b/memory.swap.max", "1073741824\n");
	fake_write(f, "/sys/fs/cgroup/a/b/memory.current", "104857600\n");
	fake_write(f, "/sys/fs/cgroup/a/b/memory.swap.current", "1048576\n");
	assert_int_equal(vms_cgroup_self_meminfo(&m, f->root), 0);
	assert_int_equal(m.limit, 512 * MIB);
	assert_int_equal(m.ram, 512 * MIB);
	assert_int_equal(m.free_ram, 412 * MIB);
	assert_int_equal(m.swap, 512 * MIB); /* min(1 GiB limit, 512 MiB host swap) */
	assert_int_equal(m.free_swap, 511 * MIB);
}

static void test_self_meminfo_none(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup_meminfo m;

	fake_write(f, "/proc/self/cgroup", "0::/\n");
	fake_write(f, "/proc/self/mountinfo", "24 1 253:0 / / rw - ext4 /dev/vda rw\n");
	fake_write(f, "/proc/meminfo", "MemTotal: 1048576 kB\n");
	assert_int_equal(vms_cgroup_self_meminfo(&m, f->root), -ENOENT);
}

static void test_facts_json(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops;
	json_t *j;
	char *s;

	fake_hybrid_v1(f, SELF, 24 * GIB, 0);
	create_v1(f, &cg, &ops, 512 * MIB, GIB);
	j = vms_cgroup_facts_json(&cg);
	assert_int_equal(json_integer_value(json_object_get(j, "version")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "path")), cg.dir);
	assert_int_equal(json_integer_value(json_object_get(j, "mem_limit_bytes")), 512 * MIB);
	assert_int_equal(json_integer_value(json_object_get(j, "swap_limit_bytes")), GIB);
	assert_int_equal(json_integer_value(json_object_get(j, "host_swap_total_bytes")), 0);
	assert_int_equal(json_integer_value(json_object_get(j, "effective_swap_bytes")), 0);
	assert_true(json_is_true(json_object_get(j, "swap_accounting")));
	s = json_dumps(j, 0);
	assert_non_null(s);
	free(s);
	json_decref(j);
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_detect_hybrid_v1, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_v1_namespaced_mount, fake_setup,
	                                    fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_mount_escape, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_hybrid_memory_on_v2, fake_setup,
	                                    fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_v1_no_memsw, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_v2, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_v2_no_subtree, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_v2_root_cgroup, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_none, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_no_proc, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_detect_unprivileged, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_create_v1_limits, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_create_v1_raise_order, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_create_v1_no_swap_accounting, fake_setup,
	                                    fake_teardown),
	    cmocka_unit_test_setup_teardown(test_create_v2_limits, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_create_v2_unlimited_swap, fake_setup,
	                                    fake_teardown),
	    cmocka_unit_test_setup_teardown(test_create_v2_root_enables_memory, fake_setup,
	                                    fake_teardown),
	    cmocka_unit_test_setup_teardown(test_create_not_writable, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_create_default_name_and_stale, fake_setup,
	                                    fake_teardown),
	    cmocka_unit_test_setup_teardown(test_stats_v1_delta, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_v1_swappiness_follows_sysctl, fake_setup,
	                                    fake_teardown),
	    cmocka_unit_test_setup_teardown(test_stats_v2_delta, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_join, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_destroy_moves_tasks, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_destroy_gives_up, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_destroy_retries_busy, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_self_meminfo_v1, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_self_meminfo_v2_nested, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_self_meminfo_none, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_facts_json, fake_setup, fake_teardown),
	};

	return vms_test_run(tests, NULL, NULL, argc, argv);
}
