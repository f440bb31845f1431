/* Unit tests of the metric catalogue: its rows are complete and unique, recording writes a
 * row's properties, an unknown name is refused, and the gap causes round-trip. */
#include <ctype.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/metric.h"
#include "core/util.h"

static void test_rows_complete(void **state)
{
	size_t i, j, n = vms_metric_count();

	(void)state;
	assert_true(n >= 40);
	for (i = 0; i < n; i++) {
		const struct vms_metric_def *d = &vms_metric_defs[i];
		const char *c;

		for (c = d->name; *c; c++)
			assert_true(islower((unsigned char)*c) || isdigit((unsigned char)*c) ||
			            *c == '_');
		assert_true(d->unit && *d->unit);
		assert_true(d->label && *d->label);
		assert_true(d->description && *d->description);
		assert_in_range(d->precision, 0, 6);
		assert_in_range(d->group, 0, VMS_GROUP_NR - 1);
		assert_string_not_equal(vms_metric_group_name(d->group), "?");
		if (d->source == VMS_SOURCE_RUNS)
			assert_int_equal(d->kind, VMS_KIND_COUNT);
		assert_ptr_equal(vms_metric_find(d->name), d);
		for (j = i + 1; j < n; j++)
			assert_string_not_equal(d->name, vms_metric_defs[j].name);
	}
	assert_null(vms_metric_find("no_such_metric"));
	assert_null(vms_metric_find(NULL));
}

static void test_record_uses_row(void **state)
{
	json_t *m = json_object(), *o;

	(void)state;
	vms_metric_record(m, "underruns", 1, 3);
	o = json_object_get(m, "underruns");
	assert_string_equal(json_string_value(json_object_get(o, "unit")), "count");
	assert_string_equal(json_string_value(json_object_get(o, "better")), "lower");
	assert_string_equal(json_string_value(json_object_get(o, "kind")), "count");
	assert_true(json_is_true(json_object_get(o, "primary")));
	assert_true(json_is_null(json_array_get(json_object_get(o, "samples"), 0)));
	assert_true(json_number_value(json_array_get(json_object_get(o, "samples"), 1)) == 3);

	vms_metric_record(m, "headroom_min_ms", 0, 12.5);
	o = json_object_get(m, "headroom_min_ms");
	assert_string_equal(json_string_value(json_object_get(o, "better")), "higher");
	assert_string_equal(json_string_value(json_object_get(o, "kind")), "gauge");
	assert_true(json_is_false(json_object_get(o, "primary")));

	vms_metric_set_primary(m, "underruns", 0);
	assert_true(json_is_false(json_object_get(json_object_get(m, "underruns"), "primary")));
	vms_metric_set_primary(m, "absent_one", 1); /* no-op */
	assert_null(json_object_get(m, "absent_one"));
	json_decref(m);
}

/* Records name in a child; returns its wait status. */
static int record_in_child(const char *name)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		json_t *m = json_object();

		/* keep the expected "bug:" message out of the test log */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		vms_metric_record(m, name, 0, 1);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static void test_unknown_name_refused(void **state)
{
	int st;

	(void)state;
	st = record_in_child("elapsed_sec"); /* a renamed metric */
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	st = record_in_child("failed_runs"); /* derived from runs[], never recorded */
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	st = record_in_child("elapsed_s");
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* The list help texts and docs show: every primary row, in catalogue order, and no other. */
static void test_primary_names(void **state)
{
	char *names = vms_metric_primary_names("|"), *expect = vms_xstrdup(""), *next;
	size_t i;

	(void)state;
	for (i = 0; i < vms_metric_count(); i++) {
		if (!vms_metric_defs[i].primary)
			continue;
		next = vms_xasprintf("%s%s%s", expect, *expect ? "|" : "", vms_metric_defs[i].name);
		free(expect);
		expect = next;
	}
	assert_string_equal(names, expect);
	assert_non_null(strstr(names, "elapsed_s"));
	assert_non_null(strstr(names, "headroom_p1_ms"));
	assert_null(strstr(names, "major_faults"));
	free(names);
	free(expect);
}

static void test_causes(void **state)
{
	int i;

	(void)state;
	assert_string_equal(vms_cause_name(VMS_CAUSE_PAGING), "paging");
	assert_string_equal(vms_cause_name(VMS_CAUSE_PROBE_DIED), "probe_died");
	assert_string_equal(vms_cause_name((enum vms_cause)99), "unexplained");
	for (i = 0; i < VMS_CAUSE_NR; i++) {
		assert_int_equal(vms_cause_find(vms_cause_name((enum vms_cause)i)), i);
		assert_true(*vms_cause_description((enum vms_cause)i));
	}
	assert_int_equal(vms_cause_find("swapping"), -1);
	assert_int_equal(vms_cause_find(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows_complete),        cmocka_unit_test(test_record_uses_row),
	    cmocka_unit_test(test_unknown_name_refused), cmocka_unit_test(test_causes),
	    cmocka_unit_test(test_primary_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
