/* The table of compare renderers (report/compare-render.h). No kernel paths. */
#include "report/compare-render.h"

#include <string.h>

#include "core/options.h"
#include "core/util.h"

/* Adding an output format of `vmsuite compare`: its render function (report/compare-NAME.c,
 * declared in report/compare-render.h), one row here (-f's help and its unknown-format
 * message are made from it), a golden test, docs/compare.md and docs/vmsuite.1. */
static const struct vms_compare_renderer renderers[] = {
    {"text", "default, fits 100 columns", vms_compare_render_text},
    {"markdown", NULL, vms_compare_render_markdown},
    {"json", NULL, vms_compare_render_json},
    {"html", NULL, vms_compare_render_html},
};

const struct vms_compare_renderer *vms_compare_renderer_find(const char *name)
{
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(renderers); i++)
		if (!strcmp(renderers[i].name, name))
			return &renderers[i];
	return NULL;
}

/* The names, each with its note when with_notes, joined for help or a message. */
static const char *join(char *buf, size_t len, int with_notes)
{
	size_t i;

	if (buf[0])
		return buf;
	for (i = 0; i < VMS_ARRAY_SIZE(renderers); i++) {
		const char *note = with_notes ? renderers[i].note : NULL;
		char item[96];

		snprintf(item, sizeof(item), "%s%s%s%s", renderers[i].name, note ? " (" : "",
		         note ? note : "", note ? ")" : "");
		if (with_notes)
			vms_cli_help_append(buf, len, ", ", item);
		else /* a message: one line */
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", item);
	}
	return buf;
}

const char *vms_compare_renderer_names(void)
{
	static char names[128];

	return join(names, sizeof(names), 0);
}

const char *vms_compare_renderer_help(void)
{
	static char help[256];

	return join(help, sizeof(help), 1);
}

const struct vms_compare_renderer *vms_compare_renderer_at(size_t i)
{
	return i < VMS_ARRAY_SIZE(renderers) ? &renderers[i] : NULL;
}
