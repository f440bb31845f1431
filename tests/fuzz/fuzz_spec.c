/* Fuzz target: -w NAME[:key=value]... workload specs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vms_workload_spec spec;
	char *s = malloc(size + 1), why[512];

	memcpy(s, data, size);
	s[size] = '\0';
	if (!vms_workload_spec_parse(s, &spec, why, sizeof(why))) {
		json_decref(vms_workload_opts_json(spec.w, spec.opts));
		vms_workload_spec_release(&spec);
	}
	free(s);
	return 0;
}
