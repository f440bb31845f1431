/* The text report: per workload the block the 2001 tester posted to LKML (same labels, same
 * order, same precision), followed by what it lacked — the spread of the runs and the reclaim
 * and pressure figures that explain it. */
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"
#include "report/sound.h"

int vms_summary_of(const json_t *metrics, const char *name, struct vms_summary *s)
{
	size_t n;
	double *v = vms_metric_values(metrics, name, &n);

	memset(s, 0, sizeof(*s));
	if (!v || !n) {
		free(v);
		return -ENOENT;
	}
	vms_summarize(v, n, s);
	if (!isfinite(s->sd))
		s->sd = 0;
	if (!isfinite(s->cv))
		s->cv = 0;
	free(v);
	return 0;
}

static double mean_of(const json_t *metrics, const char *name)
{
	struct vms_summary s;

	return vms_summary_of(metrics, name, &s) ? 0 : s.mean;
}

static const char *str(const json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* "Machine: hron2001 — memory cgroup v1, 512 MiB RAM, no swap (1 GiB requested; ...)" */
static void machine_line(FILE *out, const json_t *machine)
{
	char mem[32], swap[32];

	if (!json_is_number(json_object_get(machine, "mem_limit_bytes"))) {
		fprintf(out, "Machine: %s — no memory limit\n", str(machine, "profile", "host"));
		return;
	}
	vms_format_size((uint64_t)num(machine, "mem_limit_bytes"), mem, sizeof(mem));
	vms_format_size((uint64_t)num(machine, "effective_swap_bytes"), swap, sizeof(swap));
	fprintf(out, "Machine: %s — memory cgroup v%d, %s RAM, %s swap",
	        str(machine, "profile", "?"),
	        (int)json_integer_value(json_object_get(machine, "cgroup_version")), mem,
	        num(machine, "effective_swap_bytes") > 0 ? swap : "no");
	if (json_is_integer(json_object_get(machine, "cpus")))
		fprintf(out, ", %d CPU(s)",
		        (int)json_integer_value(json_object_get(machine, "cpus")));
	fputc('\n', out);
	if (str(machine, "note", NULL) && *str(machine, "note", ""))
		fprintf(out, "Note: %s\n", str(machine, "note", ""));
}

static void header(FILE *out, const json_t *doc)
{
	const json_t *machine = json_object_get(json_object_get(doc, "protocol"), "machine");
	const json_t *tool = json_object_get(doc, "tool");

	fprintf(out, "vmsuite %s — %s — started %s — machine %s%s\n", str(tool, "version", "?"),
	        str(doc, "label", "?"), str(doc, "start_time", "?"), str(machine, "profile", "?"),
	        json_is_true(json_object_get(doc, "complete")) ? ""
	                                                       : " — INCOMPLETE (interrupted)");
	if (json_object_get(machine, "mem_limit_bytes"))
		machine_line(out, machine);
}

static void failed_runs(FILE *out, const json_t *runs)
{
	const json_t *run;
	size_t i, failed = 0;

	json_array_foreach (runs, i, run)
		if (strcmp(str(run, "status", "ok"), "ok"))
			failed++;
	if (!failed)
		return;
	fprintf(out, "Failed runs: %zu of %zu\n", failed, json_array_size(runs));
	json_array_foreach (runs, i, run)
		if (strcmp(str(run, "status", "ok"), "ok"))
			fprintf(out, "  run %zu: %s — %s\n", i + 1, str(run, "status", "?"),
			        str(run, "reason", "no reason recorded"));
}

static void block(FILE *out, const json_t *wl)
{
	const json_t *m = json_object_get(wl, "metrics");
	const char *name = str(wl, "name", "?");
	struct vms_summary el;

	fprintf(out, "%s\n\n", name);
	if (vms_summary_of(m, "elapsed_s", &el)) {
		fprintf(out, "No successful %s runs.\n", name);
		failed_runs(out, json_object_get(wl, "runs"));
		return;
	}
	/* the 2001 post wrote "Average for 5 mmap001 runs" but "Averages for 10 mtest01 runs" */
	fprintf(out, "%s for %zu %s runs\n", strcmp(name, "mtest01") ? "Average" : "Averages", el.n,
	        name);
	fprintf(out, "bytes allocated: %.0f\n", mean_of(m, "bytes_allocated"));
	fprintf(out, "User time (seconds): %.3f\n", mean_of(m, "user_s"));
	fprintf(out, "System time (seconds): %.3f\n", mean_of(m, "sys_s"));
	fprintf(out, "Elapsed (wall clock seconds) time: %.2f\n", el.mean);
	fprintf(out, "Percent of CPU this job got: %.2f\n", mean_of(m, "cpu_pct"));
	fprintf(out, "Major (requiring I/O) page faults: %.1f\n", mean_of(m, "major_faults"));
	fprintf(out, "Minor (reclaiming a frame) faults: %.1f\n", mean_of(m, "minor_faults"));
	fprintf(out, "Elapsed low/high: %.2f / %.2f   (sd %.2f, cv %.1f%%)\n", el.min, el.max,
	        el.sd, el.cv * 100);
	vms_report_sound_text(out, wl);
	fprintf(
	    out,
	    "System-wide reclaim per run: scanned %.0f, stolen %.0f pages; swap in/out %.0f / %.0f "
	    "pages; allocstalls %.0f; refaults %.0f\n",
	    mean_of(m, "pgscan"), mean_of(m, "pgsteal"), mean_of(m, "pswpin"),
	    mean_of(m, "pswpout"), mean_of(m, "allocstall"), mean_of(m, "workingset_refault"));
	if (json_object_get(m, "psi_memory_some_ms"))
		fprintf(out,
		        "Pressure per run: memory some %.2f s (full %.2f s), io some %.2f s "
		        "(full %.2f s)\n",
		        mean_of(m, "psi_memory_some_ms") / 1000,
		        mean_of(m, "psi_memory_full_ms") / 1000,
		        mean_of(m, "psi_io_some_ms") / 1000, mean_of(m, "psi_io_full_ms") / 1000);
	if (json_object_get(m, "cgroup_peak_bytes")) {
		char peak[32];

		fprintf(
		    out, "Memory cgroup per run: peak %s, limit hits %.0f, OOM kills %.1f\n",
		    vms_format_size((uint64_t)mean_of(m, "cgroup_peak_bytes"), peak, sizeof(peak)),
		    mean_of(m, "cgroup_limit_hits"), mean_of(m, "cgroup_oom_kill"));
	}
	failed_runs(out, json_object_get(wl, "runs"));
}

int vms_report_text(FILE *out, const json_t *doc)
{
	const json_t *wl;
	size_t i;

	header(out, doc);
	if (json_is_object(json_object_get(doc, "audio")))
		vms_report_sound_baseline(out, json_object_get(doc, "audio"));
	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		fputc('\n', out);
		block(out, wl);
	}
	return 0;
}

json_t *vms_report_summary_json(const json_t *doc)
{
	json_t *out = json_object(), *wls = json_array();
	const json_t *wl;
	size_t i;

	json_object_set_new(out, "format", json_string("vmsuite.summary/1"));
	json_object_set(out, "label", json_object_get(doc, "label"));
	json_object_set(out, "start_time", json_object_get(doc, "start_time"));
	json_object_set(out, "complete", json_object_get(doc, "complete"));
	json_object_set(out, "machine",
	                json_object_get(json_object_get(doc, "protocol"), "machine"));
	json_array_foreach (json_object_get(doc, "workloads"), i, wl) {
		const json_t *m = json_object_get(wl, "metrics"), *def;
		json_t *ms = json_object();
		const char *name;

		json_object_foreach ((json_t *)m, name, def) {
			struct vms_summary s;

			if (vms_summary_of(m, name, &s))
				continue;
			json_object_set_new(ms, name,
			                    json_pack("{s:O, s:O, s:I, s:f, s:f, s:f, s:f, s:f}",
			                              "unit", json_object_get(def, "unit"),
			                              "better", json_object_get(def, "better"), "n",
			                              (json_int_t)s.n, "mean", s.mean, "sd", s.sd,
			                              "cv", s.cv, "min", s.min, "max", s.max));
		}
		json_array_append_new(
		    wls, json_pack("{s:O, s:O, s:I, s:o}", "name", json_object_get(wl, "name"),
		                   "options", json_object_get(wl, "options"), "runs",
		                   (json_int_t)json_array_size(json_object_get(wl, "runs")),
		                   "metrics", ms));
	}
	json_object_set_new(out, "workloads", wls);
	return out;
}
