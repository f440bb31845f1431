/* Memory cgroups v1 and v2 for the emulated machine: detection from /proc/self/{cgroup,mountinfo},
 * a child cgroup with memory/swap limits, joining, per-run statistics (peak, failcnt/events, OOM
 * kills, memory.stat, PSI) and removal. Exercises the memcg charge, limit and reclaim paths. */
#include "core/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/procfs.h"
#include "core/util.h"

/* v1 reports "unlimited" as the largest page-aligned signed 64-bit value. */
#define V1_UNLIMITED_MIN (UINT64_C(1) << 62)
/* A peak this close to the limit means the limit was reached (per-cpu charge batches keep
 * usage a few hundred KiB below it). */
#define MARGIN_MIN (UINT64_C(1) << 20)

const char *vms_cgroup_version_name(enum vms_cgroup_version v)
{
	switch (v) {
	case VMS_CGROUP_V1: return "v1";
	case VMS_CGROUP_V2: return "v2";
	default: return "none";
	}
}

static int pjoin(char *buf, size_t len, const char *a, const char *b)
{
	int n = snprintf(buf, len, "%s%s%s", a, (*b && *b != '/') ? "/" : "", b);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* cg->dir + "/" + file into buf. */
static int cgfile(char *buf, size_t len, const char *dir, const char *file)
{
	return pjoin(buf, len, dir, file);
}

static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Reads a one-number file; v1's "unlimited" (~2^63) reads as VMS_CGROUP_UNLIMITED. */
static int read_num(const char *path, uint64_t *out)
{
	int ret = vms_read_u64(path, out);

	if (ret)
		return ret;
	if (*out >= V1_UNLIMITED_MIN)
		*out = VMS_CGROUP_UNLIMITED;
	return 0;
}

static int read_num_in(const char *dir, const char *file, uint64_t *out)
{
	char path[PATH_MAX];
	int ret = cgfile(path, sizeof(path), dir, file);

	return ret ? ret : read_num(path, out);
}

static int write_in(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	int ret = cgfile(path, sizeof(path), dir, file);

	return ret ? ret : vms_write_text(path, text);
}

static int exists_in(const char *dir, const char *file)
{
	char path[PATH_MAX];

	return !cgfile(path, sizeof(path), dir, file) && exists(path);
}

/* The value of `key` in a "key value" per line text, or -ENOENT. */
static int kv_get(const char *text, const char *key, uint64_t *out)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ' ') {
			const char *end;
			int ret = vms_parse_u64(p + klen + 1, &end, out);

			return ret || (*end && *end != '\n') ? -EINVAL : 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}

/* Whether the space- or comma-separated list contains word. */
static int has_word(const char *list, const char *word, const char *seps)
{
	size_t wlen = strlen(word);
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, seps);

		if (n == wlen && !strncmp(p, word, wlen))
			return 1;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

struct mnt {
	int found;
	char root[PATH_MAX];  /* the mount's root inside the hierarchy */
	char point[PATH_MAX]; /* where it is mounted */
};

/* Finds the first cgroup2 mount and the first v1 mount with the memory controller. */
static void scan_mountinfo(const char *path, struct mnt *v1, struct mnt *v2)
{
	struct vms_mountinfo mi;
	const struct vms_mountinfo_entry *e;

	if (vms_mountinfo_open(&mi, path))
		return;
	while ((e = vms_mountinfo_next(&mi))) {
		struct mnt *m = NULL;

		if (!strcmp(e->fstype, "cgroup2") && !v2->found)
			m = v2;
		else if (!strcmp(e->fstype, "cgroup") && !v1->found &&
		         has_word(e->super_options, "memory", ","))
			m = v1;
		if (m) {
			snprintf(m->root, sizeof(m->root), "%s", e->root);
			snprintf(m->point, sizeof(m->point), "%s", e->mount_point);
			m->found = 1;
		}
	}
	vms_mountinfo_release(&mi);
}

/* root + mount point + (cgroup path relative to the mount's root). */
static int map_dir(char *out, size_t len, const char *root, const struct mnt *m, const char *cgpath)
{
	const char *rel = cgpath;
	size_t rl = strlen(m->root);
	int n;

	if (strcmp(m->root, "/") && !strncmp(cgpath, m->root, rl) &&
	    (cgpath[rl] == '/' || cgpath[rl] == '\0'))
		rel = cgpath + rl;
	if (!strcmp(rel, "/"))
		rel = "";
	n = snprintf(out, len, "%s%s%s", root, m->point, rel);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* <root><path> into buf. 0 or -ENAMETOOLONG. */
static int rooted(char *buf, size_t len, const char *root, const char *path)
{
	int n = snprintf(buf, len, "%s%s", root, path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Whether the memory controller is listed in dir/<file> (cgroup.controllers etc.). */
static int lists_memory(const char *dir, const char *file)
{
	char path[PATH_MAX], buf[512];

	if (cgfile(path, sizeof(path), dir, file) || vms_read_small(path, buf, sizeof(buf)) < 0)
		return 0;
	return has_word(buf, "memory", " \n");
}

static void set_why(struct vms_cgroup_info *info, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_why(struct vms_cgroup_info *info, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(info->why, sizeof(info->why), fmt, ap);
	va_end(ap);
}

static void detect_v1(struct vms_cgroup_info *info)
{
	info->swap_accounting = exists_in(info->self_dir, "memory.memsw.limit_in_bytes");
	if (!exists_in(info->self_dir, "memory.limit_in_bytes")) {
		set_why(info,
		        "the cgroup v1 memory directory '%s' has no memory.limit_in_bytes "
		        "(is the memory hierarchy mounted?)",
		        info->self_dir);
		return;
	}
	if (access(info->self_dir, W_OK)) {
		set_why(info,
		        "cannot create a memory cgroup under '%s': %s; run as root (or give your "
		        "user write access to that directory)",
		        info->self_dir, strerror(errno));
		return;
	}
	info->writable = 1;
}

static void detect_v2(struct vms_cgroup_info *info)
{
	int is_root = !strcmp(info->self_path, "/") || !info->self_path[0];

	info->pressure = exists_in(info->self_dir, "memory.pressure");
	info->swap_accounting = is_root ? 1 : exists_in(info->self_dir, "memory.swap.max");
	if (!lists_memory(info->self_dir, "cgroup.subtree_control")) {
		if (!is_root) {
			set_why(
			    info,
			    "the memory controller is not enabled for children of '%s': "
			    "echo +memory > %s/cgroup.subtree_control (the kernel refuses while "
			    "that cgroup holds processes itself: start vmsuite from a cgroup "
			    "that delegates memory, e.g. a systemd unit with Delegate=yes)",
			    info->self_dir, info->self_dir);
			return;
		}
		info->v2_enable_memory = 1;
	}
	if (access(info->self_dir, W_OK)) {
		set_why(info,
		        "cannot create a memory cgroup under '%s': %s; run as root (or from a "
		        "cgroup delegated to your user, e.g. systemd-run --user --scope -p "
		        "Delegate=yes)",
		        info->self_dir, strerror(errno));
		info->v2_enable_memory = 0;
		return;
	}
	info->writable = 1;
}

int vms_cgroup_detect(struct vms_cgroup_info *info, const char *root)
{
	char path[PATH_MAX], v2dir[PATH_MAX] = "";
	struct mnt *m1 = vms_xcalloc(1, sizeof(*m1)), *m2 = vms_xcalloc(1, sizeof(*m2));
	struct vms_proc_cgroup self = {0};
	const char *v1path, *v2path;
	int ret = 0;

	memset(info, 0, sizeof(*info));
	if (!root)
		root = "";
	snprintf(info->root, sizeof(info->root), "%s", root);
	ret = rooted(path, sizeof(path), root, "/proc/self/cgroup");
	if (!ret)
		ret = vms_proc_cgroup_read(&self, path);
	if (ret) {
		set_why(info, "cannot read /proc/self/cgroup: %s", strerror(-ret));
		goto out;
	}
	v1path = self.v1_memory_path ? self.v1_memory_path : "";
	v2path = self.v2_path ? self.v2_path : "";
	if (!rooted(path, sizeof(path), root, "/proc/self/mountinfo"))
		scan_mountinfo(path, m1, m2);

	if (m2->found && v2path[0] && !map_dir(v2dir, sizeof(v2dir), root, m2, v2path) &&
	    lists_memory(v2dir, "cgroup.controllers")) {
		info->version = VMS_CGROUP_V2;
		snprintf(info->mount, sizeof(info->mount), "%s%s", root, m2->point);
		snprintf(info->self_path, sizeof(info->self_path), "%s", v2path);
		snprintf(info->self_dir, sizeof(info->self_dir), "%s", v2dir);
		detect_v2(info);
	} else if (m1->found && v1path[0] &&
	           !map_dir(info->self_dir, sizeof(info->self_dir), root, m1, v1path)) {
		info->version = VMS_CGROUP_V1;
		snprintf(info->mount, sizeof(info->mount), "%s%s", root, m1->point);
		snprintf(info->self_path, sizeof(info->self_path), "%s", v1path);
		detect_v1(info);
	} else if (m2->found && v2path[0]) {
		set_why(info,
		        "the memory controller is not available to '%s' (cgroup2 at '%s%s' lists "
		        "no memory in cgroup.controllers, and no cgroup v1 memory hierarchy is "
		        "mounted): enable it in the parent's cgroup.subtree_control",
		        v2dir[0] ? v2dir : v2path, root, m2->point);
	} else {
		set_why(info,
		        "no memory cgroup hierarchy is mounted (mount cgroup2 on /sys/fs/cgroup, "
		        "or the v1 memory controller)");
	}
out:
	vms_proc_cgroup_release(&self);
	free(m1);
	free(m2);
	return ret;
}

/* ---- create / join / destroy ---- */

static int do_mkdir(const struct vms_cgroup_fs_ops *ops, const char *path,
                    enum vms_cgroup_version v)
{
	if (ops && ops->mkdir)
		return ops->mkdir(path, v, ops->arg);
	return mkdir(path, 0755) ? -errno : 0;
}

static int do_rmdir(const struct vms_cgroup_fs_ops *ops, const char *path)
{
	if (ops && ops->rmdir)
		return ops->rmdir(path, ops->arg);
	return rmdir(path) ? -errno : 0;
}

static int procs_file(char *buf, size_t len, const char *dir)
{
	int ret = cgfile(buf, len, dir, "cgroup.procs");

	if (!ret && !exists(buf))
		ret = cgfile(buf, len, dir, "tasks");
	return ret;
}

/* Number of pids listed in a cgroup's procs file, or -errno. */
static int count_tasks(const char *dir)
{
	char path[PATH_MAX], buf[256];
	ssize_t n;

	if (procs_file(path, sizeof(path), dir))
		return -ENAMETOOLONG;
	n = vms_read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return (int)strspn(buf, " \n\t") == n ? 0 : 1;
}

/* Removes "vmsuite-<pid>" children of dir left by a vmsuite that died without cleaning up. */
static void reap_stale(const char *dir, const struct vms_cgroup_fs_ops *ops)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[PATH_MAX], *end;
		long pid;

		if (strncmp(e->d_name, "vmsuite-", 8))
			continue;
		pid = strtol(e->d_name + 8, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid())
			continue;
		if (!kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		if (pjoin(path, sizeof(path), dir, e->d_name) || count_tasks(path) != 0)
			continue;
		if (!do_rmdir(ops, path))
			vms_note("removed the stale cgroup '%s' of a vmsuite that is gone", path);
	}
	closedir(d);
}

static const char *num_text(uint64_t v, char *buf, size_t len)
{
	if (v == VMS_CGROUP_UNLIMITED)
		snprintf(buf, len, "-1");
	else
		snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static int set_limits_v1(struct vms_cgroup *cg, uint64_t mem, uint64_t swap)
{
	char a[32], b[32];
	uint64_t memsw = VMS_CGROUP_UNLIMITED, cur_memsw = VMS_CGROUP_UNLIMITED;
	int ret;

	if (mem != VMS_CGROUP_UNLIMITED && swap != VMS_CGROUP_UNLIMITED)
		memsw = mem > UINT64_MAX - swap ? VMS_CGROUP_UNLIMITED : mem + swap;
	if (!cg->swap_accounting) {
		ret = write_in(cg->dir, "memory.limit_in_bytes", num_text(mem, a, sizeof(a)));
		if (ret)
			return vms_error_ret(ret, "cannot set '%s/memory.limit_in_bytes': %s",
			                     cg->dir, strerror(-ret));
		return 0;
	}
	/* memsw.limit may never drop below limit_in_bytes: lower mem first, raise memsw first */
	read_num_in(cg->dir, "memory.memsw.limit_in_bytes", &cur_memsw);
	if (mem == VMS_CGROUP_UNLIMITED || (cur_memsw != VMS_CGROUP_UNLIMITED && mem > cur_memsw)) {
		ret =
		    write_in(cg->dir, "memory.memsw.limit_in_bytes", num_text(memsw, b, sizeof(b)));
		if (ret)
			return vms_error_ret(
			    ret, "cannot set '%s/memory.memsw.limit_in_bytes' to %s: %s", cg->dir,
			    b, strerror(-ret));
		ret = write_in(cg->dir, "memory.limit_in_bytes", num_text(mem, a, sizeof(a)));
		if (ret)
			return vms_error_ret(ret, "cannot set '%s/memory.limit_in_bytes' to %s: %s",
			                     cg->dir, a, strerror(-ret));
		return 0;
	}
	ret = write_in(cg->dir, "memory.limit_in_bytes", num_text(mem, a, sizeof(a)));
	if (ret)
		return vms_error_ret(ret, "cannot set '%s/memory.limit_in_bytes' to %s: %s",
		                     cg->dir, a, strerror(-ret));
	ret = write_in(cg->dir, "memory.memsw.limit_in_bytes", num_text(memsw, b, sizeof(b)));
	if (ret)
		return vms_error_ret(ret, "cannot set '%s/memory.memsw.limit_in_bytes' to %s: %s",
		                     cg->dir, b, strerror(-ret));
	return 0;
}

static int set_limits_v2(struct vms_cgroup *cg, uint64_t mem, uint64_t swap)
{
	char a[32];
	int ret;

	ret = write_in(cg->dir, "memory.max",
	               mem == VMS_CGROUP_UNLIMITED ? "max" : num_text(mem, a, sizeof(a)));
	if (ret)
		return vms_error_ret(ret, "cannot set '%s/memory.max': %s", cg->dir,
		                     strerror(-ret));
	if (!cg->swap_accounting)
		return 0;
	ret = write_in(cg->dir, "memory.swap.max",
	               swap == VMS_CGROUP_UNLIMITED ? "max" : num_text(swap, a, sizeof(a)));
	if (ret)
		return vms_error_ret(ret, "cannot set '%s/memory.swap.max': %s", cg->dir,
		                     strerror(-ret));
	return 0;
}

static void read_back(struct vms_cgroup *cg)
{
	uint64_t v;

	cg->mem_limit = cg->swap_limit = VMS_CGROUP_UNLIMITED;
	if (cg->version == VMS_CGROUP_V1) {
		if (!read_num_in(cg->dir, "memory.limit_in_bytes", &v))
			cg->mem_limit = v;
		if (cg->swap_accounting &&
		    !read_num_in(cg->dir, "memory.memsw.limit_in_bytes", &v) &&
		    v != VMS_CGROUP_UNLIMITED && cg->mem_limit != VMS_CGROUP_UNLIMITED)
			cg->swap_limit = v >= cg->mem_limit ? v - cg->mem_limit : 0;
	} else {
		if (!read_num_in(cg->dir, "memory.max", &v))
			cg->mem_limit = v;
		if (cg->swap_accounting && !read_num_in(cg->dir, "memory.swap.max", &v))
			cg->swap_limit = v;
	}
}

static uint64_t host_swap(const char *root)
{
	struct vms_meminfo mi;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	return vms_meminfo_read(&mi, path) ? 0 : mi.swap_total;
}

int vms_cgroup_create(struct vms_cgroup *cg, const struct vms_cgroup_info *info, const char *name,
                      uint64_t mem_limit, uint64_t swap_limit, const struct vms_cgroup_fs_ops *ops)
{
	char defname[64], path[PATH_MAX];
	int ret;

	memset(cg, 0, sizeof(*cg));
	cg->usage_fd = cg->peak_fd = -1;
	cg->swappiness = -1;
	snprintf(cg->root, sizeof(cg->root), "%s", info->root);
	cg->ops = ops;
	if (info->version == VMS_CGROUP_NONE || !info->writable)
		return vms_error_ret(-ENOTSUP, "cannot create a memory cgroup: %s",
		                     info->why[0] ? info->why : "no memory cgroup here");
	if (!name) {
		snprintf(defname, sizeof(defname), "vmsuite-%ld", (long)getpid());
		name = defname;
	}
	cg->version = info->version;
	cg->mem_requested = mem_limit;
	cg->swap_requested = swap_limit;
	snprintf(cg->parent, sizeof(cg->parent), "%s", info->self_dir);
	if (pjoin(cg->dir, sizeof(cg->dir), info->self_dir, name) ||
	    procs_file(cg->procs, sizeof(cg->procs), cg->dir))
		return vms_error_ret(-ENAMETOOLONG, "cgroup path under '%s' too long",
		                     info->self_dir);
	reap_stale(info->self_dir, ops);

	if (info->v2_enable_memory) {
		ret = write_in(info->self_dir, "cgroup.subtree_control", "+memory");
		if (ret)
			return vms_error_ret(ret,
			                     "cannot enable the memory controller in '%s/"
			                     "cgroup.subtree_control': %s",
			                     info->self_dir, strerror(-ret));
	}
	ret = do_mkdir(ops, cg->dir, cg->version);
	if (ret)
		return vms_error_ret(ret, "cannot create the cgroup '%s': %s%s", cg->dir,
		                     strerror(-ret),
		                     ret == -EACCES || ret == -EPERM ? " (run as root)" : "");
	cg->created = 1;
	/* the procs file name is known only now (v1 may have only "tasks") */
	procs_file(cg->procs, sizeof(cg->procs), cg->dir);

	if (cg->version == VMS_CGROUP_V1) {
		cg->swap_accounting = exists_in(cg->dir, "memory.memsw.limit_in_bytes");
		ret = set_limits_v1(cg, mem_limit, swap_limit);
	} else {
		cg->swap_accounting = exists_in(cg->dir, "memory.swap.max");
		cg->pressure = exists_in(cg->dir, "memory.pressure");
		ret = set_limits_v2(cg, mem_limit, swap_limit);
	}
	if (ret)
		goto out_rmdir;
	read_back(cg);
	cg->host_swap_total = host_swap(info->root);

	if (!cgfile(path, sizeof(path), cg->dir,
	            cg->version == VMS_CGROUP_V1 ? "memory.usage_in_bytes" : "memory.current"))
		cg->usage_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (cg->version == VMS_CGROUP_V1) {
		cg->peak_per_run = 1;
	} else if (!cgfile(path, sizeof(path), cg->dir, "memory.peak")) {
		/* ≥ 6.12: a write resets the peak seen through this descriptor */
		cg->peak_fd = open(path, O_RDWR | O_CLOEXEC);
		if (cg->peak_fd >= 0)
			cg->peak_per_run = 1;
		else
			cg->peak_fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	return 0;

out_rmdir:
	vms_cgroup_destroy(cg, 0);
	return ret;
}

int vms_cgroup_join(const struct vms_cgroup *cg, pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", (long)pid);
	return vms_write_text(cg->procs, buf);
}

int vms_cgroup_join_self(const char *procs_path)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long v = (unsigned long)getpid();

	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return vms_write_text(procs_path, p);
}

/* Moves (or kills) every task of cg->dir once. Returns how many were listed. */
static int evacuate(struct vms_cgroup *cg, int kill_tasks)
{
	char path[PATH_MAX], parent_procs[PATH_MAX], buf[8192], *p, *end;
	int n = 0;

	if (procs_file(path, sizeof(path), cg->dir) || vms_read_small(path, buf, sizeof(buf)) < 0)
		return 0;
	procs_file(parent_procs, sizeof(parent_procs), cg->parent);
	for (p = buf;; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid <= 0)
			continue;
		n++;
		if (kill_tasks) {
			kill((pid_t)pid, SIGKILL);
		} else {
			char pb[32];

			snprintf(pb, sizeof(pb), "%ld", pid);
			vms_write_text(parent_procs, pb);
		}
	}
	return n;
}

int vms_cgroup_destroy(struct vms_cgroup *cg, int kill_tasks)
{
	int ret = 0, tries;

	if (cg->usage_fd >= 0)
		close(cg->usage_fd);
	if (cg->peak_fd >= 0)
		close(cg->peak_fd);
	cg->usage_fd = cg->peak_fd = -1;
	if (!cg->created)
		return 0;
	if (kill_tasks && cg->version == VMS_CGROUP_V2 && exists_in(cg->dir, "cgroup.kill"))
		write_in(cg->dir, "cgroup.kill", "1");
	for (tries = 0; tries < 40; tries++) {
		struct timespec ts = {0, 50 * 1000 * 1000};

		evacuate(cg, kill_tasks);
		ret = do_rmdir(cg->ops, cg->dir);
		if (!ret || ret == -ENOENT) {
			ret = 0;
			break;
		}
		if (ret != -EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	if (ret) {
		vms_warn("cannot remove the cgroup '%s': %s", cg->dir, strerror(-ret));
		return ret;
	}
	cg->created = 0;
	return 0;
}

/* ---- statistics ---- */

int vms_cgroup_usage(const struct vms_cgroup *cg, uint64_t *bytes)
{
	char buf[64];
	ssize_t n;

	if (cg->usage_fd < 0)
		return read_num_in(cg->dir,
		                   cg->version == VMS_CGROUP_V1 ? "memory.usage_in_bytes"
		                                                : "memory.current",
		                   bytes);
	n = pread(cg->usage_fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return vms_parse_u64(buf, NULL, bytes);
}

static void parse_stat(struct vms_cgroup_stats *s, char *text, int v1)
{
	char *line, *save = NULL;

	s->nstat = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		const char *name = line;
		uint64_t v;
		unsigned i;

		if (!sp)
			continue;
		*sp = '\0';
		if (vms_parse_u64(sp + 1, NULL, &v))
			continue;
		if (v1) {
			if (!strncmp(name, "hierarchical_", 13))
				continue;
			/* prefer the hierarchical total_X (as v2's memory.stat is) over X */
			if (!strncmp(name, "total_", 6))
				name += 6;
		}
		for (i = 0; i < s->nstat; i++)
			if (!strcmp(s->stat[i].name, name))
				break;
		if (i == s->nstat) {
			if (s->nstat == VMS_CGROUP_STAT_MAX)
				continue;
			snprintf(s->stat[i].name, sizeof(s->stat[i].name), "%s", name);
			s->nstat++;
		}
		s->stat[i].value = v;
	}
}

static uint64_t kv_or_na(const char *text, const char *key)
{
	uint64_t v;

	return kv_get(text, key, &v) ? VMS_CGROUP_NA : v;
}

int vms_cgroup_stats_read(const struct vms_cgroup *cg, struct vms_cgroup_stats *s)
{
	char buf[16384], path[PATH_MAX];
	uint64_t v = 0;
	ssize_t n;

	s->t = vms_now_mono();
	s->usage = s->peak = s->swap = s->limit_hits = s->swap_hits = VMS_CGROUP_NA;
	s->high_events = s->oom = s->oom_kill = s->psi_some_us = s->psi_full_us = VMS_CGROUP_NA;
	s->nstat = 0;
	if (vms_cgroup_usage(cg, &v) == 0)
		s->usage = v;
	if (cg->version == VMS_CGROUP_V1) {
		uint64_t memsw;

		if (!read_num_in(cg->dir, "memory.max_usage_in_bytes", &v))
			s->peak = v;
		if (!read_num_in(cg->dir, "memory.failcnt", &v))
			s->limit_hits = v;
		if (cg->swap_accounting) {
			if (!read_num_in(cg->dir, "memory.memsw.failcnt", &v))
				s->swap_hits = v;
			if (!read_num_in(cg->dir, "memory.memsw.usage_in_bytes", &memsw) &&
			    s->usage != VMS_CGROUP_NA)
				s->swap = memsw > s->usage ? memsw - s->usage : 0;
		}
		if (!cgfile(path, sizeof(path), cg->dir, "memory.oom_control") &&
		    vms_read_small(path, buf, sizeof(buf)) >= 0)
			s->oom_kill = kv_or_na(buf, "oom_kill");
	} else {
		if (cg->peak_fd >= 0) {
			n = pread(cg->peak_fd, buf, 63, 0);
			if (n > 0) {
				buf[n] = '\0';
				if (!vms_parse_u64(buf, NULL, &v))
					s->peak = v;
			}
		} else if (!read_num_in(cg->dir, "memory.peak", &v)) {
			s->peak = v;
		}
		if (!read_num_in(cg->dir, "memory.swap.current", &v))
			s->swap = v;
		if (!cgfile(path, sizeof(path), cg->dir, "memory.events") &&
		    vms_read_small(path, buf, sizeof(buf)) >= 0) {
			s->limit_hits = kv_or_na(buf, "max");
			s->high_events = kv_or_na(buf, "high");
			s->oom = kv_or_na(buf, "oom");
			s->oom_kill = kv_or_na(buf, "oom_kill");
		}
		if (!cgfile(path, sizeof(path), cg->dir, "memory.swap.events") &&
		    vms_read_small(path, buf, sizeof(buf)) >= 0)
			s->swap_hits = kv_or_na(buf, "max");
		if (cgfile(path, sizeof(path), cg->dir, "memory.pressure") ||
		    vms_psi_read_file(path, &s->psi_some_us, &s->psi_full_us))
			s->psi_some_us = s->psi_full_us = VMS_CGROUP_NA;
	}
	if (cgfile(path, sizeof(path), cg->dir, "memory.stat"))
		return -ENAMETOOLONG;
	n = vms_read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	parse_stat(s, buf, cg->version == VMS_CGROUP_V1);
	return 0;
}

/* v1: the cgroup's own memory.swappiness = the host's vm.swappiness now. A v1 cgroup gets a
 * copy of its parent's value at mkdir and keeps it: under a parent that is not the root (a
 * systemd slice, a container) the emulated machine would swap by that copy, not by the sysctl,
 * and a --sysctl vm.swappiness variant would change nothing in it (0 there: no anonymous
 * memory is swapped at all, and memload is OOM-killed). v2 has no per-cgroup value. */
static void sync_swappiness_v1(struct vms_cgroup *cg)
{
	char path[PATH_MAX], text[24];
	uint64_t v;

	cg->swappiness = -1;
	if (!exists_in(cg->dir, "memory.swappiness") ||
	    rooted(path, sizeof(path), cg->root, "/proc/sys/vm/swappiness") ||
	    vms_read_u64(path, &v) || v > 200)
		return;
	snprintf(text, sizeof(text), "%" PRIu64, v);
	if (!write_in(cg->dir, "memory.swappiness", text))
		cg->swappiness = (int)v;
}

int vms_cgroup_run_begin(struct vms_cgroup *cg, struct vms_cgroup_stats *before)
{
	if (cg->version == VMS_CGROUP_V1) {
		sync_swappiness_v1(cg);
		write_in(cg->dir, "memory.max_usage_in_bytes", "0");
		if (cg->swap_accounting)
			write_in(cg->dir, "memory.memsw.max_usage_in_bytes", "0");
	} else if (cg->peak_per_run && cg->peak_fd >= 0) {
		if (pwrite(cg->peak_fd, "reset\n", 6, 0) != 6)
			cg->peak_per_run = 0;
	}
	return vms_cgroup_stats_read(cg, before);
}

int vms_cgroup_limit_reached(const struct vms_cgroup *cg, uint64_t peak)
{
	uint64_t slack = cg->mem_limit / 100 > MARGIN_MIN ? cg->mem_limit / 100 : MARGIN_MIN;

	if (cg->mem_limit == VMS_CGROUP_UNLIMITED || peak == VMS_CGROUP_NA)
		return 0;
	return peak + slack >= cg->mem_limit;
}

static void put_u64(json_t *o, const char *key, uint64_t v)
{
	if (v != VMS_CGROUP_NA)
		json_object_set_new(o, key, json_integer((json_int_t)v));
}

static void put_delta(json_t *o, const char *key, uint64_t a, uint64_t b)
{
	if (a != VMS_CGROUP_NA && b != VMS_CGROUP_NA)
		json_object_set_new(o, key, json_integer((json_int_t)(b - a)));
}

json_t *vms_cgroup_delta_json(const struct vms_cgroup *cg, const struct vms_cgroup_stats *before,
                              const struct vms_cgroup_stats *after)
{
	json_t *o = json_object(), *sd = json_object();
	unsigned i, j;

	put_u64(o, "peak_bytes", after->peak);
	json_object_set_new(o, "peak_scope",
	                    json_string(cg->peak_per_run ? "run" : "since_create"));
	if (after->peak != VMS_CGROUP_NA && cg->mem_limit != VMS_CGROUP_UNLIMITED)
		json_object_set_new(o, "limit_reached",
		                    json_boolean(vms_cgroup_limit_reached(cg, after->peak)));
	put_u64(o, "usage_start_bytes", before->usage);
	put_u64(o, "usage_end_bytes", after->usage);
	put_u64(o, "swap_end_bytes", after->swap);
	put_delta(o, "limit_hits", before->limit_hits, after->limit_hits);
	put_delta(o, "swap_limit_hits", before->swap_hits, after->swap_hits);
	put_delta(o, "high_events", before->high_events, after->high_events);
	put_delta(o, "oom", before->oom, after->oom);
	put_delta(o, "oom_kill", before->oom_kill, after->oom_kill);
	if (cg->version == VMS_CGROUP_V1 && cg->swappiness >= 0)
		json_object_set_new(o, "swappiness", json_integer(cg->swappiness));
	if (before->psi_some_us != VMS_CGROUP_NA && after->psi_some_us != VMS_CGROUP_NA)
		json_object_set_new(
		    o, "pressure",
		    json_pack("{s:I, s:I}", "some_us",
		              (json_int_t)(after->psi_some_us - before->psi_some_us), "full_us",
		              (json_int_t)(after->psi_full_us - before->psi_full_us)));
	for (i = 0; i < after->nstat; i++) {
		uint64_t b = 0;

		for (j = 0; j < before->nstat; j++)
			if (!strcmp(before->stat[j].name, after->stat[i].name)) {
				b = before->stat[j].value;
				break;
			}
		json_object_set_new(sd, after->stat[i].name,
		                    json_integer((json_int_t)(after->stat[i].value - b)));
	}
	json_object_set_new(o, "stat_delta", sd);
	return o;
}

uint64_t vms_cgroup_effective_swap(const struct vms_cgroup *cg)
{
	return cg->swap_limit < cg->host_swap_total ? cg->swap_limit : cg->host_swap_total;
}

static json_t *num_or_null(uint64_t v)
{
	return v == VMS_CGROUP_UNLIMITED ? json_null() : json_integer((json_int_t)v);
}

json_t *vms_cgroup_facts_json(const struct vms_cgroup *cg)
{
	return json_pack(
	    "{s:i, s:s, s:o, s:o, s:o, s:o, s:b, s:I, s:I, s:s, s:b}", "version", (int)cg->version,
	    "path", cg->dir, "mem_limit_requested_bytes", num_or_null(cg->mem_requested),
	    "mem_limit_bytes", num_or_null(cg->mem_limit), "swap_limit_requested_bytes",
	    num_or_null(cg->swap_requested), "swap_limit_bytes", num_or_null(cg->swap_limit),
	    "swap_accounting", cg->swap_accounting, "host_swap_total_bytes",
	    (json_int_t)cg->host_swap_total, "effective_swap_bytes",
	    (json_int_t)vms_cgroup_effective_swap(cg), "peak_scope",
	    cg->peak_per_run ? "run" : "since_create", "pressure", cg->pressure);
}

/* ---- the view from inside (mtest01) ---- */

static int meminfo_v1(struct vms_cgroup_meminfo *m, const char *dir, uint64_t *swap_limit,
                      uint64_t *swap_used)
{
	char path[PATH_MAX], buf[16384];
	uint64_t memsw_limit = VMS_CGROUP_UNLIMITED, memsw_usage;
	int ret;

	ret = read_num_in(dir, "memory.usage_in_bytes", &m->usage);
	if (ret)
		return ret;
	if (cgfile(path, sizeof(path), dir, "memory.stat") ||
	    vms_read_small(path, buf, sizeof(buf)) < 0 ||
	    kv_get(buf, "hierarchical_memory_limit", &m->limit)) {
		ret = read_num_in(dir, "memory.limit_in_bytes", &m->limit);
		if (ret)
			return ret;
		read_num_in(dir, "memory.memsw.limit_in_bytes", &memsw_limit);
	} else {
		kv_get(buf, "hierarchical_memsw_limit", &memsw_limit);
	}
	if (m->limit >= V1_UNLIMITED_MIN)
		m->limit = VMS_CGROUP_UNLIMITED;
	if (memsw_limit >= V1_UNLIMITED_MIN)
		memsw_limit = VMS_CGROUP_UNLIMITED;
	*swap_limit = VMS_CGROUP_UNLIMITED;
	if (memsw_limit != VMS_CGROUP_UNLIMITED && m->limit != VMS_CGROUP_UNLIMITED)
		*swap_limit = memsw_limit > m->limit ? memsw_limit - m->limit : 0;
	*swap_used = 0;
	if (!read_num_in(dir, "memory.memsw.usage_in_bytes", &memsw_usage))
		*swap_used = memsw_usage > m->usage ? memsw_usage - m->usage : 0;
	return 0;
}

static int meminfo_v2(struct vms_cgroup_meminfo *m, const char *dir, const char *mount,
                      uint64_t *swap_limit, uint64_t *swap_used)
{
	char cur[PATH_MAX];
	size_t mlen = strlen(mount);
	int ret;

	ret = read_num_in(dir, "memory.current", &m->usage);
	if (ret)
		return ret;
	m->limit = *swap_limit = VMS_CGROUP_UNLIMITED;
	if (read_num_in(dir, "memory.swap.current", swap_used))
		*swap_used = 0;
	/* the effective limit is the smallest on the way up to the hierarchy's root */
	snprintf(cur, sizeof(cur), "%s", dir);
	while (strlen(cur) > mlen) {
		uint64_t v;
		char *slash;

		if (!read_num_in(cur, "memory.max", &v) && v < m->limit)
			m->limit = v;
		if (!read_num_in(cur, "memory.swap.max", &v) && v < *swap_limit)
			*swap_limit = v;
		slash = strrchr(cur, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return 0;
}

int vms_cgroup_self_meminfo(struct vms_cgroup_meminfo *m, const char *root)
{
	struct vms_cgroup_info *info = vms_xmalloc(sizeof(*info));
	struct vms_meminfo host;
	char path[PATH_MAX];
	uint64_t swap_limit, swap_used;
	int ret;

	memset(m, 0, sizeof(*m));
	if (!root)
		root = "";
	ret = vms_cgroup_detect(info, root);
	if (ret)
		goto out;
	if (info->version == VMS_CGROUP_NONE) {
		ret = -ENOENT;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	ret = vms_meminfo_read(&host, path);
	if (ret)
		goto out;
	if (info->version == VMS_CGROUP_V1)
		ret = meminfo_v1(m, info->self_dir, &swap_limit, &swap_used);
	else
		ret = meminfo_v2(m, info->self_dir, info->mount, &swap_limit, &swap_used);
	if (ret)
		goto out;
	if (m->limit == VMS_CGROUP_UNLIMITED || m->limit >= host.mem_total) {
		ret = -ENOENT;
		goto out;
	}
	m->ram = m->limit;
	m->free_ram = m->usage < m->ram ? m->ram - m->usage : 0;
	m->swap = swap_limit < host.swap_total ? swap_limit : host.swap_total;
	m->free_swap = swap_used < m->swap ? m->swap - swap_used : 0;
	if (m->free_swap > host.swap_free)
		m->free_swap = host.swap_free;
out:
	free(info);
	return ret;
}
