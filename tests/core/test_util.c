/* Unit tests of core/util.c: size, duration and number parsing, size formatting, atomic writes,
 * seconds of a timeval. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

static void test_parse_size(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(vms_parse_size("2048000000", &v), 0);
	assert_int_equal(v, 2048000000ULL);
	assert_int_equal(vms_parse_size("256M", &v), 0);
	assert_int_equal(v, 256ULL << 20);
	assert_int_equal(vms_parse_size("1G", &v), 0);
	assert_int_equal(v, 1ULL << 30);
	assert_int_equal(vms_parse_size("4k", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(vms_parse_size("1.5G", &v), 0);
	assert_int_equal(v, 3ULL << 29);
	assert_int_equal(vms_parse_size("512MiB", &v), 0);
	assert_int_equal(v, 512ULL << 20);
	assert_int_equal(vms_parse_size("100B", &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(vms_parse_size("", &v), -EINVAL);
	assert_int_equal(vms_parse_size("lots", &v), -EINVAL);
	assert_int_equal(vms_parse_size("-1", &v), -EINVAL);
	assert_int_equal(vms_parse_size("12Q", &v), -EINVAL);
	assert_int_equal(vms_parse_size("1.5", &v), -EINVAL);
	assert_int_equal(vms_parse_size("99999999999999999999", &v), -ERANGE);
	assert_int_equal(vms_parse_size("99999999999T", &v), -ERANGE);
}

/* Sizes are decimal digits, an optional fraction and a suffix: no exponent, hex, sign, blank,
 * inf or nan, and nothing beyond 64 bits, whatever strtod would make of it. */
static void test_parse_size_strict(void **state)
{
	static const char *const junk[] = {
	    "1.5e3G", "1.54E444G", "1.0e400K", "1e3",   "1E3",    "0x10",    "0X10", "inf",
	    "nan",    "INF",       "infinity", " 1",    "1 ",     "+1",      "+1G",  "1\n",
	    "\t1K",   ".5K",       "5.",       "5.K",   "1.5e3",  "1e",      "1.",   ".",
	    "K",      "1..5K",     "1.5.5K",   "1,5K",  "0x1p3K", "1.5 G",   "1G ",  "1GB ",
	    "1KiBB",  "1iB",       "1.0x",     "1.5ei", "nanK",   "1.5e-3K",
	};
	uint64_t v = 42;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		v = 42;
		if (vms_parse_size(junk[i], &v) != -EINVAL)
			fail_msg("'%s' parsed as %llu", junk[i], (unsigned long long)v);
		assert_int_equal(v, 42); /* untouched on failure */
	}
	assert_int_equal(vms_parse_size("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(vms_parse_size("18446744073709551616", &v), -ERANGE);
	assert_int_equal(vms_parse_size("184467440737095516150", &v), -ERANGE);
	assert_int_equal(vms_parse_size("18446744073709551615B", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(vms_parse_size("16777215T", &v), 0); /* 2^64 - 2^40 */
	assert_true(v == UINT64_MAX - ((UINT64_C(1) << 40) - 1));
	assert_int_equal(vms_parse_size("16777216T", &v), -ERANGE);
	assert_int_equal(vms_parse_size("17179869183.9999999G", &v), 0);
	assert_true(v == UINT64_MAX - 107); /* 107.37 bytes short: rounded down */
	assert_int_equal(vms_parse_size("16777215.9999999999999999999999999999999999999999T", &v),
	                 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(vms_parse_size("17179869184G", &v), -ERANGE);
	assert_int_equal(vms_parse_size("1.5G", &v), 0);
	assert_int_equal(v, 1610612736);
	assert_int_equal(vms_parse_size("0.5K", &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(vms_parse_size("0.5k", &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(vms_parse_size("0.1K", &v), 0);
	assert_int_equal(v, 102); /* 102.4 bytes: rounded down */
	assert_int_equal(vms_parse_size("0.0009765625K", &v), 0);
	assert_int_equal(v, 1); /* exactly 2^-10 K */
	assert_int_equal(vms_parse_size("0.0009765624999999999999999K", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(vms_parse_size("2.25MiB", &v), 0);
	assert_int_equal(v, 9ULL << 18);
	assert_int_equal(vms_parse_size("3Ki", &v), 0);
	assert_int_equal(v, 3072);
	assert_int_equal(vms_parse_size("3KB", &v), 0);
	assert_int_equal(v, 3072);
	assert_int_equal(vms_parse_size("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(vms_parse_size("007", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(vms_parse_size("1.0", &v), 0); /* accepted before: a zero fraction */
	assert_int_equal(v, 1);
	assert_int_equal(vms_parse_size("1.000000000000000000000000000000000000000000001T", &v), 0);
	assert_true(v == UINT64_C(1) << 40);
}

static void test_parse_seconds_and_long(void **state)
{
	double d;
	long l;

	(void)state;
	assert_int_equal(vms_parse_seconds("10", &d), 0);
	assert_true(d == 10);
	assert_int_equal(vms_parse_seconds("300ms", &d), 0);
	assert_true(d > 0.2999 && d < 0.3001);
	assert_int_equal(vms_parse_seconds("2m", &d), 0);
	assert_true(d == 120);
	assert_int_equal(vms_parse_seconds("-1", &d), -EINVAL);
	assert_int_equal(vms_parse_seconds("1x", &d), -EINVAL);
	assert_int_equal(vms_parse_long("5", 1, 10, &l), 0);
	assert_int_equal(l, 5);
	assert_int_equal(vms_parse_long("0", 1, 10, &l), -ERANGE);
	assert_int_equal(vms_parse_long("-3", 1, 10, &l), -ERANGE);
	assert_int_equal(vms_parse_long("3x", 1, 10, &l), -EINVAL);
	assert_int_equal(vms_parse_long("", 1, 10, &l), -EINVAL);
}

/* Durations: digits with an optional fraction and unit; exponents, hex, signs, blanks, inf
 * and nan are refused, and so is anything that does not stay finite once scaled. */
static void test_parse_seconds_strict(void **state)
{
	static const char *const junk[] = {
	    "1e3",   "1E3",     "1e400", "0x10", "inf", "nan", "INF",   "infinity",
	    " 1",    "1 ",      "+1",    "1\n",  "",    ".",   "1.2.3", "1es",
	    "0x1p3", "1.5e-3s", "e3",    "1 ms", "ms",  "-0",  "nanms",
	};
	char big[400];
	double d = 42;
	size_t i;
	long l = 42;

	(void)state;
	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		d = 42;
		if (vms_parse_seconds(junk[i], &d) != -EINVAL)
			fail_msg("'%s' parsed as %g", junk[i], d);
		assert_true(d == 42);
	}
	assert_int_equal(vms_parse_seconds(".5", &d), 0); /* both accepted before */
	assert_true(d == 0.5);
	assert_int_equal(vms_parse_seconds("5.", &d), 0);
	assert_true(d == 5);
	assert_int_equal(vms_parse_seconds("2.5", &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(vms_parse_seconds("1.5h", &d), 0);
	assert_true(d == 5400);
	assert_int_equal(vms_parse_seconds("2min", &d), 0);
	assert_true(d == 120);
	assert_int_equal(vms_parse_seconds("0s", &d), 0);
	assert_true(d == 0);
	/* 400 digits do not fit a double: refused, not infinite */
	memset(big, '9', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_not_equal(vms_parse_seconds(big, &d), 0);
	/* finite as seconds, infinite as hours */
	memset(big, '0', sizeof(big));
	memcpy(big, "17", 2);
	memcpy(big + 307, "h", 2);
	assert_int_not_equal(vms_parse_seconds(big, &d), 0);
	assert_int_equal(vms_parse_long("+5", 1, 10, &l), -EINVAL);
	assert_int_equal(vms_parse_long(" 5", 1, 10, &l), -EINVAL);
	assert_int_equal(vms_parse_long("0x5", 1, 10, &l), -EINVAL);
	assert_int_equal(vms_parse_long("5 ", 1, 10, &l), -EINVAL);
	assert_int_equal(vms_parse_long("-", -10, 10, &l), -EINVAL);
	assert_int_equal(vms_parse_long("-5", -10, 10, &l), 0);
	assert_int_equal(l, -5);
	assert_int_equal(vms_parse_long("99999999999999999999", 1, 10, &l), -ERANGE);
}

static void test_format_size(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(vms_format_size(512ULL << 20, buf, sizeof(buf)), "512 MiB");
	assert_string_equal(vms_format_size(1536ULL << 20, buf, sizeof(buf)), "1.5 GiB");
	assert_string_equal(vms_format_size(100, buf, sizeof(buf)), "100 bytes");
}

static void test_write_atomic(void **state)
{
	char dir[] = "/tmp/vms-test-XXXXXX", path[64];
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.json", dir);
	assert_int_equal(vms_write_atomic(path, "{}\n", 3, 0), 0);
	text = vms_read_text(path);
	assert_string_equal(text, "{}\n");
	free(text);
	/* replacing keeps only the new content, and no temp file stays behind */
	assert_int_equal(vms_write_atomic(path, "[1]\n", 4, 0), 0);
	text = vms_read_text(path);
	assert_string_equal(text, "[1]\n");
	free(text);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0); /* fails if a temp file was left */
	/* a directory that does not exist: error, nothing created */
	assert_int_equal(vms_write_atomic("/nonexistent-dir/x.json", "x", 1, 0), -ENOENT);
}

static void test_parse_u64(void **state)
{
	const char *end;
	uint64_t v;

	(void)state;
	assert_int_equal(vms_parse_u64("0", NULL, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(vms_parse_u64("4096\n", NULL, &v), 0); /* as read from a file */
	assert_int_equal(v, 4096);
	assert_int_equal(vms_parse_u64(" \t42", NULL, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(vms_parse_u64("18446744073709551615", NULL, &v), 0);
	assert_true(v == UINT64_MAX);
	/* cgroup v2's "no limit" */
	v = 0;
	assert_int_equal(vms_parse_u64("max\n", NULL, &v), 0);
	assert_true(v == UINT64_MAX);
	v = 7;
	assert_int_equal(vms_parse_u64("maximum", NULL, &v), -EINVAL);
	assert_int_equal(vms_parse_u64("max_usage", NULL, &v), -EINVAL);
	/* overflow, just past 2^64 - 1 and far past it */
	assert_int_equal(vms_parse_u64("18446744073709551616", NULL, &v), -ERANGE);
	assert_int_equal(vms_parse_u64("18446744073709551620", NULL, &v), -ERANGE);
	assert_int_equal(vms_parse_u64("99999999999999999999999", NULL, &v), -ERANGE);
	/* signs: strtoull would turn "-1" into 2^64 - 1 */
	assert_int_equal(vms_parse_u64("-1", NULL, &v), -EINVAL);
	assert_int_equal(vms_parse_u64("+1", NULL, &v), -EINVAL);
	/* nothing, or trailing garbage */
	assert_int_equal(vms_parse_u64("", NULL, &v), -EINVAL);
	assert_int_equal(vms_parse_u64(" ", NULL, &v), -EINVAL);
	assert_int_equal(vms_parse_u64("12abc", NULL, &v), -EINVAL);
	assert_int_equal(vms_parse_u64("12 kB", NULL, &v), -EINVAL);
	assert_int_equal(vms_parse_u64("0x10", NULL, &v), -EINVAL);
	assert_int_equal(vms_parse_u64("1.5", NULL, &v), -EINVAL);
	assert_int_equal(v, 7); /* untouched on failure */
	/* with end, the caller decides what may follow */
	assert_int_equal(vms_parse_u64("12 kB", &end, &v), 0);
	assert_int_equal(v, 12);
	assert_string_equal(end, " kB");
	assert_int_equal(vms_parse_u64("max 3", &end, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_string_equal(end, " 3");
	assert_int_equal(vms_parse_u64("x1", &end, &v), -EINVAL);
	assert_int_equal(vms_parse_u64("maximum", &end, &v), -EINVAL); /* a word, not "max" */
	assert_int_equal(vms_parse_u64("max_usage 3", &end, &v), -EINVAL);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_read_u64(void **state)
{
	char dir[] = "/tmp/vms-test-XXXXXX", path[64], buf[8];
	uint64_t v;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/knob", dir);
	put(path, "536870912\n");
	assert_int_equal(vms_read_u64(path, &v), 0);
	assert_true(v == 536870912);
	put(path, "max\n");
	assert_int_equal(vms_read_u64(path, &v), 0);
	assert_true(v == UINT64_MAX);
	put(path, "12 kB\n");
	assert_int_equal(vms_read_u64(path, &v), -EINVAL);
	put(path, "");
	assert_int_equal(vms_read_u64(path, &v), -EINVAL);
	/* vms_read_small() stops at the buffer and terminates it */
	put(path, "0123456789");
	assert_int_equal(vms_read_small(path, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "0123456");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(vms_read_u64(path, &v), -ENOENT);
	assert_int_equal(vms_read_small(path, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(rmdir(dir), 0);
}

static void test_write_text(void **state)
{
	char dir[] = "/tmp/vms-test-XXXXXX", path[64];
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/knob", dir);
	/* a control file is never created */
	assert_int_equal(vms_write_text(path, "1"), -ENOENT);
	assert_int_equal(access(path, F_OK), -1);
	/* as `echo -n`: the new value replaces the old one */
	put(path, "12345\n");
	assert_int_equal(vms_write_text(path, "9\n"), 0);
	text = vms_read_text(path);
	assert_string_equal(text, "9\n");
	free(text);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	/* a failed write is reported (the kernel rejects values this way) */
	assert_int_equal(vms_write_text("/dev/full", "3\n"), -ENOSPC);
}

/* Runs fn with stderr sent to a file and returns what it printed (caller frees). */
static char *capture_stderr(int (*fn)(void), int *ret)
{
	char path[] = "/tmp/vms-stderr-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	char *text;

	assert_true(fd >= 0 && saved >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	*ret = fn();
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	close(fd);
	text = vms_read_text(path);
	unlink(path);
	assert_non_null(text);
	return text;
}

static int report_einval(void)
{
	return vms_error_ret(-EINVAL, "cannot use '%s': %s", "x", "bad");
}

static int report_usage(void)
{
	return vms_error_ret(VMS_EXIT_USAGE, "no %s", "file");
}

/* an rusage's times: whole seconds plus microseconds */
static void test_timeval_seconds(void **state)
{
	struct timeval t = {.tv_sec = 3, .tv_usec = 250000}, zero = {0};

	(void)state;
	assert_true(vms_timeval_seconds(&t) == 3.25);
	assert_true(vms_timeval_seconds(&zero) == 0);
	t.tv_usec = 999999;
	assert_true(fabs(vms_timeval_seconds(&t) - 3.999999) < 1e-12);
}

static void test_edit_distance(void **state)
{
	char long_name[80];

	(void)state;
	assert_int_equal(vms_edit_distance("", ""), 0);
	assert_int_equal(vms_edit_distance("machine", "machine"), 0);
	assert_int_equal(vms_edit_distance("machien", "machine"), 1); /* a swap is one edit */
	assert_int_equal(vms_edit_distance("lable", "label"), 1);
	assert_int_equal(vms_edit_distance("ca", "abc"), 3); /* no edit of a swapped pair */
	assert_int_equal(vms_edit_distance("latancy", "latency"), 1);
	assert_int_equal(vms_edit_distance("", "run"), 3);
	assert_int_equal(vms_edit_distance("kitten", "sitting"), 3);
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_true(vms_edit_distance(long_name, "a") == SIZE_MAX);
}

static void test_error_ret(void **state)
{
	char *text;
	int ret;

	(void)state;
	text = capture_stderr(report_einval, &ret);
	assert_int_equal(ret, -EINVAL);
	assert_string_equal(text, "vmsuite: cannot use 'x': bad\n");
	free(text);
	text = capture_stderr(report_usage, &ret);
	assert_int_equal(ret, VMS_EXIT_USAGE);
	assert_string_equal(text, "vmsuite: no file\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_size),
	    cmocka_unit_test(test_parse_seconds_and_long),
	    cmocka_unit_test(test_format_size),
	    cmocka_unit_test(test_write_atomic),
	    cmocka_unit_test(test_error_ret),
	    cmocka_unit_test(test_timeval_seconds),
	    cmocka_unit_test(test_parse_u64),
	    cmocka_unit_test(test_read_u64),
	    cmocka_unit_test(test_write_text),
	    cmocka_unit_test(test_parse_size_strict),
	    cmocka_unit_test(test_parse_seconds_strict),
	    cmocka_unit_test(test_edit_distance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
