/* The Sound lines of the text report and of compare (compare/sound.h formats them): printed
 * for a workload object, the idle baseline, or a summary. No kernel paths. */
#ifndef VMS_REPORT_SOUND_TEXT_H
#define VMS_REPORT_SOUND_TEXT_H

#include <jansson.h>
#include <stdio.h>

#include "compare/sound.h"

/* Prints both lines (each ending in a newline) to out; nothing when s is not present. */
void vms_report_sound_print(FILE *out, const char *label, const struct vms_compare_sound *s);

/* Prints the Sound lines of a workload object of a result file (see
 * vms_compare_sound_of_workload and vms_report_sound_print), labelled "Sound:". */
void vms_report_sound_text(FILE *out, const json_t *workload);
/* Prints the same two lines for the idle baseline of a result's "audio" object, labelled
 * "Sound (idle baseline):". Prints nothing when audio is null or has no baseline. */
void vms_report_sound_baseline(FILE *out, const json_t *audio);

/* Prints the Sound line of s without its label and without the final newline, and when there
 * were gaps with a cause, a newline and the causes line: what compare puts after a file's name.
 * Nothing when s is not present. */
void vms_report_sound_put(FILE *out, const struct vms_compare_sound *s);

#endif
