/* The one reader of result documents: walks a loaded document once into struct vms_rdoc,
 * checking the type of every field it reads, and derives the counts of runs[]. No kernel
 * paths. */
#include "core/resultdoc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static int (*workload_not_primary)(const char *workload, const char *metric);

void vms_rdoc_use_workloads(int (*fn)(const char *workload, const char *metric))
{
	workload_not_primary = fn;
}

/* The walk: where it is (a JSON path for messages) and the first error. */
struct walk {
	char *err;
	size_t errlen;
	int bad;
};

static void bad(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	if (w->bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(w->err, w->errlen, fmt, ap);
	va_end(ap);
}

/* o[key] when it is absent, null or of the type test accepts; else an error naming path.key. */
static const json_t *field(struct walk *w, const json_t *o, const char *path, const char *key,
                           int (*test)(const json_t *), const char *what)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v) || test(v))
		return v && !json_is_null(v) ? v : NULL;
	bad(w, "malformed result: %s%s%s: not %s", path, *path ? "." : "", key, what);
	return NULL;
}

static int is_string(const json_t *v)
{
	return json_is_string(v);
}
static int is_number(const json_t *v)
{
	return json_is_number(v);
}
static int is_integer(const json_t *v)
{
	return json_is_integer(v);
}
static int is_bool(const json_t *v)
{
	return json_is_boolean(v);
}
static int is_object(const json_t *v)
{
	return json_is_object(v);
}
static int is_array(const json_t *v)
{
	return json_is_array(v);
}

static const char *str(struct walk *w, const json_t *o, const char *path, const char *key)
{
	return json_string_value(field(w, o, path, key, is_string, "a string"));
}

static double num(struct walk *w, const json_t *o, const char *path, const char *key)
{
	const json_t *v = field(w, o, path, key, is_number, "a number");

	return v ? json_number_value(v) : NAN;
}

static const json_t *obj(struct walk *w, const json_t *o, const char *path, const char *key)
{
	return field(w, o, path, key, is_object, "an object");
}

static const json_t *arr(struct walk *w, const json_t *o, const char *path, const char *key)
{
	return field(w, o, path, key, is_array, "an array");
}

static int flag(struct walk *w, const json_t *o, const char *path, const char *key)
{
	return json_is_true(field(w, o, path, key, is_bool, "true or false"));
}

static enum vms_better better_of(const char *s)
{
	if (s && !strcmp(s, "lower"))
		return VMS_BETTER_LOWER;
	if (s && !strcmp(s, "higher"))
		return VMS_BETTER_HIGHER;
	return VMS_BETTER_NONE;
}

/* Whether metric m of workload wname decides: the catalogue's word, cleared where the workload
 * says; the file's for a metric the catalogue lacks. */
static int primary_of(const struct vms_metric_def *d, const char *wname, const char *name,
                      const json_t *file_primary)
{
	int not = -1;

	if (!d)
		return json_is_true(file_primary);
	if (!d->primary)
		return 0;
	if (workload_not_primary && wname)
		not = workload_not_primary(wname, name);
	if (not < 0)
		not = json_is_false(file_primary);
	return !not ;
}

static void metric_read(struct walk *w, struct vms_rdoc_metric *m, const char *name,
                        const json_t *mo, const char *wname, const char *path)
{
	const struct vms_metric_def *d = vms_metric_find(name);
	char *p = vms_xasprintf("%s.%s", path, name);
	const json_t *samples, *v;
	const char *unit, *better, *kind;
	size_t i;

	if (!json_is_object(mo)) {
		bad(w, "malformed result: %s: not an object", p);
		free(p);
		return;
	}
	unit = str(w, mo, p, "unit");
	better = str(w, mo, p, "better");
	kind = str(w, mo, p, "kind");
	samples = arr(w, mo, p, "samples");
	m->name = name;
	m->def = d;
	m->unit = d ? d->unit : unit ? unit : "";
	m->better = d ? d->better : better_of(better);
	m->count = d ? d->kind == VMS_KIND_COUNT : kind && !strcmp(kind, "count");
	m->primary = primary_of(d, wname, name, json_object_get(mo, "primary"));
	m->has_samples = samples != NULL;
	m->n_samples = json_array_size(samples);
	m->values = vms_xcalloc(m->n_samples + 1, sizeof(*m->values));
	m->value_run = vms_xcalloc(m->n_samples + 1, sizeof(*m->value_run));
	json_array_foreach (samples, i, v) {
		if (!json_is_number(v))
			continue; /* a failed run has no value */
		m->value_run[m->n_values] = i;
		m->values[m->n_values++] = json_number_value(v);
	}
	free(p);
}

static void metrics_read(struct walk *w, struct vms_rdoc_metric **out, size_t *n,
                         const json_t *metrics, const char *wname, const char *path)
{
	const char *name;
	json_t *mo;

	*n = json_object_size(metrics);
	*out = vms_xcalloc(*n + 1, sizeof(**out));
	*n = 0;
	json_object_foreach ((json_t *)metrics, name, mo)
		metric_read(w, &(*out)[(*n)++], name, mo, wname, path);
}

static void metric_free(struct vms_rdoc_metric *m)
{
	free(m->values);
	free(m->value_run);
}

/* ---- what the HTML page draws: read as far as it goes, not checked ---------------------- */

/* arr as doubles: NAN (zero 0) or 0 (zero 1) where an element is not a number. */
static void array_read(struct vms_rdoc_array *a, const json_t *arr, int zero)
{
	const json_t *e;
	size_t i;

	a->v = NULL;
	a->n = 0;
	if (!json_is_array(arr))
		return;
	a->n = json_array_size(arr);
	a->v = vms_xcalloc(a->n + 1, sizeof(*a->v));
	json_array_foreach (arr, i, e)
		a->v[i] = json_is_number(e) ? json_number_value(e) : zero ? 0 : NAN;
}

static double num_or(const json_t *o, const char *key, double def)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

static struct vms_rdoc_series *series_read(const json_t *o)
{
	struct vms_rdoc_series *s = vms_xcalloc(1, sizeof(*s));
	const json_t *cols = json_object_get(o, "columns"), *c;
	const char *name;

	array_read(&s->t, json_object_get(o, "t_s"), 0);
	s->cols = vms_xcalloc(json_object_size(cols) + 1, sizeof(*s->cols));
	json_object_foreach ((json_t *)cols, name, c) {
		s->cols[s->n_cols].name = name;
		array_read(&s->cols[s->n_cols++].values, json_object_get(c, "values"), 0);
	}
	return s;
}

static void series_free(struct vms_rdoc_series *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_cols; i++)
		free(s->cols[i].values.v);
	free(s->cols);
	free(s->t.v);
	free(s);
}

static void gap_read(struct vms_rdoc_gap *g, const json_t *o)
{
	const json_t *ev = json_object_get(o, "evidence");

	g->start_s = num_or(o, "start_s", NAN);
	g->duration_ms = num_or(o, "duration_ms", 0);
	g->cause = json_string_value(json_object_get(o, "cause"));
	g->evidence = json_is_object(ev) ? ev : NULL;
	g->late_ms = num_or(ev, "late_ms", 0);
	g->major_faults = num_or(ev, "major_faults", 0);
	g->minor_faults = num_or(ev, "minor_faults", 0);
	g->runqueue_ms = num_or(ev, "runqueue_ms", 0);
	g->psi_memory_ms = num_or(ev, "psi_memory_ms", 0);
	g->psi_io_ms = num_or(ev, "psi_io_ms", 0);
	g->has_delay = json_is_number(json_object_get(o, "delay_ms"));
	g->delay_ms = num_or(o, "delay_ms", 0);
	g->has_unclipped = json_is_number(json_object_get(o, "unclipped_ms"));
	g->unclipped_ms = num_or(o, "unclipped_ms", 0);
	g->ongoing = json_is_true(json_object_get(o, "ongoing"));
}

static struct vms_rdoc_window *window_read(const json_t *o)
{
	struct vms_rdoc_window *w = vms_xcalloc(1, sizeof(*w));
	const json_t *as = json_object_get(o, "series"), *lh = json_object_get(o, "latency_hist");
	const json_t *gaps = json_object_get(o, "gaps"), *g;
	size_t i;

	w->t0 = num_or(o, "t0", 0);
	w->t1 = num_or(o, "t1", 0);
	array_read(&w->t, json_object_get(as, "t_s"), 0);
	array_read(&w->fill_min_ms, json_object_get(as, "fill_min_ms"), 0);
	array_read(&w->hist_lower, json_object_get(lh, "lower_ms"), 1);
	array_read(&w->hist_count, json_object_get(lh, "count"), 1);
	w->gaps = vms_xcalloc(json_array_size(gaps) + 1, sizeof(*w->gaps));
	json_array_foreach (gaps, i, g)
		gap_read(&w->gaps[w->n_gaps++], g);
	return w;
}

static void window_free(struct vms_rdoc_window *w)
{
	if (!w)
		return;
	free(w->t.v);
	free(w->fill_min_ms.v);
	free(w->hist_lower.v);
	free(w->hist_count.v);
	free(w->gaps);
	free(w);
}

/* The detail of a probe window: its gaps by cause and whether it had no sound data. */
static void detail_read(struct walk *w, const json_t *detail, const char *path,
                        size_t causes[VMS_CAUSE_NR], const char **no_data)
{
	const json_t *c = obj(w, detail, path, "causes");
	int i;

	*no_data = json_string_value(json_object_get(detail, "no_sound_data"));
	for (i = 0; i < VMS_CAUSE_NR; i++) {
		json_int_t n = json_integer_value(json_object_get(c, vms_cause_name(i)));

		causes[i] = n > 0 ? (size_t)n : 0;
	}
}

static void run_read(struct walk *w, struct vms_rdoc_workload *wl, struct vms_rdoc_run *r,
                     const json_t *run, size_t i, const char *path)
{
	char *p = vms_xasprintf("%s.runs[%zu]", path, i);
	const char *st;
	const json_t *idx, *busy, *v;
	int failed;

	if (!json_is_object(run)) {
		bad(w, "malformed result: %s: not an object", p);
		free(p);
		return;
	}
	st = str(w, run, p, "status");
	if (!st)
		r->status = VMS_RDOC_NO_STATUS;
	else if (!strcmp(st, "ok"))
		r->status = VMS_RDOC_OK;
	else if (!strcmp(st, "failed"))
		r->status = VMS_RDOC_FAILED;
	else if (!strcmp(st, "interrupted"))
		r->status = VMS_RDOC_INTERRUPTED;
	else
		r->status = VMS_RDOC_OTHER;
	r->status_name = st ? st : "ok";
	r->reason = str(w, run, p, "reason");
	r->oom_killed = flag(w, run, p, "oom_killed");
	idx = field(w, run, p, "index", is_integer, "an integer");
	r->index = idx ? (long)json_integer_value(idx) : (long)i + 1;
	r->t_start = num(w, run, p, "t_start");
	r->t_end = num(w, run, p, "t_end");
	r->disturbed = flag(w, run, p, "disturbed");
	busy = obj(w, run, p, "busy");
	r->other_cpu_pct = busy ? num(w, busy, p, "other_cpu_pct") : NAN;
	r->resolution_pct = busy ? num(w, busy, p, "resolution_pct") : NAN;
	v = obj(w, run, p, "series");
	r->series = v ? series_read(v) : NULL;
	r->audio = obj(w, run, p, "audio");
	r->window = r->audio ? window_read(r->audio) : NULL;
	if (r->audio)
		detail_read(w, r->audio, p, r->causes, &r->no_sound_data);
	wl->n_ok += r->status == VMS_RDOC_OK;
	failed = r->status == VMS_RDOC_FAILED || r->status == VMS_RDOC_OTHER;
	wl->n_failed += failed;
	wl->n_oom += failed && r->oom_killed;
	wl->n_interrupted += r->status == VMS_RDOC_INTERRUPTED;
	wl->n_disturbed += (size_t)r->disturbed;
	free(p);
}

/* The counts of the catalogue derived from runs[]: one 0/1 value per run that ended (ok or
 * failed; an interrupted run or one without a status has no outcome), in run order. */
static void derived_make(struct vms_rdoc_workload *wl)
{
	size_t i, k, n = 0;

	for (i = 0; i < vms_metric_count(); i++)
		n += vms_metric_defs[i].source == VMS_SOURCE_RUNS;
	wl->derived = vms_xcalloc(n + 1, sizeof(*wl->derived));
	for (i = 0; i < vms_metric_count(); i++) {
		const struct vms_metric_def *d = &vms_metric_defs[i];
		struct vms_rdoc_metric *m;

		if (d->source != VMS_SOURCE_RUNS)
			continue;
		m = &wl->derived[wl->n_derived++];
		m->name = d->name;
		m->def = d;
		m->unit = d->unit;
		m->better = d->better;
		m->count = d->kind == VMS_KIND_COUNT;
		/* failed_runs always decides: a kernel on which the workload fails must not pass */
		m->primary = d->primary;
		m->derived = 1;
		m->has_samples = 1;
		m->n_samples = wl->n_runs;
		m->values = vms_xcalloc(wl->n_runs + 1, sizeof(*m->values));
		m->value_run = vms_xcalloc(wl->n_runs + 1, sizeof(*m->value_run));
		for (k = 0; k < wl->n_runs; k++) {
			const struct vms_rdoc_run *r = &wl->runs[k];

			if (r->status != VMS_RDOC_OK && r->status != VMS_RDOC_FAILED)
				continue;
			m->value_run[m->n_values] = k;
			m->values[m->n_values++] = !strcmp(d->name, "failed_runs")
			                               ? r->status == VMS_RDOC_FAILED
			                               : r->oom_killed;
		}
	}
}

static void workload_read(struct walk *w, struct vms_rdoc_workload *wl, const json_t *o, size_t i)
{
	char *p = vms_xasprintf("workloads[%zu]", i), *mp;
	const char *status, *name;
	const json_t *runs, *run, *ver;
	size_t k;

	if (!json_is_object(o)) {
		bad(w, "malformed result: %s: not an object", p);
		free(p);
		return;
	}
	name = str(w, o, p, "name");
	wl->has_name = name != NULL;
	wl->name = name ? name : "?";
	wl->variant = str(w, o, p, "variant");
	if (!wl->variant)
		wl->variant = VMS_RESULT_VARIANT_DEFAULT;
	wl->summary = str(w, o, p, "summary");
	status = str(w, o, p, "status");
	if (status && !strcmp(status, "skipped")) {
		wl->skipped = str(w, o, p, "reason");
		if (!wl->skipped)
			wl->skipped = "no reason recorded";
	}
	ver = field(w, o, p, "version", is_integer, "an integer");
	wl->version = ver ? (long)json_integer_value(ver) : 1;
	wl->options = obj(w, o, p, "options");
	mp = vms_xasprintf("%s.metrics", p);
	metrics_read(w, &wl->metrics, &wl->n_metrics, obj(w, o, p, "metrics"), name, mp);
	free(mp);
	runs = arr(w, o, p, "runs");
	wl->n_runs = json_array_size(runs);
	wl->runs = vms_xcalloc(wl->n_runs + 1, sizeof(*wl->runs));
	json_array_foreach (runs, k, run)
		run_read(w, wl, &wl->runs[k], run, k, p);
	derived_make(wl);
	free(p);
}

static void workload_free(struct vms_rdoc_workload *wl)
{
	size_t i;

	for (i = 0; i < wl->n_metrics; i++)
		metric_free(&wl->metrics[i]);
	for (i = 0; i < wl->n_derived; i++)
		metric_free(&wl->derived[i]);
	for (i = 0; i < wl->n_runs; i++) {
		series_free(wl->runs[i].series);
		window_free(wl->runs[i].window);
	}
	free(wl->metrics);
	free(wl->derived);
	free(wl->runs);
}

static void machine_read(struct walk *w, struct vms_rdoc_machine *mc, const json_t *protocol)
{
	const json_t *m = obj(w, protocol, "protocol", "machine"), *cpus, *cg;
	const char *p = "protocol.machine";

	mc->json = m;
	mc->profile = str(w, m, p, "profile");
	mc->shown = json_object_get(m, "mem_limit_bytes") != NULL;
	mc->limited = !isnan(num(w, m, p, "mem_limit_bytes"));
	mc->mem_limit_bytes = mc->limited ? num(w, m, p, "mem_limit_bytes") : 0;
	mc->effective_swap_bytes = num(w, m, p, "effective_swap_bytes");
	if (isnan(mc->effective_swap_bytes))
		mc->effective_swap_bytes = 0;
	cg = field(w, m, p, "cgroup_version", is_integer, "an integer");
	mc->cgroup_version = (int)json_integer_value(cg);
	cpus = field(w, m, p, "cpus", is_integer, "an integer");
	mc->cpus = cpus ? (int)json_integer_value(cpus) : -1;
	mc->note = str(w, m, p, "note");
}

static void audio_read(struct walk *w, struct vms_rdoc *d)
{
	const json_t *b, *v;

	d->audio = obj(w, d->json, "", "audio");
	d->audio_facts = obj(w, d->audio, "audio", "facts");
	d->audio_device = str(w, d->audio_facts, "audio.facts", "device");
	v = field(w, d->audio_facts, "audio.facts", "virtual_device", is_bool, "true or false");
	d->audio_virtual = v ? json_is_true(v) : -1;
	b = obj(w, d->audio, "audio", "baseline");
	d->has_baseline = b != NULL;
	d->baseline_t_start = NAN;
	d->baseline_metrics = vms_xcalloc(1, sizeof(*d->baseline_metrics));
	if (!b)
		return;
	free(d->baseline_metrics);
	metrics_read(w, &d->baseline_metrics, &d->n_baseline_metrics,
	             obj(w, b, "audio.baseline", "metrics"), NULL, "audio.baseline.metrics");
	d->baseline_detail = obj(w, b, "audio.baseline", "detail");
	if (d->baseline_detail)
		d->baseline_window = window_read(d->baseline_detail);
	if (d->baseline_detail)
		detail_read(w, d->baseline_detail, "audio.baseline.detail", d->baseline_causes,
		            &d->baseline_no_sound_data);
	d->baseline_t_start = num(w, b, "audio.baseline", "t_start");
}

static void settings_read(struct vms_rdoc_variant *v)
{
	const char *knob;
	json_t *value;

	v->knobs = vms_xcalloc(json_object_size(v->settings) + 1, sizeof(*v->knobs));
	json_object_foreach ((json_t *)v->settings, knob, value) {
		v->knobs[v->n_knobs].knob = knob;
		v->knobs[v->n_knobs++].value = json_string_value(value);
	}
}

static void variants_read(struct walk *w, struct vms_rdoc *d)
{
	const json_t *vs = arr(w, d->json, "", "variants"), *v;
	size_t i;

	d->variants_listed = vs != NULL;
	d->variants_json = vs;
	d->n_variants = json_array_size(vs) ? json_array_size(vs) : 1;
	d->variants = vms_xcalloc(d->n_variants, sizeof(*d->variants));
	d->variants[0].label = VMS_RESULT_VARIANT_DEFAULT;
	if (!vs)
		settings_read(&d->variants[0]);
	json_array_foreach (vs, i, v) {
		char *p = vms_xasprintf("variants[%zu]", i);

		d->variants[i].label = json_is_object(v) ? str(w, v, p, "label") : NULL;
		if (!d->variants[i].label)
			d->variants[i].label = VMS_RESULT_VARIANT_DEFAULT;
		d->variants[i].settings = json_is_object(v) ? obj(w, v, p, "settings") : NULL;
		settings_read(&d->variants[i]);
		free(p);
	}
}

static void adaptive_read(struct walk *w, struct vms_rdoc *d)
{
	struct vms_rdoc_adaptive *a = &d->adaptive;
	const json_t *ad = obj(w, d->json, "", "adaptive"), *v, *looks, *last, *lw;
	size_t i;

	a->present = ad != NULL;
	a->json = ad;
	a->budget_s = num(w, ad, "adaptive", "budget_s");
	a->alpha_per_look = num(w, ad, "adaptive", "alpha_per_look");
	a->n_looks = json_array_size(arr(w, ad, "adaptive", "looks"));
	v = field(w, ad, "adaptive", "max_looks", is_integer, "an integer");
	a->max_looks = v ? (long)json_integer_value(v) : -1;
	obj(w, ad, "adaptive", "stop"); /* an object, or null while the runs go on */
	a->stop = json_object_get(ad, "stop");
	a->stop_text = str(w, obj(w, ad, "adaptive", "stop"), "adaptive.stop", "text");
	looks = arr(w, ad, "adaptive", "looks");
	last = json_array_get(looks, json_array_size(looks) - 1);
	lw = arr(w, last, "adaptive.looks[-1]", "workloads");
	a->last_look = vms_xcalloc(json_array_size(lw) + 1, sizeof(*a->last_look));
	json_array_foreach (lw, i, v) {
		struct vms_rdoc_look_workload *l = &a->last_look[a->n_last_look++];
		const json_t *n;

		if (!json_is_object(v))
			continue;
		l->workload = str(w, v, "adaptive.looks[-1].workloads[]", "workload");
		l->decision = str(w, v, "adaptive.looks[-1].workloads[]", "decision");
		n = field(w, v, "adaptive.looks[-1].workloads[]", "runs", is_integer, "an integer");
		l->runs = (long)json_integer_value(n);
		n = field(w, v, "adaptive.looks[-1].workloads[]", "baseline_runs", is_integer,
		          "an integer");
		l->baseline_runs = (long)json_integer_value(n);
		l->baseline_too_few =
		    flag(w, v, "adaptive.looks[-1].workloads[]", "baseline_too_few");
	}
}

int vms_rdoc_init(struct vms_rdoc *d, const json_t *doc, char *err, size_t errlen)
{
	struct walk w = {err, errlen, 0};
	const json_t *v, *wls, *wl;
	size_t i;

	memset(d, 0, sizeof(*d));
	d->json = json_incref((json_t *)doc);
	if (!json_is_object(doc))
		bad(&w, "malformed result: not a JSON object");
	d->version = str(&w, obj(&w, doc, "", "tool"), "tool", "version");
	d->has_tool_version = d->version != NULL;
	d->label = str(&w, doc, "", "label");
	d->has_label = d->label != NULL;
	d->start_time = str(&w, doc, "", "start_time");
	d->has_start_time = d->start_time != NULL;
	v = json_object_get(doc, "end_time");
	d->end_time = str(&w, doc, "", "end_time");
	d->end_time_state = !v ? 0 : json_is_null(v) ? 1 : 2;
	v = field(&w, doc, "", "complete", is_bool, "true or false");
	d->complete_state = v ? json_is_true(v) + 1 : 0;
	d->complete = json_is_true(v);
	d->interrupted = flag(&w, doc, "", "interrupted");
	v = field(&w, doc, "", "exit_status", is_integer, "an integer");
	d->has_exit_status = v != NULL;
	d->exit_status = v ? (long)json_integer_value(v) : 0;
	d->finished = d->end_time && d->has_exit_status;
	d->command_line = arr(&w, doc, "", "command_line");
	d->protocol = obj(&w, doc, "", "protocol");
	d->fingerprint = obj(&w, doc, "", "fingerprint");
	d->verdict = obj(&w, doc, "", "verdict");
	d->verdict_compare = json_object_get(d->verdict, "compare");
	d->verdict_metrics = arr(&w, d->verdict, "verdict", "metrics");
	machine_read(&w, &d->machine, d->protocol);
	audio_read(&w, d);
	v = json_object_get(d->protocol, "with_audio");
	d->audio_off = json_is_false(v);
	d->with_audio = json_is_true(v) || d->audio;
	variants_read(&w, d);
	adaptive_read(&w, d);
	wls = arr(&w, doc, "", "workloads");
	d->n_workloads = json_array_size(wls);
	d->workloads = vms_xcalloc(d->n_workloads + 1, sizeof(*d->workloads));
	json_array_foreach (wls, i, wl)
		workload_read(&w, &d->workloads[i], wl, i);
	if (w.bad) {
		vms_rdoc_release(d);
		return -EINVAL;
	}
	return 0;
}

void vms_rdoc_read(struct vms_rdoc *d, const json_t *doc)
{
	char err[256];

	if (vms_rdoc_init(d, doc, err, sizeof(err))) {
		json_t *empty = json_object();

		vms_rdoc_init(d, empty, err, sizeof(err));
		json_decref(empty);
	}
}

int vms_rdoc_load(struct vms_rdoc *d, const char *path, enum vms_load_error *error, char *err,
                  size_t errlen)
{
	json_t *doc = vms_result_load(path, error, err, errlen);
	int ret;

	memset(d, 0, sizeof(*d));
	if (!doc)
		return -1;
	ret = vms_rdoc_init(d, doc, err, errlen); /* cannot fail: the load made the same walk */
	json_decref(doc);
	if (ret) {
		*error = VMS_LOAD_MALFORMED;
		return -1;
	}
	d->path = path;
	return 0;
}

void vms_rdoc_release(struct vms_rdoc *d)
{
	size_t i;

	for (i = 0; i < d->n_workloads; i++)
		workload_free(&d->workloads[i]);
	free(d->workloads);
	for (i = 0; i < d->n_baseline_metrics; i++)
		metric_free(&d->baseline_metrics[i]);
	free(d->baseline_metrics);
	window_free(d->baseline_window);
	for (i = 0; i < d->n_variants; i++)
		free(d->variants[i].knobs);
	free(d->variants);
	free(d->adaptive.last_look);
	json_decref(d->json);
	memset(d, 0, sizeof(*d));
}

const struct vms_rdoc_workload *vms_rdoc_workload(const struct vms_rdoc *d, const char *name,
                                                  const char *label)
{
	size_t i;

	for (i = 0; name && i < d->n_workloads; i++) {
		const struct vms_rdoc_workload *w = &d->workloads[i];

		if (w->has_name && !strcmp(w->name, name) && (!label || !strcmp(w->variant, label)))
			return w;
	}
	return NULL;
}

const struct vms_rdoc_metric *vms_rdoc_metric(const struct vms_rdoc_workload *w, const char *name)
{
	size_t i;

	for (i = 0; w && i < w->n_metrics; i++)
		if (!strcmp(w->metrics[i].name, name))
			return &w->metrics[i];
	for (i = 0; w && i < w->n_derived; i++)
		if (!strcmp(w->derived[i].name, name))
			return &w->derived[i];
	return NULL;
}

const struct vms_rdoc_metric *vms_rdoc_baseline_metric(const struct vms_rdoc *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n_baseline_metrics; i++)
		if (!strcmp(d->baseline_metrics[i].name, name))
			return &d->baseline_metrics[i];
	return NULL;
}

/* ---- loading: format checks, then the walk above ---------------------------------- */

/* Format 1: one variant, "default". */
static void variants_v1(json_t *doc)
{
	json_t *wl;
	size_t i;

	json_object_set_new(
	    doc, "variants",
	    json_pack("[{s:s, s:{}}]", "label", VMS_RESULT_VARIANT_DEFAULT, "settings"));
	json_array_foreach (json_object_get(doc, "workloads"), i, wl)
		if (json_is_object(wl))
			json_object_set_new(wl, "variant", json_string(VMS_RESULT_VARIANT_DEFAULT));
}

/* Format 2: the variants and every workload's variant. 0 or -EINVAL with the reason. */
static int variants_check(const json_t *doc, char *err, size_t errlen)
{
	const json_t *vs = json_object_get(doc, "variants"), *v, *wl;
	size_t i, k;

	if (!json_is_array(vs) || !json_array_size(vs)) {
		snprintf(err, errlen, "malformed result: no \"variants\" array");
		return -EINVAL;
	}
	json_array_foreach (vs, i, v) {
		const char *l = json_string_value(json_object_get(v, "label"));

		if (!l || !json_is_object(json_object_get(v, "settings"))) {
			snprintf(err, errlen,
			         "malformed result: variant %zu has no \"label\" or \"settings\"",
			         i + 1);
			return -EINVAL;
		}
		for (k = 0; k < i; k++)
			if (!strcmp(l, vms_result_variant_label(doc, k))) {
				snprintf(err, errlen,
				         "malformed result: two variants labelled '%s'", l);
				return -EINVAL;
			}
	}
	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const char *l = json_string_value(json_object_get(wl, "variant"));

		if (!json_is_object(wl))
			continue;
		for (k = 0; l && k < json_array_size(vs); k++)
			if (!strcmp(l, vms_result_variant_label(doc, k)))
				break;
		if (!l || k == json_array_size(vs)) {
			snprintf(err, errlen,
			         "malformed result: workload %zu names no variant of \"variants\"",
			         i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

/* Largest magnitude a sample in unit may have: a time beyond 1e12 s or ms (more than 31 years)
 * or any other value beyond 1e18 (an exabyte, 10^18 events) is no measurement, and such values
 * overflow the statistics' squares. */
static double sample_limit(const char *unit)
{
	return unit && (!strcmp(unit, "s") || !strcmp(unit, "ms")) ? 1e12 : 1e18;
}

int vms_result_check_values(const json_t *doc, char *err, size_t errlen)
{
	const json_t *wl, *mo, *v;
	const char *name;
	size_t i, j;

	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const char *wname = json_string_value(json_object_get(wl, "name"));

		json_object_foreach ((json_t *)json_object_get(wl, "metrics"), name, mo) {
			const struct vms_metric_def *d = vms_metric_find(name);
			const char *unit = json_string_value(json_object_get(mo, "unit"));
			double lim = sample_limit(d ? d->unit : unit); /* the catalogue wins */

			json_array_foreach (json_object_get(mo, "samples"), j, v) {
				double x = json_number_value(v);
				char why[32];

				if (!json_is_number(v))
					continue;
				if (!isfinite(x) || fabs(x) > lim)
					snprintf(why, sizeof(why), "beyond %g", lim);
				else if (d && x < 0) /* every catalogue metric counts or measures */
					snprintf(why, sizeof(why), "negative");
				else
					continue;
				snprintf(err, errlen,
				         "%s: %s: sample %zu is %g, not a measurement (%s)",
				         wname ? wname : "?", name, j + 1, x, why);
				return -EINVAL;
			}
		}
	}
	return 0;
}

json_t *vms_result_load(const char *path, enum vms_load_error *error, char *err, size_t errlen)
{
	struct vms_rdoc rd;
	json_error_t jerr;
	const char *format;
	json_t *doc;
	FILE *f;
	long version;
	char *end;

	f = fopen(path, "re");
	if (!f) {
		*error = VMS_LOAD_IO;
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	doc = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	if (!doc) {
		*error = VMS_LOAD_NOT_JSON;
		if (jerr.line > 0)
			snprintf(err, errlen, "not JSON (line %d, column %d: %s)", jerr.line,
			         jerr.column, jerr.text);
		else
			snprintf(err, errlen, "not JSON (%s)", jerr.text);
		return NULL;
	}
	format = json_string_value(json_object_get(doc, "format"));
	if (!json_is_object(doc) || !format ||
	    strncmp(format, VMS_RESULT_FORMAT_PREFIX, strlen(VMS_RESULT_FORMAT_PREFIX))) {
		*error = VMS_LOAD_NOT_OURS;
		snprintf(err, errlen, "not a vmsuite result (no \"format\": \"%s\")",
		         VMS_RESULT_FORMAT);
		goto fail;
	}
	version = strtol(format + strlen(VMS_RESULT_FORMAT_PREFIX), &end, 10);
	if (*end || version < 1) {
		*error = VMS_LOAD_NOT_OURS;
		snprintf(err, errlen, "unknown result format '%s'", format);
		goto fail;
	}
	if (version > VMS_RESULT_FORMAT_VERSION) {
		*error = VMS_LOAD_TOO_NEW;
		snprintf(
		    err, errlen,
		    "result format '%s' is newer than this vmsuite reads (%s); upgrade vmsuite",
		    format, VMS_RESULT_FORMAT);
		goto fail;
	}
	if (!json_is_array(json_object_get(doc, "workloads"))) {
		*error = VMS_LOAD_MALFORMED;
		snprintf(err, errlen, "malformed result: no \"workloads\" array");
		goto fail;
	}
	if (version == 1)
		variants_v1(doc);
	else if (variants_check(doc, err, errlen)) {
		*error = VMS_LOAD_MALFORMED;
		goto fail;
	}
	if (vms_result_check_values(doc, err, errlen)) {
		*error = VMS_LOAD_MALFORMED;
		goto fail;
	}
	/* the fields every reader reads, of the types it reads them as */
	if (vms_rdoc_init(&rd, doc, err, errlen)) {
		*error = VMS_LOAD_MALFORMED;
		goto fail;
	}
	vms_rdoc_release(&rd);
	*error = VMS_LOAD_OK;
	return doc;
fail:
	json_decref(doc);
	return NULL;
}

const char *vms_rdoc_fact(const struct vms_rdoc *d, const char *key)
{
	return json_string_value(json_object_get(json_object_get(d->fingerprint, key), "value"));
}
