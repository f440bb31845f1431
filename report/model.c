/* The report model: reads a result document once into the figures every report shows, formats
 * the text report's lines from it, and holds the table of renderers (text, markdown, html,
 * json). No kernel paths. */
#include "report/model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/result.h"
#include "core/util.h"
#include "report/report.h"

const struct vms_report_row2001 vms_report_rows2001[] = {
    {"bytes allocated", "bytes_allocated"},
    {"User time (seconds)", "user_s"},
    {"System time (seconds)", "sys_s"},
    {"Elapsed (wall clock seconds) time", "elapsed_s"},
    {"Percent of CPU this job got", "cpu_pct"},
    {"Major (requiring I/O) page faults", "major_faults"},
    {"Minor (reclaiming a frame) faults", "minor_faults"},
};
const size_t vms_report_rows2001_n = VMS_ARRAY_SIZE(vms_report_rows2001);

int vms_summary_of(const struct vms_rdoc_metric *m, struct vms_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (!m || !m->n_values)
		return -ENOENT;
	vms_summarize(m->values, m->n_values, s);
	if (!isfinite(s->sd))
		s->sd = 0;
	if (!isfinite(s->cv))
		s->cv = 0;
	return 0;
}

static void metrics_init(struct vms_report_metrics *ms, const struct vms_rdoc_metric *v, size_t n)
{
	size_t i;

	ms->n = n;
	ms->v = n ? vms_xcalloc(n, sizeof(*ms->v)) : NULL;
	for (i = 0; i < n; i++) {
		struct vms_report_metric *r = &ms->v[i];

		r->name = v[i].name;
		r->def = v[i].def;
		r->rd = &v[i];
		vms_summary_of(&v[i], &r->s);
	}
}

const struct vms_summary *vms_report_metric_get(const struct vms_report_metrics *ms,
                                                const char *name)
{
	size_t i;

	for (i = 0; i < ms->n; i++)
		if (!strcmp(ms->v[i].name, name))
			return ms->v[i].s.n ? &ms->v[i].s : NULL;
	return NULL;
}

static void workload_init(struct vms_report_workload *w, const struct vms_rdoc_workload *wl)
{
	const struct vms_summary *el;
	size_t i;

	w->rd = wl;
	metrics_init(&w->metrics, wl->metrics, wl->n_metrics);
	el = vms_report_metric_get(&w->metrics, "elapsed_s");
	if (el)
		w->elapsed = *el;
	vms_compare_sound_of_workload(wl, &w->sound);
	for (i = 0; i < w->metrics.n; i++) {
		const struct vms_metric_def *d = w->metrics.v[i].def;

		w->has_pressure |= d && d->group == VMS_GROUP_PRESSURE;
		w->has_cgroup |= d && d->group == VMS_GROUP_CGROUP;
		w->has_busy |= !strcmp(w->metrics.v[i].name, "other_cpu_pct");
	}
	w->runs = wl->n_runs ? vms_xcalloc(wl->n_runs, sizeof(*w->runs)) : NULL;
	for (i = 0; i < wl->n_runs; i++) {
		const struct vms_rdoc_run *run = &wl->runs[i];
		struct vms_report_run *r = &w->runs[i];

		r->rd = run;
		r->interrupted = run->status == VMS_RDOC_INTERRUPTED;
		r->failed = run->status == VMS_RDOC_FAILED || run->status == VMS_RDOC_OTHER;
		r->elapsed_s = run->t_end - run->t_start; /* NAN when either is unknown */
	}
}

void vms_report_model_init(struct vms_report_model *m, const json_t *doc)
{
	const struct vms_rdoc *d = &m->rd;
	size_t i;

	memset(m, 0, sizeof(*m));
	vms_rdoc_read(&m->rd, doc);
	vms_compare_sound_of_baseline(d, &m->baseline);
	if (d->has_baseline) {
		metrics_init(&m->baseline_metrics, d->baseline_metrics, d->n_baseline_metrics);
		m->baseline_detail = d->baseline_window;
	}
	m->n_workloads = d->n_workloads;
	m->workloads = m->n_workloads ? vms_xcalloc(m->n_workloads, sizeof(*m->workloads)) : NULL;
	for (i = 0; i < m->n_workloads; i++)
		workload_init(&m->workloads[i], &d->workloads[i]);
}

void vms_report_model_release(struct vms_report_model *m)
{
	size_t i;

	for (i = 0; i < m->n_workloads; i++) {
		free(m->workloads[i].metrics.v);
		free(m->workloads[i].runs);
	}
	free(m->workloads);
	free(m->baseline_metrics.v);
	vms_rdoc_release(&m->rd);
	memset(m, 0, sizeof(*m));
}

const char *vms_report_fmt(char *buf, size_t len, const struct vms_summary *s, int prec,
                           double scale, const char *unit)
{
	if (!s)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f%s%s", prec, s->mean * scale, unit ? " " : "",
		         unit ? unit : "");
	return buf;
}

typedef void emit_fn(void *ctx, enum vms_report_line kind, const char *text);

const char *vms_report_incomplete(const struct vms_report_model *m)
{
	if (m->rd.complete)
		return NULL;
	if (m->rd.interrupted)
		return "INCOMPLETE (interrupted)";
	if (!m->rd.finished)
		return "did not finish (killed or crashed)";
	return "INCOMPLETE (not every workload ran)";
}

/* "Variants (...):" and one line per variant with its settings, when there are several. */
static void variant_lines(const struct vms_report_model *m, emit_fn *emit, void *ctx)
{
	char line[1024];
	size_t i;

	if (m->rd.n_variants < 2)
		return;
	snprintf(line, sizeof(line),
	         "Variants: %zu, runs interleaved (run 1 of each, then run 2 of each, ...); the "
	         "first is the baseline",
	         m->rd.n_variants);
	emit(ctx, VMS_LINE_VARIANT, line);
	for (i = 0; i < m->rd.n_variants; i++) {
		const char *k;
		const json_t *v;
		size_t off = (size_t)snprintf(line, sizeof(line), "  %s:", m->rd.variants[i].label);
		const char *sep = " ";

		json_object_foreach ((json_t *)m->rd.variants[i].settings, k, v) {
			if (off < sizeof(line))
				off += (size_t)snprintf(
				    line + off, sizeof(line) - off, "%s%s=%s", sep, k,
				    json_is_string(v) ? json_string_value(v) : "?");
			sep = ", ";
		}
		emit(ctx, VMS_LINE_VARIANT, line);
	}
}

size_t vms_report_group_size(const struct vms_report_model *m, size_t i)
{
	size_t n = 1;

	if (m->rd.n_variants < 2)
		return 1;
	while (i + n < m->n_workloads &&
	       !strcmp(m->workloads[i + n].rd->name, m->workloads[i].rd->name))
		n++;
	return n;
}

/* rows: successful runs, the 2001 rows, elapsed low/high, elapsed sd (cv) */
const size_t vms_report_side_rows = VMS_ARRAY_SIZE(vms_report_rows2001) + 3;

const char *vms_report_side_label(size_t row)
{
	if (row == 0)
		return "Successful runs";
	if (row <= vms_report_rows2001_n)
		return vms_report_rows2001[row - 1].label;
	return row == vms_report_rows2001_n + 1 ? "Elapsed low/high" : "Elapsed sd (cv)";
}

int vms_report_line_beside(enum vms_report_line kind)
{
	return kind != VMS_LINE_CAPTION && kind != VMS_LINE_ROW2001 && kind != VMS_LINE_SPREAD;
}

static void header_machine_lines(const struct vms_report_model *m, emit_fn *emit, void *ctx);

/* "Runs: -n auto ...: decided after 9 runs: ..." of a run made with -n auto. */
static void adaptive_line(const struct vms_report_model *m, emit_fn *emit, void *ctx)
{
	const struct vms_rdoc_adaptive *ad = &m->rd.adaptive;
	const char *text = ad->stop_text;
	char line[1024];
	double budget = isnan(ad->budget_s) ? 0 : ad->budget_s;

	if (!ad->present)
		return;
	snprintf(line, sizeof(line),
	         "Runs: -n auto, budget %.0f %s, %zu looks at alpha %.4g each: %s",
	         budget < 120 ? budget : budget / 60, budget < 120 ? "s" : "min", ad->n_looks,
	         isnan(ad->alpha_per_look) ? 0 : ad->alpha_per_look,
	         text ? text : "did not stop by itself (interrupted or killed)");
	emit(ctx, VMS_LINE_MACHINE, line);
}

void vms_report_header_lines(const struct vms_report_model *m, emit_fn *emit, void *ctx)
{
	header_machine_lines(m, emit, ctx);
	variant_lines(m, emit, ctx);
	adaptive_line(m, emit, ctx);
}

static void header_machine_lines(const struct vms_report_model *m, emit_fn *emit, void *ctx)
{
	const struct vms_rdoc_machine *mc = &m->rd.machine;
	char line[1024], mem[32], swap[32];
	size_t off;

	snprintf(line, sizeof(line), "vmsuite %s \u2014 %s \u2014 started %s \u2014 machine %s%s%s",
	         m->rd.version ? m->rd.version : "?", m->rd.label ? m->rd.label : "?",
	         m->rd.start_time ? m->rd.start_time : "?", mc->profile ? mc->profile : "?",
	         m->rd.complete ? "" : " \u2014 ", m->rd.complete ? "" : vms_report_incomplete(m));
	emit(ctx, VMS_LINE_HEADER, line);
	if (!mc->shown)
		return;
	if (!mc->limited) {
		snprintf(line, sizeof(line), "Machine: %s \u2014 no memory limit",
		         mc->profile ? mc->profile : "host");
		emit(ctx, VMS_LINE_MACHINE, line);
		return;
	}
	vms_format_size((uint64_t)mc->mem_limit_bytes, mem, sizeof(mem));
	vms_format_size((uint64_t)mc->effective_swap_bytes, swap, sizeof(swap));
	snprintf(line, sizeof(line), "Machine: %s \u2014 memory cgroup v%d, %s RAM, %s swap",
	         mc->profile ? mc->profile : "?", mc->cgroup_version, mem,
	         mc->effective_swap_bytes > 0 ? swap : "no");
	off = strlen(line);
	if (mc->cpus >= 0)
		snprintf(line + off, sizeof(line) - off, ", %d CPU(s)", mc->cpus);
	emit(ctx, VMS_LINE_MACHINE, line);
	if (mc->note && *mc->note) {
		snprintf(line, sizeof(line), "Note: %s", mc->note);
		emit(ctx, VMS_LINE_MACHINE, line);
	}
}

static const struct vms_summary *get(const struct vms_report_workload *w, const char *name)
{
	return vms_report_metric_get(&w->metrics, name);
}

/* The mean of a catalogue metric with the catalogue's precision, or "n/a". */
static const char *mean_str(char *buf, size_t len, const struct vms_report_workload *w,
                            const char *name)
{
	const struct vms_metric_def *d = vms_metric_find(name);

	return vms_report_fmt(buf, len, get(w, name), d ? d->precision : 0, 1, NULL);
}

/* 1 when the runs put pages into zswap (a kernel without zswap records 0). */
static int zswapped(const struct vms_report_workload *w)
{
	const struct vms_summary *in = get(w, "zswpin"), *out = get(w, "zswpout");

	return (in && in->n && in->max > 0) || (out && out->n && out->max > 0);
}

const char *vms_report_side_cell(const struct vms_report_workload *w, size_t row, char *buf,
                                 size_t len)
{
	const struct vms_summary *el = &w->elapsed;

	if (row == 0)
		snprintf(buf, len, "%zu of %zu", el->n, w->rd->n_runs);
	else if (row <= vms_report_rows2001_n)
		mean_str(buf, len, w, vms_report_rows2001[row - 1].metric);
	else if (!el->n)
		snprintf(buf, len, "n/a");
	else if (row == vms_report_rows2001_n + 1)
		snprintf(buf, len, "%.2f / %.2f", el->min, el->max);
	else
		snprintf(buf, len, "%.2f (%.1f%%)", el->sd, el->cv * 100);
	return buf;
}

/* One line per failed run (interrupted 0) or per interrupted run (1). */
static void run_lines(const struct vms_report_workload *w, int interrupted, emit_fn *emit,
                      void *ctx)
{
	char line[1024];
	size_t i;

	for (i = 0; i < w->rd->n_runs; i++) {
		if (!(interrupted ? w->runs[i].interrupted : w->runs[i].failed))
			continue;
		snprintf(line, sizeof(line), "  run %zu: %s \u2014 %s", i + 1,
		         w->runs[i].rd->status_name,
		         w->runs[i].rd->reason ? w->runs[i].rd->reason : "no reason recorded");
		emit(ctx, VMS_LINE_FAILED_RUN, line);
	}
}

static void failed_lines(const struct vms_report_workload *w, emit_fn *emit, void *ctx)
{
	char line[1024];

	if (w->rd->n_failed) {
		snprintf(line, sizeof(line), "Failed runs: %zu of %zu", w->rd->n_failed,
		         w->rd->n_runs);
		emit(ctx, VMS_LINE_FAILED, line);
		run_lines(w, 0, emit, ctx);
	}
	/* stopped by a signal to vmsuite: not a failure of the kernel under test */
	if (w->rd->n_interrupted) {
		snprintf(line, sizeof(line), "Interrupted runs: %zu of %zu", w->rd->n_interrupted,
		         w->rd->n_runs);
		emit(ctx, VMS_LINE_STOPPED, line);
		run_lines(w, 1, emit, ctx);
	}
}

/* What else used the emulated machine's CPUs, and one line per run marked disturbed. */
static void busy_lines(const struct vms_report_workload *w, emit_fn *emit, void *ctx)
{
	char line[1024], a[48], b[48], c[48], d[48];
	size_t i;

	if (w->has_busy) {
		snprintf(
		    line, sizeof(line),
		    "Beside the workload per run: other processes %s %% of the CPU, kernel "
		    "threads %s %%, steal %s %%; the workload waited for a CPU %s %% of the time",
		    mean_str(a, sizeof(a), w, "other_cpu_pct"),
		    mean_str(b, sizeof(b), w, "kthread_cpu_pct"),
		    mean_str(c, sizeof(c), w, "steal_pct"),
		    mean_str(d, sizeof(d), w, "cpu_wait_pct"));
		emit(ctx, VMS_LINE_BUSY, line);
	}
	for (i = 0; i < w->rd->n_runs; i++) {
		if (!w->runs[i].rd->disturbed)
			continue;
		if (isnan(w->runs[i].rd->other_cpu_pct))
			snprintf(line, sizeof(line),
			         "disturbed: run %zu (other processes took the CPU)", i + 1);
		else
			snprintf(line, sizeof(line),
			         "disturbed: run %zu (other processes took %.0f %% of the CPU)",
			         i + 1, w->runs[i].rd->other_cpu_pct);
		emit(ctx, VMS_LINE_DISTURBED, line);
	}
}

void vms_report_workload_lines(const struct vms_report_workload *w, emit_fn *emit, void *ctx)
{
	const struct vms_summary *el = &w->elapsed;
	char line[1024], a[48], b[48], c[48], d[48], e[48], f[48];
	size_t i;

	if (!el->n) {
		if (w->rd->skipped)
			snprintf(line, sizeof(line), "%s skipped: %s", w->rd->name, w->rd->skipped);
		else
			snprintf(line, sizeof(line), "No successful %s runs.", w->rd->name);
		emit(ctx, VMS_LINE_NO_RUNS, line);
		failed_lines(w, emit, ctx);
		return;
	}
	/* the 2001 post wrote "Average for 5 mmap001 runs" but "Averages for 10 mtest01 runs" */
	snprintf(line, sizeof(line), "%s for %zu %s runs",
	         strcmp(w->rd->name, "mtest01") ? "Average" : "Averages", el->n, w->rd->name);
	emit(ctx, VMS_LINE_CAPTION, line);
	for (i = 0; i < vms_report_rows2001_n; i++) {
		snprintf(line, sizeof(line), "%s: %s", vms_report_rows2001[i].label,
		         mean_str(a, sizeof(a), w, vms_report_rows2001[i].metric));
		emit(ctx, VMS_LINE_ROW2001, line);
	}
	snprintf(line, sizeof(line), "Elapsed low/high: %.2f / %.2f   (sd %.2f, cv %.1f%%)",
	         el->min, el->max, el->sd, el->cv * 100);
	emit(ctx, VMS_LINE_SPREAD, line);
	if (get(w, "pages_touched_per_s")) {
		/* a workload's own rate (memload): what it got done in its fixed time */
		snprintf(line, sizeof(line), "Pages touched per second: %s",
		         mean_str(a, sizeof(a), w, "pages_touched_per_s"));
		emit(ctx, VMS_LINE_SPREAD, line);
	}
	if (!vms_compare_sound_line(line, sizeof(line), "Sound:", &w->sound)) {
		emit(ctx, VMS_LINE_SOUND, line);
		if (!vms_compare_sound_causes_line(line, sizeof(line), &w->sound))
			emit(ctx, VMS_LINE_SOUND, line);
	}
	snprintf(line, sizeof(line),
	         "System-wide reclaim per run: scanned %s, stolen %s pages; swap in/out %s / %s "
	         "pages; allocstalls %s; refaults %s",
	         mean_str(a, sizeof(a), w, "pgscan"), mean_str(b, sizeof(b), w, "pgsteal"),
	         mean_str(c, sizeof(c), w, "pswpin"), mean_str(d, sizeof(d), w, "pswpout"),
	         mean_str(e, sizeof(e), w, "allocstall"),
	         mean_str(f, sizeof(f), w, "workingset_refault"));
	if (zswapped(w)) {
		/* zswap in front of the swap device: its traffic is not in pswpin/pswpout */
		size_t l = strlen(line);

		snprintf(line + l, sizeof(line) - l, "; zswap in/out %s / %s pages",
		         mean_str(a, sizeof(a), w, "zswpin"), mean_str(b, sizeof(b), w, "zswpout"));
	}
	emit(ctx, VMS_LINE_RECLAIM, line);
	if (w->has_pressure) {
		snprintf(line, sizeof(line),
		         "Pressure per run: memory some %s (full %s), io some %s (full %s)",
		         vms_report_fmt(a, sizeof(a), get(w, "psi_memory_some_ms"), 2, 1e-3, "s"),
		         vms_report_fmt(b, sizeof(b), get(w, "psi_memory_full_ms"), 2, 1e-3, "s"),
		         vms_report_fmt(c, sizeof(c), get(w, "psi_io_some_ms"), 2, 1e-3, "s"),
		         vms_report_fmt(d, sizeof(d), get(w, "psi_io_full_ms"), 2, 1e-3, "s"));
		emit(ctx, VMS_LINE_PRESSURE, line);
	}
	if (w->has_cgroup) {
		const struct vms_summary *peak = get(w, "cgroup_peak_bytes");
		char tail[96];

		if (peak)
			vms_format_size((uint64_t)peak->mean, a, sizeof(a));
		else
			snprintf(a, sizeof(a), "n/a");
		/* the figures are the finished runs': a run the OOM killer ended is not among them,
		 * so "OOM kills 0.0" alone would contradict the failed run listed below */
		if (w->rd->n_oom)
			snprintf(tail, sizeof(tail),
			         " (the %zu finished run%s; %zu OOM-killed, below)", el->n,
			         el->n == 1 ? "" : "s", w->rd->n_oom);
		else if (w->rd->n_failed)
			snprintf(tail, sizeof(tail), " (the %zu finished run%s)", el->n,
			         el->n == 1 ? "" : "s");
		else
			tail[0] = '\0';
		snprintf(line, sizeof(line),
		         "Memory cgroup per run: peak %s, limit hits %s, OOM kills %s%s", a,
		         mean_str(b, sizeof(b), w, "cgroup_limit_hits"),
		         mean_str(c, sizeof(c), w, "cgroup_oom_kill"), tail);
		emit(ctx, VMS_LINE_CGROUP, line);
	}
	busy_lines(w, emit, ctx);
	failed_lines(w, emit, ctx);
}

json_t *vms_report_summary_json(const json_t *doc)
{
	struct vms_report_model m;
	json_t *out;

	vms_report_model_init(&m, doc);
	out = vms_report_summary_of_model(&m);
	vms_report_model_release(&m);
	return out;
}

json_t *vms_report_summary_of_model(const struct vms_report_model *m)
{
	const struct vms_rdoc *d = &m->rd;
	const struct vms_rdoc_adaptive *ad = &d->adaptive;
	json_t *out = json_object(), *wls = json_array();
	size_t i, k;

	json_object_set_new(out, "format", json_string("vmsuite.summary/1"));
	if (d->label)
		json_object_set_new(out, "label", json_string(d->label));
	if (d->start_time)
		json_object_set_new(out, "start_time", json_string(d->start_time));
	if (d->complete_state)
		json_object_set_new(out, "complete", json_boolean(d->complete));
	if (d->machine.json)
		json_object_set(out, "machine", (json_t *)d->machine.json);
	for (i = 0; i < m->n_workloads; i++) {
		const struct vms_report_workload *w = &m->workloads[i];
		json_t *ms, *dist;

		/* a workload without a name or options has no entry */
		if (!w->rd->has_name || !w->rd->options)
			continue;
		ms = json_object();
		dist = json_array();
		for (k = 0; k < w->metrics.n; k++) {
			const struct vms_report_metric *r = &w->metrics.v[k];
			const struct vms_summary *s = &r->s;

			if (!s->n)
				continue;
			json_object_set_new(
			    ms, r->name,
			    json_pack("{s:s, s:s, s:I, s:f, s:f, s:f, s:f, s:f}", "unit",
			              r->rd->unit, "better", vms_better_name(r->rd->better), "n",
			              (json_int_t)s->n, "mean", s->mean, "sd", s->sd, "cv", s->cv,
			              "min", s->min, "max", s->max));
		}
		for (k = 0; k < w->rd->n_runs; k++)
			if (w->runs[k].rd->disturbed)
				json_array_append_new(
				    dist, json_pack("{s:I, s:o}", "run", (json_int_t)k + 1,
				                    "other_cpu_pct",
				                    isnan(w->runs[k].rd->other_cpu_pct)
				                        ? json_null()
				                        : json_real(w->runs[k].rd->other_cpu_pct)));
		json_array_append_new(wls,
		                      json_pack("{s:s, s:s, s:O, s:I, s:o, s:o}", "name",
		                                w->rd->name, "variant", w->rd->variant, "options",
		                                w->rd->options, "runs", (json_int_t)w->rd->n_runs,
		                                "metrics", ms, "disturbed_runs", dist));
	}
	{
		json_t *vs = json_array();

		for (i = 0; i < m->rd.n_variants; i++)
			json_array_append_new(
			    vs,
			    json_pack("{s:s, s:o}", "label", m->rd.variants[i].label, "settings",
			              m->rd.variants[i].settings
			                  ? json_incref((json_t *)m->rd.variants[i].settings)
			                  : json_object()));
		json_object_set_new(out, "variants", vs);
	}
	json_object_set_new(out, "workloads", wls);
	if (ad->present && !isnan(ad->budget_s) && !isnan(ad->alpha_per_look) &&
	    ad->max_looks >= 0 && ad->stop)
		json_object_set_new(out, "adaptive",
		                    json_pack("{s:f, s:f, s:I, s:I, s:O}", "budget_s", ad->budget_s,
		                              "alpha_per_look", ad->alpha_per_look, "max_looks",
		                              (json_int_t)ad->max_looks, "looks",
		                              (json_int_t)ad->n_looks, "stop", ad->stop));
	return out;
}

int vms_report_render_json(const struct vms_report_model *m, FILE *out)
{
	json_t *sum = vms_report_summary_of_model(m);

	json_dumpf(sum, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(sum);
	return ferror(out) ? -EIO : 0;
}

static const struct vms_report_renderer renderers[] = {
    {"text", "default", vms_report_render_text},
    {"markdown", NULL, vms_report_render_markdown},
    {"html", NULL, vms_report_render_html},
    {"json", NULL, vms_report_render_json},
    {"lava", "result.txt lines", vms_report_render_lava},
    {"kcidb", "a KCIDB v5.3 document", vms_report_render_kcidb},
};

const struct vms_report_renderer *vms_report_renderer_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < VMS_ARRAY_SIZE(renderers); i++)
		if (!strcmp(renderers[i].name, name))
			return &renderers[i];
	return NULL;
}

const struct vms_report_renderer *vms_report_renderer_at(size_t i)
{
	return i < VMS_ARRAY_SIZE(renderers) ? &renderers[i] : NULL;
}

const char *vms_report_renderer_names(void)
{
	static char names[160];
	size_t i, n = 0;

	if (!names[0])
		for (i = 0; i < VMS_ARRAY_SIZE(renderers) && n < sizeof(names); i++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
			                      i == 0                               ? ""
			                      : i + 1 == VMS_ARRAY_SIZE(renderers) ? " or "
			                                                           : ", ",
			                      renderers[i].name);
	return names;
}

const char *vms_report_renderer_help(void)
{
	static char help[256];
	size_t i;

	if (help[0])
		return help;
	for (i = 0; i < VMS_ARRAY_SIZE(renderers); i++) {
		char item[96];

		snprintf(item, sizeof(item), "%s%s%s%s", renderers[i].name,
		         renderers[i].note ? " (" : "", renderers[i].note ? renderers[i].note : "",
		         renderers[i].note ? ")" : "");
		vms_cli_help_append(help, sizeof(help),
		                    i + 1 == VMS_ARRAY_SIZE(renderers) ? " or " : ", ", item);
	}
	return help;
}
