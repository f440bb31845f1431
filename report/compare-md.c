/* The markdown renderer of the compare model: the same tables as the text one with file
 * strings escaped, and the verdict blocks and notes in fences no file string can close. No
 * kernel paths. */
#include "report/compare-render.h"

#include <stdio.h>
#include <stdlib.h>

#include "compare/compare.h"
#include "core/escape.h"
#include "report/compare-fmt.h"

/* The longest run of backticks in s. */
static size_t backtick_run(const char *s, size_t longest)
{
	size_t run = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	return longest;
}

/* The fence of the verdict blocks: longer than any backtick run in the labels and names they
 * quote, so that no file string can close it. */
static size_t md_fence_len(const struct vms_compare *c)
{
	size_t i, j, n = 2;

	for (i = 0; i < c->n_files; i++)
		n = backtick_run(c->files[i].label, n);
	for (i = 0; i < c->n_workloads; i++) {
		n = backtick_run(c->workloads[i].name, n);
		for (j = 0; j < c->workloads[i].n_metrics; j++)
			n = backtick_run(c->workloads[i].metrics[j].name, n);
	}
	return n + 1;
}

static void md_fence(FILE *f, size_t n)
{
	while (n--)
		fputc('`', f);
	fputc('\n', f);
}

/* s, text of our own (numbers, verdicts), with '|' escaped for a table cell. */
static void md_cell(FILE *f, const char *s)
{
	fputs(" ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(" |", f);
}

/* A string of a result file (or a path) as a table cell: markup and control characters
 * escaped. */
static void md_cell_str(FILE *f, const char *s)
{
	fputc(' ', f);
	vms_md_put(f, s);
	fputs(" |", f);
}

static void md_workload(const struct vms_compare *c, const struct vms_compare_workload *w, FILE *f)
{
	char buf[64];
	size_t j, k;

	fputs("## ", f);
	vms_md_put(f, w->display);
	fputs("\n\n| metric | A mean | A cv | A n |", f);
	for (k = 1; k < c->n_files; k++)
		fprintf(f, " %c mean | %c cv | %c n | %c change %% [%g%% CI] | %c p | %c verdict |",
		        vms_compare_file_letter(k), vms_compare_file_letter(k),
		        vms_compare_file_letter(k), vms_compare_file_letter(k),
		        100 * (1 - c->opts.alpha), vms_compare_file_letter(k),
		        vms_compare_file_letter(k));
	fprintf(f, "\n|---|---:|---:|---:|");
	for (k = 1; k < c->n_files; k++)
		fprintf(f, "---:|---:|---:|---|---:|---|");
	fputc('\n', f);
	for (j = 0; w->n_metrics && j < 2 * w->n_metrics; j++) {
		/* the system metrics first, then the sound ones, as in the text table */
		const struct vms_compare_metric *m = &w->metrics[j % w->n_metrics];

		if (m->audio != (j >= w->n_metrics))
			continue;
		fprintf(f, "| %s", m->audio ? "sound: " : "");
		vms_md_put(f, m->name);
		fprintf(f, "%s |", m->primary ? " (primary)" : "");
		md_cell(f, vms_compare_fmt_num(m->base.s.mean, buf, sizeof(buf)));
		md_cell(f, vms_compare_fmt_spread(m, &m->base, buf, sizeof(buf)));
		md_cell(f, vms_compare_fmt_n(&m->base, buf, sizeof(buf)));
		for (k = 0; k + 1 < c->n_files; k++) {
			const struct vms_compare_cell *cell = &m->cells[k];

			md_cell(f, vms_compare_fmt_num(cell->side.s.mean, buf, sizeof(buf)));
			md_cell(f, vms_compare_fmt_spread(m, &cell->side, buf, sizeof(buf)));
			md_cell(f, vms_compare_fmt_n(&cell->side, buf, sizeof(buf)));
			md_cell(f, vms_compare_fmt_change(cell, buf, sizeof(buf)));
			md_cell(f, vms_compare_fmt_p(vms_compare_cell_p(cell), buf, sizeof(buf)));
			md_cell(f,
			        vms_compare_fmt_verdict(cell, c->opts.detect, 0, buf, sizeof(buf)));
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void md_baselines(const struct vms_compare *c, FILE *f)
{
	size_t k, any = 0;

	for (k = 0; k < c->n_files; k++)
		any += c->files[k].has_baseline;
	if (!any)
		return;
	fprintf(f, "## Idle audio baseline\n\nOne window per file, no statistics.\n\n```\n");
	for (k = 0; k < c->n_files; k++) {
		fprintf(f, "%c ", vms_compare_file_letter(k));
		vms_compare_baseline_put(&c->files[k], f);
		fputc('\n', f);
	}
	fprintf(f, "```\n\n");
	for (k = 0; k < c->n_files; k++)
		if (c->files[k].baseline_skipped)
			fprintf(
			    f,
			    "**%c skipped with no workload running**: its sound figures measure a "
			    "noisy machine or device, not only the kernel's VM.\n\n",
			    vms_compare_file_letter(k));
}

int vms_compare_render_markdown(const struct vms_compare *c, FILE *f)
{
	size_t i, k, fence = md_fence_len(c);

	fprintf(f, "# vmsuite compare\n\n| | label | file |\n|---|---|---|\n");
	for (k = 0; k < c->n_files; k++) {
		fprintf(f, "| %c%s |", vms_compare_file_letter(k), k ? "" : " (BASE)");
		md_cell_str(f, c->files[k].label);
		md_cell_str(f, c->files[k].path);
		fputc('\n', f);
	}
	fprintf(f,
	        "\nalpha %g (%g%% CI), threshold \u00b1%g%%, detect %g%%, unstable above log-sd "
	        "%g%%\n\n",
	        c->opts.alpha, 100 * (1 - c->opts.alpha), 100 * c->opts.threshold,
	        100 * c->opts.detect, 100 * c->opts.cv_limit);
	for (k = 0; k + 1 < c->n_files; k++) {
		const struct vms_envdiff *d = &c->env[k];

		fprintf(f, "## Environment: %c vs A\n\n", vms_compare_file_letter(k + 1));
		if (!d->n) {
			fprintf(f, "No differences.\n\n");
			continue;
		}
		fprintf(f, "| class | fact | A | %c |\n|---|---|---|---|\n",
		        vms_compare_file_letter(k + 1));
		for (i = 0; i < d->n; i++) {
			fputc('|', f);
			md_cell(f, vms_env_class_name(d->items[i].cls));
			md_cell_str(f, d->items[i].key);
			md_cell_str(f, d->items[i].base);
			md_cell_str(f, d->items[i].other);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	md_baselines(c, f);
	for (i = 0; i < c->n_workloads; i++)
		md_workload(c, &c->workloads[i], f);
	if (c->n_not_compared) {
		fprintf(f, "## Not compared\n\n");
		for (i = 0; i < c->n_not_compared; i++) {
			fputs("- ", f);
			vms_md_put(f, c->not_compared[i]);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	{
		char *busy = NULL;
		size_t blen = 0;
		FILE *m = open_memstream(&busy, &blen);

		if (m) {
			vms_compare_busy_note(c, m, "");
			fclose(m);
			if (blen) {
				fprintf(f, "## Other processes\n\n");
				md_fence(f, fence);
				fputs(busy, f);
				md_fence(f, fence);
				fputc('\n', f);
			}
			free(busy);
		}
	}
	fprintf(f, "## Verdict\n\n");
	for (k = 0; k + 1 < c->n_files; k++) {
		md_fence(f, fence);
		vms_compare_text_verdict(c, k, f);
		md_fence(f, fence);
		fputc('\n', f);
	}
	fprintf(f, "## Tests\n\n");
	md_fence(f, fence);
	vms_compare_tests_note(c, f, "");
	vms_compare_drift_note(c, f, "");
	md_fence(f, fence);
	fprintf(f,
	        "\nchange: of each file against A by the test named above; p: the p the verdict "
	        "used; count rows: runs with an event; n\u2248N: runs per side to detect a "
	        "%g%% change; *: a soft environment difference could explain the verdict.\n",
	        100 * c->opts.detect);
	return vms_compare_finish(f);
}
