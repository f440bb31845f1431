/* The list of host-state kinds (each row is defined next to the code that makes its change) and
 * the calls through it: undo, and what messages call an entry. No kernel paths of its own. */
#include "core/hostkind.h"

#include <errno.h>
#include <stdlib.h>

#include "core/escape.h"
#include "core/util.h"

/* clang-format off */
const struct vms_host_kind_row *const vms_host_rows[VMS_HOST_KIND_NR] = {
    [VMS_HOST_CGROUP] = &vms_host_row_cgroup,
    [VMS_HOST_WORKDIR] = &vms_host_row_workdir,
    [VMS_HOST_SWAPFILE] = &vms_host_row_swapfile,
    [VMS_HOST_SYSCTL] = &vms_host_row_sysctl,
    [VMS_HOST_ZRAM] = &vms_host_row_zram,
#ifdef VMS_TEST_EXTRA_HOSTKIND
    [VMS_HOST_TEST_EXTRA] = &vms_host_row_test_extra,
#endif
};
/* clang-format on */

int vms_host_entry_undo(const struct vms_host_entry *e)
{
	if ((unsigned)e->kind >= VMS_HOST_KIND_NR)
		return -EINVAL;
	return vms_host_rows[e->kind]->undo(e);
}

const char *vms_host_kind_what(enum vms_host_kind kind)
{
	return (unsigned)kind < VMS_HOST_KIND_NR ? vms_host_rows[kind]->what : "unknown change";
}

char *vms_host_entry_undone(const struct vms_host_entry *e)
{
	char *path, *s;

	if ((unsigned)e->kind < VMS_HOST_KIND_NR && vms_host_rows[e->kind]->undone)
		return vms_host_rows[e->kind]->undone(e);
	path = vms_text_escape(e->path);
	s = vms_xasprintf("removed the %s '%s'", vms_host_kind_what(e->kind), path);
	free(path);
	return s;
}
