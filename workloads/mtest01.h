/* mtest01's target arithmetic, exposed for unit tests. */
#ifndef VMS_MTEST01_H
#define VMS_MTEST01_H

#include <stdint.h>

struct vms_mtest01_mem {
	uint64_t ram, free_ram, swap, free_swap; /* bytes */
};

/* The 2001 formula: D = percent% of (RAM + swap), C = memory already used
 * = (RAM + swap) - (free RAM + free swap). Returns -ENOMEM when C > D ("More memory than the
 * maximum amount you specified is already being used"), else 0 with *target = D - C. */
int vms_mtest01_target(const struct vms_mtest01_mem *m, unsigned percent, uint64_t *target);

#endif
