/* The environment diff of `vmsuite compare`: walks the facts two result files recorded and
 * classes each difference (expected / soft / hard). Reads only the JSON documents. */
#include "compare/envdiff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/resultdoc.h"
#include "core/util.h"

const char *vms_env_class_name(enum vms_env_class cls)
{
	switch (cls) {
	case VMS_ENV_EXPECTED: return "expected";
	case VMS_ENV_SOFT: return "soft";
	default: return "hard";
	}
}

static char *value_text(const json_t *v)
{
	char *s, *out;

	if (!v)
		return vms_xstrdup("(absent)");
	if (json_is_string(v))
		return vms_xstrdup(json_string_value(v));
	s = json_dumps(v,
	               JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(12));
	if (!s)
		abort();
	out = vms_xstrdup(s);
	free(s);
	return out;
}

static void add(struct vms_envdiff *d, enum vms_env_class cls, enum vms_env_scope scope,
                const char *key, const char *workload, const json_t *a, const json_t *b)
{
	struct vms_env_item *it;

	d->items = vms_xrealloc(d->items, (d->n + 1) * sizeof(*d->items));
	it = &d->items[d->n++];
	it->cls = cls;
	it->scope = scope;
	it->key = vms_xstrdup(key);
	it->workload = workload ? vms_xstrdup(workload) : NULL;
	it->base = value_text(a);
	it->other = value_text(b);
}

/* Adds an item when a and b differ (absent counts as a value). */
static void check(struct vms_envdiff *d, enum vms_env_class cls, enum vms_env_scope scope,
                  const char *key, const char *workload, const json_t *a, const json_t *b)
{
	if (!a && !b)
		return;
	if (a && b && json_equal((json_t *)a, (json_t *)b))
		return;
	add(d, cls, scope, key, workload, a, b);
}

/* Each object key of a and b (a's order first, then keys only in b), calling fn. */
static void foreach_key(const json_t *a, const json_t *b,
                        void (*fn)(void *ctx, const char *key, const json_t *va, const json_t *vb),
                        void *ctx)
{
	const char *k;
	json_t *v;

	if (json_is_object(a))
		json_object_foreach ((json_t *)a, k, v)
			fn(ctx, k, v, json_object_get(b, k));
	if (json_is_object(b))
		json_object_foreach ((json_t *)b, k, v)
			if (!json_object_get(a, k))
				fn(ctx, k, NULL, v);
}

struct prefixed {
	struct vms_envdiff *d;
	enum vms_env_class cls;
	enum vms_env_scope scope;
	const char *prefix;
	const char *workload;
	int emulated; /* both files ran in an emulated machine with a memory limit */
};

/* Memory and swap sizes move a little with every kernel (each reserves a little more or less
 * memory): a change of at most this fraction of the larger is not a hard difference. */
#define SIZE_TOLERANCE 0.05

/* The class of a memory or swap size that differs between a and b: `within` when both are
 * positive and within SIZE_TOLERANCE of each other, else hard. */
static enum vms_env_class size_class(const json_t *a, const json_t *b, enum vms_env_class within)
{
	double x = json_number_value(a), y = json_number_value(b);

	if (!json_is_number(a) || !json_is_number(b))
		return VMS_ENV_HARD;
	if (x == y)
		return within;
	if (!(x > 0 && y > 0) || fabs(x - y) > SIZE_TOLERANCE * fmax(x, y))
		return VMS_ENV_HARD;
	return within;
}

/* The class of the host's RAM (mem) or swap size: under an emulated machine the cgroup's
 * limits are what the workloads see (compared in machine.*), so the host's sizes are only
 * possible confounders; on the host, RAM within the tolerance is the kernel's own reservation
 * (expected), swap within it a possible confounder. */
static enum vms_env_class host_size_class(const json_t *a, const json_t *b, int mem, int emulated)
{
	if (emulated)
		return VMS_ENV_SOFT;
	return size_class(a, b, mem ? VMS_ENV_EXPECTED : VMS_ENV_SOFT);
}

static const char *const fp_expected[] = {"kernel_release", "kernel_version"};
static const char *const fp_hard[] = {"cpu_count", "cpu_model", "page_size", "architecture"};
/* Parts of object-valued facts that differ from run to run without meaning anything. */
static const char *const fp_ignored[] = {"workdir_fs.free_bytes", "cgroup.path", "cgroup.lines"};

static int in_list(const char *key, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(key, list[i]))
			return 1;
	return 0;
}

static void check_fp_part(void *ctx, const char *key, const json_t *a, const json_t *b)
{
	struct prefixed *p = ctx;
	char *name = vms_xasprintf("%s%s", p->prefix, key);

	if (!in_list(name, fp_ignored, VMS_ARRAY_SIZE(fp_ignored)))
		check(p->d, p->cls, p->scope, name, p->workload, a, b);
	free(name);
}

struct fp_ctx {
	struct vms_envdiff *d;
	int emulated;
};

/* The host's swap areas less vmsuite's own temporary swap file (.vmsuite-swap-<pid>: a new
 * name every run, compared as machine.swap_file). New reference. */
static json_t *host_swaps(const json_t *a)
{
	json_t *out = json_array(), *e;
	size_t i;

	json_array_foreach ((json_t *)a, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		const char *base = name ? strrchr(name, '/') : NULL;

		if (!base || strncmp(base + 1, ".vmsuite-swap-", 14))
			json_array_append(out, e);
	}
	return out;
}

static void check_fingerprint(void *ctx, const char *key, const json_t *ea, const json_t *eb)
{
	struct fp_ctx *fc = ctx;
	struct vms_envdiff *d = fc->d;
	/* Fingerprint entries are {"value": ..., "source": ...}; only the value matters. */
	const json_t *a = json_is_object(ea) ? json_object_get(ea, "value") : ea;
	const json_t *b = json_is_object(eb) ? json_object_get(eb, "value") : eb;
	enum vms_env_class cls = VMS_ENV_SOFT;

	if (in_list(key, fp_expected, VMS_ARRAY_SIZE(fp_expected)))
		cls = VMS_ENV_EXPECTED;
	else if (in_list(key, fp_hard, VMS_ARRAY_SIZE(fp_hard)))
		cls = VMS_ENV_HARD;
	else if (!strcmp(key, "mem_total_bytes") || !strcmp(key, "swap_total_bytes"))
		cls = host_size_class(a, b, key[0] == 'm', fc->emulated);
	if (!strcmp(key, "swap_devices") && json_is_array(a) && json_is_array(b)) {
		json_t *ha = host_swaps(a), *hb = host_swaps(b);

		check(d, cls, VMS_ENV_GLOBAL, key, NULL, ha, hb);
		json_decref(ha);
		json_decref(hb);
		return;
	}
	if (json_is_object(a) && json_is_object(b)) {
		/* vm_sysctl entries read as "vm.NAME", other objects as "KEY.PART" */
		char *prefix =
		    !strcmp(key, "vm_sysctl") ? vms_xstrdup("vm.") : vms_xasprintf("%s.", key);
		struct prefixed p = {d, cls, VMS_ENV_GLOBAL, prefix, NULL, fc->emulated};

		foreach_key(a, b, check_fp_part, &p);
		free(prefix);
		return;
	}
	check(d, cls, VMS_ENV_GLOBAL, key, NULL, a, b);
}

/* The emulated machine: every limit is hard (sizes beyond SIZE_TOLERANCE); where it sat (paths)
 * and prose are left out; how the cgroup was driven is soft; the profile's plan is expected (it
 * sizes workloads that may not have run, from free disk; what ran is compared in the
 * workloads' options). Nested objects (the cgroup it made) are compared part by part as
 * "machine.cgroup.mem_limit_bytes". */
static void check_machine(void *ctx, const char *key, const json_t *a, const json_t *b)
{
	/* the zram device's number and diskseq say where, like a path; ram_bytes is the cgroup's
	 * limit plus the zram pool's, each compared */
	static const char *const ignored[] = {"note",   "cgroup_path", "path",
	                                      "device", "diskseq",     "ram_bytes"};
	static const char *const soft[] = {"cgroup_version", "version",         "peak_scope",
	                                   "pressure",       "swap_accounting", "filesystem",
	                                   "preallocation",  "cpus_from",       "sampler_cpu_list"};
	struct prefixed *p = ctx;
	json_t *file = NULL;
	enum vms_env_class cls = VMS_ENV_HARD;
	char *name;

	if (in_list(key, ignored, VMS_ARRAY_SIZE(ignored)))
		return;
	/* what the machine swaps to: a file in results made before --swap-kind; another kind is
	 * another machine (hard); no zram device (or zswap) recorded and none made are the same */
	if (!strcmp(key, "swap_kind") && (!a || !b))
		file = json_string("file");
	if (!strcmp(key, "swap_kind")) {
		a = a ? a : file;
		b = b ? b : file;
	}
	if ((!strcmp(key, "zram") || !strcmp(key, "zswap")) && (!a || json_is_null(a)) &&
	    (!b || json_is_null(b)))
		return;
	if (in_list(key, soft, VMS_ARRAY_SIZE(soft)))
		cls = VMS_ENV_SOFT;
	else if (p->cls == VMS_ENV_EXPECTED || !strcmp(key, "plan"))
		cls = VMS_ENV_EXPECTED;
	else if (!strcmp(key, "host_mem_total_bytes") || !strcmp(key, "host_swap_total_bytes"))
		cls = host_size_class(a, b, key[5] == 'm', p->emulated);
	else if (strstr(key, "_bytes"))
		cls = size_class(a, b, VMS_ENV_SOFT);
	name = vms_xasprintf("%s%s", p->prefix, key);
	if (json_is_object(a) && json_is_object(b)) {
		char *prefix = vms_xasprintf("%s.", name);
		struct prefixed sub = {p->d, cls, VMS_ENV_GLOBAL, prefix, NULL, p->emulated};

		foreach_key(a, b, check_machine, &sub);
		free(prefix);
	} else {
		check(p->d, cls, VMS_ENV_GLOBAL, name, NULL, a, b);
	}
	free(name);
	json_decref(file);
}

static void check_protocol(void *ctx, const char *key, const json_t *a, const json_t *b)
{
	struct fp_ctx *fc = ctx;
	struct vms_envdiff *d = fc->d;
	enum vms_env_class cls = VMS_ENV_SOFT;
	char *name;

	if (!strcmp(key, "machine")) {
		struct prefixed p = {d,          VMS_ENV_HARD, VMS_ENV_GLOBAL,
		                     "machine.", NULL,         fc->emulated};

		foreach_key(a, b, check_machine, &p);
		return;
	}
	/* runs and the plan (workloads, options, runs) are what was asked for; a workload's
	 * options are compared with the workload itself */
	if (!strcmp(key, "runs") || !strcmp(key, "with_audio") || !strcmp(key, "plan"))
		cls = VMS_ENV_EXPECTED;
	name = vms_xasprintf("protocol.%s", key);
	check(d, cls, VMS_ENV_GLOBAL, name, NULL, a, b);
	free(name);
}

struct wl_ctx {
	struct vms_envdiff *d;
	const char *workload;
};

static void check_option(void *ctx, const char *key, const json_t *a, const json_t *b)
{
	struct wl_ctx *w = ctx;
	/* The directory is where, not how much: a possible confounder, not a size. */
	enum vms_env_class cls = strcmp(key, "dir") ? VMS_ENV_HARD : VMS_ENV_SOFT;
	char *name = vms_xasprintf("%s: %s", w->workload, key);

	check(w->d, cls, VMS_ENV_WORKLOAD, name, w->workload, a, b);
	free(name);
}

/* A workload's definition version (workloads[].version; absent = 1, the files before it
 * was recorded): another definition measures something else, so a difference is hard. */
static void check_version(struct vms_envdiff *d, const char *workload,
                          const struct vms_rdoc_workload *wa, const struct vms_rdoc_workload *wb)
{
	json_t *a = json_integer(wa->version), *b = json_integer(wb->version);
	char *name = vms_xasprintf("%s: version", workload);

	check(d, VMS_ENV_HARD, VMS_ENV_WORKLOAD, name, workload, a, b);
	free(name);
	json_decref(a);
	json_decref(b);
}

/* Audio facts may be nested ({"mp3": {...}, "alsa": {...}}); leaf names decide the class. */
static int audio_hard_leaf(const char *leaf)
{
	static const char *const hard[] = {"sha256", "rate", "channels", "device"};

	return in_list(leaf, hard, VMS_ARRAY_SIZE(hard)) || strstr(leaf, "sha256") ||
	       !strncmp(leaf, "period", 6) || !strncmp(leaf, "buffer", 6);
}

/* Audio facts that differ on every run by construction (where the probe's cgroup was, when it
 * started, the path the same MP3 was read from — its hash is compared): never confounders. */
static const char *const audio_ignored[] = {"cgroup_procs", "t_playing", "file"};

static void check_audio_facts(struct vms_envdiff *d, const char *prefix, const json_t *a,
                              const json_t *b)
{
	const char *k;
	json_t *v;

	if (json_is_object(a) && json_is_object(b)) {
		json_object_foreach ((json_t *)a, k, v) {
			char *p;
			const json_t *vb = json_object_get(b, k);

			if (in_list(k, audio_ignored, VMS_ARRAY_SIZE(audio_ignored)))
				continue;
			p = vms_xasprintf("%s%s.", prefix, k);
			if (json_is_object(v) && json_is_object(vb)) {
				check_audio_facts(d, p, v, vb);
			} else {
				p[strlen(p) - 1] = '\0';
				check(d, audio_hard_leaf(k) ? VMS_ENV_HARD : VMS_ENV_SOFT,
				      VMS_ENV_AUDIO, p, NULL, v, vb);
			}
			free(p);
		}
		json_object_foreach ((json_t *)b, k, v) {
			char *p;

			if (json_object_get(a, k) ||
			    in_list(k, audio_ignored, VMS_ARRAY_SIZE(audio_ignored)))
				continue;
			p = vms_xasprintf("%s%s", prefix, k);
			check(d, audio_hard_leaf(k) ? VMS_ENV_HARD : VMS_ENV_SOFT, VMS_ENV_AUDIO, p,
			      NULL, NULL, v);
			free(p);
		}
	}
}

/* A header fact as a JSON value for check(): NULL when absent. New reference. */
static json_t *fact_str(const char *v)
{
	return v ? json_string(v) : NULL;
}

/* end_time: absent, null (vmsuite did not get to the end) or a time. */
static json_t *fact_end(const struct vms_rdoc *d)
{
	return d->end_time_state == 2 ? json_string(d->end_time)
	       : d->end_time_state    ? json_null()
	                              : NULL;
}

static json_t *fact_complete(const struct vms_rdoc *d)
{
	return d->complete_state ? json_boolean(d->complete) : NULL;
}

/* check() of two facts made for it (new references, NULL = absent), released after. */
static void check_new(struct vms_envdiff *d, enum vms_env_class cls, const char *key, json_t *a,
                      json_t *b)
{
	check(d, cls, VMS_ENV_GLOBAL, key, NULL, a, b);
	json_decref(a);
	json_decref(b);
}

void vms_envdiff_of(const struct vms_rdoc *base, const struct vms_rdoc *other,
                    struct vms_envdiff *d)
{
	struct fp_ctx fc = {d, base->machine.limited && other->machine.limited};
	size_t i;

	d->items = NULL;
	d->n = 0;
	check_new(d, VMS_ENV_EXPECTED, "label", fact_str(base->label), fact_str(other->label));
	check_new(d, VMS_ENV_EXPECTED, "start_time", fact_str(base->start_time),
	          fact_str(other->start_time));
	check_new(d, VMS_ENV_EXPECTED, "end_time", fact_end(base), fact_end(other));
	/* an interrupted suite: fewer runs, and the machine was in the state Ctrl-C left it */
	check_new(d, VMS_ENV_SOFT, "complete", fact_complete(base), fact_complete(other));
	check_new(d, VMS_ENV_SOFT, "tool.version", fact_str(base->version),
	          fact_str(other->version));
	foreach_key(base->protocol, other->protocol, check_protocol, &fc);
	foreach_key(base->fingerprint, other->fingerprint, check_fingerprint, &fc);
	for (i = 0; i < base->n_workloads; i++) {
		const struct vms_rdoc_workload *wa = &base->workloads[i], *wb;
		struct wl_ctx w = {d, wa->name};

		if (!wa->has_name || !(wb = vms_rdoc_workload(other, wa->name, NULL)))
			continue;
		check_version(d, wa->name, wa, wb);
		foreach_key(wa->options, wb->options, check_option, &w);
	}
	check_audio_facts(d, "audio.", base->audio_facts, other->audio_facts);
}

void vms_envdiff_build(const json_t *base, const json_t *other, struct vms_envdiff *d)
{
	struct vms_rdoc a, b;

	vms_rdoc_read(&a, base);
	vms_rdoc_read(&b, other);
	vms_envdiff_of(&a, &b, d);
	vms_rdoc_release(&a);
	vms_rdoc_release(&b);
}

void vms_envdiff_release(struct vms_envdiff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->items[i].key);
		free(d->items[i].workload);
		free(d->items[i].base);
		free(d->items[i].other);
	}
	free(d->items);
	d->items = NULL;
	d->n = 0;
}

int vms_envdiff_blocks(const struct vms_envdiff *d, const char *workload, int audio)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct vms_env_item *it = &d->items[i];

		if (it->cls != VMS_ENV_HARD)
			continue;
		if (it->scope == VMS_ENV_GLOBAL)
			return 1;
		if (it->scope == VMS_ENV_AUDIO && audio)
			return 1;
		if (it->scope == VMS_ENV_WORKLOAD && workload && !strcmp(it->workload, workload))
			return 1;
	}
	return 0;
}

size_t vms_envdiff_count(const struct vms_envdiff *d, enum vms_env_class cls)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->items[i].cls == cls;
	return n;
}
