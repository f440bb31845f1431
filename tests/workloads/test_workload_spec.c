/* Unit tests of the workload registry: -w spec parsing with each kind of bad input, and
 * mtest01's 2001 target formula in 64-bit arithmetic. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "workloads/mtest01.h"
#include "workloads/workload.h"

static void test_spec_ok(void **state)
{
	struct vms_workload_spec s;
	char why[256];
	json_t *o;

	(void)state;
	assert_int_equal(vms_workload_spec_parse("mmap001:bytes=256M", &s, why, sizeof(why)), 0);
	assert_string_equal(s.w->name, "mmap001");
	o = vms_workload_opts_json(s.w, s.opts);
	assert_int_equal(json_integer_value(json_object_get(o, "bytes")), 256 << 20);
	json_decref(o);
	vms_workload_spec_release(&s);

	assert_int_equal(
	    vms_workload_spec_parse("mtest01:percent=80:write=1", &s, why, sizeof(why)), 0);
	o = vms_workload_opts_json(s.w, s.opts);
	assert_int_equal(json_integer_value(json_object_get(o, "percent")), 80);
	assert_true(json_is_true(json_object_get(o, "write")));
	assert_int_equal(json_integer_value(json_object_get(o, "chunk")), 1 << 20);
	json_decref(o);
	vms_workload_spec_release(&s);

	/* defaults of the 2001 plan */
	assert_int_equal(vms_workload_spec_parse("mmap001", &s, why, sizeof(why)), 0);
	o = vms_workload_opts_json(s.w, s.opts);
	assert_int_equal(json_integer_value(json_object_get(o, "bytes")), 2048000000);
	json_decref(o);
	assert_int_equal(s.w->default_runs, 5);
	vms_workload_spec_release(&s);
}

static void expect_bad(const char *spec, const char *needle)
{
	struct vms_workload_spec s;
	char why[256] = "";

	assert_int_equal(vms_workload_spec_parse(spec, &s, why, sizeof(why)), -EINVAL);
	if (!strstr(why, needle))
		fail_msg("'%s': reason '%s' lacks '%s'", spec, why, needle);
}

static void test_spec_bad(void **state)
{
	(void)state;
	expect_bad("nosuch", "unknown workload 'nosuch'");
	expect_bad("nosuch", "mmap001");
	expect_bad("mmap001:foo=1", "unknown option 'foo'");
	expect_bad("mmap001:bytes=lots", "malformed size 'lots'");
	expect_bad("mmap001:bytes", "expected key=value");
	expect_bad("mtest01:percent=0", "out of range");
	expect_bad("mtest01:percent=101", "out of range");
	expect_bad("mtest01:write=maybe", "not a boolean");
	expect_bad("mmap001:bytes=1", "too small");
	expect_bad("", "unknown workload");
}

static void test_mtest01_target(void **state)
{
	/* 512 MiB RAM, 1 GiB swap, 100 MiB in use: D = 80% of 1.5 GiB, C = 100 MiB */
	struct vms_mtest01_mem m = {512ULL << 20, 412ULL << 20, 1ULL << 30, 1ULL << 30};
	uint64_t t;

	(void)state;
	assert_int_equal(vms_mtest01_target(&m, 80, &t), 0);
	assert_int_equal(t, (1536ULL << 20) * 80 / 100 - (100ULL << 20));
	/* 64 GiB machines overflowed the 2001 code's 32-bit longs */
	m = (struct vms_mtest01_mem){64ULL << 30, 60ULL << 30, 0, 0};
	assert_int_equal(vms_mtest01_target(&m, 80, &t), 0);
	assert_int_equal(t,
	                 (64ULL << 30) / 100 * 80 + (64ULL << 30) % 100 * 80 / 100 - (4ULL << 30));
	/* already above the target: the 2001 failure */
	m = (struct vms_mtest01_mem){1ULL << 30, 100ULL << 20, 0, 0};
	assert_int_equal(vms_mtest01_target(&m, 80, &t), -ENOMEM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spec_ok),
	    cmocka_unit_test(test_spec_bad),
	    cmocka_unit_test(test_mtest01_target),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
