/* Prints the Sound lines that compare/sound.c formats. No kernel paths. */
#include "report/sound-text.h"

void vms_report_sound_print(FILE *out, const char *label, const struct vms_report_sound *s)
{
	char line[512];

	if (vms_report_sound_line(line, sizeof(line), label, s))
		return;
	fprintf(out, "%s\n", line);
	if (!vms_report_sound_causes_line(line, sizeof(line), s))
		fprintf(out, "%s\n", line);
}

void vms_report_sound_text(FILE *out, const json_t *workload)
{
	struct vms_report_sound s;

	vms_report_sound_of_workload(workload, &s);
	vms_report_sound_print(out, "Sound:", &s);
}

void vms_report_sound_baseline(FILE *out, const json_t *audio)
{
	struct vms_report_sound s;

	vms_report_sound_of_baseline(audio, &s);
	vms_report_sound_print(out, "Sound (idle baseline):", &s);
}

void vms_report_sound_put(FILE *out, const struct vms_report_sound *s)
{
	char line[512];

	if (vms_report_sound_line(line, sizeof(line), NULL, s))
		return;
	fputs(line, out);
	if (!vms_report_sound_causes_line(line, sizeof(line), s))
		fprintf(out, "\n%s", line);
}
