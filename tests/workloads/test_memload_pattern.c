/* Unit tests of memload's access pattern (workloads/memload_pattern.c): the share of stores the
 * hot set takes, uniformity within the hot set and within the cold tail, every page reachable,
 * offsets within a page, and the uniform (version 1) and degenerate settings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "workloads/memload_pattern.h"

#define DRAWS 1000000u

/* Draws DRAWS pages from a 1000-page pattern and counts them per page. */
static void draw(unsigned hot, unsigned share, unsigned *count, uint64_t pages)
{
	struct vms_memload_pattern p;
	uint64_t i;

	vms_memload_pattern_init(&p, pages, hot, share, 12345);
	for (i = 0; i < pages; i++)
		count[i] = 0;
	for (i = 0; i < DRAWS; i++) {
		unsigned off = 9999;
		uint64_t page = vms_memload_pattern_next(&p, &off);

		assert_true(page < pages);
		assert_true(off < 4096);
		count[page]++;
	}
}

static double share_of(const unsigned *count, uint64_t from, uint64_t to)
{
	uint64_t sum = 0, i;

	for (i = from; i < to; i++)
		sum += count[i];
	return (double)sum / DRAWS;
}

/* hot=25, hot_share=90: pages 0..249 take 90 % of the stores (sd 0.0003 at 10^6 draws),
 * spread evenly (each fifth of the hot set 18 %), the cold tail 10 % (each fifth 2 %), and
 * every page is reached (a cold page expects about 133 stores). */
static void skewed(void **state)
{
	static unsigned count[1000];
	uint64_t i;

	(void)state;
	draw(25, 90, count, 1000);
	assert_true(share_of(count, 0, 250) > 0.895 && share_of(count, 0, 250) < 0.905);
	for (i = 0; i < 5; i++) {
		double hot = share_of(count, i * 50, i * 50 + 50);
		double cold = share_of(count, 250 + i * 150, 250 + i * 150 + 150);

		assert_true(hot > 0.175 && hot < 0.185);
		assert_true(cold > 0.0185 && cold < 0.0215);
	}
	for (i = 0; i < 1000; i++)
		assert_true(count[i] > 0);
}

/* hot=0 (version 1): every page equally likely, each tenth of the set 10 %. */
static void uniform(void **state)
{
	static unsigned count[1000];
	uint64_t i;

	(void)state;
	draw(0, 90, count, 1000);
	for (i = 0; i < 10; i++) {
		double s = share_of(count, i * 100, i * 100 + 100);

		assert_true(s > 0.097 && s < 0.103);
	}
	/* a hot set that takes just its own share is no hot set */
	draw(30, 30, count, 1000);
	assert_true(share_of(count, 0, 300) > 0.295 && share_of(count, 0, 300) < 0.305);
	draw(100, 90, count, 1000);
	assert_true(share_of(count, 0, 500) > 0.495 && share_of(count, 0, 500) < 0.505);
}

/* All stores hot, none hot, a one-page set, and a size that 100 does not divide. */
static void edges(void **state)
{
	static unsigned count[1000];
	struct vms_memload_pattern p;

	(void)state;
	draw(10, 100, count, 1000);
	assert_true(share_of(count, 0, 100) == 1.0);
	draw(10, 0, count, 1000);
	assert_true(share_of(count, 0, 100) == 0.0);
	assert_true(share_of(count, 100, 1000) == 1.0);
	draw(50, 90, count, 1);
	assert_int_equal(count[0], DRAWS);
	vms_memload_pattern_init(&p, 7, 50, 90, 0);
	assert_int_equal(p.hot_pages, 3);
	assert_true(p.x != 0); /* seed 0 replaced: xorshift would stay at 0 */
	draw(50, 90, count, 7);
	assert_true(share_of(count, 0, 3) > 0.895 && share_of(count, 0, 3) < 0.905);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(skewed),
	    cmocka_unit_test(uniform),
	    cmocka_unit_test(edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
