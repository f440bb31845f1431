/* `report --format lava`: the result as the lines of Linaro test-definitions' output/result.txt,
 * "NAME RESULT [MEASUREMENT [UNITS]]", which a LAVA test definition turns into lava-test-case
 * calls (lava/send-results.sh). Per workload (and variant) a "-runs" case first, then its
 * primary and key metrics as measurements, then a "-verdict" case when a compare verdict is
 * carried. No kernel paths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/export.h"
#include "report/model.h"

/* Shown besides the primary metrics: what a tester looks at first. */
static const char *const key_metrics[] = {
    "elapsed_s", "major_faults", "sound_rating", "underruns", "skips", "gap_longest_ms",
};

static int is_key(const struct vms_report_metric *r)
{
	size_t i;

	if (r->rd->primary)
		return 1;
	for (i = 0; i < VMS_ARRAY_SIZE(key_metrics); i++)
		if (!strcmp(key_metrics[i], r->name))
			return 1;
	return 0;
}

/* s with what a case name or a unit cannot hold: names are the catalogue's [a-z0-9_], shown
 * with '-' as LAVA names usually are; anything else becomes '_'. */
static void put_word(FILE *out, const char *s, int underscore_as_dash)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '_' && underscore_as_dash)
			fputc('-', out);
		else if (c > 0x20 && c < 0x7f)
			fputc(c, out);
		else
			fputc('_', out);
	}
}

int vms_report_render_lava(const struct vms_report_model *m, FILE *out)
{
	size_t other = 0, i, k;
	const json_t *cmp = vms_export_verdict(m, &other, NULL, 0);

	for (i = 0; i < m->n_workloads; i++) {
		const struct vms_report_workload *w = &m->workloads[i];
		char *name = vms_export_name(m, i), num[400]; /* %.9f of any double */
		size_t ok = w->elapsed.n;
		int reg;

		/* the workload's block starts with its -runs case (lava/send-results.sh groups by
		 * it) */
		if (w->rd->skipped)
			fprintf(out, "%s-runs skip\n", name);
		else
			fprintf(out, "%s-runs %s %zu failed-runs\n", name,
			        w->rd->n_failed || !ok ? "fail" : "pass", w->rd->n_failed);
		for (k = 0; ok && k < w->metrics.n; k++) {
			const struct vms_report_metric *r = &w->metrics.v[k];
			const char *unit = r->rd->unit;
			const char *v =
			    cmp ? vms_export_metric_verdict(m, cmp, other, i, r->name) : NULL;

			if (!r->s.n || !is_key(r))
				continue;
			fprintf(out, "%s-", name);
			put_word(out, r->name, 1);
			fprintf(out, " %s %s", vms_export_verdict_rank(v) == 1 ? "fail" : "pass",
			        vms_export_number(num, sizeof(num), r->s.mean,
			                          r->def ? r->def->precision : 2));
			if (unit && *unit) {
				fputc(' ', out);
				put_word(out, unit, 0);
			}
			fputc('\n', out);
		}
		if (cmp && !w->rd->skipped && (reg = vms_export_regressed(m, cmp, other, i)) >= 0)
			fprintf(out, "%s-verdict %s\n", name, reg ? "fail" : "pass");
		free(name);
	}
	return ferror(out) ? -EIO : 0;
}
