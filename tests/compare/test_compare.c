/* Unit tests of compare/compare and compare/envdiff on synthetic result files with known truth
 * (tests/compare/gen.c draws them from seeded log-normal distributions): false-alarm rate,
 * detection of real shifts, runs-needed, count metrics, each environment class, mismatched
 * workloads, the samples and catalogue fields the model keeps, the idle baseline and the JSON
 * model. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "compare/compare.h"
#include "report/compare-render.h"
#include "report/sound-text.h"
#include "tests/compare/gen.h"

static void cmp2(struct vms_compare *c, json_t *a, json_t *b, int force)
{
	struct vms_compare_opts o;
	json_t *docs[2] = {a, b};
	const char *paths[2] = {"a.json", "b.json"};

	vms_compare_opts_init(&o);
	o.force = force;
	vms_compare_build(c, &o, &(struct vms_compare_input){.docs = docs, .paths = paths, .n = 2});
}

static const struct vms_compare_metric *metric(const struct vms_compare *c, const char *wl,
                                               const char *name)
{
	size_t i, j;

	for (i = 0; i < c->n_workloads; i++)
		if (!strcmp(c->workloads[i].name, wl))
			for (j = 0; j < c->workloads[i].n_metrics; j++)
				if (!strcmp(c->workloads[i].metrics[j].name, name))
					return &c->workloads[i].metrics[j];
	return NULL;
}

static enum vms_compare_verdict verdict(const struct vms_compare *c, const char *wl,
                                        const char *name)
{
	const struct vms_compare_metric *m = metric(c, wl, name);

	assert_non_null(m);
	return m->cells[0].verdict;
}

/* One workload "w" with one primary gauge "t" of n runs. */
static json_t *one_metric(double mean, double cv, size_t n, unsigned long seed)
{
	json_t *doc = gen_doc("k", 0), *wl = gen_workload(doc, "w", 1000, n);

	gen_gauge(wl, "t", "s", "lower", 1, mean, cv, seed);
	return doc;
}

struct tally {
	unsigned v[VMS_VERDICT_MISSING + 1];
	unsigned significant;
	unsigned *needed;
	size_t n;
};

static void trial(struct tally *t, double shift, double cv, size_t runs, unsigned long seed)
{
	json_t *a = one_metric(100, cv, runs, 2 * seed), *b;
	const struct vms_compare_cell *cell;
	struct vms_compare c;

	b = one_metric(100 * (1 + shift), cv, runs, 2 * seed + 1);
	cmp2(&c, a, b, 0);
	cell = &metric(&c, "w", "t")->cells[0];
	t->v[cell->verdict]++;
	t->significant += cell->p < 0.05;
	if (t->needed && cell->verdict == VMS_VERDICT_INCONCLUSIVE)
		t->needed[t->n++] = cell->runs_needed;
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

static void print_tally(const char *what, const struct tally *t, unsigned trials)
{
	int v;

	printf("# %s over %u seeds:", what, trials);
	for (v = 0; v <= VMS_VERDICT_MISSING; v++)
		if (t->v[v])
			printf(" %s %u;", vms_compare_verdict_name(v), t->v[v]);
	printf(" p<0.05 in %.1f%%\n", 100.0 * t->significant / trials);
}

/* Identical distributions: how often does compare cry wolf? */
static void false_alarms(void **state)
{
	static const double cvs[] = {0.02, 0.10};
	const unsigned trials = 2000;
	size_t k;

	(void)state;
	for (k = 0; k < VMS_ARRAY_SIZE(cvs); k++) {
		struct tally t = {0};
		unsigned long s;
		double regress, alarm;
		char what[96];

		for (s = 1; s <= trials; s++)
			trial(&t, 0, cvs[k], 5, 1000 * k + s);
		snprintf(what, sizeof(what), "identical log-normal, cv %g%%, n 5", 100 * cvs[k]);
		print_tally(what, &t, trials);
		regress = (double)t.v[VMS_VERDICT_REGRESSION] / trials;
		alarm = (double)(t.v[VMS_VERDICT_REGRESSION] + t.v[VMS_VERDICT_PROB_REGRESSION] +
		                 t.v[VMS_VERDICT_IMPROVEMENT] + t.v[VMS_VERDICT_PROB_IMPROVEMENT]) /
		        trials;
		printf("# false-alarm rate: regression %.2f%%, any change claimed %.2f%% "
		       "(alpha 5%%)\n",
		       100 * regress, 100 * alarm);
		assert_true(regress <= 0.05);
		assert_true(alarm <= 0.05 + 0.015); /* alpha plus 3 sd of a binomial rate */
		/* The test is calibrated: p < 0.05 in about 5 % of the seeds (not 0 %, not 20 %).
		 */
		assert_true(t.significant >= trials * 3 / 100 && t.significant <= trials * 7 / 100);
		assert_int_equal(t.v[VMS_VERDICT_NO_CHANGE] + t.v[VMS_VERDICT_INCONCLUSIVE] +
		                     t.v[VMS_VERDICT_PROB_REGRESSION] +
		                     t.v[VMS_VERDICT_PROB_IMPROVEMENT] +
		                     t.v[VMS_VERDICT_REGRESSION] + t.v[VMS_VERDICT_IMPROVEMENT] +
		                     t.v[VMS_VERDICT_UNSTABLE],
		                 trials);
	}
}

/* The workloads of variant label of a variants document, as a document of its own (what two
 * separate, non-interleaved suites would have given). */
static json_t *split_variant(const json_t *doc, const char *label)
{
	json_t *out = json_deep_copy(doc), *wls = json_array(), *wl;
	size_t i;

	json_array_foreach (json_object_get(doc, "workloads"), i, wl)
		if (!strcmp(json_string_value(json_object_get(wl, "variant")), label))
			json_array_append_new(wls, json_deep_copy(wl));
	json_object_set_new(out, "workloads", wls);
	json_object_del(out, "variants");
	return out;
}

/* Interleaved variants under a machine drift of 8 % shared by the runs made together, 5 runs:
 * the paired test keeps its false alarms at alpha and finds a +10 % change that Welch's test
 * on the same numbers, blind to the pairing, mostly misses. */
static void variants_paired_under_drift(void **state)
{
	static const char *const labels[] = {"thp=off", "thp=kernel"};
	const unsigned trials = 300;
	unsigned alarms = 0, found = 0, found_welch = 0, paired = 0;
	struct vms_compare_opts o;
	unsigned long s;

	(void)state;
	vms_compare_opts_init(&o);
	for (s = 1; s <= trials; s++) {
		static const double none[] = {0, 0}, slower[] = {0, 0.10};
		const char *path = "v.json", *paths[2] = {"a.json", "b.json"};
		json_t *aa = gen_variants("k", 70000 + s, 5, 0, labels, none, 2, 0.08);
		json_t *ab = gen_variants("k", 80000 + s, 5, 0, labels, slower, 2, 0.08);
		json_t *split[2];
		struct vms_compare_input in = {.docs = &aa, .paths = &path, .n = 1};
		struct vms_compare c;

		vms_compare_build(&c, &o, &in);
		alarms += vms_compare_status(&c) == 1;
		paired +=
		    metric(&c, "mmap001", "elapsed_s")->cells[0].method == VMS_METHOD_PAIRED_LOG;
		vms_compare_release(&c);
		in.docs = &ab;
		vms_compare_build(&c, &o, &in);
		found += verdict(&c, "mmap001", "elapsed_s") == VMS_VERDICT_REGRESSION;
		vms_compare_release(&c);
		split[0] = split_variant(ab, labels[0]);
		split[1] = split_variant(ab, labels[1]);
		vms_compare_build(
		    &c, &o, &(struct vms_compare_input){.docs = split, .paths = paths, .n = 2});
		found_welch += verdict(&c, "mmap001", "elapsed_s") == VMS_VERDICT_REGRESSION;
		vms_compare_release(&c);
		json_decref(split[0]);
		json_decref(split[1]);
		json_decref(aa);
		json_decref(ab);
	}
	printf("# variants, drift 8%%, n 5, %u seeds: A/A exit 1 in %.1f%%; +10%% found by the "
	       "paired test in %.1f%%, by Welch on the same runs in %.1f%%\n",
	       trials, 100.0 * alarms / trials, 100.0 * found / trials,
	       100.0 * found_welch / trials);
	assert_int_equal(paired, trials);
	assert_true(alarms <= trials * 5 / 100);
	assert_true(found >= trials * 80 / 100);
	assert_true(found_welch <= found / 2);
}

/* A drift of 30 % (each side's spread far above a --cv-limit of 20 %) leaves the pairs' log
 * ratios steady: the paired cells are not unstable and find +10 %. */
static void variants_heavy_drift(void **state)
{
	static const char *const labels[] = {"a=1", "a=2"};
	static const double slower[] = {0, 0.10};
	const unsigned trials = 100;
	unsigned found = 0, unstable_sides = 0;
	struct vms_compare_opts o;
	unsigned long s;

	(void)state;
	vms_compare_opts_init(&o);
	o.cv_limit = 0.20;
	for (s = 1; s <= trials; s++) {
		json_t *doc = gen_variants("k", 90000 + s, 5, 0, labels, slower, 2, 0.30);
		const char *path = "v.json";
		struct vms_compare_input in = {.docs = &doc, .paths = &path, .n = 1};
		const struct vms_compare_metric *m;
		struct vms_compare c;

		vms_compare_build(&c, &o, &in);
		m = metric(&c, "mmap001", "elapsed_s");
		found += m->cells[0].verdict == VMS_VERDICT_REGRESSION;
		unstable_sides += m->base.lsd > o.cv_limit || m->cells[0].side.lsd > o.cv_limit;
		vms_compare_release(&c);
		json_decref(doc);
	}
	printf("# variants, drift 30%%, n 5, %u seeds: a side's cv above the limit in %u; +10%% "
	       "found by the paired test in %u\n",
	       trials, unstable_sides, found);
	assert_true(unstable_sides >= trials / 2);
	assert_true(found >= trials * 90 / 100);
}

/* A/A pairs of the standard files (4 primary gauges, 2 workloads; no sound): how often does
 * some primary pair regress? Holm keeps the family-wise rate at alpha or below. */
static void family_wise_rate(void **state)
{
	const unsigned trials = 1000;
	unsigned exit1 = 0, raw = 0;
	unsigned long s;

	(void)state;
	for (s = 1; s <= trials; s++) {
		json_t *a = gen_standard("k", 3 * s, 5, 0, 0),
		       *b = gen_standard("k", 3 * s + 1, 5, 0, 0);
		struct vms_compare c;
		size_t i, j, any = 0;

		cmp2(&c, a, b, 0);
		exit1 += vms_compare_status(&c) == 1;
		for (i = 0; i < c.n_workloads; i++)
			for (j = 0; j < c.workloads[i].n_metrics; j++) {
				const struct vms_compare_metric *m = &c.workloads[i].metrics[j];
				const struct vms_compare_cell *cell = &m->cells[0];

				/* what the verdict would be on the unadjusted p */
				any |= m->primary && cell->p < 0.05 &&
				       m->better == VMS_BETTER_LOWER && cell->lo > 1.02;
			}
		raw += any > 0;
		vms_compare_release(&c);
		json_decref(a);
		json_decref(b);
	}
	printf("# A/A standard files, %u seeds: exit 1 in %.1f%% (Holm); a primary pair "
	       "significant and beyond the threshold unadjusted in %.1f%%\n",
	       trials, 100.0 * exit1 / trials, 100.0 * raw / trials);
	assert_true(exit1 <= trials * 5 / 100);
	assert_true(exit1 <= raw);
}

/* A real +10 % at 2 % CV with 5 runs is found every time. */
static void shift_found(void **state)
{
	struct tally t = {0};
	unsigned long s;

	(void)state;
	for (s = 1; s <= 500; s++)
		trial(&t, 0.10, 0.02, 5, 50000 + s);
	print_tally("+10% shift, cv 2%, n 5", &t, 500);
	assert_int_equal(t.v[VMS_VERDICT_REGRESSION], 500);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* +3 % at 10 % CV with 3 runs cannot be decided; compare says how many runs would. */
static void shift_inconclusive(void **state)
{
	const unsigned trials = 500;
	unsigned needed[500];
	struct tally t = {.needed = needed};
	unsigned long s;
	unsigned median, truth;

	(void)state;
	/* the formula for the true spread (sd of ln x ~ 0.0998 at cv 10 %), a family of one */
	truth = vms_runs_needed_one_sided(sqrt(log1p(0.01)), 0.05, 0.02, 0.05, 0);
	for (s = 1; s <= trials; s++)
		trial(&t, 0.03, 0.10, 3, 90000 + s);
	print_tally("+3% shift, cv 10%, n 3", &t, trials);
	qsort(needed, t.n, sizeof(*needed), cmp_unsigned);
	median = t.n ? needed[t.n / 2] : 0;
	printf("# runs needed to detect 5%%: median %u (the formula for the true spread: %u), "
	       "10th-90th percentile %u-%u\n",
	       median, truth, t.n ? needed[t.n / 10] : 0, t.n ? needed[t.n * 9 / 10] : 0);
	assert_true(t.v[VMS_VERDICT_INCONCLUSIVE] + t.v[VMS_VERDICT_UNSTABLE] >= trials * 85 / 100);
	/* A "regression" here is true (the shift is +3 %); the wrong direction is a false
	 * alarm and stays rare; "no change" (CI inside +-2 %) cannot honestly happen. */
	assert_int_equal(t.v[VMS_VERDICT_NO_CHANGE], 0);
	assert_true(t.v[VMS_VERDICT_IMPROVEMENT] + t.v[VMS_VERDICT_PROB_IMPROVEMENT] <=
	            trials / 100);
	assert_true(median >= truth / 2 && median <= truth * 2);
	/* every inconclusive one names a number larger than the 3 runs it had */
	assert_true(t.n && needed[0] > 3);
}

/* ---- environment classes --------------------------------------------------------------- */

struct env_case {
	const char *path, *value;
	enum vms_env_class cls;
	enum vms_env_scope scope;
	const char *key;
};

static const struct env_case env_cases[] = {
    {"fingerprint.kernel_release.value", "\"6.18.44\"", VMS_ENV_EXPECTED, VMS_ENV_GLOBAL,
     "kernel_release"},
    {"fingerprint.kernel_version.value", "\"#2 SMP\"", VMS_ENV_EXPECTED, VMS_ENV_GLOBAL,
     "kernel_version"},
    {"start_time", "\"2026-12-01T09:00:00Z\"", VMS_ENV_EXPECTED, VMS_ENV_GLOBAL, "start_time"},
    {"fingerprint.mem_total_bytes.value", "17179869184", VMS_ENV_HARD, VMS_ENV_GLOBAL,
     "mem_total_bytes"},
    {"fingerprint.swap_total_bytes.value", "1073741824", VMS_ENV_HARD, VMS_ENV_GLOBAL,
     "swap_total_bytes"},
    {"fingerprint.cpu_count.value", "4", VMS_ENV_HARD, VMS_ENV_GLOBAL, "cpu_count"},
    {"fingerprint.cpu_model.value", "\"Other CPU\"", VMS_ENV_HARD, VMS_ENV_GLOBAL, "cpu_model"},
    {"fingerprint.page_size.value", "16384", VMS_ENV_HARD, VMS_ENV_GLOBAL, "page_size"},
    {"fingerprint.architecture.value", "\"aarch64\"", VMS_ENV_HARD, VMS_ENV_GLOBAL, "architecture"},
    {"protocol.machine.profile", "\"hron2001\"", VMS_ENV_HARD, VMS_ENV_GLOBAL, "machine.profile"},
    {"protocol.machine.mem_limit_bytes", "201326592", VMS_ENV_HARD, VMS_ENV_GLOBAL,
     "machine.mem_limit_bytes"},
    {"protocol.machine.cpus", "1", VMS_ENV_HARD, VMS_ENV_GLOBAL, "machine.cpus"},
    {"audio.facts.mp3.sha256", "\"00ff\"", VMS_ENV_HARD, VMS_ENV_AUDIO, "audio.mp3.sha256"},
    {"audio.facts.alsa.rate", "48000", VMS_ENV_HARD, VMS_ENV_AUDIO, "audio.alsa.rate"},
    {"audio.facts.alsa.period_ms", "10.0", VMS_ENV_HARD, VMS_ENV_AUDIO, "audio.alsa.period_ms"},
    {"audio.facts.alsa.buffer_ms", "50.0", VMS_ENV_HARD, VMS_ENV_AUDIO, "audio.alsa.buffer_ms"},
    {"audio.facts.alsa.device", "\"hw:0\"", VMS_ENV_HARD, VMS_ENV_AUDIO, "audio.alsa.device"},
    {"audio.facts.alsa.channels", "1", VMS_ENV_HARD, VMS_ENV_AUDIO, "audio.alsa.channels"},
    {"fingerprint.vm_sysctl.value.page-cluster", "\"0\"", VMS_ENV_SOFT, VMS_ENV_GLOBAL,
     "vm.page-cluster"},
    {"fingerprint.vm_sysctl.value.swappiness", "\"100\"", VMS_ENV_SOFT, VMS_ENV_GLOBAL,
     "vm.swappiness"},
    {"fingerprint.thp_enabled.value", "\"always\"", VMS_ENV_SOFT, VMS_ENV_GLOBAL, "thp_enabled"},
    {"fingerprint.thp_defrag.value", "\"never\"", VMS_ENV_SOFT, VMS_ENV_GLOBAL, "thp_defrag"},
    {"fingerprint.kernel_cmdline.value", "\"root=/dev/sda1 mitigations=off\"", VMS_ENV_SOFT,
     VMS_ENV_GLOBAL, "kernel_cmdline"},
    {"fingerprint.cpu_governor.value", "\"powersave\"", VMS_ENV_SOFT, VMS_ENV_GLOBAL,
     "cpu_governor"},
    {"fingerprint.workdir_fs.value.options", "\"rw,noatime\"", VMS_ENV_SOFT, VMS_ENV_GLOBAL,
     "workdir_fs.options"},
    {"protocol.drop_caches", "true", VMS_ENV_SOFT, VMS_ENV_GLOBAL, "protocol.drop_caches"},
    {"protocol.machine.cgroup.mem_limit_bytes", "268435456", VMS_ENV_HARD, VMS_ENV_GLOBAL,
     "machine.cgroup.mem_limit_bytes"},
    {"protocol.machine.cgroup.peak_scope", "\"suite\"", VMS_ENV_SOFT, VMS_ENV_GLOBAL,
     "machine.cgroup.peak_scope"},
    {"protocol.plan", "[]", VMS_ENV_EXPECTED, VMS_ENV_GLOBAL, "protocol.plan"},
    {"complete", "false", VMS_ENV_SOFT, VMS_ENV_GLOBAL, "complete"},
    {"fingerprint.workdir_fs.value.type", "\"xfs\"", VMS_ENV_SOFT, VMS_ENV_GLOBAL,
     "workdir_fs.type"},
    {"fingerprint.cgroup.value.version", "2", VMS_ENV_SOFT, VMS_ENV_GLOBAL, "cgroup.version"},
    {"fingerprint.hostname.value", "\"otherbox\"", VMS_ENV_SOFT, VMS_ENV_GLOBAL, "hostname"},
};

static void env_one_fact(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < VMS_ARRAY_SIZE(env_cases); i++) {
		const struct env_case *e = &env_cases[i];
		json_t *a = gen_standard("k", 7, 5, 0, 1), *b = gen_standard("k", 7, 5, 0.10, 1);
		struct vms_envdiff d;
		struct vms_compare c;

		gen_set(b, e->path, e->value);
		vms_envdiff_build(a, b, &d);
		if (d.n != 1 || d.items[0].cls != e->cls || d.items[0].scope != e->scope ||
		    strcmp(d.items[0].key, e->key)) {
			print_error("case %s: %zu items, first %s class %d scope %d\n", e->path,
			            d.n, d.n ? d.items[0].key : "-", d.n ? (int)d.items[0].cls : -1,
			            d.n ? (int)d.items[0].scope : -1);
			fail();
		}
		vms_envdiff_release(&d);

		/* What the class does to the verdicts (b is +10 % slower on mmap001). */
		cmp2(&c, a, b, 0);
		switch (e->cls) {
		case VMS_ENV_EXPECTED:
			assert_int_equal(verdict(&c, "mmap001", "elapsed_s"),
			                 VMS_VERDICT_REGRESSION);
			assert_false(metric(&c, "mmap001", "elapsed_s")->cells[0].confounded);
			assert_int_equal(vms_compare_status(&c), 1);
			break;
		case VMS_ENV_SOFT:
			assert_int_equal(verdict(&c, "mmap001", "elapsed_s"),
			                 VMS_VERDICT_REGRESSION);
			assert_true(metric(&c, "mmap001", "elapsed_s")->cells[0].confounded);
			break;
		case VMS_ENV_HARD:
			if (e->scope == VMS_ENV_AUDIO) {
				assert_int_equal(verdict(&c, "mmap001", "sound_rating"),
				                 VMS_VERDICT_NOT_COMPARABLE);
				assert_int_equal(verdict(&c, "mmap001", "elapsed_s"),
				                 VMS_VERDICT_REGRESSION);
			} else {
				assert_int_equal(verdict(&c, "mmap001", "elapsed_s"),
				                 VMS_VERDICT_NOT_COMPARABLE);
				assert_int_equal(verdict(&c, "mtest01", "sys_s"),
				                 VMS_VERDICT_NOT_COMPARABLE);
				assert_int_equal(vms_compare_status(&c), 2);
			}
			vms_compare_release(&c);
			cmp2(&c, a, b, 1); /* --ignore-hard-differences */
			assert_int_equal(verdict(&c, "mmap001", "elapsed_s"),
			                 VMS_VERDICT_REGRESSION);
			assert_int_not_equal(verdict(&c, "mmap001", "sound_rating"),
			                     VMS_VERDICT_NOT_COMPARABLE);
			break;
		}
		vms_compare_release(&c);
		json_decref(a);
		json_decref(b);
	}
}

/* No environment difference between a and b. */
static void env_none(const json_t *a, const json_t *b)
{
	struct vms_envdiff d;

	vms_envdiff_build(a, b, &d);
	assert_int_equal(d.n, 0);
	vms_envdiff_release(&d);
}

/* Exactly one environment difference between a and b, of class cls (an enum vms_env_class, -1:
 * not checked); its workload, key, base and other values as given (NULL: not checked). Returns
 * its scope. */
static enum vms_env_scope env_one(const json_t *a, const json_t *b, int cls, const char *workload,
                                  const char *key, const char *base, const char *other)
{
	struct vms_envdiff d;
	enum vms_env_scope scope;

	vms_envdiff_build(a, b, &d);
	assert_int_equal(d.n, 1);
	if (cls >= 0)
		assert_int_equal(d.items[0].cls, cls);
	if (workload)
		assert_string_equal(d.items[0].workload, workload);
	if (key)
		assert_string_equal(d.items[0].key, key);
	if (base)
		assert_string_equal(d.items[0].base, base);
	if (other)
		assert_string_equal(d.items[0].other, other);
	scope = d.items[0].scope;
	vms_envdiff_release(&d);
	return scope;
}

static void env_identical_and_workload_option(void **state)
{
	json_t *a = gen_standard("k", 3, 5, 0, 0), *b = gen_standard("k", 3, 5, 0, 0);
	struct vms_compare c;

	(void)state;
	env_none(a, b);
	/* Facts that change from run to run by nature are not differences. */
	gen_set(b, "fingerprint.workdir_fs.value.free_bytes", "1234");
	gen_set(b, "fingerprint.cgroup.value.path", "\"/process_api/5678\"");
	gen_set(b, "fingerprint.cgroup.value.lines", "[\"4:memory:/process_api/5678\"]");
	gen_set(b, "protocol.machine.cgroup_path", "\"/sys/fs/cgroup/memory/vmsuite-2\"");
	gen_set(b, "protocol.machine.cgroup.path", "\"/sys/fs/cgroup/memory/vmsuite-2\"");
	gen_set(b, "protocol.machine.note", "\"other words\"");
	/* vmsuite's own swap file: a new name every run, not a host difference */
	gen_set(a, "fingerprint.swap_devices.value",
	        "[{\"name\": \"/w/.vmsuite-swap-11\", \"size_bytes\": 1073741824}]");
	gen_set(b, "fingerprint.swap_devices.value",
	        "[{\"name\": \"/w/.vmsuite-swap-22\", \"size_bytes\": 1073741824}]");
	env_none(a, b);
	/* ... but a swap area of the host's own is */
	gen_set(b, "fingerprint.swap_devices.value",
	        "[{\"name\": \"/w/.vmsuite-swap-22\", \"size_bytes\": 1073741824}, "
	        "{\"name\": \"/dev/vdb\", \"size_bytes\": 4096}]");
	env_one(a, b, -1, NULL, "swap_devices", NULL, NULL);
	gen_set(b, "fingerprint.swap_devices.value",
	        "[{\"name\": \"/w/.vmsuite-swap-22\", \"size_bytes\": 1073741824}]");
	/* A workload size: hard, and only that workload is not comparable. */
	gen_set(json_array_get(json_object_get(b, "workloads"), 0), "options.bytes", "1024000000");
	assert_int_equal(env_one(a, b, VMS_ENV_HARD, "mmap001", NULL, NULL, NULL),
	                 VMS_ENV_WORKLOAD);
	cmp2(&c, a, b, 0);
	assert_int_equal(verdict(&c, "mmap001", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	assert_int_not_equal(verdict(&c, "mtest01", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	/* mtest01 is still compared, but a workload sized differently cannot be judged: with no
	 * regression elsewhere the comparison cannot pass (exit 2, bisect 125) */
	assert_int_equal(vms_compare_status(&c), 2);
	assert_int_equal(vms_compare_outcome(&c, 0), VMS_OUTCOME_NOT_COMPARABLE);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* A workload's definition version: absent reads as 1; another version is a hard difference of
 * that workload alone (its figures measure something else). */
static void env_workload_version(void **state)
{
	json_t *a = gen_standard("k", 3, 5, 0, 0), *b = gen_standard("k", 3, 5, 0, 0);
	json_t *wb = json_array_get(json_object_get(b, "workloads"), 0);
	struct vms_compare c;

	(void)state;
	gen_set(wb, "version", "1"); /* a file from before versions: the same definition */
	env_none(a, b);
	gen_set(wb, "version", "2");
	assert_int_equal(env_one(a, b, VMS_ENV_HARD, "mmap001", "mmap001: version", "1", "2"),
	                 VMS_ENV_WORKLOAD);
	cmp2(&c, a, b, 0);
	assert_int_equal(verdict(&c, "mmap001", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	assert_int_not_equal(verdict(&c, "mtest01", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* What the emulated machine swaps to (protocol.machine.swap_kind): absent reads as "file" (the
 * files before --swap-kind); another kind is a hard difference of every workload; two zram
 * machines differ only by their device's number and diskseq (left out), unless their
 * compressor, size or pool cap differ. */
static void env_swap_kind(void **state)
{
	json_t *a = gen_standard("k", 3, 5, 0, 0), *b = gen_standard("k", 3, 5, 0, 0);
	const char *zram = "{\"device\": \"/dev/zram1\", \"diskseq\": 40, \"size_bytes\": "
	                   "1073741824, \"compressor\": \"lzo-rle\", \"pool_limit_bytes\": "
	                   "134217728, \"priority\": 32767}";
	struct vms_compare c;

	(void)state;
	gen_set(b, "protocol.machine.swap_kind", "\"file\"");
	gen_set(b, "protocol.machine.zram", "null");
	gen_set(b, "protocol.machine.zswap", "null");
	env_none(a, b);
	gen_set(b, "protocol.machine.swap_kind", "\"zswap\"");
	env_one(a, b, VMS_ENV_HARD, NULL, NULL, NULL, "zswap");
	gen_set(b, "protocol.machine.swap_kind", "\"zram\"");
	assert_int_equal(env_one(a, b, VMS_ENV_HARD, NULL, "machine.swap_kind", "file", "zram"),
	                 VMS_ENV_GLOBAL);
	cmp2(&c, a, b, 0);
	assert_int_equal(verdict(&c, "mmap001", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	assert_int_equal(verdict(&c, "mtest01", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	vms_compare_release(&c);
	/* two zram machines: another device number and diskseq are no difference */
	gen_set(a, "protocol.machine.swap_kind", "\"zram\"");
	gen_set(a, "protocol.machine.zram", zram);
	gen_set(b, "protocol.machine.zram", zram);
	gen_set(b, "protocol.machine.zram.device", "\"/dev/zram2\"");
	gen_set(b, "protocol.machine.zram.diskseq", "77");
	env_none(a, b);
	gen_set(b, "protocol.machine.zram.compressor", "\"lz4\"");
	env_one(a, b, VMS_ENV_HARD, NULL, "machine.zram.compressor", NULL, NULL);
	json_decref(a);
	json_decref(b);
}

/* ---- failed runs, missing primaries (a bisect must never pass a kernel that cannot run) -- */

/* Workload "w" of n runs with primary gauge "t"; the first `failed` runs failed (no sample). */
static json_t *with_failures(size_t n, size_t failed, unsigned long seed)
{
	json_t *doc = gen_doc("k", 0), *wl = gen_workload(doc, "w", 1000, n);
	double v[64];
	size_t i;

	assert_true(n <= 64);
	for (i = 0; i < n; i++) {
		v[i] = i < failed ? NAN : 100 + (double)((seed + i) % 3);
		if (i < failed)
			json_object_set_new(json_array_get(json_object_get(wl, "runs"), i),
			                    "status", json_string("failed"));
	}
	gen_samples(wl, "t", "s", "lower", 1, 0, v, n);
	return doc;
}

static void failed_runs_decide(void **state)
{
	static const size_t ns[] = {10, 1};
	struct vms_compare c;
	size_t k;

	(void)state;
	for (k = 0; k < VMS_ARRAY_SIZE(ns); k++) {
		json_t *a = with_failures(ns[k], 0, 1), *b = with_failures(ns[k], ns[k], 2);
		const struct vms_compare_metric *m;

		/* every run of B failed, every run of A succeeded: a regression whatever n is */
		cmp2(&c, a, b, 0);
		m = metric(&c, "w", "failed_runs");
		assert_non_null(m);
		assert_true(m->primary);
		assert_int_equal(m->cells[0].verdict, VMS_VERDICT_REGRESSION);
		/* B has no successful run: its timings cannot tell */
		assert_int_equal(verdict(&c, "w", "t"), VMS_VERDICT_CANNOT_TELL);
		assert_int_equal(vms_compare_status(&c), 1);
		vms_compare_release(&c);
		/* the other way round: an improvement, but B's timings still cannot tell what A's
		 * would have been: never "no regression" (exit 0) */
		cmp2(&c, b, a, 0);
		assert_int_equal(verdict(&c, "w", "failed_runs"), VMS_VERDICT_IMPROVEMENT);
		assert_int_equal(verdict(&c, "w", "t"), VMS_VERDICT_CANNOT_TELL);
		assert_int_equal(vms_compare_status(&c), 2);
		vms_compare_release(&c);
		/* nothing ran on either side: cannot tell */
		cmp2(&c, b, b, 0);
		assert_int_equal(verdict(&c, "w", "t"), VMS_VERDICT_CANNOT_TELL);
		assert_int_equal(vms_compare_status(&c), 2);
		vms_compare_release(&c);
		json_decref(a);
		json_decref(b);
	}
}

/* Some runs failed: a one-sided Fisher test outside Holm. 4 of 5 failed against none is a
 * regression (it was exit 0 and "good" when Fisher's two-sided p 0.048 went through Holm);
 * 1 of 5 against none is never good: cannot tell (exit 2, bisect 125). */
static void partial_failures(void **state)
{
	json_t *a = with_failures(5, 0, 1), *b4 = with_failures(5, 4, 2),
	       *b1 = with_failures(5, 1, 2);
	struct vms_compare c;

	(void)state;
	cmp2(&c, a, b4, 0);
	assert_int_equal(verdict(&c, "w", "failed_runs"), VMS_VERDICT_REGRESSION);
	assert_true(fabs(metric(&c, "w", "failed_runs")->cells[0].p_worse - 5.0 / 210) < 1e-9);
	assert_int_equal(vms_compare_status(&c), 1);
	assert_int_equal(vms_compare_bisect_status(&c), 1);
	vms_compare_release(&c);
	cmp2(&c, a, b1, 0);
	assert_int_equal(verdict(&c, "w", "failed_runs"), VMS_VERDICT_CANNOT_TELL);
	assert_int_equal(vms_compare_outcome(&c, 0), VMS_OUTCOME_CANNOT_TELL);
	assert_int_equal(vms_compare_status(&c), 2);
	assert_int_equal(vms_compare_bisect_status(&c), VMS_BISECT_SKIP);
	vms_compare_release(&c);
	/* fewer failures on B than on A: not a reason to refuse the step */
	cmp2(&c, b1, a, 0);
	assert_true(verdict(&c, "w", "failed_runs") != VMS_VERDICT_CANNOT_TELL);
	assert_true(metric(&c, "w", "failed_runs")->cells[0].noninferior);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b4);
	json_decref(b1);
}

/* "no change" is shown (the interval inside the threshold); an undecided metric is only "no
 * regression shown" (exit 0) and never a bisect "good" unless its one-sided bound stays within
 * --detect (non-inferiority). */
static void shown_or_not(void **state)
{
	json_t *a = one_metric(100, 0.01, 10, 11), *b = one_metric(100, 0.01, 10, 12);
	json_t *na = one_metric(100, 0.10, 3, 13), *nb = one_metric(100, 0.10, 3, 14);
	struct vms_compare c;

	(void)state;
	cmp2(&c, a, b, 0);
	assert_int_equal(verdict(&c, "w", "t"), VMS_VERDICT_NO_CHANGE);
	assert_int_equal(vms_compare_outcome(&c, 0), VMS_OUTCOME_NO_CHANGE);
	assert_true(vms_compare_decided(&c, 0));
	assert_int_equal(vms_compare_status(&c), 0);
	assert_int_equal(vms_compare_bisect_status(&c), 0);
	assert_true(metric(&c, "w", "t")->cells[0].bound < 1.05);
	vms_compare_release(&c);
	cmp2(&c, na, nb, 0);
	assert_int_equal(verdict(&c, "w", "t"), VMS_VERDICT_INCONCLUSIVE);
	assert_int_equal(vms_compare_outcome(&c, 0), VMS_OUTCOME_NO_REGRESSION);
	assert_false(vms_compare_decided(&c, 0));
	assert_int_equal(vms_compare_status(&c), 0);
	assert_int_equal(vms_compare_bisect_status(&c), VMS_BISECT_SKIP);
	assert_true(vms_compare_runs_to_decide(&c, 0) > 3);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
	json_decref(na);
	json_decref(nb);
}

/* One run three times as long as the others: reported as an outlier, and the trimmed test
 * (the rule fixed in advance) decides; runs in two groups are unstable (exit 2). */
static void heavy_tails(void **state)
{
	const double a[] = {0.33, 0.35, 0.40, 0.45, 0.38, 0.36, 0.42, 0.41, 0.37, 0.39};
	const double b[] = {0.34, 0.36, 0.41, 0.44, 0.37, 0.35, 1.2, 0.40, 0.38, 0.39};
	const double g[] = {0.33, 0.34, 0.33, 0.35, 0.34, 0.66, 0.67, 0.66, 0.68, 0.67};
	json_t *da = gen_doc("k", 0), *db = gen_doc("k", 0), *dg = gen_doc("k", 0);
	const struct vms_compare_metric *m;
	struct vms_compare c;

	(void)state;
	gen_samples(gen_workload(da, "w", 1, 10), "t", "s", "lower", 1, 0, a, 10);
	gen_samples(gen_workload(db, "w", 1, 10), "t", "s", "lower", 1, 0, b, 10);
	gen_samples(gen_workload(dg, "w", 1, 10), "t", "s", "lower", 1, 0, g, 10);
	cmp2(&c, da, db, 0);
	m = metric(&c, "w", "t");
	assert_int_equal(m->cells[0].side.outliers, 1);
	assert_int_equal(m->cells[0].side.outlier[6], 1);
	assert_int_equal(m->base.outliers, 0);
	assert_int_equal(m->cells[0].method, VMS_METHOD_YUEN_LOG);
	assert_true(m->cells[0].verdict != VMS_VERDICT_UNSTABLE);
	assert_true(m->cells[0].verdict != VMS_VERDICT_REGRESSION);
	vms_compare_release(&c);
	cmp2(&c, da, dg, 0);
	m = metric(&c, "w", "t");
	assert_true(m->cells[0].side.bimodal);
	assert_int_equal(m->cells[0].verdict, VMS_VERDICT_UNSTABLE);
	assert_int_equal(vms_compare_status(&c), 2);
	assert_int_equal(vms_compare_bisect_status(&c), VMS_BISECT_SKIP);
	vms_compare_release(&c);
	json_decref(da);
	json_decref(db);
	json_decref(dg);
}

/* A primary metric never measured on one side is not "no regression". */
static void missing_primary_cannot_tell(void **state)
{
	json_t *a = gen_standard("k", 3, 5, 0, 0), *b = gen_standard("k", 3, 5, 0, 0);
	struct vms_compare c;

	(void)state;
	cmp2(&c, a, b, 0);
	assert_int_equal(vms_compare_status(&c), 0);
	vms_compare_release(&c);
	json_object_del(
	    json_object_get(json_array_get(json_object_get(b, "workloads"), 0), "metrics"),
	    "elapsed_s");
	cmp2(&c, a, b, 0);
	assert_int_equal(verdict(&c, "mmap001", "elapsed_s"), VMS_VERDICT_MISSING);
	assert_int_equal(vms_compare_status(&c), 2);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* ---- kernel upgrades: sizes within a tolerance, facts of what did not run ---------------- */

static size_t hard_items(const json_t *a, const json_t *b)
{
	struct vms_envdiff d;
	size_t n;

	vms_envdiff_build(a, b, &d);
	n = vms_envdiff_count(&d, VMS_ENV_HARD);
	vms_envdiff_release(&d);
	return n;
}

static void kernel_upgrade_comparable(void **state)
{
	json_t *a = gen_standard("k", 3, 5, 0, 0), *b;
	struct vms_compare c;

	(void)state;
	/* MemTotal 0.5 % smaller (a kernel that reserves more), swap 1 % larger: comparable */
	b = gen_standard("k", 3, 5, 0, 0);
	gen_set(a, "fingerprint.mem_total_bytes.value", "2060410880");
	gen_set(b, "fingerprint.mem_total_bytes.value", "2050108826");
	gen_set(a, "fingerprint.swap_total_bytes.value", "1073741824");
	gen_set(b, "fingerprint.swap_total_bytes.value", "1084479242");
	assert_int_equal(hard_items(a, b), 0);
	cmp2(&c, a, b, 0);
	assert_int_not_equal(verdict(&c, "mmap001", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	assert_int_equal(vms_compare_status(&c), 0);
	vms_compare_release(&c);
	/* 10 %: still hard, on the host */
	gen_set(b, "fingerprint.mem_total_bytes.value", "1854369792");
	assert_int_equal(hard_items(a, b), 1);
	cmp2(&c, a, b, 0);
	assert_int_equal(verdict(&c, "mmap001", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	assert_int_equal(vms_compare_status(&c), 2);
	vms_compare_release(&c);
	/* under an emulated machine the cgroup's limits count, not the host's MemTotal */
	gen_set(a, "protocol.machine.mem_limit_bytes", "536870912");
	gen_set(b, "protocol.machine.mem_limit_bytes", "536870912");
	assert_int_equal(hard_items(a, b), 0);
	gen_set(b, "protocol.machine.mem_limit_bytes", "590558003"); /* +10 % */
	assert_int_equal(hard_items(a, b), 1);
	json_decref(b);

	/* the profile's plan sized from free disk, for a workload that did not run */
	json_decref(a);
	a = gen_standard("k", 3, 5, 0, 0);
	b = gen_standard("k", 3, 5, 0, 0);
	gen_set(a, "protocol.machine.plan.mmap001_bytes", "76391813120");
	gen_set(b, "protocol.machine.plan.mmap001_bytes", "76199829504");
	assert_int_equal(hard_items(a, b), 0);
	json_decref(b);
	json_decref(a);
}

/* A hard difference that touches one workload leaves the others' verdicts, and the one rule of
 * partial differences: not comparable (exit 2, bisect 125) unless another workload regressed. */
static void not_comparable_only_where_touched(void **state)
{
	json_t *a = gen_standard("k", 3, 5, 0, 0), *b = gen_standard("k", 3, 5, 0, 0);
	json_t *slow = gen_standard("k", 4, 5, 0.10, 0);
	json_t *none = gen_doc("k", 0);
	struct vms_compare c;
	size_t i;

	(void)state;
	gen_set(json_array_get(json_object_get(b, "workloads"), 0), "options.bytes", "1024000000");
	cmp2(&c, a, b, 0);
	assert_int_equal(verdict(&c, "mmap001", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	assert_int_equal(verdict(&c, "mtest01", "elapsed_s"), VMS_VERDICT_INCONCLUSIVE);
	assert_int_equal(vms_compare_status(&c), 2);
	assert_int_equal(vms_compare_bisect_status(&c), VMS_BISECT_SKIP);
	vms_compare_release(&c);
	/* mtest01 sized differently, mmap001 10 % slower: the regression decides */
	gen_set(json_array_get(json_object_get(slow, "workloads"), 1), "options.bytes", "7");
	cmp2(&c, a, slow, 0);
	assert_int_equal(verdict(&c, "mtest01", "elapsed_s"), VMS_VERDICT_NOT_COMPARABLE);
	assert_int_equal(verdict(&c, "mmap001", "elapsed_s"), VMS_VERDICT_REGRESSION);
	assert_int_equal(vms_compare_status(&c), 1);
	assert_int_equal(vms_compare_bisect_status(&c), 1);
	vms_compare_release(&c);
	json_decref(slow);
	for (i = 0; i < json_array_size(json_object_get(b, "workloads")); i++)
		gen_set(json_array_get(json_object_get(b, "workloads"), i), "options.bytes", "7");
	cmp2(&c, a, b, 0);
	assert_int_equal(vms_compare_status(&c), 2);
	vms_compare_release(&c);
	/* no common workload */
	cmp2(&c, a, none, 0);
	assert_int_equal(vms_compare_status(&c), 2);
	vms_compare_release(&c);
	json_decref(none);
	json_decref(a);
	json_decref(b);
}

/* ---- counts, zeros, mismatched workloads, json ------------------------------------------ */

static void counts_fisher(void **state)
{
	json_t *a = gen_doc("k", 1), *b = gen_doc("k", 1), *wa, *wb, *run;
	const double none[] = {0, 0, 0, 0, 0}, all[] = {3, 1, 7, 2, 4};
	const double some[] = {0, 2, 0, 0, 0};
	const struct vms_compare_metric *m;
	struct vms_compare c;

	(void)state;
	wa = gen_workload(a, "w", 1, 5);
	wb = gen_workload(b, "w", 1, 5);
	gen_samples(wa, "underruns", "", "lower", 1, 1, none, 5);
	gen_samples(wb, "underruns", "", "lower", 1, 1, all, 5);
	gen_samples(wa, "skips", "", "lower", 0, 1, none, 5);
	gen_samples(wb, "skips", "", "lower", 0, 1, some, 5);
	run = json_array_get(json_object_get(wb, "runs"), 2);
	json_object_set_new(run, "status", json_string("failed"));
	json_object_set_new(run, "oom_killed", json_true());
	cmp2(&c, a, b, 0);
	m = metric(&c, "w", "underruns");
	assert_int_equal(m->cells[0].method, VMS_METHOD_FISHER);
	assert_true(fabs(m->cells[0].p - 2.0 / 252) < 1e-9);
	assert_int_equal(m->cells[0].verdict, VMS_VERDICT_REGRESSION);
	assert_true(m->audio && m->primary && m->count);
	assert_int_equal(m->cells[0].side.events, 5);
	m = metric(&c, "w", "skips");
	assert_int_equal(m->cells[0].verdict, VMS_VERDICT_INCONCLUSIVE);
	assert_true(fabs(m->cells[0].p - 1.0) < 1e-12);
	/* derived from runs[]: 1 of 5 failed, 1 OOM kill */
	m = metric(&c, "w", "failed_runs");
	assert_non_null(m);
	assert_true(m->derived && m->count);
	assert_int_equal(m->cells[0].side.events, 1);
	assert_int_equal(m->base.events, 0);
	assert_non_null(metric(&c, "w", "oom_kills"));
	assert_int_equal(vms_compare_status(&c), 1);
	vms_compare_release(&c);
	/* No events anywhere: the derived rows are left out, real count metrics say no change. */
	cmp2(&c, a, a, 0);
	assert_null(metric(&c, "w", "failed_runs"));
	assert_int_equal(verdict(&c, "w", "underruns"), VMS_VERDICT_NO_CHANGE);
	assert_int_equal(vms_compare_status(&c), 0);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

static void zeros_and_missing_values(void **state)
{
	json_t *a = gen_doc("k", 0), *b = gen_doc("k", 0), *wa, *wb;
	const double z[] = {0, 0, 0, 0, 0}, some[] = {0, 120, 80, 0, 100};
	const double ta[] = {10, 10.1, NAN, 9.9, 10}, tb[] = {10, NAN, NAN, 10.1, 9.9};
	const struct vms_compare_metric *m;
	struct vms_compare c;

	(void)state;
	wa = gen_workload(a, "w", 1, 5);
	wb = gen_workload(b, "w", 1, 5);
	gen_samples(wa, "pswpin", "pages", "lower", 0, 0, z, 5);
	gen_samples(wb, "pswpin", "pages", "lower", 0, 0, z, 5);
	gen_samples(wa, "pgscan", "pages", "lower", 0, 0, z, 5);
	gen_samples(wb, "pgscan", "pages", "lower", 0, 0, some, 5);
	gen_samples(wa, "elapsed_s", "s", "lower", 1, 0, ta, 5);
	gen_samples(wb, "elapsed_s", "s", "lower", 1, 0, tb, 5);
	cmp2(&c, a, b, 0);
	assert_int_equal(verdict(&c, "w", "pswpin"), VMS_VERDICT_NO_CHANGE);
	m = metric(&c, "w", "pgscan");
	assert_int_equal(m->cells[0].method, VMS_METHOD_RAW_T);
	assert_true(isnan(m->cells[0].change)); /* base mean 0: no relative change */
	assert_true(m->cells[0].verdict == VMS_VERDICT_INCONCLUSIVE ||
	            m->cells[0].verdict == VMS_VERDICT_UNSTABLE);
	m = metric(&c, "w", "elapsed_s");
	assert_int_equal(m->base.s.n, 4); /* the null (failed run) is not a value */
	assert_int_equal(m->cells[0].side.s.n, 3);
	assert_int_equal(m->cells[0].method, VMS_METHOD_LOG_T);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

static void mismatched_workloads(void **state)
{
	json_t *a = gen_standard("a", 1, 5, 0, 0), *b = gen_standard("b", 2, 5, 0, 0);
	json_t *extra;
	struct vms_compare c;

	(void)state;
	json_array_remove(json_object_get(b, "workloads"), 1); /* b has no mtest01 */
	extra = gen_workload(b, "fillmem", 1, 3);
	gen_gauge(extra, "elapsed_s", "s", "lower", 1, 5, 0.01, 9);
	cmp2(&c, a, b, 0);
	assert_int_equal(c.n_workloads, 1);
	assert_string_equal(c.workloads[0].name, "mmap001");
	assert_int_equal(c.n_not_compared, 2);
	assert_string_equal(c.not_compared[0], "mtest01: only in a.json");
	assert_string_equal(c.not_compared[1], "fillmem: only in b.json");
	/* a workload on one side only: not comparable, whatever mmap001 says */
	assert_int_equal(vms_compare_status(&c), 2);
	assert_int_equal(vms_compare_bisect_status(&c), VMS_BISECT_SKIP);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

static void json_reparses(void **state)
{
	json_t *a = gen_standard("a", 1, 5, 0, 1), *b = gen_standard("b", 2, 5, 0.1, 1), *doc,
	       *back;
	struct vms_compare c;
	char *text;

	(void)state;
	gen_set(b, "fingerprint.thp_enabled.value", "\"always \\\"quoted\\\" | x\"");
	cmp2(&c, a, b, 0);
	doc = vms_compare_to_json(&c);
	text = json_dumps(doc, JSON_INDENT(1));
	back = json_loads(text, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(doc, back));
	assert_string_equal(json_string_value(json_object_get(back, "format")),
	                    "vmsuite.compare/1");
	assert_int_equal(json_integer_value(json_object_get(back, "exit_status")), 1);
	assert_int_equal(json_array_size(json_object_get(back, "workloads")), 2);
	free(text);
	json_decref(doc);
	json_decref(back);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* Runs that spread widely but are no worse than log-normal (sd of ln x 0.23) are judged: a
 * regression. With --cv-limit below their spread they are "unstable": cannot tell, exit 2. */
static void unstable_wins(void **state)
{
	const double a[] = {10, 10.2, 9.9, 10.1, 10}, b[] = {13, 20, 14, 21, 13.5};
	json_t *da = gen_doc("k", 0), *db = gen_doc("k", 0);
	json_t *docs[2] = {da, db};
	const char *paths[2] = {"a.json", "b.json"};
	struct vms_compare_opts o;
	struct vms_compare c;

	(void)state;
	gen_samples(gen_workload(da, "w", 1, 5), "t", "s", "lower", 1, 0, a, 5);
	gen_samples(gen_workload(db, "w", 1, 5), "t", "s", "lower", 1, 0, b, 5);
	cmp2(&c, da, db, 0);
	assert_int_equal(verdict(&c, "w", "t"), VMS_VERDICT_REGRESSION);
	assert_int_equal(vms_compare_status(&c), 1);
	assert_int_equal(vms_compare_bisect_status(&c), 1);
	vms_compare_release(&c);
	vms_compare_opts_init(&o);
	o.cv_limit = 0.2;
	vms_compare_build(&c, &o,
	                  &(struct vms_compare_input){.docs = docs, .paths = paths, .n = 2});
	assert_int_equal(verdict(&c, "w", "t"), VMS_VERDICT_UNSTABLE);
	assert_int_equal(metric(&c, "w", "t")->cells[0].unstable_side, 1);
	assert_true(metric(&c, "w", "t")->cells[0].p < 0.05);
	assert_int_equal(vms_compare_status(&c), 2);
	assert_int_equal(vms_compare_bisect_status(&c), VMS_BISECT_SKIP);
	vms_compare_release(&c);
	json_decref(da);
	json_decref(db);
}

/* The model keeps the values it judged, in run order with the run each came from: nulls (failed
 * runs) are left out, a derived count has one 0/1 per run that ended. */
static void samples_kept(void **state)
{
	json_t *a = gen_doc("k", 0), *b = gen_doc("k", 0), *wa, *wb, *run;
	const double ta[] = {10, 10.1, NAN, 9.9, 10}, tb[] = {NAN, 11, 12, NAN, 13};
	const double want_a[] = {10, 10.1, 9.9, 10}, want_b[] = {11, 12, 13};
	const size_t runs_a[] = {0, 1, 3, 4}, runs_b[] = {1, 2, 4};
	const struct vms_compare_metric *m;
	struct vms_compare c;
	size_t i;

	(void)state;
	wa = gen_workload(a, "w", 1, 5);
	wb = gen_workload(b, "w", 1, 5);
	gen_samples(wa, "elapsed_s", "s", "lower", 1, 0, ta, 5);
	gen_samples(wb, "elapsed_s", "s", "lower", 1, 0, tb, 5);
	json_object_set_new(json_array_get(json_object_get(wb, "runs"), 0), "status",
	                    json_string("failed"));
	json_object_set_new(json_array_get(json_object_get(wb, "runs"), 3), "status",
	                    json_string("skipped"));
	run = json_array_get(json_object_get(wb, "runs"), 4);
	json_object_set_new(run, "oom_killed", json_true());
	cmp2(&c, a, b, 0);
	m = metric(&c, "w", "elapsed_s");
	assert_int_equal(m->base.s.n, 4);
	assert_int_equal(m->cells[0].side.s.n, 3);
	for (i = 0; i < 4; i++) {
		assert_true(m->base.values[i] == want_a[i]);
		assert_int_equal(m->base.runs[i], runs_a[i]);
	}
	for (i = 0; i < 3; i++) {
		assert_true(m->cells[0].side.values[i] == want_b[i]);
		assert_int_equal(m->cells[0].side.runs[i], runs_b[i]);
	}
	assert_true(m->base.present && m->cells[0].side.present);
	/* runs 0 (failed), 1, 2, 4 (OOM-killed) ended; run 3 was skipped */
	m = metric(&c, "w", "failed_runs");
	assert_non_null(m);
	assert_int_equal(m->cells[0].side.s.n, 4);
	assert_true(m->cells[0].side.values[0] == 1 && m->cells[0].side.values[3] == 0);
	assert_int_equal(m->cells[0].side.runs[3], 4);
	m = metric(&c, "w", "oom_kills");
	assert_non_null(m);
	assert_true(m->cells[0].side.values[3] == 1 && m->cells[0].side.events == 1);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* Audio and derived rows, unit, better and kind come from the catalogue, whatever the file
 * says; only a metric the catalogue does not know compares on the file's own fields. */
static void catalogue_and_file(void **state)
{
	json_t *a = gen_doc("k", 0), *b = gen_doc("k", 0), *wa, *wb, *doc, *ms;
	const double lo[] = {10, 10.2, 9.8, 10.1, 9.9}, hi[] = {20, 20.4, 19.6, 20.2, 19.8};
	const double ev[] = {1, 2, 1, 3, 1};
	static const char *const audio[] = {"headroom_min_ms", "decode_ms_per_s", "wake_p50_ms"};
	const struct vms_compare_metric *m;
	struct vms_compare c;
	size_t i;

	(void)state;
	wa = gen_workload(a, "w", 1, 5);
	wb = gen_workload(b, "w", 1, 5);
	/* newer than this vmsuite: better "higher", doubled, is an improvement */
	gen_samples(wa, "frobs_per_s", "frobs/s", "higher", 1, 0, lo, 5);
	gen_samples(wb, "frobs_per_s", "frobs/s", "higher", 1, 0, hi, 5);
	for (i = 0; i < VMS_ARRAY_SIZE(audio); i++) {
		gen_samples(wa, audio[i], "ms", "lower", 0, 0, lo, 5);
		gen_samples(wb, audio[i], "ms", "lower", 0, 0, lo, 5);
	}
	gen_samples(wa, "pgscan", "pages", "lower", 0, 0, lo, 5);
	gen_samples(wb, "pgscan", "pages", "lower", 0, 0, lo, 5);
	/* the file says better "none": the catalogue's "lower" wins, doubled is a regression */
	gen_samples(wa, "elapsed_s", "s", "none", 1, 0, lo, 5);
	gen_samples(wb, "elapsed_s", "s", "none", 1, 0, hi, 5);
	/* only samples: unit, better and kind from the catalogue (count, lower) */
	json_object_set_new(json_object_get(wa, "metrics"), "underruns",
	                    json_pack("{s:[f,f,f,f,f]}", "samples", 1.0, 2.0, 1.0, 3.0, 1.0));
	gen_samples(wb, "underruns", "count", "lower", 1, 1, ev, 5);
	cmp2(&c, a, b, 0);
	m = metric(&c, "w", "frobs_per_s");
	assert_null(m->def);
	assert_string_equal(m->unit, "frobs/s");
	assert_int_equal(m->better, VMS_BETTER_HIGHER);
	assert_false(m->audio || m->count || m->derived);
	assert_int_equal(m->cells[0].verdict, VMS_VERDICT_IMPROVEMENT);
	for (i = 0; i < VMS_ARRAY_SIZE(audio); i++)
		assert_true(metric(&c, "w", audio[i])->audio);
	assert_false(metric(&c, "w", "pgscan")->audio);
	m = metric(&c, "w", "elapsed_s");
	assert_int_equal(m->better, VMS_BETTER_LOWER);
	assert_int_equal(m->cells[0].verdict, VMS_VERDICT_REGRESSION);
	m = metric(&c, "w", "underruns");
	assert_non_null(m->def);
	assert_string_equal(m->unit, "count");
	assert_int_equal(m->better, VMS_BETTER_LOWER);
	assert_true(m->count && m->audio);
	/* the JSON keeps the strings */
	doc = vms_compare_to_json(&c);
	json_array_foreach (
	    json_object_get(json_array_get(json_object_get(doc, "workloads"), 0), "metrics"), i, ms)
		if (!strcmp(json_string_value(json_object_get(ms, "name")), "frobs_per_s"))
			assert_string_equal(json_string_value(json_object_get(ms, "better")),
			                    "higher");
	json_decref(doc);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* The idle baseline is kept as numbers; printed, they read as the text report's line. */
static void baseline_figures(void **state)
{
	json_t *a = gen_doc("k", 1), *b = gen_doc("k", 1);
	const struct vms_compare_sound *f;
	char *line = NULL, *report = NULL, *want;
	size_t len = 0, rlen = 0;
	struct vms_compare c;
	FILE *m;

	(void)state;
	gen_workload(a, "w", 1, 2);
	gen_workload(b, "w", 1, 2);
	gen_set(a, "audio.baseline",
	        "{\"metrics\": {\"sound_rating\": {\"samples\": [9]}, \"played_s\": {\"samples\": "
	        "[9.97]}, \"window_s\": {\"samples\": [10]}, \"skips\": {\"samples\": [1]}, "
	        "\"underruns\": {\"samples\": [1]}, \"gap_longest_ms\": {\"samples\": [25]}, "
	        "\"wake_p99_ms\": {\"samples\": [3.1]}}, \"detail\": {\"causes\": {\"paging\": 2, "
	        "\"io\": 1}}}");
	cmp2(&c, a, b, 0);
	assert_true(c.files[0].has_baseline && c.files[0].baseline_skipped);
	assert_false(c.files[1].has_baseline || c.files[1].baseline_skipped);
	f = &c.files[0].baseline;
	assert_true(f->rating == 9 && f->played_s == 9.97 && f->underruns == 1);
	assert_int_equal(f->causes[VMS_CAUSE_PAGING], 2);
	assert_int_equal(f->causes[VMS_CAUSE_IO], 1);
	m = open_memstream(&line, &len);
	assert_non_null(m);
	vms_report_sound_put(m, f);
	assert_int_equal(fclose(m), 0);
	assert_string_equal(line, "9.0/10 \u2014 played 9.97 of 10.00 s, 1 skip (1 underrun), "
	                          "longest gap 25 ms, p99 wake 3.1 ms\n"
	                          "       gaps caused by: paging 2, io 1");
	m = open_memstream(&report, &rlen);
	assert_non_null(m);
	vms_report_sound_baseline(m, json_object_get(a, "audio"));
	assert_int_equal(fclose(m), 0);
	want = vms_xasprintf("Sound (idle baseline): %s\n", line);
	assert_string_equal(report, want);
	free(want);
	free(report);
	free(line);
	vms_compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* Ours but odd: wrong types anywhere must not crash and must not invent numbers. */
static void odd_documents(void **state)
{
	static const char *const odd[] = {
	    "{\"format\":\"vmsuite.result/1\",\"workloads\":[]}",
	    "{\"format\":\"vmsuite.result/1\",\"workloads\":[1,\"x\",{\"name\":3}]}",
	    "{\"format\":\"vmsuite.result/1\",\"fingerprint\":[],\"protocol\":7,\"audio\":"
	    "{\"facts\":[1]},\"workloads\":[{\"name\":\"w\",\"options\":[],\"metrics\":{"
	    "\"t\":{\"samples\":[\"a\",null,true,{}]},\"u\":5,\"v\":{\"samples\":3}},"
	    "\"runs\":{}}]}",
	    "{\"format\":\"vmsuite.result/1\",\"workloads\":[{\"name\":\"w\",\"metrics\":"
	    "{\"t\":{\"kind\":\"count\",\"better\":7,\"samples\":[1,2]}},\"runs\":[1,{"
	    "\"status\":\"failed\"},{\"status\":5}]}]}",
	};
	json_t *good = gen_standard("k", 1, 3, 0, 1);
	size_t i;

	(void)state;
	for (i = 0; i < VMS_ARRAY_SIZE(odd); i++) {
		json_t *doc = json_loads(odd[i], 0, NULL);
		struct vms_compare c;
		FILE *f = fopen("/dev/null", "w");

		assert_non_null(doc);
		assert_non_null(f);
		cmp2(&c, doc, good, 0);
		assert_int_equal(vms_compare_render_text(&c, f), 0);
		assert_int_equal(vms_compare_render_markdown(&c, f), 0);
		assert_int_equal(vms_compare_render_json(&c, f), 0);
		vms_compare_release(&c);
		cmp2(&c, good, doc, 0);
		assert_int_equal(vms_compare_render_text(&c, f), 0);
		vms_compare_release(&c);
		cmp2(&c, doc, doc, 0);
		/* never a regression; nothing to compare is 2: no named workload, or a document
		 * the reader refuses (wrong types; vms_result_load() never passes one), which
		 * compares as an empty one */
		assert_int_equal(vms_compare_status(&c), 2);
		vms_compare_release(&c);
		fclose(f);
		json_decref(doc);
	}
	json_decref(good);
}

/* compare -f's help and its unknown-format message come from the renderer table. */
static void renderer_help(void **state)
{
	(void)state;
	assert_string_equal(vms_compare_renderer_help(),
	                    "text (default, fits 100 columns), markdown, json, html");
	assert_string_equal(vms_compare_renderer_names(), "text, markdown, json, html");
	assert_non_null(vms_compare_renderer_find("html"));
	assert_null(vms_compare_renderer_find("pdf"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(false_alarms),
	    cmocka_unit_test(variants_paired_under_drift),
	    cmocka_unit_test(variants_heavy_drift),
	    cmocka_unit_test(family_wise_rate),
	    cmocka_unit_test(shift_found),
	    cmocka_unit_test(shift_inconclusive),
	    cmocka_unit_test(env_one_fact),
	    cmocka_unit_test(env_identical_and_workload_option),
	    cmocka_unit_test(env_workload_version),
	    cmocka_unit_test(env_swap_kind),
	    cmocka_unit_test(counts_fisher),
	    cmocka_unit_test(zeros_and_missing_values),
	    cmocka_unit_test(mismatched_workloads),
	    cmocka_unit_test(json_reparses),
	    cmocka_unit_test(odd_documents),
	    cmocka_unit_test(unstable_wins),
	    cmocka_unit_test(samples_kept),
	    cmocka_unit_test(catalogue_and_file),
	    cmocka_unit_test(baseline_figures),
	    cmocka_unit_test(failed_runs_decide),
	    cmocka_unit_test(partial_failures),
	    cmocka_unit_test(shown_or_not),
	    cmocka_unit_test(heavy_tails),
	    cmocka_unit_test(missing_primary_cannot_tell),
	    cmocka_unit_test(kernel_upgrade_comparable),
	    cmocka_unit_test(not_comparable_only_where_touched),
	    cmocka_unit_test(renderer_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
