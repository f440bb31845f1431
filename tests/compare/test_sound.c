/* Golden-file tests of the Sound lines (compare/sound.c): workload objects and an audio
 * baseline read from tests/compare/golden/sound/NAME.json, rendered and compared byte for byte
 * with the .txt next to them. The output is kept in build/golden-actual for
 * scripts/update-goldens.sh, which rewrites the .txt files after a deliberate change. No kernel
 * paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/sound-text.h"

/* Keeps what was rendered as <build>/golden-actual/tests/compare/golden/sound/NAME.txt. */
static void save_actual(const char *name, const char *text)
{
	const char *bin = getenv("VMS_BINARY_DIR");
	char *dir, *path;
	FILE *f;

	assert_non_null(bin);
	dir = vms_xasprintf("mkdir -p '%s/golden-actual/tests/compare/golden/sound'", bin);
	assert_int_equal(system(dir), 0);
	path = vms_xasprintf("%s/golden-actual/tests/compare/golden/sound/%s.txt", bin, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	free(path);
	free(dir);
}

static void check(const char *name, int baseline)
{
	const char *src = getenv("VMS_SOURCE_DIR");
	char *in, *gold, *buf = NULL, *want;
	size_t len = 0;
	json_error_t err;
	json_t *doc;
	FILE *f;

	assert_non_null(src);
	in = vms_xasprintf("%s/tests/compare/golden/sound/%s.json", src, name);
	gold = vms_xasprintf("%s/tests/compare/golden/sound/%s.txt", src, name);
	doc = json_load_file(in, 0, &err);
	if (!doc)
		fail_msg("%s: %s", in, err.text);
	f = open_memstream(&buf, &len);
	if (baseline)
		vms_report_sound_baseline(f, doc);
	else
		vms_report_sound_text(f, doc);
	fclose(f);
	assert_non_null(buf);
	save_actual(name, buf);
	want = vms_read_text(gold);
	if (!want)
		fail_msg("cannot read %s", gold);
	else if (strcmp(buf, want))
		fail_msg("%s differs:\n--- got\n%s--- want\n%s", name, buf, want);
	free(want);
	free(buf);
	json_decref(doc);
	free(in);
	free(gold);
}

static void test_gaps(void **state)
{
	(void)state;
	check("workload-gaps", 0);
}

static void test_nosound(void **state)
{
	(void)state;
	check("workload-nosound", 0);
}

static void test_failed_run(void **state)
{
	(void)state;
	check("workload-failed-run", 0);
}

/* played_s and underruns absent, skips without a sample: "n/a", never 0 */
static void test_missing(void **state)
{
	(void)state;
	check("workload-missing", 0);
}

static void test_baseline(void **state)
{
	(void)state;
	check("audio-baseline", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gaps),       cmocka_unit_test(test_nosound),
	    cmocka_unit_test(test_failed_run), cmocka_unit_test(test_missing),
	    cmocka_unit_test(test_baseline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
