// SPDX-License-Identifier: GPL-2.0-or-later
/* Path globs: *, ?, [...], **, escapes, and patterns that must be refused. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glob_match.h"

#define YES(pat, path) ck_assert_msg(glob_match(pat, path) == 1, \
				     "'%s' should match '%s'", pat, path)
#define NO(pat, path) ck_assert_msg(glob_match(pat, path) == 0, \
				    "'%s' should not match '%s'", pat, path)

START_TEST(test_literal)
{
	YES("/bin/busybox", "/bin/busybox");
	NO("/bin/busybox", "/bin/busybox2");
	NO("/bin/busybox", "/bin/busybo");
	NO("/bin/busybox", "/sbin/busybox");
	NO("/bin", "/bin/busybox");
	/* anchoring: "/a", "a" and "./a" are the same */
	YES("bin/sh", "/bin/sh");
	YES("./bin/sh", "/bin/sh");
	YES("/bin/sh", "bin/sh");
	YES("//bin//sh", "/bin/sh");
	YES("/", "/");
	NO("/", "/bin");
}
END_TEST

START_TEST(test_star_question)
{
	YES("/lib/*.so", "/lib/libc.so");
	YES("/lib/*.so", "/lib/.so");
	YES("/lib/*", "/lib/.hidden");		/* no dot-file rule */
	NO("/lib/*.so", "/lib/x/libc.so");	/* '*' stops at '/' */
	NO("/*", "/lib/libc.so");
	YES("/*/*", "/lib/libc.so");
	YES("/lib/lib?.so", "/lib/libc.so");
	NO("/lib/lib?.so", "/lib/lib.so");
	NO("/lib/lib?.so", "/lib/libcc.so");
	YES("/a*b*c", "/abc");
	YES("/a*b*c", "/axxbyyc");
	YES("/a*b*c", "/abbbcbc");
	NO("/a*b*c", "/abcx");
	YES("/***", "/x");			/* runs of stars are one star */
	YES("/a**b", "/axyb");			/* "**" inside a name is '*' */
	NO("/a**b", "/ax/yb");
	NO("/a?b", "/a/b");
}
END_TEST

START_TEST(test_bracket)
{
	YES("/dev/tty[0-9]", "/dev/tty7");
	NO("/dev/tty[0-9]", "/dev/ttyS");
	YES("/dev/tty[!0-9]", "/dev/ttyS");
	YES("/dev/tty[^0-9]", "/dev/ttyS");
	NO("/dev/tty[!0-9]", "/dev/tty3");
	YES("/x[]]", "/x]");			/* ']' first is literal */
	YES("/x[!]]", "/xa");
	NO("/x[!]]", "/x]");
	YES("/x[a-]", "/x-");			/* '-' last is literal */
	YES("/x[[:digit:]]", "/x5");
	NO("/x[[:digit:]]", "/xa");
	YES("/x[[:alpha:]_]", "/x_");
	YES("/x[[:upper:][:digit:]]", "/xQ");
	YES("/x[\\]]", "/x]");
	/* high bytes compare as unsigned */
	YES("/x[\x80-\xff]", "/x\xe9");
	NO("/x[a-z]", "/x\xe9");
	/* malformed bracket: '[' is literal when matching */
	YES("/x[ab", "/x[ab");
}
END_TEST

START_TEST(test_double_star)
{
	YES("/usr/**", "/usr/bin");
	YES("/usr/**", "/usr/share/doc/x/y");
	NO("/usr/**", "/usr");			/* trailing: one or more */
	NO("/usr/**", "/usrx/a");
	YES("/**", "/anything/at/all");
	NO("/**", "/");
	YES("**", "/a");
	YES("/**/lib*.so", "/libc.so");		/* zero components */
	YES("/**/lib*.so", "/usr/lib/x86/libc.so");
	NO("/**/lib*.so", "/usr/lib/libc.so.6");
	YES("/usr/**/bin/*", "/usr/bin/ls");
	YES("/usr/**/bin/*", "/usr/local/bin/ls");
	YES("/usr/**/bin/*", "/usr/a/b/c/bin/ls");
	NO("/usr/**/bin/*", "/usr/a/bin");
	YES("/a/**/b/**/c", "/a/b/c");
	YES("/a/**/b/**/c", "/a/x/b/y/z/c");
	YES("/a/**/b/**/c", "/a/b/b/b/c");
	NO("/a/**/b/**/c", "/a/c");
	YES("/**/**/x", "/x");
	YES("/a/**/**", "/a/b");
}
END_TEST

START_TEST(test_escape)
{
	YES("/a\\*b", "/a*b");
	NO("/a\\*b", "/axb");
	YES("/a\\?", "/a?");
	NO("/a\\?", "/ab");
	YES("/a\\[b]", "/a[b]");
	YES("/a\\\\b", "/a\\b");
	YES("/a\\b", "/ab");			/* escaping a plain byte */
}
END_TEST

/* Pathological inputs must stay fast (the suite timeout would catch an
 * exponential matcher: 2^60 steps never finish). */
START_TEST(test_no_blowup)
{
	char pat[256], path[512];
	size_t i;

	strcpy(pat, "/");
	for (i = 0; i < 30; i++)
		strcat(pat, "a*");
	strcat(pat, "b");
	path[0] = '/';
	memset(path + 1, 'a', 400);
	path[401] = '\0';
	NO(pat, path);

	strcpy(pat, "");
	for (i = 0; i < 30; i++)
		strcat(pat, "/**/a");
	strcat(pat, "/b");
	path[0] = '\0';
	for (i = 0; i < 120; i++)
		strcat(path, "/a");
	NO(pat, path);
	strcat(path, "/b");
	YES(pat, path);
}
END_TEST

#define OK(pat) do { char w[128]; \
	ck_assert_msg(glob_check(pat, w, sizeof(w)) == 0, "'%s': %s", pat, w); } while (0)
#define BAD(pat, frag) do { char w[128] = ""; \
	ck_assert_msg(glob_check(pat, w, sizeof(w)) < 0, "'%s' accepted", pat); \
	ck_assert_msg(strstr(w, frag) != NULL, "'%s': got '%s'", pat, w); } while (0)

START_TEST(test_check)
{
	OK("/usr/**");
	OK("/dev/tty[0-9]*");
	OK("/x[]]");
	OK("/x[[:alpha:]]");
	OK("/a\\*");
	OK("/");
	OK("etc/*.conf");
	BAD("", "empty pattern");
	BAD("/x[ab", "unterminated bracket expression");
	BAD("/x[", "unterminated bracket expression");
	BAD("/x[]", "unterminated bracket expression");
	BAD("/x[z-a]", "reversed range 'z-a'");
	BAD("/x[[:foo:]]", "unknown character class '[:foo:]'");
	BAD("/x[[:alpha]", "unterminated character class");
	BAD("/x\\", "trailing backslash");
	BAD("/a[b/c]", "'/' inside a bracket expression");
	BAD("/a/../b", "'..' components are not allowed");
	BAD("/a/./b", "'.' components are not allowed");
	BAD("/etc/", "trailing '/'");
	BAD("/a\\/b", "escaped '/'");
	/* the reason names where the defect is */
	BAD("/ab[c", "at byte 4");
}
END_TEST

/* A pattern without '/' matches the last name at any depth, as tar,
 * rsync and .gitignore take it; one with '/' is anchored (issue 39 §4). */
START_TEST(test_any_depth)
{
	YES("*.pm", "/a.pm");
	YES("*.pm", "/usr/lib/x86_64-linux-gnu/perl-base/File/Spec/Unix.pm");
	NO("*.pm", "/usr/lib/x.pmx");
	NO("*.pm", "/a.pm/x");		/* the last name only */
	NO("*.pm", "/");
	YES("doc", "/doc");
	YES("doc", "/usr/share/doc");
	NO("doc", "/usr/share/docs");
	YES("[a-c]?", "/x/y/b1");
	YES("lib\\*", "/x/lib*");
	NO("lib\\*", "/x/libc");
	YES("**", "/a/b");			/* "**" is any depth already */
	NO("**", "/");
	/* with a '/' anywhere, anchored as before */
	YES("usr/share", "/usr/share");
	NO("usr/share", "/x/usr/share");
	YES("./doc", "/doc");
	NO("./doc", "/usr/doc");
	NO("/doc", "/usr/doc");
	YES("**/doc", "/usr/doc");
}
END_TEST

/* No image path is longer than PATH_MAX: neither is a glob (issue 38 §3). */
START_TEST(test_length_limit)
{
	char *pat = malloc(GLOB_MAX_LEN + 2);
	struct glob g;

	ck_assert_ptr_nonnull(pat);
	pat[0] = '/';
	memset(pat + 1, 'a', GLOB_MAX_LEN - 1);
	pat[GLOB_MAX_LEN] = '\0';
	OK(pat);
	ck_assert_int_eq(glob_compile(&g, pat), 0);
	ck_assert_int_eq(glob_test(&g, pat), 1);
	glob_free(&g);
	strcat(pat, "a");
	BAD(pat, "longer than 4096 bytes");
	ck_assert_int_eq(glob_compile(&g, pat), -1);
	ck_assert_int_eq(glob_match(pat, pat), -1);
	free(pat);
}
END_TEST

/* A set holds each pattern once, compiled once, in order. */
START_TEST(test_set_dedup)
{
	const char *pats[] = { "/a/*", "/b", "/a/*", "*.pm", "/b", "/a/*" };
	struct glob_set s;
	size_t bad = 99;

	ck_assert_int_eq(glob_set_init(&s, pats, 6, &bad), 0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.orig[0], 0);
	ck_assert_uint_eq(s.orig[1], 1);
	ck_assert_uint_eq(s.orig[2], 3);
	ck_assert_uint_eq(s.first[2], 0);
	ck_assert_uint_eq(s.first[4], 1);
	ck_assert_uint_eq(s.first[5], 0);
	ck_assert_uint_eq(s.first[3], 3);
	ck_assert_uint_eq(s.which[5], 0);
	ck_assert_uint_eq(s.which[4], 1);
	ck_assert_uint_eq(s.which[3], 2);
	ck_assert_int_eq(glob_test(&s.g[0], "/a/x"), 1);
	ck_assert_int_eq(glob_test(&s.g[1], "/a/x"), 0);
	glob_set_free(&s);
	ck_assert_int_eq(glob_set_init(&s, pats, 0, NULL), 0);
	ck_assert_uint_eq(s.n, 0);
	glob_set_free(&s);
}
END_TEST

/* A set with a glob past the limit is refused, naming which. */
START_TEST(test_set_too_long)
{
	char *big = malloc(GLOB_MAX_LEN + 2);
	const char *pats[3] = { "/a", NULL, "/b" };
	struct glob_set s;
	size_t bad = 99;

	ck_assert_ptr_nonnull(big);
	memset(big, 'x', GLOB_MAX_LEN + 1);
	big[GLOB_MAX_LEN + 1] = '\0';
	pats[1] = big;
	ck_assert_int_eq(glob_set_init(&s, pats, 3, &bad), -1);
	ck_assert_uint_eq(bad, 1);
	ck_assert_uint_eq(s.n, 0);
	glob_set_free(&s);
	free(big);
}
END_TEST

/* The literal end of a pattern is checked first, from the end of the
 * path; it must not reject what the full match accepts. */
START_TEST(test_literal_tail)
{
	YES("/usr/**/*.pm", "/usr/lib/x.pm");
	NO("/usr/**/*.pm", "/usr/lib/x.pmx");
	NO("/usr/**/*.pm", "/usr/lib/pm");
	YES("/a/b", "/a/b/");			/* a trailing '/' of a path */
	YES("/x\\*", "/x*");
	NO("/x\\*", "/xy");
	YES("/x[.]pm", "/x.pm");
	YES("/lib/*so*", "/lib/libc.so.6");
	YES("/dev/tty?", "/dev/tty1");
	NO("/ab", "/b");
	NO("/abc/x", "/x");
}
END_TEST

/* Patterns of the largest size, built to defeat each shortcut, stay
 * bounded: brackets are sets compared in one step, a star's last piece is
 * matched from the end. */
START_TEST(test_long_hostile)
{
	char *pat = malloc(GLOB_MAX_LEN + 1), *path = malloc(4200);
	size_t n = 0;

	ck_assert_ptr_nonnull(pat);
	ck_assert_ptr_nonnull(path);
	/* a "**" component, then star, bracket, star, bracket ... b: every
	 * component of the path is tried */
	n += (size_t)sprintf(pat, "/**/");
	while (n + 8 < GLOB_MAX_LEN)
		n += (size_t)sprintf(pat + n, "*[a-z]");
	strcpy(pat + n, "*b");
	for (n = 0; n + 200 < 4096; n += 128) {
		path[n] = '/';
		memset(path + n + 1, 'a', 127);
	}
	path[n] = '\0';
	NO(pat, path);		/* the end 'b' is missing */
	path[n - 1] = 'b';
	NO(pat, path);		/* 'b' ends it, too few bytes for the rest */
	/* one bracket expression of 4000 bytes against 4000 bytes */
	strcpy(pat, "/*[");
	for (n = 3; n + 4 < GLOB_MAX_LEN; n += 3)
		memcpy(pat + n, "a-a", 3);
	strcpy(pat + n, "]x");
	path[0] = '/';
	memset(path + 1, 'a', 250);
	path[251] = '\0';
	NO(pat, path);
	path[250] = 'x';
	YES(pat, path);
	free(pat);
	free(path);
}
END_TEST

Suite *suite_glob(void)
{
	Suite *s = suite_create("glob");
	TCase *tc = tcase_create("glob");

	tcase_add_test(tc, test_literal);
	tcase_add_test(tc, test_star_question);
	tcase_add_test(tc, test_bracket);
	tcase_add_test(tc, test_double_star);
	tcase_add_test(tc, test_escape);
	tcase_add_test(tc, test_no_blowup);
	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_any_depth);
	tcase_add_test(tc, test_length_limit);
	tcase_add_test(tc, test_set_dedup);
	tcase_add_test(tc, test_set_too_long);
	tcase_add_test(tc, test_literal_tail);
	tcase_add_test(tc, test_long_hostile);
	suite_add_tcase(s, tc);
	return s;
}
