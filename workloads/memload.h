/* memload's working set (workloads/memload.c), for its tests. */
#ifndef VMS_MEMLOAD_H
#define VMS_MEMLOAD_H

#include <stdint.h>

/* Maps memload's working set: `pages` anonymous private pages, its pages from random_from on
 * advised MADV_RANDOM (0: all of them; pages or more: none). Returns the mapping, or
 * MAP_FAILED with errno set and nothing left mapped. */
char *vms_memload_map(uint64_t pages, uint64_t random_from);

#endif
