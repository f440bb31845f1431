/* Unit tests of the runner (workloads/runner.c) with real workloads of a few MiB on the host (no
 * root, no cgroup): the document's structure, the checkpoints, a child that cannot be pinned,
 * a stop before the first run, and an audio source seen only through struct vms_audio_source. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/metric.h"
#include "core/result.h"
#include "core/util.h"
#include "workloads/runner.h"

static char workdir[64];

static int setup(void **state)
{
	(void)state;
	/* a disk directory (mmap001 refuses tmpfs): below the build tree */
	snprintf(workdir, sizeof(workdir), "vms-runner-XXXXXX");
	if (!mkdtemp(workdir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(workdir); /* fails if a workload file was left behind */
}

struct plan {
	struct vms_run_item items[2];
	size_t n;
	char abs[4096];
};

static void plan_add(struct plan *p, const char *spec, long runs)
{
	char why[256];

	assert_int_equal(vms_workload_spec_parse(spec, &p->items[p->n].spec, why, sizeof(why)), 0);
	p->items[p->n].runs = runs;
	assert_int_equal(vms_run_item_prepare(&p->items[p->n], p->abs, why, sizeof(why)), 0);
	p->n++;
}

static void plan_release(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		vms_workload_spec_release(&p->items[i].spec);
}

static void config(struct vms_run_config *cfg, struct plan *p)
{
	static char *argv[] = {"vmsuite", "run", NULL};

	assert_non_null(realpath(workdir, p->abs));
	memset(cfg, 0, sizeof(*cfg));
	cfg->items = p->items;
	cfg->workdir = p->abs;
	cfg->label = "unit";
	cfg->argc = 2;
	cfg->argv = argv;
	cfg->sample_hz = 10;
}

struct saves {
	int n;
	char path[4200];
};

static int save(void *ctx, const json_t *doc)
{
	struct saves *s = ctx;

	s->n++;
	return vms_json_write_file(doc, s->path, 0);
}

static json_t *runs_of(json_t *doc, size_t w)
{
	return json_object_get(json_array_get(json_object_get(doc, "workloads"), w), "runs");
}

static const char *status_of(json_t *doc, size_t w, size_t r)
{
	return json_string_value(json_object_get(json_array_get(runs_of(doc, w), r), "status"));
}

static void test_plan(void **state)
{
	struct vms_run_config cfg;
	struct saves saves = {0};
	struct plan p = {0};
	json_t *doc, *file, *m;
	size_t w, r;

	(void)state;
	config(&cfg, &p);
	plan_add(&p, "mmap001:bytes=2M", 2);
	plan_add(&p, "mtest01:bytes=1M", 1);
	cfg.n_items = p.n;
	cfg.checkpoint = save;
	cfg.checkpoint_ctx = &saves;
	snprintf(saves.path, sizeof(saves.path), "%s/../runner-test.json", p.abs);

	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_OK);
	assert_string_equal(json_string_value(json_object_get(doc, "format")), "vmsuite.result/2");
	assert_true(json_is_true(json_object_get(doc, "complete")));
	assert_true(json_is_false(json_object_get(doc, "interrupted")));
	assert_int_equal(json_array_size(json_object_get(doc, "workloads")), 2);
	assert_int_equal(json_array_size(runs_of(doc, 0)), 2);
	assert_int_equal(json_array_size(runs_of(doc, 1)), 1);
	for (w = 0; w < 2; w++)
		for (r = 0; r < json_array_size(runs_of(doc, w)); r++) {
			json_t *run = json_array_get(runs_of(doc, w), r);

			assert_string_equal(status_of(doc, w, r), "ok");
			assert_non_null(json_object_get(run, "series"));
			assert_non_null(json_object_get(run, "rusage"));
			assert_null(json_object_get(run, "cgroup")); /* host: no cgroup figures */
		}
	m = json_object_get(json_array_get(json_object_get(doc, "workloads"), 0), "metrics");
	assert_int_equal(
	    json_array_size(json_object_get(json_object_get(m, "elapsed_s"), "samples")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs_of(doc, 0), 0),
	                                                    "bytes_allocated")),
	                 2 << 20);
	assert_true(json_is_false(
	    json_object_get(json_object_get(doc, "protocol"), "with_audio"))); /* no source */
	/* checkpoints: the header, after each of the 3 runs, the end (the whole document) */
	assert_int_equal(saves.n, 5);
	file = json_load_file(saves.path, 0, NULL);
	assert_non_null(file);
	assert_true(json_is_true(json_object_get(file, "complete")));
	assert_int_equal(json_array_size(runs_of(file, 0)), 2);
	assert_int_equal(json_array_size(runs_of(file, 1)), 1);
	json_decref(file);
	unlink(saves.path);
	json_decref(doc);
	plan_release(&p);
}

/* memload: a fixed time of random page stores beside a streaming writer; its own rate is a
 * primary metric, its elapsed time (fixed) is not, its swap-in rate and PSI share are
 * recorded; the writer's file is gone afterwards. */
static void test_memload(void **state)
{
	struct vms_run_config cfg;
	struct plan p = {0};
	json_t *doc, *m, *rate;
	double v;

	(void)state;
	config(&cfg, &p);
	plan_add(&p, "memload:bytes=4M:seconds=1:write=2M:fsync=512K", 1);
	cfg.n_items = p.n;
	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_OK);
	assert_string_equal(status_of(doc, 0, 0), "ok");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs_of(doc, 0), 0),
	                                                    "bytes_allocated")),
	                 4 << 20);
	m = json_object_get(json_array_get(json_object_get(doc, "workloads"), 0), "metrics");
	rate = json_object_get(m, "pages_touched_per_s");
	assert_non_null(rate);
	assert_true(json_is_true(json_object_get(rate, "primary")));
	v = json_number_value(json_array_get(json_object_get(rate, "samples"), 0));
	assert_true(v > 0);
	assert_true(json_is_false(json_object_get(json_object_get(m, "elapsed_s"), "primary")));
	v = json_number_value(
	    json_array_get(json_object_get(json_object_get(m, "elapsed_s"), "samples"), 0));
	assert_true(v >= 1.0);
	/* the writer wrote: the run's blocks out (a loaded machine may not have flushed all) */
	assert_non_null(json_object_get(m, "oublock"));
	/* version 3 (hot set, cold tail advised random), and the rates that show a thrashing load
	 */
	assert_int_equal(json_integer_value(json_object_get(
	                     json_array_get(json_object_get(doc, "workloads"), 0), "version")),
	                 3);
	assert_true(json_is_true(json_object_get(
	    json_object_get(json_array_get(json_object_get(doc, "workloads"), 0), "options"),
	    "random")));
	assert_non_null(json_object_get(m, "pswpin_per_s"));
	if (json_object_get(m, "psi_memory_some_ms"))
		assert_non_null(json_object_get(m, "psi_memory_some_pct"));
	json_decref(doc);
	plan_release(&p);
}

static void test_pin_failure(void **state)
{
	struct vms_run_config cfg;
	struct plan p = {0};
	const char *reason;
	json_t *doc;

	(void)state;
	config(&cfg, &p);
	plan_add(&p, "mtest01:bytes=1M", 1);
	cfg.n_items = p.n;
	cfg.cpu_list = "1000"; /* a CPU this machine does not have */
	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_FAILED);
	assert_string_equal(status_of(doc, 0, 0), "failed");
	reason = json_string_value(json_object_get(json_array_get(runs_of(doc, 0), 0), "reason"));
	assert_non_null(reason);
	assert_non_null(strstr(reason, "cannot pin the workload to CPUs '1000'"));
	json_decref(doc);
	plan_release(&p);
}

static void test_stopped(void **state)
{
	static volatile sig_atomic_t stop = SIGTERM;
	struct vms_run_config cfg;
	struct plan p = {0};
	json_t *doc;

	(void)state;
	config(&cfg, &p);
	plan_add(&p, "mtest01:bytes=1M", 3);
	cfg.n_items = p.n;
	cfg.stop = &stop;
	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_INTERRUPTED);
	assert_true(json_is_true(json_object_get(doc, "interrupted")));
	assert_true(json_is_false(json_object_get(doc, "complete")));
	assert_int_equal(json_array_size(json_object_get(doc, "workloads")), 0);
	json_decref(doc);
	plan_release(&p);
}

/* A fake audio source: counts the calls. */
struct fake_audio {
	int stops, windows, facts;
};

static int fa_stop(void *ctx)
{
	((struct fake_audio *)ctx)->stops++;
	return 0;
}

static json_t *fa_window(void *ctx, double t0, double t1, json_t *metrics, size_t run)
{
	(void)metrics, (void)run;
	((struct fake_audio *)ctx)->windows++;
	return json_pack("{s:f}", "window_s", t1 - t0);
}

static json_t *fa_facts(void *ctx)
{
	((struct fake_audio *)ctx)->facts++;
	return json_pack("{s:s}", "device", "fake");
}

static long fa_underruns(void *ctx)
{
	(void)ctx;
	return 0;
}

static void test_audio_source(void **state)
{
	struct fake_audio fa = {0};
	struct vms_audio_source src = {NULL, fa_stop, fa_window, fa_facts, fa_underruns, &fa};
	struct vms_run_config cfg;
	struct plan p = {0};
	json_t *doc, *audio, *run;

	(void)state;
	config(&cfg, &p);
	plan_add(&p, "mtest01:bytes=1M", 2);
	cfg.n_items = p.n;
	cfg.audio = &src;
	cfg.baseline_s = 0.05;
	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_OK);
	assert_int_equal(fa.stops, 1);
	assert_int_equal(fa.facts, 1);
	assert_int_equal(fa.windows, 3); /* the baseline and one per run */
	audio = json_object_get(doc, "audio");
	assert_string_equal(
	    json_string_value(json_object_get(json_object_get(audio, "facts"), "device")), "fake");
	assert_non_null(json_object_get(json_object_get(audio, "baseline"), "detail"));
	run = json_array_get(runs_of(doc, 0), 1);
	assert_non_null(json_object_get(json_object_get(run, "audio"), "window_s"));
	assert_true(json_is_true(json_object_get(json_object_get(doc, "protocol"), "with_audio")));
	json_decref(doc);
	plan_release(&p);
}

static int quick_run(struct vms_workload_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static json_t *underrun_window(void *ctx, double t0, double t1, json_t *metrics, size_t run)
{
	(void)ctx, (void)t0, (void)t1;
	vms_metric_record(metrics, "underruns", run, 0);
	vms_metric_record(metrics, "sound_rating", run, 10);
	return json_object();
}

/* A fixed-duration load: its elapsed time and underruns are not results, its system time and
 * sound rating are; the other workload keeps the catalogue's defaults. */
static void test_primary_per_workload(void **state)
{
	static const char *const not_primary[] = {"elapsed_s", "underruns", NULL};
	static const struct vms_workload fixed = {.name = "fixed",
	                                          .summary = "s",
	                                          .stresses = "s",
	                                          .default_runs = 1,
	                                          .faithful_to = "-",
	                                          .not_primary = not_primary,
	                                          .run = quick_run};
	struct fake_audio fa = {0};
	struct vms_audio_source src = {NULL, fa_stop, underrun_window, fa_facts, fa_underruns, &fa};
	struct vms_run_config cfg;
	struct plan p = {0};
	json_t *doc, *m;
	size_t w;

	(void)state;
	config(&cfg, &p);
	p.items[0].spec.w = &fixed;
	p.items[0].runs = 2;
	p.n = 1;
	plan_add(&p, "mtest01:bytes=1M", 1);
	cfg.n_items = p.n;
	cfg.audio = &src;
	cfg.baseline_s = 0.05;
	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_OK);
	for (w = 0; w < 2; w++) {
		m = json_object_get(json_array_get(json_object_get(doc, "workloads"), w),
		                    "metrics");
#define PRIMARY(name) json_is_true(json_object_get(json_object_get(m, name), "primary"))
		assert_int_equal(PRIMARY("elapsed_s"), w == 1);
		assert_int_equal(PRIMARY("underruns"), w == 1);
		assert_true(PRIMARY("sys_s"));
		assert_true(PRIMARY("sound_rating"));
#undef PRIMARY
	}
	json_decref(doc);
	plan_release(&p);
}

static void test_prepare(void **state)
{
	struct vms_run_item it = {0};
	char why[256], spec[128];

	(void)state;
	/* the workload's own dir option wins over the suite's work directory */
	snprintf(spec, sizeof(spec), "mmap001:bytes=1M:dir=%s", workdir);
	assert_int_equal(vms_workload_spec_parse(spec, &it.spec, why, sizeof(why)), 0);
	assert_int_equal(vms_run_item_prepare(&it, "/", why, sizeof(why)), 0);
	assert_string_equal(it.workdir, workdir);
	vms_workload_spec_release(&it.spec);
	/* a directory that does not exist: refused with a reason */
	assert_int_equal(vms_workload_spec_parse("mmap001:bytes=1M", &it.spec, why, sizeof(why)),
	                 0);
	assert_true(vms_run_item_prepare(&it, "/nonexistent-vmsuite-dir", why, sizeof(why)) < 0);
	assert_null(it.workdir);
	assert_non_null(strstr(why, "/nonexistent-vmsuite-dir"));
	vms_workload_spec_release(&it.spec);
}

/* A stop that arrives between two runs (here: during the checkpoint after run 1) starts no
 * further run: no child is forked for run 2. */
static volatile sig_atomic_t between_stop;

static int stop_after_first_run(void *ctx, const json_t *doc)
{
	int *calls = ctx;

	/* call 1 is the header, call 2 follows run 1 */
	if (++*calls == 2)
		between_stop = SIGINT;
	(void)doc;
	return 0;
}

static void test_stop_between_runs(void **state)
{
	struct vms_run_config cfg;
	struct plan p = {0};
	int calls = 0;
	json_t *doc;

	(void)state;
	between_stop = 0;
	config(&cfg, &p);
	plan_add(&p, "mtest01:bytes=1M", 3);
	cfg.n_items = p.n;
	cfg.stop = &between_stop;
	cfg.checkpoint = stop_after_first_run;
	cfg.checkpoint_ctx = &calls;
	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_INTERRUPTED);
	assert_int_equal(json_array_size(runs_of(doc, 0)), 1);
	assert_string_equal(status_of(doc, 0, 0), "ok");
	assert_true(json_is_true(json_object_get(doc, "interrupted")));
	json_decref(doc);
	plan_release(&p);
}

/* A workload whose needs are no longer met when its turn comes (the disk filled since the
 * check before the suite; simulated by a size no disk has) is recorded as skipped with its
 * reason, the suite goes on, and the result is not complete. */
static void test_skipped_workload(void **state)
{
	struct vms_run_config cfg;
	struct plan p = {0};
	json_t *doc, *wl;
	const char *reason;

	(void)state;
	config(&cfg, &p);
	plan_add(&p, "mmap001:bytes=1M", 1);
	plan_add(&p, "mtest01:bytes=1M", 1);
	cfg.n_items = p.n;
	p.items[0].spec.opts[0].u = UINT64_C(1) << 60; /* bytes: the disk "filled" */
	assert_string_equal(p.items[0].spec.w->options[0].name, "bytes");
	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_FAILED);
	assert_int_equal(json_array_size(json_object_get(doc, "workloads")), 2);
	wl = json_array_get(json_object_get(doc, "workloads"), 0);
	assert_string_equal(json_string_value(json_object_get(wl, "name")), "mmap001");
	assert_string_equal(json_string_value(json_object_get(wl, "status")), "skipped");
	reason = json_string_value(json_object_get(wl, "reason"));
	assert_non_null(reason);
	assert_non_null(strstr(reason, "free"));
	assert_int_equal(json_array_size(runs_of(doc, 0)), 0);
	assert_string_equal(status_of(doc, 1, 0), "ok");
	assert_true(json_is_false(json_object_get(doc, "complete")));
	assert_true(json_is_false(json_object_get(doc, "interrupted")));
	json_decref(doc);
	plan_release(&p);
}

/* The variants' applies, in order: what the runner asked the host to be before each run. */
struct applies {
	size_t v[32];
	size_t n;
	int fail_at; /* 1-based apply that fails, 0 = none */
};

static int apply(void *ctx, size_t v)
{
	struct applies *a = ctx;

	if (a->n < 32)
		a->v[a->n] = v;
	a->n++;
	return a->fail_at && (int)a->n == a->fail_at ? -1 : 0;
}

/* Three variants of two workloads: run 1 of each variant, then run 2 of each; each variant its
 * own workloads[] entry with its label; the host switched only when the variant changes; the
 * THP choice per variant reaches the child. */
static void test_variants_interleaved(void **state)
{
	struct vms_run_config cfg;
	struct applies a = {0};
	struct plan p = {0};
	struct vms_run_variant vs[3] = {
	    {"a", json_pack("{s:s, s:s}", "vm.x", "1", "thp", "off"), 1},
	    {"b", json_pack("{s:s, s:s}", "vm.x", "2", "thp", "kernel"), 0},
	    {"c", json_pack("{s:s, s:s}", "vm.x", "3", "thp", "kernel"), 0},
	};
	static const size_t want[] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
	json_t *doc, *wls, *wl, *run;
	double last = 0;
	size_t i, r, v;

	(void)state;
	config(&cfg, &p);
	plan_add(&p, "mtest01:bytes=1M", 2);
	plan_add(&p, "mtest01:bytes=2M", 2);
	cfg.n_items = p.n;
	cfg.variants = vs;
	cfg.n_variants = 3;
	cfg.apply_variant = apply;
	cfg.variant_ctx = &a;
	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_OK);
	/* 2 workloads x 2 runs x 3 variants, a different variant before every run */
	assert_int_equal(a.n, 12);
	for (i = 0; i < 12; i++)
		assert_int_equal(a.v[i], want[i]);
	assert_int_equal(json_array_size(json_object_get(doc, "variants")), 3);
	assert_string_equal(
	    json_string_value(json_object_get(
	        json_object_get(json_array_get(json_object_get(doc, "variants"), 1), "settings"),
	        "vm.x")),
	    "2");
	assert_true(
	    json_is_null(json_object_get(json_object_get(doc, "protocol"), "thp_disabled")));
	wls = json_object_get(doc, "workloads");
	assert_int_equal(json_array_size(wls), 6);
	/* each workload's variants together, in order; the runs in time order alternate */
	for (i = 0; i < 2; i++) {
		for (r = 0; r < 2; r++) {
			for (v = 0; v < 3; v++) {
				double t;

				wl = json_array_get(wls, i * 3 + v);
				assert_string_equal(
				    json_string_value(json_object_get(wl, "variant")), vs[v].label);
				assert_int_equal(json_array_size(json_object_get(wl, "runs")), 2);
				run = json_array_get(json_object_get(wl, "runs"), r);
				assert_int_equal(json_integer_value(json_object_get(run, "index")),
				                 (json_int_t)r + 1);
				assert_string_equal(
				    json_string_value(json_object_get(run, "status")), "ok");
				assert_int_equal(json_is_true(json_object_get(run, "thp_disabled")),
				                 vs[v].thp_off);
				t = json_number_value(json_object_get(run, "t_start"));
				assert_true(t > last);
				last = t;
			}
		}
	}
	json_decref(doc);

	/* an apply that fails ends the suite as a tool error, with no run of that variant */
	memset(&a, 0, sizeof(a));
	a.fail_at = 2;
	assert_int_equal(vms_runner_run(&cfg, &doc), VMS_EXIT_FATAL);
	assert_int_equal(a.n, 2);
	wls = json_object_get(doc, "workloads");
	assert_int_equal(json_array_size(json_object_get(json_array_get(wls, 0), "runs")), 1);
	assert_int_equal(json_array_size(json_object_get(json_array_get(wls, 1), "runs")), 0);
	json_decref(doc);
	for (v = 0; v < 3; v++)
		json_decref(vs[v].settings);
	plan_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_plan, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_memload, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pin_failure, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stopped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_audio_source, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_primary_per_workload, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_prepare, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stop_between_runs, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_skipped_workload, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_variants_interleaved, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
