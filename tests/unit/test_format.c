// SPDX-License-Identifier: GPL-2.0-or-later
/* The format header: offsets, sizes and the big-endian helpers. */
#include <check.h>
#include <string.h>
#include "axfs_format.h"
#include "axfs_error.h"

START_TEST(test_offsets_match_seed_struct)
{
	/* The 2008 struct on x86_64: 4 + 16 + 40 + 4 = 64, then 22 u64. */
	ck_assert_int_eq(AXFS_SB_FILES, 64);
	ck_assert_int_eq(AXFS_SB_REGION(AXFS_R_STRINGS), 96);
	ck_assert_int_eq(AXFS_SB_REGION(AXFS_R_GIDS), 232);
	ck_assert_int_eq(AXFS_SB_COMPRESSION_TYPE, 243);
	ck_assert_int_eq(AXFS_SB_TIMESTAMP, 248);
	ck_assert_int_eq(AXFS_SUPER_SIZE, 256);
	ck_assert_int_eq(AXFS_REGION_DESC_SIZE, 40);
}
END_TEST

START_TEST(test_be_roundtrip)
{
	unsigned char b[8];

	put_unaligned_be32(AXFS_MAGIC, b);
	ck_assert_int_eq(b[0], 0x48);
	ck_assert_int_eq(b[3], 0xCD);
	ck_assert_uint_eq(get_unaligned_be32(b), AXFS_MAGIC);
	put_unaligned_be64(0x0102030405060708ull, b);
	ck_assert_int_eq(b[0], 1);
	ck_assert_int_eq(b[7], 8);
	ck_assert_uint_eq(get_unaligned_be64(b), 0x0102030405060708ull);
}
END_TEST

START_TEST(test_bytetable_depths)
{
	unsigned char t[24];
	unsigned int d;
	uint64_t vals[3] = { 0, 0x1234, 0xabcdef };

	ck_assert_uint_eq(axfs_bytetable_depth_for(0), 0);
	ck_assert_uint_eq(axfs_bytetable_depth_for(255), 1);
	ck_assert_uint_eq(axfs_bytetable_depth_for(256), 2);
	ck_assert_uint_eq(axfs_bytetable_depth_for(~0ull), 8);
	d = axfs_bytetable_depth_for(0xabcdef);
	ck_assert_uint_eq(d, 3);
	for (int i = 0; i < 3; i++)
		axfs_bytetable_put(t, d, i, vals[i]);
	/* Big-endian stitching exactly as axfs_bytetable_stitch does it. */
	ck_assert_int_eq(t[3], 0x00);
	ck_assert_int_eq(t[4], 0x12);
	ck_assert_int_eq(t[5], 0x34);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(axfs_bytetable_get(t, d, i), vals[i]);
	ck_assert_uint_eq(axfs_bytetable_get(t, 0, 5), 0);
}
END_TEST

START_TEST(test_dev_encoding)
{
	ck_assert_uint_eq(axfs_encode_dev(5, 1), 0x501);
	ck_assert_uint_eq(AXFS_DEV_MAJOR(0x501), 5);
	ck_assert_uint_eq(AXFS_DEV_MINOR(0x501), 1);
}
END_TEST

START_TEST(test_error_messages)
{
	struct axfs_error e;

	ck_assert_int_eq(axfs_error_set(&e, AXFS_ERR_FORMAT, "bad '%s' at %d",
					"x", 7), AXFS_ERR_FORMAT);
	ck_assert_str_eq(e.msg, "bad 'x' at 7");
	ck_assert_int_eq(axfs_error_sys(&e, 2, "cannot open '%s'", "f"),
			 AXFS_ERR_IO);
	ck_assert_str_eq(e.msg, "cannot open 'f': No such file or directory");
	ck_assert_int_eq(axfs_error_set(NULL, AXFS_ERR_LIMIT, "x"),
			 AXFS_ERR_LIMIT);
}
END_TEST

Suite *suite_format(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_offsets_match_seed_struct);
	tcase_add_test(tc, test_be_roundtrip);
	tcase_add_test(tc, test_bytetable_depths);
	tcase_add_test(tc, test_dev_encoding);
	tcase_add_test(tc, test_error_messages);
	suite_add_tcase(s, tc);
	return s;
}
