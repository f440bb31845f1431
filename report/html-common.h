/* What both HTML pages share (the run report and the compare view): one inline stylesheet and
 * the SVG hatch patterns in the page head, the page end, the width of a chart. Escaping is
 * vms_xml_escape() of report/svg.h. No kernel paths. */
#ifndef VMS_REPORT_HTML_COMMON_H
#define VMS_REPORT_HTML_COMMON_H

#include <stdio.h>

/* The width of every chart's viewBox, in SVG user units. */
#define VMS_HTML_CHART_W 960.0

/* Writes the doctype, the head (title "WHAT — LABEL", generator "vmsuite VERSION", the inline
 * stylesheet), the opening <body> and the hidden SVG with the hatch patterns the charts fill
 * gaps with. label and version are escaped; what is written as is. Write errors show up in
 * ferror(out). */
void vms_html_page_begin(FILE *out, const char *what, const char *label, const char *version);
/* Closes the body and the page. */
void vms_html_page_end(FILE *out);

#endif
