/* The ~10 Hz time series of one workload run (see series.h). Reads /proc/vmstat,
 * /proc/pressure, /proc/meminfo and the memory cgroup's usage. */
#include "workloads/series.h"

#include <string.h>

#include "core/util.h"

static const struct {
	const char *name, *unit;
	int cumulative; /* counters: stored as the increase since the run started */
} series_cols[VMS_SERIES_NR] = {
    [VMS_SERIES_PGFAULT] = {"pgfault", "faults", 1},
    [VMS_SERIES_PGMAJFAULT] = {"pgmajfault", "faults", 1},
    [VMS_SERIES_PSWPIN] = {"pswpin", "pages", 1},
    [VMS_SERIES_PSWPOUT] = {"pswpout", "pages", 1},
    [VMS_SERIES_PGSCAN] = {"pgscan", "pages", 1},
    [VMS_SERIES_PGSTEAL] = {"pgsteal", "pages", 1},
    [VMS_SERIES_PSI_MEM_SOME] = {"psi_memory_some_us", "us", 1},
    [VMS_SERIES_PSI_IO_SOME] = {"psi_io_some_us", "us", 1},
    [VMS_SERIES_MEM_FREE] = {"mem_free_kib", "KiB", 0},
    [VMS_SERIES_DIRTY] = {"dirty_kib", "KiB", 0},
    [VMS_SERIES_WRITEBACK] = {"writeback_kib", "KiB", 0},
    [VMS_SERIES_SWAP_USED] = {"swap_used_kib", "KiB", 0},
    [VMS_SERIES_CGROUP_USAGE] = {"cgroup_usage_kib", "KiB", 0},
};

/* Sums vmstat counters with a prefix; pgscan_/pgsteal_ also have _anon/_file splits of the
 * same pages, which must not be added twice. */
uint64_t vms_vmstat_sum(const struct vms_vmstat *s, const char *prefix, int skip_type_split)
{
	size_t plen = strlen(prefix);
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < s->n; i++) {
		const char *rest = s->kv[i].name + plen;

		if (strncmp(s->kv[i].name, prefix, plen))
			continue;
		if (skip_type_split && (!strcmp(rest, "anon") || !strcmp(rest, "file") ||
		                        !strcmp(rest, "direct_throttle")))
			continue;
		sum += s->kv[i].value;
	}
	return sum;
}

void vms_series_take(struct vms_series *se, double t)
{
	struct vms_meminfo mi;
	struct vms_psi psi;
	struct vms_series_sample *x;

	if (se->n == se->cap) {
		se->cap = se->cap ? se->cap * 2 : 256;
		se->s = vms_xrealloc(se->s, se->cap * sizeof(*se->s));
	}
	x = &se->s[se->n++];
	memset(x, 0, sizeof(*x));
	x->t = t;
	if (!vms_vmstat_read(&se->vm, NULL)) {
		x->v[VMS_SERIES_PGFAULT] = vms_vmstat_get(&se->vm, "pgfault");
		x->v[VMS_SERIES_PGMAJFAULT] = vms_vmstat_get(&se->vm, "pgmajfault");
		x->v[VMS_SERIES_PSWPIN] = vms_vmstat_get(&se->vm, "pswpin");
		x->v[VMS_SERIES_PSWPOUT] = vms_vmstat_get(&se->vm, "pswpout");
		x->v[VMS_SERIES_PGSCAN] = vms_vmstat_sum(&se->vm, "pgscan_", 1);
		x->v[VMS_SERIES_PGSTEAL] = vms_vmstat_sum(&se->vm, "pgsteal_", 1);
	}
	vms_psi_read(&psi, NULL);
	x->v[VMS_SERIES_PSI_MEM_SOME] = psi.some_us[VMS_PSI_MEMORY];
	x->v[VMS_SERIES_PSI_IO_SOME] = psi.some_us[VMS_PSI_IO];
	if (!vms_meminfo_read(&mi, NULL)) {
		x->v[VMS_SERIES_MEM_FREE] = mi.mem_free / 1024;
		x->v[VMS_SERIES_DIRTY] = mi.dirty / 1024;
		x->v[VMS_SERIES_WRITEBACK] = mi.writeback / 1024;
		x->v[VMS_SERIES_SWAP_USED] = (mi.swap_total - mi.swap_free) / 1024;
	}
	if (se->cg) {
		uint64_t usage = 0;

		vms_cgroup_usage(se->cg, &usage);
		x->v[VMS_SERIES_CGROUP_USAGE] = usage / 1024;
	}
}

json_t *vms_series_json(const struct vms_series *se, double hz)
{
	json_t *o = json_object(), *t = json_array(), *cols = json_object();
	size_t i;
	int c;

	for (i = 0; i < se->n; i++)
		json_array_append_new(t, json_real((double)(long)(se->s[i].t * 1000) / 1000));
	for (c = 0; c < VMS_SERIES_NR; c++) {
		json_t *a;

		if (c == VMS_SERIES_CGROUP_USAGE && !se->cg)
			continue;
		a = json_array();

		for (i = 0; i < se->n; i++) {
			uint64_t v = se->s[i].v[c];

			if (series_cols[c].cumulative)
				v = v >= se->s[0].v[c] ? v - se->s[0].v[c] : 0;
			json_array_append_new(a, json_integer((json_int_t)v));
		}
		json_object_set_new(cols, series_cols[c].name,
		                    json_pack("{s:s, s:b, s:o}", "unit", series_cols[c].unit,
		                              "cumulative", series_cols[c].cumulative, "values",
		                              a));
	}
	json_object_set_new(o, "interval_s", json_real(1.0 / hz));
	json_object_set_new(o, "t_s", t);
	json_object_set_new(o, "columns", cols);
	return o;
}
