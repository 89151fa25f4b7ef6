// SPDX-License-Identifier: GPL-2.0-or-later
/* text_escape/text_write: the one escaping rule for names in
 * text for people (text.h), byte class by byte class. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* ESC(in, n, want): escaping n bytes of in gives want, by both calls. */
#define ESC(in, n, want) do { \
	char out[4 * 64 + 1], *buf = NULL; size_t len = 0; FILE *f; \
	ck_assert_uint_eq(text_escape(out, in, n), strlen(want)); \
	ck_assert_str_eq(out, want); \
	f = open_memstream(&buf, &len); \
	ck_assert_ptr_nonnull(f); \
	text_write(f, in, n); \
	fclose(f); \
	ck_assert_uint_eq(len, strlen(want)); \
	ck_assert_mem_eq(buf, want, len); \
	free(buf); } while (0)
#define ESCS(in, want) ESC(in, strlen(in), want)

START_TEST(test_plain)
{
	ESCS("", "");
	ESCS("usr/lib/libc.so.6", "usr/lib/libc.so.6");
	ESCS("a b~!'\"", "a b~!'\"");
}
END_TEST

START_TEST(test_controls)
{
	ESCS("a\nb", "a\\012b");
	ESCS("\033[2J", "\\033[2J");
	ESCS("\t\r\x7f", "\\011\\015\\177");
	ESCS("back\\slash", "back\\134slash");
	ESC("nul\0x", 5, "nul\\000x");
}
END_TEST

START_TEST(test_utf8)
{
	ESCS("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	ESCS("\xc2\xa0", "\xc2\xa0");			/* U+00A0 is shown */
	ESCS("\xc2\x9b" "2J", "\\302\\2332J");		/* U+009B, CSI */
	ESCS("\xc2\x85", "\\302\\205");			/* U+0085, NEL */
	ESCS("bad\xff", "bad\\377");
	ESCS("\x9b", "\\233");				/* 8-bit CSI */
	ESCS("\xc0\xaf", "\\300\\257");			/* overlong '/' */
	ESCS("\xed\xa0\x80", "\\355\\240\\200");	/* a surrogate */
	ESCS("cut\xe2\x82", "cut\\342\\202");
}
END_TEST

Suite *suite_text(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_plain);
	tcase_add_test(tc, test_controls);
	tcase_add_test(tc, test_utf8);
	suite_add_tcase(s, tc);
	return s;
}
