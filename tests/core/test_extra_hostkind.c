/* Unit tests of core/hostkind.c with one more host-state kind: built with
 * VMS_TEST_EXTRA_HOSTKIND, whose only additions are the enum value and the list line of
 * core/hostkind.{h,c} and the row in tests/core/extra-hostkind.c (a file vmsuite-test-extra-*).
 * A process that dies after journalling such a file leaves a record that vms_hoststate_list()
 * reads back as that kind, that repair undoes through the row (the file removed, the message
 * made from the row's word), and that `vmsuite cleanup` of the same build (vmsuite-extra-rows)
 * undoes too, while the ordinary vmsuite, without the row, leaves record and file alone. All of
 * it in a private state directory. No kernel paths. */
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
#include <sys/wait.h>
#include <unistd.h>

#include "core/hostkind.h"
#include "core/hoststate.h"
#include "core/util.h"
#include "tests/vms_test.h"

static char tmp[64], state[96], file[128];

static int setup(void **st)
{
	(void)st;
	snprintf(tmp, sizeof(tmp), "/tmp/vms-extra-kind-XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(file, sizeof(file), "%s/vmsuite-test-extra-1", tmp);
	return 0;
}

static int teardown(void **st)
{
	char cmd[128];

	(void)st;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd);
}

/* A run that journals the file, makes it and dies without undoing it (as after SIGKILL). */
static void dead_run_leaves_file(void)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct vms_hoststate hs = VMS_HOSTSTATE_INIT;
		struct vms_host_entry e = {.kind = VMS_HOST_TEST_EXTRA};
		FILE *f;

		snprintf(e.path, sizeof(e.path), "%s", file);
		if (vms_hoststate_init(&hs, state) || vms_hoststate_record(&hs, &e))
			_exit(1);
		f = fopen(file, "w");
		_exit(f && fclose(f) == 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static size_t records(struct vms_host_entry **es)
{
	struct vms_hoststate hs = VMS_HOSTSTATE_INIT;
	size_t n = 0;

	assert_int_equal(vms_hoststate_init(&hs, state), 0);
	assert_int_equal(vms_hoststate_list(&hs, es, &n), 0);
	return n;
}

static void test_row_in_the_list(void **st)
{
	(void)st;
	assert_ptr_equal(vms_host_rows[VMS_HOST_TEST_EXTRA], &vms_host_row_test_extra);
	assert_string_equal(vms_host_kind_what(VMS_HOST_TEST_EXTRA), "test file");
	assert_int_equal(VMS_HOST_TEST_EXTRA + 1, VMS_HOST_KIND_NR);
}

/* The record names the kind by the row's name and reads back as the kind. */
static void test_journal(void **st)
{
	struct vms_host_entry *es = NULL;
	char text[4096];
	size_t n;

	(void)st;
	dead_run_leaves_file();
	n = records(&es);
	assert_int_equal(n, 1);
	assert_int_equal(es[0].kind, VMS_HOST_TEST_EXTRA);
	assert_string_equal(es[0].path, file);
	assert_true(vms_read_small(es[0].record, text, sizeof(text)) > 0);
	assert_non_null(strstr(text, "\"test_extra\""));
	assert_non_null(strstr(text, "\"test file\""));
	free(es);
}

struct heard {
	int undone, other;
	char message[512];
};

static void hear(const struct vms_host_entry *e, enum vms_host_outcome outcome, int err, void *arg)
{
	struct heard *h = arg;

	(void)err;
	if (outcome == VMS_HOST_UNDONE && e->kind == VMS_HOST_TEST_EXTRA) {
		char *m = vms_host_entry_undone(e);

		snprintf(h->message, sizeof(h->message), "%s", m);
		free(m);
		h->undone++;
	} else {
		h->other++;
	}
}

/* Repair calls the row's undo: the file goes, and so does the record. */
static void test_repair(void **st)
{
	struct vms_hoststate hs = VMS_HOSTSTATE_INIT;
	struct vms_host_entry *es = NULL;
	struct heard h = {0};
	char want[256];
	struct stat sb;

	(void)st;
	if (stat(file, &sb)) /* test_journal left one; alone, make it */
		dead_run_leaves_file();
	assert_int_equal(vms_hoststate_init(&hs, state), 0);
	assert_int_equal(vms_hoststate_repair(&hs, hear, &h), 1);
	assert_int_equal(h.undone, 1);
	assert_int_equal(h.other, 0);
	snprintf(want, sizeof(want), "removed the test file '%s'", file);
	assert_string_equal(h.message, want);
	assert_int_equal(stat(file, &sb), -1);
	assert_int_equal(records(&es), 0);
	free(es);
}

/* Runs BIN cleanup on the private state directory; its output in out. Returns its exit. */
static int cleanup(const char *bin, char *out, size_t len)
{
	char cmd[512];
	FILE *p;
	size_t n;
	int status;

	snprintf(cmd, sizeof(cmd), "VMSUITE_STATE_DIR='%s' '%s' cleanup 2>&1", state, bin);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* `vmsuite cleanup` reaches the kind through the same row; the ordinary build does not know
 * it and leaves record and file alone (warned). */
static void test_cleanup(void **st)
{
	const char *extra = getenv("VMSUITE_EXTRA_ROWS"), *plain = getenv("VMSUITE");
	struct vms_host_entry *es = NULL;
	char out[4096], want[256];
	struct stat sb;

	(void)st;
	if (!extra || !plain)
		vms_test_skip("VMSUITE and VMSUITE_EXTRA_ROWS name the binaries (run by ctest)");
	dead_run_leaves_file();

	assert_int_equal(cleanup(plain, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "not a vmsuite record"));
	assert_int_equal(stat(file, &sb), 0);

	assert_int_equal(cleanup(extra, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "removed the test file '%s' left by pid ", file);
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "1 change of dead runs undone"));
	assert_int_equal(stat(file, &sb), -1);
	assert_int_equal(records(&es), 0);
	free(es);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_row_in_the_list),
	    cmocka_unit_test(test_journal),
	    cmocka_unit_test(test_repair),
	    cmocka_unit_test(test_cleanup),
	};

	return vms_test_run(tests, setup, teardown, argc, argv);
}
