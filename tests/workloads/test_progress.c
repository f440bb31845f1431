/* Unit tests of the progress lines (workloads/progress.c) with a clock of our own: the position
 * in the whole suite, the time-left estimate from the runs so far, one line per finished run
 * without carriage returns off a terminal, and the live line only on one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/progress.h"

static const char *const names[] = {"mmap001", "mtest01"};

struct sink {
	char *buf;
	size_t len;
	FILE *f;
};

static void sink_open(struct sink *s)
{
	s->buf = NULL;
	s->len = 0;
	s->f = open_memstream(&s->buf, &s->len);
	assert_non_null(s->f);
}

static void sink_close(struct sink *s)
{
	fclose(s->f);
	free(s->buf);
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;
	const char *p;

	for (p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* one run from t0 to t1 (its workload took `took` seconds) */
static void one_run(struct vms_progress *p, size_t item, long index, long runs, double t0,
                    double t1, double took)
{
	vms_progress_start(p, item, names[item], NULL, index, runs, t0);
	vms_progress_end(p, "ok", 0, took, t1);
}

static void estimate(void **state)
{
	long planned[] = {2, 3};
	struct vms_progress p;
	struct sink s;

	(void)state;
	sink_open(&s);
	vms_progress_init(&p, VMS_PROGRESS_LINES, s.f, 2, 1, planned, 0, NULL);
	assert_int_equal(vms_progress_total(&p), 5);
	assert_true(vms_progress_left(&p, 0) < 0); /* nothing finished: no estimate */
	one_run(&p, 0, 0, 2, 0, 2, 1.9);
	/* mmap001: 1 more at 2 s; mtest01 has no run yet: 3 at the mean of all, 2 s */
	assert_float_equal(vms_progress_left(&p, 2), 8, 1e-9);
	one_run(&p, 0, 1, 2, 2, 6, 3.9);
	assert_float_equal(vms_progress_left(&p, 6), 9, 1e-9); /* 3 x the mean 3 s */
	one_run(&p, 1, 0, 3, 6, 16, 9.9);
	assert_float_equal(vms_progress_left(&p, 16), 20, 1e-9); /* mtest01's own mean now */
	/* during run 2 of mtest01, 4 s in: 6 s more of it, then one of 10 s */
	vms_progress_start(&p, 1, names[1], NULL, 1, 3, 16);
	assert_float_equal(vms_progress_left(&p, 20), 16, 1e-9);
	/* a run longer than the mean: no negative rest */
	assert_float_equal(vms_progress_left(&p, 40), 10, 1e-9);
	vms_progress_release(&p);
	sink_close(&s);
}

static void lines_off_a_terminal(void **state)
{
	long planned[] = {2, 1};
	struct vms_progress p;
	struct sink s;

	(void)state;
	sink_open(&s);
	vms_progress_init(&p, VMS_PROGRESS_LINES, s.f, 2, 1, planned, 0, NULL);
	vms_progress_header(&p, names);
	/* the header is there at once, before any run */
	assert_string_equal(s.buf, "vmsuite: suite of 3 runs: mmap001 x 2, mtest01 x 1\n");
	vms_progress_start(&p, 0, names[0], NULL, 0, 2, 0);
	vms_progress_tick(&p, 1.0, -1, 1.0); /* no live line off a terminal */
	vms_progress_tick(&p, 2.0, 3, 2.0);
	vms_progress_end(&p, "ok", 0, 2.5, 3);
	vms_progress_start(&p, 0, names[0], NULL, 1, 2, 3);
	vms_progress_end(&p, "failed", 1, 0.25, 4);
	vms_progress_start(&p, 1, names[1], NULL, 0, 1, 4);
	vms_progress_end(&p, "ok", 0, 1.0, 6);
	assert_string_equal(s.buf,
	                    "vmsuite: suite of 3 runs: mmap001 x 2, mtest01 x 1\n"
	                    "vmsuite: [1/3] mmap001 run 1/2: ok in 2.50 s, about 6.0 s left\n"
	                    "vmsuite: [2/3] mmap001 run 2/2: failed (disturbed) in 0.25 s, about "
	                    "2.0 s left\n"
	                    "vmsuite: [3/3] mtest01 run 1/1: ok in 1.00 s\n");
	assert_int_equal(count(s.buf, "\r"), 0);
	vms_progress_release(&p);
	sink_close(&s);
}

static void live_line_on_a_terminal(void **state)
{
	long planned[] = {1, 2};
	struct vms_progress p;
	struct sink s;
	size_t before;

	(void)state;
	sink_open(&s);
	vms_progress_init(&p, VMS_PROGRESS_TTY, s.f, 2, 2, planned, 0, NULL);
	vms_progress_header(&p, names);
	assert_string_equal(s.buf, "vmsuite: suite of 6 runs: mmap001 x 1, mtest01 x 2, under each "
	                           "of 2 variants\n");
	before = s.len;
	vms_progress_start(&p, 0, names[0], "thp=off", 0, 1, 0);
	vms_progress_tick(&p, 0.1, -1, 0.1); /* the first tick draws */
	assert_non_null(strstr(s.buf + before, "\r\033[Kvmsuite: [1/6] mmap001 [thp=off] run 1/1  "
	                                       "0.1 s"));
	before = s.len;
	vms_progress_tick(&p, 0.4, -1, 0.4); /* too soon after it: nothing */
	fflush(s.f);
	assert_int_equal(s.len, before);
	vms_progress_tick(&p, 0.6, 7, 0.6);
	assert_non_null(strstr(s.buf + before, "\r\033[Kvmsuite: [1/6] mmap001 [thp=off] run 1/1  "
	                                       "0.6 s  underruns so far: 7"));
	before = s.len;
	vms_progress_end(&p, "ok", 0, 0.9, 1);
	/* the live line is cleared, the run's line stays */
	assert_string_equal(s.buf + before, "\r\033[Kvmsuite: [1/6] mmap001 [thp=off] run 1/1: ok "
	                                    "in 0.90 s, about 5.0 s left\n");
	vms_progress_start(&p, 0, names[0], "thp=kernel", 0, 1, 1);
	vms_progress_tick(&p, 0.5, -1, 1.6);
	assert_non_null(
	    strstr(s.buf, "[2/6] mmap001 [thp=kernel] run 1/1  0.5 s  about 4.4 s left"));
	/* a run that did not start after all: its live line goes, no line, no count */
	before = s.len;
	vms_progress_cancel(&p);
	assert_string_equal(s.buf + before, "\r\033[K");
	vms_progress_start(&p, 1, names[1], "thp=off", 0, 2, 2);
	vms_progress_end(&p, "interrupted", 0, 0.1, 2.1);
	assert_non_null(strstr(s.buf, "[2/6] mtest01 [thp=off] run 1/2: interrupted in 0.10 s"));
	vms_progress_release(&p);
	sink_close(&s);
}

static void adaptive_bounds(void **state)
{
	long most[] = {3, 3};
	struct vms_progress p;
	struct sink s;
	char note[32] = "budget 19:58 left";

	(void)state;
	sink_open(&s);
	vms_progress_init(&p, VMS_PROGRESS_TTY, s.f, 2, 1, most, 1, note);
	vms_progress_header(&p, names);
	assert_string_equal(s.buf, "vmsuite: suite in rounds of runs until decided (-n auto): "
	                           "mmap001, mtest01\n");
	most[0] = most[1] = 10; /* the look raised the bounds */
	vms_progress_start(&p, 0, names[0], NULL, 3, 10, 0);
	vms_progress_tick(&p, 0.7, -1, 0.7);
	assert_non_null(strstr(s.buf, "[1/<=20] mmap001 run 4/<=10  budget 19:58 left  0.7 s"));
	assert_null(strstr(s.buf, "about")); /* the budget is the bound, not an estimate */
	vms_progress_end(&p, "ok", 0, 1.0, 1);
	assert_non_null(strstr(s.buf, "[1/<=20] mmap001 run 4/<=10: ok in 1.00 s, budget 19:58 "
	                              "left\n"));
	/* an item skipped: its runs leave the total */
	vms_progress_skip(&p, 1);
	assert_int_equal(vms_progress_total(&p), 10);
	vms_progress_release(&p);
	sink_close(&s);
}

static void clock_of_long_suites(void **state)
{
	long planned[] = {3, 100};
	struct vms_progress p;
	struct sink s;

	(void)state;
	sink_open(&s);
	vms_progress_init(&p, VMS_PROGRESS_LINES, s.f, 1, 1, planned, 0, NULL);
	one_run(&p, 0, 0, 3, 0, 40, 39);
	assert_non_null(strstr(s.buf, ": ok in 39.00 s, about 1:20 left\n"));
	vms_progress_release(&p);
	sink_close(&s);
	sink_open(&s);
	vms_progress_init(&p, VMS_PROGRESS_LINES, s.f, 1, 1, planned + 1, 0, NULL);
	one_run(&p, 0, 0, 100, 0, 90, 89);
	assert_non_null(strstr(s.buf, ": ok in 89.00 s, about 2:28:30 left\n"));
	vms_progress_release(&p);
	sink_close(&s);
}

static void off_prints_nothing(void **state)
{
	long planned[] = {1, 1};
	struct vms_progress p;
	struct sink s;

	(void)state;
	sink_open(&s);
	vms_progress_init(&p, VMS_PROGRESS_OFF, s.f, 2, 1, planned, 0, NULL);
	vms_progress_header(&p, names);
	vms_progress_start(&p, 0, names[0], NULL, 0, 1, 0);
	vms_progress_tick(&p, 1, -1, 1);
	vms_progress_end(&p, "ok", 0, 1, 1);
	vms_progress_line(&p, "look %d", 1);
	fflush(s.f);
	assert_int_equal(s.len, 0);
	vms_progress_release(&p);
	sink_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(estimate),
	    cmocka_unit_test(lines_off_a_terminal),
	    cmocka_unit_test(live_line_on_a_terminal),
	    cmocka_unit_test(adaptive_bounds),
	    cmocka_unit_test(clock_of_long_suites),
	    cmocka_unit_test(off_prints_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
