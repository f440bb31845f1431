/* Unit tests of core/result.c: metric objects with null-padded samples, and loading with a
 * distinct reason for each way a file can fail to be a vmsuite result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/metric.h"
#include "core/result.h"
#include "core/resultdoc.h"
#include "core/util.h"

static void test_metric_record_pads(void **state)
{
	json_t *m = json_object();
	double *v;
	size_t n;

	(void)state;
	vms_metric_record(m, "elapsed_s", 0, 1.5);
	vms_metric_record(m, "elapsed_s", 2, 2.5);
	vms_metrics_pad(m, 4);
	assert_int_equal(
	    json_array_size(json_object_get(json_object_get(m, "elapsed_s"), "samples")), 4);
	assert_string_equal(
	    json_string_value(json_object_get(json_object_get(m, "elapsed_s"), "better")), "lower");
	assert_true(json_is_true(json_object_get(json_object_get(m, "elapsed_s"), "primary")));
	v = vms_metric_values(m, "elapsed_s", &n);
	assert_int_equal(n, 2);
	assert_true(v[0] == 1.5 && v[1] == 2.5);
	free(v);
	assert_null(vms_metric_values(m, "nope", &n));
	assert_int_equal(n, 0);
	json_decref(m);
}

static char *write_tmp(const char *content)
{
	char *path = vms_xstrdup("/tmp/vms-result-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return path;
}

static void expect_load(const char *content, enum vms_load_error want, const char *needle)
{
	char *path = write_tmp(content), err[256];
	enum vms_load_error e;
	json_t *doc = vms_result_load(path, &e, err, sizeof(err));

	assert_int_equal(e, want);
	if (want == VMS_LOAD_OK) {
		assert_non_null(doc);
	} else {
		assert_null(doc);
		assert_non_null(strstr(err, needle));
	}
	json_decref(doc);
	unlink(path);
	free(path);
}

static void test_load_errors(void **state)
{
	char err[256];
	enum vms_load_error e;

	(void)state;
	assert_null(vms_result_load("/nonexistent/r.json", &e, err, sizeof(err)));
	assert_int_equal(e, VMS_LOAD_IO);
	assert_non_null(strstr(err, "No such file"));
	expect_load("not json at all", VMS_LOAD_NOT_JSON, "not JSON");
	expect_load("{\"a\": 1}", VMS_LOAD_NOT_OURS, "not a vmsuite result");
	expect_load("[1,2]", VMS_LOAD_NOT_OURS, "not a vmsuite result");
	expect_load("{\"format\": \"vmsuite.result/3\", \"workloads\": []}", VMS_LOAD_TOO_NEW,
	            "newer");
	/* format 2: the variants and every workload's variant are checked */
	expect_load("{\"format\": \"vmsuite.result/2\", \"workloads\": []}", VMS_LOAD_MALFORMED,
	            "no \"variants\"");
	expect_load("{\"format\": \"vmsuite.result/2\", \"variants\": [], \"workloads\": []}",
	            VMS_LOAD_MALFORMED, "no \"variants\"");
	expect_load("{\"format\": \"vmsuite.result/2\", \"variants\": [{\"label\": \"a\"}], "
	            "\"workloads\": []}",
	            VMS_LOAD_MALFORMED, "variant 1 has no");
	expect_load("{\"format\": \"vmsuite.result/2\", \"variants\": [{\"label\": \"a\", "
	            "\"settings\": {}}, {\"label\": \"a\", \"settings\": {}}], \"workloads\": []}",
	            VMS_LOAD_MALFORMED, "two variants labelled 'a'");
	expect_load("{\"format\": \"vmsuite.result/2\", \"variants\": [{\"label\": \"a\", "
	            "\"settings\": {}}], \"workloads\": [{\"name\": \"w\", \"variant\": \"b\"}]}",
	            VMS_LOAD_MALFORMED, "workload 1 names no variant");
	expect_load("{\"format\": \"vmsuite.result/2\", \"variants\": [{\"label\": \"a\", "
	            "\"settings\": {}}], \"workloads\": [{\"name\": \"w\", \"variant\": \"a\"}]}",
	            VMS_LOAD_OK, "");
	expect_load("{\"format\": \"vmsuite.result/x\"}", VMS_LOAD_NOT_OURS, "unknown");
	expect_load("{\"format\": \"vmsuite.result/1\"}", VMS_LOAD_MALFORMED, "workloads");
	expect_load("{\"format\": \"vmsuite.result/1\", \"workloads\": []}", VMS_LOAD_OK, "");
}

static void test_write_reparses(void **state)
{
	char path[] = "/tmp/vms-result-w-XXXXXX", err[128];
	json_t *doc =
	    json_pack("{s:s, s:[], s:s, s:f, s:[{s:s, s:{}}]}", "format", VMS_RESULT_FORMAT,
	              "workloads", "label", "quote\" and \\ and \n newline", "x", 0.1, "variants",
	              "label", "default", "settings");
	enum vms_load_error e;
	json_t *back;
	const char *head = "{\n \"format\": \"vmsuite.result/2\",\n \"workloads\": [],\n";
	char *text;
	int fd = mkstemp(path);

	(void)state;
	close(fd);
	assert_int_equal(vms_json_write_file(doc, path, 0), 0);
	back = vms_result_load(path, &e, err, sizeof(err));
	assert_non_null(back);
	assert_true(json_equal(doc, back));
	json_decref(back);
	/* as result.h promises: keys in insertion order, one-space indent, a final newline */
	text = vms_read_text(path);
	assert_non_null(text);
	assert_int_equal(strncmp(text, head, strlen(head)), 0);
	assert_string_equal(text + strlen(text) - 2, "}\n");
	free(text);
	json_decref(doc);
	unlink(path);
}

/* Every older format version stays readable: the kept files under tests/data load, with all
 * their recorded metrics known to the catalogue (a rename would need a conversion on load). */
static void test_kept_versions_load(void **state)
{
	static const char *const kept[] = {"golden-result.json", "golden-result-sound.json"};
	const char *src = getenv("VMS_SOURCE_DIR");
	size_t k;

	(void)state;
	if (!src)
		skip();
	for (k = 0; k < sizeof(kept) / sizeof(kept[0]); k++) {
		char path[4096], err[256];
		enum vms_load_error e;
		const json_t *wl, *def;
		const char *name;
		json_t *doc;
		size_t i;

		snprintf(path, sizeof(path), "%s/tests/data/%s", src, kept[k]);
		doc = vms_result_load(path, &e, err, sizeof(err));
		assert_non_null(doc);
		assert_int_equal(e, VMS_LOAD_OK);
		assert_string_equal(json_string_value(json_object_get(doc, "format")),
		                    "vmsuite.result/1");
		json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
			json_object_foreach (json_object_get(wl, "metrics"), name, def)
				assert_non_null(vms_metric_find(name));
			/* format 1 reads as one variant, "default" */
			assert_string_equal(json_string_value(json_object_get(wl, "variant")),
			                    VMS_RESULT_VARIANT_DEFAULT);
			assert_ptr_equal(vms_result_workload_variant(
			                     doc, json_string_value(json_object_get(wl, "name")),
			                     VMS_RESULT_VARIANT_DEFAULT),
			                 vms_result_workload(
			                     doc, json_string_value(json_object_get(wl, "name"))));
		}
		assert_int_equal(vms_result_variant_count(doc), 1);
		assert_string_equal(vms_result_variant_label(doc, 0), VMS_RESULT_VARIANT_DEFAULT);
		json_decref(doc);
	}
}

/* Two variants of one workload: each found by its label, the baseline by default. */
static void test_workload_variant(void **state)
{
	json_t *doc = json_pack(
	    "{s:s, s:[{s:s, s:{s:s}}, {s:s, s:{s:s}}], s:[{s:s, s:s}, {s:s, s:s}]}", "format",
	    VMS_RESULT_FORMAT, "variants", "label", "page-cluster=0", "settings", "vm.page-cluster",
	    "0", "label", "page-cluster=3", "settings", "vm.page-cluster", "3", "workloads", "name",
	    "mtest01", "variant", "page-cluster=0", "name", "mtest01", "variant", "page-cluster=3");
	const json_t *wls = json_object_get(doc, "workloads");

	(void)state;
	assert_ptr_equal(vms_result_workload_variant(doc, "mtest01", "page-cluster=3"),
	                 json_array_get(wls, 1));
	assert_ptr_equal(vms_result_workload_variant(doc, "mtest01", "page-cluster=0"),
	                 json_array_get(wls, 0));
	assert_ptr_equal(vms_result_workload_variant(doc, "mtest01", NULL), json_array_get(wls, 0));
	assert_ptr_equal(vms_result_workload(doc, "mtest01"), json_array_get(wls, 0));
	assert_null(vms_result_workload_variant(doc, "mtest01", "page-cluster=1"));
	assert_null(vms_result_workload_variant(doc, "mmap001", NULL));
	assert_int_equal(vms_result_variant_count(doc), 2);
	assert_string_equal(vms_result_variant_label(doc, 1), "page-cluster=3");
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_metric_record_pads), cmocka_unit_test(test_load_errors),
	    cmocka_unit_test(test_write_reparses),     cmocka_unit_test(test_kept_versions_load),
	    cmocka_unit_test(test_workload_variant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
