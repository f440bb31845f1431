/* The environment fingerprint a run records and `vmsuite sysinfo` prints. Reads uname(2),
 * /proc/{cmdline,swaps,meminfo,cpuinfo,self/mountinfo,self/cgroup,asound/cards,pressure},
 * /proc/sys/vm, /sys/kernel/mm/transparent_hugepage, cpufreq, and statfs(2) of the work dir. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/cpulist.h"
#include "core/fsinfo.h"
#include "core/procfs.h"
#include "core/sysinfo.h"
#include "core/util.h"
#include "core/version.h"

#define THP_DIR       "/sys/kernel/mm/transparent_hugepage"
#define VM_SYSCTL_DIR "/proc/sys/vm"
#define LRU_GEN_DIR   "/sys/kernel/mm/lru_gen"
#define ZSWAP_DIR     "/sys/module/zswap/parameters"

/* <root><path>, with root NULL or "/" meaning the real tree. Caller frees. */
static char *at(const char *root, const char *path)
{
	if (!root || !strcmp(root, "/"))
		return vms_xstrdup(path);
	return vms_xasprintf("%s%s", root, path);
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

/* Reads root+path and returns its trimmed content as a new string, or NULL. */
static char *read_trimmed(const char *root, const char *path)
{
	char *p = at(root, path);
	char *text = vms_read_text(p);
	char *out = NULL;

	free(p);
	if (text) {
		out = vms_xstrdup(trim(text));
		free(text);
	}
	return out;
}

static json_t *string_or_null(char *s)
{
	json_t *j = s ? json_string(s) : json_null();

	free(s);
	return j ? j : json_null(); /* json_string() refuses invalid UTF-8 */
}

/* info[key] = {"value": value (stolen, NULL = null), "source": source}. */
static void put(json_t *info, const char *key, json_t *value, const char *source)
{
	json_t *e = json_object();

	json_object_set_new(e, "value", value ? value : json_null());
	json_object_set_new(e, "source", json_string(source));
	json_object_set_new(info, key, e);
}

int vms_sysfs_selection(const char *text, char *buf, size_t len)
{
	const char *open = strchr(text, '['), *close;
	size_t n;

	if (!open)
		return -ENODATA;
	close = strchr(open, ']');
	if (!close || close == open + 1)
		return -ENODATA;
	n = (size_t)(close - open - 1);
	if (n + 1 > len)
		return -ERANGE;
	memcpy(buf, open + 1, n);
	buf[n] = '\0';
	return 0;
}

static int parse_ll(const char *s, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return !*s || *end || errno ? -EINVAL : 0;
}

json_t *vms_swaps_parse(const char *text)
{
	json_t *arr = json_array();
	char *copy = vms_xstrdup(text), *save = NULL, *line;
	int first = 1;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tok[6], *tsave = NULL;
		uint64_t size_kib, used_kib;
		long long prio;
		size_t n = 0;
		json_t *d;

		if (first) {
			first = 0;
			if (!strncmp(line, "Filename", 8))
				continue;
		}
		/* names have their blanks escaped as \040, so fields split on white space */
		for (tok[n] = strtok_r(line, " \t", &tsave); tok[n] && n < 5;
		     tok[n] = strtok_r(NULL, " \t", &tsave))
			n++;
		if (n != 5 || vms_parse_u64(tok[2], NULL, &size_kib) ||
		    vms_parse_u64(tok[3], NULL, &used_kib) || parse_ll(tok[4], &prio) ||
		    size_kib > INT64_MAX / 1024 || used_kib > INT64_MAX / 1024)
			continue;
		d = json_pack("{s:s, s:s, s:I, s:I, s:I}", "name",
		              vms_unescape_octal_inplace(tok[0]), "type", tok[1], "size_bytes",
		              (json_int_t)(size_kib * 1024), "used_bytes",
		              (json_int_t)(used_kib * 1024), "priority", (json_int_t)prio);
		if (d)
			json_array_append_new(arr, d);
	}
	free(copy);
	return arr;
}

static json_t *str_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;

	return j ? j : json_null();
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every readable regular file of the directory dir, name -> trimmed content, sorted by name;
 * NULL when dir cannot be opened. stat_refresh is skipped: reading /proc/sys/vm/stat_refresh
 * makes every CPU fold its vmstat counters. */
static json_t *dir_files(const char *root, const char *dir)
{
	char *dirpath = at(root, dir);
	DIR *d = opendir(dirpath);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	json_t *o;

	if (!d) {
		free(dirpath);
		return NULL;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "stat_refresh"))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = vms_xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = vms_xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	o = json_object();
	for (i = 0; i < n; i++) {
		char *p = vms_xasprintf("%s/%s", dirpath, names[i]);
		struct stat st;
		char *text;

		if (!stat(p, &st) && S_ISREG(st.st_mode) && (text = vms_read_text(p))) {
			json_t *v = json_string(trim(text));

			if (v)
				json_object_set_new(o, names[i], v);
			free(text);
		}
		free(p);
		free(names[i]);
	}
	free(names);
	free(dirpath);
	return o;
}

static json_t *thp_selection(const char *root, const char *file)
{
	char *text = read_trimmed(root, file);
	char sel[64];
	json_t *v = NULL;

	if (text && !vms_sysfs_selection(text, sel, sizeof(sel)))
		v = json_string(sel);
	free(text);
	return v;
}

/* "model name" (x86), "cpu model" (mips), "cpu" (powerpc), "Hardware"/"Processor" (arm), or
 * the arm64 implementer/part pair. NULL when none. Caller frees. */
static char *cpu_model(const char *root)
{
	static const char *const keys[] = {"model name", "cpu model", "cpu",
	                                   "Hardware",   "Processor", "uarch"};
	char *p = at(root, "/proc/cpuinfo");
	char *text = vms_read_text(p);
	char *found[VMS_ARRAY_SIZE(keys)] = {0};
	char *impl = NULL, *part = NULL, *line, *save = NULL, *out = NULL;
	size_t i;

	free(p);
	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':'), *k, *v;

		if (!colon)
			continue;
		*colon = '\0';
		k = trim(line);
		v = trim(colon + 1);
		for (i = 0; i < VMS_ARRAY_SIZE(keys); i++)
			if (!found[i] && !strcmp(k, keys[i]) && *v)
				found[i] = v;
		if (!impl && !strcmp(k, "CPU implementer"))
			impl = v;
		if (!part && !strcmp(k, "CPU part"))
			part = v;
	}
	for (i = 0; i < VMS_ARRAY_SIZE(keys) && !out; i++)
		if (found[i])
			out = vms_xstrdup(found[i]);
	if (!out && impl && part)
		out = vms_xasprintf("implementer %s part %s", impl, part);
	free(text);
	return out;
}

static void put_cpu_count(json_t *info, const char *root)
{
	char *text = read_trimmed(root, "/sys/devices/system/cpu/online");
	long n = text ? vms_cpu_list_count(text) : -1;

	free(text);
	if (n > 0) {
		put(info, "cpu_count", json_integer(n), "/sys/devices/system/cpu/online");
		return;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	put(info, "cpu_count", n > 0 ? json_integer(n) : NULL, "sysconf(_SC_NPROCESSORS_ONLN)");
}

/* {version, path, path_controller, hybrid, lines} from /proc/self/cgroup. version: 0 none,
 * 1 when any v1 hierarchy with controllers is listed, 2 when only the unified one is; path is
 * the v1 memory hierarchy's (else the first v1 one's) on v1, the unified one's on v2. */
static json_t *cgroup_summary(const char *root)
{
	char *text = read_trimmed(root, "/proc/self/cgroup");
	char *line, *save = NULL;
	struct vms_proc_cgroup pc;
	json_t *lines, *o;

	if (!text)
		return NULL;
	vms_proc_cgroup_parse(&pc, text);
	lines = json_array();
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *l = json_string(line);

		if (l)
			json_array_append_new(lines, l);
	}
	o = json_object();
	json_object_set_new(o, "version", json_integer(pc.have_v1 ? 1 : pc.v2_path ? 2 : 0));
	if (pc.have_v1) {
		json_object_set_new(
		    o, "path",
		    str_or_null(pc.v1_memory_path ? pc.v1_memory_path : pc.v1_first_path));
		json_object_set_new(o, "path_controller",
		                    pc.v1_memory_path ? json_string("memory") : json_null());
	} else {
		json_object_set_new(o, "path", str_or_null(pc.v2_path));
		json_object_set_new(o, "path_controller", json_null());
	}
	json_object_set_new(o, "hybrid", json_boolean(pc.have_v1 && pc.v2_path));
	json_object_set_new(o, "lines", lines);
	vms_proc_cgroup_release(&pc);
	free(text);
	return o;
}

static json_t *psi_available(const char *root)
{
	char *p = at(root, "/proc/pressure/memory");
	uint64_t some, full;
	int ok = !vms_psi_read_file(p, &some, &full);

	free(p);
	return json_boolean(ok);
}

const char *const vms_sysinfo_keys[] = {
    "kernel_release", "kernel_version",   "kernel_cmdline",  "hostname",      "architecture",
    "vm_sysctl",      "thp_enabled",      "thp_defrag",      "lru_gen",       "zswap",
    "swap_devices",   "swap_total_bytes", "mem_total_bytes", "page_size",     "cpu_model",
    "cpu_count",      "cpu_governor",     "workdir_fs",      "psi_available", "cgroup",
    "alsa_cards",     "page_reporting",   "virtio_balloon",  "damon_threads", "cpufreq",
    "noise_sources",  "vmsuite_version",  "compiler",        "build_type",    NULL,
};

json_t *vms_sysinfo_collect_at(const char *root, const char *workdir)
{
	json_t *info = json_object();
	struct utsname u;
	struct vms_meminfo mem;
	struct vms_fs_info fs;
	char *p, *wsrc;
	long page;
	int have_uname = !uname(&u), have_mem;

	put(info, "kernel_release", have_uname ? json_string(u.release) : NULL, "uname(2) release");
	put(info, "kernel_version", have_uname ? json_string(u.version) : NULL, "uname(2) version");
	put(info, "kernel_cmdline", string_or_null(read_trimmed(root, "/proc/cmdline")),
	    "/proc/cmdline");
	put(info, "hostname", have_uname ? json_string(u.nodename) : NULL, "uname(2) nodename");
	put(info, "architecture", have_uname ? json_string(u.machine) : NULL, "uname(2) machine");
	put(info, "vm_sysctl", dir_files(root, VM_SYSCTL_DIR), VM_SYSCTL_DIR);
	put(info, "thp_enabled", thp_selection(root, THP_DIR "/enabled"), THP_DIR "/enabled");
	put(info, "thp_defrag", thp_selection(root, THP_DIR "/defrag"), THP_DIR "/defrag");
	put(info, "lru_gen", dir_files(root, LRU_GEN_DIR), LRU_GEN_DIR);
	put(info, "zswap", dir_files(root, ZSWAP_DIR), ZSWAP_DIR);

	p = at(root, "/proc/swaps");
	{
		char *text = vms_read_text(p);

		put(info, "swap_devices", text ? vms_swaps_parse(text) : NULL, "/proc/swaps");
		free(text);
	}
	free(p);

	p = at(root, "/proc/meminfo");
	have_mem = !vms_meminfo_read(&mem, p);
	free(p);
	put(info, "swap_total_bytes", have_mem ? json_integer((json_int_t)mem.swap_total) : NULL,
	    "/proc/meminfo SwapTotal");
	put(info, "mem_total_bytes", have_mem ? json_integer((json_int_t)mem.mem_total) : NULL,
	    "/proc/meminfo MemTotal");

	page = sysconf(_SC_PAGESIZE);
	put(info, "page_size", page > 0 ? json_integer(page) : NULL, "sysconf(_SC_PAGESIZE)");
	put(info, "cpu_model", string_or_null(cpu_model(root)), "/proc/cpuinfo");
	put_cpu_count(info, root);
	put(info, "cpu_governor",
	    string_or_null(
	        read_trimmed(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")),
	    "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");

	wsrc = vms_xasprintf("statfs(2) of '%s', /proc/self/mountinfo", workdir ? workdir : ".");
	if (!vms_fs_info_at(root, workdir ? workdir : ".", &fs)) {
		put(info, "workdir_fs", vms_fs_info_json(&fs), wsrc);
		vms_fs_info_release(&fs);
	} else {
		put(info, "workdir_fs", NULL, wsrc);
	}
	free(wsrc);

	put(info, "psi_available", psi_available(root), "/proc/pressure/memory");
	put(info, "cgroup", cgroup_summary(root), "/proc/self/cgroup");
	put(info, "alsa_cards", string_or_null(read_trimmed(root, "/proc/asound/cards")),
	    "/proc/asound/cards");
	vms_sysinfo_put_noise(info, root);
	put(info, "vmsuite_version", json_string(VMS_VERSION), "core/version.h VMS_VERSION");
	put(info, "compiler", json_string(VMS_C_COMPILER), "core/version.h VMS_C_COMPILER");
	put(info, "build_type", json_string(VMS_BUILD_TYPE), "core/version.h VMS_BUILD_TYPE");
	return info;
}

json_t *vms_sysinfo_collect(const char *workdir)
{
	return vms_sysinfo_collect_at(NULL, workdir);
}

/* ---- text rendering ---- */

struct row {
	char *key, *value, *source;
};

struct rows {
	struct row *v;
	size_t n, cap;
};

/* Takes key and value; all three are stored with control characters escaped (a path or a
 * file's text may hold any byte). */
static void add_row(struct rows *r, char *key, char *value, const char *source)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 128;
		r->v = vms_xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	r->v[r->n].key = vms_text_escape(key);
	r->v[r->n].value = vms_text_escape(value);
	r->v[r->n].source = vms_text_escape(source);
	r->n++;
	free(key);
	free(value);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Adds a string value, one row per line, tabs shown as spaces. */
static void add_text(struct rows *r, const char *key, const char *text, const char *source)
{
	char *copy = vms_xstrdup(*text ? text : "\"\""), *line, *c;
	int first = 1;

	for (c = copy; *c; c++)
		if (*c == '\t')
			*c = ' ';
	line = copy;
	for (;;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		add_row(r, vms_xstrdup(first ? key : ""), vms_xstrdup(line), first ? source : "");
		first = 0;
		if (!nl)
			break;
		line = nl + 1;
	}
	free(copy);
}

static void flatten(struct rows *r, const char *key, const json_t *v, const char *source)
{
	char buf[64];

	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *k;
		json_t *sub;

		if (!json_object_size(v))
			add_row(r, vms_xstrdup(key), vms_xstrdup("(none)"), source);
		json_object_foreach ((json_t *)v, k, sub) {
			char *sk = vms_xasprintf("%s.%s", key, k);

			flatten(r, sk, sub, source);
			free(sk);
		}
		break;
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *sub;

		if (!json_array_size(v))
			add_row(r, vms_xstrdup(key), vms_xstrdup("(none)"), source);
		json_array_foreach (v, i, sub) {
			char *sk = vms_xasprintf("%s[%zu]", key, i);

			flatten(r, sk, sub, source);
			free(sk);
		}
		break;
	}
	case JSON_STRING: add_text(r, key, json_string_value(v), source); break;
	case JSON_INTEGER:
		if (ends_with(key, "_bytes") && json_integer_value(v) >= 0)
			add_row(r, vms_xstrdup(key),
			        vms_xasprintf("%" JSON_INTEGER_FORMAT " (%s)",
			                      json_integer_value(v),
			                      vms_format_size((uint64_t)json_integer_value(v), buf,
			                                      sizeof(buf))),
			        source);
		else
			add_row(r, vms_xstrdup(key),
			        vms_xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(v)),
			        source);
		break;
	case JSON_REAL:
		add_row(r, vms_xstrdup(key), vms_xasprintf("%g", json_real_value(v)), source);
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		add_row(r, vms_xstrdup(key), vms_xstrdup(json_is_true(v) ? "yes" : "no"), source);
		break;
	case JSON_NULL: add_row(r, vms_xstrdup(key), vms_xstrdup("(none)"), source); break;
	}
}

#define TEXT_VALUE_WIDTH 40

int vms_sysinfo_write_text(FILE *f, const json_t *info)
{
	struct rows r = {0};
	const char *key;
	json_t *entry;
	size_t kw = 0, vw = 0, i, first;

	json_object_foreach ((json_t *)info, key, entry) {
		const json_t *value = json_object_get(entry, "value");
		const char *source = json_string_value(json_object_get(entry, "source"));

		if (!value)
			value = entry;
		if (!strcmp(key, "noise_sources"))
			continue; /* a section of its own, after the facts */
		if (!strcmp(key, "vm_sysctl") && json_is_object(value) && json_object_size(value)) {
			const char *name;
			json_t *sv;

			json_object_foreach ((json_t *)value, name, sv) {
				char *k = vms_xasprintf("vm.%s", name);
				char *src = vms_xasprintf("%s/%s", source ? source : "", name);

				flatten(&r, k, sv, src);
				free(k);
				free(src);
			}
			continue;
		}
		first = r.n;
		flatten(&r, key, value, source);
		for (i = first + 1; i < r.n; i++)
			r.v[i].source[0] = '\0'; /* the source is shown once per entry */
	}
	for (i = 0; i < r.n; i++) {
		size_t k = strlen(r.v[i].key), v = strlen(r.v[i].value);

		kw = k > kw ? k : kw;
		if (v <= TEXT_VALUE_WIDTH && v > vw)
			vw = v;
	}
	for (i = 0; i < r.n; i++) {
		if (*r.v[i].source)
			fprintf(f, "%-*s  %-*s  %s\n", (int)kw, r.v[i].key, (int)vw, r.v[i].value,
			        r.v[i].source);
		else
			fprintf(f, "%-*s  %s\n", (int)kw, r.v[i].key, r.v[i].value);
		free(r.v[i].key);
		free(r.v[i].value);
		free(r.v[i].source);
	}
	free(r.v);
	vms_sysinfo_write_noise(f, info);
	return ferror(f) ? -EIO : 0;
}
