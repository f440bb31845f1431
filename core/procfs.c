/* /proc/vmstat, /proc/meminfo and PSI readers: the system-wide counters that explain why a
 * workload run was slow (reclaim, swap, writeback, stalls). */
#include "core/procfs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int vms_vmstat_read(struct vms_vmstat *s, const char *path)
{
	FILE *f = fopen(path ? path : "/proc/vmstat", "re");
	char name[64];
	uint64_t v;

	s->n = 0;
	if (!f)
		return -errno;
	while (s->n < VMS_VMSTAT_MAX && fscanf(f, "%63s %" SCNu64, name, &v) == 2) {
		snprintf(s->kv[s->n].name, sizeof(s->kv[s->n].name), "%s", name);
		s->kv[s->n].value = v;
		s->n++;
	}
	fclose(f);
	return s->n ? 0 : -ENODATA;
}

static int find(const struct vms_vmstat *s, const char *name)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->kv[i].name, name))
			return (int)i;
	return -1;
}

uint64_t vms_vmstat_get(const struct vms_vmstat *s, const char *name)
{
	int i = find(s, name);

	return i < 0 ? 0 : s->kv[i].value;
}

static int wanted(const char *name)
{
	static const char *const exact[] = {"pgfault",  "pgmajfault",  "pswpin",        "pswpout",
	                                    "pgpgin",   "pgpgout",     "compact_stall", "oom_kill",
	                                    "nr_dirty", "nr_writeback"};
	static const char *const prefix[] = {"pgscan_", "pgsteal_", "allocstall_",
	                                     "workingset_refault_", "thp_fault_"};
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(exact); i++)
		if (!strcmp(name, exact[i]))
			return 1;
	for (i = 0; i < VMS_ARRAY_SIZE(prefix); i++)
		if (!strncmp(name, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

json_t *vms_vmstat_delta_json(const struct vms_vmstat *before, const struct vms_vmstat *after)
{
	json_t *o = json_object();
	unsigned i;

	for (i = 0; i < after->n; i++) {
		const char *name = after->kv[i].name;
		int j;

		if (!wanted(name) || !strncmp(name, "nr_", 3))
			continue;
		j = find(before, name);
		json_object_set_new(o, name,
		                    json_integer((json_int_t)(after->kv[i].value -
		                                              (j < 0 ? 0 : before->kv[j].value))));
	}
	return o;
}

static const char *const psi_names[VMS_PSI_NR] = {"memory", "io", "cpu"};

const char *vms_psi_name(enum vms_psi_resource r)
{
	return psi_names[r];
}

int vms_psi_read_file(const char *path, uint64_t *some_us, uint64_t *full_us)
{
	FILE *f = fopen(path, "re");
	char line[256];
	int got = 0;

	*some_us = *full_us = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *t = strstr(line, "total=");
		uint64_t v;

		if (!t || sscanf(t + 6, "%" SCNu64, &v) != 1)
			continue;
		if (!strncmp(line, "some", 4)) {
			*some_us = v;
			got = 1;
		} else if (!strncmp(line, "full", 4)) {
			*full_us = v;
		}
	}
	fclose(f);
	return got ? 0 : -ENODATA;
}

int vms_psi_read(struct vms_psi *p, const char *dir)
{
	int r;

	for (r = 0; r < VMS_PSI_NR; r++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", dir ? dir : "/proc/pressure", psi_names[r]);
		p->available[r] = !vms_psi_read_file(path, &p->some_us[r], &p->full_us[r]);
	}
	return 0;
}

json_t *vms_psi_delta_json(const struct vms_psi *before, const struct vms_psi *after)
{
	json_t *o = json_object();
	int r;

	for (r = 0; r < VMS_PSI_NR; r++) {
		if (!after->available[r] || !before->available[r])
			continue;
		json_object_set_new(
		    o, psi_names[r],
		    json_pack("{s:I, s:I}", "some_us",
		              (json_int_t)(after->some_us[r] - before->some_us[r]), "full_us",
		              (json_int_t)(after->full_us[r] - before->full_us[r])));
	}
	return o;
}

int vms_meminfo_read(struct vms_meminfo *m, const char *path)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
	    {"MemTotal:", offsetof(struct vms_meminfo, mem_total)},
	    {"MemFree:", offsetof(struct vms_meminfo, mem_free)},
	    {"MemAvailable:", offsetof(struct vms_meminfo, mem_available)},
	    {"Cached:", offsetof(struct vms_meminfo, cached)},
	    {"Dirty:", offsetof(struct vms_meminfo, dirty)},
	    {"Writeback:", offsetof(struct vms_meminfo, writeback)},
	    {"SwapTotal:", offsetof(struct vms_meminfo, swap_total)},
	    {"SwapFree:", offsetof(struct vms_meminfo, swap_free)},
	    {"AnonPages:", offsetof(struct vms_meminfo, anon)},
	    {"Shmem:", offsetof(struct vms_meminfo, shmem)},
	};
	FILE *f = fopen(path ? path : "/proc/meminfo", "re");
	char key[64];
	uint64_t v;

	memset(m, 0, sizeof(*m));
	if (!f)
		return -errno;
	while (fscanf(f, "%63s %" SCNu64 "%*[^\n]", key, &v) == 2) {
		size_t i;

		for (i = 0; i < VMS_ARRAY_SIZE(keys); i++)
			if (!strcmp(key, keys[i].key))
				*(uint64_t *)((char *)m + keys[i].off) = v * 1024;
	}
	fclose(f);
	return m->mem_total ? 0 : -ENODATA;
}
