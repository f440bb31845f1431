/* Unit tests of the report model (report/model.c): what a result document becomes, absent
 * metrics staying absent (never 0), the text report's lines by kind, and the renderer table.
 * No kernel paths. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/model.h"

/* Two workloads: "full" with three runs (the second failed) and most metrics, "bare" whose
 * only metric has no samples. */
static const char doc_json[] =
    "{\"format\": \"vmsuite.result/1\", \"tool\": {\"version\": \"9.9\"}, \"label\": \"k\","
    " \"start_time\": \"2001-10-19T06:38:00Z\", \"complete\": false,"
    " \"protocol\": {\"machine\": {\"profile\": \"p\", \"mem_limit_bytes\": null}},"
    " \"audio\": null, \"workloads\": ["
    "  {\"name\": \"full\", \"metrics\": {"
    "    \"elapsed_s\": {\"unit\": \"s\", \"samples\": [10, null, 20]},"
    "    \"pgsteal\": {\"unit\": \"pages\", \"samples\": [1, null, 3]},"
    "    \"psi_io_full_ms\": {\"unit\": \"ms\", \"samples\": [500, null, 1500]},"
    "    \"sound_rating\": {\"unit\": \"score\", \"samples\": [5, null, 7]},"
    "    \"played_s\": {\"unit\": \"s\", \"samples\": [8, null, 9]},"
    "    \"window_s\": {\"unit\": \"s\", \"samples\": [10, null, 10]}},"
    "   \"runs\": [{\"status\": \"ok\", \"t_start\": 1, \"t_end\": 11, \"series\": null,"
    "              \"audio\": {\"causes\": {\"io\": 2, \"gremlins\": 5}}},"
    "             {\"status\": \"failed\", \"reason\": \"oom\"},"
    "             {\"status\": \"ok\", \"series\": {\"t_s\": []}}]},"
    "  {\"name\": \"bare\", \"metrics\": {\"elapsed_s\": {\"samples\": [null]}},"
    "   \"runs\": [{\"status\": \"failed\"}]}]}";

struct lines {
	enum vms_report_line kind[32];
	char text[32][512];
	size_t n;
};

static void collect(void *ctx, enum vms_report_line kind, const char *text)
{
	struct lines *l = ctx;

	assert_true(l->n < 32);
	l->kind[l->n] = kind;
	snprintf(l->text[l->n++], sizeof(l->text[0]), "%s", text);
}

static const char *line_of(const struct lines *l, enum vms_report_line kind)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->kind[i] == kind)
			return l->text[i];
	return NULL;
}

static int setup(void **state)
{
	json_error_t err;
	json_t *doc = json_loads(doc_json, 0, &err);
	struct vms_report_model *m = calloc(1, sizeof(*m));

	if (!doc || !m) {
		fprintf(stderr, "test document: %s\n", err.text);
		json_decref(doc);
		free(m);
		return -1;
	}
	vms_report_model_init(m, doc);
	json_decref(doc); /* the model holds its own reference */
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	vms_report_model_release(*state);
	free(*state);
	return 0;
}

static void test_header(void **state)
{
	const struct vms_report_model *m = *state;
	struct lines l = {0};

	assert_string_equal(m->rd.version, "9.9");
	assert_false(m->rd.complete);
	assert_false(m->rd.with_audio);
	assert_false(m->baseline.present);
	assert_int_equal(m->n_workloads, 2);
	vms_report_header_lines(m, collect, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.text[0],
	                    "vmsuite 9.9 \u2014 k \u2014 started 2001-10-19T06:38:00Z "
	                    "\u2014 machine p \u2014 did not finish (killed or crashed)");
	assert_string_equal(l.text[1], "Machine: p \u2014 no memory limit");
}

/* How a suite that is not complete ended: from interrupted, end_time and exit_status. */
static void test_incomplete(void **state)
{
	static const struct {
		const char *doc, *want;
	} cases[] = {
	    {"{\"complete\": true, \"end_time\": \"x\", \"exit_status\": 0}", NULL},
	    {"{\"complete\": false, \"interrupted\": true, \"end_time\": \"x\", "
	     "\"exit_status\": 130}",
	     "INCOMPLETE (interrupted)"},
	    {"{\"complete\": false, \"interrupted\": false, \"end_time\": null, "
	     "\"exit_status\": null}",
	     "did not finish (killed or crashed)"},
	    {"{\"complete\": false, \"interrupted\": false, \"end_time\": \"x\", "
	     "\"exit_status\": 1}",
	     "INCOMPLETE (not every workload ran)"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vms_report_model m;
		json_t *doc = json_loads(cases[i].doc, 0, NULL);

		assert_non_null(doc);
		vms_report_model_init(&m, doc);
		if (cases[i].want)
			assert_string_equal(vms_report_incomplete(&m), cases[i].want);
		else
			assert_null(vms_report_incomplete(&m));
		vms_report_model_release(&m);
		json_decref(doc);
	}
}

static void test_metrics(void **state)
{
	const struct vms_report_model *m = *state;
	const struct vms_report_workload *w = &m->workloads[0];
	const struct vms_summary *s;

	assert_string_equal(w->rd->name, "full");
	assert_int_equal(w->elapsed.n, 2);
	assert_true(fabs(w->elapsed.mean - 15) < 1e-9);
	s = vms_report_metric_get(&w->metrics, "pgsteal");
	assert_non_null(s);
	assert_true(fabs(s->mean - 2) < 1e-9);
	/* absent from the file, and present without a sample: both absent, never 0 */
	assert_null(vms_report_metric_get(&w->metrics, "pgscan"));
	assert_null(vms_report_metric_get(&m->workloads[1].metrics, "elapsed_s"));
	assert_int_equal(m->workloads[1].elapsed.n, 0);
	/* one PSI metric is enough for the pressure line; no cgroup metric: no cgroup line */
	assert_true(w->has_pressure);
	assert_false(w->has_cgroup);
}

static void test_runs_and_sound(void **state)
{
	const struct vms_report_model *m = *state;
	const struct vms_report_workload *w = &m->workloads[0];

	assert_int_equal(w->rd->n_runs, 3);
	assert_int_equal(w->rd->n_failed, 1);
	assert_true(w->runs[1].failed);
	assert_string_equal(w->runs[1].rd->reason, "oom");
	assert_true(fabs(w->runs[0].elapsed_s - 10) < 1e-9);
	assert_true(isnan(w->runs[1].elapsed_s));
	assert_null(w->runs[0].rd->series); /* JSON null: no series */
	assert_non_null(w->runs[2].rd->series);
	assert_non_null(w->runs[0].rd->window);
	assert_null(w->runs[1].rd->window);
	assert_true(w->sound.present);
	assert_true(fabs(w->sound.rating - 6) < 1e-9);
	assert_true(fabs(w->sound.played_s - 17) < 1e-9);
	assert_true(isnan(w->sound.skips));
	assert_true(isnan(w->sound.longest_ms));
	assert_int_equal(w->sound.causes[VMS_CAUSE_IO], 2);
	assert_true(w->sound.any_cause);
	assert_false(m->workloads[1].sound.present);
}

static void test_lines(void **state)
{
	const struct vms_report_model *m = *state;
	struct lines l = {0};

	vms_report_workload_lines(&m->workloads[0], collect, &l);
	assert_string_equal(line_of(&l, VMS_LINE_CAPTION), "Average for 2 full runs");
	assert_string_equal(l.text[1], "bytes allocated: n/a");
	assert_string_equal(l.text[4], "Elapsed (wall clock seconds) time: 15.00");
	assert_string_equal(line_of(&l, VMS_LINE_SOUND),
	                    "Sound: 6.0/10 \u2014 played 17.0 of 20.0 s, n/a skips (n/a "
	                    "underruns), longest gap n/a");
	assert_string_equal(line_of(&l, VMS_LINE_RECLAIM),
	                    "System-wide reclaim per run: scanned n/a, stolen 2 pages; swap in/out "
	                    "n/a / n/a pages; allocstalls n/a; refaults n/a");
	assert_string_equal(
	    line_of(&l, VMS_LINE_PRESSURE),
	    "Pressure per run: memory some n/a (full n/a), io some n/a (full 1.00 s)");
	assert_null(line_of(&l, VMS_LINE_CGROUP));
	assert_string_equal(line_of(&l, VMS_LINE_FAILED), "Failed runs: 1 of 3");
	assert_string_equal(line_of(&l, VMS_LINE_FAILED_RUN), "  run 2: failed \u2014 oom");

	memset(&l, 0, sizeof(l));
	vms_report_workload_lines(&m->workloads[1], collect, &l);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.text[0], "No successful bare runs.");
	assert_string_equal(l.text[2], "  run 1: failed \u2014 no reason recorded");
}

static void test_renderers(void **state)
{
	static const char *const names[] = {"text", "markdown", "html", "json"};
	const struct vms_report_model *m = *state;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct vms_report_renderer *r = vms_report_renderer_find(names[i]);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(r);
		assert_string_equal(r->name, names[i]);
		assert_non_null(f);
		assert_int_equal(r->render(m, f), 0);
		assert_int_equal(fclose(f), 0);
		/* every renderer shows the absent figures, and none as 0 */
		if (strcmp(names[i], "json"))
			assert_non_null(strstr(buf, "scanned n/a"));
		assert_null(strstr(buf, "scanned 0"));
		free(buf);
	}
	assert_null(vms_report_renderer_find("pdf"));
	assert_null(vms_report_renderer_find(NULL));
}

/* -f's help and its unknown-format message come from the renderer table: every format, in the
 * table's order, the line broken where the option help's column would overflow. */
static void test_renderer_help(void **state)
{
	(void)state;
	assert_string_equal(vms_report_renderer_help(),
	                    "text (default), markdown, html, json, lava (result.txt lines)\n"
	                    "or kcidb (a KCIDB v5.3 document)");
	assert_string_equal(vms_report_renderer_names(),
	                    "text, markdown, html, json, lava or kcidb");
	/* built once: the same string again */
	assert_ptr_equal(vms_report_renderer_help(), vms_report_renderer_help());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_header),         cmocka_unit_test(test_metrics),
	    cmocka_unit_test(test_runs_and_sound), cmocka_unit_test(test_lines),
	    cmocka_unit_test(test_renderers),      cmocka_unit_test(test_renderer_help),
	    cmocka_unit_test(test_incomplete),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
