/* Unit tests of core/sysctl.c: the allow-list of knob names (path tricks refused), the value
 * normalisation (THP choice files, white space), journalled set and restore and the repair of a
 * dead run's knob in a fake /proc/sys tree (vms_sysctl_set_root()); and, as root on the real
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
#include <sys/wait.h>
#include <unistd.h>

#include "core/hoststate.h"
#include "core/sysctl.h"
#include "core/util.h"
#include "tests/vms_test.h"

static char tmp[64], fake[96], state[96];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", fake, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(fake) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
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
	snprintf(tmp, sizeof(tmp), "/tmp/vms-sysctl-XXXXXX");
	if (!mkdtemp(tmp))
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
	return 0;
}

static int teardown(void **st)
{
	char cmd[128];

	(void)st;
	vms_sysctl_set_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd);
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

	/* a record naming a file outside the allow-list is refused, the file untouched */
	assert_int_equal(vms_hoststate_init(&dead, state), 0);
	dead.self.pid = pid; /* reaped above: gone */
	forged.kind = VMS_HOST_SYSCTL;
	snprintf(forged.path, sizeof(forged.path), "%s/proc/sys/kernel/hostname", fake);
	snprintf(forged.original, sizeof(forged.original), "evil");
	assert_int_equal(vms_hoststate_record(&dead, &forged), 0);

	assert_int_equal(vms_hoststate_repair(&mine, NULL, NULL), 1);
	assert_string_equal(get("/proc/sys/vm/page-cluster"), "3");
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
	    cmocka_unit_test_setup_teardown(test_set_restore, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repair_dead, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_linked, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_host, setup, teardown),
	};

	return vms_test_run(tests, NULL, NULL, argc, argv);
}
