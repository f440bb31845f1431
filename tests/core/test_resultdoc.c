/* Unit tests of core/resultdoc.c, the one reader of result documents: the typed model, the
 * counts derived from runs[], metric metadata from the catalogue, and errors that name the
 * field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/metric.h"
#include "core/resultdoc.h"
#include "core/util.h"

/* Two workloads: mmap001 with four runs (ok, failed by the OOM killer, interrupted, failed
 * without it) and memload (skipped). The file's copies of unit/better/primary disagree with the
 * catalogue on purpose. */
static const char doc_json[] =
    "{\"format\": \"vmsuite.result/2\", \"tool\": {\"version\": \"9.9\"}, \"label\": \"L\","
    " \"start_time\": \"2026-01-01T00:00:00Z\", \"end_time\": null, \"complete\": false,"
    " \"protocol\": {\"with_audio\": false, \"machine\": {\"profile\": \"hron2001\","
    "   \"mem_limit_bytes\": 1000, \"cpus\": 2, \"cgroup_version\": 1}},"
    " \"fingerprint\": {}, \"audio\": null,"
    " \"variants\": [{\"label\": \"default\", \"settings\": {}}],"
    " \"workloads\": ["
    "  {\"name\": \"mmap001\", \"variant\": \"default\", \"metrics\": {"
    "    \"elapsed_s\": {\"unit\": \"min\", \"better\": \"higher\", \"primary\": true,"
    "                  \"samples\": [1.5, null, null, 2.5]},"
    "    \"pgscan\": {\"unit\": \"pages\", \"better\": \"lower\", \"primary\": true,"
    "               \"samples\": [3, null, null, 4]},"
    "    \"new_thing\": {\"unit\": \"widgets\", \"better\": \"higher\", \"kind\": \"count\","
    "                  \"primary\": true, \"samples\": [7, null, null, null]}},"
    "   \"runs\": [{\"status\": \"ok\", \"t_start\": 1, \"t_end\": 2.5, \"index\": 1},"
    "            {\"status\": \"failed\", \"reason\": \"oom\", \"oom_killed\": true},"
    "            {\"status\": \"interrupted\"},"
    "            {\"status\": \"failed\", \"disturbed\": true,"
    "             \"busy\": {\"other_cpu_pct\": 12}}]},"
    "  {\"name\": \"memload\", \"variant\": \"default\", \"status\": \"skipped\","
    "   \"metrics\": {\"elapsed_s\": {\"primary\": false, \"samples\": []}}, \"runs\": []}]}";

static json_t *doc_of(const char *text)
{
	json_error_t e;
	json_t *doc = json_loads(text, 0, &e);

	if (!doc)
		fail_msg("test document: %s", e.text);
	return doc;
}

static void test_typed_model(void **state)
{
	json_t *doc = doc_of(doc_json);
	const struct vms_rdoc_workload *w;
	const struct vms_rdoc_metric *m;
	struct vms_rdoc d;
	char err[256];

	(void)state;
	assert_int_equal(vms_rdoc_init(&d, doc, err, sizeof(err)), 0);
	json_decref(doc); /* the model holds its own reference */
	assert_string_equal(d.version, "9.9");
	assert_string_equal(d.label, "L");
	assert_int_equal(d.end_time_state, 1);
	assert_int_equal(d.complete_state, 1);
	assert_false(d.finished);
	assert_true(d.audio_off && !d.with_audio && !d.has_baseline);
	assert_true(d.machine.shown && d.machine.limited);
	assert_int_equal(d.machine.cpus, 2);
	assert_string_equal(d.machine.profile, "hron2001");
	assert_int_equal(d.n_variants, 1);
	assert_int_equal(d.n_workloads, 2);

	w = vms_rdoc_workload(&d, "mmap001", NULL);
	assert_non_null(w);
	assert_ptr_equal(vms_rdoc_workload(&d, "mmap001", "default"), w);
	assert_null(vms_rdoc_workload(&d, "mmap001", "other"));
	assert_int_equal(w->n_runs, 4);
	assert_int_equal(w->n_ok, 1);
	assert_int_equal(w->n_failed, 2);
	assert_int_equal(w->n_interrupted, 1);
	assert_int_equal(w->n_oom, 1);
	assert_int_equal(w->n_disturbed, 1);
	assert_true(w->runs[0].t_end - w->runs[0].t_start == 1.5);
	assert_true(isnan(w->runs[1].t_start));
	assert_int_equal(w->runs[1].index, 2); /* none recorded: its position */
	assert_string_equal(w->runs[1].reason, "oom");
	assert_true(w->runs[3].other_cpu_pct == 12);

	/* samples: the numbers in run order, with the run each belongs to */
	m = vms_rdoc_metric(w, "elapsed_s");
	assert_int_equal(m->n_samples, 4);
	assert_int_equal(m->n_values, 2);
	assert_true(m->values[1] == 2.5);
	assert_int_equal(m->value_run[1], 3);
	/* metadata: the catalogue's, whatever the file says */
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->better, VMS_BETTER_LOWER);
	assert_true(m->primary);
	m = vms_rdoc_metric(w, "pgscan");
	assert_false(m->primary); /* the file says true; the catalogue does not */
	/* a metric this vmsuite does not know: the file's copy */
	m = vms_rdoc_metric(w, "new_thing");
	assert_null(m->def);
	assert_string_equal(m->unit, "widgets");
	assert_int_equal(m->better, VMS_BETTER_HIGHER);
	assert_true(m->count && m->primary);

	/* derived once: one value per run that ended (ok or failed), interrupted left out */
	m = vms_rdoc_metric(w, "failed_runs");
	assert_non_null(m);
	assert_true(m->derived && m->primary);
	assert_int_equal(m->n_values, 3);
	assert_true(m->values[0] == 0 && m->values[1] == 1 && m->values[2] == 1);
	assert_int_equal(m->value_run[2], 3);
	m = vms_rdoc_metric(w, "oom_kills");
	assert_int_equal(m->n_values, 3);
	assert_true(m->values[0] == 0 && m->values[1] == 1 && m->values[2] == 0);
	assert_false(m->primary);

	/* the workload's word clears a catalogue primary: here the file's "primary": false */
	w = vms_rdoc_workload(&d, "memload", NULL);
	assert_string_equal(w->skipped, "no reason recorded");
	assert_false(vms_rdoc_metric(w, "elapsed_s")->primary);
	vms_rdoc_release(&d);
}

/* A registry that knows memload clears elapsed_s, and knows mmap001. */
static int registry(const char *workload, const char *metric)
{
	if (!strcmp(workload, "memload"))
		return !strcmp(metric, "elapsed_s");
	return !strcmp(workload, "mmap001") ? 0 : -1;
}

static void test_primary_from_registry(void **state)
{
	/* the file says nothing of primary: the registry decides for the workloads it knows, the
	 * catalogue for the others */
	json_t *doc =
	    doc_of("{\"workloads\": [{\"name\": \"memload\", \"metrics\": {\"elapsed_s\": {}, "
	           "\"sys_s\": {}}}, {\"name\": \"mmap001\", \"metrics\": {\"elapsed_s\": "
	           "{\"primary\": false}}}, {\"name\": \"future\", \"metrics\": {\"elapsed_s\": "
	           "{\"primary\": false}, \"sys_s\": {}}}]}");
	struct vms_rdoc d;
	char err[256];

	(void)state;
	vms_rdoc_use_workloads(registry);
	assert_int_equal(vms_rdoc_init(&d, doc, err, sizeof(err)), 0);
	assert_false(vms_rdoc_metric(&d.workloads[0], "elapsed_s")->primary);
	assert_true(vms_rdoc_metric(&d.workloads[0], "sys_s")->primary ==
	            vms_metric_find("sys_s")->primary);
	/* a workload the registry knows: the file's copy is not read */
	assert_true(vms_rdoc_metric(&d.workloads[1], "elapsed_s")->primary);
	/* one it does not know: the file's "primary": false clears it */
	assert_false(vms_rdoc_metric(&d.workloads[2], "elapsed_s")->primary);
	vms_rdoc_use_workloads(NULL);
	vms_rdoc_release(&d);
	json_decref(doc);
}

/* The series and the probe window the HTML page draws: numbers as doubles, NAN for a null,
 * a histogram's non-numbers as 0, gaps with what the file says of them. */
static void test_series_and_window(void **state)
{
	json_t *doc = doc_of(
	    "{\"workloads\": [{\"name\": \"a\", \"runs\": [{\"series\": {\"t_s\": [0, 1, null],"
	    " \"columns\": {\"pgfault\": {\"values\": [5, 6, 7]}, \"odd\": {\"values\": 3}}},"
	    " \"audio\": {\"t0\": 2, \"t1\": 12, \"series\": {\"t_s\": [0, 1],"
	    " \"fill_min_ms\": [40, null]}, \"latency_hist\": {\"lower_ms\": [0, 1],"
	    " \"count\": [3, \"x\"]}, \"causes\": {\"paging\": 1}, \"gaps\": [{\"start_s\":"
	    " 1.5, \"duration_ms\": 80, \"cause\": \"paging\", \"evidence\": {\"late_ms\": 9},"
	    " \"delay_ms\": 70, \"ongoing\": true}, {}]}}]}]}");
	const struct vms_rdoc_series *se;
	const struct vms_rdoc_window *wi;
	struct vms_rdoc d;
	char err[256];

	(void)state;
	assert_int_equal(vms_rdoc_init(&d, doc, err, sizeof(err)), 0);
	se = d.workloads[0].runs[0].series;
	wi = d.workloads[0].runs[0].window;
	assert_non_null(se);
	assert_int_equal(se->t.n, 3);
	assert_true(isnan(se->t.v[2]));
	assert_int_equal(se->n_cols, 2);
	assert_string_equal(se->cols[0].name, "pgfault");
	assert_true(se->cols[0].values.v[2] == 7);
	assert_null(se->cols[1].values.v); /* not an array */
	assert_non_null(wi);
	assert_true(wi->t1 - wi->t0 == 10);
	assert_true(wi->fill_min_ms.v[0] == 40 && isnan(wi->fill_min_ms.v[1]));
	assert_true(wi->hist_count.v[0] == 3 && wi->hist_count.v[1] == 0);
	assert_int_equal(wi->n_gaps, 2);
	assert_string_equal(wi->gaps[0].cause, "paging");
	assert_true(wi->gaps[0].late_ms == 9 && wi->gaps[0].has_delay && wi->gaps[0].ongoing);
	assert_false(wi->gaps[0].has_unclipped);
	assert_true(isnan(wi->gaps[1].start_s) && !wi->gaps[1].evidence && !wi->gaps[1].cause);
	assert_int_equal(d.workloads[0].runs[0].causes[VMS_CAUSE_PAGING], 1);
	vms_rdoc_release(&d);
	json_decref(doc);
}

/* A status the runner does not write: not ok, so among the failed runs the report lists; no
 * outcome for the derived counts. None recorded: no outcome either. */
static void test_other_status(void **state)
{
	json_t *doc = doc_of("{\"workloads\": [{\"name\": \"a\", \"runs\": [{\"status\": "
	                     "\"skipped\", \"oom_killed\": true}, {}, {\"status\": \"ok\"}]}]}");
	const struct vms_rdoc_metric *m;
	struct vms_rdoc d;
	char err[256];

	(void)state;
	assert_int_equal(vms_rdoc_init(&d, doc, err, sizeof(err)), 0);
	assert_int_equal(d.workloads[0].runs[0].status, VMS_RDOC_OTHER);
	assert_string_equal(d.workloads[0].runs[0].status_name, "skipped");
	assert_int_equal(d.workloads[0].runs[1].status, VMS_RDOC_NO_STATUS);
	assert_string_equal(d.workloads[0].runs[1].status_name, "ok");
	assert_int_equal(d.workloads[0].n_failed, 1);
	assert_int_equal(d.workloads[0].n_oom, 1);
	assert_int_equal(d.workloads[0].n_ok, 1);
	m = vms_rdoc_metric(&d.workloads[0], "failed_runs");
	assert_int_equal(m->n_values, 1);
	assert_int_equal(m->value_run[0], 2);
	vms_rdoc_release(&d);
	json_decref(doc);
}

static void test_errors_name_the_field(void **state)
{
	static const struct {
		const char *json, *want;
	} cases[] = {
	    {"{\"workloads\": [{\"name\": \"a\", \"runs\": [{\"status\": 3}]}]}",
	     "malformed result: workloads[0].runs[0].status: not a string"},
	    {"{\"workloads\": [{}, {\"metrics\": {\"x\": [1]}}]}",
	     "malformed result: workloads[1].metrics.x: not an object"},
	    {"{\"workloads\": [{\"metrics\": {\"elapsed_s\": {\"samples\": 1}}}]}",
	     "malformed result: workloads[0].metrics.elapsed_s.samples: not an array"},
	    {"{\"workloads\": [], \"protocol\": {\"machine\": {\"cpus\": \"two\"}}}",
	     "malformed result: protocol.machine.cpus: not an integer"},
	    {"{\"workloads\": [], \"label\": 7}", "malformed result: label: not a string"},
	    {"{\"workloads\": [7]}", "malformed result: workloads[0]: not an object"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < VMS_ARRAY_SIZE(cases); i++) {
		json_t *doc = doc_of(cases[i].json);
		struct vms_rdoc d;
		char err[256] = "";

		assert_int_equal(vms_rdoc_init(&d, doc, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, cases[i].want);
		assert_null(d.json);
		json_decref(doc);
	}
}

/* A file the reader refuses does not load, with the field in the reason. */
static void test_load_names_the_field(void **state)
{
	char path[] = "/tmp/vms-rdoc-XXXXXX", err[256];
	enum vms_load_error e;
	struct vms_rdoc d;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	(void)state;
	assert_non_null(f);
	fputs("{\"format\": \"vmsuite.result/2\", \"variants\": [{\"label\": \"default\", "
	      "\"settings\": {}}], \"workloads\": [{\"name\": \"a\", \"variant\": \"default\", "
	      "\"runs\": [{\"oom_killed\": \"yes\"}]}]}",
	      f);
	fclose(f);
	assert_null(vms_result_load(path, &e, err, sizeof(err)));
	assert_int_equal(e, VMS_LOAD_MALFORMED);
	assert_string_equal(err,
	                    "malformed result: workloads[0].runs[0].oom_killed: not true or false");
	assert_int_equal(vms_rdoc_load(&d, path, &e, err, sizeof(err)), -1);
	assert_int_equal(e, VMS_LOAD_MALFORMED);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_typed_model),
	    cmocka_unit_test(test_primary_from_registry),
	    cmocka_unit_test(test_series_and_window),
	    cmocka_unit_test(test_other_status),
	    cmocka_unit_test(test_errors_name_the_field),
	    cmocka_unit_test(test_load_names_the_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
