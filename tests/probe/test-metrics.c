/* Unit tests of the probe's pure parts: the cause rules on synthetic evidence and the window
 * metrics (clipping, skips, played, rating, lateness percentiles, headroom) on synthetic
 * records, and the write size that keeps the ring on period boundaries. No kernel paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "audio-probe/probe-internal.h"

static void test_cause_rules(void **state)
{
	struct vms_gap_evidence e;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.late_ms = 200;
	assert_int_equal(vms_probe_classify(&e, NULL), VMS_CAUSE_UNEXPLAINED);
	e.majflt = 1;
	e.runq_ms = 190; /* paging wins over everything */
	e.psi_io_ms = 500;
	assert_int_equal(vms_probe_classify(&e, NULL), VMS_CAUSE_PAGING);
	e.majflt = 0;
	assert_int_equal(vms_probe_classify(&e, NULL), VMS_CAUSE_RUNQUEUE);
	e.runq_ms = 100; /* exactly half the lateness */
	assert_int_equal(vms_probe_classify(&e, NULL), VMS_CAUSE_RUNQUEUE);
	e.runq_ms = 99;
	assert_int_equal(vms_probe_classify(&e, NULL), VMS_CAUSE_IO);
	e.psi_io_ms = 19; /* below 10 % of the lateness: not io */
	e.cpu_ms = 150;
	assert_int_equal(vms_probe_classify(&e, NULL), VMS_CAUSE_DECODE);
	e.cpu_ms = 99;
	assert_int_equal(vms_probe_classify(&e, NULL), VMS_CAUSE_UNEXPLAINED);
	e.psi_io_ms = 20;
	assert_int_equal(vms_probe_classify(&e, NULL), VMS_CAUSE_IO);
	memset(&e, 0, sizeof(e)); /* never late: runqueue/decode need lateness */
	e.runq_ms = 5;
	e.cpu_ms = 5;
	assert_int_equal(vms_probe_classify(&e, NULL), VMS_CAUSE_UNEXPLAINED);
	assert_string_equal(vms_cause_name(VMS_CAUSE_RUNQUEUE), "runqueue");
	assert_string_equal(vms_cause_name(VMS_CAUSE_IO), "io");
}

/* The delay-accounting rules: the largest memory delay covering half the lateness, then
 * run-queue, block I/O, own CPU; the delay that names the cause is returned. */
static void test_cause_rules_delayacct(void **state)
{
	struct vms_gap_evidence e;
	double d = -1;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.delayacct = 1;
	e.late_ms = 400;
	e.majflt = 3; /* no "paging" with delay accounting: the delays say what it waited for */
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_UNEXPLAINED);
	assert_true(d == 0);
	e.runq_ms = 250;
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_RUNQUEUE);
	assert_true(d == 250);
	e.reclaim_ms = 200; /* exactly half: a memory delay comes before run-queue */
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_RECLAIM);
	assert_true(d == 200);
	e.swapin_ms = 210; /* the largest memory delay */
	e.io_ms = 380;     /* a swap-in's wait for I/O counts as block I/O too */
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_SWAPIN);
	assert_true(d == 210);
	e.thrashing_ms = 300;
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_THRASHING);
	e.compaction_ms = 301;
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_COMPACTION);
	e.swapin_ms = e.reclaim_ms = e.thrashing_ms = e.compaction_ms = 199;
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_RUNQUEUE);
	e.runq_ms = 10;
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_IO);
	assert_true(d == 380);
	e.io_ms = 0;
	e.psi_io_ms = 1000; /* system-wide PSI is not the player's delay */
	e.cpu_ms = 200;
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_DECODE);
	e.cpu_ms = 199;
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_UNEXPLAINED);
	e.late_ms = 0; /* never late: no cause */
	e.swapin_ms = e.thrashing_ms = e.compaction_ms = 0;
	e.reclaim_ms = 50;
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_UNEXPLAINED);
	e.gap_ms = 100; /* a known gap is what the delay must cover, not the lateness */
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_RECLAIM);
	e.gap_ms = 101;
	assert_int_equal(vms_probe_classify(&e, &d), VMS_CAUSE_DECODE);
	assert_int_equal(vms_cause_find("reclaim"), VMS_CAUSE_RECLAIM);
	assert_int_equal(vms_cause_methods(VMS_CAUSE_PAGING), VMS_CAUSE_BY_INFERENCE);
	assert_true(vms_cause_methods(VMS_CAUSE_THRASHING) & VMS_CAUSE_BY_DELAYACCT);
}

static double sample(json_t *m, const char *name)
{
	json_t *s = json_object_get(json_object_get(m, name), "samples");

	assert_non_null(s);
	return json_number_value(json_array_get(s, 0));
}

#define NW 400

static struct vms_wake_rec wakes[NW];

/* 10 s of wakes every 25 ms from t = 100, late by 1 ms except a few. */
static void make_wakes(void)
{
	size_t i;

	for (i = 0; i < NW; i++) {
		wakes[i].t = 100 + 0.025 * (double)i;
		wakes[i].late_ms = 1;
		wakes[i].fill_ms = 80;
	}
	wakes[10].late_ms = 50;
	wakes[11].fill_ms = 10; /* a near miss */
	wakes[200].late_ms = 300;
	wakes[200].fill_ms = 0; /* the underrun wake */
}

static void test_window_gaps(void **state)
{
	struct vms_xrun_rec x[4];
	struct vms_probe_view v;
	json_t *m = json_object(), *d, *gaps;

	(void)state;
	make_wakes();
	memset(x, 0, sizeof(x));
	/* 1: 200 ms at 102.5; 2 and 3: 30 ms each, 20 ms apart (one skip); 4: over t1 */
	x[0].dry = 102.5, x[0].resume = 102.7, x[0].ev.late_ms = 300, x[0].ev.runq_ms = 250;
	x[1].dry = 105.0, x[1].resume = 105.03, x[1].ev.late_ms = 40, x[1].ev.majflt = 3;
	x[2].dry = 105.05, x[2].resume = 105.08, x[2].ev.late_ms = 40;
	x[3].dry = 109.9, x[3].resume = 110.3, x[3].ev.late_ms = 400, x[3].ev.cpu_ms = 300;
	memset(&v, 0, sizeof(v));
	v.wakes = wakes, v.n_wakes = NW, v.xruns = x, v.n_xruns = 4, v.period_ms = 25;
	v.now = 200;

	d = vms_probe_window_compute(&v, 100, 110, m, 0);
	assert_int_equal((int)sample(m, "underruns"), 4);
	assert_int_equal((int)sample(m, "skips"), 3);
	assert_float_equal(sample(m, "gap_total_ms"), 200 + 30 + 30 + 100, 0.01);
	assert_float_equal(sample(m, "gap_longest_ms"), 200, 0.01);
	assert_float_equal(sample(m, "played_s"), 10 - 0.36, 0.001);
	assert_float_equal(sample(m, "window_s"), 10, 0.001);
	/* seconds 2, 5 and 9 are touched: 7 of 10 clean */
	assert_float_equal(sample(m, "sound_rating"), 7.0, 1e-9);
	assert_float_equal(sample(m, "wake_max_ms"), 300, 0.01);
	assert_float_equal(sample(m, "wake_p50_ms"), 1, 0.01);
	assert_float_equal(sample(m, "headroom_min_ms"), 0, 0.01);
	assert_int_equal((int)sample(m, "near_misses"), 1);
	gaps = json_object_get(d, "gaps");
	assert_int_equal(json_array_size(gaps), 4);
	assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 0), "cause")),
	                    "runqueue");
	assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 1), "cause")),
	                    "paging");
	assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 3), "cause")),
	                    "decode");
	/* clipped at t1: 100 ms, never beyond the window */
	assert_float_equal(
	    json_number_value(json_object_get(json_array_get(gaps, 3), "duration_ms")), 100, 0.01);
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(d, "causes"), "unexplained")), 1);
	json_decref(d);

	/* a window inside the first gap: all of it is silence, never negative played */
	d = vms_probe_window_compute(&v, 102.55, 102.65, m, 1);
	assert_true(json_number_value(json_array_get(
	                json_object_get(json_object_get(m, "played_s"), "samples"), 1)) >= 0);
	assert_float_equal(json_number_value(json_array_get(
	                       json_object_get(json_object_get(m, "gap_total_ms"), "samples"), 1)),
	                   100, 0.01);
	assert_float_equal(json_number_value(json_array_get(
	                       json_object_get(json_object_get(m, "sound_rating"), "samples"), 1)),
	                   0, 1e-9);
	json_decref(d);

	/* a window with no gap at all */
	d = vms_probe_window_compute(&v, 106, 109, m, 2);
	assert_float_equal(json_number_value(json_array_get(
	                       json_object_get(json_object_get(m, "sound_rating"), "samples"), 2)),
	                   10, 1e-9);
	assert_float_equal(json_number_value(json_array_get(
	                       json_object_get(json_object_get(m, "underruns"), "samples"), 2)),
	                   0, 1e-9);
	json_decref(d);
	json_decref(m);
}

static void test_window_probe_died(void **state)
{
	struct vms_probe_view v;
	json_t *m = json_object(), *d, *g;

	(void)state;
	make_wakes();
	memset(&v, 0, sizeof(v));
	v.wakes = wakes, v.n_wakes = 100, v.period_ms = 25; /* records end at 102.5 */
	v.last_wake = 102.475;
	v.last_dry = 102.575;
	v.died_at = 103;
	v.now = 200;
	d = vms_probe_window_compute(&v, 100, 104, m, 0);
	assert_float_equal(sample(m, "gap_total_ms"), 1425, 0.01);
	assert_int_equal((int)sample(m, "underruns"), 0);
	assert_int_equal((int)sample(m, "skips"), 1);
	g = json_array_get(json_object_get(d, "gaps"), 0);
	assert_string_equal(json_string_value(json_object_get(g, "cause")), "probe_died");
	assert_non_null(json_object_get(d, "probe_died_at"));
	json_decref(d);
	json_decref(m);
}

static void test_rating_partial_second(void **state)
{
	struct vms_xrun_rec x;
	struct vms_probe_view v;
	json_t *m = json_object(), *d;

	(void)state;
	memset(&v, 0, sizeof(v));
	memset(&x, 0, sizeof(x));
	/* 6.0002 s: six seconds, the sliver belongs to the last; a gap in it touches second 6 */
	x.dry = 6.0001, x.resume = 6.1;
	v.xruns = &x, v.n_xruns = 1, v.period_ms = 25, v.now = 100;
	d = vms_probe_window_compute(&v, 0, 6.0002, m, 0);
	assert_float_equal(sample(m, "sound_rating"), 8.3, 1e-9);
	json_decref(d);
	json_decref(m);
}

/* A device that wakes the player only at its period interrupts (snd-dummy, the virtual clock
 * device, most cards) must find a full period free there: the player writes whole periods. */
static void test_write_size(void **state)
{
	(void)state;
	assert_int_equal(vms_pcm_write_size(941, 941), 941);      /* woken on time */
	assert_int_equal(vms_pcm_write_size(941 + 40, 941), 941); /* late: not the 40 */
	assert_int_equal(vms_pcm_write_size(2 * 941 - 1, 941), 941);
	assert_int_equal(vms_pcm_write_size(2 * 941, 941), 2 * 941);
	assert_int_equal(vms_pcm_write_size(4410, 1102), 4408); /* a restart's refill */
	assert_int_equal(vms_pcm_write_size(940, 941), 940);    /* a batch step a frame short */
	assert_int_equal(vms_pcm_write_size(0, 941), 0);
	assert_int_equal(vms_pcm_write_size(500, 0), 500); /* no period: everything */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cause_rules),
	    cmocka_unit_test(test_cause_rules_delayacct),
	    cmocka_unit_test(test_window_gaps),
	    cmocka_unit_test(test_window_probe_died),
	    cmocka_unit_test(test_rating_partial_second),
	    cmocka_unit_test(test_write_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
