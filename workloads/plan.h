/* Plans: what `vmsuite run` runs on a machine. Each machine profile's default plan is data (-w
 * specs with run counts); the machine's facts go down to each workload's plan hook, which sizes
 * what the user and the profile left unset. The result records the profile's plan as sized. */
#ifndef VMS_PLAN_H
#define VMS_PLAN_H

#include <jansson.h>
#include <stddef.h>

#include "core/machine.h"
#include "workloads/runner.h"

/* One step of a default plan: a -w spec and how many runs. */
struct vms_plan_step {
	const char *spec;
	long runs;
};

/* A machine profile's default plan (core/machine.h has the profiles). */
struct vms_profile_plan {
	const char *profile;
	const struct vms_plan_step *steps; /* ends with {NULL, 0} */
};

/* The plans, terminated by a row with profile NULL; one for every machine profile. */
extern const struct vms_profile_plan vms_profile_plans[];

/* The plan of the profile called name, or NULL. */
const struct vms_profile_plan *vms_profile_plan_find(const char *name);

/* The first step of pp that runs workload w, or NULL (also when pp is NULL). */
const struct vms_plan_step *vms_profile_plan_step(const struct vms_profile_plan *pp,
                                                  const struct vms_workload *w);

/* Completes one item, whose spec is parsed: the options the user left unset take the values of
 * step (the profile's step for the same workload, or NULL), then the workload's plan hook sizes
 * what is still unset from f; it->runs = runs, else step's runs, else the workload's default.
 * Refuses a workload that cannot run here (its needs but the disk, which prepare() checks on
 * the directory it really uses; its available hook). Returns 0 with what the hook adjusted in
 * msg ("" = nothing), or -errno with the reason in msg ("mmap001: ..."). Reports nothing. */
int vms_plan_item(struct vms_run_item *it, const struct vms_plan_step *step,
                  const struct vms_machine_facts *f, long runs, char *msg, size_t len);

/* The plan for a machine: with *n == 0 (no -w given), the steps of pp parsed into items;
 * else the n items given. Each item is then completed by vms_plan_item() with pp's step for
 * its workload. *n counts the items filled so far, also on error (the caller releases them).
 * Returns 0 with the notes of the hooks in msg ("; "-separated, "" = none), or -errno with the
 * reason in msg: no plan for this profile (-ENOENT), more steps than max (-E2BIG), or an item's
 * failure. Reports nothing. */
int vms_plan_make(struct vms_run_item *items, size_t *n, size_t max,
                  const struct vms_profile_plan *pp, const struct vms_machine_facts *f, long runs,
                  char *msg, size_t len);

/* pp's default plan as sized for f, for protocol.machine.plan: {"<workload>_<option>": value,
 * ..., "<workload>_runs": runs} per step, with the options the profile or the plan hook set
 * (sizes and numbers as integers, booleans as booleans, paths as strings). A workload listed
 * twice keeps its first step. New object; an empty one when pp is NULL. */
json_t *vms_plan_profile_json(const struct vms_profile_plan *pp, const struct vms_machine_facts *f);

/* vms_plan_make() for the resolved machine m (its profile's plan, m->facts), then the notes
 * appended to m->note and m->plan_json set from vms_plan_profile_json(). 0, or -errno after
 * reporting the reason once. */
int vms_plan_apply(struct vms_run_item *items, size_t *n, size_t max, struct vms_machine *m,
                   long runs);

#endif
