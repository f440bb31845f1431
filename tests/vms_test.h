/* Helpers for the cmocka tests: a skip that ctest sees (exit 77 with the SKIP_RETURN_CODE 77
 * property), and running a subset of a file's tests so that a root-only part can be its own
 * ctest entry. No kernel paths. Include after <cmocka.h>. */
#ifndef VMS_TEST_H
#define VMS_TEST_H

#include <stdio.h>
#include <string.h>

/* ctest's skip status (set SKIP_RETURN_CODE 77 on the test) */
#define VMS_TEST_SKIP_CODE 77

static int vms_test_skips; /* tests of this executable that skipped */

/* Skips the current test, saying why (printf-style), and remembers it for vms_test_run(). */
#define vms_test_skip(...)                                                                         \
	do {                                                                                       \
		print_message("skipped: " __VA_ARGS__);                                            \
		print_message("\n");                                                               \
		vms_test_skips++;                                                                  \
		skip();                                                                            \
	} while (0)

/* Runs the group like cmocka_run_group_tests(), after applying the command line:
 * `--only PATTERN` runs the matching tests, `--except PATTERN` the others (cmocka wildcards).
 * Returns what main should return: 1 when a test failed, VMS_TEST_SKIP_CODE when none failed
 * but one skipped (the machine could not run it: ctest reports SKIP, not a pass), else 0. */
#define vms_test_run(tests, setup, teardown, argc, argv)                                           \
	vms_test_status(vms_test_filter((argc), (argv))                                            \
	                    ? 2                                                                    \
	                    : cmocka_run_group_tests((tests), (setup), (teardown)))

static inline int vms_test_filter(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--only"))
		cmocka_set_test_filter(argv[2]);
	else if (argc == 3 && !strcmp(argv[1], "--except"))
		cmocka_set_skip_filter(argv[2]);
	else if (argc != 1) {
		fprintf(stderr, "usage: %s [--only PATTERN | --except PATTERN]\n", argv[0]);
		return -1;
	}
	return 0;
}

static inline int vms_test_status(int failed)
{
	if (failed)
		return 1;
	return vms_test_skips ? VMS_TEST_SKIP_CODE : 0;
}

#endif
