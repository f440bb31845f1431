/* The environment fingerprint a result records (keys: docs/sysinfo.md): kernel, /proc/sys/vm,
 * THP, swap, memory, CPU, work dir filesystem, PSI, cgroups and ALSA cards, each with its source:
 * /proc/{cmdline,swaps,meminfo,cpuinfo,self/mountinfo,self/cgroup}, /sys, statfs(2). */
#ifndef VMS_SYSINFO_H
#define VMS_SYSINFO_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

/* The bracketed word of a sysfs selection ("always [madvise] never" -> "madvise") into buf.
 * 0, or -ENODATA when there is no bracketed word, -ERANGE when buf is too small. */
int vms_sysfs_selection(const char *text, char *buf, size_t len);
/* Parses /proc/swaps text into a new array of {name, type, size_bytes, used_bytes, priority}.
 * Malformed lines are skipped. Never NULL. */
json_t *vms_swaps_parse(const char *text);

/* The keys vms_sysinfo_collect() always sets, in order; NULL-terminated. */
extern const char *const vms_sysinfo_keys[];

/* The fingerprint of this machine with the filesystem of workdir (NULL = "."): a new object
 * whose every entry is {"value": ..., "source": "<where it was read>"}; value is null for
 * what this machine does not have or could not be read. Keys and their meaning:
 * docs/sysinfo.md. Never fails (aborts on out-of-memory); reports nothing. */
json_t *vms_sysinfo_collect(const char *workdir);
/* As vms_sysinfo_collect(), reading /proc and /sys below root (NULL or "/" = the real ones;
 * a fake tree for tests). Sources name the paths as seen from root ("/proc/swaps"). uname(2),
 * sysconf(3) and statfs(2) of workdir always describe the real machine. */
json_t *vms_sysinfo_collect_at(const char *root, const char *workdir);

/* Writes the fingerprint as an aligned "key  value  source" listing, nested values flattened
 * to dotted keys, vm_sysctl one sysctl per line. 0, or -EIO when the stream has an error. */
int vms_sysinfo_write_text(FILE *f, const json_t *info);

/* Adds the noise-source facts to info (keys page_reporting, virtio_balloon, damon_threads,
 * cpufreq and noise_sources; docs/sysinfo.md), reading below root like
 * vms_sysinfo_collect_at(); info must already hold kernel_cmdline and thp_enabled. Never
 * fails. (core/sysinfo-noise.c) */
void vms_sysinfo_put_noise(json_t *info, const char *root);
/* Writes the "noise sources" section of the text listing: each source found, what was found
 * and what to do about it. 0, or -1 when the stream has an error. */
int vms_sysinfo_write_noise(FILE *f, const json_t *info);

#endif
