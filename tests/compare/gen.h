/* Test helper: synthetic vmsuite.result/1 documents with known truth, drawn from seeded
 * log-normal distributions, in exactly the shape `vmsuite run` writes (notes: common.md). */
#ifndef VMS_TEST_GEN_H
#define VMS_TEST_GEN_H

#include <jansson.h>
#include <stddef.h>

/* A result document with tool, protocol, a full fingerprint, audio facts (when audio) and no
 * workloads, all with fixed plausible values. New reference. */
json_t *gen_doc(const char *label, int audio);

/* Appends workload name with options {"bytes": bytes} and `runs` ok runs to doc; returns the
 * (borrowed) workload object. */
json_t *gen_workload(json_t *doc, const char *name, long long bytes, size_t runs);

/* Adds a gauge metric with runs log-normal samples of arithmetic mean `mean` and coefficient
 * of variation cv (cv 0: every sample = mean), from the generator seeded by seed. */
void gen_gauge(json_t *wl, const char *name, const char *unit, const char *better, int primary,
               double mean, double cv, unsigned long seed);
/* Adds a count metric: each run has an event with probability p_event, then a count of
 * 1 + Poisson(mean_count - 1). */
void gen_count(json_t *wl, const char *name, const char *better, int primary, double p_event,
               double mean_count, unsigned long seed);
/* Adds a metric with the given samples (NAN = a failed run, written as null). */
void gen_samples(json_t *wl, const char *name, const char *unit, const char *better, int primary,
                 int count, const double *v, size_t n);

/* The standard synthetic file the CLI tests use: workloads mmap001 and mtest01 with the
 * runner's metrics (mmap001: elapsed mean 250 s, cv 2 %; ...) and, when audio, the probe's
 * metrics. shift multiplies mmap001's elapsed_s and sys_s by (1 + shift). */
json_t *gen_standard(const char *label, unsigned long seed, size_t runs, double shift, int audio);

/* A vmsuite.result/2 document with n variants (labels "NAME=V NAME=V", first = baseline), each
 * holding gen_standard()'s workloads with "variant": label, variant v shifted by shifts[v] and
 * drawn from its own seed; elapsed_s and sys_s of run i of every variant multiplied by one
 * common log-normal factor of sd drift (the machine's state when they were made together). */
json_t *gen_variants(const char *label, unsigned long seed, size_t runs, int audio,
                     const char *const *labels, const double *shifts, size_t n, double drift);

/* Sets the value at a dotted path ("fingerprint.mem_total_bytes.value") in doc, creating
 * objects on the way; text is parsed as JSON, or taken as a string if it is not JSON. */
void gen_set(json_t *doc, const char *path, const char *text);

#endif
