/* The audio probe's command-line options (device, period, buffer, rt, mlock, cpu): one parser
 * and one set of messages for `vmsuite probe` and `vmsuite run --with-audio`. No kernel paths
 * of its own; the values end up in ALSA's hw_params and sched_setaffinity. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio-probe/probe.h"
#include "core/machine.h"
#include "core/util.h"

static const struct {
	const char *name;
	int takes_value;
} known[] = {
    {"device", 1}, {"latency", 1}, {"period", 1}, {"buffer", 1},
    {"rt", 0},     {"mlock", 0},   {"cpu", 1},
};

/* docs/audio-probe.md, Latency presets */
const struct vms_probe_latency vms_probe_latencies[] = {
    {"2001", 25, 100, "an OSS-era player's fragments: four of 25 ms"},
    {"desktop", 1024 * 1000.0 / 48000, 2048 * 1000.0 / 48000,
     "a desktop sound server's default quantum: 1024 frames at 48 kHz, two periods"},
    {"pro", 256 * 1000.0 / 48000, 512 * 1000.0 / 48000,
     "JACK-like low latency: 256 frames at 48 kHz, two periods"},
    {NULL, 0, 0, NULL},
};

const struct vms_probe_latency *vms_probe_latency_find(const char *name)
{
	size_t i;

	if (!name)
		name = VMS_PROBE_LATENCY_DEFAULT;
	for (i = 0; vms_probe_latencies[i].name; i++)
		if (!strcmp(vms_probe_latencies[i].name, name))
			return &vms_probe_latencies[i];
	return NULL;
}

void vms_probe_geometry(const struct vms_probe_opts *o, double *period_ms, double *buffer_ms)
{
	const struct vms_probe_latency *l = vms_probe_latency_find(o->latency);

	if (!l) /* refused by vms_probe_opt_set(); the default then */
		l = vms_probe_latency_find(NULL);
	*period_ms = o->period_ms ? o->period_ms : l->period_ms;
	*buffer_ms = o->buffer_ms ? o->buffer_ms : l->buffer_ms;
}

int vms_probe_opt_known(const char *name, int *takes_value)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (!strcmp(known[i].name, name)) {
			if (takes_value)
				*takes_value = known[i].takes_value;
			return 1;
		}
	}
	return 0;
}

/* Milliseconds as "25", "25ms" or "0.025s": a plain decimal (vms_parse_decimal: no exponent,
 * hex, sign, blank, inf or nan), then no unit, "ms" or "s". 0 or -EINVAL. */
static int parse_ms(const char *s, double *out)
{
	const char *end;
	double v;

	if (vms_parse_decimal(s, &end, &v))
		return -EINVAL;
	if (!strcmp(end, "s"))
		v *= 1000;
	else if (*end && strcmp(end, "ms"))
		return -EINVAL;
	*out = v;
	return 0;
}

static int set_ms(const char *name, const char *value, double min, double def, double max,
                  double *out, char *err, size_t errlen)
{
	double v;

	if (parse_ms(value, &v) || !(v >= min && v <= max)) {
		snprintf(err, errlen,
		         "--%s wants milliseconds from %g to %g (%g, %gms or %gs), not '%s'", name,
		         min, max, def, def, def / 1000, value);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int vms_probe_opt_set(struct vms_probe_opts *o, const char *name, const char *value, char *err,
                      size_t errlen)
{
	cpu_set_t set;
	int takes_value;

	if (!vms_probe_opt_known(name, &takes_value))
		return -ENOENT;
	if (takes_value != !!value) {
		snprintf(err, errlen, takes_value ? "--%s needs a value" : "--%s takes no value",
		         name);
		return -EINVAL;
	}
	if (!value) { /* the flags */
		if (!strcmp(name, "rt"))
			o->rt = 1;
		else
			o->mlock = 1;
		return 0;
	}
	if (!strcmp(name, "period"))
		return set_ms(name, value, VMS_PROBE_PERIOD_MIN_MS, VMS_PROBE_PERIOD_MS,
		              VMS_PROBE_PERIOD_MAX_MS, &o->period_ms, err, errlen);
	if (!strcmp(name, "buffer"))
		return set_ms(name, value, VMS_PROBE_BUFFER_MIN_MS, VMS_PROBE_BUFFER_MS,
		              VMS_PROBE_BUFFER_MAX_MS, &o->buffer_ms, err, errlen);
	if (!strcmp(name, "latency")) {
		if (!vms_probe_latency_find(value)) {
			snprintf(err, errlen, "--latency wants 2001, desktop or pro, not '%s'",
			         value);
			return -EINVAL;
		}
		o->latency = value;
	} else if (!strcmp(name, "device")) {
		if (!*value) {
			snprintf(err, errlen,
			         "--device wants an ALSA device name ('virtual', 'default', "
			         "'hw:0'), not ''");
			return -EINVAL;
		}
		o->device = value;
	} else if (!strcmp(name, "cpu")) {
		if (vms_cpu_list_parse(value, &set) || !CPU_COUNT(&set)) {
			snprintf(err, errlen, "--cpu wants a CPU list (0, 0-1, 0,2), not '%s'",
			         value);
			return -EINVAL;
		}
		o->cpu_list = value;
	}
	return 0;
}

int vms_probe_opts_check(const struct vms_probe_opts *o, char *err, size_t errlen)
{
	const struct vms_probe_latency *l = vms_probe_latency_find(o->latency);
	double period, buffer;

	vms_probe_geometry(o, &period, &buffer);
	/* a little slack: the presets' frame counts are not whole milliseconds */
	if (buffer >= 2 * period - 1e-9)
		return 0;
	if (o->buffer_ms)
		snprintf(err, errlen,
		         "the buffer must hold at least two periods: --buffer %g ms allows "
		         "--period %.4g ms at most, not %.4g ms%s%s%s",
		         buffer, buffer / 2, period, o->period_ms ? "" : " (the ",
		         o->period_ms || !l ? "" : l->name,
		         o->period_ms ? "" : " preset's period)");
	else
		snprintf(err, errlen,
		         "the buffer must hold at least two periods: --period %g ms needs "
		         "--buffer %g ms or more (the %s preset's buffer is %.4g ms)",
		         period, 2 * period, l ? l->name : "default", buffer);
	return -EINVAL;
}
