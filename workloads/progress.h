/* Progress of a suite for the person or the log watching it, on stderr: a header at the start,
 * a line per finished run (position in the whole suite, status, elapsed time, time left) and,
 * on a terminal, a live line rewritten while a run goes on. No kernel paths. */
#ifndef VMS_PROGRESS_H
#define VMS_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

enum vms_progress_mode {
	VMS_PROGRESS_OFF = 0, /* nothing (`run -q`) */
	VMS_PROGRESS_TTY,     /* a terminal: the live line (\r rewritten), and the lines below */
	VMS_PROGRESS_LINES,   /* a pipe or a file: the header and a line per finished run, each
	                       * flushed, nothing rewritten */
};

struct vms_progress {
	enum vms_progress_mode mode;
	FILE *out;
	size_t n_items, n_variants;
	/* Runs planned per item and variant (read at every line: an adaptive look changes it);
	 * with at_most they are upper bounds ("run 4/<=12"). */
	const long *planned;
	int at_most;
	const char *note;  /* appended to the position ("budget 12:30 left"), or NULL */
	double *item_s;    /* wall seconds of item i's finished runs */
	long *item_done;   /* item i's finished runs, every variant */
	int *item_skipped; /* item i will not run again */
	long started;      /* runs started in the whole suite */
	size_t item;       /* the run going on: its item, start and name */
	double t_start, last_draw;
	int running; /* between vms_progress_start() and _end() or _cancel() */
	int drawn;   /* the live line is on the terminal */
	char what[160];
};

/* Prepares p for n_items items of n_variants variants (0 counts as 1), planned[i] runs each
 * (borrowed; read at every line). Allocates (aborts on OOM); never fails. Mode OFF makes every
 * other call do nothing. */
void vms_progress_init(struct vms_progress *p, enum vms_progress_mode mode, FILE *out,
                       size_t n_items, size_t n_variants, const long *planned, int at_most,
                       const char *note);
void vms_progress_release(struct vms_progress *p);

/* Prints "vmsuite: <message>" as a line of its own and flushes it. */
void vms_progress_line(struct vms_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The header: the suite's items (names[i] of item i) and how many runs it is to make. */
void vms_progress_header(struct vms_progress *p, const char *const *names);

/* A run of item `item` starts at `now` (monotonic seconds): run `index` (0-based) of `runs`,
 * of the variant labelled `variant` (NULL when there is only one). */
void vms_progress_start(struct vms_progress *p, size_t item, const char *name, const char *variant,
                        long index, long runs, double now);
/* The run is going on (elapsed seconds of its workload): on a terminal, draws the live line at
 * the first tick of a run, then at most twice a second. underruns < 0: no audio. */
void vms_progress_tick(struct vms_progress *p, double elapsed, long underruns, double now);
/* Clears the live line (before other output or at the end of the run). */
void vms_progress_clear(struct vms_progress *p);
/* The run ended at `now`: its status ("ok", "failed", "interrupted"), whether it was marked
 * disturbed, and its workload's elapsed seconds (< 0: it never started); prints its line. */
void vms_progress_end(struct vms_progress *p, const char *status, int disturbed, double elapsed,
                      double now);
/* The run that vms_progress_start() announced did not start after all: no line. */
void vms_progress_cancel(struct vms_progress *p);
/* Item `item` will not run (more): its planned runs leave the total. */
void vms_progress_skip(struct vms_progress *p, size_t item);

/* Runs in the whole suite: planned, or done for a skipped item. */
long vms_progress_total(const struct vms_progress *p);
/* Estimated seconds left at `now`, from the mean wall time of each item's finished runs (of
 * every finished run for an item that has none yet): the runs not yet started, plus what the
 * run going on should still take. -1 when nothing has finished yet. */
double vms_progress_left(const struct vms_progress *p, double now);

#endif
