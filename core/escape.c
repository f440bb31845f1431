/* Escaping of strings that come from files for display: control characters, invalid UTF-8 and
 * bidirectional overrides in a visible \xNN or \uNNNN notation, plus markdown's and HTML's
 * markup characters for those formats. No kernel paths. */
#include "core/escape.h"

#include <string.h>

#include "core/util.h"

enum mode { TEXT, MARKDOWN, XML };

/* Where the escaped text goes: a stream, or a growing string when f is NULL. */
struct sink {
	FILE *f;
	char *buf;
	size_t len, cap;
};

static void put(struct sink *k, const char *s, size_t n)
{
	if (k->f) {
		fwrite(s, 1, n, k->f);
		return;
	}
	if (!k->buf || k->len + n + 1 > k->cap) {
		k->cap = 2 * (k->len + n + 1);
		k->buf = vms_xrealloc(k->buf, k->cap);
	}
	memcpy(k->buf + k->len, s, n);
	k->len += n;
	k->buf[k->len] = '\0';
}

/* The length of the valid UTF-8 sequence at p (1 to 4) with its code point in *cp, or 0 when
 * p does not start one (overlong forms and surrogates are not valid). Reads no further than
 * the first byte that does not continue the sequence, so never past the terminating NUL. */
static size_t utf8_char(const unsigned char *p, unsigned *cp)
{
	unsigned c = p[0], min;
	size_t n, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, *cp = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, *cp = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, *cp = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (p[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

/* Characters that are not text on a terminal or change how the text around them reads. */
static int hidden(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

static int alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Whether markdown could read the ASCII character at p (in the string from start) as markup or
 * the start of an entity. An underscore between two letters or digits cannot open or close
 * emphasis, so "elapsed_s" stays as it is. */
static int md_markup(const unsigned char *start, const unsigned char *p)
{
	if (*p == '_')
		return !(p > start && alnum(p[-1]) && alnum(p[1]));
	return strchr("\\`*[]<>|#&!~", *p) != NULL;
}

static void escape(struct sink *k, const char *s, enum mode mode)
{
	const unsigned char *p = (const unsigned char *)s, *start = p;
	char buf[16];
	unsigned cp;
	size_t n;

	while (p && *p) {
		n = utf8_char(p, &cp);
		if (!n) {
			snprintf(buf, sizeof(buf), "\\x%02x", *p);
			put(k, buf, strlen(buf));
			p++;
			continue;
		}
		if (hidden(cp)) {
			snprintf(buf, sizeof(buf), cp < 0x80 ? "\\x%02x" : "\\u%04x", cp);
			put(k, buf, strlen(buf));
		} else if (mode == MARKDOWN && cp < 0x80 && md_markup(start, p)) {
			buf[0] = '\\';
			buf[1] = (char)cp;
			put(k, buf, 2);
		} else if (mode == XML && cp < 0x80 && strchr("&<>\"'", (int)cp)) {
			const char *e = cp == '&'   ? "&amp;"
			                : cp == '<' ? "&lt;"
			                : cp == '>' ? "&gt;"
			                : cp == '"' ? "&quot;"
			                            : "&#39;";

			put(k, e, strlen(e));
		} else {
			put(k, (const char *)p, n);
		}
		p += n;
	}
}

void vms_text_put(FILE *f, const char *s)
{
	struct sink k = {.f = f};

	escape(&k, s, TEXT);
}

void vms_md_put(FILE *f, const char *s)
{
	struct sink k = {.f = f};

	escape(&k, s, MARKDOWN);
}

void vms_xml_put(FILE *f, const char *s)
{
	struct sink k = {.f = f};

	escape(&k, s, XML);
}

char *vms_text_escape(const char *s)
{
	struct sink k = {0};

	put(&k, "", 0);
	escape(&k, s, TEXT);
	return k.buf;
}

static void token_put(char *out, size_t *n, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-') {
			out[(*n)++] = (char)c;
			continue;
		}
		out[(*n)++] = '_';
		out[(*n)++] = hex[c >> 4];
		out[(*n)++] = hex[c & 15];
	}
}

char *vms_name_token(const char *workload, const char *variant)
{
	size_t len = (workload ? strlen(workload) : 0) + (variant ? strlen(variant) : 0);
	char *out = vms_xmalloc(3 * len + 3);
	size_t n = 0;

	token_put(out, &n, workload);
	if (variant && *variant) {
		out[n++] = '_';
		out[n++] = '_';
		token_put(out, &n, variant);
	}
	out[n] = '\0';
	return out;
}
