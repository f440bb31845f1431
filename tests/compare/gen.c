/* Test helper: synthetic result documents drawn from seeded log-normal distributions
 * (GSL's mt19937), in the vmsuite.result/1 shape. */
#include "tests/compare/gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "core/result.h"
#include "core/util.h"

static json_t *fp(json_t *value, const char *source)
{
	return json_pack("{s:o, s:s}", "value", value, "source", source);
}

json_t *gen_doc(const char *label, int audio)
{
	json_t *doc, *f, *sysctl;

	sysctl = json_pack("{s:s, s:s, s:s, s:s}", "swappiness", "60", "page-cluster", "3",
	                   "overcommit_memory", "0", "min_free_kbytes", "67584");
	f = json_object();
	json_object_set_new(f, "kernel_release",
	                    fp(json_string(label), "/proc/sys/kernel/osrelease"));
	json_object_set_new(f, "kernel_version",
	                    fp(json_string("#1 SMP PREEMPT_DYNAMIC"), "/proc/sys/kernel/version"));
	json_object_set_new(f, "kernel_cmdline",
	                    fp(json_string("root=/dev/sda1 ro quiet"), "/proc/cmdline"));
	json_object_set_new(f, "hostname", fp(json_string("testbox"), "/proc/sys/kernel/hostname"));
	json_object_set_new(f, "vm_sysctl", fp(sysctl, "/proc/sys/vm"));
	json_object_set_new(
	    f, "thp_enabled",
	    fp(json_string("madvise"), "/sys/kernel/mm/transparent_hugepage/enabled"));
	json_object_set_new(
	    f, "thp_defrag",
	    fp(json_string("madvise"), "/sys/kernel/mm/transparent_hugepage/defrag"));
	json_object_set_new(f, "swap_devices", fp(json_array(), "/proc/swaps"));
	json_object_set_new(f, "swap_total_bytes", fp(json_integer(0), "/proc/meminfo"));
	json_object_set_new(f, "mem_total_bytes", fp(json_integer(25769803776LL), "/proc/meminfo"));
	json_object_set_new(f, "page_size", fp(json_integer(4096), "sysconf(_SC_PAGESIZE)"));
	json_object_set_new(f, "cpu_model", fp(json_string("Test CPU @ 2.00GHz"), "/proc/cpuinfo"));
	json_object_set_new(f, "cpu_count", fp(json_integer(2), "sysconf(_SC_NPROCESSORS_ONLN)"));
	json_object_set_new(f, "cpu_governor",
	                    fp(json_string("performance"), "/sys/devices/system/cpu/cpu0/cpufreq"));
	json_object_set_new(
	    f, "workdir_fs",
	    fp(json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:I}", "path", "/work", "type", "ext4",
	                 "device", "/dev/sda1", "mount_point", "/", "options", "rw,relatime",
	                 "free_bytes", (json_int_t)85112414208LL, "total_bytes",
	                 (json_int_t)270553174016LL),
	       "statfs(2), /proc/self/mountinfo"));
	json_object_set_new(f, "psi_available", fp(json_true(), "/proc/pressure"));
	json_object_set_new(f, "cgroup",
	                    fp(json_pack("{s:i, s:s, s:s, s:b, s:[s,s]}", "version", 1, "path",
	                                 "/process_api/1234", "path_controller", "memory", "hybrid",
	                                 1, "lines", "4:memory:/process_api/1234", "0::/"),
	                       "/proc/self/cgroup"));
	json_object_set_new(f, "architecture", fp(json_string("x86_64"), "uname(2) machine"));
	json_object_set_new(f, "vmsuite_version", fp(json_string("0.1.0"), "build"));
	json_object_set_new(f, "compiler", fp(json_string("gcc 12.2.0"), "build"));

	doc = json_pack("{s:s, s:{s:s, s:s, s:s, s:s}, s:[s,s], s:s, s:s, s:s, s:b, s:b, s:i}",
	                "format", "vmsuite.result/1", "tool", "name", "vmsuite", "version", "0.1.0",
	                "build_type", "RelWithDebInfo", "compiler", "gcc 12.2.0", "command_line",
	                "vmsuite", "run", "label", label, "start_time", "2026-11-30T10:00:00Z",
	                "end_time", "2026-11-30T10:30:00Z", "complete", 1, "interrupted", 0,
	                "exit_status", 0);
	json_object_set_new(
	    doc, "protocol",
	    json_pack("{s:n, s:s, s:b, s:i, s:b, s:b, s:{s:s, s:n, s:n, s:n, s:n, s:i, s:n, s:s}}",
	              "runs", "workdir", "/work", "thp_disabled", 1, "sample_hz", 10, "drop_caches",
	              0, "with_audio", audio, "machine", "profile", "host", "mem_limit_bytes",
	              "swap_limit_bytes", "effective_swap_bytes", "cpus", "cgroup_version", 1,
	              "cgroup_path", "note", "the host as it is"));
	/* as the runner writes it: the cgroup it made and the profile's plan, nested */
	json_object_set_new(json_object_get(json_object_get(doc, "protocol"), "machine"), "cgroup",
	                    json_pack("{s:i, s:s, s:I, s:b, s:s}", "version", 1, "path",
	                              "/sys/fs/cgroup/memory/vmsuite-1", "mem_limit_bytes",
	                              (json_int_t)536870912, "swap_accounting", 1, "peak_scope",
	                              "run"));
	json_object_set_new(json_object_get(doc, "protocol"), "plan",
	                    json_pack("[{s:s, s:i}]", "workload", "mmap001", "runs", 5));
	json_object_set_new(doc, "fingerprint", f);
	if (audio)
		json_object_set_new(
		    doc, "audio",
		    json_pack("{s:{s:{s:s, s:i, s:i, s:i}, s:{s:s, s:i, s:i, s:f, s:f}}, s:n}",
		              "facts", "mp3", "sha256",
		              "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		              "rate", 44100, "channels", 2, "bitrate", 128000, "alsa", "device",
		              "virtual", "rate", 44100, "channels", 2, "period_ms", 25.0,
		              "buffer_ms", 100.0, "baseline"));
	else
		json_object_set_new(doc, "audio", json_null());
	json_object_set_new(doc, "workloads", json_array());
	return doc;
}

json_t *gen_workload(json_t *doc, const char *name, long long bytes, size_t runs)
{
	json_t *wl, *arr = json_array();
	size_t i;

	for (i = 0; i < runs; i++)
		json_array_append_new(arr, json_pack("{s:I, s:s, s:i, s:n, s:b}", "index",
		                                     (json_int_t)(i + 1), "status", "ok",
		                                     "exit_code", 0, "signal", "oom_killed", 0));
	wl = json_pack("{s:s, s:{s:I, s:s}, s:I, s:s, s:{}, s:o}", "name", name, "options", "bytes",
	               (json_int_t)bytes, "dir", "/work", "runs_planned", (json_int_t)runs,
	               "summary", "synthetic", "metrics", "runs", arr);
	json_array_append_new(json_object_get(doc, "workloads"), wl);
	return wl;
}

/* Writes the metric object by hand, as any producer of a result file might: the generator
 * makes files with metrics the catalogue may not know. */
void gen_samples(json_t *wl, const char *name, const char *unit, const char *better, int primary,
                 int count, const double *v, size_t n)
{
	json_t *samples = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(samples, isnan(v[i]) ? json_null() : json_real(v[i]));
	json_object_set_new(json_object_get(wl, "metrics"), name,
	                    json_pack("{s:s, s:s, s:b, s:s, s:o}", "unit", unit, "better", better,
	                              "primary", primary, "kind", count ? "count" : "gauge",
	                              "samples", samples));
}

static size_t runs_of(json_t *wl)
{
	return json_array_size(json_object_get(wl, "runs"));
}

void gen_gauge(json_t *wl, const char *name, const char *unit, const char *better, int primary,
               double mean, double cv, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t n = runs_of(wl), i;
	double *v = vms_xcalloc(n + 1, sizeof(*v));
	double s = sqrt(log(1 + cv * cv)), mu = log(mean) - s * s / 2;

	gsl_rng_set(r, seed);
	for (i = 0; i < n; i++)
		v[i] = cv > 0 ? gsl_ran_lognormal(r, mu, s) : mean;
	gen_samples(wl, name, unit, better, primary, 0, v, n);
	free(v);
	gsl_rng_free(r);
}

void gen_count(json_t *wl, const char *name, const char *better, int primary, double p_event,
               double mean_count, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t n = runs_of(wl), i;
	double *v = vms_xcalloc(n + 1, sizeof(*v));

	gsl_rng_set(r, seed);
	for (i = 0; i < n; i++)
		v[i] = gsl_rng_uniform(r) < p_event
		           ? 1 + gsl_ran_poisson(r, mean_count > 1 ? mean_count - 1 : 0)
		           : 0;
	gen_samples(wl, name, "", better, primary, 1, v, n);
	free(v);
	gsl_rng_free(r);
}

json_t *gen_standard(const char *label, unsigned long seed, size_t runs, double shift, int audio)
{
	json_t *doc = gen_doc(label, audio), *wl;
	unsigned long s = seed * 1000;
	double zeros[64] = {0};

	wl = gen_workload(doc, "mmap001", 2048000000LL, runs);
	gen_gauge(wl, "elapsed_s", "s", "lower", 1, 250 * (1 + shift), 0.02, s + 1);
	gen_gauge(wl, "sys_s", "s", "lower", 1, 15 * (1 + shift), 0.03, s + 2);
	gen_gauge(wl, "user_s", "s", "lower", 0, 19, 0.01, s + 3);
	gen_gauge(wl, "major_faults", "", "lower", 0, 500000, 0.02, s + 4);
	gen_gauge(wl, "max_rss_kib", "KiB", "none", 0, 2000000, 0, s + 5);
	gen_samples(wl, "pswpin", "pages", "lower", 0, 0, zeros, runs);
	gen_gauge(wl, "psi_memory_some_ms", "ms", "lower", 0, 4000, 0.3, s + 6);
	if (audio) {
		gen_gauge(wl, "sound_rating", "", "higher", 1, 8, 0.05, s + 7);
		gen_count(wl, "underruns", "lower", 1, 0.2, 3, s + 8);
		gen_gauge(wl, "wake_p99_ms", "ms", "lower", 0, 12, 0.1, s + 9);
	}
	wl = gen_workload(doc, "mtest01", 0, runs);
	gen_gauge(wl, "elapsed_s", "s", "lower", 1, 50, 0.05, s + 11);
	gen_gauge(wl, "sys_s", "s", "lower", 1, 8, 0.05, s + 12);
	gen_gauge(wl, "bytes_allocated", "B", "none", 0, 20e9, 0.01, s + 13);
	if (audio) {
		gen_gauge(wl, "sound_rating", "", "higher", 1, 9, 0.03, s + 17);
		gen_count(wl, "underruns", "lower", 1, 0.0, 0, s + 18);
	}
	return doc;
}

void gen_set(json_t *doc, const char *path, const char *text)
{
	char *p = vms_xstrdup(path), *dot, *key = p;
	json_t *at = doc, *v = json_loads(text, JSON_DECODE_ANY, NULL);

	if (!v)
		v = json_string(text);
	while ((dot = strchr(key, '.'))) {
		json_t *next;

		*dot = '\0';
		next = json_object_get(at, key);
		if (!json_is_object(next)) {
			next = json_object();
			json_object_set_new(at, key, next);
		}
		at = next;
		key = dot + 1;
	}
	json_object_set_new(at, key, v);
	free(p);
}

json_t *gen_variants(const char *label, unsigned long seed, size_t runs, int audio,
                     const char *const *labels, const double *shifts, size_t n, double drift)
{
	static const char *const names[] = {"mmap001", "mtest01"};
	static const char *const drifting[] = {"elapsed_s", "sys_s"};
	json_t *doc = gen_doc(label, audio), *vs = json_array(), **tmp;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t v, w, i, j, m;

	json_object_set_new(doc, "format", json_string("vmsuite.result/2"));
	tmp = vms_xcalloc(n + 1, sizeof(*tmp));
	for (v = 0; v < n; v++) {
		json_t *settings = json_object();
		char *l = vms_xstrdup(labels[v]), *tok, *save = NULL;

		for (tok = strtok_r(l, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(tok, '=');

			if (eq) {
				*eq = '\0';
				json_object_set_new(settings, tok, json_string(eq + 1));
			}
		}
		free(l);
		json_array_append_new(
		    vs, json_pack("{s:s, s:o}", "label", labels[v], "settings", settings));
		tmp[v] = gen_standard(label, seed * 7919 + v, runs, shifts[v], audio);
	}
	json_object_set_new(doc, "variants", vs);
	for (w = 0; w < VMS_ARRAY_SIZE(names); w++) {
		double *factor = vms_xcalloc(runs + 1, sizeof(*factor));

		/* the machine's drift: run i of every variant was made at the same time */
		gsl_rng_set(r, seed * 31 + w);
		for (i = 0; i < runs; i++)
			factor[i] = drift > 0 ? gsl_ran_lognormal(r, 0, drift) : 1;
		for (v = 0; v < n; v++) {
			json_t *wl = json_deep_copy(vms_result_workload(tmp[v], names[w]));

			json_object_set_new(wl, "variant", json_string(labels[v]));
			for (m = 0; m < VMS_ARRAY_SIZE(drifting); m++) {
				json_t *s = json_object_get(
				           json_object_get(json_object_get(wl, "metrics"),
				                           drifting[m]),
				           "samples"),
				       *x;

				json_array_foreach (s, j, x)
					if (json_is_number(x))
						json_array_set_new(
						    s, j,
						    json_real(json_number_value(x) * factor[j]));
			}
			json_array_append_new(json_object_get(doc, "workloads"), wl);
		}
		free(factor);
	}
	for (v = 0; v < n; v++)
		json_decref(tmp[v]);
	free(tmp);
	gsl_rng_free(r);
	return doc;
}
