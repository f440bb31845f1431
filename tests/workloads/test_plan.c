/* Unit tests of workloads/plan.c and vms_workload_available(): machine facts in, plan out (the
 * hron2001 and host default plans, user options and -n winning over the profile and the
 * workloads' plan hooks, mmap001's free-disk cap and its note), the protocol.machine.plan
 * record, and whether a workload can run here (needs flags, available hook). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/util.h"
#include "workloads/plan.h"
#include "workloads/workload.h"

#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

struct plan {
	struct vms_run_item items[8];
	size_t n;
	char msg[1024];
};

static struct vms_machine_facts facts(uint64_t ram, uint64_t disk_free, int cgroup)
{
	struct vms_machine_facts f = {
	    .ram = ram, .disk_free = disk_free, .disk_backed = 1, .cgroup = cgroup};

	snprintf(f.workdir, sizeof(f.workdir), "/work");
	snprintf(f.fs_type, sizeof(f.fs_type), "ext4");
	return f;
}

/* Parses the -w specs (NULL-terminated) and makes the plan of profile for f. */
static int make(struct plan *p, const char *profile, const struct vms_machine_facts *f, long runs,
                const char *const *specs)
{
	char why[256];

	memset(p, 0, sizeof(*p));
	for (; specs && *specs; specs++) {
		assert_int_equal(
		    vms_workload_spec_parse(*specs, &p->items[p->n].spec, why, sizeof(why)), 0);
		p->n++;
	}
	return vms_plan_make(p->items, &p->n, VMS_ARRAY_SIZE(p->items),
	                     vms_profile_plan_find(profile), f, runs, p->msg, sizeof(p->msg));
}

static void release(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		vms_workload_spec_release(&p->items[i].spec);
}

static const struct vms_opt_value *opt(const struct vms_run_item *it, const char *name)
{
	int i = vms_workload_option_index(it->spec.w, name);

	assert_true(i >= 0);
	return &it->spec.opts[i];
}

static void test_hron2001_default(void **state)
{
	struct vms_machine_facts f = facts(512 * MIB, 100 * GIB, 1);
	struct plan p;

	(void)state;
	assert_int_equal(make(&p, "hron2001", &f, 0, NULL), 0);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.items[0].spec.w->name, "mmap001");
	assert_int_equal(opt(&p.items[0], "bytes")->u, 2048000000);
	assert_int_equal(p.items[0].runs, 5);
	assert_string_equal(p.items[1].spec.w->name, "mtest01");
	assert_int_equal(opt(&p.items[1], "percent")->u, 80);
	assert_int_equal(opt(&p.items[1], "write")->u, 1);
	assert_false(opt(&p.items[1], "bytes")->set);
	assert_int_equal(p.items[1].runs, 10);
	assert_string_equal(p.msg, "");
	release(&p);

	/* the 2001 sizes whatever the limit; -n wins over the plan's runs */
	f.ram = 64 * MIB;
	assert_int_equal(make(&p, "hron2001", &f, 2, NULL), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 2048000000);
	assert_int_equal(p.items[0].runs, 2);
	assert_int_equal(p.items[1].runs, 2);
	release(&p);
}

/* memload's working set: 110 % of the emulated RAM, capped to fit RAM + swap; without swap it
 * stays under RAM and says it cannot thrash; without a cgroup it does not fill the host. */
static void test_memload_plan(void **state)
{
	static const char *const specs[] = {"memload", NULL};
	struct vms_machine_facts f = facts(512 * MIB, 100 * GIB, 1);
	struct plan p;

	(void)state;
	f.swap = GIB;
	assert_int_equal(make(&p, "hron2001", &f, 0, specs), 0);
	assert_int_equal(p.n, 1);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 512 * MIB / 100 * 110 / 4096 * 4096);
	assert_int_equal(opt(&p.items[0], "seconds")->u, 30);
	assert_int_equal(p.items[0].runs, 3);
	assert_null(strstr(p.msg, "no swap"));
	release(&p);

	f.swap = 0; /* RAM less a margin of RAM/8 */
	assert_int_equal(make(&p, "hron2001", &f, 0, specs), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 448 * MIB);
	assert_non_null(strstr(p.msg, "no swap"));
	assert_non_null(strstr(p.msg, "instead of 110 % of RAM"));
	release(&p);

	f = facts(24 * GIB, 100 * GIB, 0); /* the host, no cgroup: 2 GiB at most */
	assert_int_equal(make(&p, "host", &f, 0, specs), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 2 * GIB);
	assert_non_null(strstr(p.msg, "no emulated machine"));
	release(&p);
}

/* A working set the user sizes past RAM + swap less RAM/8 (512 MiB + 1 GiB - 64 MiB = 1472
 * MiB) is kept, with a warning before anything runs; one that fits gets none. */
static void test_memload_oversized(void **state)
{
	static const char *const past[] = {"memload:bytes=1473M", NULL};
	static const char *const fits[] = {"memload:bytes=1472M", NULL};
	struct vms_machine_facts f = facts(512 * MIB, 100 * GIB, 1);
	struct plan p;

	(void)state;
	f.swap = GIB;
	assert_int_equal(make(&p, "hron2001", &f, 0, past), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 1473 * MIB);
	assert_non_null(strstr(p.msg, "working set 1.4 GiB is past what the machine holds"));
	assert_non_null(strstr(p.msg, "OOM"));
	release(&p);
	assert_int_equal(make(&p, "hron2001", &f, 0, fits), 0);
	assert_string_equal(p.msg, "");
	release(&p);
	f.swap = 0; /* 512 MiB less 64 MiB */
	assert_int_equal(make(&p, "hron2001", &f, 0, fits), 0);
	assert_non_null(strstr(p.msg, "(512 MiB RAM and no swap, less 64 MiB for the kernel"));
	release(&p);
}

static void test_host_default(void **state)
{
	struct vms_machine_facts f = facts(8 * GIB, 1024 * GIB, 0);
	struct plan p;

	(void)state;
	/* 4 x RAM when the disk has room */
	assert_int_equal(make(&p, "host", &f, 0, NULL), 0);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.items[0].spec.w->name, "mmap001");
	assert_true(opt(&p.items[0], "bytes")->set);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 32 * GIB);
	assert_int_equal(p.items[0].runs, 5);
	assert_int_equal(opt(&p.items[1], "percent")->u, 80);
	assert_int_equal(p.items[1].runs, 10);
	assert_string_equal(p.msg, "");
	release(&p);

	/* 20 GiB free: 10 % (2 GiB) stays free, whole pages */
	f.disk_free = 20 * GIB + 123;
	assert_int_equal(make(&p, "host", &f, 0, NULL), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u,
	                 (20 * GIB + 123 - (20 * GIB + 123) / 10) & ~UINT64_C(4095));
	assert_non_null(strstr(p.msg, "mmap001 capped to"));
	assert_non_null(strstr(p.msg, "'/work'"));
	release(&p);

	/* 5 GiB free: the margin is at least 1 GiB */
	f.disk_free = 5 * GIB;
	assert_int_equal(make(&p, "host", &f, 0, NULL), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 4 * GIB);
	release(&p);

	/* nothing left after the margin: the plan fails and says why */
	f.disk_free = GIB;
	assert_int_equal(make(&p, "host", &f, 0, NULL), -ENOSPC);
	assert_non_null(strstr(p.msg, "mmap001: the work directory '/work' has 1"));
	release(&p);

	/* free disk unknown: 4 x RAM */
	f.disk_free = VMS_MACHINE_UNKNOWN;
	assert_int_equal(make(&p, "host", &f, 0, NULL), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 32 * GIB);
	release(&p);
}

static void test_user_wins(void **state)
{
	static const char *const sized[] = {"mmap001:bytes=16M", "mtest01:percent=50:write=0",
	                                    "mmap002:bytes=32M", NULL};
	static const char *const pages[] = {"mmap001:pages=10", NULL};
	static const char *const bare[] = {"mmap002", "mtest01", "mmap001", NULL};
	struct vms_machine_facts host = facts(8 * GIB, 1024 * GIB, 0);
	struct vms_machine_facts emu = facts(256 * MIB, 10 * GIB, 1);
	struct plan p;

	(void)state;
	/* what the user gave stays, on both machines; a small disk does not matter then */
	host.disk_free = GIB;
	assert_int_equal(make(&p, "host", &host, 0, sized), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 16 * MIB);
	assert_int_equal(opt(&p.items[1], "percent")->u, 50);
	assert_int_equal(opt(&p.items[1], "write")->u, 0);
	assert_int_equal(opt(&p.items[2], "bytes")->u, 32 * MIB);
	assert_string_equal(p.msg, "");
	/* runs: the profile's for its workloads, the workload's default for the others */
	assert_int_equal(p.items[0].runs, 5);
	assert_int_equal(p.items[1].runs, 10);
	assert_int_equal(p.items[2].runs, 5);
	release(&p);
	assert_int_equal(make(&p, "hron2001", &emu, 3, sized), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 16 * MIB);
	assert_int_equal(opt(&p.items[1], "percent")->u, 50);
	assert_int_equal(opt(&p.items[2], "bytes")->u, 32 * MIB);
	assert_int_equal(p.items[0].runs, 3);
	assert_int_equal(p.items[2].runs, 3);
	release(&p);

	/* pages= sizes mmap001 too: the hook leaves it alone */
	assert_int_equal(make(&p, "host", &host, 0, pages), 0);
	assert_false(opt(&p.items[0], "bytes")->set);
	assert_int_equal(opt(&p.items[0], "pages")->u, 10);
	release(&p);

	/* unsized: the profile's values, then the hooks */
	host.disk_free = 1024 * GIB;
	assert_int_equal(make(&p, "hron2001", &emu, 0, bare), 0);
	assert_int_equal(opt(&p.items[0], "bytes")->u, 256 * MIB); /* mmap002: R = its RAM */
	assert_int_equal(opt(&p.items[1], "percent")->u, 80);
	assert_true(opt(&p.items[1], "write")->set);
	assert_int_equal(opt(&p.items[2], "bytes")->u, 2048000000);
	release(&p);
	assert_int_equal(make(&p, "host", &host, 0, bare), 0);
	assert_false(opt(&p.items[0], "bytes")->set); /* mmap002 keeps 512M on the host */
	assert_int_equal(opt(&p.items[0], "bytes")->u, 512 * MIB);
	assert_int_equal(opt(&p.items[2], "bytes")->u, 32 * GIB);
	release(&p);

	/* a profile without a plan needs -w */
	assert_int_equal(make(&p, "nosuch", &host, 0, NULL), -ENOENT);
	assert_non_null(strstr(p.msg, "-w"));
	assert_int_equal(make(&p, "nosuch", &host, 0, pages), 0);
	assert_int_equal(p.items[0].runs, 5);
	release(&p);
}

static void test_profile_json(void **state)
{
	struct vms_machine_facts emu = facts(512 * MIB, 100 * GIB, 1);
	struct vms_machine_facts host = facts(GIB, 1024 * GIB, 0);
	json_t *o;
	char *s;

	(void)state;
	/* the shape protocol.machine.plan has always had */
	o = vms_plan_profile_json(vms_profile_plan_find("hron2001"), &emu);
	s = json_dumps(o, JSON_COMPACT);
	assert_string_equal(s, "{\"mmap001_bytes\":2048000000,\"mmap001_runs\":5,"
	                       "\"mtest01_percent\":80,\"mtest01_write\":true,"
	                       "\"mtest01_runs\":10}");
	free(s);
	json_decref(o);
	o = vms_plan_profile_json(vms_profile_plan_find("host"), &host);
	assert_int_equal(json_integer_value(json_object_get(o, "mmap001_bytes")), 4 * GIB);
	assert_int_equal(json_object_size(o), 5);
	json_decref(o);
	o = vms_plan_profile_json(NULL, &host);
	assert_int_equal(json_object_size(o), 0);
	json_decref(o);
}

static void test_apply(void **state)
{
	struct vms_machine *m = vms_xcalloc(1, sizeof(*m));
	struct vms_run_item items[4];
	size_t n = 0;
	json_t *j;

	(void)state;
	m->profile = vms_machine_profile_find("host");
	m->facts = facts(8 * GIB, 20 * GIB, 0);
	snprintf(m->note, sizeof(m->note), "running on the host machine");
	assert_int_equal(vms_plan_apply(items, &n, VMS_ARRAY_SIZE(items), m, 0), 0);
	assert_int_equal(n, 2);
	assert_non_null(strstr(m->note, "running on the host machine; mmap001 capped to"));
	j = json_loads(m->plan_json, 0, NULL);
	/* the record is the profile's plan as sized here: the same mmap001 size */
	assert_int_equal(json_integer_value(json_object_get(j, "mmap001_bytes")),
	                 opt(&items[0], "bytes")->u);
	assert_int_equal(json_integer_value(json_object_get(j, "mtest01_runs")), 10);
	json_decref(j);
	vms_workload_spec_release(&items[0].spec);
	vms_workload_spec_release(&items[1].spec);
	free(m);
}

/* The "mmap001 capped by the free disk" note only when the plan hook sized an mmap001 that is
 * in the plan: not for a plan without mmap001, nor for one whose size was given. */
static void test_disk_note(void **state)
{
	static const char *const no_mmap001[] = {"mtest01", "mmap002:bytes=1M", NULL};
	static const char *const sized[] = {"mmap001:bytes=1G", NULL};
	static const char *const pages[] = {"mmap001:pages=1000", NULL};
	static const char *const bare[] = {"mtest01", "mmap001", NULL};
	struct vms_machine_facts f = facts(8 * GIB, 20 * GIB, 0); /* 4 x RAM does not fit */
	struct vms_machine *m = vms_xcalloc(1, sizeof(*m));
	struct plan p;
	size_t i;

	(void)state;
	assert_int_equal(make(&p, "host", &f, 0, no_mmap001), 0);
	assert_string_equal(p.msg, "");
	release(&p);
	assert_int_equal(make(&p, "host", &f, 0, sized), 0);
	assert_string_equal(p.msg, "");
	release(&p);
	assert_int_equal(make(&p, "host", &f, 0, pages), 0);
	assert_string_equal(p.msg, "");
	release(&p);
	assert_int_equal(make(&p, "host", &f, 0, bare), 0);
	assert_non_null(strstr(p.msg, "mmap001 capped to"));
	release(&p);

	/* the machine's note, as `run -w mtest01` on the host gets it */
	m->profile = vms_machine_profile_find("host");
	m->facts = f;
	memset(&p, 0, sizeof(p));
	assert_int_equal(vms_workload_spec_parse("mtest01", &p.items[0].spec, p.msg, sizeof(p.msg)),
	                 0);
	p.n = 1;
	assert_int_equal(vms_plan_apply(p.items, &p.n, VMS_ARRAY_SIZE(p.items), m, 0), 0);
	assert_int_equal(p.n, 1);
	assert_null(strstr(m->note, "capped"));
	for (i = 0; i < p.n; i++)
		vms_workload_spec_release(&p.items[i].spec);
	free(m);
}

/* Every profile has a default plan whose steps parse. */
static void test_every_profile_has_a_plan(void **state)
{
	const struct vms_machine_profile *p;
	struct vms_machine_facts f = facts(GIB, 1024 * GIB, 0);
	struct plan pl;

	(void)state;
	for (p = vms_machine_profiles; p->name; p++) {
		f.cgroup = p->cgroup;
		if (make(&pl, p->name, &f, 0, NULL))
			fail_msg("profile '%s': %s", p->name, pl.msg);
		assert_true(pl.n > 0);
		release(&pl);
	}
}

static int says_no(const struct vms_machine_facts *f, char *why, size_t len)
{
	if (f->ram >= GIB)
		return 0;
	snprintf(why, len, "needs 1 GiB of RAM");
	return -ENOMEM;
}

static void test_available(void **state)
{
	static const struct vms_option_def no_options[1];
	struct vms_workload fake = {.name = "fake", .options = no_options, .default_runs = 1};
	struct vms_machine_facts f = facts(512 * MIB, 100 * GIB, 1);
	char why[256];

	(void)state;
	/* the registered ones on a disk-backed work directory */
	assert_int_equal(
	    vms_workload_available(vms_workload_find("mmap001"), &f, 0, why, sizeof(why)), 0);
	assert_int_equal(
	    vms_workload_available(vms_workload_find("mtest01"), &f, 0, why, sizeof(why)), 0);
	/* a tmpfs work directory: the file-backed ones say no, mtest01 does not care */
	f.disk_backed = 0;
	snprintf(f.fs_type, sizeof(f.fs_type), "tmpfs");
	assert_int_equal(
	    vms_workload_available(vms_workload_find("mmap001"), &f, 0, why, sizeof(why)), -EXDEV);
	assert_non_null(strstr(why, "needs a disk-backed work directory ('/work' is on tmpfs"));
	assert_int_equal(
	    vms_workload_available(vms_workload_find("mmap002"), &f, 0, why, sizeof(why)), -EXDEV);
	assert_int_equal(
	    vms_workload_available(vms_workload_find("mtest01"), &f, 0, why, sizeof(why)), 0);
	assert_int_equal(vms_workload_available(vms_workload_find("mmap001"), &f, VMS_NEED_DISK,
	                                        why, sizeof(why)),
	                 0);

	/* needs flags */
	fake.needs = VMS_NEED_ROOT | VMS_NEED_SWAP;
	f.root = 0;
	f.swap = 0;
	assert_int_equal(vms_workload_available(&fake, &f, 0, why, sizeof(why)), -EPERM);
	assert_string_equal(why, "needs root");
	f.root = 1;
	assert_int_equal(vms_workload_available(&fake, &f, 0, why, sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "needs swap"));
	f.swap = GIB;
	assert_int_equal(vms_workload_available(&fake, &f, 0, why, sizeof(why)), 0);

	/* the hook after the flags */
	fake.available = says_no;
	assert_int_equal(vms_workload_available(&fake, &f, 0, why, sizeof(why)), -ENOMEM);
	assert_string_equal(why, "needs 1 GiB of RAM");
	f.ram = 2 * GIB;
	assert_int_equal(vms_workload_available(&fake, &f, 0, why, sizeof(why)), 0);
}

/* A profile step gives its runs and the options the user left unset. */
static void test_step(void **state)
{
	const struct vms_plan_step step = {"mtest01:percent=50:chunk=64K", 3};
	struct vms_machine_facts f = facts(GIB, 100 * GIB, 0);
	struct vms_run_item it;
	char msg[256];

	(void)state;
	assert_int_equal(vms_workload_spec_parse("mtest01:chunk=2M", &it.spec, msg, sizeof(msg)),
	                 0);
	assert_int_equal(vms_plan_item(&it, &step, &f, 0, msg, sizeof(msg)), 0);
	assert_int_equal(it.runs, 3);
	assert_int_equal(opt(&it, "percent")->u, 50);
	assert_true(opt(&it, "percent")->set);
	assert_int_equal(opt(&it, "chunk")->u, 2 * MIB);
	assert_int_equal(vms_plan_item(&it, &step, &f, 4, msg, sizeof(msg)), 0);
	assert_int_equal(it.runs, 4);
	vms_workload_spec_release(&it.spec);
}

/* A run refuses a workload that cannot run here, saying which and why. */
static void test_plan_refuses(void **state)
{
	static const struct vms_option_def no_options[1];
	struct vms_workload fake = {.name = "fake",
	                            .options = no_options,
	                            .default_runs = 7,
	                            .needs = VMS_NEED_ROOT | VMS_NEED_DISK};
	struct vms_machine_facts f = facts(GIB, 100 * GIB, 0);
	struct vms_run_item it = {.spec = {.w = &fake, .opts = NULL}};
	char msg[256];

	(void)state;
	assert_int_equal(vms_plan_item(&it, NULL, &f, 0, msg, sizeof(msg)), -EPERM);
	assert_string_equal(msg, "fake: cannot run here: needs root");
	/* the disk is left to prepare(), which checks the directory the workload really uses */
	f.root = 1;
	f.disk_backed = 0;
	assert_int_equal(vms_plan_item(&it, NULL, &f, 0, msg, sizeof(msg)), 0);
	assert_int_equal(it.runs, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hron2001_default),
	    cmocka_unit_test(test_host_default),
	    cmocka_unit_test(test_memload_plan),
	    cmocka_unit_test(test_memload_oversized),
	    cmocka_unit_test(test_user_wins),
	    cmocka_unit_test(test_profile_json),
	    cmocka_unit_test(test_apply),
	    cmocka_unit_test(test_disk_note),
	    cmocka_unit_test(test_every_profile_has_a_plan),
	    cmocka_unit_test(test_step),
	    cmocka_unit_test(test_available),
	    cmocka_unit_test(test_plan_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
