/* Fuzz target: loading result files (vms_result_load) and rendering what loads. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-result", MFD_CLOEXEC);
	enum vms_load_error e;
	char path[64], why[256];
	json_t *doc;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	doc = vms_result_load(path, &e, why, sizeof(why));
	if (!doc != (e != VMS_LOAD_OK))
		abort();
	json_decref(doc);
	close(fd);
	return 0;
}
