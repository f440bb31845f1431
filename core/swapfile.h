/* The emulated machine's temporary swap file: where one may live, creating it (preallocated,
 * swap header written), switching it on and off and removing it. Only files named
 * .vmsuite-swap-* are ever switched off or removed: swap vmsuite did not create is never
 * touched. Kernel paths: statfs(2), FS_IOC_SETFLAGS (btrfs NOCOW), fallocate(2), swapon(2),
 * swapoff(2), /proc/swaps. Journalling is the caller's (core/hoststate.h, VMS_HOST_SWAPFILE). */
#ifndef VMS_SWAPFILE_H
#define VMS_SWAPFILE_H

#include <stddef.h>
#include <stdint.h>

/* The prefix of every swap file vmsuite makes (its name: .vmsuite-swap-<pid>). */
#define VMS_SWAPFILE_PREFIX ".vmsuite-swap-"

/* The label (volume name) vmsuite writes into the swap header of every swap file it makes. */
#define VMS_SWAPFILE_LABEL "vmsuite"

/* The length of a swap header's uuid. */
#define VMS_SWAPFILE_UUID_LEN 16

/* 1 when the last component of path is a name vmsuite gives its swap files. */
int vms_swapfile_name_ok(const char *path);

/* Whether directory dir can hold a swap file of size usable bytes: on a filesystem known to
 * support swap files (ext2/3/4, xfs, btrfs with NOCOW, f2fs, vfat), not tmpfs/ramfs, NFS,
 * CIFS, overlayfs, FUSE..., with that size plus 256 MiB free, and a file size limit
 * (RLIMIT_FSIZE) that lets the file grow that large. Fills fstype (may be NULL) with
 * the filesystem's name. 0 fits; else -errno with why (one clause, no trailing period). */
int vms_swapfile_check_dir(const char *dir, uint64_t usable, char *fstype, size_t fstype_len,
                           char *why, size_t why_len);

/* Fills uuid with a new random swap-header uuid (getrandom(2); never fails). */
void vms_swapfile_new_uuid(unsigned char uuid[VMS_SWAPFILE_UUID_LEN]);

/* uuid as text, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (as blkid and swaplabel show it); buf
 * holds at least 37 bytes. */
void vms_swapfile_uuid_text(const unsigned char uuid[VMS_SWAPFILE_UUID_LEN], char *buf);

/* Parses that text form. 0, or -EINVAL. */
int vms_swapfile_uuid_parse(const char *text, unsigned char uuid[VMS_SWAPFILE_UUID_LEN]);

/* Creates path (a new file: O_EXCL, mode 0600, named .vmsuite-swap-*) holding usable bytes of
 * swap: usable plus one page for the swap header, rounded up to pages. Sets NOCOW first on
 * btrfs, writes a version-1 swap header ("SWAPSPACE2", label VMS_SWAPFILE_LABEL, the given
 * uuid) and fsyncs it, so that the file carries vmsuite's marks from its first moment on disk
 * (what a power loss leaves can be recognised), then preallocates with fallocate(2) or, where
 * the filesystem has no fallocate, by writing zeros after the header, and fsyncs. Does not
 * switch it on. method (may be NULL) gets "fallocate" or "zero-fill". 0, or -errno (reported); a
 * partly made file is removed again. */
int vms_swapfile_create(const char *path, uint64_t usable,
                        const unsigned char uuid[VMS_SWAPFILE_UUID_LEN], char *method,
                        size_t method_len);

/* Whether path still is the swap file vmsuite made with uuid: an absolute path named
 * .vmsuite-swap-*, a regular file (a symlink is not followed), at least one page long, whose
 * first page is a version-1 swap header ("SWAPSPACE2") with label VMS_SWAPFILE_LABEL and that
 * uuid. 0 it is; 1 nothing is there; 2 something else is (why gets the reason: one clause, no
 * trailing period); -errno when it cannot be read. */
int vms_swapfile_verify(const char *path, const unsigned char uuid[VMS_SWAPFILE_UUID_LEN],
                        char *why, size_t why_len);

/* Unlinks path when vms_swapfile_verify() says it is vmsuite's file with uuid and /proc/swaps
 * does not list it (a file found active was switched on by someone: left alone). The file
 * checked is the file removed (same device and inode). 0 removed, 1 nothing was there, 2
 * refused, nothing touched (why says why), or -errno. */
int vms_swapfile_remove_verified(const char *path, const unsigned char uuid[VMS_SWAPFILE_UUID_LEN],
                                 char *why, size_t why_len);

/* Writes a version-1 swap header (label VMS_SWAPFILE_LABEL, uuid) into the first page of fd,
 * open for writing, for a swap area of bytes (whole pages, the header page included), as
 * mkswap(8) does; does not sync. 0, -EINVAL (fewer than two pages), or -errno. */
int vms_swap_header_write(int fd, uint64_t bytes, const unsigned char uuid[VMS_SWAPFILE_UUID_LEN]);

/* swapon(2) of path (default priority). 0, or -errno (reported). */
int vms_swapfile_on(const char *path);

/* 1 when path (absolute) is listed in swaps (the text of /proc/swaps, NULL = read it), 0 when
 * not, -errno when /proc/swaps cannot be read. Compared by path, unescaping the kernel's octal
 * escapes. */
int vms_swapfile_listed(const char *path, const char *swaps);

/* Switches path off when it is an active swap area and unlinks it. Refuses (2, nothing
 * touched) a name vmsuite does not give or something that is not a regular file (a symlink
 * included). 0 removed, 1 nothing was there, 2 refused, or -errno (swapoff failed, e.g.
 * -ENOMEM when what is swapped out cannot be brought back: the file stays). */
int vms_swapfile_remove(const char *path);

#endif
