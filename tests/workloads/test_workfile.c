/* Unit tests of how work files are made (workloads/registry.c: vms_workload_probe_dir,
 * vms_workload_open_file), of a failure on a full work filesystem (vms_workload_fail_file) and
 * of the journal's undo of a private work directory (core/hoststate.c, kind "workdir"): no
 * name can be planted, only vmsuite's own files go. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hoststate.h"
#include "core/util.h"
#include "tests/vms_test.h"
#include "workloads/workload.h"

static char dir[2048];

static int setup(void **state)
{
	char rel[] = "vms-workfile-XXXXXX"; /* below the build tree: a disk filesystem */
	char abs[PATH_MAX];

	(void)state;
	if (!mkdtemp(rel) || !realpath(rel, abs) || strlen(abs) >= sizeof(dir))
		return -1;
	memcpy(dir, abs, strlen(abs) + 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[4200];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static int entries(const char *path)
{
	char cmd[4200];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", path);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void expect_content(const char *path, const char *text)
{
	char *got = vms_read_text(path);

	assert_non_null(got);
	assert_string_equal(got, text);
	free(got);
}

static void test_probe_dir(void **state)
{
	char why[512], file[2100];
	int tmpfile = -1;

	(void)state;
	unsetenv("VMSUITE_NO_O_TMPFILE");
	assert_int_equal(vms_workload_probe_dir(dir, &tmpfile, why, sizeof(why)), 0);
	assert_int_equal(tmpfile, 1); /* ext4 and tmpfs have O_TMPFILE */
	setenv("VMSUITE_NO_O_TMPFILE", "1", 1);
	assert_int_equal(vms_workload_probe_dir(dir, &tmpfile, why, sizeof(why)), 0);
	assert_int_equal(tmpfile, 0);
	unsetenv("VMSUITE_NO_O_TMPFILE");
	assert_int_equal(entries(dir), 0); /* the probes leave nothing */

	snprintf(file, sizeof(file), "%s/regular", dir);
	write_file(file, "x");
	assert_int_equal(vms_workload_probe_dir(file, &tmpfile, why, sizeof(why)), -ENOTDIR);
	assert_non_null(strstr(why, file));
	snprintf(file, sizeof(file), "%s/missing", dir);
	assert_int_equal(vms_workload_probe_dir(file, &tmpfile, why, sizeof(why)), -ENOENT);
	snprintf(file, sizeof(file), "%s/regular", dir);
	unlink(file);
}

/* The fallback: a symlink planted at the file's name (possible only for the directory's owner)
 * is refused, its target untouched; the O_TMPFILE way takes no name at all. */
static void test_open_file(void **state)
{
	struct vms_workload_shared *sh =
	    mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct vms_workload_ctx ctx = {.w = &vms_workload_mmap001, .workdir = dir, .shared = sh};
	char priv[2100], target[2100];
	struct stat st;
	int fd;

	(void)state;
	assert_true(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	assert_int_equal(vms_workload_private_name(priv, sizeof(priv), dir, "t"), 0);
	assert_non_null(strstr(priv, "/.vmsuite-t."));
	assert_int_equal(mkdir(priv, 0700), 0);
	snprintf(target, sizeof(target), "%s/target", dir);
	write_file(target, "precious");
	snprintf(ctx.file, sizeof(ctx.file), "%s/.vmsuite-mmap001.tmp", priv);
	assert_int_equal(symlink(target, ctx.file), 0);
	assert_int_equal(vms_workload_open_file(&ctx), -1);
	assert_non_null(strstr(sh->reason, "File exists"));
	expect_content(target, "precious");

	/* a fresh name: created, 0600, a regular file */
	unlink(ctx.file);
	fd = vms_workload_open_file(&ctx);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);
	close(fd);
	unlink(ctx.file);
	rmdir(priv);
	unlink(target);

	/* O_TMPFILE: nothing in the directory while it is open */
	ctx.tmpfile = 1;
	ctx.file[0] = '\0';
	fd = vms_workload_open_file(&ctx);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	assert_int_equal(entries(dir), 0);
	close(fd);
	munmap(sh, sizeof(*sh));
}

/* A failure on the work file: ENOSPC and EDQUOT mean the work filesystem filled up (the
 * runner's "filled up" reason, exit 128), any other errno is an ordinary failure. */
static void test_fail_file(void **state)
{
	struct vms_workload_shared *sh =
	    mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct vms_workload_ctx ctx = {.w = &vms_workload_memload, .workdir = dir, .shared = sh};
	static const int full[] = {ENOSPC, EDQUOT}, other[] = {EIO, ENOMEM, EROFS};
	char want[sizeof(dir) + 512];
	size_t i;

	(void)state;
	assert_true(sh != MAP_FAILED);
	for (i = 0; i < VMS_ARRAY_SIZE(full); i++) {
		memset(sh, 0, sizeof(*sh));
		assert_int_equal(
		    vms_workload_fail_file(&ctx, full[i], "the writer failed in '%s'", ctx.workdir),
		    1);
		assert_int_equal(sh->disk_full, 1);
		snprintf(want, sizeof(want), "the writer failed in '%s': %s", dir,
		         strerror(full[i]));
		assert_string_equal(sh->reason, want);
	}
	for (i = 0; i < VMS_ARRAY_SIZE(other); i++) {
		memset(sh, 0, sizeof(*sh));
		assert_int_equal(vms_workload_fail_file(&ctx, other[i], "msync failed"), 1);
		assert_int_equal(sh->disk_full, 0);
		snprintf(want, sizeof(want), "msync failed: %s", strerror(other[i]));
		assert_string_equal(sh->reason, want);
	}
	/* a reason as long as the buffer is cut, never overrun */
	memset(sh, 0, sizeof(*sh));
	memset(want, 'x', sizeof(sh->reason));
	want[sizeof(sh->reason)] = '\0';
	vms_workload_fail_file(&ctx, ENOSPC, "%s", want);
	assert_int_equal(strlen(sh->reason), sizeof(sh->reason) - 1);
	assert_int_equal(sh->disk_full, 1);
	munmap(sh, sizeof(*sh));
}

/* The journal's undo of a private work directory removes vmsuite's files and the directory,
 * and nothing else: a foreign file, a symlink in place of the directory, another name. */
static void test_undo_workdir(void **state)
{
	struct vms_host_entry e = {.kind = VMS_HOST_WORKDIR};
	char path[PATH_MAX + 64], target[2100];

	(void)state;
	snprintf(target, sizeof(target), "%s/target", dir);
	write_file(target, "precious");
	snprintf(e.path, sizeof(e.path), "%s/.vmsuite-mmap001-1-1.abcdef", dir);
	assert_int_equal(mkdir(e.path, 0700), 0);
	snprintf(path, sizeof(path), "%s/.vmsuite-mmap001.tmp", e.path);
	write_file(path, "work");
	snprintf(path, sizeof(path), "%s/.vmsuite-other.tmp", e.path);
	assert_int_equal(symlink(target, path), 0);
	assert_string_equal(vms_host_kind_what(VMS_HOST_WORKDIR), "work directory");
	assert_int_equal(vms_host_entry_undo(&e), 0);
	assert_int_equal(access(e.path, F_OK), -1);
	expect_content(target, "precious");
	assert_int_equal(vms_host_entry_undo(&e), 1); /* already gone */

	/* a file vmsuite does not make: refused, nothing touched */
	assert_int_equal(mkdir(e.path, 0700), 0);
	snprintf(path, sizeof(path), "%s/.vmsuite-mmap001.tmp", e.path);
	write_file(path, "work");
	snprintf(path, sizeof(path), "%s/notes.txt", e.path);
	write_file(path, "mine");
	assert_int_equal(vms_host_entry_undo(&e), 2);
	expect_content(path, "mine");
	snprintf(path, sizeof(path), "%s/.vmsuite-mmap001.tmp", e.path);
	expect_content(path, "work");
	snprintf(path, sizeof(path), "rm -rf '%s'", e.path);
	assert_int_equal(system(path), 0);

	/* a symlink where the directory was: refused, the directory it names untouched */
	snprintf(path, sizeof(path), "%s/real", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(target, sizeof(target), "%s/real/.vmsuite-x.tmp", dir);
	write_file(target, "kept");
	assert_int_equal(symlink(path, e.path), 0);
	assert_int_equal(vms_host_entry_undo(&e), 2);
	expect_content(target, "kept");
	unlink(e.path);

	/* a name vmsuite does not give */
	snprintf(e.path, sizeof(e.path), "%s/real", dir);
	assert_int_equal(vms_host_entry_undo(&e), 2);
	expect_content(target, "kept");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_probe_dir),
	    cmocka_unit_test(test_open_file),
	    cmocka_unit_test(test_fail_file),
	    cmocka_unit_test(test_undo_workdir),
	};

	return vms_test_run(tests, setup, teardown, argc, argv);
}
