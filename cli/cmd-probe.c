/* `vmsuite probe`: the audio probe alone for N seconds — a device check and an idle
 * baseline. Prints the Sound lines and can write a vmsuite.result/1 file with the audio facts
 * and the baseline. Kernel paths: those of the probe (ALSA, poll/timers, page faults). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "audio-probe/probe.h"
#include "cli/builtin.h"
#include "core/result.h"
#include "core/util.h"
#include "core/version.h"
#include "report/sound.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static int parse_ms(const struct vms_command *c, const char *opt, const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || errno || (*end && strcmp(end, "ms")) || !(v >= 1 && v <= 60000))
		return vms_usage_error(c, "%s wants milliseconds between 1 and 60000, not '%s'",
		                       opt, arg);
	*out = v;
	return 0;
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

int cmd_probe(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"seconds", required_argument, NULL, 's'},
	    {"device", required_argument, NULL, 'd'},
	    {"period", required_argument, NULL, 'p'},
	    {"buffer", required_argument, NULL, 'b'},
	    {"rt", no_argument, NULL, 'r'},
	    {"mlock", no_argument, NULL, 'm'},
	    {"cpu", required_argument, NULL, 'c'},
	    {"output", required_argument, NULL, 'o'},
	    {NULL, 0, NULL, 0},
	};
	const struct vms_command *cmd = vms_command_find("probe");
	struct vms_probe_opts o = {0};
	struct vms_probe *p;
	struct sigaction sa;
	const char *output = NULL;
	double seconds = 10, t0, t1, t_real;
	json_t *metrics, *detail, *audio;
	int opt, ret = VMS_EXIT_OK, died;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (vms_parse_seconds(optarg, &seconds) || seconds < 0.5 || seconds > 86400)
				return vms_usage_error(cmd,
				                       "--seconds wants a duration between 0.5 s "
				                       "and 24 h, not '%s'",
				                       optarg);
			break;
		case 'd': o.device = optarg; break;
		case 'p':
			if (parse_ms(cmd, "--period", optarg, &o.period_ms))
				return VMS_EXIT_USAGE;
			break;
		case 'b':
			if (parse_ms(cmd, "--buffer", optarg, &o.buffer_ms))
				return VMS_EXIT_USAGE;
			break;
		case 'r': o.rt = 1; break;
		case 'm': o.mlock = 1; break;
		case 'c': o.cpu_list = optarg; break;
		case 'o': output = optarg; break;
		case ':':
			return vms_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
		default: return vms_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o.file = argv[optind++];
	if (optind < argc)
		return vms_usage_error(cmd, "one MP3 file at most, not also '%s'", argv[optind]);
	if ((o.period_ms ? o.period_ms : 25) * 2 > (o.buffer_ms ? o.buffer_ms : 100))
		return vms_usage_error(cmd, "the buffer must hold at least two periods");

	t_real = vms_now_real();
	if (vms_probe_start(&o, &p))
		return VMS_EXIT_FATAL;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
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

		printf(
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
	vms_report_sound_baseline(stdout, audio);

	if (output) {
		json_t *doc = result_doc(argc, argv, t_real, json_incref(audio), interrupted);
		int err = vms_json_write_file(doc, output);

		json_decref(doc);
		if (err) {
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
