/* The probe as the runner uses it (probe.h), through real alsa-lib on the virtual clock
 * device: start, run other children meanwhile, take windows while it plays, stop it; and a
 * probe killed midway is recorded as died without taking the caller down. No wall-clock
 * limits here (how long a stop takes is printed by scripts/bench-probe.sh).
 * Kernel paths: fork/wait, ALSA via the ioplug plugin, timerfd. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audio-probe/probe.h"
#include "core/util.h"

static double metric(json_t *m, const char *name, size_t run)
{
	json_t *s = json_object_get(json_object_get(m, name), "samples");

	assert_true(json_array_size(s) > run);
	return json_number_value(json_array_get(s, run));
}

static void test_embedded(void **state)
{
	struct vms_probe_opts o = {.device = "virtual"};
	struct vms_probe *p;
	json_t *m = json_object(), *d, *facts;
	double t0, t1, t2;
	pid_t kid;
	int status;

	(void)state;
	assert_int_equal(vms_probe_start(&o, &p), 0);
	assert_true(vms_probe_alive(p));
	assert_true(vms_probe_pid(p) > 0);
	t0 = vms_now_mono();
	kid = fork(); /* a "workload" while the probe plays */
	if (kid == 0) {
		double until = vms_now_mono() + 1.0;

		while (vms_now_mono() < until)
			;
		_exit(7);
	}
	assert_int_equal(waitpid(kid, &status, 0), kid);
	assert_int_equal(WEXITSTATUS(status), 7);
	t1 = vms_now_mono();
	vms_sleep(0.5, NULL);
	t2 = vms_now_mono();
	/* windows taken while the probe still plays */
	d = vms_probe_window(p, t0, t1, m, 0);
	assert_non_null(json_object_get(d, "gaps"));
	json_decref(d);
	d = vms_probe_window(p, t1, t2, m, 1);
	json_decref(d);
	/* cmocka casts each argument to float without parentheses: (float)t1 - t0 would round the
	 * monotonic clock to a float (2 ms steps after 4.6 hours of uptime), so the differences
	 * are taken first */
	assert_float_equal(metric(m, "window_s", 0), (t1 - t0), 0.001);
	assert_float_equal(metric(m, "window_s", 1), (t2 - t1), 0.001);
	assert_true(metric(m, "wake_p50_ms", 0) >= 0);
	assert_true(metric(m, "probe_maxrss_kib", 1) > 0);
	assert_true(vms_probe_alive(p));
	assert_int_equal(vms_probe_stop(p), 0);
	assert_false(vms_probe_alive(p));
	assert_int_equal(kill(vms_probe_pid(p), 0), -1); /* reaped: no such process */
	facts = vms_probe_facts(p);
	assert_int_equal(json_integer_value(json_object_get(facts, "sample_rate")), 44100);
	assert_int_equal(strlen(json_string_value(json_object_get(facts, "sha256"))), 64);
	json_decref(facts);
	vms_probe_free(p);
	json_decref(m);
}

/* A window that ends after the probe was killed has no sound data (no metrics; the detail
 * says why); one that ended while it played, looked at then, keeps its data. */
static void test_probe_killed(void **state)
{
	struct vms_probe_opts o = {.device = "virtual"};
	struct vms_probe *p;
	json_t *m = json_object(), *d;
	double t0, ta, t1;

	(void)state;
	assert_int_equal(vms_probe_start(&o, &p), 0);
	t0 = vms_now_mono();
	vms_sleep(0.5, NULL);
	ta = vms_now_mono();
	assert_int_equal(vms_probe_check(p), 0);
	kill(vms_probe_pid(p), SIGKILL);
	vms_sleep(0.5, NULL);
	t1 = vms_now_mono();
	assert_int_equal(vms_probe_check(p), -1);
	assert_false(vms_probe_alive(p));
	d = vms_probe_window(p, t0, ta, m, 0);
	assert_null(json_object_get(d, "no_sound_data"));
	assert_true(metric(m, "window_s", 0) > 0.4);
	json_decref(d);
	d = vms_probe_window(p, ta, t1, m, 1);
	assert_string_equal(json_string_value(json_object_get(d, "no_sound_data")), "probe_died");
	assert_true(
	    json_array_size(json_object_get(json_object_get(m, "sound_rating"), "samples")) < 2);
	assert_true(
	    json_array_size(json_object_get(json_object_get(m, "gap_total_ms"), "samples")) < 2);
	json_decref(d);
	assert_int_equal(vms_probe_stop(p), -1);
	assert_false(vms_probe_alive(p));
	vms_probe_free(p);
	json_decref(m);
}

static void test_bad_file(void **state)
{
	struct vms_probe_opts o = {.device = "virtual", .file = "/nonexistent/x.mp3"};
	struct vms_probe *p = (struct vms_probe *)&o;

	(void)state;
	assert_int_equal(vms_probe_start(&o, &p), -1);
	assert_null(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_embedded),
	    cmocka_unit_test(test_probe_killed),
	    cmocka_unit_test(test_bad_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
