/* The probe's numbers for one time window, computed after the fact from its records: gaps
 * clipped to the window, skips, played seconds, the 0-10 rating, wake-up lateness and
 * headroom, costs, and the cause of each gap. Pure computation; no kernel paths. */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "audio-probe/probe-internal.h"
#include "core/metric.h"
#include "core/result.h"
#include "core/util.h"

/* The delay-accounting rule: the most specific delay that covers half the gap (`late`: the
 * gap's length, or the lateness while it lasts). */
static enum vms_cause classify_delays(const struct vms_gap_evidence *e, double late, double *delay)
{
	const struct {
		enum vms_cause cause;
		double ms;
	} memory[] = {{VMS_CAUSE_SWAPIN, e->swapin_ms},
	              {VMS_CAUSE_RECLAIM, e->reclaim_ms},
	              {VMS_CAUSE_THRASHING, e->thrashing_ms},
	              {VMS_CAUSE_COMPACTION, e->compaction_ms}},
	  rest[] = {{VMS_CAUSE_RUNQUEUE, e->runq_ms},
	            {VMS_CAUSE_IO, e->io_ms},
	            {VMS_CAUSE_DECODE, e->cpu_ms}};
	size_t i, best = 0;

	/* swap-in, thrashing and reclaim waits for I/O count as block I/O delay too: the memory
	 * causes come first, the largest of them */
	for (i = 1; i < VMS_ARRAY_SIZE(memory); i++)
		if (memory[i].ms > memory[best].ms)
			best = i;
	if (late > 0 && memory[best].ms >= late / 2) {
		*delay = memory[best].ms;
		return memory[best].cause;
	}
	for (i = 0; i < VMS_ARRAY_SIZE(rest); i++)
		if (late > 0 && rest[i].ms >= late / 2) {
			*delay = rest[i].ms;
			return rest[i].cause;
		}
	return VMS_CAUSE_UNEXPLAINED;
}

enum vms_cause vms_probe_classify(const struct vms_gap_evidence *e, double *delay_ms)
{
	double late = e->late_ms > 0 ? e->late_ms : 0, dummy;

	if (!delay_ms)
		delay_ms = &dummy;
	*delay_ms = 0;
	if (e->delayacct)
		return classify_delays(e, e->gap_ms > 0 ? e->gap_ms : late, delay_ms);
	if (e->majflt > 0)
		return VMS_CAUSE_PAGING;
	if (late > 0 && e->runq_ms >= late / 2) {
		*delay_ms = e->runq_ms;
		return VMS_CAUSE_RUNQUEUE;
	}
	if (e->psi_io_ms > 0 && e->psi_io_ms >= late * VMS_CAUSE_IO_FRACTION) {
		*delay_ms = e->psi_io_ms;
		return VMS_CAUSE_IO;
	}
	if (late > 0 && e->cpu_ms >= late / 2) {
		*delay_ms = e->cpu_ms;
		return VMS_CAUSE_DECODE;
	}
	return VMS_CAUSE_UNEXPLAINED;
}

struct gap {
	double s, e;   /* unclipped */
	double cs, ce; /* clipped to the window */
	enum vms_cause cause;
	double delay_ms;              /* the delay that names the cause */
	const struct vms_xrun_rec *x; /* NULL for a died/pending gap */
	int pending;
};

static void add_gap(struct gap *g, size_t *n, double s, double e, double t0, double t1,
                    const struct vms_xrun_rec *x, enum vms_cause cause, int pending)
{
	double cs = s > t0 ? s : t0, ce = e < t1 ? e : t1, delay = 0;

	if (e < s)
		e = s;
	if (ce <= cs)
		return;
	if (x) {
		struct vms_gap_evidence ev = x->ev;

		ev.gap_ms = x->resume > 0 ? (x->resume - x->dry) * 1000 : 0;
		cause = vms_probe_classify(&ev, &delay);
	}
	g[*n] = (struct gap){s, e, cs, ce, cause, delay, x, pending};
	(*n)++;
}

static json_t *evidence_json(const struct vms_gap_evidence *ev)
{
	json_t *o =
	    json_pack("{s:f, s:f, s:I, s:I, s:f, s:f, s:f, s:f}", "late_ms", ev->late_ms,
	              "interval_ms", ev->interval_ms, "major_faults", (json_int_t)ev->majflt,
	              "minor_faults", (json_int_t)ev->minflt, "runqueue_ms", ev->runq_ms, "cpu_ms",
	              ev->cpu_ms, "psi_memory_ms", ev->psi_mem_ms, "psi_io_ms", ev->psi_io_ms);

	if (ev->delayacct) {
		/* the player's own delay totals' growth over the same interval */
		json_object_set_new(o, "io_ms", json_real(ev->io_ms));
		json_object_set_new(o, "swapin_ms", json_real(ev->swapin_ms));
		json_object_set_new(o, "reclaim_ms", json_real(ev->reclaim_ms));
		json_object_set_new(o, "thrashing_ms", json_real(ev->thrashing_ms));
		json_object_set_new(o, "compaction_ms", json_real(ev->compaction_ms));
	}
	return o;
}

size_t vms_wake_index(const struct vms_wake_rec *wakes, size_t n, double t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (wakes[mid].t < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static double r3(double x)
{
	return round(x * 1000.0) / 1000.0;
}

json_t *vms_probe_window_compute(const struct vms_probe_view *v, double t0, double t1,
                                 json_t *metrics, size_t run)
{
	static const double edges[] = {0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
	const size_t nedges = VMS_ARRAY_SIZE(edges);
	double W = t1 > t0 ? t1 - t0 : 0, total = 0, longest = 0, horizon;
	double headroom = INFINITY, prev_end = -INFINITY;
	size_t ng = 0, i, k, nsec, clean = 0, skips = 0, underruns = 0, nlate = 0, near = 0;
	size_t causes[VMS_CAUSE_NR] = {0};
	size_t hist[VMS_ARRAY_SIZE(edges)] = {0};
	struct gap *g = vms_xcalloc(v->n_xruns + 2, sizeof(*g));
	double *late, *fill, last_resume = 0;
	unsigned char *touched;
	json_t *detail = json_object(), *jg = json_array(), *jc = json_object();
	json_t *series, *s_t, *s_fill, *s_late, *s_gap, *s_xr;
	unsigned method = v->cause_method ? v->cause_method : VMS_CAUSE_BY_INFERENCE;

	horizon = v->died_at > 0 ? t1 : (v->now < t1 ? v->now : t1);
	for (i = 0; i < v->n_xruns; i++) {
		const struct vms_xrun_rec *x = &v->xruns[i];
		double e = x->resume > 0 ? x->resume : horizon;

		if (x->resume > last_resume)
			last_resume = x->resume;
		if ((x->dry < t1 && e > t0) || (x->dry >= t0 && x->dry < t1))
			underruns++;
		add_gap(g, &ng, x->dry, e, t0, t1, x, VMS_CAUSE_UNEXPLAINED, x->resume <= 0);
	}
	/* the ring ran dry after the last wake and nobody has noticed yet (or never will) */
	if (v->last_dry > 0 && v->last_dry >= last_resume && v->last_wake < v->last_dry &&
	    (!v->n_xruns || v->xruns[v->n_xruns - 1].resume > 0))
		add_gap(g, &ng, v->last_dry, horizon, t0, t1, NULL,
		        v->died_at > 0 ? VMS_CAUSE_PROBE_DIED : VMS_CAUSE_UNEXPLAINED,
		        v->died_at <= 0);

	/* whole seconds from t0; a last partial second of half a second or more counts as
	 * one, a shorter one is part of the second before it */
	nsec = (size_t)floor(W) + (W - floor(W) >= 0.5);
	if (!nsec && W > 0)
		nsec = 1;
	touched = vms_xcalloc(nsec + 1, 1);
	for (i = 0; i < ng; i++) {
		double d = g[i].ce - g[i].cs;
		size_t a = (size_t)floor(g[i].cs - t0), b = (size_t)ceil(g[i].ce - t0);
		json_t *o;

		total += d;
		if (d > longest)
			longest = d;
		if (g[i].cs - prev_end >= VMS_SKIP_MERGE_S)
			skips++;
		prev_end = g[i].ce;
		causes[g[i].cause]++;
		if (b > nsec)
			b = nsec;
		if (a >= nsec && nsec)
			a = nsec - 1;
		for (k = a; k < b || k == a; k++)
			if (k < nsec)
				touched[k] = 1;
		o = json_pack("{s:f, s:f, s:f, s:s}", "start_s", r3(g[i].cs - t0), "t_mono", g[i].s,
		              "duration_ms", r3(d * 1000), "cause", vms_cause_name(g[i].cause));
		if (g[i].ce < g[i].e || g[i].cs > g[i].s)
			json_object_set_new(o, "unclipped_ms",
			                    json_real(r3((g[i].e - g[i].s) * 1e3)));
		if (g[i].pending)
			json_object_set_new(o, "ongoing", json_true());
		if (g[i].x) {
			if (g[i].x->suspend)
				json_object_set_new(o, "suspend", json_true());
			json_object_set_new(o, "evidence", evidence_json(&g[i].x->ev));
			if (g[i].x->ev.delayacct)
				json_object_set_new(o, "delay_ms", json_real(r3(g[i].delay_ms)));
		}
		json_array_append_new(jg, o);
	}
	for (k = 0; k < nsec; k++)
		clean += !touched[k];

	/* wake-ups */
	late = vms_xcalloc(vms_wake_index(v->wakes, v->n_wakes, t1) -
	                       vms_wake_index(v->wakes, v->n_wakes, t0) + 1,
	                   sizeof(*late));
	fill = vms_xcalloc(vms_wake_index(v->wakes, v->n_wakes, t1) -
	                       vms_wake_index(v->wakes, v->n_wakes, t0) + 1,
	                   sizeof(*fill));
	series = json_object();
	s_t = json_array(), s_fill = json_array(), s_late = json_array(), s_gap = json_array(),
	s_xr = json_array();
	{
		size_t w = vms_wake_index(v->wakes, v->n_wakes, t0);
		size_t sec = 0;
		double fmin = INFINITY, lmax = 0;

		for (; sec < nsec; sec++) {
			double a = t0 + (double)sec, b = sec + 1 == nsec || a + 1 > t1 ? t1 : a + 1;
			double gms = 0;
			size_t xr = 0;

			fmin = INFINITY;
			lmax = 0;
			for (; w < v->n_wakes && v->wakes[w].t < b; w++) {
				const struct vms_wake_rec *r = &v->wakes[w];
				size_t h;

				fill[nlate] = r->fill_ms;
				late[nlate++] = r->late_ms;
				for (h = nedges; h > 0 && r->late_ms < edges[h - 1]; h--)
					;
				hist[h ? h - 1 : 0]++;
				if (r->fill_ms < headroom)
					headroom = r->fill_ms;
				if (r->fill_ms > 0 && r->fill_ms < v->period_ms)
					near++;
				if (r->fill_ms < fmin)
					fmin = r->fill_ms;
				if (r->late_ms > lmax)
					lmax = r->late_ms;
			}
			for (i = 0; i < ng; i++) {
				double cs = g[i].cs > a ? g[i].cs : a,
				       ce = g[i].ce < b ? g[i].ce : b;

				if (ce > cs)
					gms += (ce - cs) * 1000;
				if (g[i].s >= a && g[i].s < b && g[i].x)
					xr++;
			}
			json_array_append_new(s_t, json_integer((json_int_t)sec));
			json_array_append_new(s_fill,
			                      isinf(fmin) ? json_null() : json_real(r3(fmin)));
			json_array_append_new(s_late, json_real(r3(lmax)));
			json_array_append_new(s_gap, json_real(r3(gms)));
			json_array_append_new(s_xr, json_integer((json_int_t)xr));
		}
	}
	json_object_set_new(series, "t_s", s_t);
	json_object_set_new(series, "fill_min_ms", s_fill);
	json_object_set_new(series, "wake_late_max_ms", s_late);
	json_object_set_new(series, "gap_ms", s_gap);
	json_object_set_new(series, "underruns", s_xr);

	vms_metric_record(metrics, "sound_rating", run,
	                  nsec ? round(100.0 * (double)clean / (double)nsec) / 10.0 : 10.0);
	vms_metric_record(metrics, "underruns", run, (double)underruns);
	vms_metric_record(metrics, "skips", run, (double)skips);
	vms_metric_record(metrics, "gap_total_ms", run, r3(total * 1000));
	vms_metric_record(metrics, "gap_longest_ms", run, r3(longest * 1000));
	vms_metric_record(metrics, "played_s", run, r3(W - total));
	vms_metric_record(metrics, "window_s", run, r3(W));
	if (nlate) {
		static const struct {
			const char *name;
			double q;
		} qs[] = {{"wake_p50_ms", 0.5},
		          {"wake_p90_ms", 0.9},
		          {"wake_p99_ms", 0.99},
		          {"wake_p999_ms", 0.999}};

		gsl_sort(late, 1, nlate);
		for (i = 0; i < VMS_ARRAY_SIZE(qs); i++)
			vms_metric_record(
			    metrics, qs[i].name, run,
			    r3(gsl_stats_quantile_from_sorted_data(late, 1, nlate, qs[i].q)));
		vms_metric_record(metrics, "wake_max_ms", run, r3(late[nlate - 1]));
		/* the closest call of a window with an underrun is the underrun */
		vms_metric_record(metrics, "headroom_min_ms", run, underruns ? 0 : r3(headroom));
		gsl_sort(fill, 1, nlate);
		vms_metric_record(metrics, "headroom_p1_ms", run,
		                  r3(gsl_stats_quantile_from_sorted_data(fill, 1, nlate, 0.01)));
	}
	vms_metric_record(metrics, "near_misses", run, (double)near);
	if (v->n_ticks >= 2) {
		const struct vms_tick_rec *a = &v->ticks[0], *b = &v->ticks[v->n_ticks - 1];
		long rss = 0;

		for (i = 0; i < v->n_ticks; i++) {
			if (v->ticks[i].t <= t0)
				a = &v->ticks[i];
			if (v->ticks[i].t >= t1) {
				b = &v->ticks[i];
				break;
			}
		}
		for (i = 0; i < v->n_ticks && v->ticks[i].t <= b->t; i++)
			if (v->ticks[i].maxrss_kib > rss)
				rss = v->ticks[i].maxrss_kib;
		if (b->t > a->t) {
			vms_metric_record(metrics, "probe_cpu_pct", run,
			                  r3(100.0 * (b->cpu_s - a->cpu_s) / (b->t - a->t)));
			if (a->watch_cpu_s >= 0 && b->watch_cpu_s >= a->watch_cpu_s)
				vms_metric_record(
				    metrics, "probe_watch_cpu_pct", run,
				    r3(100.0 * (b->watch_cpu_s - a->watch_cpu_s) / (b->t - a->t)));
			if (b->audio_s > a->audio_s)
				vms_metric_record(metrics, "decode_ms_per_s", run,
				                  r3(1000.0 * (b->decode_cpu_s - a->decode_cpu_s) /
				                     (b->audio_s - a->audio_s)));
		}
		vms_metric_record(metrics, "probe_maxrss_kib", run, (double)rss);
	}

	/* the causes the window's method can name (and any that occurred) */
	for (i = 0; i < VMS_CAUSE_NR; i++)
		if ((vms_cause_methods((enum vms_cause)i) & method) || causes[i])
			json_object_set_new(jc, vms_cause_name((enum vms_cause)i),
			                    json_integer((json_int_t)causes[i]));
	{
		json_t *jh = json_object(), *lo = json_array(), *cnt = json_array();

		for (i = 0; i < nedges; i++) {
			json_array_append_new(lo, json_real(edges[i]));
			json_array_append_new(cnt, json_integer((json_int_t)hist[i]));
		}
		json_object_set_new(jh, "lower_ms", lo);
		json_object_set_new(jh, "count", cnt);
		json_object_set_new(detail, "latency_hist", jh);
	}
	json_object_set_new(detail, "t0", json_real(t0));
	json_object_set_new(detail, "t1", json_real(t1));
	json_object_set_new(detail, "seconds", json_integer((json_int_t)nsec));
	json_object_set_new(detail, "clean_seconds", json_integer((json_int_t)clean));
	json_object_set_new(detail, "gaps", jg);
	json_object_set_new(detail, "causes", jc);
	json_object_set_new(detail, "cause_method", json_string(vms_cause_method_name(method)));
	json_object_set_new(detail, "series", series);
	if (v->died_at > 0 && v->died_at < t1)
		json_object_set_new(detail, "probe_died_at", json_real(v->died_at));
	free(late);
	free(fill);
	free(touched);
	free(g);
	return detail;
}
