/* The sound summary of a workload or of the idle baseline: from its audio metrics and per-run
 * audio details, summarised once into a struct vms_compare_sound and formatted into the lines
 * every renderer and compare show. Prints nothing (report/sound-text.h does). No kernel
 * paths. */
#ifndef VMS_COMPARE_SOUND_H
#define VMS_COMPARE_SOUND_H

#include <jansson.h>
#include <stddef.h>

#include "core/metric.h"
#include "core/resultdoc.h"

/* What a listener heard over all the runs of a workload (or the idle baseline window). A
 * figure the file lacks is NAN and renders as "n/a", never 0. */
struct vms_compare_sound {
	int present;       /* sound_rating was recorded: without it there is no Sound line */
	double rating;     /* mean of the runs */
	double played_s;   /* sum */
	double window_s;   /* sum */
	double skips;      /* sum */
	double underruns;  /* sum */
	double longest_ms; /* max */
	double p99_ms;     /* mean; NAN: the part is left out of the line (older files) */
	size_t causes[VMS_CAUSE_NR]; /* sums of the details' "causes" */
	int any_cause;               /* some cause count is above 0 */
	size_t no_data; /* windows whose detail says "no_sound_data" (the probe died or was
	                 * stopped): with it, a line even without sound_rating */
};

/* Summarises a workload of a result (the reader's): its metrics and its runs' gap causes.
 * Never fails; s->present = 0 when the workload has no sound metrics. */
void vms_compare_sound_of_workload(const struct vms_rdoc_workload *w, struct vms_compare_sound *s);
/* The same for the idle baseline of a result (audio.baseline: metrics and detail); s->present
 * = 0 when the result has no baseline. */
void vms_compare_sound_of_baseline(const struct vms_rdoc *d, struct vms_compare_sound *s);

/* Formats, into buf (always terminated, cut to len),
 *   LABEL 4.0/10 — played 800 of 850 s, 37 skips (52 underruns), longest gap 412 ms, p99 wake 31 ms
 * (label NULL: the line starts at the rating). Returns 0, or -ENOENT (buf empty) when s is not
 * present. */
int vms_compare_sound_line(char *buf, size_t len, const char *label,
                           const struct vms_compare_sound *s);
/* Formats "       gaps caused by: paging 41, runqueue 6, io 5" (the catalogue's order, causes
 * that occurred). Returns 0, or -ENOENT (buf empty) when there were no gaps with a cause. */
int vms_compare_sound_causes_line(char *buf, size_t len, const struct vms_compare_sound *s);
#endif
