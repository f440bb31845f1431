/* The audio probe's command-line options (device, latency, period, buffer, rt, mlock, cpu),
 * one table row each: one parser and one set of messages for `vmsuite probe` and `vmsuite run
 * --with-audio`. No kernel paths of its own; the values end up in ALSA's hw_params and
 * sched_setaffinity. */
#include <errno.h>
#include <stddef.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio-probe/probe.h"
#include "core/cpulist.h"
#include "core/util.h"

/* What a probe option sets, and how its value is checked. */
enum kind { FLAG, MS, LATENCY, DEVICE, CPU };

#define STR_(x) #x
#define STR(x)  STR_(x)

/* The probe's options, one row each: name, argument, help (as `vmsuite probe` shows it; lines
 * after the first start after a newline), the help of `vmsuite run` when it says more, what the
 * value sets in struct vms_probe_opts, and for milliseconds the range and the example. */
static const struct row {
	const char *name, *arg_name, *help, *run_help;
	enum kind kind;
	size_t offset;
	double min, example, max;
} rows[] = {
    {"device", "DEV",
     "ALSA device; 'virtual' is vmsuite's virtual clock device. Default: the\n"
     "ALSA default device when there is a sound card, else the virtual device\n"
     "(it measures timing only; nothing is heard)",
     NULL, DEVICE, offsetof(struct vms_probe_opts, device), 0, 0, 0},
    {"latency", "NAME",
     "latency preset: 2001 (period/buffer 25/100 ms), desktop (21.3/42.7 ms),\n"
     "pro (5.3/10.7 ms); default " VMS_PROBE_LATENCY_DEFAULT
     "; --period/--buffer override its halves",
     NULL, LATENCY, offsetof(struct vms_probe_opts, latency), 0, 0, 0},
    {"period", "MS",
     "period in milliseconds, " STR(VMS_PROBE_PERIOD_MIN_MS) " to " STR(
         VMS_PROBE_PERIOD_MAX_MS) " (default: the preset's);\n\"25\", \"25ms\" and "
                                  "\"0.025s\" are the same. Alone (no --latency or\n"
                                  "--buffer) the buffer is two periods, like the default\n"
                                  "preset's: --period 25 plays with a 50 ms buffer",
     NULL, MS, offsetof(struct vms_probe_opts, period_ms), VMS_PROBE_PERIOD_MIN_MS,
     VMS_PROBE_PERIOD_MS, VMS_PROBE_PERIOD_MAX_MS},
    {"buffer", "MS",
     "buffer in milliseconds, " STR(VMS_PROBE_BUFFER_MIN_MS) " to " STR(
         VMS_PROBE_BUFFER_MAX_MS) " (default: the preset's);\nat least two periods",
     NULL, MS, offsetof(struct vms_probe_opts, buffer_ms), VMS_PROBE_BUFFER_MIN_MS,
     VMS_PROBE_BUFFER_MS, VMS_PROBE_BUFFER_MAX_MS},
    {"rt", NULL, "run the probe SCHED_FIFO (needs root or CAP_SYS_NICE)", NULL, FLAG,
     offsetof(struct vms_probe_opts, rt), 0, 0, 0},
    {"mlock", NULL, "lock the probe's memory (mlockall) to take paging out of the picture", NULL,
     FLAG, offsetof(struct vms_probe_opts, mlock), 0, 0, 0},
    {"cpu", "LIST", "pin the probe to these CPUs (\"0\", \"0-1\", \"0,2\")",
     "pin the audio probe to these CPUs (0, 0-1, 0,2), within the emulated\n"
     "machine's (--cpus); default: the emulated machine's",
     CPU, offsetof(struct vms_probe_opts, cpu_list), 0, 0, 0},
};

/* The rows as a command's option table (for_run: with run's help), built once. */
static const struct vms_cli_option *cli_rows(int for_run)
{
	static struct vms_cli_option cli[2][VMS_ARRAY_SIZE(rows) + 1];
	struct vms_cli_option *c = cli[for_run];
	size_t i;

	if (c[0].name)
		return c;
	for (i = 0; i < VMS_ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];

		c[i].name = r->name;
		c[i].arg = r->arg_name ? VMS_CLI_REQUIRED : VMS_CLI_FLAG;
		c[i].arg_name = r->arg_name;
		c[i].help = for_run && r->run_help ? r->run_help : r->help;
	}
	return c;
}

const struct vms_cli_option *vms_probe_cli_options(void)
{
	return cli_rows(0);
}

const struct vms_cli_option *vms_probe_run_cli_options(void)
{
	return cli_rows(1);
}

const char *vms_probe_opt_names(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < VMS_ARRAY_SIZE(rows) && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s--%s",
		                 i == 0                          ? ""
		                 : i + 1 == VMS_ARRAY_SIZE(rows) ? " and "
		                                                 : ", ",
		                 rows[i].name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

static const struct row *find_row(const char *name)
{
	size_t i;

	for (i = 0; i < VMS_ARRAY_SIZE(rows); i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

int vms_probe_opt_known(const char *name, int *takes_value)
{
	const struct row *r = find_row(name);

	if (r && takes_value)
		*takes_value = r->arg_name != NULL;
	return r != NULL;
}

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
	/* --period alone: the buffer follows it, with as many periods as the default preset's
	 * (aplay too picks the buffer itself when given only a period); a preset named with
	 * --latency keeps its buffer */
	if (o->period_ms && !o->buffer_ms && !o->latency)
		*buffer_ms = o->period_ms * (l->buffer_ms / l->period_ms);
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
	const struct row *r = find_row(name);
	void *field;
	cpu_set_t set;

	if (!r)
		return -ENOENT;
	if (!r->arg_name != !value) {
		snprintf(err, errlen, r->arg_name ? "--%s needs a value" : "--%s takes no value",
		         name);
		return -EINVAL;
	}
	field = (char *)o + r->offset;
	if (!value) { /* the flags */
		*(int *)field = 1;
		return 0;
	}
	switch (r->kind) {
	case FLAG: return -EINVAL; /* a flag has no value: refused above */
	case MS: return set_ms(name, value, r->min, r->example, r->max, field, err, errlen);
	case LATENCY:
		if (!vms_probe_latency_find(value)) {
			snprintf(err, errlen, "--latency wants 2001, desktop or pro, not '%s'",
			         value);
			return -EINVAL;
		}
		break;
	case DEVICE:
		if (!*value) {
			snprintf(err, errlen,
			         "--device wants an ALSA device name ('virtual', 'default', "
			         "'hw:0'), not ''");
			return -EINVAL;
		}
		break;
	case CPU:
		if (vms_cpu_list_parse(value, &set) || !CPU_COUNT(&set)) {
			snprintf(err, errlen, "--cpu wants a CPU list (0, 0-1, 0,2), not '%s'",
			         value);
			return -EINVAL;
		}
		break;
	}
	*(const char **)field = value;
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
