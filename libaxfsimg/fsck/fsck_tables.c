// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_tables.c - reading the image's bytes safely: one zlib stream
 * inflated into a bounded buffer, the first non-zero byte of a range, the
 * byte offset a finding names, an entry of a loaded table.
 */
#include <stdint.h>
#include <string.h>

#include "axfs_format.h"
#include "internal.h"

/* ---- zlib ------------------------------------------------------------- */

/*
 * Inflates the zlib stream src[0, slen) into dst[0, dcap).  FSCK_Z_OK: the
 * stream ended within dcap bytes (*out_len); FSCK_Z_OVER: it has more than
 * dcap bytes; FSCK_Z_TRUNC: the input ended first; FSCK_Z_BAD: not a valid
 * zlib stream (*msg).  *in_used is how much input the stream took.
 */
enum fsck_z fsck_inflate(z_stream *zs, const uint8_t *src, uint64_t slen,
			 uint8_t *dst, uint64_t dcap, uint64_t *out_len,
			 uint64_t *in_used, const char **msg)
{
	uint64_t in_left = slen, out_left = dcap;
	int ret;

	*msg = NULL;
	if (inflateReset(zs) != Z_OK) {
		*msg = "cannot reset zlib";
		return FSCK_Z_BAD;
	}
	zs->next_in = (Bytef *)(uintptr_t)src;
	zs->next_out = dst;
	for (;;) {
		uInt ai = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
		uInt ao = out_left > (1u << 30) ? (1u << 30) : (uInt)out_left;
		uInt ai0 = ai, ao0 = ao;

		zs->avail_in = ai;
		zs->avail_out = ao;
		ret = inflate(zs, Z_NO_FLUSH);
		in_left -= ai0 - zs->avail_in;
		out_left -= ao0 - zs->avail_out;
		if (ret == Z_STREAM_END)
			break;
		if (ret == Z_NEED_DICT) {
			*msg = "the stream needs a preset dictionary";
			ret = Z_DATA_ERROR;
		}
		if (ret == Z_DATA_ERROR || ret == Z_STREAM_ERROR ||
		    ret == Z_MEM_ERROR) {
			if (!*msg)
				*msg = zs->msg ? zs->msg : "invalid stream";
			*out_len = dcap - out_left;
			*in_used = slen - in_left;
			return FSCK_Z_BAD;
		}
		/* Z_OK or Z_BUF_ERROR: no progress possible without room
		 * or input. */
		if (out_left == 0 && zs->avail_out == 0) {
			*out_len = dcap;
			*in_used = slen - in_left;
			return FSCK_Z_OVER;
		}
		if (in_left == 0 && zs->avail_in == 0 &&
		    (ret == Z_BUF_ERROR || zs->avail_out != 0)) {
			*out_len = dcap - out_left;
			*in_used = slen;
			return FSCK_Z_TRUNC;
		}
	}
	*out_len = dcap - out_left;
	*in_used = slen - in_left;
	return FSCK_Z_OK;
}

int fsck_all_zero(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Word at a time: the deep check reads every padding byte. */
int fsck_first_nonzero(const uint8_t *p, uint64_t n, uint64_t *first)
{
	uint64_t i = 0;

	for (; n - i >= 64; i += 64) {
		uint64_t w[8];

		memcpy(w, p + i, sizeof(w));	/* no aliasing games */
		if (w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7])
			break;
	}
	for (; i < n; i++)
		if (p[i]) {
			*first = i;
			return 1;
		}
	return 0;
}

/* ---- offsets -------------------------------------------------------------- */

uint64_t fsck_region_off(const struct fsck *f, enum axfs_region r,
			 uint64_t off)
{
	const struct fsck_region *R = &f->r[r];

	/* Bytes of a region stored compressed have no image offset of their
	 * own: name the start of its zlib stream. */
	if (R->compressed_size || off > UINT64_MAX - R->fsoffset)
		return R->fsoffset;
	return R->fsoffset + off;
}

uint64_t fsck_table_off(const struct fsck *f, enum axfs_region r, uint64_t i)
{
	uint64_t b;

	if (__builtin_mul_overflow(i, (uint64_t)f->r[r].depth, &b))
		return f->r[r].fsoffset;
	return fsck_region_off(f, r, b);
}

int fsck_table(struct fsck *f, enum axfs_region r, uint64_t i, uint64_t *v)
{
	struct fsck_region *R = &f->r[r];

	if (!R->table_ok || i >= R->entries) {
		*v = 0;
		return -1;
	}
	*v = axfs_bytetable_get(R->data, R->depth, i);
	return 0;
}

