/* Prints the Sound lines that compare/sound.c formats. No kernel paths. */
#include "report/sound-text.h"

#include <string.h>

void vms_report_sound_print(FILE *out, const char *label, const struct vms_compare_sound *s)
{
	char line[512];

	if (vms_compare_sound_line(line, sizeof(line), label, s))
		return;
	fprintf(out, "%s\n", line);
	if (!vms_compare_sound_causes_line(line, sizeof(line), s))
		fprintf(out, "%s\n", line);
}

/* The reader's model of a document {key: part} (a workload object or an "audio" object that
 * is not inside a result). 0, or -EINVAL when the reader refuses it. */
static int read_part(struct vms_rdoc *d, const char *key, const json_t *part)
{
	json_t *doc = json_pack("{s:O}", key, part ? part : json_null());
	char err[256];
	int ret;

	if (!strcmp(key, "workloads"))
		json_object_set_new(doc, key, json_pack("[O]", part ? part : json_null()));
	ret = vms_rdoc_init(d, doc, err, sizeof(err));
	json_decref(doc);
	return ret;
}

void vms_report_sound_text(FILE *out, const json_t *workload)
{
	struct vms_compare_sound s;
	struct vms_rdoc d;

	if (read_part(&d, "workloads", workload))
		return;
	vms_compare_sound_of_workload(&d.workloads[0], &s);
	vms_report_sound_print(out, "Sound:", &s);
	vms_rdoc_release(&d);
}

void vms_report_sound_baseline(FILE *out, const json_t *audio)
{
	struct vms_compare_sound s;
	struct vms_rdoc d;

	if (read_part(&d, "audio", audio))
		return;
	vms_compare_sound_of_baseline(&d, &s);
	vms_report_sound_print(out, "Sound (idle baseline):", &s);
	vms_rdoc_release(&d);
}

void vms_report_sound_put(FILE *out, const struct vms_compare_sound *s)
{
	char line[512];

	if (vms_compare_sound_line(line, sizeof(line), NULL, s))
		return;
	fputs(line, out);
	if (!vms_compare_sound_causes_line(line, sizeof(line), s))
		fprintf(out, "\n%s", line);
}
