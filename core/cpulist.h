/* CPU lists ("0-3,8", the syntax of /sys/devices/system/cpu/online and cpuset files) to and
 * from cpu_set_t, and picking CPUs out of a set. No kernel paths. */
#ifndef VMS_CPULIST_H
#define VMS_CPULIST_H

#include <sched.h>
#include <stddef.h>

/* Parses a CPU list ("0", "0-3,8", as in /sys/devices/system/cpu/online; a trailing newline is
 * allowed) into set. 0, -EINVAL (malformed) or -ERANGE (a CPU beyond CPU_SETSIZE). */
int vms_cpu_list_parse(const char *list, cpu_set_t *set);
/* The number of CPUs in a list of that syntax, with no CPU_SETSIZE limit (for describing
 * machines of any size). The count (0 for ""), or -EINVAL when malformed. */
long vms_cpu_list_count(const char *list);

/* Formats set as a CPU list ("0-1,4"; "" for an empty set) into list: the inverse of
 * vms_cpu_list_parse(). 0, or -ENOBUFS when len is too small (list is then ""). */
int vms_cpu_list_format(const cpu_set_t *set, char *list, size_t len);

/* The n lowest-numbered CPUs of from into out. 0, -EINVAL (n < 1) or -ERANGE (from has fewer
 * than n CPUs). */
int vms_cpu_set_first(const cpu_set_t *from, long n, cpu_set_t *out);

/* The n highest-numbered CPUs of from into out (CPU 0 takes most of the housekeeping
 * interrupts and timers on many machines, so the emulated machine keeps away from it). Same
 * returns as vms_cpu_set_first(). */
int vms_cpu_set_last(const cpu_set_t *from, long n, cpu_set_t *out);

#endif
