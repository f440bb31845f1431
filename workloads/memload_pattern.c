/* memload's access pattern (see memload_pattern.h). No kernel paths. */
#include "workloads/memload_pattern.h"

void vms_memload_pattern_init(struct vms_memload_pattern *p, uint64_t pages, unsigned hot_percent,
                              unsigned hot_share, uint64_t seed)
{
	p->pages = pages ? pages : 1;
	p->x = seed ? seed : 0x9e3779b97f4a7c15ull;
	p->hot_pages = 0;
	p->hot_limit = 0;
	if (hot_percent > 100)
		hot_percent = 100;
	if (hot_share > 100)
		hot_share = 100;
	if (!hot_percent || hot_percent == 100 || hot_share == hot_percent)
		return;
	p->hot_pages = p->pages / 100 * hot_percent + p->pages % 100 * hot_percent / 100;
	if (!p->hot_pages || p->hot_pages >= p->pages) {
		p->hot_pages = 0;
		return;
	}
	p->hot_limit = (UINT64_C(1) << 32) / 100 * hot_share;
	if (hot_share == 100)
		p->hot_limit = UINT64_C(1) << 32;
}
