/* The sides of a comparison beyond one result file each: the suite-means test of sides of several
 * suites, the check of every suite against its side and BASE, what other processes took of the
 * CPUs during a side's runs ("confounded"), and the settings of the variants of one file. Part of
 * the compare model (declared in compare/compare.h); reads result documents only, no kernel
 * paths. */
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The suite-means test of sides of several suites: each suite's geometric mean is one
 * observation, so the drift between suites (separate boots, the machine's state) is part of the
 * error whatever its size, and the runs never decide alone. vms_suites_change() given each suite
 * mean twice sees no spread within the suites, so its suite means decide; the drift and the
 * runs' spread reported come from the runs themselves. 0 or -errno as vms_suites_change();
 * -EDOM also when every suite mean is the same. */
int vms_compare_suite_means_change(const struct vms_compare_side *a,
                                   const struct vms_compare_side *b, double alpha,
                                   struct vms_change *ch, double *drift, double *within)
{
	const struct vms_compare_side *sd[2] = {a, b};
	double *v[2], dummy;
	unsigned *su[2];
	size_t n[2], i, side;
	int used, ret;

	ret = vms_suites_change(a->values, a->suite, a->s.n, b->values, b->suite, b->s.n, alpha, ch,
	                        &used, drift, within);
	if (ret)
		return ret;
	for (side = 0; side < 2; side++) {
		const struct vms_compare_side *x = sd[side];
		size_t ns = 0, *cnt;
		double *sum;

		for (i = 0; i < x->s.n; i++)
			ns = x->suite[i] + 1 > ns ? x->suite[i] + 1 : ns;
		sum = vms_xcalloc(ns + 1, sizeof(*sum));
		cnt = vms_xcalloc(ns + 1, sizeof(*cnt));
		for (i = 0; i < x->s.n; i++) {
			sum[x->suite[i]] += log(x->values[i]);
			cnt[x->suite[i]]++;
		}
		v[side] = vms_xcalloc(2 * ns + 1, sizeof(*v[side]));
		su[side] = vms_xcalloc(2 * ns + 1, sizeof(*su[side]));
		n[side] = 0;
		for (i = 0; i < ns; i++)
			if (cnt[i]) {
				v[side][2 * n[side]] = v[side][2 * n[side] + 1] =
				    exp(sum[i] / cnt[i]);
				su[side][2 * n[side]] = su[side][2 * n[side] + 1] =
				    (unsigned)n[side];
				n[side]++;
			}
		free(sum);
		free(cnt);
	}
	ret = vms_suites_change(v[0], su[0], 2 * n[0], v[1], su[1], 2 * n[1], alpha, ch, &used,
	                        &dummy, &dummy);
	if (!ret && !used)
		ret = -EDOM;
	for (side = 0; side < 2; side++) {
		free(v[side]);
		free(su[side]);
	}
	return ret;
}

/* True for the workload's wall-clock time and rates: another process on its CPUs slows them
 * by about its share of the CPUs. */
static int wall_clock_metric(const struct vms_compare_metric *m)
{
	size_t len = strlen(m->unit);

	return m->def &&
	       (!strcmp(m->name, "elapsed_s") || (m->def->group == VMS_GROUP_WORKLOAD && len > 2 &&
	                                          !strcmp(m->unit + len - 2, "/s")));
}

/* True for the metrics that another process on the CPUs moves: the workload's wall-clock time
 * and rates, and what the audio probe hears and how late it wakes. CPU times, faults and
 * reclaim counts are the kernel's work and stay. */
static int timing_metric(const struct vms_compare_metric *m)
{
	return wall_clock_metric(m) ||
	       (m->def && (m->def->group == VMS_GROUP_SOUND || m->def->group == VMS_GROUP_LATENCY));
}

/* True when the disturbance of the busier side could explain the change of cell c.
 *
 * A timing metric that moved the way busier CPUs move it (worse on the side with more of other
 * processes' CPU time on average, which had disturbed runs), then:
 *  - sound and latency metrics, and an unstable verdict: confounded (an underrun follows a late
 *    wake-up, not a share of the CPU; other processes spread the runs as well as slow them);
 *  - the wall-clock ones (elapsed_s, the workload's rates): with d the busier side's mean
 *    other_cpu_pct beyond the other side's times VMS_COMPARE_DISTURBANCE_GAIN (at most 95 %),
 *    1 + e = 1 / (1 - d) is the most it can have slowed that side. A shown regression or
 *    improvement is confounded when its bound (c->shown), moved towards 1 by 1 + e, no longer
 *    lies beyond the threshold: a large change survives a small disturbance. Any other verdict
 *    is confounded (its interval holds changes the disturbance explains), except where BASE
 *    was the quieter side and the change stays non-inferior (other work only made that side
 *    look worse, and it passed anyway).
 * "no change" and the verdicts that judge nothing are left alone. */
int vms_compare_disturbance_explains(const struct vms_compare_workload *w,
                                     const struct vms_compare_metric *m,
                                     const struct vms_compare_cell *c, size_t k, double threshold)
{
	const struct vms_compare_busy *a = &w->busy[0], *b = &w->busy[k + 1];
	const struct vms_compare_busy *busier, *quieter;
	int worse;
	double other, e;

	if (!timing_metric(m) || m->better == VMS_BETTER_NONE || isnan(c->change) || c->change == 1)
		return 0;
	switch (c->verdict) {
	case VMS_VERDICT_REGRESSION:
	case VMS_VERDICT_IMPROVEMENT:
	case VMS_VERDICT_PROB_REGRESSION:
	case VMS_VERDICT_PROB_IMPROVEMENT:
	case VMS_VERDICT_INCONCLUSIVE:
	case VMS_VERDICT_UNSTABLE: break;
	default: return 0;
	}
	worse = m->better == VMS_BETTER_LOWER ? c->change > 1 : c->change < 1;
	busier = worse ? b : a;
	quieter = worse ? a : b;
	other = quieter->known ? quieter->mean : 0;
	if (!busier->disturbed || !(busier->mean > other))
		return 0;
	if (!wall_clock_metric(m) || c->verdict == VMS_VERDICT_UNSTABLE)
		return 1;
	if (worse && c->noninferior) /* never set on a regression */
		return 0;
	if (isnan(c->shown))
		return 1;
	/* other processes holding a share d of a CPU-bound workload's CPU slow it by 1 / (1 - d) */
	e = 1 / (1 - fmin(VMS_COMPARE_DISTURBANCE_GAIN * (busier->mean - other) / 100, 0.95)) - 1;
	/* the shown bound moved towards 1 by what the disturbance can do: still beyond? */
	return c->shown > 1 ? c->shown / (1 + e) <= 1 + threshold
	                    : c->shown * (1 + e) >= 1 - threshold;
}

void vms_compare_busy_of(struct vms_compare_busy *b, const struct vms_rdoc_workload *const *wls,
                         size_t n, double above)
{
	size_t i, j;
	double sum = 0;

	memset(b, 0, sizeof(*b));
	b->mean = b->max = b->io_mean = b->io_max = NAN;
	for (i = 0; i < n; i++) {
		const struct vms_rdoc_metric *m =
		    wls[i] ? vms_rdoc_metric(wls[i], "other_io_mb") : NULL;

		for (j = 0; m && j < m->n_values; j++) {
			b->io_max = b->io_runs ? fmax(b->io_max, m->values[j]) : m->values[j];
			b->io_mean =
			    (b->io_runs ? b->io_mean * (double)b->io_runs : 0) + m->values[j];
			b->io_mean /= (double)++b->io_runs;
		}
	}
	for (i = 0; i < n; i++) {
		const struct vms_rdoc_metric *m =
		    wls[i] ? vms_rdoc_metric(wls[i], "other_cpu_pct") : NULL;

		for (j = 0; m && j < m->n_values; j++) {
			double x = m->values[j]; /* a failed run has no value */
			double res = m->value_run[j] < wls[i]->n_runs
			                 ? wls[i]->runs[m->value_run[j]].resolution_pct
			                 : NAN;

			b->max = b->runs ? fmax(b->max, x) : x;
			b->runs++;
			/* less than two clock ticks of other processes' time is within
			 * /proc/stat's rounding: not disturbed, as the runner marks it */
			b->disturbed += x > above && !(x < res);
			sum += x;
		}
	}
	b->known = b->runs > 0;
	if (b->known)
		b->mean = sum / (double)b->runs;
}

/* Facts that must agree between the suites of one side, beyond the hard ones: suites of other
 * kernels pooled would measure no kernel. */
static int same_kernel_key(const char *key)
{
	return !strcmp(key, "kernel_release") || !strcmp(key, "kernel_version");
}

/* Adds a copy of item it to d as class cls, its key prefixed with what was compared
 * ("b2.json: cpu_model", "b2.json vs b1.json: cpu_model"; prefix NULL: none). */
static void env_add_suite(struct vms_envdiff *d, const struct vms_env_item *it,
                          enum vms_env_class cls, const char *prefix)
{
	struct vms_env_item *n;

	d->items = vms_xrealloc(d->items, (d->n + 1) * sizeof(*d->items));
	n = &d->items[d->n++];
	n->cls = cls;
	n->scope = it->scope;
	n->key = prefix ? vms_xasprintf("%s: %s", prefix, it->key) : vms_xstrdup(it->key);
	n->workload = it->workload ? vms_xstrdup(it->workload) : NULL;
	n->base = vms_xstrdup(it->base);
	n->other = vms_xstrdup(it->other);
}

/* True when d has an item with its key, class and values (the same difference again). */
static int env_has(const struct vms_envdiff *d, const struct vms_env_item *it)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->items[i].cls == it->cls && !strcmp(d->items[i].key, it->key) &&
		    !strcmp(d->items[i].base, it->base) && !strcmp(d->items[i].other, it->other))
			return 1;
	return 0;
}

/* The workloads (and variants) that suite doc has and the side's first suite lacks, and the
 * other way round: a workload some suites of a side lack would be pooled from the others
 * alone. Added to d as hard differences of that workload; other variants (labels or
 * settings) as a hard difference of every workload. */
static void suite_workloads(struct vms_envdiff *d, const struct vms_rdoc *first,
                            const struct vms_rdoc *doc)
{
	const struct vms_rdoc *pair[2] = {first, doc};
	size_t side, i;

	for (side = 0; side < 2; side++)
		for (i = 0; i < pair[side]->n_workloads; i++) {
			const struct vms_rdoc_workload *wl = &pair[side]->workloads[i];
			const char *name = wl->name, *v = wl->variant;
			struct vms_env_item it = {.cls = VMS_ENV_HARD, .scope = VMS_ENV_WORKLOAD};

			if (!wl->has_name || vms_rdoc_workload(pair[!side], name, v))
				continue;
			if (v && !strcmp(v, VMS_RESULT_VARIANT_DEFAULT))
				v = NULL;
			it.workload = (char *)name;
			it.key = v ? vms_xasprintf("%s [%s]: workload", name, v)
			           : vms_xasprintf("%s: workload", name);
			it.base = (char *)(side ? "(absent)" : "ran");
			it.other = (char *)(side ? "ran" : "(absent)");
			env_add_suite(d, &it, VMS_ENV_HARD, NULL);
			free(it.key);
		}
	if (!json_equal(first->variants_json, doc->variants_json)) {
		struct vms_env_item it = {.cls = VMS_ENV_HARD, .scope = VMS_ENV_GLOBAL};
		const json_t *va = first->variants_json;
		const json_t *vb = doc->variants_json;
		char *sa = va ? json_dumps(va, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		char *sb = vb ? json_dumps(vb, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

		it.key = (char *)"variants";
		it.base = sa ? sa : (char *)"(absent)";
		it.other = sb ? sb : (char *)"(absent)";
		env_add_suite(d, &it, VMS_ENV_HARD, NULL);
		free(sa);
		free(sb);
	}
}

/* Adds to d what one further suite (path) of a side showed: base, its differences from BASE's
 * first suite (hard and soft ones that d does not already hold); own, its differences from its
 * side's first suite (vs names both): hard ones, another kernel (hard: suites of other kernels
 * measure no kernel), another label and the soft ones (possible confounders). */
static void add_suite_findings(struct vms_envdiff *d, const struct vms_envdiff *base,
                               const struct vms_envdiff *own, const char *path, const char *vs)
{
	size_t i, t, start = d->n, skip = strlen(path) + 2;

	for (i = 0; i < base->n; i++)
		if (base->items[i].cls != VMS_ENV_EXPECTED && !env_has(d, &base->items[i]))
			env_add_suite(d, &base->items[i], base->items[i].cls, path);
	for (i = 0; i < own->n; i++) {
		const struct vms_env_item *it = &own->items[i];
		enum vms_env_class cls = same_kernel_key(it->key)    ? VMS_ENV_HARD
		                         : !strcmp(it->key, "label") ? VMS_ENV_SOFT
		                                                     : it->cls;
		int seen = 0;

		if (cls == VMS_ENV_EXPECTED)
			continue;
		/* what this suite already showed against BASE is not said twice */
		for (t = start; t < d->n; t++)
			seen |= !strcmp(d->items[t].key + skip, it->key);
		if (!seen)
			env_add_suite(d, it, cls, vs);
	}
}

void vms_compare_check_suites(struct vms_compare *c, size_t k, const struct vms_rdoc *docs,
                              size_t n, const struct vms_rdoc *base)
{
	size_t s, j;

	for (s = 1; s < n; s++) {
		const char *path = c->files[k].suite_paths[s];
		char *vs = vms_xasprintf("%s vs %s", path, c->files[k].suite_paths[0]);
		struct vms_envdiff own, based = {NULL, 0};

		vms_envdiff_of(&docs[0], &docs[s], &own);
		suite_workloads(&own, &docs[0], &docs[s]);
		if (k)
			vms_envdiff_of(base, &docs[s], &based);
		for (j = k ? k : 1; j < (k ? k + 1 : c->n_files); j++)
			add_suite_findings(&c->env[j - 1], &based, &own, path, vs);
		vms_envdiff_release(&own);
		vms_envdiff_release(&based);
		free(vs);
	}
}

static void env_add(struct vms_envdiff *d, const char *key, const char *base, const char *other)
{
	struct vms_env_item *it;

	d->items = vms_xrealloc(d->items, (d->n + 1) * sizeof(*d->items));
	it = &d->items[d->n++];
	memset(it, 0, sizeof(*it));
	it->cls = VMS_ENV_EXPECTED;
	it->scope = VMS_ENV_GLOBAL;
	it->key = vms_xasprintf("variant: %s", key);
	it->base = vms_xstrdup(base ? base : "(absent)");
	it->other = vms_xstrdup(other ? other : "(absent)");
}

/* The value of knob in variant v, or NULL; *found: v sets it. */
static const char *knob_value(const struct vms_rdoc_variant *v, const char *knob, int *found)
{
	size_t i;

	*found = 0;
	for (i = 0; i < v->n_knobs; i++)
		if (!strcmp(v->knobs[i].knob, knob)) {
			*found = 1;
			return v->knobs[i].value;
		}
	return NULL;
}

/* The settings in which variant b of doc differs from variant a, as expected differences:
 * what the tester chose to vary. */
void vms_compare_variant_settings_diff(const struct vms_rdoc *doc, size_t a, size_t b,
                                       struct vms_envdiff *d)
{
	const struct vms_rdoc_variant *va = &doc->variants[a], *vb = &doc->variants[b];
	size_t i;
	int found;

	for (i = 0; i < va->n_knobs; i++) {
		const char *x = va->knobs[i].value, *y = knob_value(vb, va->knobs[i].knob, &found);

		if (!x || !y || strcmp(x, y))
			env_add(d, va->knobs[i].knob, x, y);
	}
	for (i = 0; i < vb->n_knobs; i++)
		if (!knob_value(va, vb->knobs[i].knob, &found) && !found)
			env_add(d, vb->knobs[i].knob, NULL, vb->knobs[i].value);
}
