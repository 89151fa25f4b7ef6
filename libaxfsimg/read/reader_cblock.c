// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * reader_cblock.c - one cblock: where it lies in the compressed region
 * (checked against the driver's rules) and its bytes inflated
 * (axfs_image_cblock()).
 *
 * Both caches of inflated cblocks fill from here: a handle's own
 * (reader_data.c) and the pool shared by threads (cblock_pool.c).  It is a
 * file of its own so that calls run one way: reader_data.c calls
 * cblock_pool.c, and both call this file, which calls neither.
 */
#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <libdeflate.h>

/* Where cblock c lies in the compressed region, checked. */
int reader_cblock_bounds(struct axfs_image *img, uint64_t c, uint64_t *start,
			 uint64_t *end, struct axfs_error *err)
{
	const struct axfs_region_info *cr = &img->reg[AXFS_R_COMPRESSED];
	int rc;

	if ((rc = reader_region_usable(img, AXFS_R_CBLOCK_OFFSET, err)) < 0 ||
	    (rc = reader_region_usable(img, AXFS_R_COMPRESSED, err)) < 0)
		return rc;
	/* cblock_offset has a sentinel: n cblocks, n + 1 entries. */
	if (img->entries[AXFS_R_CBLOCK_OFFSET] == 0 ||
	    c >= img->entries[AXFS_R_CBLOCK_OFFSET] - 1)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      img->reg[AXFS_R_CBLOCK_OFFSET].desc_offset,
				      "cblock %" PRIu64 " does not exist "
				      "(table 'cblock_offset' has %" PRIu64
				      " entries, one more than the cblocks)", c,
				      img->entries[AXFS_R_CBLOCK_OFFSET]);
	if ((rc = reader_table_get(img, AXFS_R_CBLOCK_OFFSET, c, start,
				   err)) < 0 ||
	    (rc = reader_table_get(img, AXFS_R_CBLOCK_OFFSET, c + 1, end,
				   err)) < 0)
		return rc;
	if (*end < *start || *end > cr->size)
		return reader_entry_err(img, err, AXFS_R_CBLOCK_OFFSET, c + 1,
					"cblock %" PRIu64 " would be bytes [%"
					PRIu64 ", %" PRIu64 ") of the compressed "
					"region (%" PRIu64 " bytes)", c, *start,
					*end, cr->size);
	if (!img->cblock_ok)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      AXFS_SB_CBLOCK_SIZE, "cblock_size %" PRIu32
				      " is unusable", img->sb.cblock_size);
	/* The driver copies the stream into a cblock_size buffer unchecked
	 * (axfs(5) rule 17): longer would overflow its heap. */
	if (*end - *start > img->sb.cblock_size)
		return reader_entry_err(img, err, AXFS_R_CBLOCK_OFFSET, c + 1,
					"cblock %" PRIu64 " is %" PRIu64 " bytes "
					"compressed, more than cblock_size %"
					PRIu32, c, *end - *start,
					img->sb.cblock_size);
	return 0;
}

/*
 * Inflates the in_len bytes of img->cin into out (cblock_size bytes) with
 * libdeflate, which inflates 2.3x faster than zlib (bench/RESULTS.md);
 * 1 when it did, 0 to leave the stream to reader_inflate (zlib).
 *
 * What it accepts is what reader_inflate accepts: a stream that ends
 * within cblock_size bytes (fewer is fine: *len says how many), whatever
 * bytes follow it (in_used is not checked, as zlib ignores them too).  A
 * stream it refuses (corrupt, truncated, more than cblock_size) goes
 * through zlib again, which gives the reason and the partial output the
 * tests and fsck expect; so does every stream when the decompressor
 * cannot be allocated.  One difference cannot be undone this way, on
 * hostile input only: libdeflate 1.14 takes a few malformed streams that
 * zlib, and so the kernel, refuse (among them length symbols 286 and 287,
 * distance symbols 30 and 31, more than 286 length or 30 distance codes,
 * an empty or one-symbol code-length code); no compressor writes them.
 * The reader returns data for them where the driver would fail the read.
 * axfs fsck keeps zlib for that reason (fsck.c): it inflates every cblock
 * as the driver does and reports such a stream (cblock.inflate).
 */
static int inflate_fast(struct axfs_image *img, size_t in_len, uint8_t *out,
			size_t *len)
{
	size_t in_used, got;

	if (!img->ld)
		img->ld = libdeflate_alloc_decompressor();
	if (!img->ld ||
	    libdeflate_zlib_decompress_ex(img->ld, img->cin, in_len, out,
					  img->sb.cblock_size, &in_used,
					  &got) != LIBDEFLATE_SUCCESS)
		return 0;
	*len = got;
	return 1;
}

int axfs_image_cblock(struct axfs_image *img, uint64_t c, uint8_t *out,
		      size_t *len, struct axfs_error *err)
{
	const struct axfs_region_info *cr = &img->reg[AXFS_R_COMPRESSED];
	uint64_t start, end;
	char what[64];
	int rc;

	*len = 0;
	rc = reader_cblock_bounds(img, c, &start, &end, err);
	if (rc < 0)
		return rc;
	if (!img->cin) {
		img->cin = malloc(img->sb.cblock_size);
		if (!img->cin)
			return axfs_error_sys(err, ENOMEM, "'%s': cblock buffer",
					      img->name);
	}
	rc = reader_region_read(img, AXFS_R_COMPRESSED, start, img->cin,
			 (size_t)(end - start), err);
	if (rc < 0)
		return rc;
	if (inflate_fast(img, (size_t)(end - start), out, len))
		return 0;
	snprintf(what, sizeof(what), "cblock %" PRIu64, c);
	/* A compressed region stored compressed has no image byte for the
	 * cblock; name the region's stream then. */
	return reader_inflate(img, img->cin, (size_t)(end - start), out,
			      img->sb.cblock_size, len,
			      cr->compressed_size ? cr->fsoffset :
			      cr->fsoffset + start, what, err);
}
