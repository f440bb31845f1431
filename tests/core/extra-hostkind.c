/* The extra host-state kind of the test build vmsuite-extra-rows (VMS_TEST_EXTRA_HOSTKIND,
 * core/hostkind.h): a plain file named vmsuite-test-extra-*, its row defined here, next to its
 * code, as a real kind's is next to its module. ctest test_extra_hostkind follows it through the
 * journal, repair and `vmsuite cleanup`. Kernel paths: unlink(2). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "core/hostkind.h"

#define PREFIX "vmsuite-test-extra-"

/* Removes the file e names when its name is one this kind makes: 0 removed, 1 already gone, 2
 * refused (another name), or -errno. */
static int undo_test_extra(const struct vms_host_entry *e)
{
	const char *base = strrchr(e->path, '/');

	base = base ? base + 1 : e->path;
	if (strncmp(base, PREFIX, strlen(PREFIX)))
		return 2;
	if (unlink(e->path))
		return errno == ENOENT ? 1 : -errno;
	return 0;
}

const struct vms_host_kind_row vms_host_row_test_extra = {
    .name = "test_extra",
    .what = "test file",
    .undo = undo_test_extra,
};
