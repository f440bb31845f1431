/* What both HTML pages share (the run report of report/html.c and the compare view of
 * report/compare-html.c): the page head with its inline stylesheet and the SVG hatch patterns
 * (the gap causes' from the cause table, core/metric.c), and the page end. No kernel paths. */
#include "report/html-common.h"

#include "core/metric.h"
#include "report/svg.h"

/* The stylesheet up to the gap causes' rules. */
static const char css_head[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
    "color:#111;background:#fff;max-width:1000px;margin:1.5em auto;padding:0 1em}\n"
    "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.25em;margin:1.6em 0 .4em;"
    "border-bottom:2px solid #333}h3{font-size:1.05em;margin:1.2em 0 .3em}\n"
    ".meta{color:#333}.note{color:#6b3d00;background:#fff6e0;border-left:4px solid #c08000;"
    "padding:.3em .6em;margin:.4em 0}\n"
    "ul.missing{background:#fff6e0;border-left:4px solid #c08000;padding:.4em .6em .4em 2em}\n"
    "table.t2001{border-collapse:collapse;margin:.4em 0}"
    "table.t2001 caption{text-align:left;font-weight:600;padding:.2em 0}"
    "table.t2001 th{text-align:left;font-weight:normal;padding:.1em 1.2em .1em 0}"
    "table.t2001 td{text-align:right;font-variant-numeric:tabular-nums;"
    "font-family:ui-monospace,'DejaVu Sans Mono',monospace}"
    "table.t2001 tr:nth-child(odd){background:#f3f3f3}\n"
    "p.line{margin:.15em 0;font-family:ui-monospace,'DejaVu Sans Mono',monospace;"
    "font-size:13px}\n"
    "pre.sound{background:#eef3fa;border-left:4px solid #1b4f9c;padding:.4em .6em;"
    "white-space:pre-wrap;margin:.5em 0}\n"
    "svg.chart{display:block;width:100%;height:auto;margin:.3em 0 1em}\n"
    ".frame{fill:none;stroke:#444;stroke-width:1}.grid{stroke:#ddd;stroke-width:1}"
    ".tick{font-size:11px;fill:#333}.axis{font-size:12px;fill:#111}"
    ".ptitle{font-size:12px;font-weight:600;fill:#111}.pnote{font-size:11px;fill:#6b3d00}"
    ".legend{font-size:11px;fill:#222}\n"
    ".s0,.s1,.s2{fill:none;stroke-width:1.5;stroke-linejoin:round}"
    ".s0{stroke:#1b4f9c}.s1{stroke:#d0580f;stroke-dasharray:6 3}"
    ".s2{stroke:#2a7d2a;stroke-dasharray:1.5 2.5}\n"
    ".bar0{fill:#1b4f9c;stroke:#0d2a55}.bar1{fill:url(#pat-base);stroke:#555}\n"
    /* then the bands of the gap causes (cause_css) */
    ;

static const char css_tail[] =
    "section.run{break-inside:avoid}\n"
    ".pt{stroke:#111;stroke-width:.8}.pt0{fill:#1b4f9c}.pt1{fill:#f2a65a}.pt2{fill:#2a7d2a}"
    ".pt3{fill:#fff}.mean{stroke:#111;stroke-width:2.5}.ci{stroke:#111;stroke-width:2}"
    ".zero{stroke:#555;stroke-width:1}.thr{fill:#e6e6e6}\n"
    ".v-reg,.v-preg{font-size:11px;fill:#b3261e;font-weight:600}"
    ".v-imp,.v-pimp{font-size:11px;fill:#1e6b1e;font-weight:600}.v-none{font-size:11px;fill:#333}"
    ".v-preg,.v-pimp{font-style:italic;font-weight:normal}\n"
    "table.env,table.files{border-collapse:collapse;margin:.3em 0;font-size:13px}"
    "table.env td,table.env th,table.files td,table.files th{padding:.15em .6em;"
    "text-align:left;border-bottom:1px solid #ddd}"
    "tr.env-hard td{background:#fde2df;font-weight:600}tr.env-soft td{background:#fff3d6}"
    "tr.env-expected td{color:#555}\n"
    "pre.cmptext{font-size:12px;background:#f6f6f6;padding:.5em;overflow-x:auto}\n"
    "@media print{body{max-width:none;margin:0;font-size:11px}svg.chart{break-inside:avoid}"
    "h2{break-after:avoid}}\n";

/* The rules of the gap causes' bands: outline colour and hatch (core/metric.c). */
static void cause_css(FILE *out)
{
	size_t i;

	fputs(".gap{stroke-width:.6}", out);
	for (i = 0; i < VMS_CAUSE_NR; i++) {
		const struct vms_cause_def *c = &vms_cause_defs[i];

		fprintf(out, ".gap-%s{fill:url(#pat-%s);stroke:%s}", c->name,
		        c->pattern ? c->name : vms_cause_name(VMS_CAUSE_UNEXPLAINED), c->stroke);
	}
	fputc('\n', out);
}

/* The hidden SVG with the hatch patterns: one per gap cause, and the baseline bars'. */
static void defs(FILE *out)
{
	size_t i;

	fputs("<svg class=\"defs\" width=\"0\" height=\"0\" style=\"position:absolute\" "
	      "aria-hidden=\"true\"><defs>\n",
	      out);
	for (i = 0; i < VMS_CAUSE_NR; i++)
		if (vms_cause_defs[i].pattern)
			fprintf(out, "<pattern id=\"pat-%s\" %s</pattern>\n",
			        vms_cause_defs[i].name, vms_cause_defs[i].pattern);
	fputs("<pattern id=\"pat-base\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
	      "patternTransform=\"rotate(-45)\"><rect width=\"5\" height=\"5\" fill=\"#fff\"/>"
	      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" stroke=\"#555\" stroke-width=\"1.5\"/>"
	      "</pattern>\n"
	      "</defs></svg>\n",
	      out);
}

void vms_html_page_begin(FILE *out, const char *what, const char *label, const char *version)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"vmsuite ",
	      out);
	vms_xml_escape(out, version);
	fprintf(out, "\">\n<title>%s \u2014 ", what);
	vms_xml_escape(out, label);
	fprintf(out, "</title>\n<style>\n%s", css_head);
	cause_css(out);
	fprintf(out, "%s</style>\n</head>\n<body>\n", css_tail);
	defs(out);
}

void vms_html_page_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}
