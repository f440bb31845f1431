/* The fingerprint's noise sources: what can move a VM benchmark's figures from run to run on
 * this machine besides the kernel under test — free page reporting and a virtio balloon
 * (/sys/module/page_reporting, /sys/bus/virtio), DAMON threads (kdamond), CPU frequency policy
 * (/sys/devices/system/cpu/cpufreq) — each with what to do about it. */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/sysinfo.h"
#include "core/util.h"

#define PR_DIR      "/sys/module/page_reporting/parameters"
#define BALLOON_DIR "/sys/bus/virtio/drivers/virtio_balloon"
#define CPUFREQ_DIR "/sys/devices/system/cpu/cpufreq"
/* virtio-balloon feature bits (the virtio specification, 5.5.3) */
#define BALLOON_F_DEFLATE_ON_OOM 2
#define BALLOON_F_FREE_PAGE_HINT 3
#define BALLOON_F_REPORTING      5

static char *path_at(const char *root, const char *path)
{
	if (!root || !strcmp(root, "/"))
		return vms_xstrdup(path);
	return vms_xasprintf("%s%s", root, path);
}

/* The trimmed content of root+path, or NULL. Caller frees. */
static char *read_at(const char *root, const char *path)
{
	char *p = path_at(root, path), *text = vms_read_text(p), *s, *end;

	free(p);
	if (!text)
		return NULL;
	for (s = text; isspace((unsigned char)*s); s++)
		;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	memmove(text, s, strlen(s) + 1);
	return text;
}

static void put(json_t *info, const char *key, json_t *value, const char *source)
{
	json_t *e = json_object();

	json_object_set_new(e, "value", value ? value : json_null());
	json_object_set_new(e, "source", json_string(source));
	json_object_set_new(info, key, e);
}

/* The words of the kernel command line starting with prefix, as an array. */
static json_t *cmdline_words(const char *cmdline, const char *prefix)
{
	json_t *out = json_array();
	const char *p = cmdline;
	size_t plen = strlen(prefix);

	while (p && *p) {
		size_t n;

		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (n >= plen && !strncmp(p, prefix, plen)) {
			char *w = vms_xasprintf("%.*s", (int)n, p);

			json_array_append_new(out, json_string(w));
			free(w);
		}
		p += n;
		if (!strcmp(p, "--") || !strncmp(p, " -- ", 4))
			break; /* what follows "--" goes to init, not to the kernel */
	}
	return out;
}

/* {"order": N or null, "cmdline": [...]}, or NULL when the kernel has no page reporting. */
static json_t *page_reporting(const char *root, const char *cmdline)
{
	char *order = read_at(root, PR_DIR "/page_reporting_order");
	char *dir = path_at(root, "/sys/module/page_reporting");
	json_t *words = cmdline_words(cmdline, "page_reporting.");
	DIR *d = opendir(dir);
	json_t *out = NULL;

	if (d || json_array_size(words)) {
		long long v;
		char *end;

		v = order ? strtoll(order, &end, 10) : 0;
		out = json_pack("{s:o, s:O}", "order",
		                order && end != order && !*end ? json_integer(v) : json_null(),
		                "cmdline", words);
	}
	if (d)
		closedir(d);
	json_decref(words);
	free(order);
	free(dir);
	return out;
}

/* 1 when bit `bit` of a virtio features file ("0110...") is set. */
static int feature(const char *features, unsigned bit)
{
	return features && strlen(features) > bit && features[bit] == '1';
}

/* {"devices": [...], "free_page_reporting", "free_page_hinting", "deflate_on_oom"}, or NULL
 * when no device is bound to the virtio_balloon driver. */
static json_t *virtio_balloon(const char *root)
{
	char *dir = path_at(root, BALLOON_DIR);
	DIR *d = opendir(dir);
	json_t *devs = json_array(), *out = NULL;
	int reporting = 0, hinting = 0, deflate = 0;
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *rel, *features;

		if (strncmp(de->d_name, "virtio", 6) || !isdigit((unsigned char)de->d_name[6]))
			continue;
		json_array_append_new(devs, json_string(de->d_name));
		rel = vms_xasprintf("/sys/bus/virtio/devices/%s/features", de->d_name);
		features = read_at(root, rel);
		reporting |= feature(features, BALLOON_F_REPORTING);
		hinting |= feature(features, BALLOON_F_FREE_PAGE_HINT);
		deflate |= feature(features, BALLOON_F_DEFLATE_ON_OOM);
		free(features);
		free(rel);
	}
	if (d)
		closedir(d);
	free(dir);
	if (json_array_size(devs))
		out = json_pack("{s:O, s:b, s:b, s:b}", "devices", devs, "free_page_reporting",
		                reporting, "free_page_hinting", hinting, "deflate_on_oom", deflate);
	json_decref(devs);
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of the DAMON worker threads (kdamond.N), sorted; [] when there are none. */
static json_t *damon_threads(const char *root)
{
	char *dir = path_at(root, "/proc");
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *de;
	json_t *out;

	free(dir);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char *rel, *comm;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		rel = vms_xasprintf("/proc/%s/comm", de->d_name);
		comm = read_at(root, rel);
		free(rel);
		if (comm && !strncmp(comm, "kdamond", 7)) {
			names = vms_xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = comm;
		} else {
			free(comm);
		}
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	out = json_array();
	for (i = 0; i < n; i++) {
		json_array_append_new(out, json_string(names[i]));
		free(names[i]);
	}
	free(names);
	return out;
}

static json_t *str_or_null(char *s)
{
	json_t *j = s ? json_string(s) : NULL;

	free(s);
	return j ? j : json_null();
}

static json_t *int_or_null(char *s)
{
	char *end;
	long long v = s ? strtoll(s, &end, 10) : 0;
	json_t *j = s && end != s && !*end ? json_integer(v) : json_null();

	free(s);
	return j;
}

/* {"boost": bool or null, "policies": [{name, cpus, driver, governor, min_khz, max_khz,
 * energy_performance_preference}]}, or NULL without a cpufreq policy (most VMs). */
static json_t *cpufreq(const char *root)
{
	char *dir = path_at(root, CPUFREQ_DIR), *boost;
	DIR *d = opendir(dir);
	json_t *pol = json_array(), *out;
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *de;

	free(dir);
	if (!d) {
		json_decref(pol);
		return NULL;
	}
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "policy", 6)) {
			names = vms_xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = vms_xstrdup(de->d_name);
		}
	closedir(d);
	if (!n) { /* the directory without a driver: nothing to describe */
		json_decref(pol);
		return NULL;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		char *p = vms_xasprintf(CPUFREQ_DIR "/%s/", names[i]), *f;
		json_t *o = json_pack("{s:s}", "name", names[i]);
		static const struct {
			const char *key, *file;
			int num;
		} files[] = {
		    {"cpus", "affected_cpus", 0},
		    {"driver", "scaling_driver", 0},
		    {"governor", "scaling_governor", 0},
		    {"min_khz", "scaling_min_freq", 1},
		    {"max_khz", "scaling_max_freq", 1},
		    {"energy_performance_preference", "energy_performance_preference", 0},
		};
		size_t k;

		for (k = 0; k < VMS_ARRAY_SIZE(files); k++) {
			f = vms_xasprintf("%s%s", p, files[k].file);
			json_object_set_new(o, files[k].key,
			                    files[k].num ? int_or_null(read_at(root, f))
			                                 : str_or_null(read_at(root, f)));
			free(f);
		}
		json_array_append_new(pol, o);
		free(p);
		free(names[i]);
	}
	free(names);
	boost = read_at(root, CPUFREQ_DIR "/boost");
	out = json_pack("{s:o, s:o}", "boost",
	                boost ? json_boolean(!strcmp(boost, "1")) : json_null(), "policies", pol);
	free(boost);
	return out;
}

static void noise(json_t *list, const char *source, const char *found, const char *advice)
{
	json_array_append_new(
	    list, json_pack("{s:s, s:s, s:s}", "source", source, "found", found, "advice", advice));
}

static const json_t *value_of(const json_t *info, const char *key)
{
	return json_object_get(json_object_get(info, key), "value");
}

/* The noise sources found among the facts of info, each with what to do about it. */
static json_t *noise_sources(const json_t *info)
{
	const json_t *pr = value_of(info, "page_reporting"), *vb = value_of(info, "virtio_balloon");
	const json_t *dt = value_of(info, "damon_threads"), *cf = value_of(info, "cpufreq");
	const char *thp = json_string_value(value_of(info, "thp_enabled"));
	json_t *list = json_array(), *p;
	char found[512];
	size_t i;

	if (json_is_true(json_object_get(vb, "free_page_reporting")) ||
	    json_array_size(json_object_get(pr, "cmdline"))) {
		char order[32] = "unknown";

		if (json_is_integer(json_object_get(pr, "order")))
			snprintf(order, sizeof(order), "%lld",
			         (long long)json_integer_value(json_object_get(pr, "order")));
		snprintf(
		    found, sizeof(found),
		    "freed memory goes back to the hypervisor (page_reporting order %s%s%s)", order,
		    json_is_true(json_object_get(vb, "free_page_reporting"))
		        ? ", a virtio balloon reports free pages"
		        : "",
		    json_array_size(json_object_get(pr, "cmdline")) ? ", set on the command line"
		                                                    : "");
		noise(
		    list, "free page reporting", found,
		    "memory freed between runs (drop_caches, a workload's exit) is handed back and "
		    "faulted in from the host again: compare only runs from the same kind of VM, "
		    "or turn free page reporting off in the VM's configuration (QEMU: "
		    "virtio-balloon free-page-reporting=off)");
	}
	if (vb && !json_is_null(vb)) {
		snprintf(found, sizeof(found), "virtio_balloon bound to %zu device(s)%s",
		         json_array_size(json_object_get(vb, "devices")),
		         json_is_true(json_object_get(vb, "deflate_on_oom")) ? ", deflate on OOM"
		                                                             : "");
		noise(list, "memory balloon", found,
		      "the host can take memory back while a run is under way: keep the balloon's "
		      "target fixed during runs, and watch MemTotal and the run's free memory");
	}
	if (json_array_size(dt)) {
		snprintf(found, sizeof(found), "%zu DAMON thread(s): ", json_array_size(dt));
		json_array_foreach ((json_t *)dt, i, p) {
			size_t off = strlen(found);

			snprintf(found + off, sizeof(found) - off, "%s%s", i ? ", " : "",
			         json_string_value(p));
		}
		noise(
		    list, "DAMON", found,
		    "DAMON samples page accesses and may reclaim or reorder LRU lists "
		    "(damon_reclaim, "
		    "damon_lru_sort) during the runs; its CPU time counts as kthread_cpu_pct. Stop "
		    "it for the runs (echo off > /sys/kernel/mm/damon/admin/kdamonds/N/state, or "
		    "the module's enabled=N) or keep it the same on both sides of a comparison");
	}
	if (json_is_object(cf)) {
		json_array_foreach (json_object_get(cf, "policies"), i, p) {
			const char *g = json_string_value(json_object_get(p, "governor"));

			if (g && strcmp(g, "performance")) {
				snprintf(found, sizeof(found), "%s: governor %s",
				         json_string_value(json_object_get(p, "name")), g);
				noise(list, "CPU frequency", found,
				      "the clock follows the load, so elapsed times move with it: "
				      "cpupower frequency-set -g performance for the runs");
			}
		}
		if (json_is_true(json_object_get(cf, "boost"))) {
			noise(list, "CPU boost", "turbo/boost is on",
			      "boost clocks depend on temperature and the other cores' load: echo "
			      "0 > "
			      "/sys/devices/system/cpu/cpufreq/boost for the runs");
		}
	}
	if (thp && !strcmp(thp, "always")) {
		noise(
		    list, "transparent huge pages", "enabled=always",
		    "huge page faults and khugepaged change fault counts and times from run to "
		    "run: vmsuite run --thp off (4 KiB pages, as in 2001) or keep THP the same on "
		    "both sides");
	}
	return list;
}

void vms_sysinfo_put_noise(json_t *info, const char *root)
{
	const char *cmdline = json_string_value(value_of(info, "kernel_cmdline"));

	put(info, "page_reporting", page_reporting(root, cmdline),
	    PR_DIR "/page_reporting_order, /proc/cmdline page_reporting.*");
	put(info, "virtio_balloon", virtio_balloon(root),
	    BALLOON_DIR ", /sys/bus/virtio/devices/*/features");
	put(info, "damon_threads", damon_threads(root), "/proc/*/comm (kdamond.*)");
	put(info, "cpufreq", cpufreq(root), CPUFREQ_DIR "/policy*, " CPUFREQ_DIR "/boost");
	put(info, "noise_sources", noise_sources(info),
	    "vmsuite's reading of page_reporting, virtio_balloon, damon_threads, cpufreq and "
	    "thp_enabled");
}

int vms_sysinfo_write_noise(FILE *f, const json_t *info)
{
	const json_t *list = value_of(info, "noise_sources"), *n;
	size_t i;

	if (!json_is_array(list))
		return ferror(f) ? -1 : 0;
	fputs("\nnoise sources", f);
	if (!json_array_size(list))
		fputs(": none found\n", f);
	else
		fputs(" (what else can move the figures from run to run, and what to do):\n", f);
	json_array_foreach ((json_t *)list, i, n) {
		fprintf(f, "- %s: %s\n  %s\n", json_string_value(json_object_get(n, "source")),
		        json_string_value(json_object_get(n, "found")),
		        json_string_value(json_object_get(n, "advice")));
	}
	return ferror(f) ? -1 : 0;
}
