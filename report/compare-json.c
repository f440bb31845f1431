/* The JSON renderer of the compare model ("vmsuite.compare/1") and the verdict object
 * `vmsuite run --against` stores in the result. No kernel paths. */
#include "report/compare-render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "compare/compare.h"
#include "compare/sound.h"
#include "report/compare-fmt.h"

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Per side, what other processes took of the CPUs during w's runs; null for a side whose
 * files did not record it. */
static json_t *busy_json(const struct vms_compare *c, const struct vms_compare_workload *w)
{
	json_t *arr = json_array();
	size_t k;

	for (k = 0; k < c->n_files; k++) {
		const struct vms_compare_busy *b = &w->busy[k];

		json_array_append_new(
		    arr, b->known
		             ? json_pack("{s:o, s:o, s:I, s:I}", "other_cpu_pct_mean", num(b->mean),
		                         "other_cpu_pct_max", num(b->max), "runs",
		                         (json_int_t)b->runs, "disturbed", (json_int_t)b->disturbed)
		             : json_null());
		if (b->known && b->io_runs)
			json_object_set_new(json_array_get(arr, k), "other_io_mb",
			                    json_pack("{s:o, s:o, s:I}", "mean", num(b->io_mean),
			                              "max", num(b->io_max), "runs",
			                              (json_int_t)b->io_runs));
	}
	return arr;
}

static json_t *side_json(const struct vms_compare_metric *m, const struct vms_compare_side *s)
{
	json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "n", (json_int_t)s->s.n, "mean",
	                      num(s->s.mean), "sd", num(s->s.sd), "cv", num(s->s.cv), "min",
	                      num(s->s.min), "max", num(s->s.max));

	json_t *out = json_array();
	size_t i;

	if (m->count)
		json_object_set_new(o, "runs_with_event", json_integer(s->events));
	for (i = 0; i < s->s.n; i++)
		if (s->outlier && s->outlier[i])
			json_array_append_new(out, json_integer((json_int_t)s->runs[i] + 1));
	json_object_set_new(o, "outlier_runs", out);
	json_object_set_new(o, "log_sd", num(s->lsd));
	/* the per-run sd the tests used: larger than log_sd when the runs drift together */
	json_object_set_new(o, "log_sd_effective", num(s->esd));
	json_object_set_new(o, "bimodal", json_boolean(s->bimodal));
	return o;
}

/* The baseline line as the text output shows it (and its causes line), or null. */
static json_t *baseline_json(const struct vms_compare_file *file)
{
	char line[512], causes[512];

	if (!file->has_baseline ||
	    vms_compare_sound_line(line, sizeof(line), NULL, &file->baseline))
		return json_null();
	if (vms_compare_sound_causes_line(causes, sizeof(causes), &file->baseline))
		return json_string(line);
	return json_sprintf("%s\n%s", line, causes);
}

/* What the "test" key says: the method's test in words. */
static const char *method_test(enum vms_compare_method m)
{
	switch (m) {
	case VMS_METHOD_LOG_T: return "welch t on log values";
	case VMS_METHOD_RAW_T: return "welch t on raw values";
	case VMS_METHOD_FISHER: return "fisher exact on runs with an event";
	case VMS_METHOD_PAIRED_LOG: return "paired t on log ratios";
	case VMS_METHOD_PAIRED_RAW: return "paired t on differences";
	case VMS_METHOD_SUITES_LOG: return "t on suite log means";
	case VMS_METHOD_YUEN_LOG: return "yuen t on 20% trimmed log values";
	default: return "none";
	}
}

static json_t *pct_json(double ratio)
{
	return num(100 * (ratio - 1));
}

json_t *vms_compare_to_json(const struct vms_compare *c)
{
	json_t *doc = json_object(), *files = json_array(), *env = json_array(),
	       *wls = json_array(), *nc = json_array();
	size_t i, j, k;

	json_object_set_new(doc, "format", json_string("vmsuite.compare/1"));
	for (k = 0; k < c->n_files; k++)
		json_array_append_new(
		    files, json_pack("{s:s, s:s, s:b, s:o, s:b}", "path", c->files[k].path, "label",
		                     c->files[k].label, "base", k == 0, "audio_baseline",
		                     baseline_json(&c->files[k]), "audio_baseline_skipped",
		                     c->files[k].baseline_skipped));
	json_object_set_new(doc, "files", files);
	for (k = 0; k < c->n_files; k++) {
		json_t *fo = json_array_get(files, k);

		json_object_set_new(fo, "variant",
		                    c->files[k].variant ? json_string(c->files[k].variant)
		                                        : json_null());
		json_object_set_new(fo, "suites", json_integer((json_int_t)c->files[k].n_suites));
		if (c->files[k].suite_paths) {
			json_t *sp = json_array();

			for (i = 0; i < c->files[k].n_suites; i++)
				json_array_append_new(sp, json_string(c->files[k].suite_paths[i]));
			json_object_set_new(fo, "paths", sp);
		}
		json_object_set_new(fo, "paired", json_boolean(c->files[k].paired));
		json_object_set_new(fo, "family_size",
		                    json_integer(k ? (json_int_t)c->family[k - 1] : 0));
		if (k) {
			static const char *const outcome[] = {
			    [VMS_OUTCOME_NO_REGRESSION] = "no regression shown",
			    [VMS_OUTCOME_REGRESSION] = "regression",
			    [VMS_OUTCOME_NOT_COMPARABLE] = "not comparable",
			    [VMS_OUTCOME_CANNOT_TELL] = "cannot tell",
			    [VMS_OUTCOME_NO_CHANGE] = "no change",
			};

			json_object_set_new(fo, "outcome",
			                    json_string(outcome[vms_compare_outcome(c, k - 1)]));
			json_object_set_new(fo, "decided",
			                    json_boolean(vms_compare_decided(c, k - 1)));
			json_object_set_new(fo, "bisect_exit",
			                    json_integer(vms_compare_bisect_side(c, k - 1)));
			json_object_set_new(fo, "runs_to_decide",
			                    json_integer(vms_compare_runs_to_decide(c, k - 1)));
		} else {
			json_object_set_new(fo, "outcome", json_null());
		}
	}
	json_object_set_new(doc, "compared", json_string(c->variants ? "variants" : "files"));
	json_object_set_new(doc, "options",
	                    json_pack("{s:f, s:f, s:f, s:f, s:b, s:s, s:f}", "alpha", c->opts.alpha,
	                              "threshold_pct", 100 * c->opts.threshold, "detect_pct",
	                              100 * c->opts.detect, "cv_limit_pct", 100 * c->opts.cv_limit,
	                              "force", c->opts.force, "p_adjustment",
	                              c->holm ? "holm_one_sided" : "none", "disturbed_above_pct",
	                              c->opts.disturbed_above));
	for (k = 0; k + 1 < c->n_files; k++) {
		json_t *items = json_array();

		for (i = 0; i < c->env[k].n; i++) {
			const struct vms_env_item *it = &c->env[k].items[i];
			static const char *const scopes[] = {"global", "workload", "audio"};

			json_array_append_new(items,
			                      json_pack("{s:s, s:s, s:s, s:s, s:s}", "class",
			                                vms_env_class_name(it->cls), "scope",
			                                scopes[it->scope], "key", it->key, "base",
			                                it->base, "other", it->other));
		}
		json_array_append_new(env, items);
	}
	json_object_set_new(doc, "environment", env);
	for (i = 0; i < c->n_workloads; i++) {
		const struct vms_compare_workload *w = &c->workloads[i];
		json_t *ms = json_array();

		for (j = 0; j < w->n_metrics; j++) {
			const struct vms_compare_metric *m = &w->metrics[j];
			json_t *vs = json_array();

			for (k = 0; k + 1 < c->n_files; k++) {
				const struct vms_compare_cell *cell = &m->cells[k];
				json_t *o = side_json(m, &cell->side);

				json_object_set_new(
				    o, "method",
				    json_string(vms_compare_method_name(cell->method)));
				json_object_set_new(o, "change_pct", pct_json(cell->change));
				json_object_set_new(o, "ci_low_pct", pct_json(cell->lo));
				json_object_set_new(o, "ci_high_pct", pct_json(cell->hi));
				json_object_set_new(o, "p", num(cell->p));
				json_object_set_new(
				    o, "verdict",
				    json_string(vms_compare_verdict_name(cell->verdict)));
				json_object_set_new(o, "runs_needed",
				                    cell->runs_needed
				                        ? json_integer(cell->runs_needed)
				                        : json_null());
				json_object_set_new(
				    o, "unstable_side",
				    cell->verdict == VMS_VERDICT_UNSTABLE
				        ? json_string(
				              vms_compare_side_names[cell->unstable_side == 2
				                                         ? 0
				                                         : cell->unstable_side + 1])
				        : json_null());
				json_object_set_new(o, "confounded",
				                    json_boolean(cell->confounded));
				json_object_set_new(o, "test",
				                    json_string(method_test(cell->method)));
				json_object_set_new(o, "p_adjusted", num(cell->p_adj));
				json_object_set_new(
				    o, "p_adjustment",
				    json_string(isnan(cell->p_adj) ? "none" : "holm_one_sided"));
				json_object_set_new(o, "p_worse", num(cell->p_worse));
				json_object_set_new(o, "p_better", num(cell->p_better));
				json_object_set_new(o, "p_worse_adjusted", num(cell->p_adj_worse));
				json_object_set_new(o, "bound_worse_pct", pct_json(cell->bound));
				json_object_set_new(o, "noninferior",
				                    json_boolean(cell->noninferior));
				json_object_set_new(o, "pairs",
				                    json_integer((json_int_t)cell->pairs));
				json_object_set_new(o, "suites",
				                    json_integer((json_int_t)cell->side.n_suites));
				json_object_set_new(o, "drift_pct", num(100 * cell->drift));
				json_object_set_new(o, "within_pct", num(100 * cell->within));
				json_array_append_new(vs, o);
			}
			json_array_append_new(
			    ms,
			    json_pack("{s:s, s:s, s:s, s:b, s:s, s:b, s:b, s:o, s:o}", "name",
			              m->name, "unit", m->unit, "better",
			              vms_better_name(m->better), "primary", m->primary, "kind",
			              m->count ? "count" : "gauge", "audio", m->audio, "derived",
			              m->derived, "base", side_json(m, &m->base), "others", vs));
		}
		json_array_append_new(wls,
		                      json_pack("{s:s, s:o, s:s, s:o, s:o}", "name", w->name,
		                                "metrics", ms, "display", w->display, "variant",
		                                w->variant ? json_string(w->variant) : json_null(),
		                                "disturbance", busy_json(c, w)));
	}
	json_object_set_new(doc, "workloads", wls);
	for (i = 0; i < c->n_not_compared; i++)
		json_array_append_new(nc, json_string(c->not_compared[i]));
	json_object_set_new(doc, "not_compared", nc);
	json_object_set_new(doc, "exit_status", json_integer(vms_compare_status(c)));
	return doc;
}

int vms_compare_render_json(const struct vms_compare *c, FILE *f)
{
	json_t *doc = vms_compare_to_json(c);
	int ret = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));

	json_decref(doc);
	fputc('\n', f);
	return ret ? -EIO : vms_compare_finish(f);
}

json_t *vms_compare_verdict_json(const struct vms_compare *c, const char *const *baselines,
                                 size_t n_baselines, int exit_status)
{
	json_t *paths = json_array(), *metrics = json_array();
	size_t i;

	for (i = 0; i < n_baselines; i++)
		json_array_append_new(paths, json_string(baselines[i]));
	for (i = 0; c->decisive && i < c->n_decisive; i++)
		json_array_append_new(metrics, json_string(c->decisive[i]));
	return json_pack("{s:o, s:i, s:o, s:o}", "baseline", paths, "exit", exit_status, "metrics",
	                 metrics, "compare", vms_compare_to_json(c));
}
