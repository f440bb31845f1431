/* Unit tests of core/procfs.c on fixed /proc-style files, plus a sanity read of the real ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/procfs.h"
#include "core/util.h"

static char *write_tmp(const char *content)
{
	char *path = vms_xstrdup("/tmp/vms-procfs-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return path;
}

static void test_vmstat_delta(void **state)
{
	char *a = write_tmp("nr_free_pages 100\npgfault 10\npgmajfault 1\npgscan_kswapd 5\n"
	                    "pswpout 0\nnr_dirty 3\nunrelated 7\n");
	char *b = write_tmp("nr_free_pages 50\npgfault 110\npgmajfault 4\npgscan_kswapd 25\n"
	                    "pswpout 8\nnr_dirty 9\nunrelated 70\noom_kill 1\n");
	struct vms_vmstat *sa = malloc(sizeof(*sa)), *sb = malloc(sizeof(*sb));
	json_t *d;

	(void)state;
	assert_int_equal(vms_vmstat_read(sa, a), 0);
	assert_int_equal(vms_vmstat_read(sb, b), 0);
	assert_int_equal(vms_vmstat_get(sb, "pgfault"), 110);
	assert_int_equal(vms_vmstat_get(sb, "absent"), 0);
	d = vms_vmstat_delta_json(sa, sb);
	assert_int_equal(json_integer_value(json_object_get(d, "pgfault")), 100);
	assert_int_equal(json_integer_value(json_object_get(d, "pgmajfault")), 3);
	assert_int_equal(json_integer_value(json_object_get(d, "pgscan_kswapd")), 20);
	assert_int_equal(json_integer_value(json_object_get(d, "pswpout")), 8);
	assert_int_equal(json_integer_value(json_object_get(d, "oom_kill")), 1);
	assert_null(json_object_get(d, "unrelated"));
	assert_null(json_object_get(d, "nr_dirty")); /* a gauge, not a counter */
	json_decref(d);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	free(sa);
	free(sb);
}

static void test_psi_file(void **state)
{
	char *p = write_tmp("some avg10=0.00 avg60=0.00 avg300=0.00 total=12345\n"
	                    "full avg10=0.00 avg60=0.00 avg300=0.00 total=678\n");
	uint64_t some, full;

	(void)state;
	assert_int_equal(vms_psi_read_file(p, &some, &full), 0);
	assert_int_equal(some, 12345);
	assert_int_equal(full, 678);
	assert_int_equal(vms_psi_read_file("/nonexistent", &some, &full) < 0, 1);
	unlink(p);
	free(p);
}

static void test_meminfo(void **state)
{
	char *p = write_tmp("MemTotal:       24000000 kB\nMemFree:        1000 kB\n"
	                    "Dirty:             12 kB\nSwapTotal:         0 kB\n");
	struct vms_meminfo m;

	(void)state;
	assert_int_equal(vms_meminfo_read(&m, p), 0);
	assert_int_equal(m.mem_total, 24000000ULL * 1024);
	assert_int_equal(m.mem_free, 1000 * 1024);
	assert_int_equal(m.dirty, 12 * 1024);
	unlink(p);
	free(p);
	/* the real files of this machine parse */
	assert_int_equal(vms_meminfo_read(&m, NULL), 0);
	assert_true(m.mem_total > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vmstat_delta),
	    cmocka_unit_test(test_psi_file),
	    cmocka_unit_test(test_meminfo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
