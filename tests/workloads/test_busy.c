/* Unit tests of workloads/busy.c: how a run window's CPU time on the emulated machine's CPUs is
 * split into the suite's, other processes' and the kernel's (vms_busy_apportion), other
 * processes' I/O on the work device (vms_busy_other_io_mb), and real windows measured around a
 * pinned busy child, around a reaper outside the suite and around a writer. */
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "workloads/busy.h"
#include <fcntl.h>

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* One CPU, a 2 s window: the workload alone, with its sys time and a kernel thread's. */
static void test_quiet(void **state)
{
	struct vms_busy_totals t = {.elapsed_s = 2,
	                            .cpus = 1,
	                            .user_s = 0.1,
	                            .sys_s = 1.8,
	                            .suite_user_s = 0.1,
	                            .suite_sys_s = 1.6,
	                            .kthread_seen_s = 0.3,
	                            .prior_share = 0.5};
	struct vms_busy_figures f;

	(void)state;
	vms_busy_apportion(&t, &f);
	NEAR(f.other_s, 0);
	NEAR(f.other_cpu_pct, 0);
	/* the 0.2 s of system time nobody in user space claims is the kernel's, never other */
	NEAR(f.kthread_s, 0.2);
	NEAR(f.kthread_cpu_pct, 10);
}

/* Kernel time beyond every kernel thread's and the interrupts' is processes' the scans missed
 * (a compiler's short-lived children): other, not kernel. */
static void test_unseen_sys(void **state)
{
	struct vms_busy_totals t = {.elapsed_s = 2,
	                            .cpus = 1,
	                            .user_s = 0.5,
	                            .sys_s = 1.3,
	                            .suite_user_s = 0.1,
	                            .suite_sys_s = 0.8,
	                            .split_user_s = 0.4,
	                            .split_sys_s = 0.1,
	                            .kthread_seen_s = 0.05,
	                            .irq_s = 0.05,
	                            .prior_share = 0.5};
	struct vms_busy_figures f;

	(void)state;
	vms_busy_apportion(&t, &f);
	/* other user 0.4 (all of the split processes' user time: share 1), sys 0.1; of the 0.5 s
	 * of kernel time left, kernel threads and interrupts can have had 0.1 */
	NEAR(f.split_share, 1);
	NEAR(f.other_s, 0.8);
	NEAR(f.kthread_s, 0.1);
	/* with kernel threads that ran long enough, the kernel keeps the rest */
	t.kthread_seen_s = 1;
	vms_busy_apportion(&t, &f);
	NEAR(f.other_s, 0.5);
	NEAR(f.kthread_s, 0.4);
}

/* A competitor pinned to the CPU: its user and system time count whole. */
static void test_pinned(void **state)
{
	struct vms_busy_totals t = {.elapsed_s = 2,
	                            .cpus = 1,
	                            .user_s = 0.5,
	                            .sys_s = 1.5,
	                            .steal_s = 0.02,
	                            .suite_user_s = 0.1,
	                            .suite_sys_s = 1.3,
	                            .in_user_s = 0.4,
	                            .in_sys_s = 0.1,
	                            .kthread_seen_s = 0.1,
	                            .prior_share = 0.5};
	struct vms_busy_figures f;

	(void)state;
	vms_busy_apportion(&t, &f);
	NEAR(f.other_s, 0.5);
	NEAR(f.other_cpu_pct, 25);
	NEAR(f.kthread_s, 0.1);
	NEAR(f.steal_pct, 1);
}

/* An unpinned process that spent a quarter of its user time here: a quarter of its system
 * time is counted too. */
static void test_split(void **state)
{
	struct vms_busy_totals t = {.elapsed_s = 1,
	                            .cpus = 1,
	                            .user_s = 0.3,
	                            .sys_s = 0.7,
	                            .suite_user_s = 0.1,
	                            .suite_sys_s = 0.5,
	                            .split_user_s = 0.8,
	                            .split_sys_s = 0.4,
	                            .irq_s = 0.1,
	                            .prior_share = 0.5};
	struct vms_busy_figures f;

	(void)state;
	vms_busy_apportion(&t, &f);
	assert_true(f.share_from_user);
	NEAR(f.split_share, 0.25);
	NEAR(f.other_s, 0.2 + 0.1);
	NEAR(f.kthread_s, 0.1);
	/* no user time to tell where it ran: the CPUs' share among all */
	t.user_s = 0.1;
	t.split_user_s = 0;
	vms_busy_apportion(&t, &f);
	assert_false(f.share_from_user);
	NEAR(f.split_share, 0.5);
	NEAR(f.other_s, 0.2);
	/* never more than the CPUs' time less the suite's, never below 0 */
	t.split_sys_s = 10;
	vms_busy_apportion(&t, &f);
	NEAR(f.other_s, 0.2);
	NEAR(f.kthread_s, 0);
	t.suite_user_s = 5;
	t.suite_sys_s = 5;
	vms_busy_apportion(&t, &f);
	NEAR(f.other_s, 0);
	NEAR(f.kthread_s, 0);
	/* an empty window */
	memset(&t, 0, sizeof(t));
	vms_busy_apportion(&t, &f);
	NEAR(f.other_cpu_pct, 0);
}

/* A real window: this process's child spins pinned to the last CPU we may use; measured as
 * the suite's (it is our descendant), never as another process's. */
static void test_real_window(void **state)
{
	cpu_set_t set, one;
	struct vms_busy *b;
	struct rusage ru;
	char list[16];
	json_t *o;
	int st, cpu;
	size_t i;
	pid_t pid;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (cpu = CPU_SETSIZE - 1; cpu >= 0 && !CPU_ISSET(cpu, &set); cpu--)
		;
	snprintf(list, sizeof(list), "%d", cpu);
	b = vms_busy_begin(list, NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		double t0 = vms_now_mono();

		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
		while (vms_now_mono() - t0 < 0.5)
			;
		_exit(0);
	}
	usleep(100000);
	vms_busy_sample_wait(b, pid);
	assert_int_equal(wait4(pid, &st, 0, &ru), pid);
	vms_busy_end(b, &ru);
	o = vms_busy_json(b, 5);
	assert_string_equal(json_string_value(json_object_get(o, "cpu_list")), list);
	assert_int_equal(json_integer_value(json_object_get(o, "cpus")), 1);
	assert_true(json_is_number(json_object_get(o, "other_cpu_pct")));
	assert_true(json_is_number(json_object_get(o, "cpu_wait_pct")));
	assert_true(json_is_array(json_object_get(o, "others")));
	/* the child's time is the suite's (it is our descendant), never another process's */
	assert_true(json_number_value(json_object_get(json_object_get(o, "cpu_s"), "suite")) >=
	            (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	                (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6 - 0.001);
	for (i = 0; i < json_array_size(json_object_get(o, "others")); i++)
		assert_int_not_equal(json_integer_value(json_object_get(
		                         json_array_get(json_object_get(o, "others"), i), "pid")),
		                     pid);
	json_decref(o);
	vms_busy_free(b);
}

/* Spins in user mode until this process has used sec seconds of CPU. */
static void spin_cpu(double sec)
{
	volatile unsigned long n = 0;
	struct timespec t;

	do { /* a clock read per 2^20 additions: nearly all of it user time */
		while (++n & 0xfffff)
			;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((double)t.tv_sec + (double)t.tv_nsec / 1e9 < sec);
}

/* Processes outside the suite, pinned to the emulated CPU: X reaps, inside the window, its
 * child M, which reaped its child G there, which spun 0.5 s before the window; X's other child
 * Y spins 0.3 s in it. G's whole life lands in M's and then X's cutime, but only what ran in
 * the window may count: X ran nearly nothing there (seen before as "bash 588.5"), and no
 * process takes more than all other processes took. */
static void test_reaped_before_window(void **state)
{
	int ready[2], go[2], hold[2];
	double window, other, pct;
	cpu_set_t set, one;
	struct rusage ru;
	struct vms_busy *b;
	char list[16], c, d;
	json_t *o, *others, *e;
	pid_t a, x = 0;
	int st, cpu;
	size_t i;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (cpu = CPU_SETSIZE - 1; cpu >= 0 && !CPU_ISSET(cpu, &set); cpu--)
		;
	snprintf(list, sizeof(list), "%d", cpu);
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(hold), 0);
	a = fork();
	assert_true(a >= 0);
	if (a == 0) { /* A: leaves X orphaned, so that X is not the suite (our descendant) */
		pid_t g, y;

		if (fork())
			_exit(0);
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
		close(ready[0]), close(go[1]), close(hold[1]);
		x = getpid();
		if (write(ready[1], &x, sizeof(x)) != sizeof(x))
			_exit(1);
		g = fork();
		if (g == 0) { /* M, which G's time reaches X through */
			pid_t gg = fork();

			if (gg == 0) { /* G: spins before the window, exits in it */
				spin_cpu(0.5);
				_exit(write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) < 0);
			}
			_exit(gg < 0 || waitpid(gg, &st, 0) != gg);
		}
		y = fork();
		if (y == 0) { /* Y: spins in the window, lives on */
			if (read(go[0], &c, 1) < 0)
				_exit(1);
			spin_cpu(0.3);
			if (write(ready[1], "y", 1) != 1)
				_exit(1);
			while (read(hold[0], &c, 1) > 0)
				;
			_exit(0);
		}
		if (g < 0 || y < 0 || waitpid(g, &st, 0) != g || write(ready[1], "d", 1) != 1)
			_exit(1);
		while (read(hold[0], &c, 1) > 0) /* until the test is done */
			;
		_exit(0);
	}
	close(ready[1]), close(go[0]), close(hold[0]);
	assert_int_equal(waitpid(a, &st, 0), a);
	assert_int_equal(read(ready[0], &x, sizeof(x)), sizeof(x));
	assert_int_equal(read(ready[0], &c, 1), 1); /* G has spun */
	assert_int_equal(c, 'r');
	b = vms_busy_begin(list, NULL);
	close(go[1]); /* G exits and X reaps it; Y spins */
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(read(ready[0], &d, 1), 1);
	assert_true((c == 'd' && d == 'y') || (c == 'y' && d == 'd'));
	memset(&ru, 0, sizeof(ru));
	vms_busy_end(b, &ru);
	close(hold[1]); /* X and Y exit */
	close(ready[0]);
	o = vms_busy_json(b, 5);
	window = json_number_value(json_object_get(json_object_get(o, "cpu_s"), "window"));
	other = json_number_value(json_object_get(o, "other_cpu_pct"));
	others = json_object_get(o, "others");
	print_message("window %.3f s, other_cpu_pct %.1f\n", window, other);
	for (i = 0; i < json_array_size(others); i++) {
		e = json_array_get(others, i);
		pct = json_number_value(json_object_get(e, "cpu_pct"));
		print_message("  %s (%ld%s): %.1f %%\n",
		              json_string_value(json_object_get(e, "comm")),
		              (long)json_integer_value(json_object_get(e, "pid")),
		              json_integer_value(json_object_get(e, "pid")) == x ? ", X" : "", pct);
		assert_true(pct <= 100);
		assert_true(pct <= other + 1e-9);
		/* X: its own time and G's since the first scan, nearly none: 3 ticks at most */
		if (json_integer_value(json_object_get(e, "pid")) == x)
			assert_true(pct / 100 * window <= 0.03);
	}
	json_decref(o);
	vms_busy_free(b);
}

/* Device - suite - swap, reads and writes apart, in MiB, never below 0. */
static void test_io_arithmetic(void **state)
{
	struct vms_busy_io_totals t = {
	    .device_read = 3072, .device_written = 1024, .suite_read = 1024, .suite_written = 1024};

	(void)state;
	NEAR(vms_busy_other_io_mb(&t), 1); /* 2048 sectors of 512 bytes */
	t.swap_in = 1024;
	NEAR(vms_busy_other_io_mb(&t), 0.5);
	t.swap_out = 1024; /* more swap-out than the device wrote: 0, not -0.5 */
	NEAR(vms_busy_other_io_mb(&t), 0.5);
	/* the workload dirtied pages that were still dirty at the end: more of its own writes
	 * than the device saw, never negative, and never hiding another's reads */
	t = (struct vms_busy_io_totals){
	    .device_read = 4096, .device_written = 2048, .suite_written = 1048576};
	NEAR(vms_busy_other_io_mb(&t), 2);
	t = (struct vms_busy_io_totals){0};
	NEAR(vms_busy_other_io_mb(&t), 0);
}

/* Writes mib MiB of a file in dir and syncs it to the device. */
static void write_synced(const char *dir, int mib)
{
	static char block[1 << 20];
	char path[256];
	int fd, i;

	snprintf(path, sizeof(path), "%s/busy-io-XXXXXX", dir);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	memset(block, 0x5a, sizeof(block));
	for (i = 0; i < mib; i++)
		assert_int_equal(write(fd, block, sizeof(block)), (ssize_t)sizeof(block));
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

/* A real window on the device of the current directory: the workload child's own writes are
 * the suite's; what the test process writes meanwhile is another process's. Other processes on
 * the machine only add to it, so the bounds are one-sided. */
static void test_io_window(void **state)
{
	struct vms_busy *b;
	struct rusage ru;
	json_t *o, *io;
	int st;
	pid_t pid;

	(void)state;
	b = vms_busy_begin(NULL, ".");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		write_synced(".", 8);
		_exit(0);
	}
	assert_int_equal(wait4(pid, &st, 0, &ru), pid);
	write_synced(".", 16); /* a writer beside the workload */
	vms_busy_end(b, &ru);
	vms_busy_swap(b, 0, 0);
	o = vms_busy_json(b, 5);
	io = json_object_get(o, "io");
	if (json_is_null(io)) { /* tmpfs or btrfs under the build directory: nothing to measure */
		json_decref(o);
		vms_busy_free(b);
		skip();
	}
	/* the child's 8 MiB are its own (rusage oublock), the test's 16 MiB another's */
	assert_true(json_number_value(json_object_get(io, "suite_mb")) >= 7.5);
	assert_true(json_number_value(json_object_get(io, "device_mb")) >= 23);
	assert_true(json_number_value(json_object_get(o, "other_io_mb")) >= 12);
	json_decref(o);
	vms_busy_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_quiet),         cmocka_unit_test(test_pinned),
	    cmocka_unit_test(test_unseen_sys),    cmocka_unit_test(test_split),
	    cmocka_unit_test(test_real_window),   cmocka_unit_test(test_reaped_before_window),
	    cmocka_unit_test(test_io_arithmetic), cmocka_unit_test(test_io_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
