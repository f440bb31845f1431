/* Unit tests of core/swapfile.c that need no root: the names vmsuite gives its swap files,
 * /proc/swaps matched by path (escaped names), tmpfs refused as a place for swap, a file
 * created with a valid swap header, and removal refusing what vmsuite did not make. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "core/swapfile.h"
#include "core/util.h"
#include "tests/vms_test.h"

static void test_names(void **state)
{
	(void)state;
	assert_true(vms_swapfile_name_ok("/w/.vmsuite-swap-123"));
	assert_true(vms_swapfile_name_ok(".vmsuite-swap-1"));
	assert_false(vms_swapfile_name_ok("/w/.vmsuite-swap-"));
	assert_false(vms_swapfile_name_ok("/swapfile"));
	assert_false(vms_swapfile_name_ok("/.vmsuite-swap-1/other"));
	assert_false(vms_swapfile_name_ok("/w/x.vmsuite-swap-1"));
}

static void test_listed(void **state)
{
	const char *swaps =
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/vdb                                partition\t1048572\t\t0\t\t-2\n"
	    "/work/my\\040dir/.vmsuite-swap-7        file\t\t1048576\t\t12\t\t-3\n";

	(void)state;
	assert_int_equal(vms_swapfile_listed("/work/my dir/.vmsuite-swap-7", swaps), 1);
	assert_int_equal(vms_swapfile_listed("/dev/vdb", swaps), 1);
	/* by the whole path, never by a prefix or the base name */
	assert_int_equal(vms_swapfile_listed("/work/my dir/.vmsuite-swap-", swaps), 0);
	assert_int_equal(vms_swapfile_listed("/other/.vmsuite-swap-7", swaps), 0);
	assert_int_equal(vms_swapfile_listed("/dev/vd", swaps), 0);
	assert_int_equal(vms_swapfile_listed("/x", "Filename Type Size Used Priority\n"), 0);
}

static void test_refuses_tmpfs(void **state)
{
	char why[512], fs[64];
	struct statfs sf;

	(void)state;
	if (statfs("/dev/shm", &sf) || sf.f_type != 0x01021994)
		vms_test_skip("/dev/shm is not tmpfs here");
	assert_int_equal(
	    vms_swapfile_check_dir("/dev/shm", 1 << 20, fs, sizeof(fs), why, sizeof(why)),
	    -EOPNOTSUPP);
	assert_string_equal(fs, "tmpfs");
	assert_non_null(strstr(why, "is on tmpfs"));
	assert_true(vms_swapfile_check_dir("/nonexistent/vmsuite", 1, NULL, 0, why, sizeof(why)) ==
	            -ENOENT);
}

/* The uuid's text form (as blkid shows it) round-trips; anything else is refused. */
static void test_uuid_text(void **state)
{
	unsigned char u[VMS_SWAPFILE_UUID_LEN], back[VMS_SWAPFILE_UUID_LEN];
	char text[40];

	(void)state;
	vms_swapfile_new_uuid(u);
	vms_swapfile_uuid_text(u, text);
	assert_int_equal(strlen(text), 36);
	assert_int_equal(text[14], '4'); /* version 4, as mkswap makes them */
	assert_int_equal(vms_swapfile_uuid_parse(text, back), 0);
	assert_memory_equal(u, back, sizeof(u));
	assert_int_equal(vms_swapfile_uuid_parse("0123456789abcdef0123456789abcdef", back),
	                 -EINVAL);
	assert_int_equal(vms_swapfile_uuid_parse("", back), -EINVAL);
	text[35] = '\0';
	assert_int_equal(vms_swapfile_uuid_parse(text, back), -EINVAL);
	vms_swapfile_uuid_text(u, text);
	text[36] = 'a';
	text[37] = '\0';
	assert_int_equal(vms_swapfile_uuid_parse(text, back), -EINVAL);
	vms_swapfile_uuid_text(u, text);
	text[0] = 'g';
	assert_int_equal(vms_swapfile_uuid_parse(text, back), -EINVAL);
}

/* A directory on a filesystem that can hold swap (the build tree), or NULL. */
static char *swap_dir(void)
{
	const char *base = getenv("VMS_BINARY_DIR");
	char why[512], *dir;

	if (!base || vms_swapfile_check_dir(base, 1 << 20, NULL, 0, why, sizeof(why)))
		return NULL;
	dir = vms_xasprintf("%s/tmp-test_swapfile", base);
	mkdir(dir, 0700);
	return dir;
}

static void test_create_and_remove(void **state)
{
	char *dir = swap_dir(), *path, *other, method[32], sig[11] = "", why[256];
	unsigned char uuid[VMS_SWAPFILE_UUID_LEN], wrong[VMS_SWAPFILE_UUID_LEN];
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	FILE *f;

	(void)state;
	if (!dir)
		vms_test_skip("the build directory cannot hold a swap file");
	path = vms_xasprintf("%s/.vmsuite-swap-test%ld", dir, (long)getpid());
	other = vms_xasprintf("%s/swapfile-test%ld", dir, (long)getpid());
	unlink(path);
	vms_swapfile_new_uuid(uuid);
	memcpy(wrong, uuid, sizeof(wrong));
	wrong[15] ^= 1;
	/* only names vmsuite gives */
	assert_int_equal(vms_swapfile_create(other, 1 << 20, uuid, NULL, 0), -EINVAL);
	assert_int_equal(vms_swapfile_create(path, 3 << 20, uuid, method, sizeof(method)), 0);
	assert_true(!strcmp(method, "fallocate") || !strcmp(method, "zero-fill"));
	/* usable bytes plus the header page, owner-only */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, (3 << 20) + page);
	assert_int_equal(st.st_mode & 0777, 0600);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, page - 10, SEEK_SET), 0);
	assert_int_equal(fread(sig, 1, 10, f), 10);
	fclose(f);
	assert_string_equal(sig, "SWAPSPACE2");
	/* never over an existing file */
	assert_int_equal(vms_swapfile_create(path, 1 << 20, uuid, NULL, 0), -EEXIST);

	/* it carries vmsuite's label and this uuid, and no other */
	assert_int_equal(vms_swapfile_verify(path, uuid, why, sizeof(why)), 0);
	assert_int_equal(vms_swapfile_verify(path, wrong, why, sizeof(why)), 2);
	assert_non_null(strstr(why, "uuid"));
	assert_int_equal(vms_swapfile_remove_verified(path, wrong, why, sizeof(why)), 2);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(vms_swapfile_verify(other, uuid, why, sizeof(why)), 2);
	assert_non_null(strstr(why, "not a name vmsuite gives"));
	assert_int_equal(vms_swapfile_verify(path + 1, uuid, why, sizeof(why)), 2); /* relative */
	assert_int_equal(vms_swapfile_remove_verified(path, uuid, why, sizeof(why)), 0);
	assert_int_equal(lstat(path, &st), -1);
	assert_int_equal(vms_swapfile_remove_verified(path, uuid, why, sizeof(why)), 1);
	assert_int_equal(vms_swapfile_verify(path, uuid, why, sizeof(why)), 1);
	/* a file of that name without the header (a power loss before it), or another label */
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(vms_swapfile_remove_verified(path, uuid, why, sizeof(why)), 2);
	assert_non_null(strstr(why, "shorter than a swap header"));
	assert_int_equal(truncate(path, page), 0);
	assert_int_equal(vms_swapfile_verify(path, uuid, why, sizeof(why)), 2);
	assert_string_equal(why, "it carries no swap header");
	unlink(path);
	assert_int_equal(vms_swapfile_create(path, 1 << 20, uuid, NULL, 0), 0);
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 1024 + 12 + 16, SEEK_SET), 0); /* the label (volume name) */
	assert_int_equal(fwrite("mkswap", 1, 7, f), 7);
	fclose(f);
	assert_int_equal(vms_swapfile_remove_verified(path, uuid, why, sizeof(why)), 2);
	assert_non_null(strstr(why, "not labelled 'vmsuite'"));
	assert_int_equal(stat(path, &st), 0);
	unlink(path);
	assert_int_equal(vms_swapfile_create(path, 3 << 20, uuid, NULL, 0), 0);

	/* removal: not listed in /proc/swaps, so just unlinked; then nothing left */
	assert_int_equal(vms_swapfile_remove(path), 0);
	assert_int_equal(vms_swapfile_remove(path), 1);
	/* a symlink named like a swap file, or another name: refused, nothing touched */
	f = fopen(other, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(symlink(other, path), 0);
	assert_int_equal(vms_swapfile_remove(path), 2);
	assert_int_equal(vms_swapfile_remove(other), 2);
	assert_int_equal(vms_swapfile_remove_verified(path, uuid, why, sizeof(why)), 2);
	assert_string_equal(why, "it is a symbolic link");
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(stat(other, &st), 0);
	unlink(path);
	unlink(other);
	rmdir(dir);
	free(path);
	free(other);
	free(dir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_uuid_text),
	    cmocka_unit_test(test_listed),
	    cmocka_unit_test(test_refuses_tmpfs),
	    cmocka_unit_test(test_create_and_remove),
	};

	return vms_test_run(tests, NULL, NULL, argc, argv);
}
