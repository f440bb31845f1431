/* Driver for fuzz targets without libFuzzer: feeds every file of the corpus directories given
 * on the command line, then 20000 deterministic mutations of them, to LLVMFuzzerTestOneInput.
 * A crash or sanitizer report fails the ctest. */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(int argc, char **argv)
{
	char *inputs[256];
	size_t lens[256], n = 0, i;
	int a;

	for (a = 1; a < argc; a++) {
		DIR *d = opendir(argv[a]);
		struct dirent *e;

		if (!d)
			return fprintf(stderr, "cannot open corpus '%s'\n", argv[a]), 1;
		while ((e = readdir(d)) && n < VMS_ARRAY_SIZE(inputs)) {
			char *path, *text;

			if (e->d_name[0] == '.')
				continue;
			path = vms_xasprintf("%s/%s", argv[a], e->d_name);
			text = vms_read_text(path);
			free(path);
			if (!text)
				continue;
			inputs[n] = text;
			lens[n++] = strlen(text);
		}
		closedir(d);
	}
	if (!n)
		return fprintf(stderr, "empty corpus\n"), 1;
	for (i = 0; i < n; i++)
		LLVMFuzzerTestOneInput((const uint8_t *)inputs[i], lens[i]);
	for (i = 0; i < 20000; i++) {
		size_t k = next() % n, len = lens[k], m, j;
		uint8_t *buf = vms_xmalloc(len + 8);

		memcpy(buf, inputs[k], len);
		for (m = 1 + next() % 4, j = 0; j < m; j++) {
			switch (next() % 3) {
			case 0: /* flip a byte */
				if (len)
					buf[next() % len] = (uint8_t)next();
				break;
			case 1: /* truncate */
				if (len)
					len = next() % len;
				break;
			default: /* append */
				if (len < lens[k] + 8)
					buf[len++] = (uint8_t)next();
			}
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	for (i = 0; i < n; i++)
		free(inputs[i]);
	printf("replayed %zu corpus files and 20000 mutations\n", n);
	return 0;
}
