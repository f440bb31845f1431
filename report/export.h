/* What the machine-readable exports for test labs (`report --format lava` and `--format
 * kcidb`) share: the names they give a workload and its variant, the compare verdict they
 * carry, and how a measurement is written. No kernel paths. */
#ifndef VMS_REPORT_EXPORT_H
#define VMS_REPORT_EXPORT_H

#include <jansson.h>
#include <stddef.h>

#include "report/model.h"

/* The name of workload i of m in both exports: vms_name_token (core/escape.h) of its name and,
 * when the file holds more than one variant (top-level "variants"), its variant label. A new
 * string (free it). */
char *vms_export_name(const struct vms_report_model *m, size_t i);

/* The variant label of workload i when the file holds more than one variant, else NULL. */
const char *vms_export_variant(const struct vms_report_model *m, size_t i);

/* The compare document ("vmsuite.compare/1") whose verdicts m carries: m->opts->verdict when
 * given, else the file's stored verdict.compare; and in *other the index, in each metric's
 * "others", of the file m was built from: the compared file (not the base) labelled like m
 * or with the name m->opts->result_name, else the only compared file unless m's file is the
 * base. Returns NULL without a verdict; NULL with a message in err
 * (when err is not NULL) when there is one but it does not name m's file unambiguously or is
 * not a compare document. */
const json_t *vms_export_verdict(const struct vms_report_model *m, size_t *other, char *err,
                                 size_t errlen);

/* The verdict ("regression", "no change", ...) of metric of workload i of m in cmp, or NULL
 * when cmp has none for it. */
const char *vms_export_metric_verdict(const struct vms_report_model *m, const json_t *cmp,
                                      size_t other, size_t i, const char *metric);

/* Whether cmp says workload i of m regressed: a "regression" verdict on a metric that decides
 * (the stored verdict's "metrics", or compare's primary metrics when it names none): 1, 0 when
 * none regressed, -1 when cmp does not have the workload. */
int vms_export_regressed(const struct vms_report_model *m, const json_t *cmp, size_t other,
                         size_t i);

/* What a verdict means for a lab: 1 a regression (fail), 0 a verdict that passes (no change,
 * an improvement, an inconclusive or unstable measurement), -1 none to carry (NULL, "-" of a
 * metric without a direction, "missing", "cannot tell", "not comparable"). */
int vms_export_verdict_rank(const char *verdict);

/* Formats v with at least prec decimals and, unless whole, three significant digits (no e):
 * 2.65, 0, 10.0, 0.0271. Returns buf. */
const char *vms_export_number(char *buf, size_t len, double v, int prec);

#endif
