/* Unit tests of audio-probe/probe-opts.c: the audio probe's options as `vmsuite probe` and
 * `vmsuite run --with-audio` parse them, in process: each row below goes through the option-table
 * parser (core/options.c) with the probe's rows as probe and as run splice them in, then
 * vms_probe_opt_set() and vms_probe_opts_check(), the path both commands take. A refused spelling
 * must give exactly its message, the same for both; an accepted one the geometry written beside it.
 * tests/cli/probe_opts.sh keeps one real run per command. No kernel paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio-probe/probe.h"
#include "core/options.h"
#include "core/util.h"
#include "tests/vms_test.h"

#define PERIOD_RANGE "--period wants milliseconds from 1 to 1000 (25, 25ms or 0.025s)"
#define BUFFER_RANGE "--buffer wants milliseconds from 2 to 10000 (100, 100ms or 0.1s)"
#define LATENCY      "--latency wants 2001, desktop or pro"
#define TWO_PERIODS  "the buffer must hold at least two periods: "

/* A refused command line (after the command name) and its message. */
static const struct refused {
	const char *args[5];
	const char *msg;
} refused[] = {
    {{"--period", "0"}, PERIOD_RANGE ", not '0'"},
    {{"--period", "70000"}, PERIOD_RANGE ", not '70000'"},
    {{"--period", "25x"}, PERIOD_RANGE ", not '25x'"},
    {{"--period", "1001"}, PERIOD_RANGE ", not '1001'"},
    {{"--period", "0.5"}, PERIOD_RANGE ", not '0.5'"},
    {{"--period", "0.0001s"}, PERIOD_RANGE ", not '0.0001s'"},
    {{"--period", "25us"}, PERIOD_RANGE ", not '25us'"},
    {{"--period", "-5"}, PERIOD_RANGE ", not '-5'"},
    {{"--period", ""}, PERIOD_RANGE ", not ''"},
    {{"--period", "0x19"}, PERIOD_RANGE ", not '0x19'"},
    {{"--period", " 25"}, PERIOD_RANGE ", not ' 25'"},
    {{"--period", "25ms5"}, PERIOD_RANGE ", not '25ms5'"},
    {{"--period", "nan"}, PERIOD_RANGE ", not 'nan'"},
    {{"--period", "inf"}, PERIOD_RANGE ", not 'inf'"},
    {{"--period=25x"}, PERIOD_RANGE ", not '25x'"},
    {{"--buffer", "0"}, BUFFER_RANGE ", not '0'"},
    {{"--buffer", "70000"}, BUFFER_RANGE ", not '70000'"},
    {{"--buffer", "25x"}, BUFFER_RANGE ", not '25x'"},
    {{"--buffer", "1"}, BUFFER_RANGE ", not '1'"},
    {{"--buffer", "10001"}, BUFFER_RANGE ", not '10001'"},
    {{"--buffer", "11s"}, BUFFER_RANGE ", not '11s'"},
    /* a buffer under two periods: --buffer alone keeps the preset's period, --period with
     * a preset named keeps its buffer */
    {{"--buffer", "40"},
     TWO_PERIODS "--buffer 40 ms allows --period 20 ms at most, not 21.33 ms (the desktop "
                 "preset's period)"},
    {{"--latency", "2001", "--buffer", "40"},
     TWO_PERIODS "--buffer 40 ms allows --period 20 ms at most, not 25 ms (the 2001 preset's "
                 "period)"},
    {{"--latency", "pro", "--period", "10"},
     TWO_PERIODS "--period 10 ms needs --buffer 20 ms or more (the pro preset's buffer is "
                 "10.67 ms)"},
    {{"--latency", "desktop", "--period", "25ms"},
     TWO_PERIODS "--period 25 ms needs --buffer 50 ms or more (the desktop preset's buffer is "
                 "42.67 ms)"},
    {{"--period", "25", "--latency", "desktop"},
     TWO_PERIODS "--period 25 ms needs --buffer 50 ms or more (the desktop preset's buffer is "
                 "42.67 ms)"},
    {{"--latency", "2001", "--period", "60"},
     TWO_PERIODS "--period 60 ms needs --buffer 120 ms or more (the 2001 preset's buffer is "
                 "100 ms)"},
    {{"--period", "80", "--buffer", "100"},
     TWO_PERIODS "--buffer 100 ms allows --period 50 ms at most, not 80 ms"},
    {{"--period", "0.051s", "--buffer", "100ms"},
     TWO_PERIODS "--buffer 100 ms allows --period 50 ms at most, not 51 ms"},
    {{"--latency", ""}, LATENCY ", not ''"},
    {{"--latency", "2002"}, LATENCY ", not '2002'"},
    {{"--latency", "Desktop"}, LATENCY ", not 'Desktop'"},
    {{"--latency", "pro "}, LATENCY ", not 'pro '"},
    {{"--latency", "fast"}, LATENCY ", not 'fast'"},
    {{"--device", ""}, "--device wants an ALSA device name ('virtual', 'default', 'hw:0'), not ''"},
    {{"--probe-cpus", "x"}, "--probe-cpus wants a CPU list (0, 0-1, 0,2), not 'x'"},
    {{"--probe-cpus", ""}, "--probe-cpus wants a CPU list (0, 0-1, 0,2), not ''"},
    {{"--rt=1"}, "option '--rt' takes no value"},
    {{"--mlock=yes"}, "option '--mlock' takes no value"},
    {{"--period"}, "option '--period' needs a value (MS)"},
    {{"--latancy", "pro"}, "unknown option '--latancy'; did you mean '--latency'?"},
    {{"--nothing-like-it"}, "unknown option '--nothing-like-it'"},
    {{"--rt", "--rt"}, "option '--rt' given twice"},
    {{"--period", "20", "--period=25"}, "option '--period' given twice: it takes one value"},
};

/* An accepted command line and the geometry the probe is asked for. */
static const struct accepted {
	const char *args[7];
	double period_ms, buffer_ms;
} accepted[] = {
    /* the default is the desktop preset (1024 and 2048 frames at 48 kHz); each option
     * overrides its half of the preset's geometry */
    {{NULL}, 21.3333, 42.6667},
    {{"--latency", "desktop"}, 21.3333, 42.6667},
    {{"--latency", "2001"}, 25, 100},
    {{"--latency", "pro"}, 5.33333, 10.6667},
    {{"--latency", "2001", "--period", "25"}, 25, 100},
    {{"--latency", "2001", "--period", "25ms"}, 25, 100},
    {{"--latency=2001", "--period", "0.025s"}, 25, 100},
    {{"--buffer", "100"}, 21.3333, 100},
    {{"--buffer", "100ms"}, 21.3333, 100},
    {{"--buffer=0.1s"}, 21.3333, 100},
    {{"--period", "10", "--buffer", "40"}, 10, 40},
    {{"--period", "50ms", "--buffer", "0.1s"}, 50, 100},
    {{"--latency", "2001", "--period", "12.5"}, 12.5, 100},
    {{"--period", "1", "--buffer", "2"}, 1, 2},
    {{"--latency", "pro", "--buffer", "100"}, 5.33333, 100},
    /* --period alone keeps the default (desktop) preset's two periods per buffer */
    {{"--period", "25ms"}, 25, 50},
    {{"--period", "80"}, 80, 160},
    {{"--period=0.005s"}, 5, 10},
    {{"--period", "1"}, 1, 2},
    {{"--period", "1000"}, 1000, 2000},
    {{"--period", "25", "--device", "virtual", "--rt"}, 25, 50},
    {{"--device", "virtual", "--rt", "--mlock", "--probe-cpus", "0"}, 21.3333, 42.6667},
};

/* The command's table: only the probe's rows, as both commands splice them in. */
static const struct vms_cli_option rows[] = {
    {"", 0, VMS_CLI_GROUP, NULL, NULL, 1, 0},
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};
static const struct vms_cli_usage probe_usage = {.options = rows, .group = vms_probe_cli_options};
static const struct vms_cli_usage run_usage = {.options = rows, .group = vms_probe_run_cli_options};

static int set_option(void *ctx, const struct vms_cli_option *opt, const char *val, char *err,
                      size_t errlen)
{
	if (!opt) {
		snprintf(err, errlen, "unexpected operand '%s'", val);
		return -EINVAL;
	}
	assert_int_equal(opt->key, 1); /* the group row's key */
	return vms_probe_opt_set(ctx, opt->name, val, err, errlen);
}

/* Parses args as cmd ("probe" or "run") does and checks the options together. Returns the exit
 * code (0, or 129 for a usage error) with what went to stderr in out. */
static int parse(const char *cmd, const char *const *args, struct vms_probe_opts *o, char *out,
                 size_t len)
{
	char *argv[8] = {(char *)cmd};
	char why[512];
	int argc = 1, saved, ret;
	FILE *t = tmpfile();
	size_t n;

	for (; argc < 8 && args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	assert_non_null(t);
	memset(o, 0, sizeof(*o));
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0 && dup2(fileno(t), STDERR_FILENO) >= 0);
	ret = vms_cli_parse(cmd, strcmp(cmd, "run") ? &probe_usage : &run_usage, argc, argv,
	                    set_option, o);
	if (!ret && vms_probe_opts_check(o, why, sizeof(why)))
		ret = vms_cli_usage_error(cmd, "%s", why);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(t);
	n = fread(out, 1, len - 1, t);
	out[n] = '\0';
	fclose(t);
	return ret;
}

static void test_refused(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < VMS_ARRAY_SIZE(refused); i++) {
		const char *cmds[] = {"probe", "run"};
		size_t c;

		for (c = 0; c < 2; c++) {
			struct vms_probe_opts o;
			char got[1024], want[1024];

			snprintf(want, sizeof(want), "vmsuite: %s: %s\nTry 'vmsuite %s --help'.\n",
			         cmds[c], refused[i].msg, cmds[c]);
			if (parse(cmds[c], refused[i].args, &o, got, sizeof(got)) != 129 ||
			    strcmp(got, want))
				fail_msg("%s %s ...: want exit 129 and\n%sgot\n%s", cmds[c],
				         refused[i].args[0], want, got);
		}
	}
}

static void test_accepted(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < VMS_ARRAY_SIZE(accepted); i++) {
		const char *cmds[] = {"probe", "run"};
		size_t c;

		for (c = 0; c < 2; c++) {
			struct vms_probe_opts o;
			double period, buffer;
			char got[1024];

			if (parse(cmds[c], accepted[i].args, &o, got, sizeof(got)) || got[0])
				fail_msg("%s %s ...: refused: %s", cmds[c],
				         accepted[i].args[0] ? accepted[i].args[0] : "(none)", got);
			vms_probe_geometry(&o, &period, &buffer);
			assert_float_equal(period, accepted[i].period_ms, 1e-3);
			assert_float_equal(buffer, accepted[i].buffer_ms, 1e-3);
		}
	}
}

/* The values reach the fields they name. */
static void test_fields(void **state)
{
	const char *args[] = {"--device", "hw:0",    "--latency",        "pro",
	                      "--rt",     "--mlock", "--probe-cpus=0-1", NULL};
	struct vms_probe_opts o;
	char got[1024];

	(void)state;
	assert_int_equal(parse("probe", args, &o, got, sizeof(got)), 0);
	assert_string_equal(o.device, "hw:0");
	assert_string_equal(o.latency, "pro");
	assert_string_equal(o.cpu_list, "0-1");
	assert_int_equal(o.rt, 1);
	assert_int_equal(o.mlock, 1);
	assert_true(o.period_ms == 0 && o.buffer_ms == 0); /* the preset's */
}

/* --cpu, the old spelling of --probe-cpus: one warning line, then the same as --probe-cpus */
static void test_old_spelling(void **state)
{
	const char *args[] = {"--cpu", "0-1", NULL};
	const char *cmds[] = {"probe", "run"};
	struct vms_probe_opts o;
	char got[1024], want[256];
	size_t c;

	(void)state;
	for (c = 0; c < 2; c++) {
		snprintf(
		    want, sizeof(want),
		    "vmsuite: warning: %s: '--cpu' is deprecated and goes in the next release: "
		    "use '--probe-cpus'\n",
		    cmds[c]);
		assert_int_equal(parse(cmds[c], args, &o, got, sizeof(got)), 0);
		assert_string_equal(got, want);
		assert_non_null(o.cpu_list);
		assert_string_equal(o.cpu_list, "0-1");
	}
}

/* Both commands show the same options in the same order; run's --probe-cpus says more. The names
 * list is what run's "go with --with-audio" refusal and help say. */
static void test_rows(void **state)
{
	const struct vms_cli_option *p = vms_probe_cli_options(), *r = vms_probe_run_cli_options();
	const char *names[] = {"device", "latency", "period",    "buffer",
	                       "rt",     "mlock",   "probe-cpus"};
	char list[256];
	size_t i;

	(void)state;
	for (i = 0; i < VMS_ARRAY_SIZE(names); i++) {
		assert_string_equal(p[i].name, names[i]);
		assert_string_equal(r[i].name, names[i]);
		assert_int_equal(p[i].arg, r[i].arg);
		if (strcmp(names[i], "probe-cpus"))
			assert_string_equal(p[i].help, r[i].help);
	}
	/* then --cpu, the old spelling of --probe-cpus (until the next release) */
	assert_string_equal(p[i].name, "cpu");
	assert_int_equal(p[i].arg, VMS_CLI_ALIAS);
	assert_string_equal(p[i].arg_name, "probe-cpus");
	assert_string_equal(r[i].name, "cpu");
	assert_null(p[i + 1].name);
	assert_null(r[i + 1].name);
	assert_string_equal(p[6].help, "pin the probe to these CPUs (\"0\", \"0-1\", \"0,2\")");
	assert_string_equal(r[6].help,
	                    "pin the audio probe to these CPUs (0, 0-1, 0,2), within the "
	                    "emulated\nmachine's (--cpus); default: the emulated machine's");
	assert_string_equal(
	    vms_probe_opt_names(list, sizeof(list)),
	    "--device, --latency, --period, --buffer, --rt, --mlock and --probe-cpus");
	assert_string_equal(vms_probe_opt_names(list, 12), "--device, -");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_refused), cmocka_unit_test(test_accepted),
	    cmocka_unit_test(test_fields),  cmocka_unit_test(test_old_spelling),
	    cmocka_unit_test(test_rows),
	};

	return vms_test_run(tests, NULL, NULL, argc, argv);
}
