/* Unit tests of the SVG writer behind the HTML report: escaping, nice ticks, scales, tick
 * labels, and the min/max downsampling that keeps spikes of long series. No kernel paths. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/svg.h"

static char *render(void (*fn)(FILE *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	fn(m, arg);
	assert_int_equal(fclose(m), 0);
	return buf;
}

static void esc_fn(FILE *f, void *arg)
{
	vms_xml_escape(f, arg);
}

static void test_escape(void **state)
{
	char *out = render(esc_fn, "a<b>&\"c'\xe2\x80\x94");

	(void)state;
	assert_string_equal(out, "a&lt;b&gt;&amp;&quot;c&#39;\xe2\x80\x94");
	free(out);
}

static void svg_fn(FILE *f, void *arg)
{
	static const double x[] = {0, 1, 2, 3, 4}, y[] = {5, NAN, 7, 8, 9};
	struct vms_svg s;

	(void)arg;
	vms_svg_begin(&s, f, 100, 50, "chart", "a <label>");
	vms_svg_group_begin(&s, "panel", 0, 10);
	vms_svg_rect(&s, 1, 2, 3, 4, "gap gap-io", "gap of 40 ms & more");
	vms_svg_path(&s, x, y, 5, "s0");
	vms_svg_text(&s, 10, 20, "middle", -90, "axis", "MiB");
	/* the group is left open on purpose: end closes it */
	vms_svg_end(&s);
}

static void test_svg_elements(void **state)
{
	char *out = render(svg_fn, NULL);

	(void)state;
	assert_non_null(strstr(out, "viewBox=\"0 0 100.0 50.0\""));
	assert_non_null(strstr(out, "aria-label=\"a &lt;label&gt;\""));
	assert_non_null(strstr(out, "<g class=\"panel\" transform=\"translate(0.0,10.0)\">"));
	assert_non_null(strstr(out, "<title>gap of 40 ms &amp; more</title></rect>"));
	/* NAN breaks the line: a new subpath starts after it */
	assert_non_null(strstr(out, "<path d=\"M0.0 5.0M2.0 7.0L3.0 8.0L4.0 9.0\" class=\"s0\"/>"));
	assert_non_null(strstr(out, "transform=\"rotate(-90.0 10.0 20.0)\""));
	assert_non_null(strstr(out, "</g>\n</svg>\n"));
	free(out);
}

static void check_ticks(double lo, double hi, size_t max)
{
	double t[32], step, m;
	size_t n = vms_nice_ticks(lo, hi, max, t, &step), i;

	assert_true(n >= 2 && n <= max + 1);
	assert_true(t[0] <= lo + 1e-9 * fabs(lo));
	assert_true(t[n - 1] >= hi - 1e-9 * fabs(hi));
	m = step / pow(10, floor(log10(step) + 1e-12));
	assert_true(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9);
	for (i = 1; i < n; i++)
		assert_true(fabs(t[i] - t[i - 1] - step) < step * 1e-9);
}

static void test_nice_ticks(void **state)
{
	double t[8], step;
	size_t n;

	(void)state;
	n = vms_nice_ticks(0, 97, 4, t, &step);
	assert_int_equal(n, 3);
	assert_true(t[0] == 0 && t[1] == 50 && t[2] == 100 && step == 50);
	n = vms_nice_ticks(0, 100, 4, t, &step);
	assert_true(t[n - 1] == 100);
	check_ticks(0, 1, 4);
	check_ticks(0, 3.7e6, 4);
	check_ticks(0, 1800, 10);
	check_ticks(0.001, 0.0173, 5);
	check_ticks(-40, 260, 6);
	check_ticks(12345, 12346, 4);
	check_ticks(5, 5, 4); /* an empty range is widened */
}

static void test_log_ticks(void **state)
{
	double t[8];
	size_t n;

	(void)state;
	n = vms_log_ticks(1, 3e5, 8, t);
	assert_int_equal(n, 7);
	assert_true(t[0] == 1 && t[6] == 1e6);
	n = vms_log_ticks(1, 3e9, 5, t); /* ten decades in five ticks: every third */
	assert_true(n <= 5);
	assert_true(t[0] == 1 && t[n - 1] >= 3e9);
}

static void test_scale(void **state)
{
	struct vms_scale lin = {0, 100, 10, 110, 0}, lg = {1, 1000, 200, 100, 1};

	(void)state;
	assert_true(fabs(vms_scale_map(&lin, 50) - 60) < 1e-9);
	assert_true(fabs(vms_scale_map(&lg, 10) - (200 - 100.0 / 3)) < 1e-9);
	assert_true(vms_scale_map(&lg, 0) == 200);
}

static void test_format_tick(void **state)
{
	char b[32];

	(void)state;
	vms_format_tick(b, sizeof(b), 0, 50);
	assert_string_equal(b, "0");
	vms_format_tick(b, sizeof(b), 250, 50);
	assert_string_equal(b, "250");
	vms_format_tick(b, sizeof(b), 1500, 500);
	assert_string_equal(b, "1.5k");
	vms_format_tick(b, sizeof(b), 20e6, 10e6);
	assert_string_equal(b, "20M");
	vms_format_tick(b, sizeof(b), 3e9, 1e9);
	assert_string_equal(b, "3G");
	vms_format_tick(b, sizeof(b), 0.5, 0.1);
	assert_string_equal(b, "0.5");
	vms_format_tick(b, sizeof(b), 0.02, 0.01);
	assert_string_equal(b, "0.02");
}

/* 30 minutes at 10 Hz, as a real long run: noise, a ramp, and single-sample spikes. */
#define NS      18000
#define BUCKETS 860

static void test_downsample_long(void **state)
{
	double *x = malloc(NS * sizeof(*x)), *y = malloc(NS * sizeof(*y));
	double *ox = malloc((2 * BUCKETS + 2) * sizeof(*ox));
	double *oy = malloc((2 * BUCKETS + 2) * sizeof(*oy));
	double T = (NS - 1) / 10.0, w = T / BUCKETS;
	size_t i, n, b;
	unsigned seed = 6;

	(void)state;
	for (i = 0; i < NS; i++) {
		x[i] = (double)i / 10.0;
		seed = seed * 1103515245u + 12345u;
		y[i] = 1000 + (double)(i % 600) + (double)(seed >> 16 & 0xff);
	}
	y[4321] = 1e6;   /* one-sample spike up */
	y[17998] = -5e5; /* one-sample spike down near the end */
	n = vms_downsample_minmax(x, y, NS, 0, T, BUCKETS, ox, oy);
	assert_true(n > BUCKETS);
	assert_true(n <= 2 * BUCKETS);
	for (i = 1; i < n; i++)
		assert_true(ox[i] > ox[i - 1]); /* still in x order, each point drawn once */
	for (i = 0; i < n; i++)
		if (oy[i] == 1e6)
			break;
	assert_true(i < n && ox[i] == x[4321]);
	for (i = 0; i < n; i++)
		if (oy[i] == -5e5)
			break;
	assert_true(i < n && ox[i] == x[17998]);
	/* every column keeps exactly its input's min and max */
	for (b = 0; b < BUCKETS; b++) {
		double lo = b * w, hi = b + 1 == BUCKETS ? INFINITY : (b + 1) * w;
		double imin = INFINITY, imax = -INFINITY, omin = INFINITY, omax = -INFINITY;

		for (i = 0; i < NS; i++)
			if (x[i] >= lo && x[i] < hi) {
				imin = fmin(imin, y[i]);
				imax = fmax(imax, y[i]);
			}
		for (i = 0; i < n; i++)
			if (ox[i] >= lo && ox[i] < hi) {
				omin = fmin(omin, oy[i]);
				omax = fmax(omax, oy[i]);
			}
		if (isinf(imin))
			continue;
		assert_true(imin == omin);
		assert_true(imax == omax);
	}
	free(x);
	free(y);
	free(ox);
	free(oy);
}

static void test_downsample_short_and_nan(void **state)
{
	double x[10], y[10], ox[22], oy[22];
	size_t i, n;

	(void)state;
	for (i = 0; i < 10; i++) {
		x[i] = (double)i;
		y[i] = (double)(i * i);
	}
	n = vms_downsample_minmax(x, y, 10, 0, 9, 5, ox, oy); /* n <= 2 * buckets: unchanged */
	assert_int_equal(n, 10);
	assert_memory_equal(oy, y, sizeof(y));
	for (i = 3; i < 6; i++)
		y[i] = NAN;
	n = vms_downsample_minmax(x, y, 10, 0, 10, 4, ox, oy); /* columns of 2.5 */
	for (i = 0; i < n; i++)
		if (isnan(oy[i]))
			break;
	assert_true(i < n); /* the all-NAN column [2.5, 5) becomes a break */
	assert_true(n <= 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape),          cmocka_unit_test(test_svg_elements),
	    cmocka_unit_test(test_nice_ticks),      cmocka_unit_test(test_log_ticks),
	    cmocka_unit_test(test_scale),           cmocka_unit_test(test_format_tick),
	    cmocka_unit_test(test_downsample_long), cmocka_unit_test(test_downsample_short_and_nan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
