/* Tests of core/cgroup.c on this machine's real memory cgroup hierarchy (v1 or v2), as root:
 * a 64 MiB cgroup, a child that writes a 256 MiB file mapping (reclaim/writeback under the
 * limit) or 256 MiB of anonymous memory (memcg OOM kill), removal with live tasks, the
 * in-cgroup meminfo view, and a real cgroup2 mount. Skips, saying why, where that is impossible. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/cgroup.h"
#include "core/util.h"
#include "tests/vms_test.h"

#define MIB          (UINT64_C(1) << 20)
#define LIMIT        (64 * MIB)
#define TOUCH        (256 * MIB)
#define TMPFS_MAGIC_ 0x01021994

static struct vms_cgroup_info info;
static struct vms_cgroup cg = VMS_CGROUP_INIT; /* the test's cgroup, removed by teardown */

static int group_setup(void **state)
{
	(void)state;
	vms_cgroup_detect(&info, NULL);
	return 0;
}

/* Skips the test unless a memory cgroup can really be created here. */
static void need_cgroup(void)
{
	if (geteuid() != 0)
		vms_test_skip("needs root");
	if (!info.writable)
		vms_test_skip("%s", info.why);
}

static int teardown(void **state)
{
	(void)state;
	return vms_cgroup_destroy(&cg, 1) ? -1 : 0;
}

static void make_swap(uint64_t swap)
{
	char name[64];

	snprintf(name, sizeof(name), "vmsuite-test-%ld", (long)getpid());
	assert_int_equal(vms_cgroup_create(&cg, &info, name, LIMIT, swap, NULL), 0);
	assert_true(cg.created);
	assert_int_equal(access(cg.dir, F_OK), 0);
}

static void make(void)
{
	make_swap(0);
}

static void gone(void)
{
	assert_false(cg.created);
	assert_int_equal(access(cg.dir, F_OK), -1);
	assert_int_equal(errno, ENOENT);
}

/* memory.events "max" (v2) and memory.failcnt (v1) count charges that hit the limit. Kernel
 * 6.18 never counts memory.memsw.failcnt, and with memsw == memory limit (swap limit 0) the
 * memsw counter is the one that fails, so v1's failcnt then stays 0: only note that case. */
static void check_limit_hits(const json_t *d, int swap_limited_to_zero)
{
	json_int_t hits = json_integer_value(json_object_get(d, "limit_hits"));

	if (cg.version == VMS_CGROUP_V2 || !swap_limited_to_zero)
		assert_true(hits > 0);
	else if (hits == 0)
		print_message(
		    "note: memory.failcnt stayed 0 although the limit was reached (v1 "
		    "with memsw == memory limit: this kernel counts no memsw failures)\n");
}

/* A disk-backed scratch directory (the build tree), never tmpfs. */
static const char *scratch(void)
{
	const char *d = getenv("VMS_BINARY_DIR");
	struct statfs sf;

	if (!d)
		d = ".";
	if (statfs(d, &sf) == 0 && (unsigned long)sf.f_type == TMPFS_MAGIC_) {
		vms_test_skip("'%s' is tmpfs", d);
	}
	return d;
}

/* The child of the file test: joins, writes a 256 MiB shared file mapping, syncs, exits. */
static int child_file(const char *procs, const char *path)
{
	char *p;
	size_t i;
	int fd;

	if (vms_cgroup_join_self(procs))
		return 10;
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)TOUCH))
		return 11;
	p = mmap(NULL, TOUCH, PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 12;
	for (i = 0; i < TOUCH; i += 4096)
		p[i] = (char)i;
	if (msync(p, TOUCH, MS_SYNC))
		return 13;
	munmap(p, TOUCH);
	close(fd);
	unlink(path);
	return 0;
}

static void test_real_file_mapping_under_limit(void **state)
{
	struct vms_cgroup_stats *before = vms_xmalloc(sizeof(*before));
	struct vms_cgroup_stats *after = vms_xmalloc(sizeof(*after));
	char *path;
	json_t *d, *d2;
	pid_t pid;
	int status;
	uint64_t peak1;

	(void)state;
	need_cgroup();
	path = vms_xasprintf("%s/cgroup-real-%ld.dat", scratch(), (long)getpid());
	/* some swap allowed, so that on v1 the memory counter (not memsw) meets the limit */
	make_swap(LIMIT);
	assert_int_equal(cg.mem_limit, LIMIT);
	assert_int_equal(vms_cgroup_run_begin(&cg, before), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_file(cg.procs, path));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	unlink(path);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(vms_cgroup_stats_read(&cg, after), 0);
	d = vms_cgroup_delta_json(&cg, before, after);
	{
		char *s = json_dumps(d, JSON_COMPACT);

		print_message("file mapping %llu MiB in a %llu MiB cgroup (%s): %s\n",
		              (unsigned long long)(TOUCH / MIB), (unsigned long long)(LIMIT / MIB),
		              vms_cgroup_version_name(cg.version), s);
		free(s);
	}
	/* the limit was the ceiling and it was reached */
	peak1 = (uint64_t)json_integer_value(json_object_get(d, "peak_bytes"));
	assert_true(peak1 <= LIMIT);
	assert_true(json_is_true(json_object_get(d, "limit_reached")));
	check_limit_hits(d, 0);
	assert_int_equal(json_integer_value(json_object_get(d, "oom_kill")), 0);
	/* dirty file pages were written back and reclaimed: more was paged out than fits */
	assert_true(
	    json_integer_value(json_object_get(json_object_get(d, "stat_delta"), "pgpgout")) > 0);
	json_decref(d);

	/* the next run starts from a reset peak: an idle run peaks far below the limit */
	assert_int_equal(vms_cgroup_run_begin(&cg, before), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(vms_cgroup_join_self(cg.procs) ? 1 : 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(vms_cgroup_stats_read(&cg, after), 0);
	d2 = vms_cgroup_delta_json(&cg, before, after);
	if (cg.peak_per_run)
		assert_true((uint64_t)json_integer_value(json_object_get(d2, "peak_bytes")) <
		            peak1 / 2);
	assert_int_equal(json_integer_value(json_object_get(d2, "limit_hits")), 0);
	json_decref(d2);

	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	gone();
	free(path);
	free(before);
	free(after);
}

static void test_real_anon_oom_kill(void **state)
{
	struct vms_cgroup_stats *before = vms_xmalloc(sizeof(*before));
	struct vms_cgroup_stats *after = vms_xmalloc(sizeof(*after));
	json_t *d;
	char *s;
	pid_t pid;
	int status;

	(void)state;
	need_cgroup();
	make();
	assert_int_equal(vms_cgroup_run_begin(&cg, before), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *p;
		size_t i;

		if (vms_cgroup_join_self(cg.procs))
			_exit(10);
		/* swap limit 0: anonymous memory beyond 64 MiB cannot go anywhere */
		p = mmap(NULL, TOUCH, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(11);
		for (i = 0; i < TOUCH; i += 4096)
			p[i] = 1;
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(vms_cgroup_stats_read(&cg, after), 0);
	d = vms_cgroup_delta_json(&cg, before, after);
	s = json_dumps(d, JSON_COMPACT);
	print_message("anonymous %llu MiB in a %llu MiB cgroup without swap: %s, %s\n",
	              (unsigned long long)(TOUCH / MIB), (unsigned long long)(LIMIT / MIB),
	              WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exited", s);
	free(s);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_true(json_integer_value(json_object_get(d, "oom_kill")) >= 1);
	assert_true(json_is_true(json_object_get(d, "limit_reached")));
	check_limit_hits(d, 1);
	json_decref(d);
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	gone();
	free(before);
	free(after);
}

/* Forks a child that joins cg and waits; returns its pid once it is inside. */
static pid_t lingering_child(void)
{
	int p[2];
	char c = 0;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		c = vms_cgroup_join_self(cg.procs) ? 'n' : 'y';
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	assert_int_equal(c, 'y');
	return pid;
}

static int in_cgroup(pid_t pid, const char *name)
{
	char path[64], *text;
	int in;

	snprintf(path, sizeof(path), "/proc/%ld/cgroup", (long)pid);
	text = vms_read_text(path);
	assert_non_null(text);
	in = strstr(text, name) != NULL;
	free(text);
	return in;
}

static void test_real_destroy_with_tasks(void **state)
{
	const char *name;
	pid_t pid;
	int status;

	(void)state;
	need_cgroup();

	/* moved to the parent, still alive */
	make();
	name = strrchr(cg.dir, '/') + 1;
	pid = lingering_child();
	assert_true(in_cgroup(pid, name));
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	gone();
	assert_false(in_cgroup(pid, name));
	assert_int_equal(kill(pid, 0), 0);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);

	/* killed (the Ctrl-C path) */
	make();
	pid = lingering_child();
	assert_int_equal(vms_cgroup_destroy(&cg, 1), 0);
	gone();
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(vms_cgroup_destroy(&cg, 1), 0);
}

static void test_real_self_meminfo(void **state)
{
	struct vms_cgroup_meminfo m;
	struct {
		int ret;
		struct vms_cgroup_meminfo m;
	} got;
	int p[2], status;
	pid_t pid;
	int ret;

	(void)state;
	need_cgroup();
	make();
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		memset(&got, 0, sizeof(got));
		got.ret = vms_cgroup_join_self(cg.procs);
		if (!got.ret)
			got.ret = vms_cgroup_self_meminfo(&got.m, NULL);
		_exit(write(p[1], &got, sizeof(got)) == sizeof(got) ? 0 : 1);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &got, sizeof(got)), (ssize_t)sizeof(got));
	close(p[0]);
	waitpid(pid, &status, 0);
	print_message("inside: ram %llu free %llu swap %llu free_swap %llu\n",
	              (unsigned long long)got.m.ram, (unsigned long long)got.m.free_ram,
	              (unsigned long long)got.m.swap, (unsigned long long)got.m.free_swap);
	assert_int_equal(got.ret, 0);
	assert_int_equal(got.m.ram, LIMIT);
	assert_true(got.m.free_ram <= LIMIT);
	assert_true(got.m.free_ram > LIMIT / 2);
	/* swap limit 0: no swap whatever the host has */
	assert_int_equal(got.m.swap, 0);
	/* the test itself is not in a 64 MiB cgroup */
	ret = vms_cgroup_self_meminfo(&m, NULL);
	assert_true(ret == -ENOENT || (ret == 0 && m.limit != LIMIT));
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	gone();
}

/* The cgroup2 mount test's tree: unmounted and removed by undo_mount(), from the test or, when
 * an assertion ends it early, from its teardown. "" = nothing to undo. */
static char mount_root[256], mount_dir[320];

static int undo_mount(void)
{
	int ret = 0;

	if (mount_dir[0] && umount2(mount_dir, MNT_DETACH))
		ret = -1;
	mount_dir[0] = '\0';
	if (mount_root[0]) {
		char *rm = vms_xasprintf("rm -rf '%s'", mount_root);

		if (system(rm))
			ret = -1;
		free(rm);
	}
	mount_root[0] = '\0';
	return ret;
}

static int teardown_mount(void **state)
{
	int ret = undo_mount();

	return teardown(state) ? -1 : ret;
}

/* Mounts a real cgroup2 at <tmp>/sys/fs/cgroup and points a fake /proc at it, so detection
 * and (when the kernel gives cgroup2 the memory controller) a real child run through v2. */
static void test_real_cgroup2_mount(void **state)
{
	struct vms_cgroup_info v2;
	char *root = mount_root, *mnt = mount_dir, buf[512], *path;
	const char *tmp = getenv("TMPDIR");
	FILE *fp;

	(void)state;
	if (geteuid() != 0)
		vms_test_skip("needs root to mount cgroup2");
	snprintf(root, sizeof(mount_root), "%s/vms-cg2-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		root[0] = '\0';
		fail_msg("mkdtemp: %s", strerror(errno));
	}
	path = vms_xasprintf("mkdir -p '%s/sys/fs/cgroup' '%s/proc/self'", root, root);
	assert_int_equal(system(path), 0);
	free(path);
	snprintf(mnt, sizeof(mount_dir), "%s/sys/fs/cgroup", root);
	if (mount("none", mnt, "cgroup2", 0, NULL)) {
		int e = errno;

		mnt[0] = '\0'; /* nothing mounted; teardown removes the directory */
		vms_test_skip("cannot mount cgroup2: %s", strerror(e));
	}
	path = vms_xasprintf("%s/proc/self/cgroup", root);
	fp = fopen(path, "w");
	fprintf(fp, "0::/\n");
	fclose(fp);
	free(path);
	path = vms_xasprintf("%s/proc/self/mountinfo", root);
	fp = fopen(path, "w");
	fprintf(fp, "99 1 0:99 / /sys/fs/cgroup rw,relatime - cgroup2 none rw\n");
	fclose(fp);
	free(path);
	path = vms_xasprintf("cp /proc/meminfo '%s/proc/meminfo'", root);
	assert_int_equal(system(path), 0);
	free(path);

	path = vms_xasprintf("%s/cgroup.controllers", mnt);
	fp = fopen(path, "r");
	assert_non_null(fp);
	if (!fgets(buf, sizeof(buf), fp))
		buf[0] = '\0';
	fclose(fp);
	free(path);
	assert_int_equal(vms_cgroup_detect(&v2, root), 0);
	if (!strstr(buf, "memory")) {
		/* memory is bound to v1 here: detection must say so instead of pretending */
		assert_int_equal(v2.version, VMS_CGROUP_NONE);
		assert_non_null(strstr(v2.why, "cgroup.controllers"));
		print_message("skipped the v2 memory part: this kernel's cgroup2 has no memory "
		              "controller (controllers: '%s'; memory is bound to cgroup v1); "
		              "detection reported: %s\n",
		              strtok(buf, "\n") ? buf : "", v2.why);
	} else {
		assert_int_equal(v2.version, VMS_CGROUP_V2);
		if (v2.writable) {
			assert_int_equal(
			    vms_cgroup_create(&cg, &v2, "vmsuite-test-v2", LIMIT, 0, NULL), 0);
			assert_int_equal(cg.mem_limit, LIMIT);
			assert_int_equal(vms_cgroup_destroy(&cg, 1), 0);
			gone();
		} else {
			print_message("v2 not writable here: %s\n", v2.why);
		}
	}
	assert_int_equal(undo_mount(), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_real_file_mapping_under_limit, teardown),
	    cmocka_unit_test_teardown(test_real_anon_oom_kill, teardown),
	    cmocka_unit_test_teardown(test_real_destroy_with_tasks, teardown),
	    cmocka_unit_test_teardown(test_real_self_meminfo, teardown),
	    cmocka_unit_test_teardown(test_real_cgroup2_mount, teardown_mount),
	};

	return vms_test_run(tests, group_setup, NULL, argc, argv);
}
