/* The sound summary: the 0-10 rating, played N of M seconds, skips and underruns, the longest
 * gap, the p99 wake-up lateness and the causes of the gaps, summed or averaged over the runs of
 * a workload, and its lines formatted into buffers. No kernel paths. */
#include "compare/sound.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"

/* The samples of metrics[name] folded: 'm' mean, 's' sum, 'x' max; NAN when there are none. */
static double agg(const json_t *metrics, const char *name, int how)
{
	size_t n, i;
	double *v = vms_metric_values(metrics, name, &n), acc = 0;

	if (!v || !n) {
		free(v);
		return NAN;
	}
	for (i = 0; i < n; i++) {
		if (how == 'x')
			acc = i == 0 || v[i] > acc ? v[i] : acc;
		else
			acc += v[i];
	}
	if (how == 'm')
		acc /= (double)n;
	free(v);
	return acc;
}

static void add_causes(struct vms_report_sound *s, const json_t *detail)
{
	const json_t *c = json_object_get(detail, "causes");
	int i;

	s->no_data += json_is_string(json_object_get(detail, "no_sound_data"));
	for (i = 0; i < VMS_CAUSE_NR; i++) {
		json_int_t n = json_integer_value(json_object_get(c, vms_cause_name(i)));

		s->causes[i] += n > 0 ? (size_t)n : 0;
		s->any_cause |= n > 0;
	}
}

static void summarise(const json_t *metrics, struct vms_report_sound *s)
{
	s->rating = json_is_object(metrics) ? agg(metrics, "sound_rating", 'm') : NAN;
	s->present = !isnan(s->rating);
	s->played_s = agg(metrics, "played_s", 's');
	s->window_s = agg(metrics, "window_s", 's');
	s->skips = agg(metrics, "skips", 's');
	s->underruns = agg(metrics, "underruns", 's');
	s->longest_ms = agg(metrics, "gap_longest_ms", 'x');
	s->p99_ms = agg(metrics, "wake_p99_ms", 'm');
}

void vms_report_sound_of_workload(const json_t *workload, struct vms_report_sound *s)
{
	const json_t *run;
	size_t i;

	memset(s, 0, sizeof(*s));
	summarise(json_object_get(workload, "metrics"), s);
	json_array_foreach (json_object_get(workload, "runs"), i, run) {
		const json_t *a = json_object_get(run, "audio");

		if (json_is_object(a))
			add_causes(s, a);
	}
}

void vms_report_sound_of_baseline(const json_t *audio, struct vms_report_sound *s)
{
	const json_t *b = json_object_get(audio, "baseline");

	memset(s, 0, sizeof(*s));
	if (!json_is_object(b)) {
		s->rating = s->played_s = s->window_s = s->skips = s->underruns = s->longest_ms =
		    s->p99_ms = NAN;
		return;
	}
	summarise(json_object_get(b, "metrics"), s);
	if (json_is_object(json_object_get(b, "detail")))
		add_causes(s, json_object_get(b, "detail"));
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

int vms_report_sound_line(char *buf, size_t len, const char *label,
                          const struct vms_report_sound *s)
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

int vms_report_sound_causes_line(char *buf, size_t len, const struct vms_report_sound *s)
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
