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
	assert_float_equal(metric(m, "window_s", 0), t1 - t0, 0.001);
	assert_float_equal(metric(m, "window_s", 1), t2 - t1, 0.001);
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

static void test_probe_killed(void **state)
{
	struct vms_probe_opts o = {.device = "virtual"};
	struct vms_probe *p;
	json_t *m = json_object(), *d, *g;
	double t0, tk, t1, gap_ms;

	(void)state;
	assert_int_equal(vms_probe_start(&o, &p), 0);
	t0 = vms_now_mono();
	vms_sleep(0.5, NULL);
	tk = vms_now_mono();
	kill(vms_probe_pid(p), SIGKILL);
	vms_sleep(0.5, NULL);
	t1 = vms_now_mono();
	assert_false(vms_probe_alive(p));
	d = vms_probe_window(p, t0, t1, m, 0);
	g = json_array_get(json_object_get(d, "gaps"), 0);
	assert_non_null(g);
	assert_string_equal(json_string_value(json_object_get(g, "cause")), "probe_died");
	/* silence from when its buffer ran out (at most one 100 ms buffer after the kill; earlier
	 * if a loaded machine starved it before) to the window's end, never beyond the window */
	gap_ms = metric(m, "gap_total_ms", 0);
	assert_true(gap_ms >= (t1 - tk - 0.1) * 1000 - 1);
	assert_true(gap_ms <= (t1 - t0) * 1000 + 1);
	assert_float_equal(metric(m, "played_s", 0), metric(m, "window_s", 0) - gap_ms / 1000,
	                   0.002);
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
