/* `vmsuite probe`: the audio probe alone for N seconds — a device check and an idle
 * baseline. Prints the Sound lines and can write a vmsuite.result/2 file with the audio facts
 * and the baseline. Kernel paths: those of the probe (ALSA, poll/timers, page faults). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "audio-probe/probe.h"
#include "cli/builtin.h"
#include "core/metric.h"
#include "core/result.h"
#include "core/util.h"
#include "core/version.h"
#include "report/sound-text.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static json_t *result_doc(int argc, char **argv, double t_start_real, json_t *audio, int intr)
{
	struct utsname u;
	json_t *doc;

	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "unknown");
	/* argv[-1] is the program itself: record "vmsuite probe ..." as typed */
	doc = vms_result_new(argc + 1, argv - 1, u.release, t_start_real);
	json_object_set_new(doc, "audio", audio);
	vms_result_finish(doc, !intr, intr, intr ? VMS_EXIT_INTERRUPTED : 0);
	return doc;
}

enum probe_key { PROBE_SECONDS, PROBE_OPT, PROBE_OUTPUT, PROBE_OVERWRITE };

static const struct vms_cli_option probe_options[] = {
    {"seconds", 0, VMS_CLI_REQUIRED, "N",
     "how long to play (default 10; \"300ms\", \"2m\" accepted)", PROBE_SECONDS, 0},
    {"", 0, VMS_CLI_GROUP, NULL, NULL, PROBE_OPT, 0}, /* the probe's: --device ... --probe-cpus */
    {"output", 'o', VMS_CLI_REQUIRED, "FILE",
     "write a vmsuite.result/2 file with the audio facts and the baseline\n"
     "(a new file unless --overwrite); -: to standard output (the Audio and\n"
     "Sound lines then go to standard error)",
     PROBE_OUTPUT, 0},
    {"overwrite", 0, VMS_CLI_FLAG, NULL, "let -o replace an existing file", PROBE_OVERWRITE, 0},
    {"force", 0, VMS_CLI_ALIAS, "overwrite", NULL, 0, 0},
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};

/* The gap causes the Sound lines name, from the cause table (core/metric.c). */
static char *cause_paragraph(void)
{
	char *names = vms_cause_names(", ");
	char *text = vms_xasprintf("Each gap in the music is given one cause (docs/audio-probe.md, "
	                           "Causes): %s.",
	                           names);

	free(names);
	return text;
}

/* What completes the value of a probe option (struct vms_cli_usage's values). */
static char *probe_values(const struct vms_cli_option *o)
{
	if (o && o->key == PROBE_OUTPUT)
		return vms_xstrdup(VMS_CLI_FILES);
	return o && o->key == PROBE_OPT ? vms_probe_opt_values(o->name) : NULL;
}

const struct vms_cli_usage vms_probe_usage = {
    .operands = "[FILE]",
    .about = "Plays FILE (default: the bundled sample MP3) through ALSA with the audio probe "
             "alone for N\n"
             "seconds (a device check and an idle baseline) and prints its Sound line: the "
             "0-10 rating,\n"
             "played N of M seconds, skips, underruns, the longest gap and the p99 wake-up "
             "lateness.\n",
    .options = probe_options,
    .group = vms_probe_cli_options,
    .generated_more = cause_paragraph,
    .more = "\nExit status: 0 played; 1 the probe process died; 128 bad file or device (one "
            "message\n"
            "before anything plays); 129 usage error; 130 interrupted.\n",
    .values = probe_values,
};

struct probe_args {
	struct vms_probe_opts o;
	double seconds;
	const char *output;
	int overwrite; /* -o may replace an existing file */
};

/* One option or operand of `probe` (a vms_cli_handler). */
static int probe_option(void *ctx, const struct vms_cli_option *opt, const char *val, char *err,
                        size_t errlen)
{
	struct probe_args *a = ctx;

	if (!opt) {
		if (a->o.file) {
			snprintf(err, errlen, "one MP3 file at most, not also '%s'", val);
			return -EINVAL;
		}
		a->o.file = val;
		return 0;
	}
	switch ((enum probe_key)opt->key) {
	case PROBE_SECONDS:
		if (vms_parse_seconds(val, &a->seconds) || a->seconds < 0.5 || a->seconds > 86400) {
			snprintf(err, errlen,
			         "--seconds wants a duration between 0.5 s and 24 h, not '%s'",
			         val);
			return -EINVAL;
		}
		return 0;
	case PROBE_OPT: return vms_probe_opt_set(&a->o, opt->name, val, err, errlen);
	case PROBE_OUTPUT: a->output = val; return 0;
	case PROBE_OVERWRITE: a->overwrite = 1; return 0;
	}
	return -EINVAL;
}

int cmd_probe(int argc, char **argv)
{
	const struct vms_command *cmd = vms_command_find("probe");
	struct probe_args a = {.seconds = 10};
	struct vms_probe *p;
	struct sigaction sa;
	const char *output;
	double seconds, t0, t1, t_real;
	json_t *metrics, *detail, *audio;
	int ret = VMS_EXIT_OK, died, i, to_stdout;
	FILE *txt;
	char why[512];

	if ((ret = vms_cli_parse(cmd->name, cmd->usage, argc, argv, probe_option, &a)))
		return ret;
	if (vms_probe_opts_check(&a.o, why, sizeof(why)))
		return vms_usage_error(cmd, "%s", why);
	seconds = a.seconds, output = a.output;
	/* JSON holds UTF-8 only: jansson would drop such a path silently */
	for (i = 1; i < argc; i++)
		if (!vms_utf8_valid(argv[i]))
			return vms_usage_error(cmd,
			                       "argument %d is not valid UTF-8; the result file "
			                       "records paths and the command line as UTF-8 text",
			                       i);
	to_stdout = output && !strcmp(output, "-");
	txt = to_stdout ? stderr : stdout; /* the lines go where the result does not */
	if (output && !to_stdout && vms_output_check(NULL, output, a.overwrite, "--overwrite"))
		return VMS_EXIT_FATAL;

	t_real = vms_now_real();
	/* before the start: Ctrl-C while the probe starts ends it at once (no SA_RESTART) */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	a.o.stop = &interrupted;
	ret = vms_probe_start(&a.o, &p);
	if (ret) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (ret != -EINTR)
			return VMS_EXIT_FATAL;
		vms_note("interrupted while the audio probe was starting; nothing played");
		return VMS_EXIT_INTERRUPTED;
	}
	t0 = vms_now_mono();
	while (!interrupted && vms_now_mono() - t0 < seconds && vms_probe_alive(p)) {
		double left = seconds - (vms_now_mono() - t0);

		vms_sleep(left < 0.1 ? left : 0.1, NULL);
	}
	t1 = vms_now_mono();
	died = vms_probe_stop(p) < 0;
	metrics = json_object();
	detail = vms_probe_window(p, t0, t1, metrics, 0);
	audio = json_pack("{s:o, s:{s:o, s:o}}", "facts", vms_probe_facts(p), "baseline", "metrics",
	                  metrics, "detail", detail);
	vms_probe_free(p);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);

	{
		json_t *f = json_object_get(audio, "facts");

		fprintf(
		    txt,
		    "Audio: '%s' (%lld Hz, %lld kbit/s %s, %.1f s) on %s, period %.1f ms / buffer "
		    "%.1f ms, %.1f s\n",
		    json_string_value(json_object_get(f, "file")),
		    (long long)json_integer_value(json_object_get(f, "sample_rate")),
		    (long long)json_integer_value(json_object_get(f, "bitrate_kbps")),
		    json_string_value(json_object_get(f, "bitrate_mode")),
		    json_real_value(json_object_get(f, "duration_s")),
		    json_string_value(json_object_get(f, "device")),
		    json_real_value(json_object_get(f, "period_ms")),
		    json_real_value(json_object_get(f, "buffer_ms")), t1 - t0);
	}
	vms_report_sound_baseline(txt, audio);

	if (output) {
		json_t *doc = result_doc(argc, argv, t_real, json_incref(audio), interrupted);
		int err = to_stdout ? vms_json_write_stream(doc, stdout)
		                    : vms_json_write_file(doc, output,
		                                          a.overwrite ? 0 : VMS_WRITE_NOREPLACE);

		json_decref(doc);
		if (to_stdout && err) {
			if (!vms_stdout_flush()) /* a write error is said there, once */
				vms_error("cannot write the result to standard output: %s",
				          strerror(-err));
			ret = VMS_EXIT_FATAL;
		} else if (err == -EEXIST) {
			vms_error("'%s' exists: not overwritten (--overwrite replaces it)", output);
			ret = VMS_EXIT_FATAL;
		} else if (err) {
			vms_error("cannot write '%s': %s", output, strerror(-err));
			ret = VMS_EXIT_FATAL;
		}
	}
	json_decref(audio);
	if (interrupted)
		return VMS_EXIT_INTERRUPTED;
	if (died && ret == VMS_EXIT_OK)
		ret = VMS_EXIT_FAILED;
	return ret;
}
