/* Unit tests of core/hoststate.c in a temporary state directory: owners told apart by start
 * time, records written and forgotten, repair of dead owners' entries only (newest first) and
 * of the records they were writing when they died, the
 * exclusive lock (refusal, waiting, the holder named), and the /run/vmsuite default. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/hoststate.h"
#include "core/swapfile.h"
#include "core/util.h"

static char tmp[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/vms-hoststate-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd);
}

/* A child that sleeps until killed; its comm holds spaces and parentheses, as a hostile
 * /proc/PID/stat field 2 can. */
static pid_t sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_NAME, "a) b (c) d", 0, 0, 0);
		for (;;)
			pause();
	}
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_default_dir(void **state)
{
	(void)state;
	unsetenv("VMSUITE_STATE_DIR");
	setenv("XDG_RUNTIME_DIR", "/run/user/1000", 1);
	assert_string_equal(vms_hoststate_default_dir(),
	                    geteuid() == 0 ? "/run/vmsuite" : "/run/user/1000/vmsuite");
	unsetenv("XDG_RUNTIME_DIR");
	assert_string_equal(vms_hoststate_default_dir(), "/run/vmsuite");
	setenv("VMSUITE_STATE_DIR", "", 1);
	assert_string_equal(vms_hoststate_default_dir(), "/run/vmsuite");
	setenv("VMSUITE_STATE_DIR", "/tmp/elsewhere", 1);
	assert_string_equal(vms_hoststate_default_dir(), "/tmp/elsewhere");
	unsetenv("VMSUITE_STATE_DIR");
}

static void test_owner_alive(void **state)
{
	struct vms_host_owner self, o, renamed;
	pid_t pid;

	(void)state;
	assert_int_equal(vms_host_owner_read(&self, getpid()), 0);
	assert_true(self.start_time > 0);
	assert_true(vms_host_owner_alive(&self));
	assert_non_null(strstr(self.command, "test_hoststate"));

	pid = sleeper();
	assert_true(pid > 0);
	assert_int_equal(vms_host_owner_read(&o, pid), 0);
	assert_true(vms_host_owner_alive(&o));
	/* the child's new name must not shift the fields: the same start time after renaming */
	usleep(100000);
	assert_int_equal(vms_host_owner_read(&renamed, pid), 0);
	assert_true(renamed.start_time == o.start_time);
	assert_true(o.start_time >= self.start_time);
	/* field 22 it is: the child started moments ago, in clock ticks since boot */
	{
		char *up = vms_read_text("/proc/uptime");
		double since_boot = strtod(up, NULL);
		double started = (double)renamed.start_time / (double)sysconf(_SC_CLK_TCK);

		free(up);
		assert_true(started <= since_boot + 1 && started > since_boot - 60);
	}
	reap(pid);
	assert_false(vms_host_owner_alive(&o));
	assert_int_equal(vms_host_owner_read(&o, pid), -ENOENT);

	/* the same pid with another start time, or from another boot, is another process */
	o = self;
	o.start_time++;
	assert_false(vms_host_owner_alive(&o));
	o = self;
	snprintf(o.boot_id, sizeof(o.boot_id), "00000000-0000-0000-0000-000000000000");
	assert_false(vms_host_owner_alive(&o));
	o.pid = 0;
	assert_false(vms_host_owner_alive(&o));
}

static void test_record_list_forget(void **state)
{
	struct vms_hoststate hs;
	struct vms_host_entry e = {0}, *es;
	char *text;
	size_t n;

	(void)state;
	assert_int_equal(vms_hoststate_init(&hs, tmp), 0);
	assert_int_equal(hs.self.pid, (long)getpid());
	assert_int_equal(vms_hoststate_list(&hs, &es, &n), 0); /* no journal yet */
	assert_int_equal(n, 0);

	e.kind = VMS_HOST_CGROUP;
	e.cgroup_version = 2;
	snprintf(e.path, sizeof(e.path), "%s/vmsuite-1", tmp);
	assert_int_equal(vms_hoststate_record(&hs, &e), 0);
	assert_int_equal(access(e.record, F_OK), 0);
	assert_true(e.owner.pid == (long)getpid());
	text = vms_read_text(e.record);
	assert_non_null(strstr(text, "\"kind\": \"cgroup\""));
	assert_non_null(strstr(text, "\"start_time\""));
	free(text);

	assert_int_equal(vms_hoststate_list(&hs, &es, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(es[0].kind, VMS_HOST_CGROUP);
	assert_int_equal(es[0].cgroup_version, 2);
	assert_string_equal(es[0].path, e.path);
	assert_string_equal(es[0].record, e.record);
	assert_true(es[0].owner.start_time == hs.self.start_time);
	free(es);

	/* something that is not a record is skipped and left where it is */
	{
		char junk[256];

		snprintf(junk, sizeof(junk), "%s/journal/junk.json", tmp);
		assert_int_equal(vms_write_atomic(junk, "{\"kind\": 1}", 11, 0), 0);
		assert_int_equal(vms_hoststate_list(&hs, &es, &n), 0);
		assert_int_equal(n, 1);
		free(es);
		assert_int_equal(access(junk, F_OK), 0);
		unlink(junk);
	}

	assert_int_equal(vms_hoststate_forget(&hs, &e), 0);
	assert_int_equal(access(e.record, F_OK), -1);
	assert_int_equal(vms_hoststate_forget(&hs, &e), 0); /* already gone: fine */
	assert_int_equal(vms_hoststate_list(&hs, &es, &n), 0);
	assert_int_equal(n, 0);
}

struct seen {
	int n;
	enum vms_host_outcome outcome[8];
	char path[8][PATH_MAX];
	int earlier_boot[8];
	char why[8][256];
};

static void note(const struct vms_host_entry *e, enum vms_host_outcome outcome, int err, void *arg)
{
	struct seen *s = arg;

	(void)err;
	if (s->n < 8) {
		s->outcome[s->n] = outcome;
		snprintf(s->path[s->n], sizeof(s->path[0]), "%s", e->path);
		s->earlier_boot[s->n] = e->earlier_boot;
		snprintf(s->why[s->n], sizeof(s->why[0]), "%s", e->why);
	}
	s->n++;
}

static void add(struct vms_hoststate *hs, const char *name, int make_dir)
{
	struct vms_host_entry e = {0};

	e.kind = VMS_HOST_CGROUP;
	e.cgroup_version = 1;
	snprintf(e.path, sizeof(e.path), "%s/%s", tmp, name);
	if (make_dir)
		assert_int_equal(mkdir(e.path, 0755), 0);
	assert_int_equal(vms_hoststate_record(hs, &e), 0);
}

static int dir_exists(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void test_repair(void **state)
{
	struct vms_hoststate mine, dead;
	struct vms_host_entry *es;
	struct seen seen = {0};
	pid_t pid;
	size_t n;
	int i;

	(void)state;
	assert_int_equal(vms_hoststate_init(&mine, tmp), 0);
	add(&mine, "vmsuite-live", 1);

	/* a run that is gone: its changes are recorded under its own identity */
	pid = sleeper();
	assert_int_equal(vms_hoststate_init(&dead, tmp), 0);
	assert_int_equal(vms_host_owner_read(&dead.self, pid), 0);
	add(&dead, "vmsuite-old", 1);  /* seq 1: undone last */
	add(&dead, "vmsuite-gone", 0); /* seq 2: already removed by someone */
	add(&dead, "not-ours", 1);     /* seq 3: a name vmsuite never makes */
	reap(pid);

	assert_int_equal(vms_hoststate_repair(&mine, note, &seen), 2);
	assert_int_equal(seen.n, 4);
	assert_false(dir_exists("vmsuite-old"));
	assert_true(dir_exists("vmsuite-live"));
	assert_true(dir_exists("not-ours"));
	for (i = 0; i < seen.n; i++) {
		const char *base = strrchr(seen.path[i], '/') + 1;

		if (!strcmp(base, "vmsuite-live"))
			assert_int_equal(seen.outcome[i], VMS_HOST_LIVE);
		else if (!strcmp(base, "vmsuite-old"))
			assert_int_equal(seen.outcome[i], VMS_HOST_UNDONE);
		else if (!strcmp(base, "vmsuite-gone"))
			assert_int_equal(seen.outcome[i], VMS_HOST_GONE);
		else
			assert_int_equal(seen.outcome[i], VMS_HOST_REFUSED);
	}
	/* one owner's changes are undone newest first */
	{
		int gone = -1, old = -1;

		for (i = 0; i < seen.n; i++) {
			if (strstr(seen.path[i], "vmsuite-gone"))
				gone = i;
			if (strstr(seen.path[i], "vmsuite-old"))
				old = i;
		}
		assert_true(gone >= 0 && old > gone);
	}
	/* left: the live entry and the refused one */
	assert_int_equal(vms_hoststate_list(&mine, &es, &n), 0);
	assert_int_equal(n, 2);
	free(es);
	/* a second repair changes nothing */
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(vms_hoststate_repair(&mine, note, &seen), 0);
	assert_int_equal(seen.n, 2);
}

static void touch(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"format\": \"vmsuite.hoststate/1\", \"ki", f); /* cut short by SIGKILL */
	assert_int_equal(fclose(f), 0);
}

static int exists(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return !access(path, F_OK);
}

/* A run SIGKILLed while it wrote a record leaves vms_write_atomic()'s temporary file: the
 * repair removes those of dead runs (journal and persistent records) and reports them; a live
 * run's and files of other names stay. */
static void test_repair_temporaries(void **state)
{
	struct vms_hoststate mine;
	struct vms_host_owner dead;
	struct seen seen = {0};
	char dir[PATH_MAX];
	pid_t pid;
	int i;

	(void)state;
	assert_int_equal(vms_hoststate_init(&mine, tmp), 0);
	pid = sleeper();
	assert_int_equal(vms_host_owner_read(&dead, pid), 0);
	reap(pid);
	assert_true(dead.boot_id[0]);
	snprintf(dir, sizeof(dir), "%s/journal", tmp);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/swapfiles", tmp);
	assert_int_equal(mkdir(dir, 0755), 0);
	touch("%s/journal/%ld-%llu-3.json.tmp.%ld", tmp, dead.pid, dead.start_time, dead.pid);
	touch("%s/swapfiles/%s-%ld-%llu-1.json.tmp.%ld", tmp, dead.boot_id, dead.pid,
	      dead.start_time, dead.pid);
	touch("%s/journal/%ld-%llu-1.json.tmp.%ld", tmp, mine.self.pid, mine.self.start_time,
	      mine.self.pid); /* being written now */
	touch("%s/journal/%ld-%llu-2.json.tmp.%ld", tmp, dead.pid, dead.start_time,
	      mine.self.pid); /* another writer than the record's owner: not a name vmsuite makes */
	touch("%s/journal/notes.tmp.1", tmp);

	assert_int_equal(vms_hoststate_repair(&mine, note, &seen), 2);
	assert_int_equal(seen.n, 2);
	for (i = 0; i < 2; i++) {
		assert_int_equal(seen.outcome[i], VMS_HOST_TEMPORARY);
		assert_non_null(strstr(seen.path[i], ".json.tmp."));
	}
	assert_false(
	    exists("%s/journal/%ld-%llu-3.json.tmp.%ld", tmp, dead.pid, dead.start_time, dead.pid));
	assert_false(exists("%s/swapfiles/%s-%ld-%llu-1.json.tmp.%ld", tmp, dead.boot_id, dead.pid,
	                    dead.start_time, dead.pid));
	assert_true(exists("%s/journal/%ld-%llu-1.json.tmp.%ld", tmp, mine.self.pid,
	                   mine.self.start_time, mine.self.pid));
	assert_true(exists("%s/journal/%ld-%llu-2.json.tmp.%ld", tmp, dead.pid, dead.start_time,
	                   mine.self.pid));
	assert_true(exists("%s/journal/notes.tmp.1", tmp));
	/* nothing more the second time */
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(vms_hoststate_repair(&mine, note, &seen), 0);
	assert_int_equal(seen.n, 0);
}

/* A dead run's swap file record: its file (not switched on here: no root needed) is removed;
 * a record naming another file, or a symlink with vmsuite's name, is refused and nothing is
 * touched. The kind survives the record's round trip. */
static void test_repair_swapfile(void **state)
{
	struct vms_hoststate mine, dead;
	struct vms_host_entry e;
	struct seen seen = {0};
	char ours[128], other[128], link[128];
	struct stat st;
	pid_t pid;
	FILE *f;
	int i;

	(void)state;
	snprintf(ours, sizeof(ours), "%s/.vmsuite-swap-1", tmp);
	snprintf(other, sizeof(other), "%s/swapfile", tmp);
	snprintf(link, sizeof(link), "%s/.vmsuite-swap-2", tmp);
	for (i = 0; i < 2; i++) {
		f = fopen(i ? other : ours, "w");
		assert_non_null(f);
		fclose(f);
	}
	assert_int_equal(symlink(other, link), 0);
	assert_int_equal(vms_hoststate_init(&mine, tmp), 0);
	pid = sleeper();
	assert_int_equal(vms_hoststate_init(&dead, tmp), 0);
	assert_int_equal(vms_host_owner_read(&dead.self, pid), 0);
	for (i = 0; i < 3; i++) {
		memset(&e, 0, sizeof(e));
		e.kind = VMS_HOST_SWAPFILE;
		snprintf(e.path, sizeof(e.path), "%s", i == 0 ? ours : i == 1 ? other : link);
		assert_int_equal(vms_hoststate_record(&dead, &e), 0);
	}
	reap(pid);
	assert_int_equal(vms_hoststate_repair(&mine, note, &seen), 1);
	assert_int_equal(seen.n, 3);
	for (i = 0; i < seen.n; i++)
		assert_int_equal(seen.outcome[i],
		                 strcmp(seen.path[i], ours) ? VMS_HOST_REFUSED : VMS_HOST_UNDONE);
	assert_int_equal(lstat(ours, &st), -1);
	assert_int_equal(stat(other, &st), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(vms_host_kind_what(VMS_HOST_SWAPFILE), "swap file");
}

/* A dead run's swap file whose record holds the header's uuid (as every run writes it): the
 * undo removes the file only when it still carries vmsuite's header with that uuid; a file of
 * that name without the header, or with another uuid, is refused and kept. The uuid survives
 * the record's round trip. */
static void test_repair_swapfile_verified(void **state)
{
	struct vms_hoststate mine, dead;
	struct vms_host_entry e, *es;
	struct seen seen = {0};
	unsigned char uuid[3][VMS_SWAPFILE_UUID_LEN];
	char path[3][128];
	struct stat st;
	size_t n;
	pid_t pid;
	FILE *f;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/.vmsuite-swap-%d", tmp, 10 + i);
		vms_swapfile_new_uuid(uuid[i]);
	}
	/* 0: vmsuite's file; 1: the name, no header; 2: vmsuite's header, another uuid */
	assert_int_equal(vms_swapfile_create(path[0], 1 << 20, uuid[0], NULL, 0), 0);
	f = fopen(path[1], "w");
	assert_non_null(f);
	assert_true(fputs("not a swap area\n", f) >= 0);
	assert_int_equal(fclose(f), 0);
	{
		unsigned char other[VMS_SWAPFILE_UUID_LEN];

		vms_swapfile_new_uuid(other);
		assert_int_equal(vms_swapfile_create(path[2], 1 << 20, other, NULL, 0), 0);
	}
	assert_int_equal(vms_hoststate_init(&mine, tmp), 0);
	pid = sleeper();
	assert_int_equal(vms_hoststate_init(&dead, tmp), 0);
	assert_int_equal(vms_host_owner_read(&dead.self, pid), 0);
	for (i = 0; i < 3; i++) {
		memset(&e, 0, sizeof(e));
		e.kind = VMS_HOST_SWAPFILE;
		snprintf(e.path, sizeof(e.path), "%s", path[i]);
		memcpy(e.swap_uuid, uuid[i], sizeof(e.swap_uuid));
		assert_int_equal(vms_hoststate_record(&dead, &e), 0);
	}
	assert_int_equal(vms_hoststate_list(&mine, &es, &n), 0);
	assert_int_equal(n, 3);
	for (i = 0; i < 3; i++) {
		int k = !strcmp(es[i].path, path[0]) ? 0 : !strcmp(es[i].path, path[1]) ? 1 : 2;

		assert_memory_equal(es[i].swap_uuid, uuid[k], VMS_SWAPFILE_UUID_LEN);
	}
	free(es);
	reap(pid);
	assert_int_equal(vms_hoststate_repair(&mine, note, &seen), 1);
	assert_int_equal(seen.n, 3);
	for (i = 0; i < seen.n; i++)
		assert_int_equal(seen.outcome[i], strcmp(seen.path[i], path[0]) ? VMS_HOST_REFUSED
		                                                                : VMS_HOST_UNDONE);
	assert_int_equal(lstat(path[0], &st), -1);
	assert_int_equal(lstat(path[1], &st), 0);
	assert_int_equal(lstat(path[2], &st), 0);
}

/* The persistent swap-file records (they outlive a reboot, unlike the journal): written with
 * the boot id and the header's uuid; left to the journal in this boot; of an earlier boot, the
 * file removed when it still is vmsuite's (label and uuid) and the record with it, a file that
 * is not (another uuid) left alone with the reason and the record kept, a missing file's record
 * forgotten. The directory: the state directory given, else /var/lib/vmsuite unless
 * $VMSUITE_STATE_DIR is set. */
static void test_persistent_swapfile(void **state)
{
	struct vms_hoststate hs, gone;
	struct vms_host_entry e[3];
	struct seen seen = {0};
	char file[PATH_MAX], *text;
	struct stat st;
	int i;

	(void)state;
	unsetenv("VMSUITE_STATE_DIR");
	assert_int_equal(vms_hoststate_init(&hs, NULL), 0);
	assert_string_equal(hs.persist_dir, "/var/lib/vmsuite");
	setenv("VMSUITE_STATE_DIR", tmp, 1);
	assert_int_equal(vms_hoststate_init(&hs, NULL), 0);
	assert_string_equal(hs.persist_dir, tmp);
	unsetenv("VMSUITE_STATE_DIR");
	assert_int_equal(vms_hoststate_init(&hs, tmp), 0);
	assert_string_equal(hs.persist_dir, tmp);
	assert_true(hs.self.boot_id[0]);

	/* three swap files of this process: journalled, persisted, made (the third: not made) */
	for (i = 0; i < 3; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		e[i].kind = VMS_HOST_SWAPFILE;
		snprintf(e[i].path, sizeof(e[i].path), "%s/.vmsuite-swap-%d", tmp, i + 1);
		vms_swapfile_new_uuid(e[i].swap_uuid);
		assert_int_equal(vms_hoststate_record(&hs, &e[i]), 0);
		assert_int_equal(vms_hoststate_persist(&hs, &e[i]), 0);
	}
	assert_int_equal(vms_swapfile_create(e[0].path, 1 << 20, e[0].swap_uuid, NULL, 0), 0);
	/* the second file is replaced by one with another uuid (another mkswap, say) */
	e[2].swap_uuid[0] ^= 0xff;
	assert_int_equal(vms_swapfile_create(e[1].path, 1 << 20, e[2].swap_uuid, NULL, 0), 0);
	e[2].swap_uuid[0] ^= 0xff;
	snprintf(file, sizeof(file), "%s/swapfiles/%s-%ld-%llu-%lu.json", tmp, hs.self.boot_id,
	         hs.self.pid, hs.self.start_time, e[0].seq);
	text = vms_read_text(file);
	assert_non_null(text);
	assert_non_null(strstr(text, hs.self.boot_id));
	assert_non_null(strstr(text, "\"uuid\""));
	assert_non_null(strstr(text, e[0].path));
	free(text);

	/* this boot, a live owner: the journal reports them, the records stay */
	assert_int_equal(vms_hoststate_repair(&hs, note, &seen), 0);
	assert_int_equal(seen.n, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(seen.outcome[i], VMS_HOST_LIVE);
		assert_false(seen.earlier_boot[i]);
	}
	assert_int_equal(stat(file, &st), 0);

	/* a reboot: /run empties (the journal records go), the boot id changes */
	gone = hs;
	snprintf(gone.self.boot_id, sizeof(gone.self.boot_id),
	         "00000000-0000-4000-8000-000000000000");
	for (i = 0; i < 3; i++) {
		assert_int_equal(vms_hoststate_forget(&hs, &e[i]), 0);
		assert_int_equal(vms_hoststate_unpersist(&hs, &e[i]), 0);
		e[i].owner = gone.self;
		assert_int_equal(vms_hoststate_persist(&gone, &e[i]), 0);
	}
	assert_int_equal(stat(file, &st), -1);
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(vms_hoststate_repair(&hs, note, &seen), 2);
	assert_int_equal(seen.n, 3);
	for (i = 0; i < seen.n; i++) {
		assert_true(seen.earlier_boot[i]);
		if (!strcmp(seen.path[i], e[0].path)) {
			assert_int_equal(seen.outcome[i], VMS_HOST_UNDONE);
		} else if (!strcmp(seen.path[i], e[1].path)) {
			assert_int_equal(seen.outcome[i], VMS_HOST_REFUSED);
			assert_non_null(strstr(seen.why[i], "uuid"));
		} else {
			assert_string_equal(seen.path[i], e[2].path);
			assert_int_equal(seen.outcome[i], VMS_HOST_GONE);
		}
	}
	assert_int_equal(lstat(e[0].path, &st), -1);
	assert_int_equal(stat(e[1].path, &st), 0);
	/* only the refused one's record is left, and it is said again next time */
	snprintf(file, sizeof(file), "%s/swapfiles/%s-%ld-%llu-%lu.json", tmp, gone.self.boot_id,
	         gone.self.pid, gone.self.start_time, e[1].seq);
	assert_int_equal(stat(file, &st), 0);
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(vms_hoststate_repair(&hs, note, &seen), 0);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.outcome[0], VMS_HOST_REFUSED);
	assert_int_equal(stat(e[1].path, &st), 0);
	/* once its file is dealt with, the record goes */
	assert_int_equal(unlink(e[1].path), 0);
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(vms_hoststate_repair(&hs, note, &seen), 1);
	assert_int_equal(seen.outcome[0], VMS_HOST_GONE);
	assert_int_equal(stat(file, &st), -1);

	/* missing parents (a system without /var/lib, as the lab's initramfs) are made */
	snprintf(file, sizeof(file), "%s/var/lib/vmsuite", tmp);
	assert_int_equal(vms_hoststate_init(&gone, file), 0);
	e[0].owner = gone.self;
	assert_int_equal(vms_hoststate_persist(&gone, &e[0]), 0);
	snprintf(file, sizeof(file), "%s/var/lib/vmsuite/swapfiles/%s-%ld-%llu-%lu.json", tmp,
	         gone.self.boot_id, gone.self.pid, gone.self.start_time, e[0].seq);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(vms_hoststate_unpersist(&gone, &e[0]), 0);
	assert_int_equal(stat(file, &st), -1);
}

/* In a child: tries the lock; exits 0 when taken, 1 when refused, 2 when interrupted. The
 * parent's descriptor is closed first: a flock lock belongs to the open file, which a fork
 * shares, so a child holding it keeps the lock (vmsuite's own children die with it). */
static void try_lock_child(int wait, int parent_fd)
{
	static volatile sig_atomic_t stop;
	struct vms_hoststate hs;
	int r;

	close(parent_fd);
	vms_hoststate_init(&hs, tmp);
	r = vms_hoststate_lock(&hs, wait, &stop);
	_exit(r == 0 ? 0 : r == -EWOULDBLOCK ? 1 : r == -EINTR ? 2 : 3);
}

static void test_lock(void **state)
{
	struct vms_hoststate hs;
	struct vms_host_owner holder;
	pid_t pid;
	int status, i;

	(void)state;
	assert_int_equal(vms_hoststate_init(&hs, tmp), 0);
	assert_int_equal(vms_hoststate_holder(&hs, &holder), -ENOENT); /* no lock file */
	assert_int_equal(vms_hoststate_lock(&hs, 0, NULL), 0);
	assert_int_equal(vms_hoststate_lock(&hs, 0, NULL), 0); /* held already: fine */
	assert_int_equal(vms_hoststate_holder(&hs, &holder), 0);
	assert_int_equal(holder.pid, (long)getpid());

	/* another process: refused without waiting */
	pid = fork();
	if (pid == 0)
		try_lock_child(0, hs.lock_fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);

	/* waiting: still waiting a while later, and takes it once it is released */
	pid = fork();
	if (pid == 0)
		try_lock_child(1, hs.lock_fd);
	for (i = 0; i < 5; i++) {
		usleep(100000);
		assert_int_equal(waitpid(pid, &status, WNOHANG), 0);
	}
	vms_hoststate_release(&hs);
	assert_int_equal(vms_hoststate_holder(&hs, &holder), -ENOENT);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* it died holding it: the lock is free, and the dead holder is not named */
	assert_int_equal(vms_hoststate_holder(&hs, &holder), -ENOENT);
	assert_int_equal(vms_hoststate_lock(&hs, 0, NULL), 0);
	vms_hoststate_release(&hs);
}

/* A stop signal while waiting gives up with -EINTR. */
static volatile sig_atomic_t stop_flag;

static void on_alarm(int sig)
{
	stop_flag = sig;
}

static void test_lock_interrupted(void **state)
{
	struct vms_hoststate hs, other;
	struct sigaction sa;

	(void)state;
	assert_int_equal(vms_hoststate_init(&hs, tmp), 0);
	assert_int_equal(vms_hoststate_init(&other, tmp), 0);
	assert_int_equal(vms_hoststate_lock(&hs, 0, NULL), 0);
	/* flock locks belong to the open file: a second open in this process conflicts too */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	assert_int_equal(vms_hoststate_lock(&other, 1, &stop_flag), -EINTR);
	assert_int_equal(stop_flag, SIGALRM);
	assert_int_equal(other.lock_fd, -1);
	vms_hoststate_release(&hs);
}

/* A state directory whose parents are missing is made with them when the lock is taken. */
static void test_lock_missing_parents(void **state)
{
	struct vms_hoststate hs;
	char dir[128], lock[160];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/a/b/state", tmp);
	snprintf(lock, sizeof(lock), "%s/lock", dir);
	assert_int_equal(vms_hoststate_init(&hs, dir), 0);
	assert_int_equal(vms_hoststate_lock(&hs, 0, NULL), 0);
	assert_int_equal(access(lock, F_OK), 0);
	vms_hoststate_release(&hs);
}

/* The state directory deleted (and made again) while a run holds its lock: that run still
 * holds the lock, on a deleted file, and a second run must not start beside it. */
static void test_lock_dir_deleted(void **state)
{
	struct vms_hoststate hs;
	char dir[128], cmd[192], c;
	int ready[2];
	pid_t pid;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/state", tmp);
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	if (pid == 0) {
		struct vms_hoststate holder;

		prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives a failed test */
		close(ready[0]);
		if (vms_hoststate_init(&holder, dir) || vms_hoststate_lock(&holder, 0, NULL))
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(vms_hoststate_init(&hs, dir), 0);
	assert_int_equal(vms_hoststate_lock(&hs, 0, NULL), -EWOULDBLOCK);
	reap(pid);
	assert_int_equal(vms_hoststate_lock(&hs, 0, NULL), 0);
	vms_hoststate_release(&hs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_default_dir),
	    cmocka_unit_test(test_owner_alive),
	    cmocka_unit_test_setup_teardown(test_record_list_forget, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repair, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repair_temporaries, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repair_swapfile, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repair_swapfile_verified, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_persistent_swapfile, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lock, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lock_interrupted, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lock_missing_parents, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lock_dir_deleted, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
