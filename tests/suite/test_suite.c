/* Unit tests of suite/suite.c: what the suite does around the runner on a machine without a
 * cgroup, with --sysctl knobs in a fake /proc/sys tree (vms_sysctl_set_root()) and a private
 * state directory. Every value of every knob is written once and put back before the first run,
 * a value the kernel refuses ends the suite with nothing run and every knob as it was, the
 * variants the runner interleaves are applied with only the knobs that change written, the
 * journal holds one record per knob (its original) while the suite runs, the host lock is held,
 * the first checkpoint does not replace an existing result unless --force, and the knobs are
 * put back (newest first) and their records gone at the end. The runner is replaced by a
 * script of what the real one does with the config (link option --wrap=vms_runner_run); the
 * sysctl calls go through spies that log them (--wrap=vms_sysctl_{set,change,restore}), one of
 * which plays the kernel refusing a value. No kernel paths. */
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
#include <unistd.h>

#include "core/hoststate.h"
#include "core/sysctl.h"
#include "core/util.h"
#include "suite/suite.h"
#include "suite/variants.h"
#include "tests/vms_fakeroot.h"
#include "tests/vms_test.h"

static char tmp[64], state[96], output[96];

/* ---- the spies: every sysctl call the suite makes, in order ---- */

static char calls[4096];    /* "set vm.page-cluster 0\n" ... */
static const char *refused; /* a value the "kernel" refuses (-EINVAL), or NULL */

static void log_call(const char *what, const char *name, const char *value)
{
	size_t n = strlen(calls);

	snprintf(calls + n, sizeof(calls) - n, "%s %.120s%s%.60s\n", what, name, value ? " " : "",
	         value ? value : "");
}

int __real_vms_sysctl_set(struct vms_hoststate *hs, const char *name, const char *value,
                          struct vms_host_entry *e, char *err, size_t errlen);
int __wrap_vms_sysctl_set(struct vms_hoststate *hs, const char *name, const char *value,
                          struct vms_host_entry *e, char *err, size_t errlen);
int __wrap_vms_sysctl_set(struct vms_hoststate *hs, const char *name, const char *value,
                          struct vms_host_entry *e, char *err, size_t errlen)
{
	log_call("set", name, value);
	if (refused && !strcmp(value, refused)) {
		memset(e, 0, sizeof(*e));
		snprintf(err, errlen, "the kernel refuses %s=%s (Invalid argument)", name, value);
		return -EINVAL;
	}
	return __real_vms_sysctl_set(hs, name, value, e, err, errlen);
}

int __real_vms_sysctl_change(const struct vms_host_entry *e, const char *name, const char *value,
                             char *err, size_t errlen);
int __wrap_vms_sysctl_change(const struct vms_host_entry *e, const char *name, const char *value,
                             char *err, size_t errlen);
int __wrap_vms_sysctl_change(const struct vms_host_entry *e, const char *name, const char *value,
                             char *err, size_t errlen)
{
	log_call("change", name, value);
	return __real_vms_sysctl_change(e, name, value, err, errlen);
}

int __real_vms_sysctl_restore(struct vms_hoststate *hs, struct vms_host_entry *e);
int __wrap_vms_sysctl_restore(struct vms_hoststate *hs, struct vms_host_entry *e);
int __wrap_vms_sysctl_restore(struct vms_hoststate *hs, struct vms_host_entry *e)
{
	const char *sys = strstr(e->path, "/proc/sys/");
	char name[sizeof(e->path)], *c;

	/* the dotted name back from the file (only /proc/sys knobs here) */
	snprintf(name, sizeof(name), "%s", sys ? sys + strlen("/proc/sys/") : e->path);
	for (c = name; (c = strchr(c, '/'));)
		*c = '.';
	log_call("restore", name, NULL);
	return __real_vms_sysctl_restore(hs, e);
}

/* ---- the runner's stand-in ---- */

/* What the stand-in saw and does. */
static struct {
	int called;
	struct vms_run_config rc; /* a copy of what it was given */
	char before[64];          /* the knobs when it started: "page-cluster swappiness" */
	size_t rounds;            /* interleaved rounds of every variant to apply */
	char applied[1024];       /* the knobs after each apply_variant: "0 10|0 60|..." */
	size_t records;           /* journal records while it ran */
	char originals[128];      /* their original values, sorted by seq */
	long holder;              /* the pid holding the host lock while it ran, or -1 */
	int saves[2];             /* what the suite's two checkpoints returned */
	int ret;                  /* what it returns */
} runner;

static char *knob(const char *rel)
{
	static char buf[2][64];
	static int i;
	char path[256];

	i ^= 1;
	snprintf(path, sizeof(path), "%s%s", tmp, rel);
	if (vms_read_small(path, buf[i], sizeof(buf[i])) < 0)
		return "?";
	buf[i][strcspn(buf[i], "\n")] = '\0';
	return buf[i];
}

static void knobs_now(char *out, size_t len)
{
	snprintf(out, len, "%s %s", knob("/proc/sys/vm/page-cluster"),
	         knob("/proc/sys/vm/swappiness"));
}

static void journal(size_t *n, char *originals, size_t len)
{
	struct vms_hoststate hs = VMS_HOSTSTATE_INIT;
	struct vms_host_entry *es = NULL;
	size_t i;

	originals[0] = '\0';
	assert_int_equal(vms_hoststate_init(&hs, state), 0);
	assert_int_equal(vms_hoststate_list(&hs, &es, n), 0);
	for (i = *n; i-- > 0;) { /* listed newest first: oldest first here */
		size_t l = strlen(originals);

		snprintf(originals + l, len - l, "%s%s", l ? " " : "", es[i].original);
	}
	free(es);
}

int __wrap_vms_runner_run(const struct vms_run_config *rc, json_t **doc_out);
int __wrap_vms_runner_run(const struct vms_run_config *rc, json_t **doc_out)
{
	struct vms_hoststate hs = VMS_HOSTSTATE_INIT;
	struct vms_host_owner o;
	json_t *doc = json_pack("{s:s, s:[]}", "format", "vmsuite.result/2", "workloads");
	size_t r, v;

	runner.called++;
	runner.rc = *rc;
	knobs_now(runner.before, sizeof(runner.before));
	assert_int_equal(vms_hoststate_init(&hs, state), 0);
	runner.holder = vms_hoststate_holder(&hs, &o) ? -1 : o.pid;
	/* as vms_runner_run: run 1 of every variant, then run 2 of every variant, ... */
	for (r = 0; r < runner.rounds && rc->apply_variant; r++) {
		for (v = 0; v < rc->n_variants; v++) {
			size_t l = strlen(runner.applied);

			assert_int_equal(rc->apply_variant(rc->variant_ctx, v), 0);
			snprintf(runner.applied + l, sizeof(runner.applied) - l, "%s",
			         l ? "|" : "");
			l = strlen(runner.applied);
			knobs_now(runner.applied + l, sizeof(runner.applied) - l);
		}
	}
	journal(&runner.records, runner.originals, sizeof(runner.originals));
	/* after the header and at the end */
	runner.saves[0] = rc->checkpoint(rc->checkpoint_ctx, doc);
	runner.saves[1] = rc->checkpoint(rc->checkpoint_ctx, doc);
	*doc_out = doc;
	return runner.ret;
}

/* ---- fixtures ---- */

static void put(const char *rel, const char *text)
{
	vms_fakeroot_put(tmp, rel, text);
}

static int setup(void **st)
{
	(void)st;
	if (vms_fakeroot_make(tmp, sizeof(tmp), "suite"))
		return -1;
	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(output, sizeof(output), "%s/result.json", tmp);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	return vms_fakeroot_remove(tmp);
}

/* Before each test: the knobs at their originals, nothing logged, no result, no journal. */
static int fresh(void **st)
{
	char cmd[256];

	(void)st;
	put("/proc/sys/vm/page-cluster", "3\n");
	put("/proc/sys/vm/swappiness", "60\n");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", state, output);
	assert_int_equal(system(cmd), 0);
	calls[0] = '\0';
	refused = NULL;
	memset(&runner, 0, sizeof(runner));
	return 0;
}

static struct vms_machine host; /* the host profile: no cgroup, no CPUs of its own */

/* A suite of vs's variants writing to output. */
static struct vms_suite_config config(const struct vms_variants *vs, int force)
{
	static char *argv[] = {"vmsuite", "run", NULL};

	return (struct vms_suite_config){.machine = &host,
	                                 .workdir = "/tmp",
	                                 .label = "unit",
	                                 .output = output,
	                                 .force = force,
	                                 .argc = 2,
	                                 .argv = argv,
	                                 .sample_hz = 10,
	                                 .state_dir = state,
	                                 .variants = vs->v,
	                                 .n_variants = vs->n,
	                                 .knobs = vs->knobs,
	                                 .n_knobs = vs->n_knobs};
}

static void variants(struct vms_variants *vs, const char *pc, const char *swappiness)
{
	const char *axes[2] = {pc, swappiness};
	char err[256];

	assert_int_equal(
	    vms_variants_build(vs, axes, swappiness ? 2 : 1, NULL, 1, err, sizeof(err)), 0);
}

static int run(const struct vms_suite_config *cfg, json_t **doc)
{
	struct vms_suite s;
	int ret;

	vms_suite_init(&s, cfg);
	ret = vms_suite_run(&s, doc);
	vms_suite_release(&s);
	return ret;
}

static void journal_empty(void)
{
	char originals[128];
	size_t n;

	journal(&n, originals, sizeof(originals));
	assert_int_equal(n, 0);
}

/* ---- tests ---- */

/* Two knobs, two values each: four variants, the last axis fastest, two rounds. */
static void test_knobs_around_the_runs(void **st)
{
	struct vms_variants vs;
	struct vms_suite_config cfg;
	json_t *doc = NULL;
	char now[64];

	(void)st;
	variants(&vs, "vm.page-cluster=0,3", "vm.swappiness=10,60");
	cfg = config(&vs, 0);
	runner.rounds = 2;
	assert_int_equal(run(&cfg, &doc), 0);
	assert_int_equal(runner.called, 1);

	/* before the first run: every value of every knob written and put back, so a value the
	 * kernel refuses shows before anything ran; the runner starts on the originals */
	assert_string_equal(runner.before, "3 60");
	/* each variant as the runner applies it, in its order, twice */
	assert_string_equal(runner.applied, "0 10|0 60|3 10|3 60|0 10|0 60|3 10|3 60");
	/* while it ran: one record per knob, holding the value before the suite */
	assert_int_equal(runner.records, 2);
	assert_string_equal(runner.originals, "3 60");
	assert_int_equal(runner.holder, (long)getpid());
	assert_int_equal(runner.saves[0], 0);
	assert_int_equal(runner.saves[1], 0);
	/* the calls: the trial (set and restore, per knob, per variant), then only what changes
	 * between variants (the first write of a knob journalled, later ones written over), then
	 * the knobs back, the last first */
	assert_string_equal(calls, "set vm.page-cluster 0\nrestore vm.page-cluster\n"
	                           "set vm.page-cluster 0\nrestore vm.page-cluster\n"
	                           "set vm.page-cluster 3\nrestore vm.page-cluster\n"
	                           "set vm.page-cluster 3\nrestore vm.page-cluster\n"
	                           "set vm.swappiness 10\nrestore vm.swappiness\n"
	                           "set vm.swappiness 60\nrestore vm.swappiness\n"
	                           "set vm.swappiness 10\nrestore vm.swappiness\n"
	                           "set vm.swappiness 60\nrestore vm.swappiness\n"
	                           /* round 1 */
	                           "set vm.page-cluster 0\nset vm.swappiness 10\n"
	                           "change vm.swappiness 60\n"
	                           "change vm.page-cluster 3\nchange vm.swappiness 10\n"
	                           "change vm.swappiness 60\n"
	                           /* round 2 */
	                           "change vm.page-cluster 0\nchange vm.swappiness 10\n"
	                           "change vm.swappiness 60\n"
	                           "change vm.page-cluster 3\nchange vm.swappiness 10\n"
	                           "change vm.swappiness 60\n"
	                           /* the end */
	                           "restore vm.swappiness\nrestore vm.page-cluster\n");
	/* afterwards: the host as before, no record, no lock, the runner's document returned
	 * and saved */
	knobs_now(now, sizeof(now));
	assert_string_equal(now, "3 60");
	journal_empty();
	{
		struct vms_hoststate hs = VMS_HOSTSTATE_INIT;
		struct vms_host_owner o;

		assert_int_equal(vms_hoststate_init(&hs, state), 0);
		assert_int_equal(vms_hoststate_holder(&hs, &o), -ENOENT);
	}
	assert_non_null(doc);
	{
		json_error_t jerr;
		json_t *saved = json_load_file(output, 0, &jerr);

		assert_non_null(saved);
		assert_true(json_equal(saved, doc));
		json_decref(saved);
	}
	json_decref(doc);
	vms_variants_release(&vs);
}

/* A value the kernel refuses in the trial: 129, the runner never called, the knob that was
 * already tried as it was, no record left, no result written. */
static void test_refused_value(void **st)
{
	struct vms_variants vs;
	struct vms_suite_config cfg;
	json_t *doc = NULL;
	char now[64];
	struct stat sb;

	(void)st;
	variants(&vs, "vm.page-cluster=0,3", "vm.swappiness=10,7");
	refused = "7";
	cfg = config(&vs, 0);
	assert_int_equal(run(&cfg, &doc), VMS_EXIT_USAGE);
	assert_int_equal(runner.called, 0);
	assert_null(doc);
	knobs_now(now, sizeof(now));
	assert_string_equal(now, "3 60");
	journal_empty();
	assert_int_equal(stat(output, &sb), -1);
	/* it stopped at the refused value: nothing written after it */
	assert_non_null(strstr(calls, "set vm.swappiness 7\n"));
	assert_string_equal(
	    strstr(calls, "set vm.swappiness 7\n") + strlen("set vm.swappiness 7\n"), "");
	vms_variants_release(&vs);
}

/* The first checkpoint creates the result file: an existing one is not replaced without
 * --force (-EEXIST, the file as it was), and is with it. */
static void test_first_save_creates(void **st)
{
	struct vms_variants vs;
	struct vms_suite_config cfg;
	json_t *doc = NULL;
	char text[64];

	(void)st;
	variants(&vs, "vm.page-cluster=3", NULL);
	put("/result.json", "someone else's\n");
	cfg = config(&vs, 0);
	run(&cfg, &doc);
	assert_int_equal(runner.saves[0], -EEXIST);
	assert_int_equal(vms_read_small(output, text, sizeof(text)), strlen("someone else's\n"));
	assert_string_equal(text, "someone else's\n");
	json_decref(doc);

	memset(&runner, 0, sizeof(runner));
	cfg = config(&vs, 1);
	assert_int_equal(run(&cfg, &doc), 0);
	assert_int_equal(runner.saves[0], 0);
	assert_int_equal(runner.saves[1], 0);
	assert_true(vms_read_small(output, text, sizeof(text)) > 0);
	assert_non_null(strstr(text, "vmsuite.result/2"));
	json_decref(doc);
	vms_variants_release(&vs);
}

/* Without knobs the runner gets no apply_variant, the suite's variants, label and command
 * line, and protocol.machine with swap_file null (no swap file on this machine); the lock is
 * still taken where this user can keep a state directory. */
static void test_what_the_runner_gets(void **st)
{
	struct vms_variants vs;
	struct vms_suite_config cfg;
	json_t *doc = NULL;
	char err[256];

	(void)st;
	assert_int_equal(vms_variants_build(&vs, NULL, 0, NULL, 1, err, sizeof(err)), 0);
	cfg = config(&vs, 0);
	runner.ret = VMS_EXIT_FAILED;
	assert_int_equal(run(&cfg, &doc), VMS_EXIT_FAILED);
	assert_int_equal(runner.called, 1);
	assert_null(runner.rc.apply_variant);
	assert_ptr_equal(runner.rc.variants, vs.v);
	assert_int_equal(runner.rc.n_variants, 1);
	assert_string_equal(runner.rc.label, "unit");
	assert_int_equal(runner.rc.argc, 2);
	assert_null(runner.rc.cgroup);
	assert_null(runner.rc.audio);
	assert_int_equal(runner.holder, (long)getpid());
	assert_string_equal(calls, "");
	json_decref(doc);
	vms_variants_release(&vs);
}

static void test_machine_record(void **st)
{
	struct vms_variants vs;
	struct vms_suite_config cfg;
	struct vms_suite s;
	json_t *doc = NULL, *sf;
	char err[256];

	(void)st;
	assert_int_equal(vms_variants_build(&vs, NULL, 0, NULL, 1, err, sizeof(err)), 0);
	cfg = config(&vs, 0);
	vms_suite_init(&s, &cfg);
	assert_int_equal(vms_suite_run(&s, &doc), 0);
	/* the runner got the suite's record of the machine, which it keeps until release */
	assert_ptr_equal(runner.rc.machine, s.machine_json);
	sf = json_object_get(s.machine_json, "swap_file");
	assert_non_null(sf);
	assert_true(json_is_null(sf));
	assert_string_equal(json_string_value(json_object_get(s.machine_json, "profile")), "host");
	vms_suite_release(&s);
	assert_null(s.machine_json);
	json_decref(doc);
	vms_variants_release(&vs);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_knobs_around_the_runs, fresh),
	    cmocka_unit_test_setup(test_refused_value, fresh),
	    cmocka_unit_test_setup(test_first_save_creates, fresh),
	    cmocka_unit_test_setup(test_what_the_runner_gets, fresh),
	    cmocka_unit_test_setup(test_machine_record, fresh),
	};

	return vms_test_run(tests, setup, teardown, argc, argv);
}
