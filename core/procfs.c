/* /proc/vmstat, /proc/meminfo and PSI readers: the system-wide counters that explain why a
 * workload run was slow (reclaim, swap, writeback, stalls); and the one parser each of
 * /proc/self/mountinfo and /proc/self/cgroup, for the cgroup and sysinfo modules. */
#include "core/procfs.h"

#include <ctype.h>
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
	static const char *const exact[] = {"pgfault",  "pgmajfault",   "pswpin",        "pswpout",
	                                    "pgpgin",   "pgpgout",      "compact_stall", "oom_kill",
	                                    "nr_dirty", "nr_writeback", "zswpin",        "zswpout",
	                                    "zswpwb"};
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
		const char *end;
		uint64_t v;

		if (!t || vms_parse_u64(t + 6, &end, &v) || (*end && !isspace((unsigned char)*end)))
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

char *vms_unescape_octal_inplace(char *s)
{
	char *d = s, *p = s;

	while (*p) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			*d++ = (char)(((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0'));
			p += 4;
		} else {
			*d++ = *p++;
		}
	}
	*d = '\0';
	return s;
}

int vms_mountinfo_parse_line(char *line, struct vms_mountinfo_entry *e)
{
	char *save = NULL, *tok, *f[3];
	int i;

	memset(e, 0, sizeof(*e));
	line[strcspn(line, "\n")] = '\0';
	tok = strtok_r(line, " ", &save);
	if (!tok || sscanf(tok, "%u", &e->mount_id) != 1)
		return -EINVAL;
	tok = strtok_r(NULL, " ", &save);
	if (!tok || sscanf(tok, "%u", &e->parent_id) != 1)
		return -EINVAL;
	tok = strtok_r(NULL, " ", &save);
	if (!tok || sscanf(tok, "%u:%u", &e->major, &e->minor) != 2)
		return -EINVAL;
	for (i = 0; i < 3; i++)
		if (!(f[i] = strtok_r(NULL, " ", &save)) || !strcmp(f[i], "-"))
			return -EINVAL;
	/* optional fields (shared:N, master:N, propagate_from:N, unbindable) up to "-" */
	while ((tok = strtok_r(NULL, " ", &save)) && strcmp(tok, "-"))
		;
	if (!tok)
		return -EINVAL;
	e->fstype = strtok_r(NULL, " ", &save);
	e->source = e->fstype ? strtok_r(NULL, " ", &save) : NULL;
	if (!e->source)
		return -EINVAL;
	e->super_options = strtok_r(NULL, " ", &save);
	if (!e->super_options)
		e->super_options = e->source + strlen(e->source); /* none: "" */
	e->root = vms_unescape_octal_inplace(f[0]);
	e->mount_point = vms_unescape_octal_inplace(f[1]);
	e->options = f[2];
	vms_unescape_octal_inplace(e->fstype);
	vms_unescape_octal_inplace(e->source);
	return 0;
}

int vms_mountinfo_open(struct vms_mountinfo *mi, const char *path)
{
	memset(mi, 0, sizeof(*mi));
	mi->f = fopen(path ? path : "/proc/self/mountinfo", "re");
	return mi->f ? 0 : -errno;
}

const struct vms_mountinfo_entry *vms_mountinfo_next(struct vms_mountinfo *mi)
{
	if (!mi->f)
		return NULL;
	while (getline(&mi->line, &mi->cap, mi->f) > 0)
		if (!vms_mountinfo_parse_line(mi->line, &mi->entry))
			return &mi->entry;
	return NULL;
}

void vms_mountinfo_release(struct vms_mountinfo *mi)
{
	if (mi->f)
		fclose(mi->f);
	free(mi->line);
	memset(mi, 0, sizeof(*mi));
}

void vms_mount_release(struct vms_mount *m)
{
	free(m->root);
	free(m->mount_point);
	free(m->fstype);
	free(m->device);
	free(m->options);
	free(m->super_options);
	memset(m, 0, sizeof(*m));
}

/* True when mount point mp contains abs_path. */
static int mount_contains(const char *mp, const char *abs_path)
{
	size_t n = strlen(mp);

	if (!strcmp(mp, "/"))
		return 1;
	return !strncmp(mp, abs_path, n) && (abs_path[n] == '\0' || abs_path[n] == '/');
}

int vms_mountinfo_find(const char *mountinfo_path, const char *abs_path, struct vms_mount *out)
{
	struct vms_mountinfo mi;
	const struct vms_mountinfo_entry *e;
	size_t best_len = 0;
	int found = 0, ret;

	memset(out, 0, sizeof(*out));
	if (!abs_path || abs_path[0] != '/')
		return -EINVAL;
	ret = vms_mountinfo_open(&mi, mountinfo_path);
	if (ret)
		return ret;
	while ((e = vms_mountinfo_next(&mi))) {
		size_t len = strlen(e->mount_point);

		if (!mount_contains(e->mount_point, abs_path) || (found && len < best_len))
			continue;
		vms_mount_release(out);
		out->root = vms_xstrdup(e->root);
		out->mount_point = vms_xstrdup(e->mount_point);
		out->fstype = vms_xstrdup(e->fstype);
		out->device = vms_xstrdup(e->source);
		out->options = vms_xstrdup(e->options);
		out->super_options = vms_xstrdup(e->super_options);
		out->major = e->major;
		out->minor = e->minor;
		best_len = len;
		found = 1;
	}
	vms_mountinfo_release(&mi);
	return found ? 0 : -ENOENT;
}

void vms_proc_cgroup_release(struct vms_proc_cgroup *pc)
{
	free(pc->v2_path);
	free(pc->v1_memory_path);
	free(pc->v1_first_path);
	memset(pc, 0, sizeof(*pc));
}

/* Whether a v1 controller list names a real controller (not only name=X hierarchies), and
 * whether one of them is memory. */
static void v1_controllers(const char *list, int *any, int *memory)
{
	const char *p = list;

	*any = *memory = 0;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n && strncmp(p, "name=", 5))
			*any = 1;
		if (n == 6 && !strncmp(p, "memory", 6))
			*memory = 1;
		p += n;
		if (*p)
			p++;
	}
}

void vms_proc_cgroup_parse(struct vms_proc_cgroup *pc, const char *text)
{
	const char *line = text;

	memset(pc, 0, sizeof(*pc));
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char *copy = vms_xmalloc(len + 1), *c1, *c2;
		int any, memory;

		memcpy(copy, line, len);
		copy[len] = '\0';
		line = eol ? eol + 1 : NULL;
		c1 = strchr(copy, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2 || c1 == copy) {
			free(copy);
			continue;
		}
		*c1 = *c2 = '\0';
		if (copy[strspn(copy, "0123456789")]) { /* the hierarchy id is a number */
			free(copy);
			continue;
		}
		if (!strcmp(copy, "0") && c1 + 1 == c2) {
			if (!pc->v2_path)
				pc->v2_path = vms_xstrdup(c2 + 1);
		} else if (c1 + 1 != c2) {
			v1_controllers(c1 + 1, &any, &memory);
			if (any && !pc->have_v1) {
				pc->have_v1 = 1;
				pc->v1_first_path = vms_xstrdup(c2 + 1);
			}
			if (memory && !pc->v1_memory_path)
				pc->v1_memory_path = vms_xstrdup(c2 + 1);
		}
		free(copy);
	}
}

int vms_proc_cgroup_read(struct vms_proc_cgroup *pc, const char *path)
{
	char *text = vms_read_text(path ? path : "/proc/self/cgroup");

	memset(pc, 0, sizeof(*pc));
	if (!text)
		return -errno;
	vms_proc_cgroup_parse(pc, text);
	free(text);
	return 0;
}

/* The CPU number of a "cpuN" word, or -1 (the "cpu" total line, or not a CPU line). */
static int cpu_line_number(const char *line, const char **rest)
{
	char *end;
	long n;

	if (strncmp(line, "cpu", 3) || !isdigit((unsigned char)line[3]))
		return -1;
	n = strtol(line + 3, &end, 10);
	if (n < 0 || n >= CPU_SETSIZE || (*end != ' ' && *end != '\t'))
		return -1;
	*rest = end;
	return (int)n;
}

int vms_cpustat_parse(const char *text, const cpu_set_t *set, struct vms_cpustat *out)
{
	const char *line = text;

	memset(out, 0, sizeof(*out));
	while (line && *line) {
		const char *rest;
		int cpu = cpu_line_number(line, &rest);
		/* user nice system idle iowait irq softirq steal (guest guest_nice are in user) */
		unsigned long long v[8] = {0};

		if (cpu >= 0 && (!set || CPU_ISSET(cpu, set)) &&
		    sscanf(rest, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		           &v[3], &v[4], &v[5], &v[6], &v[7]) >= 4) {
			out->user += v[0] + v[1];
			out->system += v[2] + v[5] + v[6];
			out->idle += v[3];
			out->iowait += v[4];
			out->steal += v[7];
			out->irq += v[5] + v[6];
			out->cpus++;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return out->cpus ? 0 : -ENOENT;
}

int vms_cpustat_read(const char *path, const cpu_set_t *set, struct vms_cpustat *out)
{
	/* a line per CPU of ~60 bytes plus the interrupt counters: read it all */
	char *text = vms_read_text(path ? path : "/proc/stat");
	int ret;

	if (!text)
		return -errno;
	ret = vms_cpustat_parse(text, set, out);
	free(text);
	return ret;
}

int vms_pid_stat_parse(const char *line, struct vms_pid_stat *out)
{
	const char *open = strchr(line, '('), *close = strrchr(line, ')');
	unsigned long long f[20];
	long pid;
	char *end;
	size_t n;
	int i, processor = -1;
	const char *p;

	memset(out, 0, sizeof(*out));
	if (!open || !close || close < open)
		return -EINVAL;
	pid = strtol(line, &end, 10);
	if (end == line || pid <= 0 || end > open)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, n);
	out->comm[n] = '\0';
	p = close + 1;
	while (*p == ' ')
		p++;
	if (!*p || *p == '\n')
		return -EINVAL;
	out->state = *p++;
	/* fields 4 (ppid) to 22 (starttime) */
	for (i = 0; i < 19; i++) {
		f[i] = strtoull(p, &end, 10);
		if (end == p)
			return -EINVAL;
		p = end;
	}
	/* on to field 39 (processor): 23 vsize ... 38 exit_signal */
	for (i = 0; i < 17; i++) {
		long long v = strtoll(p, &end, 10);

		if (end == p)
			break;
		p = end;
		if (i == 16)
			processor = (int)v;
	}
	out->pid = (pid_t)pid;
	out->ppid = (pid_t)f[0];
	out->flags = (unsigned long)f[5];
	out->utime = f[10];
	out->stime = f[11];
	out->cutime = f[12];
	out->cstime = f[13];
	out->starttime = f[18];
	out->processor = processor;
	return 0;
}

int vms_schedstat_parse(const char *text, uint64_t *run_ns, uint64_t *wait_ns)
{
	unsigned long long r, w;

	if (sscanf(text, "%llu %llu", &r, &w) != 2)
		return -EINVAL;
	*run_ns = r;
	*wait_ns = w;
	return 0;
}
