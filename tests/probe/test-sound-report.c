/* Golden-file tests of the Sound lines (report/sound.c): workload objects and an audio
 * baseline read from tests/probe/golden/NAME.json, rendered and compared byte for byte with the
 * .txt next to them. Set VMS_UPDATE_GOLDEN=1 to rewrite the .txt files. No kernel paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/sound.h"

static void check(const char *name, int baseline)
{
	const char *src = getenv("VMS_SOURCE_DIR");
	char *in, *gold, *buf = NULL, *want;
	size_t len = 0;
	json_error_t err;
	json_t *doc;
	FILE *f;

	assert_non_null(src);
	in = vms_xasprintf("%s/tests/probe/golden/%s.json", src, name);
	gold = vms_xasprintf("%s/tests/probe/golden/%s.txt", src, name);
	doc = json_load_file(in, 0, &err);
	if (!doc)
		fail_msg("%s: %s", in, err.text);
	f = open_memstream(&buf, &len);
	if (baseline)
		vms_report_sound_baseline(f, doc);
	else
		vms_report_sound_text(f, doc);
	fclose(f);
	if (getenv("VMS_UPDATE_GOLDEN")) {
		f = fopen(gold, "w");
		fputs(buf, f);
		fclose(f);
	}
	want = vms_read_text(gold);
	if (!want)
		fail_msg("cannot read %s", gold);
	if (strcmp(buf, want))
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
