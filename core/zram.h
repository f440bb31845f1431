/* The emulated machine's zram swap (--swap-kind zram): a zram device vmsuite hot-adds itself,
 * sizes, caps and makes swap, and removes again. A device is vmsuite's only while it has the
 * number and the disk sequence number (diskseq, unique per boot) it had when vmsuite added it:
 * a device vmsuite did not add is never touched. Kernel paths: /sys/class/zram-control/
 * hot_add and hot_remove, /sys/block/zramN/{comp_algorithm,disksize,mem_limit,reset,diskseq,
 * mm_stat,stat}, swapon(2) with a priority, swapoff(2), /proc/swaps. Journalling is the
 * caller's (core/hoststate.h, VMS_HOST_ZRAM). */
#ifndef VMS_ZRAM_H
#define VMS_ZRAM_H

#include <stddef.h>
#include <stdint.h>

#include "core/hostkind.h"

/* The zram control directory (hot_add, hot_remove). */
#define VMS_ZRAM_CONTROL "/sys/class/zram-control"

/* The swap priority of vmsuite's zram device: the highest swapon(2) takes, so that the
 * emulated machine swaps to it before any other swap area of the host. */
#define VMS_ZRAM_PRIORITY 32767

/* The compressor vmsuite picks when the kernel lists it (the kernel's default for zram since
 * 5.1); otherwise the kernel's own default. */
#define VMS_ZRAM_COMPRESSOR "lzo-rle"

/* A zram device vmsuite added. Zero it, then set id to -1. */
struct vms_zram {
	int id;                     /* N of /dev/zramN, -1 = none added */
	unsigned long long diskseq; /* its disk sequence number (/sys/block/zramN/diskseq) */
	char device[32];            /* "/dev/zramN" */
	char compressor[64];        /* the algorithm set */
	uint64_t disksize;          /* bytes: the swap area's size (header page included) */
	uint64_t mem_limit;         /* bytes: the cap of its compressed pool */
	int priority;               /* its swap priority */
	int on;                     /* switched on as swap */
};

/* The figures of /sys/block/zramN/mm_stat (Documentation/admin-guide/blockdev/zram.rst),
 * bytes unless said otherwise. */
struct vms_zram_mm_stat {
	uint64_t orig_data_size;  /* uncompressed size of what is stored */
	uint64_t compr_data_size; /* its compressed size */
	uint64_t mem_used_total;  /* memory the pool takes, overhead included */
	uint64_t mem_limit;       /* the pool's cap (0 = none) */
	uint64_t mem_used_max;    /* the pool's peak since it was last reset */
	uint64_t same_pages;      /* pages: same-filled pages, stored without pool memory */
	uint64_t pages_compacted; /* pages freed by compaction */
	uint64_t huge_pages;      /* pages: incompressible pages, stored whole */
};

/* Whether this host can give vmsuite a zram device of its own: root, the zram control
 * directory (zram built in or loaded, kernel 4.2+) and block devices that carry a disk
 * sequence number (5.15+; what tells vmsuite's device from another). 0, or -ENOTSUP with why
 * (one clause, no trailing period). */
int vms_zram_check(char *why, size_t why_len);

/* The compressor vmsuite sets, from the text of comp_algorithm ("[lzo-rle] lzo lz4"):
 * VMS_ZRAM_COMPRESSOR when listed, else the bracketed one (the kernel's default). 0, or
 * -EINVAL when the text names none. */
int vms_zram_pick_compressor(const char *list, char *out, size_t out_len);

/* Parses the text of mm_stat (at least its first seven fields; later kernels append more).
 * 0, or -EINVAL. */
int vms_zram_mm_stat_parse(const char *text, struct vms_zram_mm_stat *st);

/* The highest disk sequence number of the block devices now (/sys/block/ASTERISK/diskseq):
 * any device added later has a higher one. 0, or -errno (-ENOTSUP: no device carries one). */
int vms_zram_diskseq_floor(unsigned long long *floor);

/* Adds a zram device: one read of hot_add (each read adds one), then its diskseq. Fills
 * z->id, z->device and z->diskseq. 0, or -errno (reported). */
int vms_zram_add(struct vms_zram *z);

/* Makes the added device z swap: compressor (vms_zram_pick_compressor() of its list), then
 * disksize bytes, the pool cap mem_limit bytes, a swap header with uuid (as mkswap), and
 * swapon(2) at VMS_ZRAM_PRIORITY. Fills the other fields of z. 0, or -errno (reported). */
int vms_zram_setup(struct vms_zram *z, uint64_t disksize, uint64_t mem_limit,
                   const unsigned char uuid[VMS_HOST_UUID_LEN]);

/* Reads the device's mm_stat and, into written/read (may be NULL), the bytes written to and
 * read from it since it was added (/sys/block/zramN/stat). 0, or -errno. */
int vms_zram_read_stats(int id, struct vms_zram_mm_stat *st, uint64_t *written, uint64_t *read);

/* Resets the device's pool peak (mem_used_max) to what it holds now. 0, or -errno. */
int vms_zram_reset_peak(int id);

/* 1 when /sys/block/zram<id> exists and has diskseq (the device vmsuite added), 0 when it does
 * not (gone, or another device took the number), -errno when that cannot be read. */
int vms_zram_ours(int id, unsigned long long diskseq);

/* Removes device id when it still is vmsuite's (vms_zram_ours()): swapoff when /proc/swaps
 * lists it, reset (frees its pool), hot_remove. 0 removed, 1 nothing to remove (gone, or the
 * number is another device's now: not touched), or -errno (swapoff failed, e.g. -ENOMEM when
 * what it holds cannot be brought back; the device stays). */
int vms_zram_remove(int id, unsigned long long diskseq);

#endif
