/* Test helper command: writes a synthetic result file (tests/compare/gen.h), or re-parses a
 * JSON file (exit 0 when it parses) for the CLI tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"
#include "tests/compare/gen.h"

/* usage: gen-result -o FILE [--label L] [--seed N] [--runs N] [--shift FRACTION] [--audio]
 *                   [--set PATH=JSON]... [--drop-workload NAME]
 *                   [--variant 'NAME=V ...[@SHIFT]']... [--drift SD] [--busy PCT]
 *                   [--io MIB]
 *        (two or more --variant: a vmsuite.result/2 file with those variants, interleaved;
 *        --busy: every workload records other_cpu_pct and cpu_wait_pct of mean PCT, cv 10 %,
 *        kthread_cpu_pct 0.5 and steal_pct 0, as runs on a machine that busy do;
 *        --io, with --busy: other_io_mb of mean MIB, cv 10 %)
 *        gen-result --parse FILE */
int main(int argc, char **argv)
{
	const char *out = NULL, *label = "6.1.0-base", *drop = NULL;
	unsigned long seed = 1;
	double shift = 0, drift = 0, busy = -1, io = -1, vshift[16];
	const char *vlabel[16];
	size_t nv = 0;
	size_t runs = 5, i;
	int audio = 0, a;
	json_t *doc;

	if (argc == 3 && !strcmp(argv[1], "--parse")) {
		json_error_t e;

		doc = json_load_file(argv[2], 0, &e);
		if (!doc) {
			fprintf(stderr, "gen-result: %s: line %d: %s\n", argv[2], e.line, e.text);
			return 1;
		}
		json_decref(doc);
		return 0;
	}
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--audio"))
			audio = 1;
		else if (a + 1 >= argc)
			break;
		else if (!strcmp(argv[a], "-o"))
			out = argv[++a];
		else if (!strcmp(argv[a], "--label"))
			label = argv[++a];
		else if (!strcmp(argv[a], "--seed"))
			seed = strtoul(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--runs"))
			runs = strtoul(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--shift"))
			shift = strtod(argv[++a], NULL);
		else if (!strcmp(argv[a], "--drift"))
			drift = strtod(argv[++a], NULL);
		else if (!strcmp(argv[a], "--busy"))
			busy = strtod(argv[++a], NULL);
		else if (!strcmp(argv[a], "--io"))
			io = strtod(argv[++a], NULL);
		else if (!strcmp(argv[a], "--variant") && nv < 16) {
			char *l = vms_xstrdup(argv[++a]), *at = strchr(l, '@');

			vshift[nv] = at ? strtod(at + 1, NULL) : 0;
			if (at)
				*at = '\0';
			vlabel[nv++] = l;
		} else if (!strcmp(argv[a], "--drop-workload"))
			drop = argv[++a];
		else if (!strcmp(argv[a], "--set"))
			a++;
		else
			break;
	}
	if (a < argc || !out || runs < 1 || runs > 64) {
		fprintf(stderr, "gen-result: bad arguments\n");
		return 2;
	}
	if (nv >= 2)
		doc = gen_variants(label, seed, runs, audio, vlabel, vshift, nv, drift);
	else
		doc = gen_standard(label, seed, runs, shift, audio);
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--set")) {
			char *eq, *p = vms_xstrdup(argv[++a]);

			eq = strchr(p, '=');
			if (!eq) {
				fprintf(stderr, "gen-result: --set wants PATH=JSON\n");
				return 2;
			}
			*eq = '\0';
			gen_set(doc, p, eq + 1);
			free(p);
		}
	}
	if (busy >= 0) {
		json_t *wl;

		json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
			gen_gauge(wl, "other_cpu_pct", "%", "lower", 0, busy, busy > 0 ? 0.1 : 0,
			          seed + 100 + i);
			gen_gauge(wl, "cpu_wait_pct", "%", "lower", 0, busy, busy > 0 ? 0.1 : 0,
			          seed + 200 + i);
			gen_gauge(wl, "kthread_cpu_pct", "%", "lower", 0, 0.5, 0.1, seed + 300 + i);
			gen_gauge(wl, "steal_pct", "%", "lower", 0, 0, 0, seed + 400 + i);
			if (io >= 0)
				gen_gauge(wl, "other_io_mb", "MiB", "none", 0, io, io > 0 ? 0.1 : 0,
				          seed + 500 + i);
		}
	}
	if (drop) {
		json_t *wls = json_object_get(doc, "workloads"), *wl;

		json_array_foreach (wls, i, wl)
			if (!strcmp(json_string_value(json_object_get(wl, "name")), drop)) {
				json_array_remove(wls, i);
				break;
			}
	}
	for (i = 0; i < nv; i++)
		free((char *)vlabel[i]);
	if (vms_json_write_file(doc, out, 0)) {
		fprintf(stderr, "gen-result: cannot write %s\n", out);
		return 1;
	}
	json_decref(doc);
	return 0;
}
