/* `report --format kcidb`: the result as one KCIDB I/O document (schema v5.3), what a lab
 * submits to KernelCI's common database with kcidb-submit. A checkout and a build from what the
 * result knows of the kernel, and one test per (workload, metric): the mean of the successful
 * runs as its number, DONE, or PASS/FAIL where a compare verdict exists; and per workload a
 * "runs" test that fails when a run failed. Ids are derived from the result, so the same file
 * gives the same ids. No property is null (the schema forbids it). The schema has no place for
 * what all tests share, so the test environment is written once, in the build's misc, and each
 * test carries a short reference to it. No kernel paths. */
#include <errno.h>
#include <math.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/escape.h"
#include "core/metric.h"
#include "core/util.h"
#include "report/export.h"
#include "report/model.h"

#define LOWER_DIGITS "abcdefghijklmnopqrstuvwxyz0123456789"

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static const char *fp(const struct vms_report_model *m, const char *key)
{
	return vms_rdoc_fact(&m->rd, key);
}

/* A copy of v without null members (KCIDB forbids null anywhere). */
static json_t *no_nulls(const json_t *v)
{
	json_t *out, *e;
	const char *k;
	size_t i;

	if (json_is_object(v)) {
		out = json_object();
		json_object_foreach ((json_t *)v, k, e)
			if (!json_is_null(e))
				json_object_set_new(out, k, no_nulls(e));
		return out;
	}
	if (json_is_array(v)) {
		out = json_array();
		json_array_foreach (v, i, e)
			if (!json_is_null(e))
				json_array_append_new(out, no_nulls(e));
		return out;
	}
	return json_deep_copy(v);
}

static void set_str(json_t *o, const char *key, const char *val)
{
	if (val)
		json_object_set_new(o, key, json_string(val));
}

static void set_num(json_t *o, const char *key, double v)
{
	if (isfinite(v))
		json_object_set_new(o, key, json_real(v));
}

/* 16 hex digits of SHA-256 over what identifies the result: its start, label, tool version,
 * command line and host. */
static void result_hash(const struct vms_report_model *m, char out[17])
{
	const json_t *arg;
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];
	const char *parts[4] = {m->rd.start_time, m->rd.label, m->rd.version, fp(m, "hostname")};
	size_t i;

	sha256_init(&ctx);
	for (i = 0; i < VMS_ARRAY_SIZE(parts); i++) {
		const char *p = parts[i] ? parts[i] : "";

		sha256_update(&ctx, strlen(p) + 1, (const uint8_t *)p);
	}
	json_array_foreach (m->rd.command_line, i, arg) {
		const char *p = json_string_value(arg) ? json_string_value(arg) : "";

		sha256_update(&ctx, strlen(p) + 1, (const uint8_t *)p);
	}
	sha256_digest(&ctx, sizeof(d), d);
	for (i = 0; i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* The id the document carries for a given one: "ORIGIN:LOCAL" as given, or ORIGIN:given. Its
 * form is the schema's (^[a-z0-9_]+:) narrowed to what a database keys on safely: at most 255
 * printable ASCII characters, something after the colon. */
static int id_check(const char *origin, const char *given, const char *option, char *why,
                    size_t len)
{
	size_t n = strlen(given) + (strchr(given, ':') ? 0 : strlen(origin) + 1), i;
	const char *colon = strchr(given, ':');
	const char *o = colon ? given : origin;
	size_t olen = colon ? (size_t)(colon - given) : strlen(origin);

	for (i = 0; given[i]; i++)
		if ((unsigned char)given[i] < 0x20 || (unsigned char)given[i] > 0x7e)
			break;
	if (given[i] || n > 255 || !olen ||
	    strspn(o, "abcdefghijklmnopqrstuvwxyz0123456789_") != olen ||
	    !(colon ? colon[1] : given[0])) {
		snprintf(why, len,
		         "--%s: a KCIDB id is ORIGIN:LOCAL (ORIGIN of [a-z0-9_], or --origin's "
		         "for a LOCAL given alone), at most 255 printable ASCII characters",
		         option);
		return -EINVAL;
	}
	return 0;
}

/* The schema's pattern for URLs (^https://), then no space, quote or control. */
static int https_url_ok(const char *u)
{
	return !strncmp(u, "https://", 8) && u[8] &&
	       strspn(u, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	                 "-._~:/?#[]@!$&'()*+,;=%") == strlen(u);
}

/* A branch name git accepts (git check-ref-format --branch), in printable ASCII, at most 255
 * characters. */
static int branch_ok(const char *b)
{
	const char *c;
	size_t n = strlen(b), i, clen;

	if (!n || n > 255 || b[0] == '-' || b[0] == '/' || b[n - 1] == '/' || b[n - 1] == '.' ||
	    !strcmp(b, "@") || !strcmp(b, "HEAD") || strstr(b, "..") || strstr(b, "@{") ||
	    strstr(b, "//") || strpbrk(b, " ~^:?*[\\"))
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)b[i] <= 0x20 || (unsigned char)b[i] >= 0x7f)
			return 0;
	/* each /-separated component: no leading dot, no .lock at its end */
	for (c = b;; c += clen + 1) {
		clen = strcspn(c, "/");
		if (c[0] == '.' || (clen >= 5 && !strncmp(c + clen - 5, ".lock", 5)))
			return 0;
		if (!c[clen])
			return 1;
	}
}

int vms_kcidb_opts_check(const struct vms_report_opts *o, char *why, size_t len)
{
	const char *origin = o->origin ? o->origin : "vmsuite";
	const char *u = o->output_url, *t = o->tree;
	int ret;

	if (!*origin || strspn(origin, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(origin)) {
		snprintf(why, len, "--origin: lowercase letters, digits and _ only");
		return -EINVAL;
	}
	if (o->checkout_id && (ret = id_check(origin, o->checkout_id, "checkout-id", why, len)))
		return ret;
	if (o->build_id && (ret = id_check(origin, o->build_id, "build-id", why, len)))
		return ret;
	if (u && !https_url_ok(u)) {
		snprintf(why, len, "--output-url: an https:// URL, without spaces or quotes");
		return -EINVAL;
	}
	if (o->git_url && !https_url_ok(o->git_url)) {
		snprintf(why, len,
		         "--git-url: the repository's https:// URL, without spaces or quotes");
		return -EINVAL;
	}
	/* the names trees go by (mainline, net-next, stable-rc) */
	if (t &&
	    (!*t || strlen(t) > 255 || !strchr(LOWER_DIGITS "ABCDEFGHIJKLMNOPQRSTUVWXYZ", t[0]) ||
	     strspn(t, LOWER_DIGITS "ABCDEFGHIJKLMNOPQRSTUVWXYZ._+-") != strlen(t))) {
		snprintf(why, len,
		         "--tree: a tree's name (mainline, net-next): letters, digits and . _ + "
		         "- only, at most 255");
		return -EINVAL;
	}
	if (o->branch && !branch_ok(o->branch)) {
		snprintf(why, len,
		         "--branch: a git branch name (as git check-ref-format --branch takes "
		         "it), at most 255 printable ASCII characters");
		return -EINVAL;
	}
	return 0;
}

/* given as "ORIGIN:LOCAL", or a local id, or NULL: ORIGIN:fallback */
static json_t *object_id(const char *origin, const char *given, const char *fallback)
{
	if (given && strchr(given, ':'))
		return json_string(given);
	return json_sprintf("%s:%s", origin, given ? given : fallback);
}

/* "2026-12-01T17:00:01Z" -> seconds since the epoch; -1 when it does not parse */
static double parse_utc(const char *s)
{
	struct tm tm;
	int n = 0;

	memset(&tm, 0, sizeof(tm));
	if (!s ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
	           &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
	    !n || s[n])
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

/* The earliest run (or audio baseline) start on the monotonic clock the runs use: the suite's
 * start_time is taken just before it. NAN when there is none. */
static double first_mono(const struct vms_report_model *m)
{
	double first = m->rd.baseline_t_start, t;
	size_t i, k;

	for (i = 0; i < m->rd.n_workloads; i++)
		for (k = 0; k < m->rd.workloads[i].n_runs; k++) {
			t = m->rd.workloads[i].runs[k].t_start;
			if (!isnan(t) && !(t >= first))
				first = t;
		}
	return first;
}

/* The start and duration of workload i's runs into test. */
static void set_times(const struct vms_report_model *m, size_t i, double anchor, double mono0,
                      json_t *test)
{
	const struct vms_rdoc_workload *w = m->workloads[i].rd;
	double t0 = NAN, t1 = NAN, start;
	char buf[40];
	size_t k;

	for (k = 0; k < w->n_runs; k++) {
		double a = w->runs[k].t_start, b = w->runs[k].t_end;

		if (!isnan(a) && !(a >= t0))
			t0 = a;
		if (!isnan(b) && !(b <= t1))
			t1 = b;
	}
	start = anchor + (t0 - mono0);
	/* a time RFC 3339 can write: years 1970 to 9999 */
	if (anchor >= 0 && isfinite(start) && start >= 0 && start < 253402300800.0)
		json_object_set_new(test, "start_time",
		                    json_string(vms_format_utc(floor(start), buf, sizeof(buf))));
	if (isfinite(t1 - t0) && t1 >= t0)
		json_object_set_new(test, "duration", json_real(t1 - t0));
}

static json_t *environment(const struct vms_report_model *m)
{
	const json_t *machine = m->rd.machine.json;
	json_t *misc = json_object(), *env = json_object();
	const char *device = m->rd.audio_device;
	char *comment;

	if (json_is_object(machine))
		json_object_set_new(misc, "machine", no_nulls(machine));
	set_str(misc, "hostname", fp(m, "hostname"));
	json_object_set_new(misc, "with_audio", json_boolean(m->rd.with_audio));
	set_str(misc, "sound_device", device);
	if (m->rd.audio_virtual >= 0)
		json_object_set_new(misc, "sound_device_virtual",
		                    json_boolean(m->rd.audio_virtual));
	set_str(misc, "vmsuite_version", m->rd.version);
	comment = vms_xasprintf("vmsuite machine profile %s; %s%s",
	                        m->rd.machine.profile ? m->rd.machine.profile : "unknown",
	                        device ? "sound device " : "no audio probe", device ? device : "");
	json_object_set_new(env, "comment", json_string(comment));
	free(comment);
	json_object_set_new(env, "misc", misc);
	return env;
}

/* What each test carries of full (environment()): its comment, the hostname, and where the
 * rest is. The same object for every test (json_incref). */
static json_t *test_env(const json_t *full)
{
	const json_t *misc = json_object_get(full, "misc");
	json_t *env = json_object(), *ref = json_object();

	json_object_set(env, "comment", json_object_get(full, "comment"));
	set_str(ref, "hostname", str(misc, "hostname"));
	json_object_set_new(ref, "details", json_string("builds[build_id].misc.environment"));
	json_object_set_new(env, "misc", ref);
	return env;
}

static json_t *samples_of(const struct vms_rdoc_metric *metric)
{
	json_t *out = json_array();
	size_t i;

	for (i = 0; i < metric->n_values; i++)
		json_array_append_new(out, json_real(metric->values[i]));
	return out;
}

static json_t *causes_of(const struct vms_report_workload *w)
{
	json_t *c = json_object();
	int i;

	for (i = 0; i < VMS_CAUSE_NR; i++)
		json_object_set_new(c, vms_cause_name((enum vms_cause)i),
		                    json_integer((json_int_t)w->sound.causes[i]));
	return c;
}

/* The verdict entry of metric of workload i in cmp, without nulls, or NULL. */
static json_t *verdict_misc(const struct vms_report_model *m, const json_t *cmp, size_t other,
                            size_t i, const char *metric)
{
	const json_t *w, *e;
	size_t k, j;

	json_array_foreach (json_object_get(cmp, "workloads"), k, w) {
		const char *variant = vms_export_variant(m, i);

		if (!str(w, "name") || strcmp(str(w, "name"), m->workloads[i].rd->name) ||
		    (variant && str(w, "variant") && strcmp(str(w, "variant"), variant)))
			continue;
		json_array_foreach (json_object_get(w, "metrics"), j, e)
			if (str(e, "name") && !strcmp(str(e, "name"), metric))
				return no_nulls(
				    json_array_get(json_object_get(e, "others"), other));
		return NULL;
	}
	return NULL;
}

/* A metric name as a KCIDB path component: as it is when it fits [a-zA-Z0-9_-] (the
 * catalogue's names do), else encoded like a workload name. A new string. */
static char *leaf_of(const char *metric)
{
	static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

	if (*metric && strspn(metric, ok) == strlen(metric))
		return vms_xstrdup(metric);
	return vms_name_token(metric, NULL);
}

static json_t *base_test(const struct vms_report_model *m, const json_t *ids, size_t i,
                         const char *name, const char *leaf, double anchor, double mono0,
                         const json_t *env)
{
	const struct vms_report_opts *o = m->opts;
	json_t *t = json_object();

	json_object_set_new(
	    t, "id",
	    json_sprintf("%s.%s.%s", json_string_value(json_object_get(ids, "test")), name, leaf));
	json_object_set(t, "origin", json_object_get(ids, "origin"));
	json_object_set(t, "build_id", json_object_get(ids, "build"));
	json_object_set_new(t, "path", json_sprintf("vmsuite.%s.%s", name, leaf));
	set_times(m, i, anchor, mono0, t);
	json_object_set_new(t, "environment", json_incref((json_t *)env));
	if (o && o->output_url)
		json_object_set_new(t, "output_files",
		                    json_pack("[{s:s, s:s}]", "name",
		                              o->result_name ? o->result_name : "result.json",
		                              "url", o->output_url));
	return t;
}

static void workload_tests(const struct vms_report_model *m, const json_t *ids, size_t i,
                           const json_t *cmp, size_t other, double anchor, double mono0,
                           const json_t *env, json_t *tests)
{
	const struct vms_report_workload *w = &m->workloads[i];
	const char *variant = vms_export_variant(m, i);
	char *name = vms_export_name(m, i);
	json_t *t, *misc;
	size_t k;
	int reg;

	/* the runs: FAIL when one failed or none succeeded, SKIP when the workload was skipped */
	t = base_test(m, ids, i, name, "runs", anchor, mono0, env);
	json_object_set_new(t, "status",
	                    json_string(w->rd->skipped                     ? "SKIP"
	                                : w->rd->n_failed || !w->elapsed.n ? "FAIL"
	                                                                   : "PASS"));
	if (!w->rd->skipped)
		json_object_set_new(t, "number",
		                    json_pack("{s:I, s:s}", "value", (json_int_t)w->rd->n_failed,
		                              "unit", "failed runs"));
	misc = json_pack("{s:s, s:I, s:I, s:I}", "workload", w->rd->name, "runs",
	                 (json_int_t)w->rd->n_runs, "failed", (json_int_t)w->rd->n_failed,
	                 "interrupted", (json_int_t)w->rd->n_interrupted);
	set_str(misc, "variant", variant);
	set_str(misc, "skipped", w->rd->skipped);
	if (w->rd->n_failed || w->rd->n_interrupted) {
		json_t *why = json_array();

		for (k = 0; k < w->rd->n_runs; k++)
			if (w->runs[k].failed || w->runs[k].interrupted)
				json_array_append_new(
				    why, json_pack("{s:I, s:s, s:s}", "run", (json_int_t)(k + 1),
				                   "status", w->runs[k].rd->status_name, "reason",
				                   w->runs[k].rd->reason ? w->runs[k].rd->reason
				                                         : "none recorded"));
		json_object_set_new(misc, "failed_runs", why);
	}
	if (cmp && !w->rd->skipped && (reg = vms_export_regressed(m, cmp, other, i)) >= 0)
		json_object_set_new(misc, "regressed", json_boolean(reg));
	json_object_set_new(t, "misc", misc);
	json_array_append_new(tests, t);

	for (k = 0; k < w->metrics.n; k++) {
		const struct vms_report_metric *r = &w->metrics.v[k];
		const char *unit = r->rd->unit;
		const char *better = vms_better_name(r->rd->better);
		const char *v = cmp ? vms_export_metric_verdict(m, cmp, other, i, r->name) : NULL;
		json_t *num, *vm;

		char *leaf;

		if (!r->s.n || !isfinite(r->s.mean))
			continue;
		leaf = leaf_of(r->name);
		t = base_test(m, ids, i, name, leaf, anchor, mono0, env);
		free(leaf);
		json_object_set_new(t, "status",
		                    json_string(vms_export_verdict_rank(v) < 0    ? "DONE"
		                                : vms_export_verdict_rank(v) == 1 ? "FAIL"
		                                                                  : "PASS"));
		num = json_pack("{s:f}", "value", r->s.mean);
		set_str(num, "unit", unit && *unit ? unit : NULL);
		json_object_set_new(t, "number", num);
		misc = json_pack("{s:s, s:I}", "workload", w->rd->name, "n", (json_int_t)r->s.n);
		set_str(misc, "variant", variant);
		set_num(misc, "cv", r->s.cv);
		set_num(misc, "sd", r->s.sd);
		set_num(misc, "min", r->s.min);
		set_num(misc, "max", r->s.max);
		json_object_set_new(misc, "samples", samples_of(r->rd));
		set_str(misc, "better", better);
		json_object_set_new(misc, "primary", json_boolean(r->rd->primary));
		if (r->def &&
		    (r->def->group == VMS_GROUP_SOUND || r->def->group == VMS_GROUP_LATENCY))
			json_object_set_new(misc, "gap_causes", causes_of(w));
		if (cmp && (vm = verdict_misc(m, cmp, other, i, r->name)))
			json_object_set_new(misc, "verdict", vm);
		json_object_set_new(t, "misc", misc);
		json_array_append_new(tests, t);
	}
	free(name);
}

int vms_report_render_kcidb(const struct vms_report_model *m, FILE *out)
{
	const struct vms_report_opts *o = m->opts;
	const char *origin = o && o->origin ? o->origin : "vmsuite";
	const char *release = fp(m, "kernel_release"), *kversion = fp(m, "kernel_version");
	const char *arch = fp(m, "architecture");
	double anchor = parse_utc(m->rd.start_time), mono0 = first_mono(m);
	size_t other = 0, i;
	const json_t *cmp = vms_export_verdict(m, &other, NULL, 0);
	json_t *doc, *checkout, *build, *tests = json_array(), *ids, *misc, *env;
	char hash[17], *comment;
	int ret;

	result_hash(m, hash);
	ids = json_pack("{s:s, s:o, s:o, s:o}", "origin", origin, "checkout",
	                object_id(origin, o ? o->checkout_id : NULL, hash), "build",
	                object_id(origin, o ? o->build_id : NULL, hash), "test",
	                json_sprintf("%s:%s", origin, hash));

	checkout =
	    json_pack("{s:O, s:s}", "id", json_object_get(ids, "checkout"), "origin", origin);
	if (o && o->git_commit)
		json_object_set_new(checkout, "git_commit_hash", json_string(o->git_commit));
	if (o) {
		set_str(checkout, "git_repository_url", o->git_url);
		set_str(checkout, "git_repository_branch", o->branch);
		set_str(checkout, "tree_name", o->tree);
	}
	comment = vms_xasprintf("Linux %s %s, tested by vmsuite as '%s'", release ? release : "?",
	                        kversion ? kversion : "", m->rd.label ? m->rd.label : "");
	json_object_set_new(checkout, "comment", json_string(comment));
	free(comment);
	misc = json_object();
	set_str(misc, "kernel_release", release);
	set_str(misc, "kernel_version", kversion);
	set_str(misc, "label", m->rd.label);
	json_object_set_new(checkout, "misc", misc);

	build = json_pack("{s:O, s:s, s:O}", "id", json_object_get(ids, "build"), "origin", origin,
	                  "checkout_id", json_object_get(ids, "checkout"));
	/* the schema takes ^[a-z0-9_]*$; anything else stays in misc only */
	if (arch && strspn(arch, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(arch))
		set_str(build, "architecture", arch);
	comment = vms_xasprintf("Linux %s", release ? release : "?");
	json_object_set_new(build, "comment", json_string(comment));
	free(comment);
	misc = json_object();
	set_str(misc, "kernel_release", release);
	set_str(misc, "kernel_version", kversion);
	set_str(misc, "kernel_cmdline", fp(m, "kernel_cmdline"));
	set_str(misc, "architecture", arch);
	/* the environment all tests ran in, once; each test names it (test_env) */
	env = environment(m);
	json_object_set_new(misc, "environment", env);
	json_object_set_new(build, "misc", misc);

	env = test_env(env);
	for (i = 0; i < m->n_workloads; i++)
		workload_tests(m, ids, i, cmp, other, anchor, mono0, env, tests);
	json_decref(env);

	doc = json_pack("{s:{s:i, s:i}, s:[o], s:[o], s:o}", "version", "major", 5, "minor", 3,
	                "checkouts", checkout, "builds", build, "tests", tests);
	json_decref(ids);
	ret = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(doc);
	return ret || ferror(out) ? -EIO : 0;
}
