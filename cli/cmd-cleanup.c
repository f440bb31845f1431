/* `vmsuite cleanup`: repairs what dead runs left on the host: reads the host-state journal
 * (core/hoststate.h), undoes the changes whose owner is gone (removes their memory cgroups,
 * killing what is left in them, their private work directories, swap files and zram devices;
 * writes the kernel knobs they changed back to their original values), says what it did, and
 * leaves live runs alone. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "core/escape.h"
#include "core/hoststate.h"
#include "core/util.h"

struct tally {
	int undone, live, failed, refused;
};

/* Paths and command lines come from journal files: shown escaped, so none can drive the
 * terminal or forge a line (core/escape.h). */
static void say(const struct vms_host_entry *e, enum vms_host_outcome outcome, int err, void *arg)
{
	const char *what = vms_host_kind_what(e->kind);
	char *path = vms_text_escape(e->path), *cmd = vms_text_escape(e->owner.command);
	char *rec = vms_text_escape(e->record);
	struct tally *t = arg;

	switch (outcome) {
	case VMS_HOST_UNDONE: {
		char *done = vms_host_entry_undone(e);

		if (e->earlier_boot)
			printf(
			    "%s made by pid %ld ('%s') in an earlier boot (a crash or power loss "
			    "left it)\n",
			    done, e->owner.pid, cmd);
		else
			printf("%s left by pid %ld ('%s'), which is gone\n", done, e->owner.pid,
			       cmd);
		free(done);
		t->undone++;
		break;
	}
	case VMS_HOST_GONE:
		if (e->earlier_boot)
			printf("forgot the %s '%s' of pid %ld from an earlier boot: it was already "
			       "removed\n",
			       what, path, e->owner.pid);
		else
			printf("forgot the %s '%s' of pid %ld, which is gone: it was already "
			       "removed\n",
			       what, path, e->owner.pid);
		t->undone++;
		break;
	case VMS_HOST_TEMPORARY:
		printf("removed '%s', a record pid %ld was writing when it died, which is gone\n",
		       rec, e->owner.pid);
		t->undone++;
		break;
	case VMS_HOST_LIVE:
		printf("left alone: the %s '%s' of the running pid %ld ('%s')\n", what, path,
		       e->owner.pid, cmd);
		t->live++;
		break;
	case VMS_HOST_FAILED:
		vms_error("cannot undo the %s '%s' left by pid %ld: %s (the record '%s' is kept)",
		          what, path, e->owner.pid, strerror(-err), rec);
		t->failed++;
		break;
	case VMS_HOST_REFUSED:
		if (e->earlier_boot) {
			char *why = vms_host_entry_not_ours(e);

			vms_warn("%s", why);
			free(why);
		} else {
			vms_warn(
			    "left alone: the journal record '%s' names '%s', which vmsuite does "
			    "not make",
			    rec, path);
		}
		t->refused++;
		break;
	}
	free(path);
	free(cmd);
	free(rec);
}

static const struct vms_cli_option cleanup_options[] = {
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};

const struct vms_cli_usage vms_cleanup_usage = {
    .operands = NULL,
    .about = "Reads the journal of host changes in /run/vmsuite (docs/host-state.md) and\n"
             "undoes those whose run is gone (killed with SIGKILL, a crash): removes its\n"
             "memory cgroup, killing what is left in it, its private work directory and its\n"
             "temporary swap file (switched off first; only a file named .vmsuite-swap-*\n"
             "that still carries the swap header the run wrote), its zram device (switched\n"
             "off, reset and removed with hot_remove; only while /dev/zramN still has the\n"
             "diskseq the run recorded), writes the kernel knobs it changed (--sysctl,\n"
             "--thp) back to their original values, and removes the\n"
             "records it was writing when it died. Then the swap files recorded in\n"
             "/var/lib/vmsuite/swapfiles in an earlier boot (a crash or power loss: /run was\n"
             "emptied): each is removed when it still carries the swap header vmsuite\n"
             "wrote (its label and recorded uuid) and is not active swap; anything else is\n"
             "left alone, with the reason.\n"
             "Changes of running runs and anything vmsuite did not make are left alone.\n"
             "`vmsuite run` does the same when it starts.\n",
    .options = cleanup_options,
    .more = "Exit status: 0 nothing of a dead run left to undo; 128 something could not be "
            "undone.\n",
};

/* `cleanup` takes no operand (a vms_cli_handler). */
static int cleanup_option(void *ctx, const struct vms_cli_option *opt, const char *val, char *err,
                          size_t errlen)
{
	(void)ctx, (void)opt;
	snprintf(err, errlen, "unexpected argument '%s'", val);
	return -EINVAL;
}

int cmd_cleanup(int argc, char **argv)
{
	const struct vms_command *self = vms_command_find("cleanup");
	struct vms_hoststate hs = VMS_HOSTSTATE_INIT;
	struct vms_host_owner holder;
	struct tally t = {0};
	struct stat st;
	int ret;

	if ((ret = vms_cli_parse(self->name, self->usage, argc, argv, cleanup_option, NULL)))
		return ret;
	/* a reader that went away (`| head -1`) must not stop the undo halfway: EPIPE instead */
	signal(SIGPIPE, SIG_IGN);
	if (vms_hoststate_init(&hs, NULL)) {
		vms_hoststate_too_long(NULL);
		return VMS_EXIT_FATAL;
	}
	if (stat(hs.dir, &st)) {
		if (errno != ENOENT)
			return vms_error_ret(VMS_EXIT_FATAL, "cannot read '%s': %s", hs.dir,
			                     strerror(errno));
		/* after a reboot /run is empty, but the swap-file records on disk may remain */
		if (stat(hs.persist_dir, &st)) {
			int same = !strcmp(hs.dir, hs.persist_dir);

			printf("nothing to clean up: vmsuite has changed nothing on this host "
			       "('%s'%s%s%s "
			       "not exist)\n",
			       hs.dir, same ? "" : " and '", same ? "" : hs.persist_dir,
			       same ? " does" : "' do");
			return VMS_EXIT_OK;
		}
	}
	/* no lock needed: only changes of dead owners are touched, and each undo is idempotent */
	if (vms_hoststate_repair(&hs, say, &t) < 0 && !t.failed)
		return VMS_EXIT_FATAL; /* the journal itself could not be read (reported) */
	if (!vms_hoststate_holder(&hs, &holder)) {
		char *cmd = vms_text_escape(holder.command);

		printf("a vmsuite run holds the host lock: pid %ld ('%s')\n", holder.pid, cmd);
		free(cmd);
	}
	if (!t.undone && !t.live && !t.failed && !t.refused) {
		char records[sizeof(hs.persist_dir) + 16];

		/* the records are looked at only by who can remove them (root) */
		snprintf(records, sizeof(records), "%s/swapfiles", hs.persist_dir);
		if (access(records, W_OK))
			printf("nothing to clean up: the journal in '%s' is empty\n", hs.dir);
		else
			printf("nothing to clean up: the journal in '%s' is empty and no swap file "
			       "of an earlier boot is recorded in '%s'\n",
			       hs.dir, records);
	} else if (!t.failed)
		printf("%d change%s of dead runs undone, %d of running ones left alone\n", t.undone,
		       t.undone == 1 ? "" : "s", t.live);
	return t.failed ? VMS_EXIT_FATAL : VMS_EXIT_OK;
}
