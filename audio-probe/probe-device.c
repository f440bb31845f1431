/* ALSA device choice and setup for the probe: the virtual clock plugin opened from its
 * absolute path without touching the user's ALSA configuration, real devices by name, and a
 * geometry that is either granted close to what was asked or refused with a reason. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio-probe/probe-internal.h"
#include "core/util.h"
#include "core/version.h"

#define VCLOCK_SO "libasound_module_pcm_vmsclock.so"

/* 1 when this process runs a binary from vmsuite's build tree. */
static int in_build_tree(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t len = strlen(VMS_BINARY_DIR);

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	return !strncmp(exe, VMS_BINARY_DIR, len) && exe[len] == '/';
}

/* <prefix>/<reldir>/vmsuite/<name> for the prefix the running binary is installed in
 * (<prefix>/bin/vmsuite) when that file exists, else NULL. Checked first, so that an install
 * anywhere (even below the build tree, as the install test does) uses its own files. */
static char *installed(const char *reldir, const char *name)
{
	char exe[PATH_MAX], *slash, *path;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			slash = strrchr(exe, '/');
		}
		if (slash) {
			*slash = '\0';
			path = vms_xasprintf("%s/%s/vmsuite/%s", exe, reldir, name);
			if (!access(path, R_OK))
				return path;
			free(path);
		}
	}
	return NULL;
}

char *vms_vclock_plugin_path(void)
{
	const char *dir = getenv("VMSUITE_PLUGIN_DIR");

	char *path;

	if (dir && *dir)
		return vms_xasprintf("%s/%s", dir, VCLOCK_SO);
	if ((path = installed(VMS_INSTALL_LIBDIR_REL, VCLOCK_SO)))
		return path;
	if (in_build_tree())
		return vms_xasprintf("%s/audio-probe/%s", VMS_BINARY_DIR, VCLOCK_SO);
	return vms_xasprintf("%s/vmsuite/%s", VMS_INSTALL_LIBDIR, VCLOCK_SO);
}

char *vms_sample_mp3_path(void)
{
	char *path = installed(VMS_INSTALL_DATADIR_REL, "sample.mp3");

	if (path)
		return path;
	if (in_build_tree())
		return vms_xasprintf("%s/data/sample.mp3", VMS_SOURCE_DIR);
	return vms_xasprintf("%s/vmsuite/sample.mp3", VMS_INSTALL_DATADIR);
}

int vms_have_sound_card(void)
{
	char *s = vms_read_text("/proc/asound/cards");
	int yes;

	if (!s)
		return 0;
	yes = s[strspn(s, " \t\n")] != '\0' && !strstr(s, "no soundcards");
	free(s);
	return yes;
}

/* Appends s to the config text in b, escaped for a double-quoted ALSA string. */
static void quote(char *b, size_t len, const char *s)
{
	size_t n = strlen(b);

	for (; *s && n + 3 < len; s++) {
		if (*s == '"' || *s == '\\')
			b[n++] = '\\';
		b[n++] = *s;
	}
	b[n] = '\0';
}

static void silent(const char *file, int line, const char *func, int err, const char *fmt, ...)
{
	(void)file, (void)line, (void)func, (void)err, (void)fmt;
}

/* "default, null, sysdefault:CARD=..., virtual" into buf. */
static void list_devices(char *buf, size_t len)
{
	void **hints = NULL, **h;
	size_t n = 0;

	buf[0] = '\0';
	if (snd_device_name_hint(-1, "pcm", &hints) == 0) {
		for (h = hints; *h && n + 8 < len; h++) {
			char *name = snd_device_name_get_hint(*h, "NAME");
			char *io = snd_device_name_get_hint(*h, "IOID");

			if (name && (!io || !strcmp(io, "Output")))
				n += (size_t)snprintf(buf + n, len - n, "%s, ", name);
			free(name);
			free(io);
		}
		snd_device_name_free_hint(hints);
	}
	if (n < len)
		snprintf(buf + n, len - n, "virtual (vmsuite's virtual clock device)");
}

int vms_pcm_open(snd_pcm_t **pcm, const char *dev, const char *vclock_log, char *err, size_t errlen)
{
	char devices[512];
	int ret;

	snd_lib_error_set_handler(silent);
	if (!strcmp(dev, "virtual")) {
		char conf[2 * PATH_MAX + 256] = "pcm_type.vmsclock { lib \"";
		char *path = vms_vclock_plugin_path();
		const char *suspend_at = getenv("VMSUITE_VCLOCK_SUSPEND_AT_MS");
		snd_config_t *lconf = NULL;

		if (access(path, R_OK) < 0) {
			snprintf(err, errlen,
			         "the virtual clock device is missing: cannot read '%s': %s", path,
			         strerror(errno));
			free(path);
			return -ENOENT;
		}
		quote(conf, sizeof(conf), path);
		free(path);
		snprintf(conf + strlen(conf), sizeof(conf) - strlen(conf),
		         "\" }\npcm.virtual { type vmsclock");
		if (vclock_log) {
			snprintf(conf + strlen(conf), sizeof(conf) - strlen(conf), " log \"");
			quote(conf, sizeof(conf), vclock_log);
			snprintf(conf + strlen(conf), sizeof(conf) - strlen(conf), "\"");
		}
		/* tests: VMSUITE_VCLOCK_SUSPEND_AT_MS=N injects one suspend N ms into playing */
		if (suspend_at && *suspend_at && strlen(suspend_at) < 10 &&
		    strspn(suspend_at, "0123456789") == strlen(suspend_at))
			snprintf(conf + strlen(conf), sizeof(conf) - strlen(conf),
			         " suspend_at_ms %s", suspend_at);
		snprintf(conf + strlen(conf), sizeof(conf) - strlen(conf), " }\n");
		ret = snd_config_load_string(&lconf, conf, 0);
		if (ret == 0) {
			ret = snd_pcm_open_lconf(pcm, "virtual", SND_PCM_STREAM_PLAYBACK,
			                         SND_PCM_NONBLOCK, lconf);
			snd_config_delete(lconf);
		}
		if (ret < 0)
			snprintf(err, errlen, "cannot open the virtual clock device: %s",
			         snd_strerror(ret));
		return ret;
	}
	ret = snd_pcm_open(pcm, dev, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK);
	if (ret == 0)
		return 0;
	list_devices(devices, sizeof(devices));
	if (ret == -EBUSY)
		snprintf(err, errlen,
		         "ALSA device '%s' is busy (another program is playing on it); devices "
		         "here: %s",
		         dev, devices);
	else
		snprintf(err, errlen, "cannot open ALSA device '%s': %s; devices here: %s", dev,
		         snd_strerror(ret), devices);
	return ret;
}

int vms_pcm_setup(snd_pcm_t *pcm, const char *dev, unsigned rate, double period_ms,
                  double buffer_ms, snd_pcm_uframes_t *period, snd_pcm_uframes_t *buffer,
                  int *batch, char *err, size_t errlen)
{
	snd_pcm_hw_params_t *hw = NULL;
	snd_pcm_sw_params_t *sw = NULL;
	unsigned int btime = (unsigned)(buffer_ms * 1000), ptime = (unsigned)(period_ms * 1000);
	snd_pcm_uframes_t boundary;
	double got_p, got_b;
	int dir = 0, ret;

	snd_pcm_hw_params_malloc(&hw);
	snd_pcm_sw_params_malloc(&sw);
	if (!hw || !sw) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	ret = snd_pcm_hw_params_any(pcm, hw);
	if (ret >= 0)
		ret = snd_pcm_hw_params_set_rate_resample(pcm, hw, 0);
	if (ret >= 0)
		ret = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED);
	if (ret >= 0)
		ret = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE);
	if (ret >= 0)
		ret = snd_pcm_hw_params_set_channels(pcm, hw, 2);
	if (ret >= 0)
		ret = snd_pcm_hw_params_set_rate(pcm, hw, rate, 0);
	if (ret < 0) {
		snprintf(err, errlen, "ALSA device '%s' cannot play 16-bit stereo at %u Hz: %s",
		         dev, rate, snd_strerror(ret));
		goto out;
	}
	ret = snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &btime, &dir);
	if (ret >= 0)
		ret = snd_pcm_hw_params_set_period_time_near(pcm, hw, &ptime, &dir);
	if (ret >= 0)
		ret = snd_pcm_hw_params(pcm, hw);
	if (ret < 0) {
		snprintf(
		    err, errlen,
		    "ALSA device '%s' refuses the geometry period %.0f ms / buffer %.0f ms: %s",
		    dev, period_ms, buffer_ms, snd_strerror(ret));
		goto out;
	}
	snd_pcm_hw_params_get_period_size(hw, period, &dir);
	/* a device whose position moves once per period (SNDRV_PCM_INFO_BATCH) */
	*batch = snd_pcm_hw_params_is_batch(hw) == 1;
	snd_pcm_hw_params_get_buffer_size(hw, buffer);
	got_p = (double)*period * 1000.0 / rate;
	got_b = (double)*buffer * 1000.0 / rate;
	if (got_p < period_ms / 2 || got_p > period_ms * 2 || got_b < buffer_ms / 2 ||
	    got_b > buffer_ms * 2) {
		ret = -EINVAL;
		snprintf(
		    err, errlen,
		    "ALSA device '%s' refuses the geometry period %.0f ms / buffer %.0f ms (the "
		    "nearest it grants is %.1f / %.1f ms); choose --period/--buffer near that",
		    dev, period_ms, buffer_ms, got_p, got_b);
		goto out;
	}
	snd_pcm_sw_params_current(pcm, sw);
	snd_pcm_sw_params_get_boundary(sw, &boundary);
	/* On a batch device the position reaches a full period free only at the period's end,
	 * often a frame short of it: avail_min = one period would then miss that step and wake the
	 * player a whole period late, at the next one. Half a period wakes it at the step that
	 * frees one. */
	ret = snd_pcm_sw_params_set_avail_min(pcm, sw, *batch ? *period / 2 : *period);
	if (ret >= 0)
		ret = snd_pcm_sw_params_set_start_threshold(pcm, sw, boundary);
	if (ret >= 0)
		ret = snd_pcm_sw_params_set_stop_threshold(pcm, sw, *buffer);
	if (ret >= 0)
		ret = snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE);
	if (ret >= 0)
		ret = snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC);
	if (ret >= 0)
		ret = snd_pcm_sw_params(pcm, sw);
	if (ret < 0)
		snprintf(err, errlen, "ALSA device '%s' refuses the software parameters: %s", dev,
		         snd_strerror(ret));
out:
	snd_pcm_hw_params_free(hw);
	snd_pcm_sw_params_free(sw);
	return ret < 0 ? ret : 0;
}

snd_pcm_sframes_t vms_pcm_write_size(snd_pcm_sframes_t avail, snd_pcm_uframes_t period)
{
	snd_pcm_sframes_t p = (snd_pcm_sframes_t)period;

	/* Whole periods keep the written end of the ring on the device's period boundaries, so
	 * that at each period interrupt one full period is free. Writing everything free at a late
	 * wake would leave the next interrupt short of avail_min by the lateness: no wake there,
	 * the player a whole period late (docs/audio-probe.md, Devices). Less than a period free
	 * (a batch device's frame-short step) is written as it is. */
	if (p <= 0 || avail < p)
		return avail;
	return avail - avail % p;
}

double vms_pcm_position_time(snd_pcm_t *pcm, double now, double max_age)
{
	snd_pcm_uframes_t avail;
	snd_htimestamp_t ts;
	double t;

	/* ALSA's status timestamp: when the position last moved (MONOTONIC, set up in
	 * vms_pcm_setup), on a batch device its last step. The player asks only batch devices:
	 * on another the position moved at its snd_pcm_avail(), whose time it reads itself. */
	if (snd_pcm_htimestamp(pcm, &avail, &ts) < 0)
		return now;
	t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return t <= now && t >= now - max_age ? t : now;
}
