/* The host-state journal (one JSON record per change under <state dir>/journal, written before
 * the change and removed after its undo, by the kinds' rows of core/hostkind.h), the exclusive
 * lock (flock on <state dir>/lock) and the work directory's kind.
 * Kernel paths: /proc/PID/stat and cmdline, flock(2), rmdir/unlinkat of a work directory. */
#include "core/hoststate.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/swapfile.h"
#include "core/escape.h"
#include "core/util.h"

#define RECORD_FORMAT  "vmsuite.hoststate/1"
#define PERSIST_FORMAT "vmsuite.swapfile/1"
#define BOOT_ID_PATH   "/proc/sys/kernel/random/boot_id"

char *vms_host_entry_not_ours(const struct vms_host_entry *e)
{
	char *path = vms_text_escape(e->path), *rec = vms_text_escape(e->record);
	char *why = vms_text_escape(e->why), *s;

	s = vms_xasprintf("left alone: '%s', which the record '%s' names as the swap file pid %ld "
	                  "made in an earlier boot, is not that file: %s (delete it yourself if it "
	                  "is a leftover, then the record)",
	                  path, rec, e->owner.pid, why);
	free(path);
	free(rec);
	free(why);
	return s;
}

const char *vms_hoststate_default_dir(void)
{
	static char user_dir[PATH_MAX / 2];
	const char *env = getenv("VMSUITE_STATE_DIR"), *xdg = getenv("XDG_RUNTIME_DIR");

	if (env && *env)
		return env;
	/* a user with a delegated cgroup cannot write /run: its own runtime directory */
	if (geteuid() != 0 && xdg && *xdg &&
	    (size_t)snprintf(user_dir, sizeof(user_dir), "%s/vmsuite", xdg) < sizeof(user_dir))
		return user_dir;
	return VMS_HOSTSTATE_DIR;
}

/* ---- owners ---- */

/* Field 22 of /proc/PID/stat: the start time in clock ticks after boot. */
static int read_start_time(pid_t pid, unsigned long long *out)
{
	char path[64], *text, *p;
	int field, ret = -EINVAL;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	text = vms_read_text(path);
	if (!text)
		return errno ? -errno : -EIO;
	/* the command (field 2) may hold spaces and parentheses: count from its last ')' */
	p = strrchr(text, ')');
	for (field = 2; p && field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (p)
			while (p[1] == ' ')
				p++;
	}
	if (p) {
		char *end;

		errno = 0;
		*out = strtoull(p + 1, &end, 10);
		if (!errno && end != p + 1)
			ret = 0;
	}
	free(text);
	return ret;
}

int vms_host_owner_read(struct vms_host_owner *o, pid_t pid)
{
	char path[64];
	int fd, ret;
	ssize_t n;

	memset(o, 0, sizeof(*o));
	o->pid = (long)pid;
	ret = read_start_time(pid, &o->start_time);
	if (ret)
		return ret;
	vms_read_line(BOOT_ID_PATH, o->boot_id, sizeof(o->boot_id));
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, o->command, sizeof(o->command) - 1);
		close(fd);
		while (n > 0 && o->command[n - 1] == '\0')
			n--;
		for (ssize_t i = 0; i < n; i++)
			if (o->command[i] == '\0' || o->command[i] == '\n')
				o->command[i] = ' ';
		o->command[n > 0 ? n : 0] = '\0';
	}
	return 0;
}

int vms_host_owner_alive(const struct vms_host_owner *o)
{
	char boot_id[40] = "";
	unsigned long long start = 0;
	int ret;

	if (o->pid <= 0)
		return 0;
	if (o->boot_id[0] && !vms_read_line(BOOT_ID_PATH, boot_id, sizeof(boot_id)) &&
	    strcmp(boot_id, o->boot_id))
		return 0; /* made before a reboot */
	ret = read_start_time((pid_t)o->pid, &start);
	if (ret == -ENOENT || ret == -ESRCH)
		return 0;
	if (ret)
		return 1; /* cannot tell: never take a possibly live run for a dead one */
	return start == o->start_time;
}

static json_t *owner_json(const struct vms_host_owner *o)
{
	return json_pack("{s:I, s:I, s:s, s:s}", "pid", (json_int_t)o->pid, "start_time",
	                 (json_int_t)o->start_time, "boot_id", o->boot_id, "command", o->command);
}

static int owner_parse(const json_t *j, struct vms_host_owner *o)
{
	json_int_t pid, start;
	const char *boot = "", *cmd = "";

	memset(o, 0, sizeof(*o));
	if (json_unpack((json_t *)j, "{s:I, s:I, s?s, s?s}", "pid", &pid, "start_time", &start,
	                "boot_id", &boot, "command", &cmd) ||
	    pid <= 0 || start < 0)
		return -EINVAL;
	o->pid = (long)pid;
	o->start_time = (unsigned long long)start;
	snprintf(o->boot_id, sizeof(o->boot_id), "%s", boot);
	snprintf(o->command, sizeof(o->command), "%s", cmd);
	return 0;
}

/* ---- the state directory ---- */

int vms_hoststate_init(struct vms_hoststate *hs, const char *dir)
{
	const char *env = getenv("VMSUITE_STATE_DIR");
	/* a state directory of one's own (tests): the persistent records go there too */
	int own = dir || (env && *env);

	memset(hs, 0, sizeof(*hs));
	hs->lock_fd = -1;
	if (!dir)
		dir = vms_hoststate_default_dir();
	if ((size_t)snprintf(hs->dir, sizeof(hs->dir), "%s", dir) >= sizeof(hs->dir) ||
	    (size_t)snprintf(hs->persist_dir, sizeof(hs->persist_dir), "%s",
	                     own ? dir : VMS_HOSTSTATE_PERSIST_DIR) >= sizeof(hs->persist_dir))
		return -ENAMETOOLONG;
	if (vms_host_owner_read(&hs->self, getpid()))
		hs->self.pid = (long)getpid(); /* no /proc: liveness then cannot be told */
	return 0;
}

int vms_hoststate_too_long(const char *dir)
{
	const struct vms_hoststate *hs = NULL;
	const char *env = getenv("VMSUITE_STATE_DIR");
	char *shown;
	size_t len;

	if (!dir)
		dir = vms_hoststate_default_dir();
	len = strlen(dir);
	shown = vms_text_escape(dir);
	if (strlen(shown) > 64)
		memcpy(shown + 61, "...", 4);
	vms_error("the state directory '%s' is too long (%zu bytes, at most %zu)%s", shown, len,
	          sizeof(hs->dir) - 1, env && *env ? ": VMSUITE_STATE_DIR names it" : "");
	free(shown);
	return -ENAMETOOLONG;
}

void vms_hoststate_release(struct vms_hoststate *hs)
{
	if (hs->lock_fd < 0)
		return;
	/* nobody holds it now: the next waiter must not name this process */
	if (ftruncate(hs->lock_fd, 0)) {
		/* a stale holder names a dead process, which readers recognise */
	}
	close(hs->lock_fd);
	hs->lock_fd = -1;
}

/* mkdir -p (mode 0755): a state directory whose parents are missing is made with them, so
 * that a run never goes without the lock for want of them. */
static int make_dirs(const char *path)
{
	char *parent, *slash;
	int ret;

	if (!mkdir(path, 0755) || errno == EEXIST)
		return 0;
	if (errno != ENOENT || !(slash = strrchr(path, '/')) || slash == path)
		return -errno;
	parent = vms_xstrdup(path);
	parent[slash - path] = '\0';
	ret = make_dirs(parent);
	free(parent);
	if (ret)
		return ret;
	return !mkdir(path, 0755) || errno == EEXIST ? 0 : -errno;
}

static int make_dir(const char *path)
{
	int ret = make_dirs(path);

	if (ret)
		vms_error("cannot create '%s': %s", path, strerror(-ret));
	return ret;
}

static void lock_path(const struct vms_hoststate *hs, char *buf, size_t len)
{
	snprintf(buf, len, "%s/lock", hs->dir);
}

static void journal_path(const struct vms_hoststate *hs, char *buf, size_t len)
{
	snprintf(buf, len, "%s/journal", hs->dir);
}

int vms_hoststate_holder(const struct vms_hoststate *hs, struct vms_host_owner *o)
{
	char path[PATH_MAX];
	json_t *j;
	int ret;

	lock_path(hs, path, sizeof(path));
	j = json_load_file(path, 0, NULL);
	if (!j)
		return access(path, F_OK) && errno ? -errno : -ENOENT;
	ret = owner_parse(json_object_get(j, "holder"), o);
	json_decref(j);
	if (ret)
		return -ENOENT;
	return vms_host_owner_alive(o) ? 0 : -ENOENT;
}

static void describe_holder(const struct vms_hoststate *hs, char *buf, size_t len)
{
	struct vms_host_owner o = {0};

	if (vms_hoststate_holder(hs, &o))
		snprintf(buf, len, "another process");
	else
		snprintf(buf, len, "pid %ld ('%s')", o.pid, o.command);
}

/* A live process other than this one that holds a flock on the file path named before it was
 * deleted (the state directory was deleted, and made again, under a held lock: that run still
 * holds the lock, on a file nobody else can open). Its pid, or 0. Reads /proc/locks and the
 * holders' /proc/PID/fd; what cannot be read counts as no holder. */
static long deleted_lock_holder(const char *path)
{
	char *locks = vms_read_text("/proc/locks"), *line, *next, real[PATH_MAX];
	char want[PATH_MAX + 16], dir[PATH_MAX], *slash;
	long found = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!locks || !slash) {
		free(locks);
		return 0;
	}
	*slash = '\0';
	/* the holder's fd names the directory as the kernel resolved it */
	if (!realpath(slash == dir ? "/" : dir, real) ||
	    (size_t)snprintf(want, sizeof(want), "%s/%s (deleted)", strcmp(real, "/") ? real : "",
	                     slash + 1) >= sizeof(want)) {
		free(locks);
		return 0;
	}
	for (line = locks; line && *line && !found; line = next) {
		char type[16], rw[16], fds[64], link[PATH_MAX + 16];
		struct dirent *d;
		long pid;
		DIR *dh;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"; waiters read "1: -> FLOCK" */
		if (sscanf(line, "%*[^:]: %15s %*s %15s %ld", type, rw, &pid) != 3 ||
		    strcmp(type, "FLOCK") || strcmp(rw, "WRITE") || pid == (long)getpid())
			continue;
		snprintf(fds, sizeof(fds), "/proc/%ld/fd", pid);
		if (!(dh = opendir(fds)))
			continue;
		while (!found && (d = readdir(dh))) {
			char fd_path[sizeof(fds) + 256];
			ssize_t n;

			snprintf(fd_path, sizeof(fd_path), "%s/%s", fds, d->d_name);
			n = readlink(fd_path, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = '\0';
			if (!strcmp(link, want))
				found = pid;
		}
		closedir(dh);
	}
	free(locks);
	return found;
}

int vms_hoststate_lock(struct vms_hoststate *hs, int wait, const volatile sig_atomic_t *stop)
{
	char path[PATH_MAX], who[512];
	json_t *j;
	char *text;
	int fd, told = 0, e;
	long orphan = 0;

	if (hs->lock_fd >= 0)
		return 0;
	if ((e = make_dir(hs->dir)))
		return e;
	lock_path(hs, path, sizeof(path));
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		e = -errno;
		return vms_error_ret(e, "cannot open the host lock '%s': %s", path, strerror(-e));
	}
	for (;;) {
		if (!flock(fd, LOCK_EX | LOCK_NB)) {
			/* the lock of a state directory deleted under its holder is still held */
			if (!(orphan = deleted_lock_holder(path)))
				break;
			flock(fd, LOCK_UN);
		} else if (errno == EINTR) {
			continue;
		} else if (errno != EWOULDBLOCK) {
			e = -errno;
			vms_error("cannot lock '%s': %s", path, strerror(-e));
			goto out_close;
		}
		if (!told) {
			if (orphan)
				snprintf(
				    who, sizeof(who),
				    "pid %ld, whose state directory was deleted while it held it",
				    orphan);
			else
				describe_holder(hs, who, sizeof(who));
			if (!wait) {
				e = -EWOULDBLOCK;
				vms_error(
				    "another vmsuite run changes the host: the host lock '%s' is "
				    "held by %s",
				    path, who);
				goto out_close;
			}
			vms_note("waiting for the host lock '%s' held by %s (Ctrl-C gives up)",
			         path, who);
			told = 1;
		}
		if (stop && *stop) {
			e = -EINTR;
			goto out_close;
		}
		vms_sleep(0.1, (volatile int *)stop);
	}
	/* who holds it, for the messages of those who wait */
	j = json_pack("{s:s, s:o}", "format", RECORD_FORMAT, "holder", owner_json(&hs->self));
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (!ftruncate(fd, 0) && text && pwrite(fd, text, strlen(text), 0) < 0)
		vms_warn("cannot name the holder in '%s': %s", path, strerror(errno));
	free(text);
	hs->lock_fd = fd;
	return 0;

out_close:
	close(fd);
	return e;
}

/* ---- the journal ---- */

int vms_hoststate_record(struct vms_hoststate *hs, struct vms_host_entry *e)
{
	static const unsigned char no_uuid[VMS_SWAPFILE_UUID_LEN];
	char dir[sizeof(hs->dir) + 16];
	json_t *j;
	char *text;
	int ret;

	journal_path(hs, dir, sizeof(dir));
	if ((ret = make_dir(hs->dir)) || (ret = make_dir(dir)))
		return ret;
	e->owner = hs->self;
	e->seq = ++hs->seq;
	snprintf(e->record, sizeof(e->record), "%s/%ld-%llu-%lu.json", dir, hs->self.pid,
	         hs->self.start_time, e->seq);
	j = json_pack("{s:s, s:s, s:s, s:i, s:s, s:I, s:o, s:s}", "format", RECORD_FORMAT, "kind",
	              vms_host_rows[e->kind]->name, "path", e->path, "cgroup_version",
	              e->cgroup_version, "original", e->original, "seq", (json_int_t)e->seq,
	              "owner", owner_json(&e->owner), "what", vms_host_rows[e->kind]->what);
	if (memcmp(e->swap_uuid, no_uuid, sizeof(no_uuid))) {
		char uuid[40];

		/* what the undo checks the file's header against */
		vms_swapfile_uuid_text(e->swap_uuid, uuid);
		json_object_set_new(j, "uuid", json_string(uuid));
	}
	if (e->kind == VMS_HOST_ZRAM) /* what tells the device from another of its number */
		json_object_set_new(j, "diskseq", json_integer((json_int_t)e->diskseq));
	if (e->partner[0]) {
		json_object_set_new(j, "partner", json_string(e->partner));
		json_object_set_new(j, "partner_original", json_string(e->partner_original));
	}
	text = json_dumps(j, JSON_INDENT(2));
	json_decref(j);
	ret = text ? vms_write_atomic(e->record, text, strlen(text), 0) : -ENOMEM;
	free(text);
	if (ret)
		vms_error("cannot record the %s '%s' in '%s': %s", vms_host_rows[e->kind]->what,
		          e->path, e->record, strerror(-ret));
	return ret;
}

int vms_hoststate_forget(struct vms_hoststate *hs, const struct vms_host_entry *e)
{
	int ret;

	(void)hs;
	if (!unlink(e->record) || errno == ENOENT)
		return 0;
	ret = -errno;
	vms_error("cannot remove the journal record '%s': %s", e->record, strerror(-ret));
	return ret;
}

/* ---- the persistent swap-file records ---- */

static void persist_path(const struct vms_hoststate *hs, char *buf, size_t len)
{
	snprintf(buf, len, "%s/swapfiles", hs->persist_dir);
}

/* mkdir -p that lasts: each new directory's entry is fsynced in its parent (a system without
 * /var/lib, such as the kernel lab's initramfs, gets it made). 0 or -errno; reports nothing. */
static int make_dirs_durable(const char *path)
{
	char *parent = vms_xstrdup(path), *slash = strrchr(parent, '/');
	int fd, ret = 0;

	if (slash)
		*(slash == parent ? slash + 1 : slash) = '\0';
	if (mkdir(path, 0755)) {
		if (errno == EEXIST)
			goto out;
		ret = -errno;
		/* a parent is missing: it first, then this one */
		if (ret == -ENOENT && slash && strcmp(parent, path) &&
		    !(ret = make_dirs_durable(parent)) && mkdir(path, 0755) && errno != EEXIST)
			ret = -errno;
		if (ret)
			goto out;
	}
	fd = open(slash ? parent : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
out:
	free(parent);
	return ret;
}

/* <persist dir>/swapfiles/<boot id>-<pid>-<start time>-<seq>.json: unique across boots. */
static int persist_record_path(const struct vms_hoststate *hs, const struct vms_host_entry *e,
                               char *buf, size_t len)
{
	char dir[sizeof(hs->persist_dir) + 16];

	persist_path(hs, dir, sizeof(dir));
	if ((size_t)snprintf(buf, len, "%s/%s-%ld-%llu-%lu.json", dir,
	                     e->owner.boot_id[0] ? e->owner.boot_id : "unknown-boot", e->owner.pid,
	                     e->owner.start_time, e->seq) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int vms_hoststate_persist(struct vms_hoststate *hs, const struct vms_host_entry *e)
{
	char dir[sizeof(hs->persist_dir) + 16], file[PATH_MAX], uuid[40];
	json_t *j;
	char *text;
	int ret;

	persist_path(hs, dir, sizeof(dir));
	if ((ret = make_dirs_durable(dir)))
		return vms_error_ret(ret, "cannot create '%s' for the swap file records: %s", dir,
		                     strerror(-ret));
	if ((ret = persist_record_path(hs, e, file, sizeof(file))))
		return vms_error_ret(ret, "the record of the swap file '%s' in '%s': name too long",
		                     e->path, dir);
	vms_swapfile_uuid_text(e->swap_uuid, uuid);
	j = json_pack("{s:s, s:s, s:s, s:s, s:I, s:o, s:s}", "format", PERSIST_FORMAT, "path",
	              e->path, "uuid", uuid, "label", VMS_SWAPFILE_LABEL, "seq", (json_int_t)e->seq,
	              "owner", owner_json(&e->owner), "what", "swap file");
	text = json_dumps(j, JSON_INDENT(2));
	json_decref(j);
	/* fsyncs the record and its directory: on disk before the swap file is */
	ret = text ? vms_write_atomic(file, text, strlen(text), 0) : -ENOMEM;
	free(text);
	if (ret)
		vms_error("cannot record the swap file '%s' in '%s': %s", e->path, file,
		          strerror(-ret));
	return ret;
}

int vms_hoststate_unpersist(struct vms_hoststate *hs, const struct vms_host_entry *e)
{
	char file[PATH_MAX];
	int ret;

	if (persist_record_path(hs, e, file, sizeof(file)))
		return 0; /* could never have been written */
	if (!unlink(file) || errno == ENOENT)
		return 0;
	ret = -errno;
	vms_error("cannot remove the swap file record '%s': %s", file, strerror(-ret));
	return ret;
}

static int persist_parse(const char *file, struct vms_host_entry *e)
{
	json_t *j = json_load_file(file, 0, NULL);
	const char *format = "", *path = "", *uuid = "";
	json_t *owner = NULL;
	json_int_t seq = 0;
	int ret = -EINVAL;

	memset(e, 0, sizeof(*e));
	if (!j)
		return -EINVAL;
	if (json_unpack(j, "{s:s, s:s, s:s, s?I, s:o}", "format", &format, "path", &path, "uuid",
	                &uuid, "seq", &seq, "owner", &owner) ||
	    strcmp(format, PERSIST_FORMAT) || path[0] != '/' ||
	    vms_swapfile_uuid_parse(uuid, e->swap_uuid) || owner_parse(owner, &e->owner) ||
	    !e->owner.boot_id[0])
		goto out;
	e->kind = VMS_HOST_SWAPFILE;
	e->seq = seq > 0 ? (unsigned long)seq : 0;
	snprintf(e->path, sizeof(e->path), "%s", path);
	snprintf(e->record, sizeof(e->record), "%s", file);
	ret = 0;
out:
	json_decref(j);
	return ret;
}

/* The persistent records of swap files made before this boot (see vms_hoststate_repair). */
static void repair_persistent(struct vms_hoststate *hs, vms_host_report_fn report, void *arg,
                              int *done, int *first_err)
{
	char dir[sizeof(hs->persist_dir) + 16], boot_id[40] = "";
	struct vms_host_entry *e = vms_xcalloc(1, sizeof(*e));
	struct dirent *d;
	DIR *dh;

	persist_path(hs, dir, sizeof(dir));
	/* only root makes swap files, and only root can remove them; unknown boot: cannot tell */
	if (access(dir, W_OK) || vms_read_line(BOOT_ID_PATH, boot_id, sizeof(boot_id)) ||
	    !boot_id[0] || !(dh = opendir(dir))) {
		free(e);
		return;
	}
	while ((d = readdir(dh))) {
		size_t len = strlen(d->d_name);
		char file[PATH_MAX];
		enum vms_host_outcome outcome;
		int r;

		if (len < 6 || strcmp(d->d_name + len - 5, ".json") ||
		    (size_t)snprintf(file, sizeof(file), "%s/%s", dir, d->d_name) >= sizeof(file))
			continue;
		if (persist_parse(file, e)) {
			vms_warn("ignoring the swap file record '%s': not a vmsuite record", file);
			continue;
		}
		if (!strcmp(e->owner.boot_id, boot_id))
			continue; /* this boot's: the journal in hs->dir knows it */
		e->earlier_boot = 1;
		r = vms_swapfile_remove_verified(e->path, e->swap_uuid, e->why, sizeof(e->why));
		if (r == 2) {
			outcome = VMS_HOST_REFUSED; /* file and record kept: said again next time */
			r = 0;
		} else if (r < 0) {
			outcome = VMS_HOST_FAILED; /* the record stays for the next attempt */
			if (!*first_err)
				*first_err = r;
		} else {
			outcome = r == 1 ? VMS_HOST_GONE : VMS_HOST_UNDONE;
			(*done)++;
			r = 0;
			if (unlink(file) && errno != ENOENT)
				vms_error("cannot remove the swap file record '%s': %s", file,
				          strerror(errno));
		}
		if (report)
			report(e, outcome, r < 0 ? r : 0, arg);
	}
	closedir(dh);
	free(e);
}

static int entry_parse(const char *file, struct vms_host_entry *e)
{
	json_t *j = json_load_file(file, 0, NULL);
	const char *format = "", *kind = "", *path = "", *original = "";
	const char *partner = "", *partner_original = "", *uuid = NULL;
	json_t *owner = NULL;
	json_int_t seq = 0, diskseq = 0;
	int version = 0, ret = -EINVAL;
	unsigned k;

	memset(e, 0, sizeof(*e));
	if (!j)
		return -EINVAL;
	if (json_unpack(j, "{s:s, s:s, s:s, s?i, s?s, s?I, s:o, s?s, s?s, s?s, s?I}", "format",
	                &format, "kind", &kind, "path", &path, "cgroup_version", &version,
	                "original", &original, "seq", &seq, "owner", &owner, "partner", &partner,
	                "partner_original", &partner_original, "uuid", &uuid, "diskseq",
	                &diskseq) ||
	    strcmp(format, RECORD_FORMAT) || !*path || path[0] != '/' || diskseq < 0 ||
	    (*partner && partner[0] != '/') ||
	    (uuid && vms_swapfile_uuid_parse(uuid, e->swap_uuid)))
		goto out;
	for (k = 0; k < VMS_HOST_KIND_NR && strcmp(vms_host_rows[k]->name, kind); k++)
		;
	if (k == VMS_HOST_KIND_NR || owner_parse(owner, &e->owner))
		goto out;
	e->kind = (enum vms_host_kind)k;
	e->cgroup_version = version;
	e->seq = seq > 0 ? (unsigned long)seq : 0;
	e->diskseq = (unsigned long long)diskseq;
	snprintf(e->path, sizeof(e->path), "%s", path);
	snprintf(e->original, sizeof(e->original), "%s", original);
	snprintf(e->partner, sizeof(e->partner), "%s", partner);
	snprintf(e->partner_original, sizeof(e->partner_original), "%s", partner_original);
	snprintf(e->record, sizeof(e->record), "%s", file);
	ret = 0;
out:
	json_decref(j);
	return ret;
}

/* Owners together, each owner's newest change first (undone in reverse order of making). */
static int entry_cmp(const void *pa, const void *pb)
{
	const struct vms_host_entry *a = pa, *b = pb;

	if (a->owner.pid != b->owner.pid)
		return a->owner.pid < b->owner.pid ? -1 : 1;
	if (a->owner.start_time != b->owner.start_time)
		return a->owner.start_time < b->owner.start_time ? -1 : 1;
	return a->seq > b->seq ? -1 : a->seq < b->seq;
}

int vms_hoststate_list(const struct vms_hoststate *hs, struct vms_host_entry **out, size_t *n)
{
	char dir[PATH_MAX];
	struct dirent *d;
	size_t cap = 0;
	DIR *dh;
	int ret;

	*out = NULL;
	*n = 0;
	journal_path(hs, dir, sizeof(dir));
	dh = opendir(dir);
	if (!dh) {
		if (errno == ENOENT)
			return 0;
		ret = -errno;
		return vms_error_ret(ret, "cannot read the journal '%s': %s", dir, strerror(-ret));
	}
	while ((d = readdir(dh))) {
		size_t len = strlen(d->d_name);
		char file[PATH_MAX];

		/* records end in .json; vms_write_atomic's temporaries do not */
		if (len < 6 || strcmp(d->d_name + len - 5, ".json") ||
		    (size_t)snprintf(file, sizeof(file), "%s/%s", dir, d->d_name) >= sizeof(file))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			*out = vms_xrealloc(*out, cap * sizeof(**out));
		}
		if (entry_parse(file, &(*out)[*n])) {
			vms_warn("ignoring the journal record '%s': not a vmsuite record", file);
			continue;
		}
		(*n)++;
	}
	closedir(dh);
	if (*n)
		qsort(*out, *n, sizeof(**out), entry_cmp);
	return 0;
}

/* ---- undo ---- */

/* The names vmsuite gives what it makes in a private work directory: .vmsuite-*.tmp */
static int own_work_file(const char *name)
{
	size_t len = strlen(name);

	return len > 13 && !strncmp(name, ".vmsuite-", 9) && !strcmp(name + len - 4, ".tmp");
}

/* Through a descriptor opened without following symlinks, so that a directory swapped for a
 * symlink after the check is never entered: first checks that every entry is vmsuite's own,
 * then unlinks them, then removes the directory. */
static int undo_workdir(const struct vms_host_entry *e)
{
	const char *base = strrchr(e->path, '/');
	struct dirent *d;
	int fd, ret = 0, pass;
	DIR *dh;

	if (!base || strncmp(base + 1, ".vmsuite-", 9))
		return 2; /* vmsuite names every private work directory .vmsuite-* */
	fd = open(e->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 1 : errno == ENOTDIR || errno == ELOOP ? 2 : -errno;
	dh = fdopendir(fd);
	if (!dh) {
		ret = -errno;
		close(fd);
		return ret;
	}
	for (pass = 0; pass < 2 && !ret; pass++) {
		rewinddir(dh);
		while ((d = readdir(dh))) {
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (!own_work_file(d->d_name)) {
				ret =
				    2; /* not made by vmsuite: left alone, and the directory too */
				break;
			}
			if (pass == 1 && unlinkat(fd, d->d_name, 0) && errno != ENOENT) {
				ret = -errno;
				break;
			}
		}
	}
	closedir(dh);
	if (ret)
		return ret;
	if (rmdir(e->path))
		return errno == ENOENT ? 1 : -errno;
	return 0;
}

const struct vms_host_kind_row vms_host_row_workdir = {
    .name = "workdir",
    .what = "work directory",
    .undo = undo_workdir,
};

/* ---- what a dead run left half-written ---- */

/* The writer of name if it is a temporary file of a record ("<record>.json.tmp.<pid>"): the
 * record's name gives its owner (<pid>-<start time>-<seq>.json in the journal, <boot id>-<pid>-
 * <start time>-<seq>.json among the persistent records), whose pid must be the writer's.
 * 0, or -EINVAL (not such a file: left alone). */
static int temporary_owner(const char *name, int persistent, struct vms_host_owner *o)
{
	const char *tmp = strstr(name, ".json.tmp."), *p;
	char head[256], *dash[3], *end;
	long writer;
	int i;

	memset(o, 0, sizeof(*o));
	if (!tmp || (size_t)(tmp - name) >= sizeof(head) || !isdigit((unsigned char)tmp[10]))
		return -EINVAL;
	errno = 0;
	writer = strtol(tmp + 10, &end, 10);
	if (errno || *end || writer <= 0)
		return -EINVAL;
	memcpy(head, name, (size_t)(tmp - name));
	head[tmp - name] = '\0';
	/* from the right: seq, start time, pid; a boot id before them */
	for (i = 0; i < 3; i++) {
		dash[i] = strrchr(head, '-');
		if (!dash[i])
			break;
		*dash[i] = '\0';
	}
	if (i == 3 && !persistent)
		return -EINVAL; /* a journal record's name has two dashes */
	if (i < 2 || (persistent && i < 3))
		return -EINVAL;
	p = persistent ? dash[2] + 1 : head;
	errno = 0;
	o->pid = strtol(p, &end, 10);
	if (errno || *end || o->pid != writer)
		return -EINVAL;
	o->start_time = strtoull(dash[1] + 1, &end, 10);
	if (errno || *end)
		return -EINVAL;
	if (persistent && strcmp(head, "unknown-boot")) {
		if (strlen(head) >= sizeof(o->boot_id))
			return -EINVAL;
		memcpy(o->boot_id, head, strlen(head) + 1);
	}
	return 0;
}

/* Removes the temporary files of dead writers in dir (see vms_hoststate_repair()). */
static void remove_temporaries(const char *dir, int persistent, vms_host_report_fn report,
                               void *arg, int *done)
{
	struct vms_host_entry *e = vms_xcalloc(1, sizeof(*e));
	struct dirent *d;
	DIR *dh = opendir(dir);

	if (!dh) {
		free(e);
		return;
	}
	while ((d = readdir(dh))) {
		if (temporary_owner(d->d_name, persistent, &e->owner) ||
		    vms_host_owner_alive(&e->owner) ||
		    (size_t)snprintf(e->record, sizeof(e->record), "%s/%s", dir, d->d_name) >=
		        sizeof(e->record))
			continue;
		if (unlink(e->record) && errno != ENOENT) {
			vms_warn("cannot remove '%s', which a dead vmsuite was writing: %s",
			         e->record, strerror(errno));
			continue;
		}
		e->kind = persistent ? VMS_HOST_SWAPFILE : VMS_HOST_KIND_NR;
		snprintf(e->path, sizeof(e->path), "%s", e->record);
		(*done)++;
		if (report)
			report(e, VMS_HOST_TEMPORARY, 0, arg);
	}
	closedir(dh);
	free(e);
}

int vms_hoststate_repair(struct vms_hoststate *hs, vms_host_report_fn report, void *arg)
{
	char dir[PATH_MAX];
	struct vms_host_entry *es;
	size_t n, i;
	int ret, done = 0, first_err = 0;

	journal_path(hs, dir, sizeof(dir));
	remove_temporaries(dir, 0, report, arg, &done);
	persist_path(hs, dir, sizeof(dir));
	if (!access(dir, W_OK)) /* only root writes them, and removes them */
		remove_temporaries(dir, 1, report, arg, &done);
	if ((ret = vms_hoststate_list(hs, &es, &n)))
		return ret;
	for (i = 0; i < n; i++) {
		enum vms_host_outcome outcome;
		int r = 0;

		if (vms_host_owner_alive(&es[i].owner)) {
			outcome = VMS_HOST_LIVE;
		} else {
			int undone = vms_host_entry_undo(&es[i]);

			if (undone == 2) {
				outcome = VMS_HOST_REFUSED;
			} else {
				r = undone < 0 ? undone : vms_hoststate_forget(hs, &es[i]);
				/* the file is gone: so goes its record for after a reboot */
				if (!r && es[i].kind == VMS_HOST_SWAPFILE)
					vms_hoststate_unpersist(hs, &es[i]); /* reported */
				outcome = r             ? VMS_HOST_FAILED
				          : undone == 1 ? VMS_HOST_GONE
				                        : VMS_HOST_UNDONE;
				if (!r)
					done++;
				else if (!first_err)
					first_err = r;
			}
		}
		if (report)
			report(&es[i], outcome, r < 0 ? r : 0, arg);
	}
	free(es);
	repair_persistent(hs, report, arg, &done, &first_err);
	return first_err ? first_err : done;
}
