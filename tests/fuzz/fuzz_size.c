/* Fuzz target: size, duration and number parsing (vms_parse_size/seconds/decimal/long). What
 * parses must be plain decimal text (no exponent, hex, sign, blank, inf, nan) and give a value
 * that agrees with it. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	const char *end;
	uint64_t u, whole;
	double d;
	long l;

	memcpy(s, data, size);
	s[size] = '\0';
	if (!vms_parse_size(s, &u)) {
		if (strspn(s, "0123456789.KkMmGgTtiBb") != strlen(s))
			abort(); /* only digits, a point and a suffix */
		if (!strchr(s, '.') && u % 1024 && strpbrk(s, "kKmMgGtT"))
			abort(); /* a whole number with a binary suffix is a multiple of 1024 */
		if (!strpbrk(s, ".kKmMgGtT") && vms_parse_u64(s, NULL, &whole) == 0 && whole != u)
			abort(); /* plain bytes read as they are written */
	}
	if (!vms_parse_seconds(s, &d) &&
	    (!(d >= 0) || !isfinite(d) || strspn(s, "0123456789.smhin") != strlen(s)))
		abort();
	if (!vms_parse_decimal(s, &end, &d)) {
		const char *p = s;
		int points = 0;

		for (; p < end; p++)
			if (*p == '.' ? ++points > 1 : (*p < '0' || *p > '9'))
				abort(); /* digits and at most one point */
		if (!(d >= 0) || !isfinite(d) || (*end >= '0' && *end <= '9'))
			abort();
	}
	if (!vms_parse_long(s, -5, 5, &l) && (l < -5 || l > 5))
		abort();
	free(s);
	return 0;
}
