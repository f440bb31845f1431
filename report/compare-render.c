/* The table of compare renderers (report/compare-render.h). No kernel paths. */
#include "report/compare-render.h"

#include <string.h>

#include "core/util.h"

/* Adding an output format of `vmsuite compare`: its render function (report/compare-NAME.c,
 * declared in report/compare-render.h), one row here, a golden test, and the format in the
 * lists of cli/cmd-compare.c (help, refusal), docs/compare.md and docs/vmsuite.1. */
static const struct vms_compare_renderer renderers[] = {
    {"text", vms_compare_render_text},
    {"markdown", vms_compare_render_markdown},
    {"json", vms_compare_render_json},
    {"html", vms_compare_render_html},
};

const struct vms_compare_renderer *vms_compare_renderer_find(const char *name)
{
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(renderers); i++)
		if (!strcmp(renderers[i].name, name))
			return &renderers[i];
	return NULL;
}

const struct vms_compare_renderer *vms_compare_renderer_at(size_t i)
{
	return i < VMS_ARRAY_SIZE(renderers) ? &renderers[i] : NULL;
}
