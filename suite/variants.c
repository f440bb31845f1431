/* The variants of a suite: axes from --sysctl and --thp, their cross product, labels and
 * settings. No kernel paths of its own (vms_sysctl_check() when asked). */
#include "suite/variants.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sysctl.h"
#include "core/util.h"

/* One axis: a knob (or "thp") and the values it takes. */
struct axis {
	char *name;
	const char *shown; /* the name in labels */
	char **values;
	size_t n;
};

static void axes_free(struct axis *ax, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < ax[i].n; k++)
			free(ax[i].values[k]);
		free(ax[i].values);
		free(ax[i].name);
	}
}

/* "NAME=V1,V2" into ax. 0 or -errno with the reason in err. */
static int axis_parse(struct axis *ax, const char *arg, int check, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	char *list, *save = NULL, *tok;
	int ret = 0;

	memset(ax, 0, sizeof(*ax));
	if (!eq || eq == arg) {
		snprintf(err, errlen, "--sysctl needs NAME=VALUE[,VALUE...], not '%s'", arg);
		return -EINVAL;
	}
	ax->name = vms_xasprintf("%.*s", (int)(eq - arg), arg);
	list = vms_xstrdup(eq + 1);
	/* strtok_r would skip empty values: split by hand */
	for (tok = list; tok && !ret; tok = save) {
		char norm[VMS_SYSCTL_VALUE_MAX];
		size_t k;

		save = strchr(tok, ',');
		if (save)
			*save++ = '\0';
		if (vms_sysctl_canonical(ax->name, tok, norm, sizeof(norm)) || !norm[0]) {
			snprintf(err, errlen,
			         "--sysctl %s: empty or too long a value in '%s' (values are "
			         "separated by ',', at most %d characters)",
			         ax->name, eq + 1, VMS_SYSCTL_VALUE_MAX - 1);
			ret = -EINVAL;
			break;
		}
		for (k = 0; k < ax->n; k++)
			if (!strcmp(ax->values[k], norm)) {
				snprintf(err, errlen, "--sysctl %s: the value '%s' is given twice",
				         ax->name, norm);
				ret = -EINVAL;
			}
		if (ret)
			break;
		if (check && (ret = vms_sysctl_check(ax->name, norm, err, errlen)))
			break;
		ax->values = vms_xrealloc(ax->values, (ax->n + 1) * sizeof(*ax->values));
		ax->values[ax->n++] = vms_xstrdup(norm);
	}
	free(list);
	if (!ret && !check) {
		char path[4096];

		/* the name at least must be one of the list */
		ret = vms_sysctl_resolve(ax->name, path, sizeof(path), err, errlen);
		if (ret == -ENOENT)
			ret = 0; /* this kernel lacks it: the suite's check says so */
	}
	if (ret) {
		axes_free(ax, 1);
		memset(ax, 0, sizeof(*ax));
	}
	return ret;
}

/* Appends "NAME=VALUE" to the label in buf, a space before all but the first. */
static size_t append(char *buf, size_t len, size_t off, const char *a, const char *b)
{
	int n = snprintf(buf + off, off < len ? len - off : 0, "%s%s=%s", off ? " " : "", a, b);

	return off + (n > 0 ? (size_t)n : 0);
}

int vms_variants_build(struct vms_variants *vs, const char *const *sysctls, size_t n,
                       const char *thp, int check, char *err, size_t errlen)
{
	struct axis ax[VMS_VARIANT_KNOBS_MAX + 1];
	size_t na = 0, total = 1, i, k, v;
	int ret = 0;

	memset(vs, 0, sizeof(*vs));
	if (n > VMS_VARIANT_KNOBS_MAX) {
		snprintf(err, errlen, "at most %d --sysctl options", VMS_VARIANT_KNOBS_MAX);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if ((ret = axis_parse(&ax[na], sysctls[i], check, err, errlen)))
			goto fail;
		na++;
		for (k = 0; k + 1 < na; k++)
			if (!strcmp(ax[k].name, ax[na - 1].name)) {
				snprintf(err, errlen,
				         "--sysctl %s is given twice: give its values as one list, "
				         "e.g. %s=0,3",
				         ax[k].name, ax[k].name);
				ret = -EINVAL;
				goto fail;
			}
		/* a write to one zeroes the other: a variant could not hold both */
		for (k = 0; k + 1 < na; k++)
			if (vms_sysctl_partner(ax[k].name) &&
			    !strcmp(vms_sysctl_partner(ax[k].name), ax[na - 1].name)) {
				snprintf(err, errlen,
				         "--sysctl %s and %s: the kernel links them (writing one "
				         "zeroes the other), so give only one of them",
				         ax[k].name, ax[na - 1].name);
				ret = -EINVAL;
				goto fail;
			}
	}
	/* --thp: the last axis */
	memset(&ax[na], 0, sizeof(ax[na]));
	ax[na].name = vms_xstrdup("thp");
	thp = thp ? thp : VMS_THP_DEFAULT;
	ax[na].values = vms_xcalloc(2, sizeof(char *));
	if (!strcmp(thp, "off") || !strcmp(thp, "kernel")) {
		ax[na].values[ax[na].n++] = vms_xstrdup(thp);
	} else if (!strcmp(thp, "off,kernel") || !strcmp(thp, "kernel,off")) {
		ax[na].values[ax[na].n++] =
		    vms_xasprintf("%.*s", (int)(strchr(thp, ',') - thp), thp);
		ax[na].values[ax[na].n++] = vms_xstrdup(strchr(thp, ',') + 1);
	} else {
		na++;
		snprintf(err, errlen, "--thp takes off, kernel, off,kernel or kernel,off, not '%s'",
		         thp);
		ret = -EINVAL;
		goto fail;
	}
	na++;
	for (i = 0; i < na; i++) {
		total *= ax[i].n;
		if (total > VMS_VARIANTS_MAX) {
			snprintf(err, errlen,
			         "the --sysctl and --thp values make more than %d variants",
			         VMS_VARIANTS_MAX);
			ret = -EINVAL;
			goto fail;
		}
	}
	/* labels: a varying knob by its last component, unless another varying one shares it */
	for (i = 0; i < na; i++) {
		ax[i].shown = vms_sysctl_short_name(ax[i].name);
		for (k = 0; k < na; k++)
			if (k != i && ax[i].n > 1 && ax[k].n > 1 &&
			    !strcmp(vms_sysctl_short_name(ax[k].name), ax[i].shown))
				ax[i].shown = ax[i].name;
	}
	for (v = 0; v < total; v++) {
		struct vms_run_variant *var = &vs->v[v];
		char label[1024] = "";
		size_t rest = v, off = 0, idx[VMS_VARIANT_KNOBS_MAX + 1];

		for (i = na; i-- > 0;) { /* the last axis varies fastest */
			idx[i] = rest % ax[i].n;
			rest /= ax[i].n;
		}
		var->settings = json_object();
		for (i = 0; i < na; i++) {
			const char *val = ax[i].values[idx[i]];

			json_object_set_new(var->settings, ax[i].name, json_string(val));
			if (ax[i].n > 1)
				off = append(label, sizeof(label), off, ax[i].shown, val);
		}
		var->thp_off = !strcmp(ax[na - 1].values[idx[na - 1]], "off");
		var->label = vms_xstrdup(off ? label : "default");
	}
	vs->n = total;
	for (i = 0; i + 1 < na; i++)
		vs->knobs[vs->n_knobs++] = vms_xstrdup(ax[i].name);
	axes_free(ax, na);
	return 0;
fail:
	axes_free(ax, na);
	return ret;
}

void vms_variants_release(struct vms_variants *vs)
{
	size_t i;

	for (i = 0; i < vs->n; i++) {
		free((char *)vs->v[i].label);
		json_decref(vs->v[i].settings);
	}
	for (i = 0; i < vs->n_knobs; i++)
		free((char *)vs->knobs[i]);
	memset(vs, 0, sizeof(*vs));
}
