/* Unit tests of core/escape.c: control characters, invalid UTF-8 and bidirectional controls
 * shown as \xNN or \uNNNN, markdown and HTML markup escaped, ordinary text left as it is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/escape.h"

/* What put writes for s. */
static char *render(void (*put)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	put(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void expect(void (*put)(FILE *, const char *), const char *s, const char *want)
{
	char *got = render(put, s);

	assert_string_equal(got, want);
	free(got);
}

static void test_text(void **state)
{
	char *e;

	(void)state;
	/* ordinary text, UTF-8 and the backslash are left alone */
	expect(vms_text_put, "2.4.13-pre5aa1 \u2014 caf\u00e9 a\\b",
	       "2.4.13-pre5aa1 \u2014 caf\u00e9 a\\b");
	expect(vms_text_put, "", "");
	expect(vms_text_put, NULL, "");
	/* C0 controls, DEL */
	expect(vms_text_put, "a\x1b[31mb\r\nc\td\x7f\x01",
	       "a\\x1b[31mb\\x0d\\x0ac\\x09d\\x7f\\x01");
	/* C1 controls, separators, bidirectional overrides and isolates */
	expect(vms_text_put,
	       "x\xc2\x9b"
	       "2J\xc2\x85"
	       "\u2028\u2029\u202e\u2066\u200f\u061cy",
	       "x\\u009b2J\\u0085\\u2028\\u2029\\u202e\\u2066\\u200f\\u061cy");
	/* invalid UTF-8: a lone continuation byte, a truncated sequence, an overlong '/', a
	 * surrogate, a byte that never starts one; the valid text around them survives */
	expect(vms_text_put,
	       "a\x80"
	       "b\xe2\x82"
	       "c\xc0\xaf"
	       "d\xed\xa0\x80"
	       "e\xff",
	       "a\\x80b\\xe2\\x82c\\xc0\\xafd\\xed\\xa0\\x80e\\xff");
	/* a sequence cut by the end of the string */
	expect(vms_text_put, "z\xf0\x9f", "z\\xf0\\x9f");
	expect(vms_text_put, "\xf0\x9f\x8e\xb5", "\xf0\x9f\x8e\xb5");
	e = vms_text_escape("a\nb");
	assert_string_equal(e, "a\\x0ab");
	free(e);
	e = vms_text_escape(NULL);
	assert_string_equal(e, "");
	free(e);
}

static void test_markdown(void **state)
{
	(void)state;
	expect(vms_md_put, "<script>a&b</script>", "\\<script\\>a\\&b\\</script\\>");
	expect(vms_md_put, "*x* [l](u) `c` # | ~ ! \\",
	       "\\*x\\* \\[l\\](u) \\`c\\` \\# \\| \\~ \\! \\\\");
	/* an underscore between letters or digits cannot be emphasis; elsewhere it can */
	expect(vms_md_put, "elapsed_s psi_memory_some_ms", "elapsed_s psi_memory_some_ms");
	expect(vms_md_put, "_a_ b_ _c x_1", "\\_a\\_ b\\_ \\_c x_1");
	/* the notation's backslash is before a letter: markdown shows it as it is */
	expect(vms_md_put, "a\x1b[1m", "a\\x1b\\[1m");
}

static void test_xml(void **state)
{
	(void)state;
	expect(vms_xml_put, "<a href=\"x\" on='y'>&amp;</a>",
	       "&lt;a href=&quot;x&quot; on=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
	expect(vms_xml_put, "caf\u00e9\x1b\u202e", "caf\u00e9\\x1b\\u202e");
}

static void token_is(const char *wl, const char *variant, const char *want)
{
	char *got = vms_name_token(wl, variant);

	assert_string_equal(got, want);
	free(got);
}

static void test_name_token(void **state)
{
	(void)state;
	token_is("mmap001", NULL, "mmap001");
	token_is("mmap001", "", "mmap001");
	token_is("mmap001", "page-cluster=0", "mmap001__page-cluster_3d0");
	token_is("mtest01", "page-cluster=0 thp=off", "mtest01__page-cluster_3d0_20thp_3doff");
	/* an underscore is escaped too, so "__" only ever joins the two parts */
	token_is("a_b", "c", "a_5fb__c");
	token_is("a", "_b", "a___5fb");
	/* bytes outside ASCII, one escape each */
	token_is("x", "caf\u00e9", "x__caf_c3_a9");
	token_is(NULL, "v", "__v");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text),
	    cmocka_unit_test(test_markdown),
	    cmocka_unit_test(test_xml),
	    cmocka_unit_test(test_name_token),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
