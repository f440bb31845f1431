/* Showing strings that come from files (a result file, /proc, a path the user gave) as text:
 * for a terminal or a text file, for markdown and for HTML, so that no string can drive a
 * terminal, forge a line of a report or become markup. No kernel paths. */
#ifndef VMS_ESCAPE_H
#define VMS_ESCAPE_H

#include <stdio.h>

/* Writes s to f with what would not read as text shown in a visible notation: bytes below 0x20
 * (the newline and the tab included) and DEL as \xNN, each byte that is not part of valid
 * UTF-8 as \xNN, the C1 controls (U+0080 to U+009F), the line and paragraph separators and the
 * bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
 * U+2069) as \uNNNN. Everything else, the backslash included, is written as it is, so a
 * string without such characters comes out unchanged. s NULL writes nothing. Never fails;
 * write errors show up in ferror(f). */
void vms_text_put(FILE *f, const char *s);
/* As vms_text_put, for markdown: also puts a backslash before each character markdown could
 * read as markup or an entity (\ ` * [ ] < > | # & ! ~, and _ unless it stands between two
 * letters or digits), so s renders as the same text. */
void vms_md_put(FILE *f, const char *s);
/* As vms_text_put, for HTML and XML text and attribute values: also writes & < > " ' as
 * entities. */
void vms_xml_put(FILE *f, const char *s);

/* What vms_text_put writes, as a new string (free it); "" for NULL. Never fails (aborts on
 * out-of-memory). */
char *vms_text_escape(const char *s);

/* A test name made of a workload name and a variant label, for machines that take only
 * [A-Za-z0-9_-] (LAVA test case names, KCIDB test path components): every byte of each part
 * outside [A-Za-z0-9-] becomes '_' and two lowercase hex digits ("page-cluster=0" ->
 * "page-cluster_3d0", "thp=off swappiness=10" -> "thp_3doff_20swappiness_3d10"), and the two
 * parts are joined by "__", which no encoded part contains, so different names stay different.
 * variant NULL or "": the workload alone. A new string (free it); "" for a NULL workload. Never
 * fails (aborts on out-of-memory). */
char *vms_name_token(const char *workload, const char *variant);

#endif
