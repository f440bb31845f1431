/* CPU lists ("0-3,8", the syntax of /sys/devices/system/cpu/online and cpuset files) to and
 * from cpu_set_t, and picking CPUs out of a set. Pure string and bit work; no kernel paths. */
#include "core/cpulist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int vms_cpu_list_format(const cpu_set_t *set, char *list, size_t len)
{
	size_t used = 0;
	int c, start = -1;

	if (!len)
		return -ENOBUFS;
	list[0] = '\0';
	for (c = 0; c <= CPU_SETSIZE; c++) {
		int in = c < CPU_SETSIZE && CPU_ISSET(c, set), n;

		if (in && start < 0)
			start = c;
		if (in || start < 0)
			continue;
		if (start == c - 1)
			n = snprintf(list + used, len - used, "%s%d", used ? "," : "", start);
		else
			n = snprintf(list + used, len - used, "%s%d-%d", used ? "," : "", start,
			             c - 1);
		if (n < 0 || (size_t)n >= len - used) {
			list[0] = '\0';
			return -ENOBUFS;
		}
		used += (size_t)n;
		start = -1;
	}
	return 0;
}

/* Walks a CPU list, adding its CPUs to set (when not NULL) and counting them into *count.
 * 0, -EINVAL or -ERANGE (a CPU beyond CPU_SETSIZE, only when filling a set). */
static int walk_list(const char *list, cpu_set_t *set, long *count)
{
	const char *p = list;

	*count = 0;
	if (set)
		CPU_ZERO(set);
	if (!list)
		return -EINVAL;
	while (*p && *p != '\n') {
		char *end;
		long a, b;

		a = strtol(p, &end, 10);
		if (end == p || a < 0)
			return -EINVAL;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -EINVAL;
			p = end;
		}
		if (set && b >= CPU_SETSIZE)
			return -ERANGE;
		*count += b - a + 1;
		for (; set && a <= b; a++)
			CPU_SET((int)a, set);
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

int vms_cpu_list_parse(const char *list, cpu_set_t *set)
{
	long count;

	return walk_list(list, set, &count);
}

long vms_cpu_list_count(const char *list)
{
	long count;
	int ret = walk_list(list, NULL, &count);

	return ret ? ret : count;
}

int vms_cpu_set_first(const cpu_set_t *from, long n, cpu_set_t *out)
{
	long got = 0;
	int c;

	if (n < 1)
		return -EINVAL;
	CPU_ZERO(out);
	for (c = 0; c < CPU_SETSIZE && got < n; c++)
		if (CPU_ISSET(c, from)) {
			CPU_SET(c, out);
			got++;
		}
	return got < n ? -ERANGE : 0;
}

int vms_cpu_set_last(const cpu_set_t *from, long n, cpu_set_t *out)
{
	long got = 0;
	int c;

	if (n < 1)
		return -EINVAL;
	CPU_ZERO(out);
	for (c = CPU_SETSIZE - 1; c >= 0 && got < n; c--)
		if (CPU_ISSET(c, from)) {
			CPU_SET(c, out);
			got++;
		}
	return got < n ? -ERANGE : 0;
}
