/* Unit tests of core/zram.c that change nothing on the host: the compressor picked from a
 * comp_algorithm list, mm_stat parsed, the zram kind's journal record (device and diskseq)
 * written and read back, and its undo refusing or passing over every device it did not add
 * (another path, a number no device has, a device of that number with another diskseq: this
 * host's /dev/zram0 when it has one, whose state is compared before and after). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hoststate.h"
#include "core/util.h"
#include "core/zram.h"

static void pick(const char *list, int want_ret, const char *want)
{
	char out[64] = "";

	assert_int_equal(vms_zram_pick_compressor(list, out, sizeof(out)), want_ret);
	if (!want_ret)
		assert_string_equal(out, want);
}

static void test_pick_compressor(void **state)
{
	(void)state;
	pick("[lzo-rle] lzo lz4 \n", 0, "lzo-rle");
	pick("lzo [lz4] lzo-rle zstd\n", 0, "lzo-rle");
	pick("lzo lz4 [lzo-rle]", 0, "lzo-rle");
	/* not listed: the kernel's default, the bracketed one; a longer name is another */
	pick("lzo [zstd] lz4\n", 0, "zstd");
	pick("lzo-rle2 [lz4]\n", 0, "lz4");
	pick("xlzo-rle [lz4]\n", 0, "lz4");
	pick("lzo lz4\n", -EINVAL, NULL);
	pick("[]", -EINVAL, NULL);
	pick("", -EINVAL, NULL);
}

static void test_mm_stat(void **state)
{
	struct vms_zram_mm_stat st;

	(void)state;
	/* 6.x: nine fields */
	assert_int_equal(vms_zram_mm_stat_parse("  4096000   123456   200704 134217728   262144"
	                                        "      900        3       12        0\n",
	                                        &st),
	                 0);
	assert_true(st.orig_data_size == 4096000);
	assert_true(st.compr_data_size == 123456);
	assert_true(st.mem_used_total == 200704);
	assert_true(st.mem_limit == 134217728);
	assert_true(st.mem_used_max == 262144);
	assert_true(st.same_pages == 900);
	assert_true(st.pages_compacted == 3);
	assert_true(st.huge_pages == 12);
	/* 4.x: seven */
	assert_int_equal(vms_zram_mm_stat_parse("1 2 3 4 5 6 7\n", &st), 0);
	assert_true(st.pages_compacted == 7 && st.huge_pages == 0);
	assert_int_equal(vms_zram_mm_stat_parse("1 2 3 4 5 6\n", &st), -EINVAL);
	assert_int_equal(vms_zram_mm_stat_parse("", &st), -EINVAL);
}

static void test_record(void **state)
{
	char tmp[64], cmd[128];
	struct vms_hoststate hs;
	struct vms_host_entry e = {0}, *es;
	size_t n;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/vms-zram-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	assert_int_equal(vms_hoststate_init(&hs, tmp), 0);
	e.kind = VMS_HOST_ZRAM;
	snprintf(e.path, sizeof(e.path), "/dev/zram7");
	e.diskseq = 123456789012ULL;
	memset(e.swap_uuid, 0xab, sizeof(e.swap_uuid));
	assert_int_equal(vms_hoststate_record(&hs, &e), 0);
	assert_int_equal(vms_hoststate_list(&hs, &es, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(es[0].kind, VMS_HOST_ZRAM);
	assert_string_equal(es[0].path, "/dev/zram7");
	assert_true(es[0].diskseq == 123456789012ULL);
	assert_memory_equal(es[0].swap_uuid, e.swap_uuid, sizeof(e.swap_uuid));
	assert_string_equal(vms_host_kind_what(VMS_HOST_ZRAM), "zram device");
	free(es);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

/* Reads what describes zram<id> now: its diskseq, initstate, disksize, comp_algorithm. */
static char *device_state(int id)
{
	static const char *const attrs[] = {"diskseq", "initstate", "disksize", "comp_algorithm"};
	char path[96], *all = vms_xstrdup(""), *v, *next;
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(attrs); i++) {
		snprintf(path, sizeof(path), "/sys/block/zram%d/%s", id, attrs[i]);
		v = vms_read_text(path);
		next = vms_xasprintf("%s%s=%s;", all, attrs[i], v ? v : "?");
		free(v);
		free(all);
		all = next;
	}
	return all;
}

static void test_undo_not_ours(void **state)
{
	struct vms_host_entry e = {0};
	uint64_t seq;

	(void)state;
	e.kind = VMS_HOST_ZRAM;
	/* not a zram device's name, or no diskseq recorded: refused */
	snprintf(e.path, sizeof(e.path), "/dev/sda");
	e.diskseq = 1;
	assert_int_equal(vms_host_entry_undo(&e), 2);
	snprintf(e.path, sizeof(e.path), "/dev/zram1x");
	assert_int_equal(vms_host_entry_undo(&e), 2);
	snprintf(e.path, sizeof(e.path), "/dev/zram3");
	e.diskseq = 0;
	assert_int_equal(vms_host_entry_undo(&e), 2);
	/* no such device: nothing to undo */
	snprintf(e.path, sizeof(e.path), "/dev/zram999999");
	e.diskseq = 5;
	assert_int_equal(vms_host_entry_undo(&e), 1);
	/* the record before the device was named undoes nothing */
	snprintf(e.path, sizeof(e.path), "%s/hot_add", VMS_ZRAM_CONTROL);
	e.diskseq = UINT64_MAX - 1;
	assert_int_equal(vms_host_entry_undo(&e), 1);
	/* a device of the recorded number with another diskseq is another's: untouched */
	if (!vms_read_u64("/sys/block/zram0/diskseq", &seq)) {
		char *before = device_state(0), *after;

		snprintf(e.path, sizeof(e.path), "/dev/zram0");
		e.diskseq = seq + 1;
		assert_int_equal(vms_host_entry_undo(&e), 1);
		assert_int_equal(vms_zram_ours(0, seq + 1), 0);
		after = device_state(0);
		assert_string_equal(before, after);
		free(before);
		free(after);
	} else {
		print_message("no /sys/block/zram0/diskseq here: the foreign-device case is not "
		              "tested\n");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pick_compressor),
	    cmocka_unit_test(test_mm_stat),
	    cmocka_unit_test(test_record),
	    cmocka_unit_test(test_undo_not_ours),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
