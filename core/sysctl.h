/* Kernel knobs vmsuite may change for a run (`vmsuite run --sysctl`): strict names, read, a
 * journalled write with read-back, and the restore. Every change goes through the host-state
 * journal (core/hoststate.h, kind VMS_HOST_SYSCTL) before it is made, so that a run killed
 * with SIGKILL is repaired by `vmsuite cleanup` or the next run. Kernel paths: /proc/sys/,
 * /sys/kernel/mm/transparent_hugepage/, /sys/kernel/mm/lru_gen/ and
 * /sys/module/zswap/parameters/ (read(2)/write(2)). docs/knobs.md describes the names.
 *
 * Changing a knob changes the whole host: callers hold the host lock (vms_hoststate_lock())
 * while a knob is changed, restore in the reverse order of their changes, and never journal
 * the same knob twice at once (the second record would keep the first one's new value as its
 * original).
 *
 * Names are dotted, as sysctl(8) writes them; only this allow-list resolves:
 *   vm.NAME                                -> /proc/sys/vm/NAME
 *   kernel.sched_NAME                      -> /proc/sys/kernel/sched_NAME
 *   kernel.task_delayacct                  -> /proc/sys/kernel/task_delayacct
 *   transparent_hugepage.NAME              -> /sys/kernel/mm/transparent_hugepage/NAME
 *   transparent_hugepage.khugepaged.NAME   -> .../transparent_hugepage/khugepaged/NAME
 *   transparent_hugepage.hugepages-SIZE.NAME -> .../transparent_hugepage/hugepages-SIZE/NAME
 *   lru_gen.NAME                           -> /sys/kernel/mm/lru_gen/NAME
 *   zswap.NAME                             -> /sys/module/zswap/parameters/NAME
 * A component holds only [A-Za-z0-9_+-] (no '/', no '..', none empty); the file must exist and
 * be a regular file (not a symlink). */
#ifndef VMS_SYSCTL_H
#define VMS_SYSCTL_H

#include <stddef.h>

#include "core/hoststate.h"

/* The longest value vmsuite writes or keeps (the journal's `original` field). */
#define VMS_SYSCTL_VALUE_MAX 256

/* Resolves a dotted name of the allow-list to its file in path (len bytes). 0, or -errno with
 * a one-line reason in err: -EINVAL (not a name vmsuite accepts: path characters, empty
 * components, outside the list), -ENOENT (this kernel has no such knob), -ENAMETOOLONG.
 * Reports nothing. */
int vms_sysctl_resolve(const char *name, char *path, size_t len, char *err, size_t errlen);

/* 1 when path is the file of a name of the allow-list (under the root, see
 * vms_sysctl_set_root()); what the journal's repair checks before writing anything back. */
int vms_sysctl_path_allowed(const char *path);

/* The short form of a name for labels: its last component ("vm.page-cluster" ->
 * "page-cluster"). Points into name. */
const char *vms_sysctl_short_name(const char *name);

/* Reads the value of a knob file into value (len bytes), normalised: leading and trailing
 * white space dropped, inner runs of white space as one space; for a choice file such as
 * transparent_hugepage/enabled ("always [madvise] never") only the selected word ("madvise").
 * 0, or -errno (-E2BIG: longer than len - 1). Reports nothing. */
int vms_sysctl_read(const char *path, char *value, size_t len);

/* Normalises a value as vms_sysctl_read() does, into out (len bytes). 0 or -E2BIG. */
int vms_sysctl_normalize(const char *value, char *out, size_t len);

/* A value given for the knob name, normalised (vms_sysctl_normalize()) and spelt as the kernel
 * prints it back, into out (len bytes): for the zswap booleans (zswap.enabled,
 * zswap.shrinker_enabled, ...) Y or N from any spelling kstrtobool() takes (y, 1, on, ...);
 * for the zswap percentages and lru_gen.min_ttl_ms the decimal of a number kstrtouint() takes
 * ("0x14" -> "20"); for lru_gen.enabled n (any word starting with n or N) -> "0x0000", a
 * number -> "0x%04x" ("7" -> "0x0007"), y (any word starting with y or Y) -> "y": every
 * component the hardware has, so its read-back is known only after the write (see
 * vms_sysctl_matches()). Other knobs and values the kernel would refuse: only normalised.
 * 0 or -E2BIG. */
int vms_sysctl_canonical(const char *name, const char *value, char *out, size_t len);

/* 1 when back, a knob's read-back (normalised), is what writing value (canonical, see
 * vms_sysctl_canonical()) to the knob name stores: the same string, or for lru_gen.enabled
 * "y" any mask with the main switch (0x0001) on. */
int vms_sysctl_matches(const char *name, const char *value, const char *back);

/* The knob the kernel links to name, or NULL: writing one of vm.overcommit_kbytes/_ratio,
 * vm.dirty_bytes/_ratio or vm.dirty_background_bytes/_ratio zeroes the other, and the
 * *_bytes ones refuse 0. vms_sysctl_set() journals the partner's original with the knob's, and
 * the restore and the undo write both back. A static string. */
const char *vms_sysctl_partner(const char *name);

/* Checks before anything changes that name resolves, its file can be read (else -EINVAL: a
 * write-only knob such as vm.drop_caches could not be restored), is not read-only (no write
 * permission bit, such as transparent_hugepage/hpage_pmd_size: -EINVAL, also for root) and can
 * be opened for writing (else -EACCES or another -errno), and value is not empty and fits (else
 * -EINVAL). 0, or -errno with the reason in err. */
int vms_sysctl_check(const char *name, const char *value, char *err, size_t errlen);

/* Sets name to value, journalled: resolves the name, reads the original value (and that of
 * its linked knob, vms_sysctl_partner(), into partner and partner_original), records an
 * entry VMS_HOST_SYSCTL (path, original) in hs's journal BEFORE writing, writes value and reads
 * it back. *e receives the entry (pass it to vms_sysctl_restore()). When the kernel refuses the
 * value or stores another one, the original is written back, the record removed, and -errno
 * returned (-EINVAL for a different read-back) with the reason in err; nothing is left changed.
 * When the original cannot be written back either: -ENOTRECOVERABLE, both reasons in err, the
 * record kept (the knob is left changed). 0 on success. Reports nothing itself (the journal reports
 * its own failures). */
int vms_sysctl_set(struct vms_hoststate *hs, const char *name, const char *value,
                   struct vms_host_entry *e, char *err, size_t errlen);

/* Writes another value to a knob vms_sysctl_set() changed (its record keeps the first
 * original), reading it back. 0, or -errno with the reason in err. Reports nothing. */
int vms_sysctl_change(const struct vms_host_entry *e, const char *name, const char *value,
                      char *err, size_t errlen);

/* Writes e->original back (and e->partner_original to a linked knob), checks it by reading
 * back, and removes e's record (the record stays when that fails, so that `vmsuite cleanup`
 * retries). A knob that already holds its original is not written. 0, or -errno (reported). */
int vms_sysctl_restore(struct vms_hoststate *hs, struct vms_host_entry *e);

/* The undo of a VMS_HOST_SYSCTL journal entry (called by vms_host_entry_undo()): 2 refused when
 * e->path is not a file of the allow-list or e->partner not the knob linked to it, 1 when a
 * file is gone, 0 when the original values are back (also when they already were: nothing is
 * written then), or -errno. Reports nothing. */
int vms_sysctl_undo(const struct vms_host_entry *e);

/* Tests only: resolve below root instead of "/" ("/tmp/x" -> /tmp/x/proc/sys/vm/...). NULL or
 * "" restores "/". The string must outlive its use. */
void vms_sysctl_set_root(const char *root);

#endif
