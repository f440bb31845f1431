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

	/* the largest sizes are still sizes */
	assert_int_equal(
	    vms_workload_spec_parse("mmap001:pages=281474976710656", &s, why, sizeof(why)), 0);
	vms_workload_spec_release(&s);
	assert_int_equal(
	    vms_workload_spec_parse("mmap002:bytes=1152921504606846976", &s, why, sizeof(why)), 0);
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
	/* sizes whose arithmetic would wrap: pages × 4096, size + margins, 2R and 3R */
	expect_bad("mmap001:pages=4503599627370497", "pages=4503599627370497 is out of range");
	expect_bad("mmap001:bytes=18446744073709551615", "too large (at most 1 EiB");
	expect_bad("mmap002:bytes=9223372036854775808", "too large (at most 1 EiB");
	expect_bad("mtest01:chunk=1152921504606846977", "too large");
	expect_bad("", "unknown workload");
}

static void test_mtest01_target(void **state)
{
	/* Expected targets worked out by hand, not with the formula under test. */
	/* 512 MiB RAM + 1 GiB swap = 1610612736 bytes; 80% of it = 1288490188.8, rounded down;
	 * in use: 1536 MiB - (412 MiB + 1 GiB) free = 100 MiB = 104857600;
	 * target = 1288490188 - 104857600 = 1183632588 */
	struct vms_mtest01_mem m = {512ULL << 20, 412ULL << 20, 1ULL << 30, 1ULL << 30};
	uint64_t t;

	(void)state;
	assert_int_equal(vms_mtest01_target(&m, 80, &t), 0);
	assert_int_equal(t, UINT64_C(1183632588));
	/* 64 GiB machines overflowed the 2001 code's 32-bit longs: 80% of 68719476736 =
	 * 54975581388.8 -> 54975581388, minus 4 GiB in use (4294967296) = 50680614092 */
	m = (struct vms_mtest01_mem){64ULL << 30, 60ULL << 30, 0, 0};
	assert_int_equal(vms_mtest01_target(&m, 80, &t), 0);
	assert_int_equal(t, UINT64_C(50680614092));
	/* 2^62 bytes, all free: total * 80 would overflow 64 bits; 80% of 4611686018427387904 =
	 * 3689348814741910323.2 -> 3689348814741910323 */
	m = (struct vms_mtest01_mem){1ULL << 62, 1ULL << 62, 0, 0};
	assert_int_equal(vms_mtest01_target(&m, 80, &t), 0);
	assert_int_equal(t, UINT64_C(3689348814741910323));
	/* 1 GiB, 50%: exactly 536870912; with exactly that much in use the target is 0, one byte
	 * more and it is the 2001 failure */
	m = (struct vms_mtest01_mem){1ULL << 30, 1ULL << 30, 0, 0};
	assert_int_equal(vms_mtest01_target(&m, 50, &t), 0);
	assert_int_equal(t, UINT64_C(536870912));
	m.free_ram = 536870912;
	assert_int_equal(vms_mtest01_target(&m, 50, &t), 0);
	assert_int_equal(t, 0);
	m.free_ram = 536870911;
	assert_int_equal(vms_mtest01_target(&m, 50, &t), -ENOMEM);
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
