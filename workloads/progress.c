/* Progress lines of a suite (workloads/progress.h): where the suite is, how long it may still
 * take. No kernel paths; the clock is the caller's. */
#include "workloads/progress.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void vms_progress_init(struct vms_progress *p, enum vms_progress_mode mode, FILE *out,
                       size_t n_items, size_t n_variants, const long *planned, int at_most,
                       const char *note)
{
	memset(p, 0, sizeof(*p));
	p->mode = mode;
	p->out = out;
	p->n_items = n_items;
	p->n_variants = n_variants ? n_variants : 1;
	p->planned = planned;
	p->at_most = at_most;
	p->note = note;
	p->item_s = vms_xcalloc(n_items + 1, sizeof(*p->item_s));
	p->item_done = vms_xcalloc(n_items + 1, sizeof(*p->item_done));
	p->item_skipped = vms_xcalloc(n_items + 1, sizeof(*p->item_skipped));
}

void vms_progress_release(struct vms_progress *p)
{
	free(p->item_s);
	free(p->item_done);
	free(p->item_skipped);
	p->item_s = NULL;
	p->item_done = NULL;
	p->item_skipped = NULL;
}

void vms_progress_line(struct vms_progress *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->mode)
		return;
	vms_progress_clear(p);
	fputs("vmsuite: ", p->out);
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
	fputc('\n', p->out);
	fflush(p->out);
}

/* Runs finished so far in the whole suite. */
static long finished(const struct vms_progress *p)
{
	long n = 0;
	size_t i;

	for (i = 0; i < p->n_items; i++)
		n += p->item_done[i];
	return n;
}

/* Runs item i is to have in all (every variant). */
static long item_total(const struct vms_progress *p, size_t i)
{
	long planned = p->planned ? p->planned[i] * (long)p->n_variants : 0;

	return p->item_skipped[i] || planned < p->item_done[i] ? p->item_done[i] : planned;
}

long vms_progress_total(const struct vms_progress *p)
{
	long n = 0;
	size_t i;

	for (i = 0; i < p->n_items; i++)
		n += item_total(p, i);
	return n;
}

double vms_progress_left(const struct vms_progress *p, double now)
{
	double all_s = 0, left = 0;
	long all_n = 0;
	size_t i;

	for (i = 0; i < p->n_items; i++) {
		all_s += p->item_s[i];
		all_n += p->item_done[i];
	}
	if (!all_n)
		return -1;
	for (i = 0; i < p->n_items; i++) {
		double mean = p->item_done[i] ? p->item_s[i] / (double)p->item_done[i]
		                              : all_s / (double)all_n;
		long to_start =
		    item_total(p, i) - p->item_done[i] - (p->running && p->item == i ? 1 : 0);

		if (to_start > 0)
			left += (double)to_start * mean;
		if (p->running && p->item == i && mean > now - p->t_start)
			left += mean - (now - p->t_start);
	}
	return left;
}

void vms_progress_header(struct vms_progress *p, const char *const *names)
{
	char list[512], each[64] = "";
	size_t i, n = 0;

	list[0] = '\0';
	for (i = 0; i < p->n_items && n < sizeof(list); i++)
		if (p->at_most)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
			                      names[i]);
		else
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s x %ld",
			                      i ? ", " : "", names[i], p->planned[i]);
	if (p->n_variants > 1)
		snprintf(each, sizeof(each), ", under each of %zu variants", p->n_variants);
	if (p->at_most)
		vms_progress_line(p, "suite in rounds of runs until decided (-n auto): %s%s", list,
		                  each);
	else
		vms_progress_line(p, "suite of %ld runs: %s%s", vms_progress_total(p), list, each);
}

/* "4.2 s" under a minute, "4:05" from a minute, "1:02:03" from an hour. */
static const char *clock_text(char *buf, size_t len, double s)
{
	long t = (long)(s + 0.5);

	if (s < 59.95)
		snprintf(buf, len, "%.1f s", s);
	else if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
	return buf;
}

void vms_progress_start(struct vms_progress *p, size_t item, const char *name, const char *variant,
                        long index, long runs, double now)
{
	if (!p->mode)
		return;
	p->item = item < p->n_items ? item : 0;
	p->started++;
	p->running = 1;
	p->t_start = now;
	p->last_draw = now - 1; /* the first tick draws: short runs get a live line too */
	snprintf(p->what, sizeof(p->what), "[%ld/%s%ld] %s%s%s%s run %ld/%s%ld", p->started,
	         p->at_most ? "<=" : "", vms_progress_total(p), name, variant ? " [" : "",
	         variant ? variant : "", variant ? "]" : "", index + 1, p->at_most ? "<=" : "",
	         runs);
}

void vms_progress_tick(struct vms_progress *p, double elapsed, long underruns, double now)
{
	char clock[32];
	double left;

	if (p->mode != VMS_PROGRESS_TTY || !p->running || now - p->last_draw < 0.5)
		return;
	p->last_draw = now;
	fprintf(p->out, "\r\033[Kvmsuite: %s%s%s  %.1f s", p->what, p->note ? "  " : "",
	        p->note ? p->note : "", elapsed);
	left = vms_progress_left(p, now);
	if (!p->at_most && left >= 0)
		fprintf(p->out, "  about %s left", clock_text(clock, sizeof(clock), left));
	if (underruns >= 0)
		fprintf(p->out, "  underruns so far: %ld", underruns);
	fflush(p->out);
	p->drawn = 1;
}

void vms_progress_clear(struct vms_progress *p)
{
	if (!p->drawn)
		return;
	fputs("\r\033[K", p->out);
	fflush(p->out);
	p->drawn = 0;
}

void vms_progress_end(struct vms_progress *p, const char *status, int disturbed, double elapsed,
                      double now)
{
	char clock[32], took[64] = "";
	double left;

	if (!p->mode || !p->running)
		return;
	p->running = 0;
	p->item_done[p->item]++;
	p->item_s[p->item] += now - p->t_start;
	if (elapsed >= 0)
		snprintf(took, sizeof(took), " in %.2f s", elapsed);
	left = vms_progress_left(p, now);
	vms_progress_clear(p);
	fprintf(p->out, "vmsuite: %s: %s%s%s", p->what, status, disturbed ? " (disturbed)" : "",
	        took);
	if (p->note && p->note[0])
		fprintf(p->out, ", %s", p->note);
	else if (left >= 0 && finished(p) < vms_progress_total(p))
		fprintf(p->out, ", about %s left", clock_text(clock, sizeof(clock), left));
	fputc('\n', p->out);
	fflush(p->out);
}

void vms_progress_cancel(struct vms_progress *p)
{
	if (!p->mode || !p->running)
		return;
	p->running = 0;
	p->started--;
	vms_progress_clear(p);
}

void vms_progress_skip(struct vms_progress *p, size_t item)
{
	if (item < p->n_items)
		p->item_skipped[item] = 1;
}
