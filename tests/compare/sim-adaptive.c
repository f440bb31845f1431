/* Simulation of `vmsuite run -n auto` on synthetic data: the looks (suite/adaptive.c) and the
 * final --against verdict run exactly as in the binary, on result documents drawn from seeded
 * log-normal distributions, with a simulated clock for the budget. Prints the rate of each
 * exit status; with --max-false RATE exits 1 when the rate of exit 1 is above it, with
 * --min-power RATE when it is below. --write DIR keeps each trial's two final documents
 * (T-base.json, T-run.json) and a line "T EXIT ALPHA" per trial in DIR/verdicts, for the
 * binary's `compare --bisect --alpha ALPHA` to repeat (scripts/sim-adaptive.sh). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"
#include "gen.h"
#include "compare/compare.h"
#include "suite/adaptive.h"

struct sim {
	long trials;
	unsigned long seed;
	double cv, change, run_s, budget;
	long base_runs; /* 0 = the baseline made with -n auto too */
	int uncorrected;
	double max_false;      /* < 0: no check */
	double min_power;      /* < 0: no check */
	const char *write_dir; /* NULL: keep nothing */
};

static double sim_clock_now;

static double sim_clock(void)
{
	return sim_clock_now;
}

/* One side's document with n runs of mtest01: elapsed_s (mean 50 s x (1 + change)) and sys_s
 * (8 s), both primary, cv sim->cv; draws are a prefix of those of a larger n (same seeds). */
static json_t *side_doc(const struct sim *s, unsigned long seed, long n, double change)
{
	json_t *doc = gen_doc("sim", 0), *wl = gen_workload(doc, "mtest01", 0, (size_t)n);

	gen_gauge(wl, "elapsed_s", "s", "lower", 1, 50 * (1 + change), s->cv, seed + 1);
	gen_gauge(wl, "sys_s", "s", "lower", 1, 8, s->cv, seed + 2);
	return doc;
}

/* Runs one adaptive side: against base (NULL = alone, the precision rule) until it stops.
 * *alpha gets the per-look alpha; returns the document of the runs made. */
static json_t *adaptive_side(const struct sim *s, unsigned long seed, double change, json_t *base,
                             long *runs, double *alpha, int *looks)
{
	const char *bpath = "base.json";
	struct vms_adaptive_config ac = {0};
	struct vms_adaptive a;
	long done = 0, want = 0, most = 0;
	json_t *doc = side_doc(s, seed, 0, change);

	vms_compare_opts_init(&ac.opts);
	ac.alpha = ac.opts.alpha;
	ac.budget_s = s->budget;
	ac.baselines = base ? &base : NULL;
	ac.baseline_paths = &bpath;
	ac.n_baselines = base ? 1 : 0;
	ac.output = "sim.json";
	ac.n_items = 1;
	ac.n_variants = 1;
	ac.clock = sim_clock;
	ac.uncorrected = s->uncorrected;
	sim_clock_now = 0;
	vms_adaptive_init(&a, &ac);
	while (vms_adaptive_look(&a, doc, &done, &want, &most)) {
		/* the round: its runs take run_s each (plus 10 % between runs) */
		sim_clock_now += (double)(want - done) * s->run_s * 1.1;
		done = want;
		json_decref(doc);
		doc = side_doc(s, seed, done, change);
	}
	*runs = done;
	*alpha = a.alpha_look;
	*looks = a.looks;
	vms_adaptive_release(&a);
	return doc;
}

/* The verdict `run --against` gives at the end: the compare at the per-look alpha. */
static int verdict(json_t *base, json_t *doc, double alpha)
{
	json_t *docs[2] = {base, doc};
	const char *paths[2] = {"base.json", "sim.json"};
	size_t side[2] = {0, 1};
	struct vms_compare_input in = {.docs = docs, .paths = paths, .side = side, .n = 2};
	struct vms_compare_opts opts;
	struct vms_compare c;
	int st;

	vms_compare_opts_init(&opts);
	opts.alpha = alpha;
	vms_compare_build(&c, &opts, &in);
	st = vms_compare_bisect_status(&c);
	vms_compare_release(&c);
	return st;
}

/* --write: the trial's documents and its verdict line. 0, or -errno (reported). */
static int keep(const char *dir, long t, const json_t *base, const json_t *doc, int st,
                double alpha)
{
	char path[4096];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%ld-base.json", dir, t);
	if (!(ret = vms_json_write_file(base, path, 0))) {
		snprintf(path, sizeof(path), "%s/%ld-run.json", dir, t);
		ret = vms_json_write_file(doc, path, 0);
	}
	if (ret) {
		fprintf(stderr, "sim-adaptive: cannot write '%s': %s\n", path, strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/verdicts", dir);
	f = fopen(path, "a");
	if (!f || fprintf(f, "%ld %d %.17g\n", t, st, alpha) < 0 || fclose(f)) {
		fprintf(stderr, "sim-adaptive: cannot write '%s'\n", path);
		return -EIO;
	}
	return 0;
}

static int parse(int argc, char **argv, struct sim *s)
{
	int i;

	*s = (struct sim){.trials = 200,
	                  .seed = 1,
	                  .cv = 0.1,
	                  .run_s = 10,
	                  .budget = VMS_ADAPTIVE_BUDGET_S,
	                  .max_false = -1,
	                  .min_power = -1};
	for (i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--uncorrected")) {
			s->uncorrected = 1;
			continue;
		}
		if (!v)
			return -EINVAL;
		i++;
		if (!strcmp(o, "--trials"))
			s->trials = atol(v);
		else if (!strcmp(o, "--seed"))
			s->seed = strtoul(v, NULL, 10);
		else if (!strcmp(o, "--cv"))
			s->cv = atof(v);
		else if (!strcmp(o, "--change"))
			s->change = atof(v);
		else if (!strcmp(o, "--run-s"))
			s->run_s = atof(v);
		else if (!strcmp(o, "--budget"))
			s->budget = atof(v);
		else if (!strcmp(o, "--base-runs"))
			s->base_runs = atol(v);
		else if (!strcmp(o, "--max-false"))
			s->max_false = atof(v);
		else if (!strcmp(o, "--min-power"))
			s->min_power = atof(v);
		else if (!strcmp(o, "--write"))
			s->write_dir = v;
		else
			return -EINVAL;
	}
	return s->trials > 0 && s->cv >= 0 && s->run_s > 0 && s->budget > 0 ? 0 : -EINVAL;
}

int main(int argc, char **argv)
{
	long counts[3] = {0}, runs_a = 0, runs_b = 0, t;
	double alpha_sum = 0;
	char base_side[32] = "-n auto";
	struct sim s;

	if (parse(argc, argv, &s)) {
		fprintf(stderr,
		        "usage: sim-adaptive [--trials N] [--seed S] [--cv CV] [--change X] "
		        "[--run-s S] [--budget S] [--base-runs N (0 = -n auto)] "
		        "[--uncorrected] [--max-false RATE] [--min-power RATE] [--write DIR]\n");
		return 2;
	}
	if (s.base_runs)
		snprintf(base_side, sizeof(base_side), "-n %ld", s.base_runs);
	for (t = 0; t < s.trials; t++) {
		unsigned long seed = (s.seed * 1000003UL + (unsigned long)t) * 100;
		long na, nb;
		double alpha, a0;
		int looks, st;
		json_t *base, *doc;

		if (s.base_runs)
			base = side_doc(&s, seed, s.base_runs, 0), na = s.base_runs;
		else
			base = adaptive_side(&s, seed, 0, NULL, &na, &a0, &looks);
		doc = adaptive_side(&s, seed + 50, s.change, base, &nb, &alpha, &looks);
		st = verdict(base, doc, alpha);
		if (s.write_dir && keep(s.write_dir, t, base, doc, st, alpha))
			return 2;
		counts[st == 1 ? 1 : st == 0 ? 0 : 2]++;
		runs_a += na;
		runs_b += nb;
		alpha_sum += alpha;
		json_decref(base);
		json_decref(doc);
	}
	printf("cv %.0f%% change %+.0f%% baseline %s budget %.0f s run %.0f s%s: exit 1 %ld/%ld "
	       "(%.1f%%), 0 %.1f%%, 125 %.1f%%; mean runs A %.1f B %.1f; mean alpha per look "
	       "%.4f\n",
	       100 * s.cv, 100 * s.change, base_side, s.budget, s.run_s,
	       s.uncorrected ? " UNCORRECTED" : "", counts[1], s.trials,
	       100.0 * (double)counts[1] / (double)s.trials,
	       100.0 * (double)counts[0] / (double)s.trials,
	       100.0 * (double)counts[2] / (double)s.trials, (double)runs_a / (double)s.trials,
	       (double)runs_b / (double)s.trials, alpha_sum / (double)s.trials);
	if (s.max_false >= 0 && (double)counts[1] / (double)s.trials > s.max_false) {
		fprintf(stderr, "sim-adaptive: exit 1 in %.1f%% of trials, above %.1f%%\n",
		        100.0 * (double)counts[1] / (double)s.trials, 100 * s.max_false);
		return 1;
	}
	if (s.min_power >= 0 && (double)counts[1] / (double)s.trials < s.min_power) {
		fprintf(stderr, "sim-adaptive: exit 1 in %.1f%% of trials, below %.1f%%\n",
		        100.0 * (double)counts[1] / (double)s.trials, 100 * s.min_power);
		return 1;
	}
	return 0;
}
