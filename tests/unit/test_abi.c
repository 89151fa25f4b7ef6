// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ABI of libaxfsimg.so.0: every public struct's size and every
 * member's offset (on LP64: x86_64, arm64 ...), and every public enum's
 * values, as the first release has them -- as squashfs-tools-ng's abi.c
 * does.  A change here breaks programs built against an earlier release:
 * add members at the end of an option struct (which carries struct_size),
 * or raise SOVERSION (Makefile) and regenerate this table.  Also: the
 * option structs' struct_size check, and axfs_build()'s opaque result.
 * Generated once from the headers (gdb ptype /o), then kept by hand.
 */
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_build.h"
#include "axfs_cblock_pool.h"
#include "axfs_compressor.h"
#include "axfs_error.h"
#include "axfs_format.h"
#include "axfs_fsck.h"
#include "axfs_ftype.h"
#include "axfs_policy.h"
#include "axfs_profile.h"
#include "axfs_reader.h"
#include "axfs_stream.h"
#include "axfs_vfs.h"
#include "unit.h"
#include "unit_build.h"

struct pin {
	const char *what;
	long long got, want;
};

#define SIZE(s, n) { "sizeof(struct " #s ")", (long long)sizeof(struct s), n }
#define OFF(s, f, n) { "offsetof(struct " #s ", " #f ")", \
		       (long long)offsetof(struct s, f), n }
#define VAL(e, n) { #e, (long long)(e), n }

#if defined(__LP64__)
static const struct pin layout[] = {
	SIZE(axfs_build_opts, 256),
	OFF(axfs_build_opts, struct_size, 0),
	OFF(axfs_build_opts, source, 8),
	OFF(axfs_build_opts, source_store, 16),
	OFF(axfs_build_opts, output, 24),
	OFF(axfs_build_opts, block_size, 32),
	OFF(axfs_build_opts, level, 36),
	OFF(axfs_build_opts, compressor, 40),
	OFF(axfs_build_opts, jobs, 44),
	OFF(axfs_build_opts, has_timestamp, 48),
	OFF(axfs_build_opts, timestamp, 56),
	OFF(axfs_build_opts, all_root, 64),
	OFF(axfs_build_opts, force_uid, 72),
	OFF(axfs_build_opts, force_gid, 80),
	OFF(axfs_build_opts, xip_globs, 88),
	OFF(axfs_build_opts, n_xip_globs, 96),
	OFF(axfs_build_opts, policy, 104),
	OFF(axfs_build_opts, profile, 112),
	OFF(axfs_build_opts, has_budget, 120),
	OFF(axfs_build_opts, budget, 128),
	OFF(axfs_build_opts, mmap_limit, 136),
	OFF(axfs_build_opts, xip_suffix, 144),
	OFF(axfs_build_opts, pad_size, 152),
	OFF(axfs_build_opts, pad_byte, 160),
	OFF(axfs_build_opts, compress_metadata, 164),
	OFF(axfs_build_opts, xattrs, 168),
	OFF(axfs_build_opts, tmpdir, 176),
	OFF(axfs_build_opts, log, 184),
	OFF(axfs_build_opts, progress, 192),
	OFF(axfs_build_opts, progress_ctx, 200),
	OFF(axfs_build_opts, cancel, 208),
	OFF(axfs_build_opts, exclude_globs, 216),
	OFF(axfs_build_opts, exclude_where, 224),
	OFF(axfs_build_opts, n_exclude_globs, 232),
	OFF(axfs_build_opts, strict_profile, 240),
	OFF(axfs_build_opts, max_holes, 248),
	SIZE(axfs_build_summary, 88),
	OFF(axfs_build_summary, image_size, 0),
	OFF(axfs_build_summary, mmap_size, 8),
	OFF(axfs_build_summary, inodes, 16),
	OFF(axfs_build_summary, pages, 24),
	OFF(axfs_build_summary, xip_pages, 32),
	OFF(axfs_build_summary, compressed_pages, 40),
	OFF(axfs_build_summary, byte_aligned_pages, 48),
	OFF(axfs_build_summary, cblocks, 56),
	OFF(axfs_build_summary, block_size, 64),
	OFF(axfs_build_summary, compressor, 68),
	OFF(axfs_build_summary, level, 72),
	OFF(axfs_build_summary, timestamp, 80),
	SIZE(axfs_cblock_pool_stats, 56),
	OFF(axfs_cblock_pool_stats, hits, 0),
	OFF(axfs_cblock_pool_stats, inflated, 8),
	OFF(axfs_cblock_pool_stats, waited, 16),
	OFF(axfs_cblock_pool_stats, evicted, 24),
	OFF(axfs_cblock_pool_stats, bypassed, 32),
	OFF(axfs_cblock_pool_stats, slots, 40),
	OFF(axfs_cblock_pool_stats, held, 48),
	SIZE(axfs_error, 1032),
	OFF(axfs_error, code, 0),
	OFF(axfs_error, sys_errno, 4),
	OFF(axfs_error, msg, 8),
	SIZE(axfs_logger, 16),
	OFF(axfs_logger, fn, 0),
	OFF(axfs_logger, ctx, 8),
	SIZE(axfs_fsck_finding, 48),
	OFF(axfs_fsck_finding, severity, 0),
	OFF(axfs_fsck_finding, check, 8),
	OFF(axfs_fsck_finding, offset, 16),
	OFF(axfs_fsck_finding, path, 24),
	OFF(axfs_fsck_finding, ino, 32),
	OFF(axfs_fsck_finding, message, 40),
	SIZE(axfs_fsck_opts, 80),
	OFF(axfs_fsck_opts, struct_size, 0),
	OFF(axfs_fsck_opts, deep, 8),
	OFF(axfs_fsck_opts, digest, 12),
	OFF(axfs_fsck_opts, max_memory, 16),
	OFF(axfs_fsck_opts, per_check_limit, 24),
	OFF(axfs_fsck_opts, report, 32),
	OFF(axfs_fsck_opts, report_ctx, 40),
	OFF(axfs_fsck_opts, progress, 48),
	OFF(axfs_fsck_opts, progress_ctx, 56),
	OFF(axfs_fsck_opts, log, 64),
	OFF(axfs_fsck_opts, cancel, 72),
	SIZE(axfs_fsck_result, 88),
	OFF(axfs_fsck_result, errors, 0),
	OFF(axfs_fsck_result, warnings, 8),
	OFF(axfs_fsck_result, notices, 16),
	OFF(axfs_fsck_result, image_size, 24),
	OFF(axfs_fsck_result, inodes, 32),
	OFF(axfs_fsck_result, nodes, 40),
	OFF(axfs_fsck_result, cblocks, 48),
	OFF(axfs_fsck_result, data_bytes, 56),
	OFF(axfs_fsck_result, digest, 64),
	OFF(axfs_fsck_result, digest_sha1, 68),
	SIZE(axfs_fsck_check, 24),
	OFF(axfs_fsck_check, id, 0),
	OFF(axfs_fsck_check, severity, 8),
	OFF(axfs_fsck_check, summary, 16),
	SIZE(axfs_policy_rule, 72),
	OFF(axfs_policy_rule, match, 0),
	OFF(axfs_policy_rule, has_mode, 8),
	OFF(axfs_policy_rule, mode, 12),
	OFF(axfs_policy_rule, has_uid, 16),
	OFF(axfs_policy_rule, uid, 20),
	OFF(axfs_policy_rule, has_gid, 24),
	OFF(axfs_policy_rule, gid, 28),
	OFF(axfs_policy_rule, compress, 32),
	OFF(axfs_policy_rule, xip, 36),
	OFF(axfs_policy_rule, type, 40),
	OFF(axfs_policy_rule, line, 48),
	OFF(axfs_policy_rule, column, 56),
	OFF(axfs_policy_rule, matched, 64),
	SIZE(axfs_policy_device, 48),
	OFF(axfs_policy_device, path, 0),
	OFF(axfs_policy_device, type, 8),
	OFF(axfs_policy_device, major, 12),
	OFF(axfs_policy_device, minor, 16),
	OFF(axfs_policy_device, mode, 20),
	OFF(axfs_policy_device, uid, 24),
	OFF(axfs_policy_device, gid, 28),
	OFF(axfs_policy_device, line, 32),
	OFF(axfs_policy_device, column, 40),
	SIZE(axfs_policy, 240),
	OFF(axfs_policy, file, 0),
	OFF(axfs_policy, compressor, 8),
	OFF(axfs_policy, level, 12),
	OFF(axfs_policy, block_size, 16),
	OFF(axfs_policy, has_xip_budget, 20),
	OFF(axfs_policy, xip_budget, 24),
	OFF(axfs_policy, xip_min_count, 32),
	OFF(axfs_policy, xip_suffix, 40),
	OFF(axfs_policy, xip_files, 48),
	OFF(axfs_policy, n_xip_files, 56),
	OFF(axfs_policy, xip_exclude, 64),
	OFF(axfs_policy, n_xip_exclude, 72),
	OFF(axfs_policy, xip_files_pos, 80),
	OFF(axfs_policy, xip_exclude_pos, 88),
	OFF(axfs_policy, level_pos, 96),
	OFF(axfs_policy, all_root, 112),
	OFF(axfs_policy, has_uid, 116),
	OFF(axfs_policy, uid, 120),
	OFF(axfs_policy, has_gid, 124),
	OFF(axfs_policy, gid, 128),
	OFF(axfs_policy, rules, 136),
	OFF(axfs_policy, n_rules, 144),
	OFF(axfs_policy, devices, 152),
	OFF(axfs_policy, n_devices, 160),
	OFF(axfs_policy, has_timestamp, 168),
	OFF(axfs_policy, timestamp, 176),
	OFF(axfs_policy, mmap_limit, 184),
	OFF(axfs_policy, xattrs, 192),
	OFF(axfs_policy, pad_size, 200),
	OFF(axfs_policy, pad_byte, 208),
	OFF(axfs_policy, strict_profile, 212),
	OFF(axfs_policy, exclude, 216),
	OFF(axfs_policy, n_exclude, 224),
	OFF(axfs_policy, exclude_pos, 232),
	SIZE(axfs_profile_entry, 48),
	OFF(axfs_profile_entry, path, 0),
	OFF(axfs_profile_entry, offset, 8),
	OFF(axfs_profile_entry, count, 16),
	OFF(axfs_profile_entry, file, 24),
	OFF(axfs_profile_entry, line, 32),
	OFF(axfs_profile_entry, first, 40),
	SIZE(axfs_profile, 32),
	OFF(axfs_profile, v, 0),
	OFF(axfs_profile, n, 8),
	OFF(axfs_profile, cap, 16),
	OFF(axfs_profile, log, 24),
	SIZE(axfs_super_info, 264),
	OFF(axfs_super_info, magic, 0),
	OFF(axfs_super_info, signature, 4),
	OFF(axfs_super_info, digest, 20),
	OFF(axfs_super_info, cblock_size, 60),
	OFF(axfs_super_info, files, 64),
	OFF(axfs_super_info, size, 72),
	OFF(axfs_super_info, blocks, 80),
	OFF(axfs_super_info, mmap_size, 88),
	OFF(axfs_super_info, region_desc, 96),
	OFF(axfs_super_info, version_major, 240),
	OFF(axfs_super_info, version_minor, 241),
	OFF(axfs_super_info, version_sub, 242),
	OFF(axfs_super_info, compression_type, 243),
	OFF(axfs_super_info, timestamp, 248),
	OFF(axfs_super_info, page_shift, 256),
	SIZE(axfs_region_info, 56),
	OFF(axfs_region_info, desc_offset, 0),
	OFF(axfs_region_info, fsoffset, 8),
	OFF(axfs_region_info, size, 16),
	OFF(axfs_region_info, compressed_size, 24),
	OFF(axfs_region_info, max_index, 32),
	OFF(axfs_region_info, depth, 40),
	OFF(axfs_region_info, incore, 41),
	OFF(axfs_region_info, data, 48),
	SIZE(axfs_inode_info, 88),
	OFF(axfs_inode_info, ino, 0),
	OFF(axfs_inode_info, mode, 8),
	OFF(axfs_inode_info, uid, 12),
	OFF(axfs_inode_info, gid, 16),
	OFF(axfs_inode_info, file_size, 24),
	OFF(axfs_inode_info, size, 32),
	OFF(axfs_inode_info, num_entries, 40),
	OFF(axfs_inode_info, array_index, 48),
	OFF(axfs_inode_info, mode_index, 56),
	OFF(axfs_inode_info, name_offset, 64),
	OFF(axfs_inode_info, name, 72),
	OFF(axfs_inode_info, name_len, 80),
	SIZE(axfs_page_loc, 64),
	OFF(axfs_page_loc, node, 0),
	OFF(axfs_page_loc, type, 8),
	OFF(axfs_page_loc, node_index, 16),
	OFF(axfs_page_loc, cblock, 24),
	OFF(axfs_page_loc, cnode_offset, 32),
	OFF(axfs_page_loc, image_offset, 40),
	OFF(axfs_page_loc, stored_len, 48),
	OFF(axfs_page_loc, data_len, 56),
	SIZE(axfs_open_opts, 32),
	OFF(axfs_open_opts, struct_size, 0),
	OFF(axfs_open_opts, lenient, 8),
	OFF(axfs_open_opts, store_path, 16),
	OFF(axfs_open_opts, max_memory, 24),
	SIZE(axfs_stream_file, 16),
	OFF(axfs_stream_file, ino, 0),
	OFF(axfs_stream_file, size, 8),
	SIZE(axfs_stream_opts, 32),
	OFF(axfs_stream_opts, struct_size, 0),
	OFF(axfs_stream_opts, threads, 8),
	OFF(axfs_stream_opts, chunk, 16),
	OFF(axfs_stream_opts, window, 24),
	SIZE(axfs_stream_piece, 32),
	OFF(axfs_stream_piece, file, 0),
	OFF(axfs_stream_piece, offset, 8),
	OFF(axfs_stream_piece, data, 16),
	OFF(axfs_stream_piece, len, 24),
	SIZE(axfs_vfs_opts, 16),
	OFF(axfs_vfs_opts, struct_size, 0),
	OFF(axfs_vfs_opts, cache_bytes, 8),
};
#endif

static const struct pin values[] = {
	VAL(AXFS_COMPRESSOR_DEFAULT, 0),
	VAL(AXFS_COMPRESSOR_LIBDEFLATE, 1),
	VAL(AXFS_COMPRESSOR_ZLIB, 2),
	VAL(AXFS_OK, 0),
	VAL(AXFS_ERR_IO, -1),
	VAL(AXFS_ERR_NOMEM, -2),
	VAL(AXFS_ERR_FORMAT, -3),
	VAL(AXFS_ERR_INVALID, -4),
	VAL(AXFS_ERR_LIMIT, -5),
	VAL(AXFS_ERR_UNSUPPORTED, -6),
	VAL(AXFS_ERR_PARSE, -7),
	VAL(AXFS_ERR_NOT_FOUND, -8),
	VAL(AXFS_ERR_INTERRUPTED, -9),
	VAL(AXFS_ERR_EXISTS, -10),
	VAL(AXFS_LOG_WARN, 0),
	VAL(AXFS_LOG_INFO, 1),
	VAL(AXFS_LOG_DEBUG, 2),
	VAL(AXFS_NODE_XIP, 0),
	VAL(AXFS_NODE_COMPRESSED, 1),
	VAL(AXFS_NODE_BYTE_ALIGNED, 2),
	VAL(AXFS_COMPRESSION_ZLIB, 0),
	VAL(AXFS_R_STRINGS, 0),
	VAL(AXFS_R_XIP, 1),
	VAL(AXFS_R_BYTE_ALIGNED, 2),
	VAL(AXFS_R_COMPRESSED, 3),
	VAL(AXFS_R_NODE_TYPE, 4),
	VAL(AXFS_R_NODE_INDEX, 5),
	VAL(AXFS_R_CNODE_OFFSET, 6),
	VAL(AXFS_R_CNODE_INDEX, 7),
	VAL(AXFS_R_BANODE_OFFSET, 8),
	VAL(AXFS_R_CBLOCK_OFFSET, 9),
	VAL(AXFS_R_INODE_FILE_SIZE, 10),
	VAL(AXFS_R_INODE_NAME_OFFSET, 11),
	VAL(AXFS_R_INODE_NUM_ENTRIES, 12),
	VAL(AXFS_R_INODE_MODE_INDEX, 13),
	VAL(AXFS_R_INODE_ARRAY_INDEX, 14),
	VAL(AXFS_R_MODES, 15),
	VAL(AXFS_R_UIDS, 16),
	VAL(AXFS_R_GIDS, 17),
	VAL(AXFS_REGION_COUNT, 18),
	VAL(AXFS_FSCK_NOTICE, 0),
	VAL(AXFS_FSCK_WARNING, 1),
	VAL(AXFS_FSCK_ERROR, 2),
	VAL(AXFS_FSCK_DIGEST_NOT_CHECKED, 0),
	VAL(AXFS_FSCK_DIGEST_NONE, 1),
	VAL(AXFS_FSCK_DIGEST_OK, 2),
	VAL(AXFS_FSCK_DIGEST_MISMATCH, 3),
	VAL(AXFS_FT_NONE, 0),
	VAL(AXFS_FT_REG, 1),
	VAL(AXFS_FT_DIR, 2),
	VAL(AXFS_FT_LNK, 3),
	VAL(AXFS_FT_CHR, 4),
	VAL(AXFS_FT_BLK, 5),
	VAL(AXFS_FT_FIFO, 6),
	VAL(AXFS_FT_SOCK, 7),
	VAL(AXFS_XATTRS_UNSET, 0),
	VAL(AXFS_XATTRS_WARN, 1),
	VAL(AXFS_XATTRS_ERROR, 2),
	VAL(AXFS_XATTRS_IGNORE, 3),
	VAL(AXFS_PROFILE_SUM, 0),
	VAL(AXFS_PROFILE_MAX, 1),
};

static void check_pins(const struct pin *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(p[i].got == p[i].want,
			      "%s is %lld, %lld in the released ABI: add "
			      "members at the end of option structs, or "
			      "raise SOVERSION", p[i].what, p[i].got,
			      p[i].want);
}

START_TEST(test_struct_layout)
{
#if defined(__LP64__)
	check_pins(layout, sizeof(layout) / sizeof(layout[0]));
#else
	/* The table holds LP64's numbers; an ILP32 build checks the enums. */
	ck_assert_uint_eq(sizeof(long), 4);
#endif
}
END_TEST

START_TEST(test_enum_values)
{
	check_pins(values, sizeof(values) / sizeof(values[0]));
}
END_TEST


/* Options of a size the library does not know are refused, by name. */
START_TEST(test_struct_size_checked)
{
	static const uint8_t junk[4096];
	struct axfs_open_opts oo = { .struct_size = sizeof(oo) - 1 };
	struct axfs_fsck_opts fo;
	struct axfs_fsck_result fr;
	struct axfs_build_opts bo;
	struct axfs_build_result *res = (void *)&bo;
	struct axfs_image *img;
	struct axfs_error err;

	ck_assert_int_eq(axfs_image_open_buffer(&img, junk, sizeof(junk), "j",
						&oo, &err), AXFS_ERR_INVALID);
	ck_assert_ptr_null(img);
	ck_assert_ptr_nonnull(strstr(err.msg, "axfs_image_open_buffer"));
	oo.struct_size = 0;
	ck_assert_int_eq(axfs_image_open(&img, "/nonexistent", &oo, &err),
			 AXFS_ERR_INVALID);

	axfs_fsck_opts_init(&fo);
	ck_assert_uint_eq(fo.struct_size, sizeof(fo));
	fo.struct_size = sizeof(fo) + 8;
	ck_assert_int_eq(axfs_fsck_buffer(junk, sizeof(junk), NULL, 0, "j",
					  &fo, &fr, &err), AXFS_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "axfs_fsck_buffer"));

	axfs_build_opts_init(&bo);
	ck_assert_uint_eq(bo.struct_size, sizeof(bo));
	bo.struct_size = 0;
	bo.source = "/nonexistent";
	bo.output = "/nonexistent/out";
	ck_assert_int_eq(axfs_build(&bo, &res, &err), AXFS_ERR_INVALID);
	ck_assert_ptr_null(res);
	ck_assert_ptr_nonnull(strstr(err.msg, "axfs_build"));
}
END_TEST

static int count_inode(void *ctx, const char *path,
		       const struct axfs_inode_info *ino)
{
	(*(uint64_t *)ctx)++;
	return 0;
}

/* The opaque result's summary says what the image read back holds. */
START_TEST(test_build_summary)
{
	char dir[] = "/tmp/axfs-abi.XXXXXX", tree[64], image[64], f[96];
	static uint8_t data[3 * 4096 + 100];
	const struct axfs_build_summary *s;
	struct axfs_build_result *res = NULL;
	struct axfs_build_opts o;
	struct axfs_image *img;
	struct axfs_error err;
	struct stat st;
	uint64_t inodes = 0;
	FILE *fp;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(tree, sizeof(tree), "%s/t", dir);
	snprintf(image, sizeof(image), "%s/i", dir);
	ck_assert_int_eq(mkdir(tree, 0755), 0);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + i / 4096);
	snprintf(f, sizeof(f), "%s/file", tree);
	fp = fopen(f, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(data, 1, sizeof(data), fp), sizeof(data));
	ck_assert_int_eq(fclose(fp), 0);
	snprintf(f, sizeof(f), "%s/sub", tree);
	ck_assert_int_eq(mkdir(f, 0755), 0);

	unit_build_opts(&o, tree, image, 4096);
	ck_assert_msg(axfs_build(&o, &res, &err) == 0, "%s", err.msg);
	s = axfs_build_summary(res);
	ck_assert_int_eq(stat(image, &st), 0);
	ck_assert_uint_eq(s->image_size, (uint64_t)st.st_size);
	ck_assert_uint_eq(s->inodes, 3);
	ck_assert_uint_eq(s->pages, 4);
	ck_assert_uint_eq(s->xip_pages + s->compressed_pages +
			  s->byte_aligned_pages, s->pages);
	ck_assert_uint_eq(s->block_size, 4096);
	ck_assert_int_eq(s->level, 1);
	ck_assert_int_eq(s->timestamp, 1700000000);
	ck_assert_int_ne(s->compressor, AXFS_COMPRESSOR_DEFAULT);
	axfs_build_result_free(res);

	ck_assert_int_eq(axfs_image_open(&img, image, NULL, &err), 0);
	ck_assert_int_eq(axfs_image_walk(img, count_inode, &inodes, &err), 0);
	axfs_image_close(img);
	ck_assert_uint_eq(inodes, 3);
	unit_remove_tree(dir);
}
END_TEST

Suite *suite_abi(void)
{
	Suite *s = suite_create("abi");
	TCase *tc = tcase_create("abi");

	tcase_add_test(tc, test_struct_layout);
	tcase_add_test(tc, test_enum_values);
	tcase_add_test(tc, test_struct_size_checked);
	tcase_add_test(tc, test_build_summary);
	suite_add_tcase(s, tc);
	return s;
}
