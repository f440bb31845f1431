/* Unit tests of core/sysctl.c: the allow-list of knob names (path tricks refused), the value
 * normalisation (THP choice files, white space), the kernel's spellings of the lru_gen and
 * zswap values, journalled set and restore and the repair of a dead run's knob in a fake
 * /proc/sys and /sys tree (vms_sysctl_set_root()); and, as root on the real
 * host (its own ctest entry test_sysctl_host, RESOURCE_LOCK vmsuite_host), a value the kernel
 * refuses leaving vm.page-cluster as it was and a real set + restore round trip. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/hoststate.h"
#include "core/sysctl.h"
#include "core/util.h"
#include "tests/vms_fakeroot.h"
#include "tests/vms_test.h"

static char tmp[64], fake[96], state[96];

static void put(const char *rel, const char *text)
{
	vms_fakeroot_put(fake, rel, text);
}

static char *get(const char *rel)
{
	static char buf[512];
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", fake, rel);
	assert_true(vms_read_small(path, buf, sizeof(buf)) >= 0);
	return buf;
}

static int setup(void **st)
{
	(void)st;
	if (vms_fakeroot_make(tmp, sizeof(tmp), "sysctl"))
		return -1;
	snprintf(fake, sizeof(fake), "%s/root", tmp);
	snprintf(state, sizeof(state), "%s/state", tmp);
	mkdir(fake, 0755);
	vms_sysctl_set_root(fake);
	put("/proc/sys/vm/page-cluster", "3\n");
	put("/proc/sys/vm/lowmem_reserve_ratio", "256\t256\t32\t0\n");
	put("/proc/sys/kernel/sched_autogroup_enabled", "1\n");
	put("/proc/sys/kernel/task_delayacct", "0\n");
	put("/proc/sys/kernel/hostname", "box\n");
	put("/proc/sys/vm/dirty_bytes", "0\n");
	put("/proc/sys/vm/dirty_ratio", "20\n");
	put("/proc/sys/vm/overcommit_kbytes", "0\n");
	put("/proc/sys/vm/overcommit_ratio", "50\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put("/sys/kernel/mm/transparent_hugepage/khugepaged/defrag", "1\n");
	put("/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled",
	    "always inherit madvise [never]\n");
	put("/sys/kernel/mm/lru_gen/enabled", "0x0007\n");
	put("/sys/kernel/mm/lru_gen/min_ttl_ms", "0\n");
	put("/sys/module/zswap/parameters/enabled", "N\n");
	put("/sys/module/zswap/parameters/compressor", "lzo\n");
	put("/sys/module/zswap/parameters/max_pool_percent", "20\n");
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	return vms_fakeroot_remove(tmp);
}

static void resolves(const char *name, const char *rel)
{
	char path[PATH_MAX], want[PATH_MAX], err[256] = "";

	snprintf(want, sizeof(want), "%s%s", fake, rel);
	if (vms_sysctl_resolve(name, path, sizeof(path), err, sizeof(err)))
		fail_msg("%s: %s", name, err);
	assert_string_equal(path, want);
	assert_true(vms_sysctl_path_allowed(path));
}

static void refused(const char *name, int code, const char *why)
{
	char path[PATH_MAX] = "", err[256] = "";

	assert_int_equal(vms_sysctl_resolve(name, path, sizeof(path), err, sizeof(err)), code);
	if (!strstr(err, why))
		fail_msg("%s: '%s' does not say '%s'", name, err, why);
}

static void test_names(void **st)
{
	char path[PATH_MAX];

	(void)st;
	resolves("vm.page-cluster", "/proc/sys/vm/page-cluster");
	resolves("kernel.sched_autogroup_enabled", "/proc/sys/kernel/sched_autogroup_enabled");
	resolves("kernel.task_delayacct", "/proc/sys/kernel/task_delayacct");
	resolves("transparent_hugepage.enabled", "/sys/kernel/mm/transparent_hugepage/enabled");
	resolves("transparent_hugepage.khugepaged.defrag",
	         "/sys/kernel/mm/transparent_hugepage/khugepaged/defrag");
	resolves("transparent_hugepage.hugepages-2048kB.enabled",
	         "/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled");

	refused("../../etc/passwd", -EINVAL, "not a knob name");
	refused("vm/page-cluster", -EINVAL, "not a path");
	refused("/proc/sys/vm/page-cluster", -EINVAL, "not a path");
	refused("vm..page-cluster", -EINVAL, "dotted components");
	refused("vm.", -EINVAL, "dotted components");
	refused(".vm", -EINVAL, "dotted components");
	refused("vm.page cluster", -EINVAL, "dotted components");
	refused("vm.a.b.c", -EINVAL, "dotted components");
	refused("", -EINVAL, "empty");
	refused("kernel.hostname", -EINVAL, "not a knob vmsuite changes");
	refused("kernel.sched_", -EINVAL, "not a knob vmsuite changes");
	refused("net.ipv4.ip_forward", -EINVAL, "not a knob vmsuite changes");
	refused("vm.page-cluster.x", -EINVAL, "not a knob vmsuite changes");
	refused("transparent_hugepage.other.defrag", -EINVAL, "not a knob vmsuite changes");
	refused("vm.nonexistent", -ENOENT, "no knob 'vm.nonexistent'");
	resolves("lru_gen.enabled", "/sys/kernel/mm/lru_gen/enabled");
	resolves("lru_gen.min_ttl_ms", "/sys/kernel/mm/lru_gen/min_ttl_ms");
	resolves("zswap.enabled", "/sys/module/zswap/parameters/enabled");
	resolves("zswap.compressor", "/sys/module/zswap/parameters/compressor");
	refused("lru_gen.a.b", -EINVAL, "not a knob vmsuite changes");
	refused("zswap.x.enabled", -EINVAL, "not a knob vmsuite changes");
	refused("zram.enabled", -EINVAL, "not a knob vmsuite changes");
	/* a knob the kernel lacks: named with the kernel and what builds it */
	{
		struct utsname u;
		char want[512];

		assert_int_equal(uname(&u), 0);
		snprintf(want, sizeof(want), "kernel %s has no knob 'zswap.shrinker_enabled'",
		         u.release);
		refused("zswap.shrinker_enabled", -ENOENT, want);
		refused("zswap.shrinker_enabled", -ENOENT, "it needs CONFIG_ZSWAP");
	}

	/* a symlink planted where a knob should be is not a knob */
	snprintf(path, sizeof(path), "%s/proc/sys/vm/swappiness", fake);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	refused("vm.swappiness", -EINVAL, "not a plain file");

	assert_string_equal(vms_sysctl_short_name("vm.page-cluster"), "page-cluster");
	assert_string_equal(vms_sysctl_short_name("transparent_hugepage.khugepaged.defrag"),
	                    "defrag");
	assert_string_equal(vms_sysctl_short_name("thp"), "thp");
}

static void test_path_allowed(void **st)
{
	char path[PATH_MAX];

	(void)st;
	assert_false(vms_sysctl_path_allowed("/etc/passwd"));
	snprintf(path, sizeof(path), "%s/proc/sys/vm/../../../etc/passwd", fake);
	assert_false(vms_sysctl_path_allowed(path));
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/hostname", fake);
	assert_false(vms_sysctl_path_allowed(path));
	snprintf(path, sizeof(path), "%s/proc/sys/vm//page-cluster", fake);
	assert_false(vms_sysctl_path_allowed(path));
	snprintf(path, sizeof(path), "%s/proc/sys/vm/page-cluster", fake);
	assert_true(vms_sysctl_path_allowed(path));
	snprintf(path, sizeof(path), "%s/sys/module/zswap/parameters/enabled", fake);
	assert_true(vms_sysctl_path_allowed(path));
	snprintf(path, sizeof(path), "%s/sys/kernel/mm/lru_gen/enabled", fake);
	assert_true(vms_sysctl_path_allowed(path));
	snprintf(path, sizeof(path), "%s/sys/module/zswap/parameters/../../zram/x", fake);
	assert_false(vms_sysctl_path_allowed(path));
	snprintf(path, sizeof(path), "%s/sys/module/zram/parameters/num_devices", fake);
	assert_false(vms_sysctl_path_allowed(path));
	snprintf(path, sizeof(path), "%s/sys/kernel/mm/lru_gen/a/b", fake);
	assert_false(vms_sysctl_path_allowed(path));
	/* outside the root given for the tests */
	assert_false(vms_sysctl_path_allowed("/proc/sys/vm/page-cluster"));
}

static void test_normalize(void **st)
{
	char out[16], path[PATH_MAX];

	(void)st;
	assert_int_equal(vms_sysctl_normalize("always [madvise] never\n", out, sizeof(out)), 0);
	assert_string_equal(out, "madvise");
	assert_int_equal(vms_sysctl_normalize("  256\t256  32\n", out, sizeof(out)), 0);
	assert_string_equal(out, "256 256 32");
	assert_int_equal(vms_sysctl_normalize("0123456789abcdef", out, sizeof(out)), -E2BIG);
	snprintf(path, sizeof(path), "%s/sys/kernel/mm/transparent_hugepage/enabled", fake);
	assert_int_equal(vms_sysctl_read(path, out, sizeof(out)), 0);
	assert_string_equal(out, "madvise");
	snprintf(path, sizeof(path), "%s/proc/sys/vm/lowmem_reserve_ratio", fake);
	assert_int_equal(vms_sysctl_read(path, out, sizeof(out)), 0);
	assert_string_equal(out, "256 256 32 0");
}

static void spelt(const char *name, const char *given, const char *want)
{
	char out[64];

	assert_int_equal(vms_sysctl_canonical(name, given, out, sizeof(out)), 0);
	if (strcmp(out, want))
		fail_msg("%s=%s: '%s', want '%s'", name, given, out, want);
}

/* Values given as the kernel takes them, spelt as it prints them back. */
static void test_canonical(void **st)
{
	char out[8];

	(void)st;
	spelt("zswap.enabled", "1", "Y");
	spelt("zswap.enabled", " y\n", "Y");
	spelt("zswap.enabled", "on", "Y");
	spelt("zswap.enabled", "Y", "Y");
	spelt("zswap.enabled", "0", "N");
	spelt("zswap.enabled", "n", "N");
	spelt("zswap.enabled", "off", "N");
	spelt("zswap.shrinker_enabled", "true", "Y");
	spelt("zswap.enabled", "maybe", "maybe"); /* the kernel refuses it: its error */
	spelt("zswap.max_pool_percent", "0x14", "20");
	spelt("zswap.max_pool_percent", "+20", "20");
	spelt("zswap.max_pool_percent", "020", "16"); /* base 0: octal, as the kernel reads it */
	spelt("zswap.max_pool_percent", "-1", "-1");
	spelt("zswap.max_pool_percent", "4294967296", "4294967296");
	spelt("zswap.max_pool_percent", "0x", "0x");
	spelt("zswap.compressor", " lz4 ", "lz4");
	spelt("lru_gen.min_ttl_ms", "0x3e8", "1000");
	spelt("lru_gen.enabled", "y", "y");
	spelt("lru_gen.enabled", "Y", "y");
	spelt("lru_gen.enabled", "n", "0x0000");
	spelt("lru_gen.enabled", "N", "0x0000");
	spelt("lru_gen.enabled", "0", "0x0000");
	spelt("lru_gen.enabled", "7", "0x0007");
	spelt("lru_gen.enabled", "0x5", "0x0005");
	spelt("lru_gen.enabled", "0x0007", "0x0007");
	spelt("lru_gen.enabled", "x", "x");
	spelt("vm.page-cluster", "0x3", "0x3"); /* /proc/sys: as given */
	spelt("transparent_hugepage.enabled", "never", "never");
	assert_int_equal(vms_sysctl_canonical("lru_gen.enabled", "7", out, 4), -E2BIG);

	/* lru_gen.enabled y: whatever mask the hardware allows, with the main switch on */
	assert_true(vms_sysctl_matches("lru_gen.enabled", "y", "0x0007"));
	assert_true(vms_sysctl_matches("lru_gen.enabled", "y", "0x0001"));
	assert_false(vms_sysctl_matches("lru_gen.enabled", "y", "0x0000"));
	assert_false(vms_sysctl_matches("lru_gen.enabled", "y", "0x0006"));
	assert_true(vms_sysctl_matches("lru_gen.enabled", "0x0005", "0x0005"));
	assert_false(vms_sysctl_matches("lru_gen.enabled", "0x0007", "0x0005"));
	assert_false(vms_sysctl_matches("vm.page-cluster", "y", "0x0001"));
}

static size_t journal_size(struct vms_hoststate *hs)
{
	struct vms_host_entry *es;
	size_t n;

	assert_int_equal(vms_hoststate_list(hs, &es, &n), 0);
	free(es);
	return n;
}

static void test_set_restore(void **st)
{
	struct vms_hoststate hs;
	struct vms_host_entry e, *es;
	char err[512] = "", path[PATH_MAX];
	size_t n;

	(void)st;
	assert_int_equal(vms_hoststate_init(&hs, state), 0);
	assert_int_equal(vms_sysctl_set(&hs, "vm.page-cluster", "0", &e, err, sizeof(err)), 0);
	assert_string_equal(get("/proc/sys/vm/page-cluster"), "0");
	/* the journal holds the original while the knob is changed */
	assert_int_equal(vms_hoststate_list(&hs, &es, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(es[0].kind, VMS_HOST_SYSCTL);
	assert_string_equal(es[0].original, "3");
	assert_string_equal(es[0].path, e.path);
	free(es);
	assert_int_equal(vms_sysctl_restore(&hs, &e), 0);
	assert_string_equal(get("/proc/sys/vm/page-cluster"), "3");
	assert_int_equal(journal_size(&hs), 0);

	/* a choice file: the selected word is the original, the plain word is written */
	assert_int_equal(
	    vms_sysctl_set(&hs, "transparent_hugepage.enabled", "never", &e, err, sizeof(err)), 0);
	assert_string_equal(get("/sys/kernel/mm/transparent_hugepage/enabled"), "never");
	assert_string_equal(e.original, "madvise");
	assert_int_equal(vms_sysctl_restore(&hs, &e), 0);
	assert_string_equal(get("/sys/kernel/mm/transparent_hugepage/enabled"), "madvise");

	/* a zswap boolean given as 1: Y written and read back, N its original */
	assert_int_equal(vms_sysctl_set(&hs, "zswap.enabled", "1", &e, err, sizeof(err)), 0);
	assert_string_equal(get("/sys/module/zswap/parameters/enabled"), "Y");
	assert_string_equal(e.original, "N");
	assert_int_equal(vms_sysctl_change(&e, "zswap.enabled", "off", err, sizeof(err)), 0);
	assert_string_equal(get("/sys/module/zswap/parameters/enabled"), "N");
	assert_int_equal(vms_sysctl_change(&e, "zswap.enabled", "on", err, sizeof(err)), 0);
	assert_int_equal(vms_sysctl_restore(&hs, &e), 0);
	assert_string_equal(get("/sys/module/zswap/parameters/enabled"), "N");
	/* lru_gen.enabled: the mask the kernel prints is what is written */
	assert_int_equal(vms_sysctl_set(&hs, "lru_gen.enabled", "n", &e, err, sizeof(err)), 0);
	assert_string_equal(get("/sys/kernel/mm/lru_gen/enabled"), "0x0000");
	assert_string_equal(e.original, "0x0007");
	assert_int_equal(vms_sysctl_restore(&hs, &e), 0);
	assert_string_equal(get("/sys/kernel/mm/lru_gen/enabled"), "0x0007");
	assert_int_equal(journal_size(&hs), 0);

	/* refused before anything is written or journalled */
	assert_int_equal(vms_sysctl_set(&hs, "../../etc/passwd", "1", &e, err, sizeof(err)),
	                 -EINVAL);
	assert_int_equal(vms_sysctl_set(&hs, "vm.page-cluster", " ", &e, err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "needs a value"));
	/* a read-only file (root could open it, the kernel would refuse every write) */
	put("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "2097152\n");
	snprintf(path, sizeof(path), "%s/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", fake);
	assert_int_equal(chmod(path, 0444), 0);
	assert_int_equal(vms_sysctl_set(&hs, "transparent_hugepage.hpage_pmd_size", "4096", &e, err,
	                                sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "is read-only"));
	assert_int_equal(journal_size(&hs), 0);
	assert_string_equal(get("/proc/sys/vm/page-cluster"), "3");
}

/* A run killed after its write: the repair of the next run (or cleanup) writes it back and
 * says what it restored. */
static void test_repair_dead(void **st)
{
	struct vms_hoststate mine, dead;
	struct vms_host_entry e = {0}, forged = {0}, *es;
	char err[512] = "", *said;
	size_t n;
	pid_t pid;

	(void)st;
	assert_int_equal(vms_hoststate_init(&mine, state), 0);
	pid = fork();
	if (pid == 0) {
		struct vms_hoststate hs;

		vms_hoststate_init(&hs, state);
		_exit(vms_sysctl_set(&hs, "vm.page-cluster", "1", &e, err, sizeof(err)) ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_string_equal(get("/proc/sys/vm/page-cluster"), "1");
	pid = fork();
	if (pid == 0) {
		struct vms_hoststate hs;

		vms_hoststate_init(&hs, state);
		_exit(vms_sysctl_set(&hs, "zswap.enabled", "Y", &e, err, sizeof(err)) ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_string_equal(get("/sys/module/zswap/parameters/enabled"), "Y");

	/* a record naming a file outside the allow-list is refused, the file untouched */
	assert_int_equal(vms_hoststate_init(&dead, state), 0);
	dead.self.pid = pid; /* reaped above: gone */
	forged.kind = VMS_HOST_SYSCTL;
	snprintf(forged.path, sizeof(forged.path), "%s/proc/sys/kernel/hostname", fake);
	snprintf(forged.original, sizeof(forged.original), "evil");
	assert_int_equal(vms_hoststate_record(&dead, &forged), 0);

	assert_int_equal(vms_hoststate_repair(&mine, NULL, NULL), 2);
	assert_string_equal(get("/proc/sys/vm/page-cluster"), "3");
	assert_string_equal(get("/sys/module/zswap/parameters/enabled"), "N");
	assert_string_equal(get("/proc/sys/kernel/hostname"), "box\n");
	assert_int_equal(vms_hoststate_list(&mine, &es, &n), 0);
	assert_int_equal(n, 1); /* the refused one is kept */
	said = vms_host_entry_undone(&es[0]);
	assert_non_null(strstr(said, "restored the kernel knob '"));
	assert_non_null(strstr(said, "hostname' to 'evil'"));
	free(said);
	free(es);
}

/* Linked knobs: the partner's original is journalled with the knob's before the write, and
 * both come back, from the run itself and from the repair of a dead run. The fake tree does
 * not zero the partner as the kernel does: the test does it. */
static void test_linked(void **st)
{
	struct vms_hoststate hs, mine, dead;
	struct vms_host_entry e, forged = {0}, *es;
	char err[512] = "", *said;
	size_t n;
	pid_t pid;

	(void)st;
	assert_string_equal(vms_sysctl_partner("vm.dirty_bytes"), "vm.dirty_ratio");
	assert_string_equal(vms_sysctl_partner("vm.dirty_ratio"), "vm.dirty_bytes");
	assert_string_equal(vms_sysctl_partner("vm.overcommit_kbytes"), "vm.overcommit_ratio");
	assert_string_equal(vms_sysctl_partner("vm.dirty_background_ratio"),
	                    "vm.dirty_background_bytes");
	assert_null(vms_sysctl_partner("vm.page-cluster"));

	assert_int_equal(vms_hoststate_init(&hs, state), 0);
	assert_int_equal(vms_sysctl_set(&hs, "vm.dirty_bytes", "67108864", &e, err, sizeof(err)),
	                 0);
	put("/proc/sys/vm/dirty_ratio", "0\n"); /* what the kernel does */
	assert_int_equal(vms_hoststate_list(&hs, &es, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(es[0].original, "0");
	assert_non_null(strstr(es[0].partner, "/proc/sys/vm/dirty_ratio"));
	assert_string_equal(es[0].partner_original, "20");
	free(es);
	assert_int_equal(vms_sysctl_restore(&hs, &e), 0);
	assert_string_equal(get("/proc/sys/vm/dirty_bytes"), "0");
	assert_string_equal(get("/proc/sys/vm/dirty_ratio"), "20");
	assert_int_equal(journal_size(&hs), 0);

	/* a dead run's pair: the repair writes both back and says so */
	pid = fork();
	if (pid == 0) {
		struct vms_hoststate child;

		vms_hoststate_init(&child, state);
		_exit(
		    vms_sysctl_set(&child, "vm.overcommit_kbytes", "1000000", &e, err, sizeof(err))
		        ? 1
		        : 0);
	}
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	put("/proc/sys/vm/overcommit_ratio", "0\n");
	assert_int_equal(vms_hoststate_init(&mine, state), 0);
	assert_int_equal(vms_hoststate_list(&mine, &es, &n), 0);
	assert_int_equal(n, 1);
	said = vms_host_entry_undone(&es[0]);
	assert_non_null(strstr(said, "overcommit_kbytes' to '0' and its linked knob '"));
	assert_non_null(strstr(said, "overcommit_ratio' to '50'"));
	free(said);
	free(es);
	assert_int_equal(vms_hoststate_repair(&mine, NULL, NULL), 1);
	assert_string_equal(get("/proc/sys/vm/overcommit_kbytes"), "0");
	assert_string_equal(get("/proc/sys/vm/overcommit_ratio"), "50");
	assert_int_equal(journal_size(&mine), 0);

	/* a record whose partner is not the knob's is refused, neither file touched */
	assert_int_equal(vms_hoststate_init(&dead, state), 0);
	dead.self.pid = pid;
	forged.kind = VMS_HOST_SYSCTL;
	snprintf(forged.path, sizeof(forged.path), "%s/proc/sys/vm/dirty_bytes", fake);
	snprintf(forged.original, sizeof(forged.original), "1");
	snprintf(forged.partner, sizeof(forged.partner), "%s/proc/sys/kernel/hostname", fake);
	snprintf(forged.partner_original, sizeof(forged.partner_original), "evil");
	assert_int_equal(vms_hoststate_record(&dead, &forged), 0);
	assert_int_equal(vms_hoststate_repair(&mine, NULL, NULL), 0);
	assert_string_equal(get("/proc/sys/vm/dirty_bytes"), "0");
	assert_string_equal(get("/proc/sys/kernel/hostname"), "box\n");
	assert_int_equal(journal_size(&mine), 1);
}

/* The real kernel: vm.page-cluster refuses a word, and a value is set and restored. */
static void test_host(void **st)
{
	struct vms_hoststate hs;
	struct vms_host_entry e;
	char before[64], after[64], err[512] = "", other[8];

	(void)st;
	vms_sysctl_set_root(NULL);
	if (geteuid() || access("/proc/sys/vm/page-cluster", W_OK))
		vms_test_skip("needs root and a writable /proc/sys/vm/page-cluster");
	assert_int_equal(vms_hoststate_init(&hs, state), 0);
	assert_int_equal(vms_sysctl_read("/proc/sys/vm/page-cluster", before, sizeof(before)), 0);
	assert_int_equal(vms_sysctl_set(&hs, "vm.page-cluster", "x", &e, err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "the kernel refuses 'x' for vm.page-cluster"));
	assert_int_equal(vms_sysctl_read("/proc/sys/vm/page-cluster", after, sizeof(after)), 0);
	assert_string_equal(after, before);
	assert_int_equal(journal_size(&hs), 0);

	snprintf(other, sizeof(other), "%s", strcmp(before, "0") ? "0" : "1");
	assert_int_equal(vms_sysctl_set(&hs, "vm.page-cluster", other, &e, err, sizeof(err)), 0);
	assert_int_equal(vms_sysctl_read("/proc/sys/vm/page-cluster", after, sizeof(after)), 0);
	assert_string_equal(after, other);
	assert_int_equal(vms_sysctl_restore(&hs, &e), 0);
	assert_int_equal(vms_sysctl_read("/proc/sys/vm/page-cluster", after, sizeof(after)), 0);
	assert_string_equal(after, before);
	assert_int_equal(journal_size(&hs), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_names, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_path_allowed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_normalize, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_canonical, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_set_restore, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repair_dead, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_linked, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_host, setup, teardown),
	};

	return vms_test_run(tests, NULL, NULL, argc, argv);
}
