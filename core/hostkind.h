/* The kinds of host change the journal knows (core/hoststate.h): what one journal entry holds,
 * and each kind's row (its name, its word in messages, its undo), defined next to the code that
 * makes that change and collected in one list, so that the journal calls every undo without
 * knowing the modules. No kernel paths of its own (each undo has its own).
 *
 * Adding a host-state kind: a value in enum vms_host_kind, a `const struct vms_host_kind_row`
 * next to its code, its line in vms_host_rows (core/hostkind.c) and a line in
 * docs/host-state.md. Nothing in core/hoststate.c changes (ctest test_extra_hostkind builds one
 * more kind, VMS_TEST_EXTRA_HOSTKIND, and follows it through the journal and `vmsuite cleanup`). */
#ifndef VMS_HOSTKIND_H
#define VMS_HOSTKIND_H

#include <limits.h>

/* The length of the swap-header uuid an entry keeps (core/swapfile.h checks it is its own; the zram
 * device's swap header carries one too). */
#define VMS_HOST_UUID_LEN 16

/* What a journal entry changed. Adding a kind: a value here, its row next to its code (struct
 * vms_host_kind_row below: its name in the record, what to call it in messages, how to undo it
 * with the check that the path is one vmsuite makes), the row's line in vms_host_rows
 * (core/hostkind.c) and a line in docs/host-state.md. Planned: a generic file written back. */
enum vms_host_kind {
	VMS_HOST_CGROUP,   /* a memory cgroup directory vmsuite created; undo: kill its tasks, rmdir
	                    */
	VMS_HOST_WORKDIR,  /* a private directory .vmsuite-* (mode 0700) for a run's work file when
	                    * the filesystem has no O_TMPFILE; undo: unlink the .vmsuite-*.tmp files
	                    * in it, rmdir (anything else in it: refused, nothing touched) */
	VMS_HOST_SWAPFILE, /* the emulated machine's temporary swap file .vmsuite-swap-*; undo:
	                    * swapoff when /proc/swaps lists it, unlink (another name, or not a
	                    * regular file: refused, nothing touched); also recorded on disk for
	                    * after a reboot (vms_hoststate_persist) */
	VMS_HOST_SYSCTL,   /* a kernel knob vmsuite wrote (core/sysctl.h): path = its /proc/sys or
	                    * /sys/kernel/mm/transparent_hugepage file, original = the value before,
	                    * partner/partner_original = the knob the kernel links to it; undo:
	                    * write both back (a path outside the allow-list, or a partner that is
	                    * not the knob's: refused) */
	VMS_HOST_ZRAM,     /* the emulated machine's zram swap device (core/zram.h): path =
	                    * "/dev/zramN", diskseq = its disk sequence number; undo: swapoff,
	                    * reset, hot_remove while zramN still has that diskseq (gone or
	                    * another device: nothing touched). Journalled first with path =
	                    * /sys/class/zram-control/hot_add and diskseq = the highest of the
	                    * block devices then (before the kernel names the device): that
	                    * record undoes nothing, it names the zram devices added since */
#ifdef VMS_TEST_EXTRA_HOSTKIND
	VMS_HOST_TEST_EXTRA, /* only in the test build that proves a kind is one row (its row:
	                      * tests/core/extra-hostkind.c) */
#endif
	VMS_HOST_KIND_NR
};

/* Who made a change: a process is the same one only if its pid, its start time (field 22 of
 * /proc/PID/stat, clock ticks since boot) and the boot id all match, so a reused pid is never
 * taken for the run that made the change. */
struct vms_host_owner {
	long pid;
	unsigned long long start_time;
	char boot_id[40];  /* /proc/sys/kernel/random/boot_id, "" when unreadable */
	char command[256]; /* the command line, for messages */
};

/* One journal entry. Plain data. */
struct vms_host_entry {
	enum vms_host_kind kind;
	char path[PATH_MAX]; /* what was changed: the cgroup directory, sysctl file, swap file */
	int cgroup_version;  /* VMS_HOST_CGROUP: 1 or 2 */
	char original[256];  /* for kinds that write a value back (sysctl, file): the old value */
	/* VMS_HOST_SYSCTL of a knob the kernel links to another (core/sysctl.h): that knob's
	 * file and its value before, written back with the first; "" for other knobs */
	char partner[PATH_MAX];
	char partner_original[256];
	unsigned long seq; /* order of changes within one owner: undone newest first */
	struct vms_host_owner owner;
	char record[PATH_MAX]; /* the journal file that holds this entry (set by record/list) */
	/* VMS_HOST_SWAPFILE: the uuid written in the file's swap header (vms_hoststate_persist) */
	unsigned char swap_uuid[VMS_HOST_UUID_LEN];
	/* set by vms_hoststate_repair() for a persistent swap-file record made before this boot
	 * (then record is that record's file) */
	int earlier_boot;
	/* VMS_HOST_REFUSED of such a record: why the file is not taken for vmsuite's, "" else */
	char why[256];
	/* VMS_HOST_ZRAM: the device's disk sequence number (or the floor, see the kind) */
	unsigned long long diskseq;
};

/* A kind's row: defined next to its code, listed in vms_host_rows. */
struct vms_host_kind_row {
	const char *name; /* in the journal record ("cgroup", "sysctl", ...) */
	const char *what; /* in messages ("memory cgroup", "kernel knob", ...) */
	/* Undoes e (whoever made it; the caller checks the owner): 0 undone, 1 nothing to undo
	 * (already gone), 2 refused, nothing touched (e names nothing vmsuite makes), or -errno.
	 * Reports nothing but what its module always reports. */
	int (*undo)(const struct vms_host_entry *e);
	/* What undoing e did, for messages (a new string, caller frees); NULL: "removed the WHAT
	 * 'PATH'". */
	char *(*undone)(const struct vms_host_entry *e);
};

/* The rows, each next to its code. */
extern const struct vms_host_kind_row vms_host_row_cgroup;   /* core/cgroup-undo.c */
extern const struct vms_host_kind_row vms_host_row_workdir;  /* core/hoststate.c */
extern const struct vms_host_kind_row vms_host_row_swapfile; /* core/swapfile.c */
extern const struct vms_host_kind_row vms_host_row_sysctl;   /* core/sysctl.c */
extern const struct vms_host_kind_row vms_host_row_zram;     /* core/zram.c */
#ifdef VMS_TEST_EXTRA_HOSTKIND
extern const struct vms_host_kind_row vms_host_row_test_extra; /* tests/core/extra-hostkind.c */
#endif

/* The list, indexed by kind. */
extern const struct vms_host_kind_row *const vms_host_rows[VMS_HOST_KIND_NR];

/* Undoes the change e describes by its kind's row (whoever made it; the caller checks the
 * owner). Returns 0 undone, 1 nothing to undo (already gone), 2 refused, nothing touched (the
 * path is not one vmsuite makes: a cgroup not named vmsuite-*, a work directory not named
 * .vmsuite-*, not a directory, or holding a file vmsuite does not make, a swap file not named
 * .vmsuite-swap-* or not a regular file, a knob file outside core/sysctl.h's allow-list), or
 * -errno (a cgroup that cannot be removed is also warned about, by vms_cgroup_destroy()). */
int vms_host_entry_undo(const struct vms_host_entry *e);

/* "memory cgroup", ...: what an entry of this kind is called in messages. */
const char *vms_host_kind_what(enum vms_host_kind kind);

/* What undoing an entry did, for messages: "removed the memory cgroup '/sys/...'" or "restored
 * the kernel knob '/proc/sys/vm/page-cluster' to '3'" (the path and value shown escaped,
 * core/escape.h). A new string; caller frees. */
char *vms_host_entry_undone(const struct vms_host_entry *e);

#endif
