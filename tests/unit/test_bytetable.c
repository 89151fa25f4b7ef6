// SPDX-License-Identifier: GPL-2.0-or-later
/* Byte tables: minimal depth, big-endian packing, empty and zero tables. */
#include <check.h>
#include <stdint.h>
#include <string.h>
#include "bytetable.h"
#include "axfs_format.h"

/* The table's depth (bytes per value), size in bytes and count of values. */
static void shape_is(const struct bytetable *bt, unsigned int depth,
		     uint64_t size, uint64_t count)
{
	ck_assert_uint_eq(bt->depth, depth);
	ck_assert_uint_eq(bt->size, size);
	ck_assert_uint_eq(bt->count, count);
}

START_TEST(test_min_depth)
{
	uint64_t v[4] = { 0, 0, 0, 0 };

	ck_assert_uint_eq(bytetable_min_depth(NULL, 0), 0);
	ck_assert_uint_eq(bytetable_min_depth(v, 4), 0);
	v[2] = 1;
	ck_assert_uint_eq(bytetable_min_depth(v, 4), 1);
	v[3] = 255;
	ck_assert_uint_eq(bytetable_min_depth(v, 4), 1);
	v[0] = 256;
	ck_assert_uint_eq(bytetable_min_depth(v, 4), 2);
	v[1] = 0xffffffffull;
	ck_assert_uint_eq(bytetable_min_depth(v, 4), 4);
	v[1] = 0x100000000ull;
	ck_assert_uint_eq(bytetable_min_depth(v, 4), 5);
	v[1] = UINT64_MAX;
	ck_assert_uint_eq(bytetable_min_depth(v, 4), 8);
}
END_TEST

START_TEST(test_build_roundtrip)
{
	/* Every depth from 1 to 8, read back with the driver's stitching. */
	for (unsigned int d = 1; d <= 8; d++) {
		uint64_t v[5];
		uint64_t max = d == 8 ? UINT64_MAX : (1ull << (8 * d)) - 1;
		struct bytetable bt;

		v[0] = 0;
		v[1] = max;
		v[2] = max / 3;
		v[3] = 1;
		v[4] = max >> 4;
		ck_assert_int_eq(bytetable_build(&bt, v, 5, NULL), 0);
		ck_assert_uint_eq(bt.depth, d);
		ck_assert_uint_eq(bt.count, 5);
		ck_assert_uint_eq(bt.size, 5 * d);
		for (int i = 0; i < 5; i++)
			ck_assert_uint_eq(axfs_bytetable_get(bt.data, d, i), v[i]);
		bytetable_free(&bt);
		ck_assert_ptr_null(bt.data);
	}
}
END_TEST

START_TEST(test_big_endian_bytes)
{
	uint64_t v[2] = { 0x010203, 0x0a0b0c };
	struct bytetable bt;
	static const uint8_t want[6] = { 1, 2, 3, 0x0a, 0x0b, 0x0c };

	ck_assert_int_eq(bytetable_build(&bt, v, 2, NULL), 0);
	ck_assert_uint_eq(bt.depth, 3);
	ck_assert_int_eq(memcmp(bt.data, want, 6), 0);
	bytetable_free(&bt);
}
END_TEST

START_TEST(test_zero_and_empty_tables)
{
	uint64_t z[1000];
	struct bytetable bt;

	memset(z, 0, sizeof(z));
	/* All zero: depth 0, no bytes, but the entry count is kept for the
	 * descriptor's max_index. */
	ck_assert_int_eq(bytetable_build(&bt, z, 1000, NULL), 0);
	shape_is(&bt, 0, 0, 1000);
	ck_assert_ptr_null(bt.data);
	ck_assert_uint_eq(axfs_bytetable_get(bt.data, bt.depth, 999), 0);
	bytetable_free(&bt);

	ck_assert_int_eq(bytetable_build(&bt, NULL, 0, NULL), 0);
	shape_is(&bt, 0, 0, 0);
	bytetable_free(&bt);
}
END_TEST

START_TEST(test_u8_tables)
{
	uint8_t types[5] = { 0, 1, 2, 1, 0 };
	uint8_t xip[3] = { 0, 0, 0 };
	struct bytetable bt;

	ck_assert_int_eq(bytetable_build_u8(&bt, types, 5, NULL), 0);
	ck_assert_uint_eq(bt.depth, 1);
	ck_assert_uint_eq(bt.size, 5);
	ck_assert_int_eq(memcmp(bt.data, types, 5), 0);
	bytetable_free(&bt);
	/* All XIP (type 0): depth 0, which the driver reads as XIP. */
	ck_assert_int_eq(bytetable_build_u8(&bt, xip, 3, NULL), 0);
	shape_is(&bt, 0, 0, 3);
	bytetable_free(&bt);
}
END_TEST

Suite *suite_bytetable(void)
{
	Suite *s = suite_create("bytetable");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_min_depth);
	tcase_add_test(tc, test_build_roundtrip);
	tcase_add_test(tc, test_big_endian_bytes);
	tcase_add_test(tc, test_zero_and_empty_tables);
	tcase_add_test(tc, test_u8_tables);
	suite_add_tcase(s, tc);
	return s;
}
