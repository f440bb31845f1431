/* Kernel knobs: the allow-list of names, their values' spellings, reads, journalled writes with
 * read-back, restores. Kernel paths: /proc/sys/vm, /proc/sys/kernel/sched_*,
 * /proc/sys/kernel/task_delayacct, /sys/kernel/mm/transparent_hugepage/,
 * /sys/kernel/mm/lru_gen/, /sys/module/zswap/parameters/ (read(2), write(2)). */
#include "core/sysctl.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/util.h"

#define PROC_SYS       "/proc/sys/"
#define THP_DIR        "/sys/kernel/mm/transparent_hugepage/"
#define THP_NAME       "transparent_hugepage"
#define LRU_GEN_DIR    "/sys/kernel/mm/lru_gen/"
#define ZSWAP_DIR      "/sys/module/zswap/parameters/"
#define MAX_COMPONENTS 3
#define ALLOWED                                                                                    \
	"vm.*, kernel.sched_*, kernel.task_delayacct, transparent_hugepage.*, "                    \
	"transparent_hugepage.khugepaged.*, lru_gen.*, zswap.*"

/* How the kernel reads a value and prints it back, for knobs that do not print what they are
 * given: module bool parameters (kstrtobool(), printed Y or N), unsigned ones and
 * lru_gen/min_ttl_ms (kstrtouint() base 0, printed in decimal), lru_gen/enabled (y, n or a
 * mask, printed as "0x%04x"; mm/vmscan.c enabled_show/enabled_store). */
enum spelling { SPELL_PLAIN, SPELL_BOOL, SPELL_UINT, SPELL_LRU_CAPS };

static const struct {
	const char *name;
	enum spelling how;
} spellings[] = {
    {"lru_gen.enabled", SPELL_LRU_CAPS},
    {"lru_gen.min_ttl_ms", SPELL_UINT},
    {"zswap.enabled", SPELL_BOOL},
    {"zswap.shrinker_enabled", SPELL_BOOL},
    {"zswap.same_filled_pages_enabled", SPELL_BOOL},
    {"zswap.non_same_filled_pages_enabled", SPELL_BOOL},
    {"zswap.exclusive_loads", SPELL_BOOL},
    {"zswap.max_pool_percent", SPELL_UINT},
    {"zswap.accept_threshold_percent", SPELL_UINT},
};

/* Knobs the kernel links: a write to one zeroes the other (mm/util.c, overcommit_*_handler;
 * mm/page-writeback.c, dirty_*_handler), and the *_bytes ones refuse 0. */
static const char *const linked[][2] = {
    {"vm.overcommit_kbytes", "vm.overcommit_ratio"},
    {"vm.dirty_bytes", "vm.dirty_ratio"},
    {"vm.dirty_background_bytes", "vm.dirty_background_ratio"},
};

static const char *root = "";

const char *vms_sysctl_partner(const char *name)
{
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(linked); i++) {
		if (!strcmp(name, linked[i][0]))
			return linked[i][1];
		if (!strcmp(name, linked[i][1]))
			return linked[i][0];
	}
	return NULL;
}

void vms_sysctl_set_root(const char *r)
{
	root = r ? r : "";
}

const char *vms_sysctl_short_name(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && dot[1] ? dot + 1 : name;
}

static int component_ok(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return 0;
	return 1;
}

/* The file of a name of the allow-list below root, without looking at the file system.
 * 0, -EINVAL (reason in err) or -ENAMETOOLONG. */
static int name_to_path(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	const char *comp[MAX_COMPONENTS], *p = name;
	size_t clen[MAX_COMPONENTS], n = 0;
	int w;

	if (!*name) {
		snprintf(err, errlen, "empty knob name (e.g. vm.page-cluster)");
		return -EINVAL;
	}
	if (strchr(name, '/')) {
		snprintf(err, errlen,
		         "'%s' is not a knob name: give the dotted name, e.g. vm.page-cluster, "
		         "not a path",
		         name);
		return -EINVAL;
	}
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t l = dot ? (size_t)(dot - p) : strlen(p);

		if (n == MAX_COMPONENTS || !component_ok(p, l)) {
			snprintf(err, errlen,
			         "'%s' is not a knob name: dotted components of letters, digits, "
			         "'_' and '-' only (e.g. vm.page-cluster)",
			         name);
			return -EINVAL;
		}
		comp[n] = p;
		clen[n++] = l;
		if (!dot)
			break;
		p = dot + 1;
	}
#define IS(i, s)         (clen[i] == strlen(s) && !strncmp(comp[i], s, clen[i]))
#define HAS_PREFIX(i, s) (clen[i] > strlen(s) && !strncmp(comp[i], s, strlen(s)))
	if (n == 2 && IS(0, "vm"))
		w = snprintf(path, len, "%s" PROC_SYS "vm/%.*s", root, (int)clen[1], comp[1]);
	else if (n == 2 && IS(0, "kernel") && (HAS_PREFIX(1, "sched_") || IS(1, "task_delayacct")))
		w = snprintf(path, len, "%s" PROC_SYS "kernel/%.*s", root, (int)clen[1], comp[1]);
	else if (n == 2 && IS(0, THP_NAME))
		w = snprintf(path, len, "%s" THP_DIR "%.*s", root, (int)clen[1], comp[1]);
	else if (n == 3 && IS(0, THP_NAME) && (IS(1, "khugepaged") || HAS_PREFIX(1, "hugepages-")))
		w = snprintf(path, len, "%s" THP_DIR "%.*s/%.*s", root, (int)clen[1], comp[1],
		             (int)clen[2], comp[2]);
	else if (n == 2 && IS(0, "lru_gen"))
		w = snprintf(path, len, "%s" LRU_GEN_DIR "%.*s", root, (int)clen[1], comp[1]);
	else if (n == 2 && IS(0, "zswap"))
		w = snprintf(path, len, "%s" ZSWAP_DIR "%.*s", root, (int)clen[1], comp[1]);
	else {
		snprintf(err, errlen, "'%s' is not a knob vmsuite changes (allowed: " ALLOWED ")",
		         name);
		return -EINVAL;
	}
#undef IS
#undef HAS_PREFIX
	if (w < 0 || (size_t)w >= len) {
		snprintf(err, errlen, "the file of '%s' has too long a path", name);
		return -ENAMETOOLONG;
	}
	return 0;
}

int vms_sysctl_resolve(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	struct stat st;
	struct utsname u;
	int ret = name_to_path(name, path, len, err, errlen);

	if (ret)
		return ret;
	if (lstat(path, &st)) {
		ret = -errno;
		if (ret == -ENOENT)
			snprintf(err, errlen, "kernel %s has no knob '%s' ('%s' does not exist%s)",
			         uname(&u) ? "?" : u.release, name, path,
			         !strncmp(name, "lru_gen.", 8) ? ": it needs CONFIG_LRU_GEN"
			         : !strncmp(name, "zswap.", 6) ? ": it needs CONFIG_ZSWAP"
			                                       : "");
		else
			snprintf(err, errlen, "cannot use the knob '%s' ('%s'): %s", name, path,
			         strerror(-ret));
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a knob ('%s' is not a plain file)", name, path);
		return -EINVAL;
	}
	return 0;
}

/* The dotted name of a file of the allow-list (under root) into name (len bytes): 0, or
 * -EINVAL when path is no such file. */
static int path_to_name(const char *path, char *name, size_t len)
{
	char again[PATH_MAX], err[256];
	size_t rl = strlen(root), i;
	const char *rest;
	int n;

	if (strncmp(path, root, rl))
		return -EINVAL;
	rest = path + rl;
	if (!strncmp(rest, PROC_SYS, strlen(PROC_SYS)))
		n = snprintf(name, len, "%s", rest + strlen(PROC_SYS));
	else if (!strncmp(rest, THP_DIR, strlen(THP_DIR)))
		n = snprintf(name, len, THP_NAME "/%s", rest + strlen(THP_DIR));
	else if (!strncmp(rest, LRU_GEN_DIR, strlen(LRU_GEN_DIR)))
		n = snprintf(name, len, "lru_gen/%s", rest + strlen(LRU_GEN_DIR));
	else if (!strncmp(rest, ZSWAP_DIR, strlen(ZSWAP_DIR)))
		n = snprintf(name, len, "zswap/%s", rest + strlen(ZSWAP_DIR));
	else
		return -EINVAL;
	if (n < 0 || (size_t)n >= len)
		return -EINVAL;
	/* a '.' in the path would make two paths one name: never a file of the list */
	for (i = 0; name[i]; i++) {
		if (name[i] == '.')
			return -EINVAL;
		if (name[i] == '/')
			name[i] = '.';
	}
	if (name_to_path(name, again, sizeof(again), err, sizeof(err)) || strcmp(again, path))
		return -EINVAL;
	return 0;
}

int vms_sysctl_path_allowed(const char *path)
{
	char name[PATH_MAX];

	return !path_to_name(path, name, sizeof(name));
}

/* 1 when partner is the file of the knob the kernel links to the knob of path. */
static int partner_path_ok(const char *path, const char *partner)
{
	char name[PATH_MAX], want[PATH_MAX], err[256];
	const char *pname;

	return !path_to_name(path, name, sizeof(name)) && (pname = vms_sysctl_partner(name)) &&
	       !name_to_path(pname, want, sizeof(want), err, sizeof(err)) && !strcmp(want, partner);
}

int vms_sysctl_normalize(const char *value, char *out, size_t len)
{
	const char *open = strchr(value, '['), *close = open ? strchr(open, ']') : NULL;
	size_t n = 0;
	const char *p;
	int space = 0;

	/* a choice file: "always [madvise] never" holds "madvise" */
	if (open && close && close > open + 1) {
		if ((size_t)(close - open - 1) >= len)
			return -E2BIG;
		memcpy(out, open + 1, (size_t)(close - open - 1));
		out[close - open - 1] = '\0';
		return 0;
	}
	for (p = value; *p; p++) {
		if (isspace((unsigned char)*p)) {
			space = n > 0;
			continue;
		}
		if (n + (size_t)space + 1 >= len)
			return -E2BIG;
		if (space)
			out[n++] = ' ';
		space = 0;
		out[n++] = *p;
	}
	if (!len)
		return -E2BIG;
	out[n] = '\0';
	return 0;
}

static enum spelling spelling_of(const char *name)
{
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(spellings); i++)
		if (!strcmp(name, spellings[i].name))
			return spellings[i].how;
	return SPELL_PLAIN;
}

/* s as kstrtouint(s, 0, ...) reads it: an optional '+', then decimal, 0x hex or 0 octal, and
 * nothing after. 1 with *v set, or 0 when the kernel would refuse it. */
static int kernel_uint(const char *s, unsigned long long *v)
{
	char *end;

	if (*s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end && *v <= UINT_MAX;
}

/* s as kstrtobool() reads it: 1 or 0, or -1 when the kernel would refuse it. */
static int kernel_bool(const char *s)
{
	switch (s[0]) {
	case 'y':
	case 'Y':
	case 't':
	case 'T':
	case '1': return 1;
	case 'n':
	case 'N':
	case 'f':
	case 'F':
	case '0': return 0;
	case 'o':
	case 'O':
		if (s[1] == 'n' || s[1] == 'N')
			return 1;
		if (s[1] == 'f' || s[1] == 'F')
			return 0;
		break;
	default: break;
	}
	return -1;
}

int vms_sysctl_canonical(const char *name, const char *value, char *out, size_t len)
{
	unsigned long long v;
	int ret = vms_sysctl_normalize(value, out, len), b, n = 0;

	if (ret || !out[0])
		return ret;
	switch (spelling_of(name)) {
	case SPELL_BOOL:
		if ((b = kernel_bool(out)) >= 0)
			n = snprintf(out, len, "%s", b ? "Y" : "N");
		break;
	case SPELL_UINT:
		if (kernel_uint(out, &v))
			n = snprintf(out, len, "%llu", v);
		break;
	case SPELL_LRU_CAPS:
		/* y: every component this hardware has, so its read-back is not known here */
		if (tolower((unsigned char)out[0]) == 'y')
			n = snprintf(out, len, "y");
		else if (tolower((unsigned char)out[0]) == 'n')
			n = snprintf(out, len, "0x0000");
		else if (kernel_uint(out, &v))
			n = snprintf(out, len, "0x%04llx", v);
		break;
	default: break;
	}
	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}

int vms_sysctl_matches(const char *name, const char *value, const char *back)
{
	unsigned long long v;

	if (spelling_of(name) == SPELL_LRU_CAPS && !strcmp(value, "y"))
		return kernel_uint(back, &v) && (v & 1);
	return !strcmp(back, value);
}

int vms_sysctl_read(const char *path, char *value, size_t len)
{
	char buf[4096];
	ssize_t n = vms_read_small(path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if ((size_t)n == sizeof(buf) - 1)
		return -E2BIG;
	return vms_sysctl_normalize(buf, value, len);
}

int vms_sysctl_check(const char *name, const char *value, char *err, size_t errlen)
{
	char path[PATH_MAX], cur[VMS_SYSCTL_VALUE_MAX], norm[VMS_SYSCTL_VALUE_MAX];
	struct stat st;
	int ret;

	if ((ret = vms_sysctl_resolve(name, path, sizeof(path), err, errlen)))
		return ret;
	if (vms_sysctl_canonical(name, value, norm, sizeof(norm)) || !norm[0]) {
		snprintf(err, errlen, "%s needs a value (at most %d characters), not '%s'", name,
		         VMS_SYSCTL_VALUE_MAX - 1, value);
		return -EINVAL;
	}
	if ((ret = vms_sysctl_read(path, cur, sizeof(cur)))) {
		snprintf(err, errlen,
		         "cannot read the knob %s ('%s'), so it could not be restored: %s", name,
		         path,
		         ret == -E2BIG ? "its value is longer than vmsuite keeps" : strerror(-ret));
		return -EINVAL; /* not a knob vmsuite can change, whoever asks */
	}
	/* root may open a read-only file for writing; the kernel then refuses every write */
	if (!stat(path, &st) && !(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) {
		snprintf(err, errlen, "the knob %s ('%s') is read-only: the kernel sets it", name,
		         path);
		return -EINVAL; /* not a knob vmsuite can change, whoever asks */
	}
	if (access(path, W_OK)) {
		ret = -errno;
		snprintf(err, errlen, "cannot change the knob %s ('%s'): %s%s", name, path,
		         strerror(-ret), geteuid() ? " (run as root)" : "");
		return ret;
	}
	return 0;
}

/* Writes value and reads it back. 0, or -errno with the reason in err. */
static int write_checked(const char *name, const char *path, const char *value, char *err,
                         size_t errlen)
{
	char back[VMS_SYSCTL_VALUE_MAX];
	int ret = vms_write_text(path, value);

	if (ret) {
		snprintf(err, errlen, "the kernel refuses '%s' for %s: %s", value, name,
		         strerror(-ret));
		return ret;
	}
	if ((ret = vms_sysctl_read(path, back, sizeof(back)))) {
		snprintf(err, errlen, "cannot read %s back after writing '%s': %s", name, value,
		         strerror(-ret));
		return ret;
	}
	if (!vms_sysctl_matches(name, value, back)) {
		snprintf(err, errlen, "the kernel stored '%s' for %s, not '%s'", back, name, value);
		return -EINVAL;
	}
	return 0;
}

/* Writes original to path unless the file already holds it: a knob that holds its original
 * needs nothing, and the kernel may refuse to be given it again (vm.dirty_bytes refuses 0).
 * 0, or -errno (reason in err). */
static int put_back(const char *path, const char *original, char *err, size_t errlen)
{
	char cur[VMS_SYSCTL_VALUE_MAX];

	if (!vms_sysctl_read(path, cur, sizeof(cur)) && !strcmp(cur, original))
		return 0;
	return write_checked(path, path, original, err, errlen);
}

/* e's knob, and its linked knob when it has one, back to their originals. Of a pair, the one
 * whose original is 0 goes first: writing the other then zeroes it anyway, which is the only
 * way back to 0 for a *_bytes knob (the kernel refuses 0 written to it). Both are read back.
 * 0, or -errno with the reason in err. */
static int put_back_entry(const struct vms_host_entry *e, char *err, size_t errlen)
{
	const char *path[2] = {e->path, e->partner}, *orig[2] = {e->original, e->partner_original};
	char cur[VMS_SYSCTL_VALUE_MAX], why[2][512] = {"", ""};
	int first, i, ret[2] = {0, 0}, r;

	if (!e->partner[0])
		return put_back(e->path, e->original, err, errlen);
	first = strcmp(e->original, "0") && !strcmp(e->partner_original, "0");
	for (i = 0; i < 2; i++)
		ret[first ^ i] =
		    put_back(path[first ^ i], orig[first ^ i], why[first ^ i], sizeof(why[0]));
	for (i = 0; i < 2; i++) {
		if ((r = vms_sysctl_read(path[i], cur, sizeof(cur)))) {
			snprintf(err, errlen, "cannot read '%s' back: %s", path[i], strerror(-r));
			return r;
		}
		if (strcmp(cur, orig[i])) {
			if (ret[i])
				snprintf(err, errlen, "%s; '%s' holds '%s'", why[i], path[i], cur);
			else
				snprintf(err, errlen,
				         "'%s' holds '%s' after both were written back", path[i],
				         cur);
			return ret[i] ? ret[i] : -EIO;
		}
	}
	return 0;
}

int vms_sysctl_set(struct vms_hoststate *hs, const char *name, const char *value,
                   struct vms_host_entry *e, char *err, size_t errlen)
{
	char norm[VMS_SYSCTL_VALUE_MAX], why[512];
	const char *partner;
	int ret;

	memset(e, 0, sizeof(*e));
	if ((ret = vms_sysctl_check(name, value, err, errlen)))
		return ret;
	vms_sysctl_canonical(name, value, norm, sizeof(norm));
	e->kind = VMS_HOST_SYSCTL;
	if ((ret = vms_sysctl_resolve(name, e->path, sizeof(e->path), err, errlen)))
		return ret;
	if ((ret = vms_sysctl_read(e->path, e->original, sizeof(e->original)))) {
		snprintf(err, errlen, "cannot read %s: %s", name, strerror(-ret));
		return ret;
	}
	/* the kernel changes a linked knob with this one: its original goes in the same record */
	if ((partner = vms_sysctl_partner(name))) {
		if ((ret =
		         vms_sysctl_resolve(partner, e->partner, sizeof(e->partner), err, errlen)))
			return ret;
		if ((ret = vms_sysctl_read(e->partner, e->partner_original,
		                           sizeof(e->partner_original)))) {
			snprintf(err, errlen, "cannot read %s, which the kernel links to %s: %s",
			         partner, name, strerror(-ret));
			return ret;
		}
	}
	/* in the journal before the write: a SIGKILL from here on leaves a record */
	if ((ret = vms_hoststate_record(hs, e))) {
		snprintf(err, errlen, "cannot journal %s, so it was not changed", name);
		return ret;
	}
	ret = write_checked(name, e->path, norm, err, errlen);
	if (!ret)
		return 0;
	/* refused or stored otherwise: the original back, the record gone */
	if (put_back_entry(e, why, sizeof(why))) {
		size_t l = strlen(err);

		snprintf(err + l, errlen - l, "; and %s (the journal record '%s' is kept)", why,
		         e->record);
		return -ENOTRECOVERABLE;
	}
	vms_hoststate_forget(hs, e);
	return ret;
}

int vms_sysctl_change(const struct vms_host_entry *e, const char *name, const char *value,
                      char *err, size_t errlen)
{
	char norm[VMS_SYSCTL_VALUE_MAX];

	if (vms_sysctl_canonical(name, value, norm, sizeof(norm)) || !norm[0]) {
		snprintf(err, errlen, "%s needs a value (at most %d characters), not '%s'", name,
		         VMS_SYSCTL_VALUE_MAX - 1, value);
		return -EINVAL;
	}
	return write_checked(name, e->path, norm, err, errlen);
}

int vms_sysctl_restore(struct vms_hoststate *hs, struct vms_host_entry *e)
{
	char why[1024];
	int ret = put_back_entry(e, why, sizeof(why));

	if (ret && e->partner[0])
		return vms_error_ret(
		    ret,
		    "cannot restore '%s' to '%s' and its linked knob '%s' to '%s': "
		    "%s (the journal record '%s' is kept: see vmsuite cleanup)",
		    e->path, e->original, e->partner, e->partner_original, why, e->record);
	if (ret)
		return vms_error_ret(ret,
		                     "cannot restore '%s' to '%s': %s (the journal record '%s' "
		                     "is kept: see vmsuite cleanup)",
		                     e->path, e->original, why, e->record);
	return vms_hoststate_forget(hs, e);
}

int vms_sysctl_undo(const struct vms_host_entry *e)
{
	char why[1024];
	struct stat st;

	if (!vms_sysctl_path_allowed(e->path) || !e->original[0])
		return 2;
	if (e->partner[0] && (!partner_path_ok(e->path, e->partner) || !e->partner_original[0]))
		return 2; /* only the knob the kernel links to this one is written */
	if (lstat(e->path, &st))
		return errno == ENOENT ? 1 : -errno;
	if (!S_ISREG(st.st_mode))
		return 2;
	if (e->partner[0] && lstat(e->partner, &st))
		return errno == ENOENT ? 1 : -errno;
	if (e->partner[0] && !S_ISREG(st.st_mode))
		return 2;
	return put_back_entry(e, why, sizeof(why));
}

/* What undoing e did: "restored the kernel knob '/proc/sys/vm/page-cluster' to '3'" (and its
 * linked knob), escaped. */
static char *sysctl_undone(const struct vms_host_entry *e)
{
	char *path = vms_text_escape(e->path), *orig = vms_text_escape(e->original), *s;

	if (e->partner[0]) {
		char *ppath = vms_text_escape(e->partner);
		char *porig = vms_text_escape(e->partner_original);

		s = vms_xasprintf("restored the kernel knob '%s' to '%s' and its linked knob '%s' "
		                  "to '%s'",
		                  path, orig, ppath, porig);
		free(ppath);
		free(porig);
	} else {
		s = vms_xasprintf("restored the kernel knob '%s' to '%s'", path, orig);
	}
	free(path);
	free(orig);
	return s;
}

const struct vms_host_kind_row vms_host_row_sysctl = {
    .name = "sysctl",
    .what = "kernel knob",
    .undo = vms_sysctl_undo,
    .undone = sysctl_undone,
};
