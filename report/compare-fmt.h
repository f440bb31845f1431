/* Formatting shared by the compare renderers (report/compare-*.c), private to report/. Every
 * fmt function writes into buf (always terminated, cut to len) and returns buf; "-" stands for
 * a figure that is not defined. No kernel paths. */
#ifndef VMS_REPORT_COMPARE_FMT_H
#define VMS_REPORT_COMPARE_FMT_H

#include <stddef.h>
#include <stdio.h>

#include "compare/compare.h"

/* A number in at most 7 columns: 258.8, 15.18, 500.2k, 2.048G. */
const char *vms_compare_fmt_num(double v, char *buf, size_t len);
/* The spread column: cv for gauges, "runs with an event / runs" for counts. */
const char *vms_compare_fmt_spread(const struct vms_compare_metric *m,
                                   const struct vms_compare_side *s, char *buf, size_t len);
/* "+0.8% [-1.9,+3.6]", the change alone without a CI, "n/a" without a change. */
const char *vms_compare_fmt_change(const struct vms_compare_cell *c, char *buf, size_t len);
/* The n column: the runs with a value. */
const char *vms_compare_fmt_n(const struct vms_compare_side *s, char *buf, size_t len);
/* A p-value: "0.012", "<.001". */
const char *vms_compare_fmt_p(double p, char *buf, size_t len);
/* The verdict with its qualifiers (runs needed, unstable side, confounder mark); brief: the
 * short names of the 100-column table. */
/* ", L run N,M" for the outlier runs of side s (nothing when it has none), letter its name. */
void vms_compare_outliers_put(FILE *f, const struct vms_compare_side *s, char letter);
const char *vms_compare_fmt_verdict(const struct vms_compare_cell *c, double detect, int brief,
                                    char *buf, size_t len);
/* The unstable side's name, indexed by unstable_side + 1 (both = 2 maps to [0]). */
extern const char *const vms_compare_side_names[];
/* The p-value the verdict used: Holm-adjusted for the deciding metrics, else the test's. */
double vms_compare_cell_p(const struct vms_compare_cell *c);
/* Display columns of a UTF-8 string. */
size_t vms_compare_display_width(const char *s);
/* raw with control characters escaped, cut to at most width display columns (with "..."). */
const char *vms_compare_fit(const char *raw, size_t width, char *buf, size_t len);

/* s left-aligned in width display columns. */
void vms_compare_put_padded(FILE *f, const char *s, size_t width);
/* A string of a result file (or a path) with control characters escaped, left-aligned in width
 * display columns (0: as long as it is). */
void vms_compare_put_str(FILE *f, const char *s, size_t width);
/* 'A' for side 0 (BASE), 'B', ...; '?' beyond 26. */
char vms_compare_file_letter(size_t k);
/* What a renderer returns: 0, or -EIO when a write to f failed. */
int vms_compare_finish(FILE *f);
/* A file's idle baseline figures without their label, or "(no audio baseline)"; no final
 * newline. */
void vms_compare_baseline_put(const struct vms_compare_file *file, FILE *f);
/* What each test the model used means, one line each starting with prefix, and how the
 * deciding verdicts were corrected. */
void vms_compare_tests_note(const struct vms_compare *c, FILE *f, const char *prefix);
/* The drift between suites per deciding metric; nothing when every side is one file. */
void vms_compare_drift_note(const struct vms_compare *c, FILE *f, const char *prefix);
/* What other processes took of the CPUs per workload and side (other_cpu_pct), each line with
 * prefix; nothing when no file recorded it. */
void vms_compare_busy_note(const struct vms_compare *c, FILE *f, const char *prefix);
/* The VERDICT block of side k + 1 as the text output shows it (report/compare-text.c). */
void vms_compare_text_verdict(const struct vms_compare *c, size_t k, FILE *f);

#endif
