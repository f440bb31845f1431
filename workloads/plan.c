/* The default plan of each machine profile, and the planning of a run: profile values, then each
 * workload's plan hook sized from the machine's facts (RAM, swap, free disk), then its needs.
 * Touches no kernel path itself; the sizes decide how hard the workloads press on reclaim. */
#include "workloads/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The 2001 box: mmap001 -m 500000 × 5, then mtest01 -p80 -w × 10, at the 2001 sizes whatever
 * the memory limit. */
static const struct vms_plan_step hron2001_plan[] = {
    {"mmap001:bytes=2048000000", 5},
    {"mtest01:percent=80:write=1", 10},
    {NULL, 0},
};

/* The real machine: the same plan, mmap001 sized by its plan hook from RAM and free disk. */
static const struct vms_plan_step host_plan[] = {
    {"mmap001", 5},
    {"mtest01:percent=80:write=1", 10},
    {NULL, 0},
};

const struct vms_profile_plan vms_profile_plans[] = {
    {"hron2001", hron2001_plan},
    {"host", host_plan},
    {NULL, NULL},
};

const struct vms_profile_plan *vms_profile_plan_find(const char *name)
{
	const struct vms_profile_plan *pp;

	for (pp = vms_profile_plans; pp->profile; pp++)
		if (!strcmp(pp->profile, name))
			return pp;
	return NULL;
}

/* The name of the workload a spec starts with, as a length. */
static size_t spec_name_len(const char *spec)
{
	const char *colon = strchr(spec, ':');

	return colon ? (size_t)(colon - spec) : strlen(spec);
}

const struct vms_plan_step *vms_profile_plan_step(const struct vms_profile_plan *pp,
                                                  const struct vms_workload *w)
{
	const struct vms_plan_step *s;

	if (!pp)
		return NULL;
	for (s = pp->steps; s->spec; s++)
		if (spec_name_len(s->spec) == strlen(w->name) &&
		    !strncmp(s->spec, w->name, spec_name_len(s->spec)))
			return s;
	return NULL;
}

/* Options set in the step's spec go to the unset options of it. */
static int take_step_options(struct vms_run_item *it, const struct vms_plan_step *step, char *msg,
                             size_t len)
{
	struct vms_workload_spec ps;
	size_t i;

	if (vms_workload_spec_parse(step->spec, &ps, msg, len))
		return -EINVAL;
	for (i = 0; i < it->spec.w->n_options; i++) {
		struct vms_opt_value *v = &it->spec.opts[i];

		if (v->set || !ps.opts[i].set)
			continue;
		v->u = ps.opts[i].u;
		if (ps.opts[i].s) {
			free(v->s);
			v->s = vms_xstrdup(ps.opts[i].s);
		}
		v->set = 1;
	}
	vms_workload_spec_release(&ps);
	return 0;
}

int vms_plan_item(struct vms_run_item *it, const struct vms_plan_step *step,
                  const struct vms_machine_facts *f, long runs, char *msg, size_t len)
{
	const struct vms_workload *w = it->spec.w;
	char why[512];
	int ret;

	msg[0] = '\0';
	it->runs = runs ? runs : step ? step->runs : w->default_runs;
	if (step && step->spec && (ret = take_step_options(it, step, msg, len)))
		return ret;
	ret = vms_workload_available(w, f, VMS_NEED_DISK, why, sizeof(why));
	if (ret) {
		snprintf(msg, len, "%s: cannot run here: %s", w->name, why);
		return ret;
	}
	if (w->plan && (ret = w->plan(f, it->spec.opts, why, sizeof(why)))) {
		snprintf(msg, len, "%s: %s", w->name, why);
		return ret;
	}
	if (w->plan)
		snprintf(msg, len, "%s", why);
	return 0;
}

/* Appends clause to the "; "-separated list in buf unless it is there already. */
static void add_clause(char *buf, size_t len, const char *clause)
{
	size_t used = strlen(buf);

	if (!clause[0] || strstr(buf, clause) || used >= len)
		return;
	if (snprintf(buf + used, len - used, "%s%s", used ? "; " : "", clause) >= (int)(len - used))
		buf[used] = '\0'; /* a clause that does not fit is left out whole */
}

int vms_plan_make(struct vms_run_item *items, size_t *n, size_t max,
                  const struct vms_profile_plan *pp, const struct vms_machine_facts *f, long runs,
                  char *msg, size_t len)
{
	char one[1024], notes[1024] = "";
	int from_profile = *n == 0;
	size_t i;
	int ret;

	msg[0] = '\0';
	if (from_profile && !pp) {
		snprintf(msg, len,
		         "this machine profile has no default plan: give the workloads with -w");
		return -ENOENT;
	}
	for (i = 0; from_profile && pp->steps[i].spec; i++) {
		if (i == max) {
			snprintf(msg, len, "the default plan has more than %zu steps", max);
			return -E2BIG;
		}
		if (vms_workload_spec_parse(pp->steps[i].spec, &items[i].spec, one, sizeof(one))) {
			snprintf(msg, len, "default plan of '%s': %s", pp->profile, one);
			return -EINVAL;
		}
		*n = i + 1;
	}
	for (i = 0; i < *n; i++) {
		const struct vms_plan_step *s =
		    from_profile ? &pp->steps[i] : vms_profile_plan_step(pp, items[i].spec.w);

		ret = vms_plan_item(&items[i], s, f, runs, one, sizeof(one));
		if (ret) {
			snprintf(msg, len, "%s", one);
			return ret;
		}
		add_clause(notes, sizeof(notes), one);
	}
	snprintf(msg, len, "%s", notes);
	return 0;
}

static json_t *opt_json(const struct vms_option_def *d, const struct vms_opt_value *v)
{
	if (d->type == VMS_OPT_PATH)
		return v->s ? json_string(v->s) : json_null();
	if (d->type == VMS_OPT_BOOL)
		return json_boolean(v->u);
	return json_integer((json_int_t)v->u);
}

json_t *vms_plan_profile_json(const struct vms_profile_plan *pp, const struct vms_machine_facts *f)
{
	const struct vms_plan_step *s;
	json_t *o = json_object();
	char msg[1024];

	for (s = pp ? pp->steps : NULL; s && s->spec; s++) {
		struct vms_run_item it;
		char key[128];
		size_t i;

		if (vms_workload_spec_parse(s->spec, &it.spec, msg, sizeof(msg)))
			continue;
		if (vms_profile_plan_step(pp, it.spec.w) != s) {
			vms_workload_spec_release(&it.spec);
			continue;
		}
		/* a hook that finds no size leaves its options out; the run reports it */
		vms_plan_item(&it, s, f, 0, msg, sizeof(msg));
		for (i = 0; i < it.spec.w->n_options; i++) {
			if (!it.spec.opts[i].set)
				continue;
			snprintf(key, sizeof(key), "%s_%s", it.spec.w->name,
			         it.spec.w->options[i].name);
			json_object_set_new(o, key,
			                    opt_json(&it.spec.w->options[i], &it.spec.opts[i]));
		}
		snprintf(key, sizeof(key), "%s_runs", it.spec.w->name);
		json_object_set_new(o, key, json_integer(it.runs));
		vms_workload_spec_release(&it.spec);
	}
	return o;
}

int vms_plan_apply(struct vms_run_item *items, size_t *n, size_t max, struct vms_machine *m,
                   long runs)
{
	const struct vms_profile_plan *pp =
	    m->profile ? vms_profile_plan_find(m->profile->name) : NULL;
	char msg[1024];
	json_t *plan;
	char *text;
	int ret;

	ret = vms_plan_make(items, n, max, pp, &m->facts, runs, msg, sizeof(msg));
	if (ret) {
		vms_error("%s", msg);
		return ret;
	}
	if (msg[0])
		vms_machine_add_note(m, "%s", msg);
	plan = vms_plan_profile_json(pp, &m->facts);
	text = json_dumps(plan, JSON_COMPACT);
	snprintf(m->plan_json, sizeof(m->plan_json), "%s",
	         text && strlen(text) < sizeof(m->plan_json) ? text : "");
	free(text);
	json_decref(plan);
	return 0;
}
