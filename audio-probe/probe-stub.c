/* Placeholder for the audio probe until its issue lands: every start fails clearly. */
#include "audio-probe/probe.h"

#include "core/util.h"

int vms_probe_start(const struct vms_probe_opts *o, struct vms_probe **out)
{
	(void)o;
	*out = NULL;
	return vms_error("the audio probe is not available in this build yet");
}

long vms_probe_underruns(const struct vms_probe *p)
{
	(void)p;
	return 0;
}

int vms_probe_alive(const struct vms_probe *p)
{
	(void)p;
	return 0;
}

int vms_probe_stop(struct vms_probe *p)
{
	(void)p;
	return -1;
}

json_t *vms_probe_window(struct vms_probe *p, double t0, double t1, json_t *metrics, size_t run)
{
	(void)p, (void)t0, (void)t1, (void)metrics, (void)run;
	return json_object();
}

json_t *vms_probe_facts(const struct vms_probe *p)
{
	(void)p;
	return json_object();
}

void vms_probe_free(struct vms_probe *p)
{
	(void)p;
}
