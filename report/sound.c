/* The Sound lines of the text report: the 0-10 rating, played N of M seconds, skips and
 * underruns, the longest gap, the p99 wake-up lateness and the causes of the gaps, summed or
 * averaged over the runs of a workload. No kernel paths. */
#include "report/sound.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"

static const char *const causes[] = {"paging", "runqueue",    "io",
                                     "decode", "unexplained", "probe_died"};

static int agg(const json_t *metrics, const char *name, int how, double *out)
{
	size_t n, i;
	double *v = vms_metric_values(metrics, name, &n), acc = 0;

	if (!v || !n) {
		free(v);
		return 0;
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
	*out = acc;
	return 1;
}

static const char *plural(double n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void fmt_ms(char *buf, size_t len, double ms)
{
	if (ms < 10 && ms != floor(ms))
		snprintf(buf, len, "%.1f ms", ms);
	else
		snprintf(buf, len, "%.0f ms", ms);
}

static void print_sound(FILE *out, const char *label, const json_t *metrics, const json_t *details)
{
	double rating, played = 0, window = 0, skips = 0, xruns = 0, longest = 0, p99;
	size_t counts[VMS_ARRAY_SIZE(causes)] = {0};
	const char *sep = "";
	char longest_s[32], p99_s[32];
	int prec;
	size_t i, j;
	json_t *d;
	int any = 0;

	if (!json_is_object(metrics) || !agg(metrics, "sound_rating", 'm', &rating))
		return;
	agg(metrics, "played_s", 's', &played);
	agg(metrics, "window_s", 's', &window);
	agg(metrics, "skips", 's', &skips);
	agg(metrics, "underruns", 's', &xruns);
	agg(metrics, "gap_longest_ms", 'x', &longest);
	prec = window >= 100 ? 0 : 1;
	/* a run with gaps never reads "played 10.0 of 10.0" */
	while (prec < 3 && played < window &&
	       round(played * pow(10, prec)) == round(window * pow(10, prec)))
		prec++;
	fprintf(out, "%s %.1f/10 \u2014 played %.*f of %.*f", label, rating, prec, played, prec,
	        window);
	fmt_ms(longest_s, sizeof(longest_s), longest);
	fprintf(out, " s, %.0f %s (%.0f %s), longest gap %s", skips, plural(skips, "skip", "skips"),
	        xruns, plural(xruns, "underrun", "underruns"), longest_s);
	if (agg(metrics, "wake_p99_ms", 'm', &p99)) {
		fmt_ms(p99_s, sizeof(p99_s), p99);
		fprintf(out, ", p99 wake %s", p99_s);
	}
	fputc('\n', out);

	json_array_foreach (details, j, d) {
		const json_t *c = json_object_get(d, "causes");

		for (i = 0; i < VMS_ARRAY_SIZE(causes); i++) {
			json_int_t n = json_integer_value(json_object_get(c, causes[i]));

			counts[i] += n > 0 ? (size_t)n : 0;
			any |= n > 0;
		}
	}
	if (!any)
		return;
	fprintf(out, "       gaps caused by: ");
	for (i = 0; i < VMS_ARRAY_SIZE(causes); i++) {
		if (!counts[i])
			continue;
		fprintf(out, "%s%s %zu", sep, causes[i], counts[i]);
		sep = ", ";
	}
	fputc('\n', out);
}

void vms_report_sound_text(FILE *out, const json_t *workload)
{
	json_t *details = json_array(), *run;
	size_t i;

	json_array_foreach (json_object_get(workload, "runs"), i, run) {
		json_t *a = json_object_get(run, "audio");

		if (json_is_object(a))
			json_array_append(details, a);
	}
	print_sound(out, "Sound:", json_object_get(workload, "metrics"), details);
	json_decref(details);
}

void vms_report_sound_baseline(FILE *out, const json_t *audio)
{
	const json_t *b = json_object_get(audio, "baseline");
	json_t *details;

	if (!json_is_object(b))
		return;
	details = json_array();
	if (json_is_object(json_object_get(b, "detail")))
		json_array_append(details, json_object_get(b, "detail"));
	print_sound(out, "Sound (idle baseline):", json_object_get(b, "metrics"), details);
	json_decref(details);
}

int vms_sound_baseline_figures(const json_t *audio, struct vms_sound_figures *s)
{
	const json_t *b = json_object_get(audio, "baseline");
	const json_t *metrics = json_object_get(b, "metrics");
	const json_t *c = json_object_get(json_object_get(b, "detail"), "causes");
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(metrics) || !agg(metrics, "sound_rating", 'm', &s->rating))
		return -ENOENT;
	agg(metrics, "played_s", 's', &s->played_s);
	agg(metrics, "window_s", 's', &s->window_s);
	agg(metrics, "skips", 's', &s->skips);
	agg(metrics, "underruns", 's', &s->underruns);
	agg(metrics, "gap_longest_ms", 'x', &s->longest_gap_ms);
	if (!agg(metrics, "wake_p99_ms", 'm', &s->wake_p99_ms))
		s->wake_p99_ms = NAN;
	for (i = 0; i < VMS_CAUSE_NR; i++) {
		json_int_t n = json_integer_value(json_object_get(c, vms_cause_name(i)));

		s->causes[i] = n > 0 ? (size_t)n : 0;
	}
	return 0;
}

void vms_sound_figures_print(FILE *out, const struct vms_sound_figures *s)
{
	const char *sep = "";
	char longest[32], p99[32];
	int prec = s->window_s >= 100 ? 0 : 1, any = 0;
	size_t i;

	/* a window with gaps never reads "played 10.0 of 10.0" */
	while (prec < 3 && s->played_s < s->window_s &&
	       round(s->played_s * pow(10, prec)) == round(s->window_s * pow(10, prec)))
		prec++;
	fmt_ms(longest, sizeof(longest), s->longest_gap_ms);
	fprintf(out, "%.1f/10 \u2014 played %.*f of %.*f s, %.0f %s (%.0f %s), longest gap %s",
	        s->rating, prec, s->played_s, prec, s->window_s, s->skips,
	        plural(s->skips, "skip", "skips"), s->underruns,
	        plural(s->underruns, "underrun", "underruns"), longest);
	if (!isnan(s->wake_p99_ms)) {
		fmt_ms(p99, sizeof(p99), s->wake_p99_ms);
		fprintf(out, ", p99 wake %s", p99);
	}
	for (i = 0; i < VMS_CAUSE_NR; i++)
		any |= s->causes[i] > 0;
	if (!any)
		return;
	fprintf(out, "\n       gaps caused by: ");
	for (i = 0; i < VMS_CAUSE_NR; i++) {
		if (!s->causes[i])
			continue;
		fprintf(out, "%s%s %zu", sep, vms_cause_name(i), s->causes[i]);
		sep = ", ";
	}
}
