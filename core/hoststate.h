/* The host-state journal (every host change recorded under /run/vmsuite before it is made, so
 * what a SIGKILLed run left can be undone later), the host lock (flock on /run/vmsuite/lock),
 * and the persistent records of swap files (/var/lib/vmsuite/swapfiles: they outlive a reboot,
 * which empties /run, so a swap file a power loss left is found at the next boot).
 * Kernel paths: /proc/PID/stat (process start time), /proc/sys/kernel/random/boot_id, flock(2),
 * cgroupfs rmdir. */
/* Adding a host-state kind: a value in enum vms_host_kind and a row next to its code, its line
 * in vms_host_rows (core/hostkind.c), a line in docs/host-state.md; the checklist is in
 * core/hostkind.h. This journal, suite/ and `vmsuite cleanup` go through the rows. */
#ifndef VMS_HOSTSTATE_H
#define VMS_HOSTSTATE_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/hostkind.h"

/* The default state directory; the environment variable VMSUITE_STATE_DIR overrides it (tests
 * use a temporary directory so that they need not touch /run). */
#define VMS_HOSTSTATE_DIR "/run/vmsuite"

/* The default directory of the persistent records (on disk, unlike VMS_HOSTSTATE_DIR, which is
 * a tmpfs that a reboot empties): <it>/swapfiles. VMSUITE_STATE_DIR (or a directory given to
 * vms_hoststate_init()) replaces it too, so that tests stay private. */
#define VMS_HOSTSTATE_PERSIST_DIR "/var/lib/vmsuite"

/* The journal and lock of one process. Zero it or use VMS_HOSTSTATE_INIT. */
struct vms_hoststate {
	char dir[PATH_MAX / 2]; /* state directory (room left for the file names below it) */
	char persist_dir[PATH_MAX / 2]; /* directory of the persistent records */
	int lock_fd;                    /* open lock file while the lock is held, else -1 */
	struct vms_host_owner self;
	unsigned long seq;
};

/* clang-format off */
#define VMS_HOSTSTATE_INIT { .lock_fd = -1 }
/* clang-format on */

/* The state directory: $VMSUITE_STATE_DIR when set and not empty; else, for root,
 * VMS_HOSTSTATE_DIR; for other users (who may own a delegated cgroup but cannot write /run)
 * $XDG_RUNTIME_DIR/vmsuite when that is set, else VMS_HOSTSTATE_DIR. Not thread-safe. */
const char *vms_hoststate_default_dir(void);

/* Prepares hs for dir (NULL = vms_hoststate_default_dir()): fills hs->self from /proc/self.
 * The persistent records go to dir when it is given or $VMSUITE_STATE_DIR is set, else to
 * VMS_HOSTSTATE_PERSIST_DIR. Creates nothing and reports nothing; 0, or -ENAMETOOLONG. */
int vms_hoststate_init(struct vms_hoststate *hs, const char *dir);

/* Says that the state directory dir (NULL = vms_hoststate_default_dir()) is too long for
 * vms_hoststate_init(), showing its start. Returns -ENAMETOOLONG. */
int vms_hoststate_too_long(const char *dir);

/* Releases the lock if held (hs stays usable). Never fails. */
void vms_hoststate_release(struct vms_hoststate *hs);

/* Fills *o for process pid (its start time, the boot id, its command line). 0, or -errno
 * (-ENOENT: no such process). Reports nothing. */
int vms_host_owner_read(struct vms_host_owner *o, pid_t pid);

/* 1 when the process o describes is still running, 0 when it is gone (no such pid, another
 * start time, another boot). When that cannot be told (e.g. /proc unreadable) it counts as
 * alive: nothing of a possibly live run is ever undone. */
int vms_host_owner_alive(const struct vms_host_owner *o);

/* Takes the exclusive lock <dir>/lock, creating dir and its missing parents (mode 0755) as
 * needed. When another live
 * process holds it: with wait, says once "waiting for the host lock held by pid N (COMMAND)" and
 * polls until it is free or *stop (may be NULL) becomes non-zero; without wait, fails. The
 * holder is written into the lock file for those messages. A flock lock belongs to the open
 * file, which fork(2) shares: children forked while it is held keep it until they exit (the
 * runner's and the probe's die with vmsuite, PR_SET_PDEATHSIG). Returns 0 (held until
 * vms_hoststate_release()), -EINTR when *stop was set while waiting (nothing reported),
 * -EWOULDBLOCK without wait (reported: who holds it), other -errno (reported). */
int vms_hoststate_lock(struct vms_hoststate *hs, int wait, const volatile sig_atomic_t *stop);

/* Reads who holds the lock now into *o. 0 when a live process holds it, -ENOENT when nobody
 * does (or the lock file names a dead process), other -errno. Takes no lock; reports nothing. */
int vms_hoststate_holder(const struct vms_hoststate *hs, struct vms_host_owner *o);

/* Writes e (kind, path and kind fields set by the caller) as a new record, atomically, owned by
 * hs->self; call it BEFORE making the change. Sets e->owner, e->seq and e->record. Creates the
 * journal directory as needed. 0, or -errno (reported: the change must then not be made). */
int vms_hoststate_record(struct vms_hoststate *hs, struct vms_host_entry *e);

/* Removes e's record; call it AFTER the change was undone. 0 (also when already gone), or
 * -errno (reported). */
int vms_hoststate_forget(struct vms_hoststate *hs, const struct vms_host_entry *e);

/* Writes the persistent record of the swap file e describes (kind VMS_HOST_SWAPFILE, path and
 * swap_uuid set, journalled first by vms_hoststate_record(), which set its owner and seq):
 * <persist dir>/swapfiles/<boot id>-<pid>-<start time>-<seq>.json, with the path, the uuid and
 * the owner (its boot id included), written atomically and fsynced with its directory, so that
 * it is on disk before the file is. Call it BEFORE creating the file. Creates the directories
 * (mode 0755) as needed. 0, or -errno (reported: the file must then not be made). */
int vms_hoststate_persist(struct vms_hoststate *hs, const struct vms_host_entry *e);

/* Removes e's persistent record (named from e's owner and seq); call it AFTER the file is
 * removed. 0 (also when there is none), or -errno (reported). */
int vms_hoststate_unpersist(struct vms_hoststate *hs, const struct vms_host_entry *e);

/* Reads every record into a new array *out of *n entries (caller frees; NULL when none),
 * sorted by owner and newest change first. Records that cannot be parsed are skipped with a
 * warning and never touched. 0 (also when the directory does not exist), or -errno
 * (reported). */
int vms_hoststate_list(const struct vms_hoststate *hs, struct vms_host_entry **out, size_t *n);

/* Why a swap file record of an earlier boot was left alone (e->earlier_boot, refused): the
 * file it names is not the one vmsuite made. A new string; caller frees. */
char *vms_host_entry_not_ours(const struct vms_host_entry *e);

/* What repair did with one entry. */
enum vms_host_outcome {
	VMS_HOST_UNDONE,  /* undone, record removed */
	VMS_HOST_GONE,    /* nothing was left to undo; record removed */
	VMS_HOST_LIVE,    /* its owner runs: left alone */
	VMS_HOST_FAILED,  /* undo failed (err): record kept for the next attempt */
	VMS_HOST_REFUSED, /* names nothing vmsuite makes: left alone, record kept */
	/* a record a dead run was writing when it died (vms_write_atomic()'s "NAME.json.tmp.PID"):
	 * removed; e->record is that file, e->owner the run (no other field is set) */
	VMS_HOST_TEMPORARY,
};

/* Called once per entry by vms_hoststate_repair(); err is the -errno of a failure. */
typedef void (*vms_host_report_fn)(const struct vms_host_entry *e, enum vms_host_outcome outcome,
                                   int err, void *arg);

/* First removes the temporary files of records that dead runs were writing when they died
 * (in the journal and among the persistent records; the run told from the record's name;
 * reported as VMS_HOST_TEMPORARY, counted as undone). Then undoes, newest first, every entry
 * whose owner is dead (vms_host_owner_alive()), and removes
 * its record (and, for a swap file, its persistent record); entries of live owners (this
 * process included) are left alone. Then the persistent swap-file records made before this boot
 * (another boot id; /run and its journal are gone with that boot): a file that
 * vms_swapfile_remove_verified() finds to be still the one vmsuite made and inactive is removed
 * (VMS_HOST_UNDONE) and the record with it; no file: VMS_HOST_GONE, the record goes; a file that
 * is not vmsuite's, or active swap: VMS_HOST_REFUSED with e->why, file and record kept. Records
 * of this boot are left to the journal; when the boot id cannot be read, or this user cannot
 * write the records' directory (only root makes swap files), they are all left alone. report
 * (may be NULL) hears about every entry (earlier_boot set for those records). Returns the number
 * of entries undone or found gone, or the -errno of the first failure (every entry is still
 * attempted). Reports nothing itself but records it cannot parse (warned about, kept). */
int vms_hoststate_repair(struct vms_hoststate *hs, vms_host_report_fn report, void *arg);

#endif
