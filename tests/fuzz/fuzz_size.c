/* Fuzz target: size, duration and number parsing (vms_parse_size/seconds/long). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	uint64_t u;
	double d;
	long l;

	memcpy(s, data, size);
	s[size] = '\0';
	if (!vms_parse_size(s, &u) && strchr(s, '.') == NULL && u % 1024 && strpbrk(s, "kKmMgGtT"))
		abort(); /* a whole number with a binary suffix is a multiple of 1024 */
	if (!vms_parse_seconds(s, &d) && d < 0)
		abort();
	vms_parse_long(s, -5, 5, &l);
	free(s);
	return 0;
}
