/* The variants of a suite: `vmsuite run --sysctl NAME=V1[,V2...]` (repeatable) and `--thp
 * off|kernel|off,kernel` are axes; every combination of their values is a variant (the cross
 * product, the last axis varying fastest, --thp last), the first one the baseline. A variant's
 * label names the axes that take more than one value ("page-cluster=0 thp=off", a knob by the
 * last component of its name unless two varying knobs share it), or is "default" when none
 * does; its settings hold every knob's value and "thp". docs/knobs.md. No kernel paths
 * (vms_sysctl_check() reads the knobs' files when asked). */
#ifndef VMS_SUITE_VARIANTS_H
#define VMS_SUITE_VARIANTS_H

#include <stddef.h>

#include "workloads/runner.h"

#define VMS_VARIANT_KNOBS_MAX 8
#define VMS_VARIANTS_MAX      64
/* The workload THP choice without --thp (docs/knobs.md says why). */
#define VMS_THP_DEFAULT "kernel"

struct vms_variants {
	struct vms_run_variant v[VMS_VARIANTS_MAX];
	size_t n;
	const char *knobs[VMS_VARIANT_KNOBS_MAX]; /* dotted names, in the order given */
	size_t n_knobs;
};

/* Builds the variants of the --sysctl arguments (n of them, "NAME=V1[,V2...]") and thp (NULL =
 * VMS_THP_DEFAULT; "off", "kernel", "off,kernel" or "kernel,off"). Values are normalised as
 * the kernel shows them (core/sysctl.h). With check, every name is resolved and every knob's
 * file checked readable and writable (vms_sysctl_check()). Returns 0, or -EINVAL (bad input:
 * a name outside the allow-list or absent, a repeated name or value, an empty value, too many
 * variants) or another -errno (the knob cannot be changed here, e.g. -EACCES), with a one-line
 * reason in err; vs then holds nothing. Release with vms_variants_release(). */
int vms_variants_build(struct vms_variants *vs, const char *const *sysctls, size_t n,
                       const char *thp, int check, char *err, size_t errlen);
void vms_variants_release(struct vms_variants *vs);

#endif
