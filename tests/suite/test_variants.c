/* Unit tests of suite/variants.c: the cross product of --sysctl and --thp axes in run order
 * (the last axis fastest), the labels of the shared contract ("page-cluster=0 thp=off",
 * "default", full names when two varying knobs share a last component), settings, and the
 * usage errors (bad names, repeated names or values, empty values, too many variants). Knob
 * names are checked against a fake /proc/sys tree (vms_sysctl_set_root()). */
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

#include "core/sysctl.h"
#include "suite/variants.h"
#include "tests/vms_fakeroot.h"

static char tmp[64];

static void put(const char *rel, const char *text)
{
	vms_fakeroot_put(tmp, rel, text);
}

static int setup(void **state)
{
	(void)state;
	if (vms_fakeroot_make(tmp, sizeof(tmp), "variants"))
		return -1;
	put("/proc/sys/vm/page-cluster", "3\n");
	put("/proc/sys/vm/swappiness", "60\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put("/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled", "[inherit] never\n");
	put("/sys/kernel/mm/lru_gen/enabled", "0x0007\n");
	put("/sys/module/zswap/parameters/enabled", "N\n");
	put("/sys/module/zswap/parameters/max_pool_percent", "20\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return vms_fakeroot_remove(tmp);
}

static const char *setting(const struct vms_variants *vs, size_t v, const char *name)
{
	return json_string_value(json_object_get(vs->v[v].settings, name));
}

static void test_default(void **state)
{
	struct vms_variants vs;
	char err[256];

	(void)state;
	assert_int_equal(vms_variants_build(&vs, NULL, 0, NULL, 1, err, sizeof(err)), 0);
	assert_int_equal(vs.n, 1);
	assert_int_equal(vs.n_knobs, 0);
	assert_string_equal(vs.v[0].label, "default");
	assert_string_equal(setting(&vs, 0, "thp"), VMS_THP_DEFAULT);
	assert_int_equal(vs.v[0].thp_off, 0);
	vms_variants_release(&vs);

	/* one value each: still one variant, "default", with the settings */
	{
		const char *args[] = {"vm.page-cluster=0"};

		assert_int_equal(vms_variants_build(&vs, args, 1, "off", 1, err, sizeof(err)), 0);
		assert_int_equal(vs.n, 1);
		assert_string_equal(vs.v[0].label, "default");
		assert_string_equal(setting(&vs, 0, "vm.page-cluster"), "0");
		assert_string_equal(setting(&vs, 0, "thp"), "off");
		assert_int_equal(vs.v[0].thp_off, 1);
		assert_int_equal(vs.n_knobs, 1);
		assert_string_equal(vs.knobs[0], "vm.page-cluster");
		vms_variants_release(&vs);
	}
}

static void test_cross_product(void **state)
{
	const char *args[] = {"vm.page-cluster=0,3", "vm.swappiness=10",
	                      "transparent_hugepage.enabled= never ,always"};
	static const char *const want[] = {
	    "page-cluster=0 enabled=never thp=off",  "page-cluster=0 enabled=never thp=kernel",
	    "page-cluster=0 enabled=always thp=off", "page-cluster=0 enabled=always thp=kernel",
	    "page-cluster=3 enabled=never thp=off",  "page-cluster=3 enabled=never thp=kernel",
	    "page-cluster=3 enabled=always thp=off", "page-cluster=3 enabled=always thp=kernel",
	};
	struct vms_variants vs;
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(vms_variants_build(&vs, args, 3, "off,kernel", 1, err, sizeof(err)), 0);
	assert_int_equal(vs.n, 8);
	assert_int_equal(vs.n_knobs, 3);
	for (i = 0; i < 8; i++) {
		assert_string_equal(vs.v[i].label, want[i]);
		assert_string_equal(setting(&vs, i, "vm.swappiness"), "10");
		assert_int_equal(vs.v[i].thp_off, i % 2 == 0);
	}
	assert_string_equal(setting(&vs, 5, "vm.page-cluster"), "3");
	assert_string_equal(setting(&vs, 5, "transparent_hugepage.enabled"), "never");
	vms_variants_release(&vs);
}

/* Two varying knobs whose names end alike are labelled by their full names. */
static void test_label_collision(void **state)
{
	const char *args[] = {"transparent_hugepage.enabled=never,always",
	                      "transparent_hugepage.hugepages-2048kB.enabled=inherit,never"};
	struct vms_variants vs;
	char err[256];

	(void)state;
	assert_int_equal(vms_variants_build(&vs, args, 2, "kernel,off", 1, err, sizeof(err)), 0);
	assert_int_equal(vs.n, 8);
	assert_string_equal(vs.v[0].label,
	                    "transparent_hugepage.enabled=never "
	                    "transparent_hugepage.hugepages-2048kB.enabled=inherit thp=kernel");
	assert_int_equal(vs.v[0].thp_off, 0);
	assert_int_equal(vs.v[1].thp_off, 1);
	vms_variants_release(&vs);
}

/* The sysfs knobs' values in labels and settings as the kernel prints them, whatever the
 * spelling given. */
static void test_kernel_spelling(void **state)
{
	const char *args[] = {"zswap.enabled=0,on", "lru_gen.enabled=n,7,y",
	                      "zswap.max_pool_percent=0x14"};
	struct vms_variants vs;
	char err[256] = "";

	(void)state;
	if (vms_variants_build(&vs, args, 3, NULL, 1, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(vs.n, 6);
	/* both end in "enabled": full names */
	assert_string_equal(vs.v[0].label, "zswap.enabled=N lru_gen.enabled=0x0000");
	assert_string_equal(vs.v[1].label, "zswap.enabled=N lru_gen.enabled=0x0007");
	assert_string_equal(vs.v[5].label, "zswap.enabled=Y lru_gen.enabled=y");
	assert_string_equal(setting(&vs, 5, "zswap.enabled"), "Y");
	assert_string_equal(setting(&vs, 0, "zswap.max_pool_percent"), "20");
	vms_variants_release(&vs);
}

static void refused(const char *arg, const char *thp, int code, const char *why)
{
	const char *args[] = {arg};
	struct vms_variants vs;
	char err[512] = "";

	assert_int_equal(vms_variants_build(&vs, args, arg ? 1 : 0, thp, 1, err, sizeof(err)),
	                 code);
	if (!strstr(err, why))
		fail_msg("'%s': '%s' does not say '%s'", arg, err, why);
	assert_int_equal(vs.n, 0);
}

static void test_errors(void **state)
{
	const char *two[] = {"vm.page-cluster=1", "vm.page-cluster=2"};
	const char *big[] = {"vm.page-cluster=0,1,2,3,4,5,6,7", "vm.swappiness=0,1,2,3,4,5,6,7,8"};
	struct vms_variants vs;
	char err[512];

	(void)state;
	refused("vm.nonexistent=1", NULL, -ENOENT, "no knob 'vm.nonexistent'");
	refused("../../etc/passwd=1", NULL, -EINVAL, "not a knob name");
	refused("kernel.hostname=x", NULL, -EINVAL, "not a knob vmsuite changes");
	refused("vm.page-cluster", NULL, -EINVAL, "needs NAME=VALUE");
	refused("=1", NULL, -EINVAL, "needs NAME=VALUE");
	refused("vm.page-cluster=", NULL, -EINVAL, "empty");
	refused("vm.page-cluster=1,,2", NULL, -EINVAL, "empty");
	refused("vm.page-cluster=1, 1", NULL, -EINVAL, "given twice");
	refused(NULL, "on", -EINVAL, "--thp takes");
	/* two spellings of one value are that value twice */
	refused("zswap.enabled=1,Y", NULL, -EINVAL, "the value 'Y' is given twice");
	refused("lru_gen.enabled=0,N", NULL, -EINVAL, "the value '0x0000' is given twice");
	refused("lru_gen.min_ttl_ms=1000", NULL, -ENOENT, "needs CONFIG_LRU_GEN");
	assert_int_equal(vms_variants_build(&vs, two, 2, NULL, 1, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "given twice"));
	assert_int_equal(vms_variants_build(&vs, big, 2, NULL, 1, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "more than 64 variants"));
	assert_int_equal(vs.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_default, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cross_product, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_label_collision, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_kernel_spelling, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
