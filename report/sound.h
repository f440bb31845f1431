/* The Sound lines of the text report (SPEC §8): one per workload from its audio metrics and
 * per-run audio details, and the idle baseline line. No kernel paths. */
#ifndef VMS_REPORT_SOUND_H
#define VMS_REPORT_SOUND_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "core/metric.h"

/* Prints, for a workload object of a result file,
 *   Sound: 4.0/10 — played 800 of 850 s, 37 skips (52 underruns), longest gap 412 ms, p99 wake 31
 * ms gaps caused by: paging 41, runqueue 6, io 5 over all its runs (rating and wake percentile:
 * mean; counts, played and window: sums; longest gap: max; causes: sums of runs[].audio.causes).
 * Prints nothing when the workload has no sound metrics; the causes line only when there were gaps.
 */
void vms_report_sound_text(FILE *out, const json_t *workload);
/* Prints the same two lines for the idle baseline of a result's "audio" object
 * ({"facts", "baseline": {"metrics", "detail"}}), labelled "Sound (idle baseline):". Prints
 * nothing when audio is null or has no baseline. */
void vms_report_sound_baseline(FILE *out, const json_t *audio);

/* The figures of a Sound line, aggregated over the windows they come from. */
struct vms_sound_figures {
	double rating;               /* sound_rating, mean */
	double played_s, window_s;   /* sums */
	double skips, underruns;     /* sums */
	double longest_gap_ms;       /* gap_longest_ms, max */
	double wake_p99_ms;          /* mean; NAN when not recorded */
	size_t causes[VMS_CAUSE_NR]; /* gaps per cause, summed */
};
/* Fills s from the idle baseline of a result's "audio" object, aggregated as the Sound
 * (idle baseline) line is. Returns 0, or -ENOENT when there is no baseline or it has no
 * sound_rating (s is then zeroed). */
int vms_sound_baseline_figures(const json_t *audio, struct vms_sound_figures *s);
/* Prints s as the Sound line prints it, without its label and without the final newline:
 *   4.0/10 — played 800 of 850 s, 37 skips (52 underruns), longest gap 412 ms, p99 wake 31 ms
 * and, when there were gaps, a second line "       gaps caused by: paging 41, io 5". */
void vms_sound_figures_print(FILE *out, const struct vms_sound_figures *s);

#endif
