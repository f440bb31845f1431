/* The sound summary: the 0-10 rating, played N of M seconds, skips and underruns, the longest
 * gap, the p99 wake-up lateness and the causes of the gaps, summed or averaged over the runs of
 * a workload, and its lines formatted into buffers. No kernel paths. */
#include "compare/sound.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static const struct vms_rdoc_metric *find(const struct vms_rdoc_metric *ms, size_t n,
                                          const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(ms[i].name, name))
			return &ms[i];
	return NULL;
}

/* The values of metric name folded: 'm' mean, 's' sum, 'x' max; NAN when there are none. */
static double agg(const struct vms_rdoc_metric *ms, size_t n_ms, const char *name, int how)
{
	const struct vms_rdoc_metric *m = find(ms, n_ms, name);
	double acc = 0;
	size_t i;

	if (!m || !m->n_values)
		return NAN;
	for (i = 0; i < m->n_values; i++) {
		if (how == 'x')
			acc = i == 0 || m->values[i] > acc ? m->values[i] : acc;
		else
			acc += m->values[i];
	}
	if (how == 'm')
		acc /= (double)m->n_values;
	return acc;
}

static void add_causes(struct vms_compare_sound *s, const size_t causes[VMS_CAUSE_NR], int no_data)
{
	int i;

	s->no_data += (size_t)no_data;
	for (i = 0; i < VMS_CAUSE_NR; i++) {
		s->causes[i] += causes[i];
		s->any_cause |= causes[i] > 0;
	}
}

static void summarise(const struct vms_rdoc_metric *ms, size_t n, struct vms_compare_sound *s)
{
	s->rating = agg(ms, n, "sound_rating", 'm');
	s->present = !isnan(s->rating);
	s->played_s = agg(ms, n, "played_s", 's');
	s->window_s = agg(ms, n, "window_s", 's');
	s->skips = agg(ms, n, "skips", 's');
	s->underruns = agg(ms, n, "underruns", 's');
	s->longest_ms = agg(ms, n, "gap_longest_ms", 'x');
	s->p99_ms = agg(ms, n, "wake_p99_ms", 'm');
}

void vms_compare_sound_of_workload(const struct vms_rdoc_workload *w, struct vms_compare_sound *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	summarise(w->metrics, w->n_metrics, s);
	for (i = 0; i < w->n_runs; i++)
		if (w->runs[i].audio)
			add_causes(s, w->runs[i].causes, w->runs[i].no_sound_data != NULL);
}

void vms_compare_sound_of_baseline(const struct vms_rdoc *d, struct vms_compare_sound *s)
{
	memset(s, 0, sizeof(*s));
	if (!d->has_baseline) {
		s->rating = s->played_s = s->window_s = s->skips = s->underruns = s->longest_ms =
		    s->p99_ms = NAN;
		return;
	}
	summarise(d->baseline_metrics, d->n_baseline_metrics, s);
	if (d->baseline_detail)
		add_causes(s, d->baseline_causes, d->baseline_no_sound_data != NULL);
}

static const char *plural(double n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void fmt_ms(char *buf, size_t len, double ms)
{
	if (isnan(ms))
		snprintf(buf, len, "n/a");
	else if (ms < 10 && ms != floor(ms))
		snprintf(buf, len, "%.1f ms", ms);
	else
		snprintf(buf, len, "%.0f ms", ms);
}

/* "%.*f" of v, or "n/a" when the file lacks it. */
static const char *fmt_num(char *buf, size_t len, int prec, double v)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

int vms_compare_sound_line(char *buf, size_t len, const char *label,
                           const struct vms_compare_sound *s)
{
	double played = s->played_s, window = s->window_s;
	char rating[32], pl[32], win[32], sk[32], xr[32], longest[32], p99[48] = "";
	int prec;

	if (len)
		buf[0] = 0;
	if (!s->present && s->no_data) {
		snprintf(buf, len,
		         "%s%sn/a \u2014 no sound data: the audio probe died or was stopped",
		         label ? label : "", label ? " " : "");
		return 0;
	}
	if (!s->present)
		return -ENOENT;
	prec = window >= 100 ? 0 : 1;
	/* a run with gaps never reads "played 10.0 of 10.0" */
	while (prec < 3 && played < window &&
	       round(played * pow(10, prec)) == round(window * pow(10, prec)))
		prec++;
	fmt_ms(longest, sizeof(longest), s->longest_ms);
	if (!isnan(s->p99_ms)) {
		char ms[32];

		fmt_ms(ms, sizeof(ms), s->p99_ms);
		snprintf(p99, sizeof(p99), ", p99 wake %s", ms);
	}
	snprintf(buf, len, "%s%s%s/10 \u2014 played %s of %s s, %s %s (%s %s), longest gap %s%s",
	         label ? label : "", label ? " " : "",
	         fmt_num(rating, sizeof(rating), 1, s->rating),
	         fmt_num(pl, sizeof(pl), prec, played), fmt_num(win, sizeof(win), prec, window),
	         fmt_num(sk, sizeof(sk), 0, s->skips), plural(s->skips, "skip", "skips"),
	         fmt_num(xr, sizeof(xr), 0, s->underruns),
	         plural(s->underruns, "underrun", "underruns"), longest, p99);
	if (s->no_data) {
		size_t off = strlen(buf);

		snprintf(buf + off, len - off,
		         "; %zu %s without sound data (the probe died or was stopped)", s->no_data,
		         s->no_data == 1 ? "run" : "runs");
	}
	return 0;
}

int vms_compare_sound_causes_line(char *buf, size_t len, const struct vms_compare_sound *s)
{
	const char *sep = "";
	size_t off;
	int i;

	if (len)
		buf[0] = 0;
	if (!s->present || !s->any_cause)
		return -ENOENT;
	snprintf(buf, len, "       gaps caused by: ");
	for (i = 0; i < VMS_CAUSE_NR; i++) {
		if (!s->causes[i])
			continue;
		off = strlen(buf);
		snprintf(buf + off, len - off, "%s%s %zu", sep, vms_cause_name(i), s->causes[i]);
		sep = ", ";
	}
	return 0;
}
