/* Test helper: `vms-compare-html OUT.html BASE OTHER...` builds the comparison model of
 * `vmsuite compare` and renders it with the HTML compare view (the function the command's
 * --format html calls), for the html tests. No kernel paths. */
#include <stdio.h>
#include <stdlib.h>

#include "core/result.h"
#include "core/resultdoc.h"
#include "core/util.h"
#include "report/compare-render.h"

int main(int argc, char **argv)
{
	struct vms_compare_opts opts;
	struct vms_compare cmp;
	json_t *docs[26];
	int i, n = argc - 2, ret = 1;
	FILE *f;

	if (n < 2 || n > 26) {
		fprintf(stderr, "usage: vms-compare-html OUT.html BASE OTHER...\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		enum vms_load_error e;
		char err[256];

		docs[i] = vms_result_load(argv[i + 2], &e, err, sizeof(err));
		if (!docs[i]) {
			fprintf(stderr, "vms-compare-html: '%s': %s\n", argv[i + 2], err);
			while (i--)
				json_decref(docs[i]);
			return 2;
		}
	}
	vms_compare_opts_init(&opts);
	vms_compare_build(&cmp, &opts,
	                  &(struct vms_compare_input){.docs = docs,
	                                              .paths = (const char *const *)argv + 2,
	                                              .n = (size_t)n});
	f = fopen(argv[1], "w");
	if (f) {
		ret = vms_compare_render_html(&cmp, f) ? 1 : 0;
		ret |= fclose(f) ? 1 : 0;
	}
	vms_compare_release(&cmp);
	for (i = 0; i < n; i++)
		json_decref(docs[i]);
	return ret;
}
