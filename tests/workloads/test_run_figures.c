/* Unit tests of workloads/run-figures.c: where a run's reclaim scan counts (pgscan, pgsteal)
 * come from. In the emulated machine they are its memory cgroup's (memory.stat on a fake
 * cgroupfs, v2), or left out where its memory.stat has none (v1), never /proc/vmstat's, which
 * leaves out limit reclaim; without a cgroup they are the host's /proc/vmstat sums. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "core/cgroup.h"
#include "core/procfs.h"
#include "core/util.h"
#include "tests/cgroup/fake_cgroupfs.h"
#include "tests/vms_test.h"
#include "workloads/run-figures.h"

#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

/* /proc/vmstat before and after a run whose reclaim was all the cgroup's: the global counters
 * the kernel keeps do not move, except a little global reclaim of other pages */
static void read_vmstat(const struct fake *f, struct vms_vmstat *b, struct vms_vmstat *a)
{
	char path[512];

	fake_write(f, "/proc/vmstat",
	           "pgfault 100\npswpin 10\npswpout 20\npgscan_kswapd 0\npgscan_direct 5\n"
	           "pgscan_anon 5\npgscan_file 0\npgsteal_kswapd 0\npgsteal_direct 3\n"
	           "pgsteal_anon 3\npgsteal_file 0\nworkingset_refault_anon 1\n");
	snprintf(path, sizeof(path), "%s/proc/vmstat", f->root);
	assert_int_equal(vms_vmstat_read(b, path), 0);
	fake_write(f, "/proc/vmstat",
	           "pgfault 90100\npswpin 30010\npswpout 40020\npgscan_kswapd 7\npgscan_direct 5\n"
	           "pgscan_anon 12\npgscan_file 0\npgsteal_kswapd 6\npgsteal_direct 3\n"
	           "pgsteal_anon 9\npgsteal_file 0\nworkingset_refault_anon 30001\n");
	assert_int_equal(vms_vmstat_read(a, path), 0);
}

/* Records the run's figures as the runner does (run 0, in a cgroup when cgj is not NULL). */
static json_t *record(const struct vms_vmstat *b, const struct vms_vmstat *a, json_t *cgj)
{
	json_t *metrics = json_object();
	struct rusage ru;
	struct vms_psi p;

	memset(&ru, 0, sizeof(ru));
	memset(&p, 0, sizeof(p));
	vms_run_put_metrics(metrics, 0, &ru, 0, 30, 512 * MIB, b, a, &p, &p, cgj == NULL, 1);
	if (cgj)
		vms_run_put_cgroup_metrics(metrics, 0, cgj);
	return metrics;
}

static double sample0(const json_t *metrics, const char *name)
{
	const json_t *m = json_object_get(metrics, name);

	assert_non_null(m);
	return json_number_value(json_array_get(json_object_get(m, "samples"), 0));
}

/* One run in cgroup cg: memory.stat (at path) reads stat0 when it begins and stat1 when it ends;
 * returns the run's metrics as recorded, *cgj the cgroup object they came from. */
static json_t *run_between(struct fake *f, struct vms_cgroup *cg, const char *path,
                           const char *stat0, const char *stat1, json_t **cgj)
{
	struct vms_cgroup_stats *before = vms_xmalloc(sizeof(*before));
	struct vms_cgroup_stats *after = vms_xmalloc(sizeof(*after));
	struct vms_vmstat *b = vms_xmalloc(sizeof(*b)), *a = vms_xmalloc(sizeof(*a));
	json_t *metrics;

	fake_write(f, path, stat0);
	assert_int_equal(vms_cgroup_run_begin(cg, before), 0);
	fake_write(f, path, stat1);
	assert_int_equal(vms_cgroup_stats_read(cg, after), 0);
	*cgj = vms_cgroup_delta_json(cg, before, after);
	read_vmstat(f, b, a);
	metrics = record(b, a, *cgj);
	free(before);
	free(after);
	free(b);
	free(a);
	return metrics;
}

static void run_done(struct vms_cgroup *cg, json_t *metrics, json_t *cgj)
{
	json_decref(metrics);
	json_decref(cgj);
	assert_int_equal(vms_cgroup_destroy(cg, 0), 0);
}

/* v2: memory.stat's pgscan and pgsteal, the cgroup's own limit reclaim */
static void test_v2_from_memory_stat(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	struct vms_cgroup_info info;
	json_t *cgj, *metrics;

	fake_v2(f, "/u", 1, 8 * GIB, GIB);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, "x", 512 * MIB, GIB, &ops), 0);
#define C "/sys/fs/cgroup/u/x/"
	metrics = run_between(
	    f, &cg, C "memory.stat",
	    "anon 4096\nfile 0\npgfault 5\npgscan 100\npgsteal 60\npgscan_kswapd 0\n"
	    "pgscan_direct 100\npgsteal_kswapd 0\npgsteal_direct 60\n",
	    "anon 536870912\nfile 0\npgfault 90005\npgscan 250100\npgsteal 40060\n"
	    "pgscan_kswapd 0\npgscan_direct 250100\npgsteal_kswapd 0\npgsteal_direct 40060\n",
	    &cgj);
#undef C
	assert_true(sample0(metrics, "pgscan") == 250000);
	assert_true(sample0(metrics, "pgsteal") == 40000);
	/* the other reclaim figures stay the host's */
	assert_true(sample0(metrics, "pswpin") == 30000);
	assert_true(sample0(metrics, "workingset_refault") == 30000);
	assert_null(json_object_get(metrics, "oom_kill"));
	run_done(&cg, metrics, cgj);
}

/* v1: memory.stat as kernel 6.18 writes it has no scan counters: no pgscan, not a 0 */
static void test_v1_unavailable(void **state)
{
	struct fake *f = *state;
	struct vms_cgroup cg = VMS_CGROUP_INIT;
	struct vms_cgroup_fs_ops ops = fake_ops(f);
	struct vms_cgroup_info info;
	json_t *cgj, *metrics;

	fake_hybrid_v1(f, "/process_api/abc", 24 * GIB, 0);
	assert_int_equal(vms_cgroup_detect(&info, f->root), 0);
	assert_int_equal(vms_cgroup_create(&cg, &info, "vmsuite-test", 512 * MIB, GIB, &ops), 0);
#define C "/sys/fs/cgroup/memory/process_api/abc/vmsuite-test/"
#define V1STAT(rss, in, out, refault)                                                              \
	"cache 0\nrss " rss "\nrss_huge 0\nshmem 0\nmapped_file 0\ndirty 0\nwriteback 0\n"         \
	"workingset_refault_anon " refault "\nworkingset_refault_file 0\nswap 0\nswapcached 0\n"   \
	"pgpgin " in "\npgpgout " out "\npgfault 5\npgmajfault 0\ninactive_anon 0\n"               \
	"active_anon 0\ninactive_file 0\nactive_file 0\nunevictable 0\n"                           \
	"hierarchical_memory_limit 536870912\nhierarchical_memsw_limit 1610612736\n"               \
	"total_cache 0\ntotal_rss " rss "\ntotal_workingset_refault_anon " refault "\n"            \
	"total_pgpgin " in "\ntotal_pgpgout " out "\n"
	metrics = run_between(f, &cg, C "memory.stat", V1STAT("4096", "10", "5", "0"),
	                      V1STAT("536870912", "200010", "70005", "30000"), &cgj);
#undef V1STAT
#undef C
	assert_null(json_object_get(metrics, "pgscan"));
	assert_null(json_object_get(metrics, "pgsteal"));
	/* the cgroup's reclaim still shows: pages uncharged (pgpgout) in the run's cgroup object */
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(cgj, "stat_delta"), "pgpgout")),
	    70000);
	assert_true(sample0(metrics, "pswpin") == 30000);
	run_done(&cg, metrics, cgj);
}

/* no memory cgroup (the host profile): the host's /proc/vmstat sums, the _anon/_file splits
 * not added twice */
static void test_host_from_vmstat(void **state)
{
	struct fake *f = *state;
	struct vms_vmstat *b = vms_xmalloc(sizeof(*b)), *a = vms_xmalloc(sizeof(*a));
	json_t *metrics;

	read_vmstat(f, b, a);
	metrics = record(b, a, NULL);
	assert_true(sample0(metrics, "pgscan") == 7);
	assert_true(sample0(metrics, "pgsteal") == 6);
	assert_true(sample0(metrics, "oom_kill") == 0);
	json_decref(metrics);
	free(b);
	free(a);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_v2_from_memory_stat, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_v1_unavailable, fake_setup, fake_teardown),
	    cmocka_unit_test_setup_teardown(test_host_from_vmstat, fake_setup, fake_teardown),
	};

	return vms_test_run(tests, NULL, NULL, argc, argv);
}
