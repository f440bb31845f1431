/* The workload table and the parsing of -w NAME[:key=value]... specs into typed options. */
#include "workloads/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/fsinfo.h"
#include "core/util.h"

#define VMS_WORKLOAD(n) &vms_workload_##n,
const struct vms_workload *const vms_workloads[] = {VMS_WORKLOAD_LIST NULL};
#undef VMS_WORKLOAD

const struct vms_workload *vms_workload_find(const char *name)
{
	size_t i;

	for (i = 0; vms_workloads[i]; i++)
		if (!strcmp(vms_workloads[i]->name, name))
			return vms_workloads[i];
	return NULL;
}

int vms_workload_not_primary(const char *workload, const char *metric)
{
	const struct vms_workload *w = vms_workload_find(workload);
	const char *const *m;

	if (!w)
		return -1;
	for (m = w->not_primary; m && *m; m++)
		if (!strcmp(*m, metric))
			return 1;
	return 0;
}

int vms_workload_option_index(const struct vms_workload *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->n_options; i++)
		if (!strcmp(w->options[i].name, name))
			return (int)i;
	return -1;
}

static int parse_value(const struct vms_workload *w, const struct vms_option_def *d,
                       const char *text, struct vms_opt_value *v, char *why, size_t len)
{
	uint64_t u = 0, max;
	long l;
	int ret = 0;

	switch (d->type) {
	case VMS_OPT_SIZE:
		ret = vms_parse_size(text, &u);
		if (ret) {
			snprintf(why, len, "%s: malformed size '%s' for %s (use bytes or K/M/G)",
			         w->name, text, d->name);
			return -EINVAL;
		}
		break;
	case VMS_OPT_COUNT:
	case VMS_OPT_PERCENT:
		ret = vms_parse_long(text, 0, LONG_MAX, &l);
		if (ret) {
			snprintf(why, len, "%s: malformed number '%s' for %s", w->name, text,
			         d->name);
			return -EINVAL;
		}
		u = (uint64_t)l;
		break;
	case VMS_OPT_BOOL:
		if (!strcmp(text, "1") || !strcmp(text, "yes") || !strcmp(text, "true") ||
		    !strcmp(text, "on"))
			u = 1;
		else if (!strcmp(text, "0") || !strcmp(text, "no") || !strcmp(text, "false") ||
		         !strcmp(text, "off"))
			u = 0;
		else {
			snprintf(why, len, "%s: '%s' is not a boolean for %s (use 1 or 0)", w->name,
			         text, d->name);
			return -EINVAL;
		}
		break;
	case VMS_OPT_PATH:
		if (!*text) {
			snprintf(why, len, "%s: empty path for %s", w->name, d->name);
			return -EINVAL;
		}
		free(v->s);
		v->s = vms_xstrdup(text);
		break;
	}
	/* no size beyond VMS_SIZE_MAX: the sizes computed from it must not wrap */
	max = d->max ? d->max : d->type == VMS_OPT_SIZE ? VMS_SIZE_MAX : 0;
	if (d->type != VMS_OPT_PATH && (u < d->min || (max && u > max))) {
		if (d->max)
			snprintf(why, len, "%s: %s=%s is out of range (%llu..%llu %s)", w->name,
			         d->name, text, (unsigned long long)d->min,
			         (unsigned long long)d->max, d->unit);
		else if (u > max)
			snprintf(why, len, "%s: %s=%s is too large (at most 1 EiB, %llu %s)",
			         w->name, d->name, text, (unsigned long long)max, d->unit);
		else
			snprintf(why, len, "%s: %s=%s is too small (at least %llu %s)", w->name,
			         d->name, text, (unsigned long long)d->min, d->unit);
		return -EINVAL;
	}
	v->u = u;
	return 0;
}

int vms_workload_opt_set(struct vms_workload_spec *spec, const char *name, const char *value,
                         char *why, size_t len)
{
	const struct vms_workload *w = spec->w;
	int i = vms_workload_option_index(w, name);
	size_t k;

	if (i < 0) {
		int n = snprintf(why, len, "%s: unknown option '%s' (options:", w->name, name);

		for (k = 0; k < w->n_options && n > 0 && (size_t)n < len; k++)
			n += snprintf(why + n, len - (size_t)n, " %s", w->options[k].name);
		if (n > 0 && (size_t)n < len)
			snprintf(why + n, len - (size_t)n, ")");
		return -EINVAL;
	}
	if (parse_value(w, &w->options[i], value, &spec->opts[i], why, len))
		return -EINVAL;
	spec->opts[i].set = 1;
	return 0;
}

static void known_workloads(char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; vms_workloads[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
		                      vms_workloads[i]->name);
}

int vms_workload_spec_parse(const char *text, struct vms_workload_spec *spec, char *why, size_t len)
{
	char *copy = vms_xstrdup(text), *save = NULL, *tok;
	const struct vms_workload *w;
	size_t i;
	int ret = 0;

	memset(spec, 0, sizeof(*spec));
	tok = strtok_r(copy, ":", &save);
	w = tok ? vms_workload_find(tok) : NULL;
	if (!w) {
		char known[256];

		known_workloads(known, sizeof(known));
		snprintf(why, len, "unknown workload '%s' (known: %s)", tok ? tok : "", known);
		ret = -EINVAL;
		goto out;
	}
	spec->w = w;
	spec->opts = vms_xcalloc(w->n_options, sizeof(*spec->opts));
	for (i = 0; i < w->n_options; i++) {
		const struct vms_option_def *d = &w->options[i];

		if (d->def && parse_value(w, d, d->def, &spec->opts[i], why, len)) {
			ret = -EINVAL;
			goto out;
		}
	}
	while ((tok = strtok_r(NULL, ":", &save))) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok) {
			snprintf(why, len, "%s: expected key=value, got '%s'", w->name, tok);
			ret = -EINVAL;
			goto out;
		}
		*eq = '\0';
		ret = vms_workload_opt_set(spec, tok, eq + 1, why, len);
		if (ret)
			goto out;
	}
out:
	if (ret)
		vms_workload_spec_release(spec);
	free(copy);
	return ret;
}

void vms_workload_spec_release(struct vms_workload_spec *spec)
{
	size_t i;

	if (spec->opts && spec->w)
		for (i = 0; i < spec->w->n_options; i++)
			free(spec->opts[i].s);
	free(spec->opts);
	spec->opts = NULL;
}

json_t *vms_workload_opts_json(const struct vms_workload *w, const struct vms_opt_value *opts)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < w->n_options; i++) {
		const struct vms_option_def *d = &w->options[i];
		const struct vms_opt_value *v = &opts[i];

		if (!v->set && !d->def)
			continue;
		if (d->type == VMS_OPT_PATH)
			json_object_set_new(o, d->name, v->s ? json_string(v->s) : json_null());
		else if (d->type == VMS_OPT_BOOL)
			json_object_set_new(o, d->name, json_boolean(v->u));
		else
			json_object_set_new(o, d->name, json_integer((json_int_t)v->u));
	}
	return o;
}

int vms_workload_fail(struct vms_workload_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->shared->reason, sizeof(ctx->shared->reason), fmt, ap);
	va_end(ap);
	return 1;
}

int vms_workload_fail_file(struct vms_workload_ctx *ctx, int err, const char *fmt, ...)
{
	char *r = ctx->shared->reason;
	size_t len = sizeof(ctx->shared->reason), used;
	va_list ap;

	/* filled since the checks (blocks, inodes or the quota): not the kernel's doing */
	if (err == ENOSPC || err == EDQUOT)
		ctx->shared->disk_full = 1;
	va_start(ap, fmt);
	vsnprintf(r, len, fmt, ap);
	va_end(ap);
	used = strlen(r);
	snprintf(r + used, len - used, ": %s", strerror(err));
	return 1;
}

int vms_workload_check_dir(const char *dir, uint64_t need, char *why, size_t len)
{
	struct vms_fs_info fi;
	char a[32], b[32];
	int ret = vms_fs_info(dir, &fi);

	if (ret) {
		snprintf(why, len, "cannot use work directory '%s': %s", dir, strerror(-ret));
		return ret;
	}
	if (fi.memory_backed) {
		snprintf(why, len,
		         "work directory '%s' is on %s: its pages live in RAM and swap, so the "
		         "file-mapping test would become a swap test; use --workdir on a disk "
		         "filesystem",
		         dir, fi.fstype ? fi.fstype : fi.magic_name);
		ret = -EXDEV;
	} else if (fi.free_bytes < need) {
		snprintf(why, len, "work directory '%s' has %s free, the workload needs %s", dir,
		         vms_format_size(fi.free_bytes, a, sizeof(a)),
		         vms_format_size(need, b, sizeof(b)));
		ret = -ENOSPC;
	}
	vms_fs_info_release(&fi);
	return ret;
}

int vms_workload_open_file(struct vms_workload_ctx *ctx)
{
	int fd;

	if (ctx->tmpfile) {
		fd = open(ctx->workdir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			vms_workload_fail_file(ctx, errno, "cannot create a work file in '%s'",
			                       ctx->workdir);
		return fd;
	}
	/* a fresh name in the run's private directory: whatever is there was not made by us */
	fd = open(ctx->file, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		vms_workload_fail_file(ctx, errno, "cannot create '%s'", ctx->file);
	return fd;
}

int vms_workload_private_name(char *buf, size_t len, const char *dir, const char *what)
{
	static const char letters[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	char suffix[7];
	size_t i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		/* no entropy yet (early boot): the name need not be secret, only fresh (EEXIST
		 * makes the caller retry) and the directory private */
		unsigned long x = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16) ^
		                  (unsigned long)clock();

		for (i = 0; i < sizeof(r);
		     i++, x = x * 6364136223846793005UL + 1442695040888963407UL)
			r[i] = (unsigned char)(x >> 33);
	}
	for (i = 0; i < sizeof(r); i++)
		suffix[i] = letters[r[i] % (sizeof(letters) - 1)];
	suffix[sizeof(r)] = '\0';
	if ((size_t)snprintf(buf, len, "%s/.vmsuite-%s.%s", dir, what, suffix) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* O_TMPFILE is not there: old kernels say EISDIR (O_TMPFILE includes O_DIRECTORY), a
 * filesystem without it EOPNOTSUPP. */
static int no_tmpfile_support(int err)
{
	return err == EOPNOTSUPP || err == EISDIR || err == EINVAL;
}

int vms_workload_probe_dir(const char *dir, int *tmpfile, char *why, size_t len)
{
	const char *env = getenv("VMSUITE_NO_O_TMPFILE");
	char path[PATH_MAX];
	struct stat st;
	int fd, e, tries;

	*tmpfile = 0;
	errno = 0;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		e = errno ? errno : ENOTDIR;
		snprintf(why, len, "cannot use work directory '%s': %s", dir, strerror(e));
		return -e;
	}
	if (!env || !*env || !strcmp(env, "0")) {
		fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0) {
			close(fd); /* it had no name: nothing is left */
			*tmpfile = 1;
			return 0;
		}
		e = errno;
		if (!no_tmpfile_support(e))
			goto refuse;
	}
	/* the fallback: a private directory per run; make one and remove it */
	for (tries = 0; tries < 100; tries++) {
		if (vms_workload_private_name(path, sizeof(path), dir, "probe")) {
			e = ENAMETOOLONG;
			goto refuse;
		}
		if (!mkdir(path, 0700))
			break;
		e = errno;
		if (e != EEXIST)
			goto refuse;
	}
	if (tries == 100)
		goto refuse;
	rmdir(path);
	return 0;

refuse:
	snprintf(why, len, "cannot create work files in '%s': %s", dir, strerror(e));
	return -e;
}

int vms_workload_available(const struct vms_workload *w, const struct vms_machine_facts *f,
                           unsigned ignore, char *why, size_t len)
{
	unsigned needs = w->needs & ~ignore;

	why[0] = '\0';
	if ((needs & VMS_NEED_ROOT) && !f->root) {
		snprintf(why, len, "needs root");
		return -EPERM;
	}
	if ((needs & VMS_NEED_SWAP) && !f->swap) {
		snprintf(why, len, "needs swap (there is none%s)",
		         f->cgroup ? " for the cgroup" : "");
		return -ENOTSUP;
	}
	if ((needs & VMS_NEED_DISK) && !f->disk_backed) {
		snprintf(why, len,
		         "needs a disk-backed work directory ('%s' is on %s; use --workdir)",
		         f->workdir, f->fs_type[0] ? f->fs_type : "a memory filesystem");
		return -EXDEV;
	}
	return w->available ? w->available(f, why, len) : 0;
}
