// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compressors (compressor.c): names, versions and level ranges as the
 * options and the policy use them, and the deflater, whose streams zlib
 * itself must inflate back to the data (the kernel inflates with zlib).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>

#include "axfs_compressor.h"
#include "deflater.h"

START_TEST(test_names)
{
	ck_assert_int_eq(AXFS_DEFAULT_COMPRESSOR, AXFS_COMPRESSOR_LIBDEFLATE);
	ck_assert_int_eq(axfs_compressor_resolve(AXFS_COMPRESSOR_DEFAULT),
			 AXFS_COMPRESSOR_LIBDEFLATE);
	ck_assert_int_eq(axfs_compressor_resolve(AXFS_COMPRESSOR_ZLIB),
			 AXFS_COMPRESSOR_ZLIB);
	ck_assert_str_eq(axfs_compressor_name(AXFS_COMPRESSOR_LIBDEFLATE),
			 "libdeflate");
	ck_assert_str_eq(axfs_compressor_name(AXFS_COMPRESSOR_ZLIB), "zlib");
	ck_assert_str_eq(axfs_compressor_name(AXFS_COMPRESSOR_DEFAULT),
			 "libdeflate");
	ck_assert_ptr_null(axfs_compressor_name((enum axfs_compressor)7));
	ck_assert_int_eq(axfs_compressor_by_name("zlib"), AXFS_COMPRESSOR_ZLIB);
	ck_assert_int_eq(axfs_compressor_by_name("libdeflate"),
			 AXFS_COMPRESSOR_LIBDEFLATE);
	/* no near misses: a name is exact */
	ck_assert_int_eq(axfs_compressor_by_name("ZLIB"),
			 AXFS_COMPRESSOR_DEFAULT);
	ck_assert_int_eq(axfs_compressor_by_name("gzip"),
			 AXFS_COMPRESSOR_DEFAULT);
	ck_assert_int_eq(axfs_compressor_by_name(""), AXFS_COMPRESSOR_DEFAULT);
	ck_assert_int_eq(axfs_compressor_by_name(NULL),
			 AXFS_COMPRESSOR_DEFAULT);
	ck_assert_str_eq(axfs_compressor_names(), "libdeflate or zlib");
	/* the versions of the libraries this was built and is running with */
	ck_assert_str_eq(axfs_compressor_version(AXFS_COMPRESSOR_LIBDEFLATE),
			 LIBDEFLATE_VERSION_STRING);
	ck_assert_str_eq(axfs_compressor_version(AXFS_COMPRESSOR_ZLIB),
			 zlibVersion());
}
END_TEST

START_TEST(test_levels)
{
	struct axfs_error err;

	ck_assert_int_eq(axfs_compressor_max_level(AXFS_COMPRESSOR_ZLIB), 9);
	ck_assert_int_eq(axfs_compressor_max_level(AXFS_COMPRESSOR_LIBDEFLATE),
			 12);
	ck_assert_int_eq(axfs_compressor_max_level(AXFS_COMPRESSOR_DEFAULT), 12);
	ck_assert_int_eq(axfs_compressor_max_level((enum axfs_compressor)7), 0);
	for (int l = 1; l <= 12; l++) {
		ck_assert_int_eq(axfs_compressor_check_level(
			AXFS_COMPRESSOR_LIBDEFLATE, l, NULL, &err), 0);
		ck_assert_int_eq(axfs_compressor_check_level(
			AXFS_COMPRESSOR_ZLIB, l, NULL, &err),
			l <= 9 ? 0 : AXFS_ERR_INVALID);
	}
	ck_assert_int_eq(axfs_compressor_check_level(AXFS_COMPRESSOR_ZLIB, 10,
						     NULL, &err),
			 AXFS_ERR_INVALID);
	ck_assert_str_eq(err.msg, "compression level 10 is out of range for "
			 "zlib (1 to 9)");
	ck_assert_int_eq(axfs_compressor_check_level(AXFS_COMPRESSOR_DEFAULT,
						     13, NULL, &err),
			 AXFS_ERR_INVALID);
	ck_assert_str_eq(err.msg, "compression level 13 is out of range for "
			 "libdeflate (1 to 12)");
	ck_assert_int_eq(axfs_compressor_check_level(AXFS_COMPRESSOR_ZLIB, 0,
			 "p.yaml:2:10: compression.level: ", &err),
			 AXFS_ERR_INVALID);
	ck_assert_str_eq(err.msg, "p.yaml:2:10: compression.level: 0 is out "
			 "of range for zlib (1 to 9)");
	ck_assert_int_eq(axfs_compressor_check_level((enum axfs_compressor)7, 9,
						     NULL, &err),
			 AXFS_ERR_INVALID);
	ck_assert_str_eq(err.msg, "unknown compressor 7 (use libdeflate or zlib)");
}
END_TEST

/* Text that compresses, made from a seed. */
static unsigned char *sample(size_t len, unsigned int seed)
{
	static const char *const words[] = { "axfs ", "page ", "cblock ",
		"node ", "inflate ", "kernel ", "\n", "0123 " };
	unsigned char *b = malloc(len);

	for (size_t i = 0; i < len;) {
		const char *w = words[(seed = seed * 1103515245u + 12345u) >> 29];

		for (size_t k = 0; w[k] && i < len; k++)
			b[i++] = (unsigned char)w[k];
	}
	return b;
}

/* Each compressor's stream, at every level, is one zlib stream of the
 * data; the two libraries write different bytes. */
START_TEST(test_deflater_roundtrip)
{
	static const enum axfs_compressor cs[] = { AXFS_COMPRESSOR_ZLIB,
						   AXFS_COMPRESSOR_LIBDEFLATE };
	const size_t len = 65536;
	unsigned char *in = sample(len, 7), *back = malloc(len);
	unsigned char *z[2];
	size_t zlen[2];

	for (int i = 0; i < 2; i++) {
		size_t cap = deflater_bound(cs[i], len);

		ck_assert_uint_ge(cap, len);
		z[i] = malloc(cap);
		for (int l = 1; l <= axfs_compressor_max_level(cs[i]); l++) {
			struct deflater *d = deflater_new(cs[i], l);
			uLongf blen = len;
			size_t n;

			ck_assert_ptr_nonnull(d);
			n = deflater_run(d, in, len, z[i], cap);
			ck_assert_uint_gt(n, 0);
			ck_assert_uint_lt(n, len / 2);
			ck_assert_int_eq(z[i][0] & 0x0f, 8);	/* deflate */
			ck_assert_uint_le(z[i][0] >> 4, 7);	/* window <= 32 KiB */
			ck_assert_int_eq(uncompress(back, &blen, z[i], n), Z_OK);
			ck_assert_uint_eq(blen, len);
			ck_assert_int_eq(memcmp(back, in, len), 0);
			/* the same deflater again: the same bytes */
			ck_assert_uint_eq(deflater_run(d, in, len, back, cap), n);
			ck_assert_int_eq(memcmp(back, z[i], n), 0);
			zlen[i] = n;
			deflater_free(d);
		}
	}
	/* at level 9 (left in z[0]) and 12 (z[1]) */
	ck_assert(zlen[0] != zlen[1] || memcmp(z[0], z[1], zlen[0]));
	/* no room: 0, never a partial stream */
	{
		struct deflater *d = deflater_new(AXFS_COMPRESSOR_ZLIB, 9);

		ck_assert_uint_eq(deflater_run(d, in, len, z[0], 16), 0);
		deflater_free(d);
		d = deflater_new(AXFS_COMPRESSOR_LIBDEFLATE, 9);
		ck_assert_uint_eq(deflater_run(d, in, len, z[1], 16), 0);
		deflater_free(d);
	}
	deflater_free(NULL);
	free(z[0]);
	free(z[1]);
	free(in);
	free(back);
}
END_TEST

Suite *suite_compressor(void)
{
	Suite *s = suite_create("compressor");
	TCase *tc = tcase_create("compressor");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_levels);
	tcase_add_test(tc, test_deflater_roundtrip);
	suite_add_tcase(s, tc);
	return s;
}
