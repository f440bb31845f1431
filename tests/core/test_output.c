/* Unit tests of the output side of core/util.c: the atomic writer never replaces what is not a
 * regular file and can refuse an existing one (no-replace), the -o check before anything runs,
 * and the UTF-8 check that keeps jansson from dropping a label or a path. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

static char dir[] = "/tmp/vms-output-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir); /* fails if a file was left */
}

static void test_fifo_kept(void **state)
{
	char path[64];
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(vms_write_atomic(path, "x", 1, 0), -ENOTSUP);
	assert_int_equal(vms_write_atomic(path, "x", 1, VMS_WRITE_NOREPLACE), -ENOTSUP);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(vms_output_check(NULL, path, 1, "--overwrite"), -ENOTSUP);
	assert_int_equal(unlink(path), 0);
	/* a directory is not replaced either */
	assert_int_equal(vms_write_atomic(dir, "x", 1, 0), -EISDIR);
	assert_int_equal(vms_output_check("result", dir, 1, "--overwrite"), -EISDIR);
}

static void test_noreplace(void **state)
{
	char path[64], *text;

	(void)state;
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(vms_output_check(NULL, path, 0, "--overwrite"), 0);
	assert_int_equal(vms_write_atomic(path, "1", 1, VMS_WRITE_NOREPLACE), 0);
	assert_int_equal(vms_output_check(NULL, path, 0, "--overwrite"), -EEXIST);
	assert_int_equal(vms_output_check(NULL, path, 1, "--overwrite"), 0);
	assert_int_equal(vms_write_atomic(path, "2", 1, VMS_WRITE_NOREPLACE), -EEXIST);
	text = vms_read_text(path);
	assert_string_equal(text, "1");
	free(text);
	assert_int_equal(vms_write_atomic(path, "3", 1, 0), 0);
	text = vms_read_text(path);
	assert_string_equal(text, "3");
	free(text);
	assert_int_equal(unlink(path), 0);
}

static void test_utf8(void **state)
{
	(void)state;
	assert_true(vms_utf8_valid(""));
	assert_true(vms_utf8_valid("6.12.0-rc1"));
	assert_true(vms_utf8_valid("k\xc3\xa9rnel \xe2\x80\x94 \xf0\x9f\x8e\xb5"));
	assert_false(vms_utf8_valid("k\xff"));
	assert_false(vms_utf8_valid("\xc3"));             /* truncated */
	assert_false(vms_utf8_valid("\xc0\xaf"));         /* overlong '/' */
	assert_false(vms_utf8_valid("\xe0\x80\xaf"));     /* overlong, 3 bytes */
	assert_false(vms_utf8_valid("\xed\xa0\x80"));     /* a surrogate */
	assert_false(vms_utf8_valid("\xf4\x90\x80\x80")); /* above U+10FFFF */
	assert_false(vms_utf8_valid("\x80"));             /* a lone continuation byte */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fifo_kept),
	    cmocka_unit_test(test_noreplace),
	    cmocka_unit_test(test_utf8),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
