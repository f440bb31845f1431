/* What the compare model concludes: each side's outcome (no change shown, no regression shown,
 * regression, cannot tell, not comparable), the exit status of `vmsuite compare` and of `git
 * bisect run` (non-inferiority for good), whether every deciding metric is decided, and the
 * runs an inconclusive deciding metric asks for. Reads the
 * model only; no kernel paths. */
#include <stddef.h>
#include <string.h>

#include "compare/compare.h"
#include "core/util.h"

void vms_compare_tally(const struct vms_compare *c, size_t k, struct vms_compare_tally *t)
{
	size_t i, j;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < c->n_workloads; i++) {
		t->common += c->workloads[i].present[k];
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_compare_metric *m = &c->workloads[i].metrics[j];
			const struct vms_compare_cell *cell = &m->cells[k];

			if (!m->primary || !c->workloads[i].present[k] || cell->by_design)
				continue;
			t->primary++;
			switch (cell->verdict) {
			case VMS_VERDICT_REGRESSION: t->regressions++; break;
			case VMS_VERDICT_IMPROVEMENT: t->improved++; break;
			case VMS_VERDICT_NO_CHANGE: t->no_change++; break;
			case VMS_VERDICT_INCONCLUSIVE:
			case VMS_VERDICT_PROB_REGRESSION:
			case VMS_VERDICT_PROB_IMPROVEMENT: t->undecided++; break;
			case VMS_VERDICT_CANNOT_TELL:
				if (m->derived)
					t->failed++;
				else
					t->unmeasured++;
				break;
			case VMS_VERDICT_MISSING: t->unmeasured++; break;
			case VMS_VERDICT_UNSTABLE: t->unstable++; break;
			case VMS_VERDICT_CONFOUNDED: t->confounded++; break;
			case VMS_VERDICT_NOT_COMPARABLE: t->blocked++; break;
			case VMS_VERDICT_INFO: break;
			}
		}
	}
}

enum vms_compare_outcome vms_compare_outcome(const struct vms_compare *c, size_t k)
{
	struct vms_compare_tally t;

	vms_compare_tally(c, k, &t);
	if (t.regressions)
		return VMS_OUTCOME_REGRESSION;
	if (!t.common || t.blocked || c->unmatched[k])
		return VMS_OUTCOME_NOT_COMPARABLE;
	if (t.unmeasured + t.failed + t.unstable + t.confounded || (c->decisive && !t.primary))
		return VMS_OUTCOME_CANNOT_TELL;
	if (t.primary && t.no_change + t.improved == t.primary)
		return VMS_OUTCOME_NO_CHANGE;
	return VMS_OUTCOME_NO_REGRESSION;
}

int vms_compare_status(const struct vms_compare *c)
{
	int untold = 0;
	size_t k;

	for (k = 0; k + 1 < c->n_files; k++) {
		enum vms_compare_outcome o = vms_compare_outcome(c, k);

		if (o == VMS_OUTCOME_REGRESSION)
			return 1;
		untold |= o == VMS_OUTCOME_NOT_COMPARABLE || o == VMS_OUTCOME_CANNOT_TELL;
	}
	return untold ? 2 : 0;
}

int vms_compare_bisect_side(const struct vms_compare *c, size_t k)
{
	enum vms_compare_outcome o = vms_compare_outcome(c, k);
	size_t i, j;

	if (o == VMS_OUTCOME_REGRESSION)
		return 1;
	if (o == VMS_OUTCOME_NOT_COMPARABLE || o == VMS_OUTCOME_CANNOT_TELL)
		return VMS_BISECT_SKIP;
	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_compare_metric *m = &c->workloads[i].metrics[j];
			const struct vms_compare_cell *cell = &m->cells[k];

			if (!m->primary || !c->workloads[i].present[k] || cell->by_design ||
			    cell->verdict == VMS_VERDICT_NOT_COMPARABLE)
				continue;
			if (!cell->noninferior)
				return VMS_BISECT_SKIP;
		}
	return 0;
}

int vms_compare_bisect_status(const struct vms_compare *c)
{
	int skip = 0;
	size_t k;

	for (k = 0; k + 1 < c->n_files; k++) {
		int s = vms_compare_bisect_side(c, k);

		if (s == 1)
			return 1;
		skip |= s == VMS_BISECT_SKIP;
	}
	return skip ? VMS_BISECT_SKIP : 0;
}

int vms_compare_cell_decided(const struct vms_compare_cell *c)
{
	return c->verdict == VMS_VERDICT_REGRESSION || c->verdict == VMS_VERDICT_IMPROVEMENT ||
	       c->verdict == VMS_VERDICT_NO_CHANGE;
}

int vms_compare_decided(const struct vms_compare *c, size_t k)
{
	size_t i, j;

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_compare_metric *m = &c->workloads[i].metrics[j];
			const struct vms_compare_cell *cell = &m->cells[k];

			if (!m->primary || !c->workloads[i].present[k] || cell->by_design)
				continue;
			if (!vms_compare_cell_decided(cell))
				return 0;
		}
	return 1;
}

unsigned vms_compare_runs_to_decide(const struct vms_compare *c, size_t k)
{
	unsigned most = 0;
	size_t i, j;

	for (i = 0; i < c->n_workloads; i++)
		for (j = 0; j < c->workloads[i].n_metrics; j++) {
			const struct vms_compare_metric *m = &c->workloads[i].metrics[j];
			const struct vms_compare_cell *cell = &m->cells[k];

			if (m->primary && c->workloads[i].present[k] &&
			    cell->verdict == VMS_VERDICT_INCONCLUSIVE && cell->runs_needed > most &&
			    cell->runs_needed > cell->runs_have)
				most = cell->runs_needed;
		}
	return most;
}

size_t vms_compare_confounded(const struct vms_compare *c, size_t k)
{
	struct vms_compare_tally t;

	vms_compare_tally(c, k, &t);
	return t.confounded;
}

void vms_compare_note_suites(const struct vms_compare *c, int bisect)
{
	size_t k, several = 0;

	if (c->variants)
		return;
	for (k = 0; k < c->n_files; k++)
		several |= c->files[k].n_suites > 1;
	if (!several) {
		if (bisect)
			vms_note(
			    "one suite per side: the drift between suites (separate boots, the "
			    "machine's state) cannot be seen and can pass for a change; 3 or "
			    "more suites per side are advised (docs/bisect.md)");
		return;
	}
	for (k = 0; k < c->n_files; k++) {
		if (c->files[k].n_suites >= 3)
			continue;
		vms_note("side %c has %zu suite%s: the suite means decide, with few degrees of "
		         "freedom; 3 or more suites per side are advised",
		         'A' + (int)k, c->files[k].n_suites, c->files[k].n_suites > 1 ? "s" : "");
		break;
	}
}
