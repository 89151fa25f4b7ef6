// SPDX-License-Identifier: GPL-2.0-or-later
/* Profile CSVs: what the driver prints, what people do to it, and what
 * must be refused with the right file:line(:column). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "axfs_profile.h"
#include "profile_order.h"

static struct axfs_profile prof;
static struct axfs_error err;

static void setup(void)
{
	axfs_profile_init(&prof, NULL);
	axfs_error_clear(&err);
}

static void teardown(void)
{
	axfs_profile_free(&prof);
}

static int parse(const char *text)
{
	return axfs_profile_parse(&prof, "t.csv", text, strlen(text), &err);
}

/* The canonical text of the profile (caller frees). */
static char *canonical(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(axfs_profile_write(&prof, f, &err), 0);
	fclose(f);
	return buf;
}

#define ENTRY(i, p, o, c) do { \
	ck_assert_str_eq(prof.v[i].path, p); \
	ck_assert_uint_eq(prof.v[i].offset, o); \
	ck_assert_uint_eq(prof.v[i].count, c); } while (0)

#define PARSE_FAILS(text, want) do { \
	ck_assert_int_eq(parse(text), AXFS_ERR_PARSE); \
	ck_assert_str_eq(err.msg, want); } while (0)

START_TEST(test_driver_output)
{
	/* exactly the shape axfs_procfile_read prints */
	ck_assert_int_eq(parse("./bin/busybox,0,12\n"
			       "./bin/busybox,4096,3\n"
			       "./lib/libc.so.6,8192,1\n"
			       "./init,0,1\n"), 0);
	ck_assert_uint_eq(prof.n, 4);
	ENTRY(0, "/bin/busybox", 0, 12);
	ENTRY(1, "/bin/busybox", 4096, 3);
	ENTRY(2, "/lib/libc.so.6", 8192, 1);
	ENTRY(3, "/init", 0, 1);
	ck_assert_str_eq(prof.v[2].file, "t.csv");
	ck_assert_uint_eq(prof.v[2].line, 3);
}
END_TEST

START_TEST(test_commas_and_spaces)
{
	ck_assert_int_eq(parse("./a,b,c/d,e,8192,2\n"
			       "./my file.so,0,1\n"
			       "./x y/ z ,4096,5\n"
			       "./n, 4096 ,\t7\t\n"
			       "./,,,0,1\n"), 0);
	ck_assert_uint_eq(prof.n, 5);
	ENTRY(0, "/a,b,c/d,e", 8192, 2);
	ENTRY(1, "/my file.so", 0, 1);
	ENTRY(2, "/x y/ z ", 4096, 5);	/* blanks in names are kept */
	ENTRY(3, "/n", 4096, 7);		/* blanks around numbers are not */
	ENTRY(4, "/,,", 0, 1);
}
END_TEST

START_TEST(test_crlf_comments_blank)
{
	ck_assert_int_eq(parse("# profile of run 1\r\n"
			       "\r\n"
			       "./a,0,1\r\n"
			       "   \n"
			       "\t\r\n"
			       "#./b,0,1\n"
			       "./c,4096,2"), 0);	/* no final newline */
	ck_assert_uint_eq(prof.n, 2);
	ENTRY(0, "/a", 0, 1);
	ck_assert_uint_eq(prof.v[0].line, 3);
	ENTRY(1, "/c", 4096, 2);
	ck_assert_uint_eq(prof.v[1].line, 7);
	/* a UTF-8 byte order mark before the first line is not a name */
	ck_assert_int_eq(parse("\xef\xbb\xbf./d,0,1\r\n"), 0);
	ENTRY(2, "/d", 0, 1);
}
END_TEST

START_TEST(test_path_forms)
{
	char *text;

	ck_assert_int_eq(parse("./a/b,0,1\n/a/b,0,2\na/b,0,3\n.//a/./b,0,4\n"), 0);
	ck_assert_int_eq(axfs_profile_canonicalize(&prof, &err), 0);
	ck_assert_uint_eq(prof.n, 1);
	ENTRY(0, "/a/b", 0, 10);
	ck_assert_uint_eq(prof.v[0].line, 1);	/* the first one seen */
	text = canonical();
	ck_assert_str_eq(text, "./a/b,0,10\n");
	free(text);
}
END_TEST

START_TEST(test_bad_lines)
{
	PARSE_FAILS("./a,0,1\nnonsense\n",
		    "t.csv:2: expected 'path,offset,count', found no comma");
	PARSE_FAILS("./a,0,1\n\n./b,7\n",
		    "t.csv:3: expected 'path,offset,count', found only one comma");
	PARSE_FAILS("./a,0,1\n./bb,abc,1\n",
		    "t.csv:2:6: offset 'abc' is not a non-negative decimal number");
	PARSE_FAILS("./a,4096,1x\n",
		    "t.csv:1:11: count '1x' is not a non-negative decimal number");
	PARSE_FAILS("./a,-4096,1\n",
		    "t.csv:1:5: offset '-4096' is not a non-negative decimal number");
	PARSE_FAILS("./a,,1\n", "t.csv:1:5: offset '' is empty");
	PARSE_FAILS("./a,0,\n", "t.csv:1:7: count '' is empty");
	PARSE_FAILS("# c\n./a,100,1\n",
		    "t.csv:2:5: offset 100 is not a multiple of the page size (4096)");
	PARSE_FAILS("./a/../etc/passwd,0,1\n",
		    "t.csv:1:5: '..' is not allowed in a path");
	PARSE_FAILS(",0,1\n", "t.csv:1:1: empty path");
	PARSE_FAILS("./,0,1\n",
		    "t.csv:1:1: the path names the root directory, not a file");
	PARSE_FAILS("./a,0,18446744073709551616\n",
		    "t.csv:1:7: count '18446744073709551616' does not fit in 64 bits");
	PARSE_FAILS("./a,99999999999999999999999,1\n",
		    "t.csv:1:5: offset '99999999999999999999999' does not fit in 64 bits");
	ck_assert_int_eq(axfs_profile_parse(&prof, "t.csv", "./a\0b,0,1\n", 10,
					    &err), AXFS_ERR_PARSE);
	ck_assert_str_eq(err.msg, "t.csv:1:4: NUL byte in a profile line");
	/* a failed parse leaves nothing behind */
	ck_assert_uint_eq(prof.n, 0);
}
END_TEST

START_TEST(test_failed_parse_keeps_earlier)
{
	ck_assert_int_eq(parse("./a,0,1\n"), 0);
	ck_assert_int_lt(parse("./b,0,1\n./c,1,1\n"), 0);
	ck_assert_uint_eq(prof.n, 1);
	ENTRY(0, "/a", 0, 1);
}
END_TEST

START_TEST(test_counts_64bit)
{
	ck_assert_int_eq(parse("./a,0,18446744073709551615\n./b,0,0\n"), 0);
	ENTRY(0, "/a", 0, UINT64_MAX);
	ENTRY(1, "/b", 0, 0);
	ck_assert_int_eq(axfs_profile_parse(&prof, "u.csv", "#\n./a,0,1\n", 10,
					    &err), 0);
	ck_assert_int_eq(axfs_profile_canonicalize(&prof, &err), AXFS_ERR_LIMIT);
	ck_assert_str_eq(err.msg,
			 "u.csv:2: the counts of page 0 of '/a' add up to more than 64 bits (with t.csv:1)");
}
END_TEST

START_TEST(test_canonical_order_and_sum)
{
	char *text;

	ck_assert_int_eq(parse("./b,8192,1\n"
			       "./a/c,0,1\n"
			       "./a b,0,1\n"
			       "./B,0,1\n"
			       "./b,40960,1\n"
			       "./b,8192,4\n"
			       "./a-b,0,1\n"
			       "./b,0,2\n"), 0);
	ck_assert_int_eq(axfs_profile_canonicalize(&prof, &err), 0);
	text = canonical();
	/* bytewise: 'B' < 'a'; ' ' < '-' < '/'; offsets numerically */
	ck_assert_str_eq(text, "./B,0,1\n"
			       "./a b,0,1\n"
			       "./a-b,0,1\n"
			       "./a/c,0,1\n"
			       "./b,0,2\n"
			       "./b,8192,5\n"
			       "./b,40960,1\n");
	free(text);
	/* canonical input is a fixed point */
	ck_assert_int_eq(axfs_profile_canonicalize(&prof, &err), 0);
	ck_assert_uint_eq(prof.n, 7);
}
END_TEST

START_TEST(test_combine_max)
{
	ck_assert_int_eq(parse("./a,0,3\n./a,0,9\n./a,0,4\n./b,0,1\n"), 0);
	ck_assert_int_eq(axfs_profile_canonicalize_combine(&prof, AXFS_PROFILE_MAX,
							   &err), 0);
	ck_assert_uint_eq(prof.n, 2);
	ENTRY(0, "/a", 0, 9);
	ENTRY(1, "/b", 0, 1);
}
END_TEST

START_TEST(test_add)
{
	ck_assert_int_eq(axfs_profile_add(&prof, "./x/y", 4096, 3, "cmd", 0, &err), 0);
	ck_assert_int_eq(axfs_profile_add(&prof, "x/y", 4096, 2, NULL, 0, &err), 0);
	ck_assert_int_eq(axfs_profile_canonicalize(&prof, &err), 0);
	ENTRY(0, "/x/y", 4096, 5);
	ck_assert_str_eq(prof.v[0].file, "cmd");
	ck_assert_int_eq(axfs_profile_add(&prof, "/x", 10, 1, NULL, 0, &err),
			 AXFS_ERR_INVALID);
	ck_assert_int_eq(axfs_profile_add(&prof, "/x/../y", 0, 1, NULL, 0, &err),
			 AXFS_ERR_INVALID);
	ck_assert_int_eq(axfs_profile_add(&prof, "/", 0, 1, NULL, 0, &err),
			 AXFS_ERR_INVALID);
	ck_assert_int_eq(axfs_profile_add(&prof, "/a\nb", 0, 1, NULL, 0, &err),
			 AXFS_ERR_INVALID);
	ck_assert_uint_eq(prof.n, 1);
}
END_TEST

START_TEST(test_read_file)
{
	char path[] = "/tmp/axfs-test-profile-XXXXXX";
	int fd = mkstemp(path);
	const char text[] = "./lib/ld.so,0,2\r\n./lib/ld.so,4096,1\r\n./bad,1,1\r\n";

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	ck_assert_int_eq(axfs_profile_read(&prof, path, &err), AXFS_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, ":3:7: offset 1 is not a multiple"));
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_uint_eq(prof.n, 0);
	/* rewrite without the bad line */
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, (size_t)(strstr(text, "./bad") - text)),
			 strstr(text, "./bad") - text);
	close(fd);
	ck_assert_int_eq(axfs_profile_read(&prof, path, &err), 0);
	ck_assert_uint_eq(prof.n, 2);
	ENTRY(1, "/lib/ld.so", 4096, 1);
	ck_assert_str_eq(prof.v[1].file, path);
	ck_assert_uint_eq(prof.v[1].line, 2);
	unlink(path);
	ck_assert_int_eq(axfs_profile_read(&prof, path, &err), AXFS_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
	ck_assert_ptr_nonnull(strstr(err.msg, "No such file"));
}
END_TEST

/* ---- the ordered form (/proc/axfs/volumeN.order) --------------------- */

#define RANK(i, r) ck_assert_uint_eq(prof.v[i].first, r)

START_TEST(test_ordered_form)
{
	/* the driver's shape: header, node order, count 0 on a page that
	 * was read but not counted; a path holding commas */
	ck_assert_int_eq(parse("# axfs-profile order\n"
			       "./bin/busybox,0,12,2\n"
			       "./bin/busybox,4096,0,1\n"
			       "./a,b,0,1,3\n"
			       "./lib/libc.so.6,8192,5,0\n"), 0);
	ck_assert_uint_eq(prof.n, 4);
	ENTRY(0, "/bin/busybox", 0, 12);
	RANK(0, 2);
	ENTRY(1, "/bin/busybox", 4096, 0);
	RANK(1, 1);
	ENTRY(2, "/a,b", 0, 1);
	RANK(2, 3);
	ENTRY(3, "/lib/libc.so.6", 8192, 5);
	RANK(3, 0);
	ck_assert_int_eq(profile_order_has_ranks(&prof), 1);
	ck_assert_int_eq(axfs_profile_canonicalize(&prof, &err), 0);
	char *txt = canonical();

	ck_assert_str_eq(txt, "# axfs-profile order\n"
			 "./a,b,0,1,3\n"
			 "./bin/busybox,0,12,2\n"
			 "./bin/busybox,4096,0,1\n"
			 "./lib/libc.so.6,8192,5,0\n");
	free(txt);
}
END_TEST

START_TEST(test_ordered_header_rules)
{
	/* after a BOM, with CRLF and trailing blanks: still the header */
	ck_assert_int_eq(parse("\xef\xbb\xbf# axfs-profile order \r\n"
			       "./a,0,1,1\r\n"), 0);
	RANK(0, 1);
	axfs_profile_free(&prof);
	axfs_profile_init(&prof, NULL);
	/* only the first line chooses the form: later it is a comment, and
	 * "./a,0,0,1" is then the path "/a,0" */
	ck_assert_int_eq(parse("./b,0,1\n# axfs-profile order\n./a,0,0,1\n"),
			 0);
	ck_assert_uint_eq(prof.n, 2);
	ENTRY(1, "/a,0", 0, 1);
	RANK(1, 0);
	ck_assert_int_eq(profile_order_has_ranks(&prof), 0);
	/* the 2008 form writes no header */
	char *txt = canonical();

	ck_assert_str_eq(txt, "./b,0,1\n./a,0,0,1\n");
	free(txt);
}
END_TEST

START_TEST(test_ordered_bad_lines)
{
	PARSE_FAILS("# axfs-profile order\n./a,0,1\n",
		    "t.csv:2: expected 'path,offset,count,first', found only "
		    "two commas (the file starts with '# axfs-profile order')");
	PARSE_FAILS("# axfs-profile order\n./a\n",
		    "t.csv:2: expected 'path,offset,count,first', found no "
		    "comma (the file starts with '# axfs-profile order')");
	PARSE_FAILS("# axfs-profile order\n./a,0,1,x\n",
		    "t.csv:2:9: first 'x' is not a non-negative decimal number");
	PARSE_FAILS("# axfs-profile order\n./a,0,1,\n",
		    "t.csv:2:9: first '' is empty");
	PARSE_FAILS("# axfs-profile order\n./a,0,1,18446744073709551616\n",
		    "t.csv:2:9: first '18446744073709551616' does not fit in "
		    "64 bits");
	PARSE_FAILS("# axfs-profile order\n./a,0,y,1\n",
		    "t.csv:2:7: count 'y' is not a non-negative decimal number");
	PARSE_FAILS("# axfs-profile order\n./a,100,1,1\n",
		    "t.csv:2:5: offset 100 is not a multiple of the page size "
		    "(4096)");
	PARSE_FAILS("# axfs-profile order\n../a,0,1,1\n",
		    "t.csv:2:1: '..' is not allowed in a path");
	ck_assert_uint_eq(prof.n, 0);
}
END_TEST

START_TEST(test_ordered_duplicates_keep_earliest)
{
	ck_assert_int_eq(parse("# axfs-profile order\n"
			       "./a,0,1,7\n./a,0,2,3\n./a,0,4,0\n"), 0);
	ck_assert_int_eq(axfs_profile_canonicalize(&prof, &err), 0);
	ck_assert_uint_eq(prof.n, 1);
	ENTRY(0, "/a", 0, 7);
	RANK(0, 3);
}
END_TEST

/* merge-profile's rule: each input normalised to its run, the smallest
 * position kept, renumbered 1..N with ties by path, then offset. */
START_TEST(test_order_merge_rule)
{
	struct axfs_profile b;

	ck_assert_int_eq(parse("# axfs-profile order\n"
			       "./x,0,1,10\n./y,0,1,20\n./z,0,1,30\n"
			       "./w,0,1,40\n"), 0);
	ck_assert_int_eq(axfs_profile_canonicalize(&prof, &err), 0);
	ck_assert_int_eq(profile_order_normalise(&prof, &err), 0);
	/* canonical: w x y z; positions 3/4, 0, 1/4, 2/4 */
	RANK(0, (3ull << 32) / 4 + 1);
	RANK(1, 1);
	RANK(2, (1ull << 32) / 4 + 1);
	RANK(3, (2ull << 32) / 4 + 1);

	axfs_profile_init(&b, NULL);
	const char *btxt = "# axfs-profile order\n./w,0,1,1\n./v,0,1,2\n";

	ck_assert_int_eq(axfs_profile_parse(&b, "b.csv", btxt, strlen(btxt),
					    &err), 0);
	ck_assert_int_eq(axfs_profile_canonicalize(&b, &err), 0);
	ck_assert_int_eq(profile_order_normalise(&b, &err), 0);
	for (size_t i = 0; i < b.n; i++) {
		ck_assert_int_eq(axfs_profile_add(&prof, b.v[i].path,
			b.v[i].offset, b.v[i].count, "b.csv", 1, &err), 0);
		prof.v[prof.n - 1].first = b.v[i].first;
	}
	axfs_profile_free(&b);
	ck_assert_int_eq(axfs_profile_canonicalize(&prof, &err), 0);
	ck_assert_int_eq(profile_order_renumber(&prof, &err), 0);
	/* w: min(3/4, 0) = 0 ties x (0): "/w" < "/x"; then y 1/4, v 1/2
	 * ties z 2/4: "/v" < "/z" */
	ck_assert_uint_eq(prof.n, 5);
	ENTRY(0, "/v", 0, 1);
	RANK(0, 4);
	ENTRY(1, "/w", 0, 2);
	RANK(1, 1);
	RANK(2, 2);	/* x */
	RANK(3, 3);	/* y */
	RANK(4, 5);	/* z */
}
END_TEST

Suite *suite_profile(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("profile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_driver_output);
	tcase_add_test(tc, test_commas_and_spaces);
	tcase_add_test(tc, test_crlf_comments_blank);
	tcase_add_test(tc, test_path_forms);
	tcase_add_test(tc, test_bad_lines);
	tcase_add_test(tc, test_failed_parse_keeps_earlier);
	tcase_add_test(tc, test_counts_64bit);
	tcase_add_test(tc, test_canonical_order_and_sum);
	tcase_add_test(tc, test_combine_max);
	tcase_add_test(tc, test_add);
	tcase_add_test(tc, test_read_file);
	tcase_add_test(tc, test_ordered_form);
	tcase_add_test(tc, test_ordered_header_rules);
	tcase_add_test(tc, test_ordered_bad_lines);
	tcase_add_test(tc, test_ordered_duplicates_keep_earliest);
	tcase_add_test(tc, test_order_merge_rule);
	suite_add_tcase(s, tc);
	return s;
}
