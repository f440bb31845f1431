/* Unit tests of core/machine.c: the profile table, resolution of --machine/--mem-limit/
 * --swap-limit/--cpus against fake cgroup trees (default hron2001 vs host fallback, errors),
 * the facts given to the workloads, CPU lists and the protocol.machine record. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/cpulist.h"
#include "core/machine.h"
#include "core/swapfile.h"
#include "core/util.h"
#include "tests/cgroup/fake_cgroupfs.h"

#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

static void no_memory_cgroup(struct fake *f, uint64_t mem_total)
{
	char buf[256];

	fake_write(f, "/proc/self/cgroup", "8:pids:/\n0::/\n");
	fake_write(f, "/proc/self/mountinfo",
	           "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n");
	fake_write(f, "/sys/fs/cgroup/unified/cgroup.controllers", "hugetlb\n");
	snprintf(buf, sizeof(buf), "MemTotal: %llu kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n",
	         (unsigned long long)(mem_total / 1024));
	fake_write(f, "/proc/meminfo", buf);
}

static void test_profiles(void **state)
{
	const struct vms_machine_profile *p = vms_machine_profile_find("hron2001");
	json_t *a;

	(void)state;
	assert_non_null(p);
	assert_true(p->cgroup);
	assert_int_equal(p->mem_limit, 512 * MIB);
	assert_int_equal(p->swap_limit, GIB);
	p = vms_machine_profile_find("host");
	assert_non_null(p);
	assert_false(p->cgroup);
	assert_null(vms_machine_profile_find("hron2002"));
	a = vms_machine_profiles_json();
	assert_int_equal(json_array_size(a), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(a, 0), "name")),
	                    "hron2001");
	assert_true(json_is_null(json_object_get(json_array_get(a, 1), "mem_limit_bytes")));
	assert_int_equal(
	    json_integer_value(json_object_get(json_array_get(a, 0), "mem_limit_bytes")),
	    512 * MIB);
	json_decref(a);
}

/* The first n CPUs of a list, formatted back: what --cpus N records. */
static int first_of(const char *online, long n, char *list, size_t len)
{
	cpu_set_t all, set;
	int ret = vms_cpu_list_parse(online, &all);

	if (!ret)
		ret = vms_cpu_set_first(&all, n, &set);
	if (!ret)
		ret = vms_cpu_list_format(&set, list, len);
	return ret;
}

static void test_cpu_lists(void **state)
{
	char list[64], last[16], tiny[4];
	cpu_set_t set, all;

	(void)state;
	assert_int_equal(first_of("0-3,8\n", 2, list, sizeof(list)), 0);
	assert_string_equal(list, "0-1");
	assert_int_equal(first_of("0-3,8", 5, list, sizeof(list)), 0);
	assert_string_equal(list, "0-3,8");
	assert_int_equal(first_of("2,5,7-9", 3, list, sizeof(list)), 0);
	assert_string_equal(list, "2,5,7");
	assert_int_equal(first_of("0-3,8", 6, list, sizeof(list)), -ERANGE);
	assert_int_equal(first_of("0-x", 1, list, sizeof(list)), -EINVAL);
	assert_int_equal(first_of("3-1", 1, list, sizeof(list)), -EINVAL);
	assert_int_equal(first_of("0", 0, list, sizeof(list)), -EINVAL);
	/* counting needs no set, so a list past CPU_SETSIZE still counts */
	assert_int_equal(vms_cpu_list_count("0-3,8\n"), 5);
	assert_int_equal(vms_cpu_list_count("0-4095,8192"), 4097);
	assert_int_equal(vms_cpu_list_parse("0-4095", &all), -ERANGE);
	assert_int_equal(vms_cpu_list_count(""), 0);
	assert_int_equal(vms_cpu_list_count("3-1"), -EINVAL);
	assert_int_equal(vms_cpu_list_count("0;1"), -EINVAL);
	/* the set itself, not only its text */
	assert_int_equal(vms_cpu_list_parse("0-3,8", &all), 0);
	assert_int_equal(vms_cpu_set_first(&all, 5, &set), 0);
	assert_int_equal(CPU_COUNT(&set), 5);
	assert_true(CPU_ISSET(8, &set));
	assert_false(CPU_ISSET(4, &set));
	/* formatting: ranges, singles, the last CPU, nothing, a buffer too small */
	CPU_ZERO(&set);
	assert_int_equal(vms_cpu_list_format(&set, list, sizeof(list)), 0);
	assert_string_equal(list, "");
	CPU_SET(0, &set);
	CPU_SET(2, &set);
	CPU_SET(3, &set);
	CPU_SET(CPU_SETSIZE - 1, &set);
	assert_int_equal(vms_cpu_list_format(&set, list, sizeof(list)), 0);
	snprintf(last, sizeof(last), "%d", CPU_SETSIZE - 1);
	assert_true(!strncmp(list, "0,2-3,", 6) && !strcmp(list + 6, last));
	assert_int_equal(vms_cpu_list_format(&set, tiny, sizeof(tiny)), -ENOBUFS);
	assert_string_equal(tiny, "");
	/* this process: at least one CPU */
	/* the emulated machine takes the highest-numbered CPUs (CPU 0 keeps the housekeeping) */
	assert_int_equal(vms_cpu_list_parse("0-3,8", &all), 0);
	assert_int_equal(vms_cpu_set_last(&all, 2, &set), 0);
	assert_int_equal(vms_cpu_list_format(&set, list, sizeof(list)), 0);
	assert_string_equal(list, "3,8");
	assert_int_equal(vms_cpu_set_last(&all, 6, &set), -ERANGE);
	assert_int_equal(vms_cpu_set_last(&all, 0, &set), -EINVAL);
	assert_int_equal(vms_machine_cpus(1, &set), 0);
	assert_int_equal(CPU_COUNT(&set), 1);
	assert_int_equal(vms_machine_cpus(100000, &set), -ERANGE);
}

static void test_default_is_hron2001(void **state)
{
	struct fake *f = *state;
	struct vms_machine_request req = {.root = f->root, .swap_file = VMS_SWAPFILE_NO};
	struct vms_machine *m = vms_xmalloc(sizeof(*m));
	char why[512];

	fake_hybrid_v1(f, "/a", 24 * GIB, 0);
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	assert_string_equal(m->profile->name, "hron2001");
	assert_false(m->explicit_profile);
	assert_true(m->use_cgroup);
	assert_int_equal(m->mem_limit, 512 * MIB);
	assert_int_equal(m->swap_limit, GIB);
	assert_int_equal(m->effective_swap, 0);
	assert_int_equal(m->swapfile_bytes, 0);
	/* the workloads see the emulated machine: its RAM, its swap, in a cgroup */
	assert_int_equal(m->facts.ram, 512 * MIB);
	assert_int_equal(m->facts.swap, 0);
	assert_true(m->facts.cgroup);
	assert_string_equal(m->facts.workdir, ".");
	assert_int_equal(m->cg.version, VMS_CGROUP_V1);
	/* no host swap and --swap-file no: the note says the swap could not be emulated */
	assert_non_null(strstr(m->note, "swap cannot be emulated: --swap-file no"));
	assert_non_null(strstr(m->note, "the host has no swap"));
	/* the 2001 box had one CPU: the highest-numbered one this process may use */
	assert_int_equal(m->cpus, 1);
	assert_int_equal(CPU_COUNT(&m->cpuset), 1);
	assert_string_equal(m->cpus_from, "profile");

	/* by default a swap file makes up the missing 1 GiB, as root, where one fits */
	req.swap_file = VMS_SWAPFILE_AUTO;
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	if (geteuid() != 0) {
		assert_int_equal(m->swapfile_bytes, 0);
		assert_non_null(strstr(m->note, "a swap file needs root"));
	} else if (vms_swapfile_check_dir(".", GIB, NULL, 0, why, sizeof(why))) {
		assert_int_equal(m->swapfile_bytes, 0);
		assert_non_null(strstr(m->note, "--swap-dir DIR picks another place"));
	} else {
		assert_int_equal(m->swapfile_bytes, GIB);
		assert_string_equal(m->swapfile_dir, ".");
		assert_int_equal(m->effective_swap, GIB);
		assert_int_equal(m->facts.swap, GIB);
		assert_non_null(strstr(m->note, "a temporary swap file of 1 GiB"));
		assert_null(strstr(m->note, "cannot be emulated"));
	}
	/* --cpus all: not pinned */
	req.cpus = VMS_MACHINE_CPUS_ALL;
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	assert_int_equal(m->cpus, 0);
	assert_string_equal(m->cpu_list, "");
	free(m);
}

/* A swap area's header page is not "less swap": 1 GiB asked, 1 GiB less one page there. */
static void test_header_page_is_no_shortfall(void **state)
{
	struct fake *f = *state;
	struct vms_machine_request req = {.root = f->root, .swap_file = VMS_SWAPFILE_NO};
	struct vms_machine *m = vms_xmalloc(sizeof(*m));
	long page = sysconf(_SC_PAGESIZE);

	fake_hybrid_v1(f, "/a", 24 * GIB, GIB - (uint64_t)page);
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	assert_int_equal(m->effective_swap, GIB - (uint64_t)page);
	assert_int_equal(m->swapfile_bytes, 0);
	assert_null(strstr(m->note, "swap"));
	/* another vmsuite run's temporary swap file is not swap this run can count on (it goes
	 * when that run ends): this run plans its own */
	fake_hybrid_v1(f, "/a", 24 * GIB, GIB);
	fake_write(f, "/proc/swaps",
	           "Filename\tType\tSize\tUsed\tPriority\n"
	           "/srv/.vmsuite-swap-99 file 1048576 0 -2\n");
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	assert_int_equal(m->effective_swap, 0);
	assert_non_null(strstr(m->note, "the host has no swap"));
	fake_write(f, "/proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n");
	/* two pages short with one swap area: said */
	fake_hybrid_v1(f, "/a", 24 * GIB, GIB - 2 * (uint64_t)page);
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	assert_non_null(strstr(m->note, "swap cannot be emulated"));
	free(m);
}

static void test_overrides(void **state)
{
	struct fake *f = *state;
	struct vms_machine_request req = {.root = f->root};
	struct vms_machine *m = vms_xmalloc(sizeof(*m));

	fake_v2(f, "/u", 1, 8 * GIB, 4 * GIB);
	req.profile = "hron2001";
	req.set_mem_limit = 1;
	req.mem_limit = 256 * MIB;
	req.set_swap_limit = 1;
	req.swap_limit = 0;
	req.cpus = 1;
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	assert_true(m->explicit_profile);
	assert_int_equal(m->cg.version, VMS_CGROUP_V2);
	assert_int_equal(m->mem_limit, 256 * MIB);
	assert_int_equal(m->swap_limit, 0);
	assert_int_equal(m->effective_swap, 0);
	assert_string_equal(m->note, "");
	assert_int_equal(m->cpus, 1);
	assert_int_equal(CPU_COUNT(&m->cpuset), 1);
	assert_true(m->cpu_list[0] != '\0');
	assert_int_equal(m->facts.ram, 256 * MIB);

	/* 1 GiB asked, 4 GiB on the host: all of it emulated */
	req.set_swap_limit = 0;
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	assert_int_equal(m->effective_swap, GIB);
	assert_int_equal(m->facts.swap, GIB);
	free(m);
}

static void test_fallback_to_host(void **state)
{
	struct fake *f = *state;
	struct vms_machine_request req = {.root = f->root, .workdir = f->root};
	struct vms_machine *m = vms_xmalloc(sizeof(*m));
	struct statvfs sv;
	uint64_t avail;

	no_memory_cgroup(f, GIB);
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	assert_string_equal(m->profile->name, "host");
	assert_false(m->use_cgroup);
	assert_int_equal(m->mem_limit, VMS_CGROUP_UNLIMITED);
	assert_non_null(strstr(m->note, "running on the host machine (1 GiB RAM"));
	assert_non_null(strstr(m->note, "cgroup.controllers"));
	assert_non_null(strstr(m->note, "the 2001 box is not emulated"));
	/* the facts the workloads size themselves from: the host's RAM, the work dir's disk */
	assert_int_equal(m->facts.ram, GIB);
	assert_false(m->facts.cgroup);
	assert_int_equal(m->facts.root, geteuid() == 0);
	assert_string_equal(m->facts.workdir, f->root);
	assert_int_equal(statvfs(f->root, &sv), 0);
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	/* other processes write meanwhile: a tolerance of 1 GiB */
	assert_true(m->facts.disk_free != VMS_MACHINE_UNKNOWN);
	assert_true(m->facts.disk_free + GIB > avail && m->facts.disk_free < avail + GIB);
	assert_true(m->facts.fs_type[0] != '\0');
	/* a work directory that is not there: unknown free disk */
	req.workdir = "/nonexistent/vmsuite";
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	assert_int_equal(m->facts.disk_free, VMS_MACHINE_UNKNOWN);
	free(m);
}

static void test_notes(void **state)
{
	struct vms_machine *m = vms_xcalloc(1, sizeof(*m));

	(void)state;
	vms_machine_add_note(m, "a %d", 1);
	assert_string_equal(m->note, "a 1");
	vms_machine_add_note(m, "b");
	vms_machine_add_note(m, "a 1");
	vms_machine_add_note(m, "%s", "");
	assert_string_equal(m->note, "a 1; b");
	free(m);
}

static void test_errors(void **state)
{
	struct fake *f = *state;
	struct vms_machine_request req = {.root = f->root};
	struct vms_machine *m = vms_xmalloc(sizeof(*m));

	no_memory_cgroup(f, GIB);
	req.profile = "hron2001";
	assert_int_equal(vms_machine_resolve(m, &req), -ENOTSUP);
	req.profile = "pentium";
	assert_int_equal(vms_machine_resolve(m, &req), -EINVAL);
	req.profile = NULL;
	req.set_mem_limit = 1;
	req.mem_limit = 256 * MIB;
	assert_int_equal(vms_machine_resolve(m, &req), -ENOTSUP);
	req.profile = "host";
	assert_int_equal(vms_machine_resolve(m, &req), -EINVAL);
	req.set_mem_limit = 0;
	req.swap_dir = "/srv"; /* no emulated machine to give swap to */
	assert_int_equal(vms_machine_resolve(m, &req), -EINVAL);
	req.swap_dir = NULL;
	req.swap_file = VMS_SWAPFILE_YES;
	assert_int_equal(vms_machine_resolve(m, &req), -EINVAL);
	req.swap_file = VMS_SWAPFILE_AUTO;
	req.cpus = 100000;
	assert_int_equal(vms_machine_resolve(m, &req), -ERANGE);
	fake_cleanup(f);
	fake_init(f);
	fake_hybrid_v1(f, "/a", 24 * GIB, 0);
	req.profile = NULL;
	req.cpus = 0;
	req.set_mem_limit = 1;
	req.mem_limit = MIB;
	assert_int_equal(vms_machine_resolve(m, &req), -EINVAL);
	free(m);
}

static void test_machine_json(void **state)
{
	struct fake *f = *state;
	struct vms_machine_request req = {.root = f->root};
	struct vms_machine *m = vms_xmalloc(sizeof(*m));
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	json_t *j;

	fake_hybrid_v1(f, "/a", 24 * GIB, 0);
	assert_int_equal(vms_machine_resolve(m, &req), 0);
	j = vms_machine_json(m, NULL);
	assert_string_equal(json_string_value(json_object_get(j, "profile")), "hron2001");
	assert_int_equal(json_integer_value(json_object_get(j, "mem_limit_bytes")), 512 * MIB);
	assert_int_equal(json_integer_value(json_object_get(j, "cgroup_version")), 0);
	assert_true(json_is_null(json_object_get(j, "cgroup_path")));
	/* one CPU, the profile's, recorded with where the choice came from */
	assert_int_equal(json_integer_value(json_object_get(j, "cpus")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "cpus_from")), "profile");
	/* the plan is the workload layer's; core records it as given */
	assert_true(json_is_null(json_object_get(j, "plan")));
	json_decref(j);
	snprintf(m->plan_json, sizeof(m->plan_json), "{\"w_runs\": 3}");
	j = vms_machine_json(m, NULL);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "plan"), "w_runs")),
	                 3);
	json_decref(j);

	assert_int_equal(vms_cgroup_create(&cg, &m->cg, "x", m->mem_limit, m->swap_limit, &ops), 0);
	j = vms_machine_json(m, &cg);
	assert_int_equal(json_integer_value(json_object_get(j, "cgroup_version")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "cgroup_path")), cg.dir);
	assert_int_equal(json_integer_value(json_object_get(j, "swap_limit_bytes")), GIB);
	assert_int_equal(json_integer_value(json_object_get(j, "effective_swap_bytes")), 0);
	assert_non_null(strstr(json_string_value(json_object_get(j, "note")), "swap"));
	assert_true(json_is_object(json_object_get(j, "cgroup")));
	json_decref(j);
	assert_int_equal(vms_cgroup_destroy(&cg, 0), 0);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_profiles),
	    cmocka_unit_test(test_cpu_lists),
	    cmocka_unit_test_setup_teardown(test_header_page_is_no_shortfall, fake_setup,
	                                    fake_teardown),
	    cmocka_unit_test_setup_teardown(test_default_is_hron2001, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_overrides, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_fallback_to_host, fake_setup, fake_teardown),
	    cmocka_unit_test(test_notes),
	    cmocka_unit_test_setup_teardown(test_errors, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_machine_json, fake_setup, fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
