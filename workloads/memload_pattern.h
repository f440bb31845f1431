/* memload's access pattern: which page of the working set each store goes to. A hot set at
 * the start of the working set takes a given share of the stores, the cold tail the rest, each
 * uniformly; xorshift64 makes it cheap enough for the store loop. No kernel paths. */
#ifndef VMS_MEMLOAD_PATTERN_H
#define VMS_MEMLOAD_PATTERN_H

#include <stdint.h>

struct vms_memload_pattern {
	uint64_t pages;     /* the working set, in pages (> 0) */
	uint64_t hot_pages; /* pages [0, hot_pages) are the hot set; 0 = none (uniform) */
	uint64_t hot_limit; /* a draw below this goes to the hot set (share × 2^32) */
	uint64_t x;         /* xorshift64 state, never 0 */
};

/* Sets p up for a working set of `pages` pages (> 0) whose first hot_percent % (0..100) take
 * hot_share % (0..100) of the stores. hot_percent 0, 100 or hot_share equal to hot_percent
 * give the uniform pattern (memload version 1). seed 0 is replaced by a fixed constant.
 * Cannot fail. */
void vms_memload_pattern_init(struct vms_memload_pattern *p, uint64_t pages, unsigned hot_percent,
                              unsigned hot_share, uint64_t seed);

/* The next page index, in [0, p->pages), and the byte offset within the page in *offset
 * (0..4095) when offset is not NULL. */
static inline uint64_t vms_memload_pattern_next(struct vms_memload_pattern *p, unsigned *offset)
{
	uint64_t x = p->x, lo;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	p->x = x;
	if (offset)
		*offset = (unsigned)(x >> 52) & 4095u;
	if (!p->hot_pages)
		return x % p->pages;
	lo = x & 0xffffffffu; /* the share draw; the high half picks the page */
	if (lo < p->hot_limit)
		return (x >> 32) % p->hot_pages;
	return p->hot_pages + (x >> 32) % (p->pages - p->hot_pages);
}

#endif
