/* Unit tests of memload's working set (workloads/memload.c): the default advises its cold
 * tail MADV_RANDOM, so that reclaim takes those pages without looking at their accessed bits;
 * the mapping shows it in /proc/self/smaps ("rr" in VmFlags) for exactly the pages advised.
 * random=0 (version 2, the configuration cgroup v1 OOM-kills with swap readahead) advises
 * nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "workloads/memload.h"
#include "workloads/memload_pattern.h"
#include "workloads/workload.h"

#define PAGE 4096u

/* Whether every VMA of /proc/self/smaps overlapping [from, to) carries VmFlags `flag` (want 1)
 * or none does (want 0); fails the test when [from, to) is not wholly mapped. */
static void assert_flag(uintptr_t from, uintptr_t to, const char *flag, int want)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512], needle[8];
	uintptr_t lo = 0, hi = 0, covered = 0;
	int in = 0;

	assert_non_null(f);
	snprintf(needle, sizeof(needle), " %s", flag);
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b;

		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			lo = a;
			hi = b;
			in = hi > from && lo < to;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			char *nl = strchr(line, '\n');
			int has;

			if (nl)
				*nl = ' ';
			has = strstr(line + 8, needle) &&
			      strstr(line + 8, needle)[strlen(needle)] == ' ';
			if (has != want)
				fail_msg("VMA %lx-%lx of [%lx, %lx): %s is %s", (unsigned long)lo,
				         (unsigned long)hi, (unsigned long)from, (unsigned long)to,
				         flag, has ? "set" : "not set");
			covered += (hi < to ? hi : to) - (lo > from ? lo : from);
			in = 0;
		}
	}
	fclose(f);
	assert_int_equal(covered, to - from);
}

/* The cold tail, and only it, is advised random. */
static void test_map_cold_tail(void **state)
{
	uint64_t pages = 64, hot = 16;
	char *mem = vms_memload_map(pages, hot);
	uintptr_t base = (uintptr_t)mem;

	(void)state;
	assert_true(mem != MAP_FAILED);
	assert_flag(base, base + hot * PAGE, "rr", 0);
	assert_flag(base + hot * PAGE, base + pages * PAGE, "rr", 1);
	/* it is still memory to write */
	mem[0] = 1;
	mem[pages * PAGE - 1] = 1;
	munmap(mem, pages * PAGE);
}

/* random_from 0 advises the whole set; pages (or more) none of it. */
static void test_map_whole_and_none(void **state)
{
	char *mem = vms_memload_map(8, 0);

	(void)state;
	assert_true(mem != MAP_FAILED);
	assert_flag((uintptr_t)mem, (uintptr_t)mem + 8 * PAGE, "rr", 1);
	munmap(mem, 8 * PAGE);
	mem = vms_memload_map(8, 8);
	assert_true(mem != MAP_FAILED);
	assert_flag((uintptr_t)mem, (uintptr_t)mem + 8 * PAGE, "rr", 0);
	munmap(mem, 8 * PAGE);
}

/* The default is version 3: random=1 (the cold tail advised); random=0 is version 2's. */
static void test_default(void **state)
{
	struct vms_workload_spec spec;
	char why[256];
	int i;

	(void)state;
	assert_int_equal(vms_workload_version(&vms_workload_memload), 3);
	assert_int_equal(vms_workload_spec_parse("memload", &spec, why, sizeof(why)), 0);
	i = vms_workload_option_index(spec.w, "random");
	assert_true(i >= 0);
	assert_int_equal(spec.opts[i].u, 1);
	vms_workload_spec_release(&spec);
	assert_int_equal(vms_workload_spec_parse("memload:random=0", &spec, why, sizeof(why)), 0);
	assert_int_equal(spec.opts[i].u, 0);
	vms_workload_spec_release(&spec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_map_cold_tail),
	    cmocka_unit_test(test_map_whole_and_none),
	    cmocka_unit_test(test_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
