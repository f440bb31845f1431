/* What both HTML pages share (the run report of report/html.c and the compare view of
 * report/compare-html.c): the page head with its inline stylesheet and the SVG hatch patterns,
 * and the page end. No kernel paths. */
#include "report/html-common.h"

#include "report/svg.h"

static const char css[] =
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
    ".gap{stroke-width:.6}.gap-paging{fill:url(#pat-paging);stroke:#b3261e}"
    ".gap-runqueue{fill:url(#pat-runqueue);stroke:#6a3d9a}"
    ".gap-io{fill:url(#pat-io);stroke:#8c510a}.gap-decode{fill:url(#pat-decode);stroke:#01665e}"
    ".gap-swapin{fill:url(#pat-swapin);stroke:#c51b7d}.gap-reclaim{fill:url(#pat-reclaim);"
    "stroke:#d6604d}.gap-thrashing{fill:url(#pat-thrashing);stroke:#7a7a00}"
    ".gap-compaction{fill:url(#pat-compaction);stroke:#35978f}"
    ".gap-unexplained,.gap-probe_died{fill:url(#pat-unexplained);stroke:#555}\n"
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

/* Hatches differ in shape as well as colour, so causes stay apart in greyscale. */
static const char defs[] =
    "<svg class=\"defs\" width=\"0\" height=\"0\" style=\"position:absolute\" "
    "aria-hidden=\"true\"><defs>\n"
    "<pattern id=\"pat-paging\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f4c7c3\" "
    "fill-opacity=\".55\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#b3261e\" "
    "stroke-width=\"2.5\"/></pattern>\n"
    "<pattern id=\"pat-runqueue\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"6\" height=\"6\" fill=\"#dcd0ec\" fill-opacity=\".55\"/><path d=\"M0 3H6M3 "
    "0V6\" stroke=\"#6a3d9a\" stroke-width=\"1\"/></pattern>\n"
    "<pattern id=\"pat-io\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"5\" height=\"5\" fill=\"#f0dcb8\" fill-opacity=\".55\"/><circle cx=\"2.5\" "
    "cy=\"2.5\" r=\"1.2\" fill=\"#8c510a\"/></pattern>\n"
    "<pattern id=\"pat-decode\" width=\"6\" height=\"4\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"6\" height=\"4\" fill=\"#c7eae5\" fill-opacity=\".55\"/><line x1=\"0\" "
    "y1=\"2\" x2=\"6\" y2=\"2\" stroke=\"#01665e\" stroke-width=\"1.2\"/></pattern>\n"
    "<pattern id=\"pat-swapin\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(-45)\"><rect width=\"6\" height=\"6\" fill=\"#f7c6df\" "
    "fill-opacity=\".55\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#c51b7d\" "
    "stroke-width=\"2\"/></pattern>\n"
    "<pattern id=\"pat-reclaim\" width=\"7\" height=\"7\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"7\" height=\"7\" fill=\"#f9d2c4\" fill-opacity=\".55\"/><path d=\"M0 7L3.5 "
    "0L7 7\" fill=\"none\" stroke=\"#d6604d\" stroke-width=\"1.2\"/></pattern>\n"
    "<pattern id=\"pat-thrashing\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"6\" height=\"6\" fill=\"#ecebb0\" fill-opacity=\".55\"/><path d=\"M0 0L6 "
    "6M6 0L0 6\" stroke=\"#7a7a00\" stroke-width=\"1\"/></pattern>\n"
    "<pattern id=\"pat-compaction\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"6\" height=\"6\" fill=\"#cdeae7\" fill-opacity=\".55\"/><rect x=\"1.5\" "
    "y=\"1.5\" width=\"3\" height=\"3\" fill=\"#35978f\"/></pattern>\n"
    "<pattern id=\"pat-unexplained\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\">"
    "<rect width=\"4\" height=\"4\" fill=\"#bbb\" fill-opacity=\".6\"/></pattern>\n"
    "<pattern id=\"pat-base\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(-45)\"><rect width=\"5\" height=\"5\" fill=\"#fff\"/>"
    "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" stroke=\"#555\" stroke-width=\"1.5\"/>"
    "</pattern>\n"
    "</defs></svg>\n";

void vms_html_page_begin(FILE *out, const char *what, const char *label, const char *version)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"vmsuite ",
	      out);
	vms_xml_escape(out, version);
	fprintf(out, "\">\n<title>%s \u2014 ", what);
	vms_xml_escape(out, label);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n%s", css, defs);
}

void vms_html_page_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}
