// SPDX-License-Identifier: GPL-2.0-or-later
/* axfs_parse_size: binary units, and every kind of junk refused. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "axfs_policy.h"

#define SZ(str, want) do { uint64_t v = 0; char w[128]; \
	ck_assert_msg(axfs_parse_size(str, &v, w, sizeof(w)) == 0, "'%s': %s", str, w); \
	ck_assert_msg(v == (uint64_t)(want), "'%s' gave %llu", str, (unsigned long long)v); } while (0)
#define BAD(str, frag) do { uint64_t v = 77; char w[128] = ""; \
	ck_assert_msg(axfs_parse_size(str, &v, w, sizeof(w)) < 0, "'%s' accepted", str); \
	ck_assert_msg(strstr(w, frag) != NULL, "'%s': got '%s'", str, w); \
	ck_assert_msg(v == 77, "output written on failure"); } while (0)

START_TEST(test_units)
{
	SZ("0", 0);
	SZ("4096", 4096);
	SZ("512B", 512);
	SZ("512b", 512);
	SZ("64K", 65536);
	SZ("64k", 65536);
	SZ("64KiB", 65536);
	SZ("64KB", 65536);		/* binary, documented */
	SZ("64kib", 65536);
	SZ("8M", 8u << 20);
	SZ("8MiB", 8u << 20);
	SZ("1G", 1u << 30);
	SZ("1GiB", 1u << 30);
	SZ("3T", 3ull << 40);
	SZ("64 KiB", 65536);
	SZ("18446744073709551615", UINT64_MAX);
	SZ("16777215TiB", 16777215ull << 40);
}
END_TEST

START_TEST(test_junk)
{
	BAD("", "empty size");
	BAD("-1", "negative");
	BAD("K", "is not a size");
	BAD(" 4096", "is not a size");
	BAD("4096 ", "trailing blanks");
	BAD("1.5M", "fractions");
	BAD("0x1000", "hexadecimal");
	BAD("64Q", "unknown unit 'Q'");
	BAD("64KiBs", "unknown unit");
	BAD("64 K iB", "unknown unit");
	BAD("18446744073709551616", "too large");
	BAD("99999999999999999999999", "too large");
	BAD("16777216TiB", "too large");
	BAD("17179869184G", "too large");
	BAD("+5", "is not a size");
}
END_TEST

START_TEST(test_null_why)
{
	uint64_t v;

	ck_assert_int_lt(axfs_parse_size("x", &v, NULL, 0), 0);
	ck_assert_int_eq(axfs_parse_size("2K", &v, NULL, 0), 0);
	ck_assert_uint_eq(v, 2048);
}
END_TEST

Suite *suite_size(void)
{
	Suite *s = suite_create("size");
	TCase *tc = tcase_create("size");

	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_junk);
	tcase_add_test(tc, test_null_why);
	suite_add_tcase(s, tc);
	return s;
}
