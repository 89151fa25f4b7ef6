// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_super.c - the superblock, the 18 region descriptors, the regions
 * (bounds, overlaps, depths, sizes, inflating the compressed ones, entry
 * counts that must agree across tables), the page_shift byte, and image
 * bytes that belong to nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axfs_format.h"
#include "foreign.h"
#include "internal.h"

/* ---- the superblock ----------------------------------------------------- */

/* Says what follows the image in a longer file or device. */
static void report_trailing(struct fsck *f)
{
	uint64_t n = f->len - f->size, i = 0;
	const uint8_t *p = fsck_bytes(f, f->size, 1);
	uint8_t b0;
	const char *what;

	if (!p)
		return;
	b0 = p[0];
	/* Read a window at a time: a device may have gigabytes here. */
	while (i < n) {
		uint64_t k = n - i < f->win.cap ? n - i : f->win.cap, j;

		p = fsck_bytes(f, f->size + i, k);
		if (!p)
			return;
		for (j = 0; j < k && p[j] == b0; j++)
			;
		i += j;
		if (j < k)
			break;
	}
	what = i < n ? "other bytes" : b0 == 0 ? "all 0x00" :
	       b0 == 0xff ? "all 0xFF" : "other bytes";
	fsck_report(f, f->is_device ? FC_IMAGE_DEVICE : FC_IMAGE_TRAILING,
		    f->size, FSCK_NO_INO, "the %s has %llu bytes; the image "
		    "ends at size %llu, and the %llu bytes after it (not "
		    "part of the image) are %s", f->is_device ? "device" :
		    "file", (unsigned long long)f->len,
		    (unsigned long long)f->size, (unsigned long long)n, what);
}

/* Returns 0 to go on, -1 when this is not an AXFS image at all. */
int fsck_check_superblock(struct fsck *f)
{
	const uint8_t *sb = f->sb, *p;
	uint32_t magic = get_unaligned_be32(sb + AXFS_SB_MAGIC);
	int sig_ok, vmaj = sb[AXFS_SB_VERSION_MAJOR];
	uint32_t cb;

	sig_ok = memcmp(sb + AXFS_SB_SIGNATURE, AXFS_SIGNATURE,
			AXFS_SIGNATURE_LEN) == 0;
	if (magic != AXFS_MAGIC) {
		uint64_t head_len = f->split ? f->seg1_len : f->len;
		const struct foreign_format *ff = NULL;
		char other[96] = "";
		int swapped = 0;

		/* Each view may reuse the window: test one before the next. */
		if (f->split && f->len - f->seg1_len >= 4) {
			p = fsck_bytes(f, f->seg1_len, 4);
			swapped = p && get_unaligned_be32(p) == AXFS_MAGIC;
		}
		if (head_len > FOREIGN_PROBE_SIZE)
			head_len = FOREIGN_PROBE_SIZE;
		p = head_len ? fsck_bytes(f, 0, head_len) : NULL;
		if (p)
			ff = foreign_format(p, head_len);
		if (ff)
			snprintf(other, sizeof(other), " (the magic of %s at "
				 "byte %llu: not an AXFS image)", ff->what,
				 (unsigned long long)ff->offset);
		fsck_report(f, FC_SB_MAGIC, AXFS_SB_MAGIC, FSCK_NO_INO,
			    "magic is 0x%08x, not 0x%08x%s%s", magic, AXFS_MAGIC,
			    swapped ?
			    " (the second file starts with the superblock: the "
			    "segments are swapped; give the mmap segment first)" :
			    "", other);
	}
	if (!sig_ok)
		fsck_report(f, FC_SB_SIGNATURE, AXFS_SB_SIGNATURE, FSCK_NO_INO,
			    "signature is not \"%s\" followed by NUL",
			    AXFS_SIGNATURE);
	if (magic != AXFS_MAGIC && !sig_ok)
		return -1;	/* not AXFS: the rest would be noise */

	/* mkfs writes 1.0.0; the later AXFS tools write major 2. */
	if (!(vmaj == 1 && sb[AXFS_SB_VERSION_MINOR] == 0 &&
	      sb[AXFS_SB_VERSION_SUB] == 0) && vmaj != 2)
		fsck_report(f, FC_SB_VERSION, AXFS_SB_VERSION_MAJOR,
			    FSCK_NO_INO, "unknown format version %u.%u.%u",
			    vmaj, sb[AXFS_SB_VERSION_MINOR],
			    sb[AXFS_SB_VERSION_SUB]);
	if (sb[AXFS_SB_COMPRESSION_TYPE] != AXFS_COMPRESSION_ZLIB)
		fsck_report(f, FC_SB_COMPRESSION, AXFS_SB_COMPRESSION_TYPE,
			    FSCK_NO_INO, "compression_type is %u, not 0 (zlib)",
			    sb[AXFS_SB_COMPRESSION_TYPE]);
	if (!fsck_all_zero(sb + AXFS_SB_PADDING, 4))
		fsck_report(f, FC_SB_PADDING, AXFS_SB_PADDING, FSCK_NO_INO,
			    "superblock padding bytes 244..247 are not zero");

	cb = get_unaligned_be32(sb + AXFS_SB_CBLOCK_SIZE);
	f->cblock_size = cb;
	f->cblock_ok = AXFS_CBLOCK_SIZE_OK(cb);
	if (!f->cblock_ok)
		fsck_report(f, FC_SB_CBLOCK_SIZE, AXFS_SB_CBLOCK_SIZE,
			    FSCK_NO_INO, "cblock_size %u is not a power of two "
			    "from %u to %u", cb, AXFS_CBLOCK_MIN,
			    AXFS_CBLOCK_MAX);

	f->files = get_unaligned_be64(sb + AXFS_SB_FILES);
	f->size = get_unaligned_be64(sb + AXFS_SB_SIZE);
	f->blocks = get_unaligned_be64(sb + AXFS_SB_BLOCKS);
	f->mmap_size = get_unaligned_be64(sb + AXFS_SB_MMAP_SIZE);

	/* Where the image ends: a device may be larger than the image. */
	if (f->split) {
		/* The store segment may be a bigger partition too. */
		if (f->size < f->len && f->size > f->seg1_len) {
			f->limit = f->size;
			report_trailing(f);
		} else if (f->size != f->len)
			fsck_report(f, FC_SB_SIZE, AXFS_SB_SIZE, FSCK_NO_INO,
				    "size is %llu, but the mmap segment (%llu "
				    "bytes) and the store segment (%llu bytes) "
				    "hold %llu", (unsigned long long)f->size,
				    (unsigned long long)f->seg1_len,
				    (unsigned long long)(f->len - f->seg1_len),
				    (unsigned long long)f->len);
		if (f->mmap_size != f->seg1_len)
			fsck_report(f, FC_SB_MMAP_SIZE, AXFS_SB_MMAP_SIZE,
				    FSCK_NO_INO, "mmap_size is %llu, but the mmap "
				    "segment is %llu bytes",
				    (unsigned long long)f->mmap_size,
				    (unsigned long long)f->seg1_len);
	} else if (f->size <= f->len && f->size >= AXFS_SUPER_SIZE) {
		/* The driver reads `size` bytes from the start of the device
		 * and nothing after them: a partition, or the legacy mkfs's
		 * padding to a 4 KiB multiple, may follow. */
		f->limit = f->size;
		if (f->size < f->len)
			report_trailing(f);
	} else if (f->size != f->len) {
		fsck_report(f, FC_SB_SIZE, AXFS_SB_SIZE, FSCK_NO_INO,
			    "size is %llu, but the %s is %llu bytes%s",
			    (unsigned long long)f->size,
			    f->is_device ? "device" : "image",
			    (unsigned long long)f->len,
			    f->size > f->len && f->mmap_size == f->len ?
			    " (the mmap segment of a split image? give the "
			    "store segment too, --store FILE)" :
			    f->size > f->len ? " (truncated?)" : "");
	}
	if (f->size % AXFS_PAGE_SIZE)
		fsck_report(f, FC_SB_SIZE_ALIGN, AXFS_SB_SIZE, FSCK_NO_INO,
			    "size %llu is not a multiple of 4096%s",
			    (unsigned long long)f->size,
			    !f->split && f->size % 512 &&
			    f->len < (f->size | 511) + 1 ?
			    " and the file ends inside a 512-byte sector: on a "
			    "loop device the driver cannot read the end magic" :
			    "");
	p = f->limit >= 4 ? fsck_bytes(f, f->limit - 4, 4) : NULL;
	if (p && get_unaligned_be32(p) != AXFS_MAGIC)
		fsck_report(f, FC_SB_END_MAGIC, f->limit - 4, FSCK_NO_INO,
			    "the last 4 bytes are 0x%08x, not the magic",
			    get_unaligned_be32(p));
	if (f->size > 0xffffffffull) {
		uint32_t at = (uint32_t)(f->size - 4);
		int there = (uint64_t)at + 4 <= f->limit &&
			    (p = fsck_bytes(f, at, 4)) &&
			    get_unaligned_be32(p) == AXFS_MAGIC;

		fsck_report(f, there ? FC_SB_OVER_4GIB : FC_SB_END_MAGIC_U32,
			    AXFS_SB_SIZE, FSCK_NO_INO,
			    "size %llu is above 4 GiB: the 2008 driver looks "
			    "for the end magic at byte %u, where it is %s",
			    (unsigned long long)f->size, at,
			    there ? "present" : "missing");
	}
	if (f->mmap_size > f->size)
		fsck_report(f, FC_SB_MMAP_SIZE, AXFS_SB_MMAP_SIZE, FSCK_NO_INO,
			    "mmap_size %llu is larger than size %llu",
			    (unsigned long long)f->mmap_size,
			    (unsigned long long)f->size);
	else if (f->mmap_size < f->size && f->mmap_size % AXFS_PAGE_SIZE)
		fsck_report(f, FC_SB_MMAP_ALIGN, AXFS_SB_MMAP_SIZE, FSCK_NO_INO,
			    "mmap_size %llu of a split image is not a multiple "
			    "of 4096", (unsigned long long)f->mmap_size);
	return 0;
}

/* The digest field: 20 bytes of SHA-1, then 20 zero bytes. */
void fsck_check_digest_field(struct fsck *f)
{
	if (!fsck_all_zero(f->sb + AXFS_SB_DIGEST + 20, AXFS_SB_DIGEST_LEN - 20))
		fsck_report(f, FC_DIGEST_PADDING, AXFS_SB_DIGEST + 20,
			    FSCK_NO_INO, "bytes 20..39 of the digest field "
			    "are not zero");
}

/* ---- descriptors ---------------------------------------------------------- */

struct span {
	uint64_t start, end;	/* [start, end) */
	int kind;		/* -1 superblock, 0..17 descriptor, 100+r data */
};

/* Appends a span of bytes [start, end) that `kind` claims. */
static void add_span(struct span *sp, int *n, uint64_t start, uint64_t end,
		     int kind)
{
	sp[*n].start = start;
	sp[*n].end = end;
	sp[*n].kind = kind;
	(*n)++;
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->kind - y->kind;
}

static void span_name(const struct span *s, char *buf, size_t len)
{
	if (s->kind < 0)
		snprintf(buf, len, "the superblock");
	else if (s->kind < 100)
		snprintf(buf, len, "the descriptor of '%s'",
			 fsck_region_name(s->kind));
	else if (s->kind == 200)
		snprintf(buf, len, "the end magic");
	else
		snprintf(buf, len, "region '%s'",
			 fsck_region_name(s->kind - 100));
}

void fsck_read_descriptors(struct fsck *f)
{
	struct span sp[AXFS_REGION_COUNT];
	uint8_t desc[AXFS_REGION_COUNT][AXFS_REGION_DESC_SIZE];
	int n = 0;

	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		struct fsck_region *R = &f->r[r];
		uint64_t off = get_unaligned_be64(f->sb + AXFS_SB_REGION(r));
		struct axfs_region_desc_onmedia onmedia;
		const uint8_t *d;

		R->desc_off = off;
		if (off > f->limit || f->limit - off < AXFS_REGION_DESC_SIZE) {
			fsck_report(f, FC_DESC_RANGE, AXFS_SB_REGION(r),
				    FSCK_NO_INO, "the descriptor of region '%s' "
				    "at byte %llu is outside the image (%llu "
				    "bytes)", fsck_region_name(r),
				    (unsigned long long)off,
				    (unsigned long long)f->limit);
			continue;
		}
		d = fsck_bytes(f, off, AXFS_REGION_DESC_SIZE);
		if (!d)
			return;
		memcpy(desc[r], d, AXFS_REGION_DESC_SIZE);
		R->desc_ok = 1;
		memcpy(&onmedia, d, sizeof(onmedia));
		AXFS_REGION_DESC_DECODE(R, &onmedia);
		if (off < AXFS_SUPER_SIZE)
			fsck_report(f, FC_DESC_OVERLAP, AXFS_SB_REGION(r),
				    FSCK_NO_INO, "the descriptor of region '%s' "
				    "at byte %llu overlaps the superblock",
				    fsck_region_name(r),
				    (unsigned long long)off);
		sp[n].start = off;
		sp[n].end = off + AXFS_REGION_DESC_SIZE;
		sp[n].kind = r;
		n++;
	}
	/* Padding and incore once per distinct descriptor. */
	qsort(sp, (size_t)n, sizeof(sp[0]), cmp_span);
	for (int i = 0; i < n; i++) {
		int r = sp[i].kind;
		const uint8_t *d = desc[r];

		if (i > 0 && sp[i].start == sp[i - 1].start) {
			/* Empty regions may share one all-zero descriptor. */
			if (!fsck_all_zero(d, AXFS_REGION_DESC_SIZE))
				fsck_report(f, FC_DESC_OVERLAP,
					    AXFS_SB_REGION(r), FSCK_NO_INO,
					    "regions '%s' and '%s' share the "
					    "non-empty descriptor at byte %llu",
					    fsck_region_name(sp[i - 1].kind),
					    fsck_region_name(r),
					    (unsigned long long)sp[i].start);
			continue;
		}
		if (i > 0 && sp[i].start < sp[i - 1].end)
			fsck_report(f, FC_DESC_OVERLAP, AXFS_SB_REGION(r),
				    FSCK_NO_INO, "the descriptor of '%s' at byte "
				    "%llu overlaps the descriptor of '%s' at "
				    "byte %llu", fsck_region_name(r),
				    (unsigned long long)sp[i].start,
				    fsck_region_name(sp[i - 1].kind),
				    (unsigned long long)sp[i - 1].start);
		if (!fsck_all_zero(d + AXFS_RD_PADDING, 6))
			fsck_report(f, FC_DESC_PADDING,
				    sp[i].start + AXFS_RD_PADDING, FSCK_NO_INO,
				    "padding bytes of the descriptor of '%s' are "
				    "not zero", fsck_region_name(r));
		if (d[AXFS_RD_INCORE] > 1)
			fsck_report(f, FC_DESC_INCORE,
				    sp[i].start + AXFS_RD_INCORE, FSCK_NO_INO,
				    "incore flag of '%s' is %u, not 0 or 1",
				    fsck_region_name(r), d[AXFS_RD_INCORE]);
	}
}

/* ---- regions ------------------------------------------------------------ */

/* Inflates a metadata region into a buffer that grows with the output, so
 * a lying `size` never decides an allocation. */
static void inflate_region(struct fsck *f, enum axfs_region r)
{
	struct fsck_region *R = &f->r[r];
	uint64_t cap, have = 0, reserved = 0, in_used = 0, total_in = 0;
	uint64_t fed = 0;	/* compressed bytes handed to zlib */
	uint8_t *buf = NULL;
	int ret = Z_OK;
	const char *why = NULL;

	/* zlib's expansion bound; leave room to see "more". */
	cap = R->size;
	if (R->compressed_size <= (UINT64_MAX - 64) / AXFS_ZLIB_MAX_RATIO &&
	    cap > R->compressed_size * AXFS_ZLIB_MAX_RATIO + 64)
		cap = R->compressed_size * AXFS_ZLIB_MAX_RATIO + 64;
	if (inflateReset(&f->zs) != Z_OK)
		return;
	f->zs.avail_in = 0;
	for (;;) {
		uint64_t room;
		uInt ai, ao, ai0, ao0;

		if (have == reserved) {
			uint64_t grow = reserved ? reserved : 65536;
			uint8_t *nb;

			if (have > cap) {
				why = "more";
				break;
			}
			if (grow > cap + 1 - reserved)
				grow = cap + 1 - reserved;
			if (fsck_mem_reserve(f, grow, R->fsoffset,
					     "inflating a region") < 0)
				break;
			nb = realloc(buf, (size_t)(reserved + grow));
			if (!nb) {
				fsck_mem_release(f, grow);
				fsck_report(f, FC_LIMIT_MEMORY, R->fsoffset,
					    FSCK_NO_INO, "cannot allocate %llu "
					    "bytes to inflate region '%s'",
					    (unsigned long long)(reserved + grow),
					    fsck_region_name(r));
				break;
			}
			buf = nb;
			reserved += grow;
		}
		room = reserved - have;
		/* The compressed bytes a window at a time. */
		if (f->zs.avail_in == 0 && fed < R->compressed_size) {
			uint64_t k = R->compressed_size - fed < f->win.cap ?
				     R->compressed_size - fed : f->win.cap;
			const uint8_t *src = fsck_bytes(f, R->fsoffset + fed, k);

			if (!src)
				break;
			f->zs.next_in = (Bytef *)(uintptr_t)src;
			f->zs.avail_in = (uInt)k;
			fed += k;
		}
		ai = f->zs.avail_in;
		ao = room > (1u << 30) ? (1u << 30) : (uInt)room;
		ai0 = ai;
		ao0 = ao;
		f->zs.next_out = buf + have;
		f->zs.avail_out = ao;
		ret = inflate(&f->zs, Z_NO_FLUSH);
		total_in += ai0 - f->zs.avail_in;
		have += ao0 - f->zs.avail_out;
		if (ret == Z_STREAM_END)
			break;
		if (ret == Z_NEED_DICT || ret == Z_DATA_ERROR ||
		    ret == Z_STREAM_ERROR || ret == Z_MEM_ERROR) {
			why = f->zs.msg ? f->zs.msg : "invalid zlib stream";
			break;
		}
		if (total_in == R->compressed_size && f->zs.avail_out != 0) {
			why = "truncated";
			break;
		}
		if (have > cap) {
			why = "more";
			break;
		}
	}
	in_used = total_in;
	if (ret == Z_STREAM_END && have == R->size) {
		R->data = buf;
		R->owned = buf;
		if (in_used < R->compressed_size)
			fsck_report(f, FC_REGION_STREAM_TAIL,
				    R->fsoffset + in_used, FSCK_NO_INO,
				    "region '%s': %llu bytes follow the end of "
				    "its zlib stream", fsck_region_name(r),
				    (unsigned long long)(R->compressed_size - in_used));
		/* Keep only what is used. */
		fsck_mem_release(f, reserved - have);
		return;
	}
	if (ret == Z_STREAM_END)
		fsck_report(f, FC_REGION_INFLATE, R->desc_off + AXFS_RD_SIZE,
			    FSCK_NO_INO, "region '%s' inflates to %llu bytes, "
			    "not size %llu", fsck_region_name(r),
			    (unsigned long long)have,
			    (unsigned long long)R->size);
	else if (why && strcmp(why, "more") == 0)
		fsck_report(f, FC_REGION_INFLATE, R->desc_off + AXFS_RD_SIZE,
			    FSCK_NO_INO, "region '%s' inflates to more than "
			    "size %llu", fsck_region_name(r),
			    (unsigned long long)R->size);
	else if (why && strcmp(why, "truncated") == 0)
		fsck_report(f, FC_REGION_INFLATE, R->fsoffset, FSCK_NO_INO,
			    "region '%s': the zlib stream ends after %llu "
			    "bytes without an end (compressed_size %llu)",
			    fsck_region_name(r), (unsigned long long)total_in,
			    (unsigned long long)R->compressed_size);
	else if (why)
		fsck_report(f, FC_REGION_INFLATE, R->fsoffset, FSCK_NO_INO,
			    "region '%s' does not inflate: %s (after %llu of "
			    "its %llu bytes)", fsck_region_name(r), why,
			    (unsigned long long)total_in,
			    (unsigned long long)R->compressed_size);
	free(buf);
	fsck_mem_release(f, reserved);
}

void fsck_check_regions(struct fsck *f)
{
	struct span sp[2 * AXFS_REGION_COUNT + 2];
	int n = 0;

	add_span(sp, &n, 0, AXFS_SUPER_SIZE, -1);
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		struct fsck_region *R = &f->r[r];
		uint64_t stored, desc = R->desc_off;
		int i, dup = 0;

		if (!R->desc_ok)
			continue;
		for (i = 0; i < r; i++)
			if (f->r[i].desc_ok && f->r[i].desc_off == desc)
				dup = 1;
		if (!dup) {
			add_span(sp, &n, desc, desc + AXFS_REGION_DESC_SIZE, r);
		}
		if (AXFS_REGION_IS_TABLE(r)) {
			if (R->depth > AXFS_TABLE_DEPTH_MAX)
				fsck_report(f, FC_REGION_DEPTH,
					    desc + AXFS_RD_TABLE_DEPTH,
					    FSCK_NO_INO, "table '%s' has depth %u "
					    "(at most 8)", fsck_region_name(r),
					    R->depth);
			else {
				uint64_t want;

				if (__builtin_mul_overflow(R->max_index,
							   (uint64_t)R->depth,
							   &want) ||
				    want != R->size)
					fsck_report(f, FC_REGION_SIZE,
						    desc + AXFS_RD_SIZE,
						    FSCK_NO_INO, "table '%s': size "
						    "%llu is not max_index %llu x "
						    "depth %u",
						    fsck_region_name(r),
						    (unsigned long long)R->size,
						    (unsigned long long)R->max_index,
						    R->depth);
			}
		} else if (R->depth) {
			fsck_report(f, FC_REGION_NOT_TABLE,
				    desc + AXFS_RD_TABLE_DEPTH, FSCK_NO_INO,
				    "region '%s' is not a byte table but has "
				    "depth %u", fsck_region_name(r), R->depth);
		}
		if (R->size == 0) {
			/* mkfs writes an empty region as fsoffset 0, size 0. */
			if (R->compressed_size || R->fsoffset)
				fsck_report(f, FC_REGION_EMPTY,
					    desc + (R->compressed_size ?
						    AXFS_RD_COMPRESSED_SIZE :
						    AXFS_RD_FSOFFSET),
					    FSCK_NO_INO, "empty region '%s' has "
					    "fsoffset %llu and compressed_size "
					    "%llu", fsck_region_name(r),
					    (unsigned long long)R->fsoffset,
					    (unsigned long long)R->compressed_size);
			R->range_ok = 1;
			R->usable = 1;
			R->data = (const uint8_t *)"";
			continue;
		}
		stored = AXFS_REGION_STORED(R);
		if (R->fsoffset > f->limit || stored > f->limit - R->fsoffset) {
			fsck_report(f, FC_REGION_RANGE, desc + AXFS_RD_FSOFFSET,
				    FSCK_NO_INO, "region '%s' (%llu bytes at "
				    "byte %llu) extends beyond the end of the "
				    "image (%llu bytes)", fsck_region_name(r),
				    (unsigned long long)stored,
				    (unsigned long long)R->fsoffset,
				    (unsigned long long)f->limit);
			continue;
		}
		R->range_ok = 1;
		add_span(sp, &n, R->fsoffset, R->fsoffset + stored, 100 + r);
	}
	if (f->limit >= 4) {
		add_span(sp, &n, f->limit - 4, f->limit, 200);
	}

	/* No two things may share a byte. */
	qsort(sp, (size_t)n, sizeof(sp[0]), cmp_span);
	{
		int far = 0;	/* the span reaching furthest so far */

		for (int i = 1; i < n; i++) {
			if (sp[i].start < sp[far].end) {
				char a[64], b[64];
				int rk = sp[i].kind >= 100 && sp[i].kind < 200 ?
					 sp[i].kind - 100 :
					 sp[far].kind >= 100 && sp[far].kind < 200 ?
					 sp[far].kind - 100 : -1;
				uint64_t at = rk >= 0 ? f->r[rk].desc_off +
						       AXFS_RD_FSOFFSET :
						       sp[i].start;

				span_name(&sp[far], a, sizeof(a));
				span_name(&sp[i], b, sizeof(b));
				if (sp[i].kind < 100 && sp[far].kind < 100)
					; /* descriptors: read_descriptors */
				else
					fsck_report(f, FC_REGION_OVERLAP, at,
						    FSCK_NO_INO, "%s (bytes %llu.."
						    "%llu) overlaps %s (bytes "
						    "%llu..%llu)", b,
						    (unsigned long long)sp[i].start,
						    (unsigned long long)(sp[i].end - 1),
						    a,
						    (unsigned long long)sp[far].start,
						    (unsigned long long)(sp[far].end - 1));
			}
			if (sp[i].end > sp[far].end)
				far = i;
		}
	}

	/* The XIP region: page-aligned, whole pages, inside mmap_size. */
	{
		struct fsck_region *X = &f->r[AXFS_R_XIP];

		if (X->desc_ok && X->size) {
			if (X->fsoffset % AXFS_PAGE_SIZE)
				fsck_report(f, FC_REGION_XIP_ALIGN,
					    X->desc_off + AXFS_RD_FSOFFSET,
					    FSCK_NO_INO, "the XIP region starts at "
					    "byte %llu, not on a 4096-byte page",
					    (unsigned long long)X->fsoffset);
			if (X->size % AXFS_PAGE_SIZE)
				fsck_report(f, FC_REGION_XIP_ALIGN,
					    X->desc_off + AXFS_RD_SIZE,
					    FSCK_NO_INO, "the XIP region is %llu "
					    "bytes, not whole 4096-byte pages",
					    (unsigned long long)X->size);
			if (X->range_ok && X->fsoffset + X->size > f->mmap_size)
				fsck_report(f, FC_REGION_MMAP,
					    X->desc_off + AXFS_RD_FSOFFSET,
					    FSCK_NO_INO, "the XIP region ends at "
					    "byte %llu, beyond mmap_size %llu: "
					    "its pages cannot execute in place",
					    (unsigned long long)(X->fsoffset +
								 X->size),
					    (unsigned long long)f->mmap_size);
		}
	}
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		struct fsck_region *R = &f->r[r];
		uint64_t stored = AXFS_REGION_STORED(R);

		if (!R->range_ok || !R->size)
			continue;
		if (f->mmap_size < f->size && R->fsoffset < f->mmap_size &&
		    R->fsoffset + stored > f->mmap_size)
			fsck_report(f, FC_REGION_MMAP,
				    R->desc_off + AXFS_RD_FSOFFSET, FSCK_NO_INO,
				    "region '%s' (bytes %llu..%llu) straddles "
				    "mmap_size %llu", fsck_region_name(r),
				    (unsigned long long)R->fsoffset,
				    (unsigned long long)(R->fsoffset + stored - 1),
				    (unsigned long long)f->mmap_size);
		if (R->compressed_size && !AXFS_REGION_IS_FORCED(r) &&
		    (R->fsoffset > f->mmap_size ||
		     R->size > f->mmap_size - R->fsoffset))
			fsck_report(f, FC_REGION_COMPRESSED_DATA,
				    R->desc_off + AXFS_RD_COMPRESSED_SIZE,
				    FSCK_NO_INO, "data region '%s' is stored "
				    "compressed, but the driver reads its bytes "
				    "beyond mmap_size %llu raw from the device",
				    fsck_region_name(r),
				    (unsigned long long)f->mmap_size);
	}
}

/*
 * The reader's rule (budget.h): a region it loads into memory (strings,
 * the byte tables, a data region stored compressed) may not claim more
 * than the superblock's counts allow.  An image fsck passes must open, so
 * the same bound, from the same function, is a finding here; a compressed
 * region over it is not inflated.  0 when within the bound.
 */
static int region_over_bound(struct fsck *f, enum axfs_region r)
{
	const struct fsck_region *R = &f->r[r];
	uint64_t max = budget_region_max(r, f->files, f->blocks);

	if (r != AXFS_R_STRINGS && !AXFS_REGION_IS_TABLE(r) &&
	    !R->compressed_size)
		return 0;
	if (R->size <= max)
		return 0;
	fsck_report(f, FC_REGION_BOUND, R->desc_off + AXFS_RD_SIZE,
		    FSCK_NO_INO, "region '%s' claims %llu bytes; the "
		    "superblock's %llu inodes and %llu nodes allow at most "
		    "%llu", fsck_region_name(r), (unsigned long long)R->size,
		    (unsigned long long)f->files,
		    (unsigned long long)f->blocks, (unsigned long long)max);
	return 1;
}

/* A metadata region stored raw: read once into memory charged to the
 * budget, or seen in place when the image is in memory. */
static void read_region(struct fsck *f, enum axfs_region r)
{
	struct fsck_region *R = &f->r[r];
	const uint8_t *p;
	uint8_t *buf;
	uint64_t bad = R->fsoffset;
	int rc = 0;
	struct fsck_window none = { 0 };	/* no buffer: memory only */

	p = fsck_src_view(&f->src, &none, R->fsoffset, R->size, &rc, &bad);
	if (p) {
		R->data = p;
		return;
	}
	buf = fsck_alloc(f, R->size, 1, R->desc_off, "reading a region");
	if (!buf)
		return;
	rc = fsck_src_read(&f->src, R->fsoffset, buf, R->size, &bad);
	if (rc < 0) {
		fsck_read_failed(f, rc, bad);
		fsck_free(f, buf, R->size, 1);
		return;
	}
	R->data = buf;
	R->owned = buf;
}

/* Loads every region.  A data region stored raw (XIP pages, byte-aligned
 * data, cblocks) stays in the image: its checks read what they need. */
void fsck_load_regions(struct fsck *f)
{
	for (int r = 0; r < AXFS_REGION_COUNT && !fsck_stopped(f); r++) {
		struct fsck_region *R = &f->r[r];

		if (!R->range_ok || !R->size)
			continue;
		if (region_over_bound(f, r) && R->compressed_size)
			continue;
		if (!R->compressed_size) {
			if (r == AXFS_R_XIP || r == AXFS_R_BYTE_ALIGNED ||
			    r == AXFS_R_COMPRESSED) {
				struct fsck_window none = { 0 };
				uint64_t bad;
				int rc;

				/* A view when the image is in memory. */
				R->data = fsck_src_view(&f->src, &none,
							R->fsoffset, R->size,
							&rc, &bad);
			} else {
				read_region(f, r);
			}
			R->usable = R->data || r == AXFS_R_XIP ||
				    r == AXFS_R_BYTE_ALIGNED ||
				    r == AXFS_R_COMPRESSED;
			continue;
		}
		if (!f->zs_ok)
			continue;
		inflate_region(f, r);
		R->usable = R->data != NULL;
	}
}

/* Most frequent of vals[0..n) (ties go to the earliest); the agreed count
 * of a family of tables, so that one bad field is blamed, not its peers. */
static uint64_t majority(const uint64_t *vals, int n)
{
	int best = -1, best_n = 0;

	for (int i = 0; i < n; i++) {
		int c = 0;

		for (int j = 0; j < n; j++)
			c += vals[j] == vals[i];
		if (c > best_n) {
			best_n = c;
			best = i;
		}
	}
	return best >= 0 ? vals[best] : 0;
}

/* How many entries a table really has: max_index when its size agrees,
 * else what its bytes hold. */
static void table_entries(struct fsck *f, enum axfs_region r)
{
	struct fsck_region *R = &f->r[r];
	uint64_t want;

	R->table_ok = 0;
	R->entries = 0;
	if (!R->data || R->depth > AXFS_TABLE_DEPTH_MAX)
		return;
	if (!__builtin_mul_overflow(R->max_index, (uint64_t)R->depth, &want) &&
	    want == R->size) {
		R->table_ok = 1;
		R->entries = R->max_index;
	} else if (R->depth && R->size % R->depth == 0) {
		R->table_ok = 1;
		R->entries = R->size / R->depth;
	}
}

static uint64_t count_of(struct fsck *f, enum axfs_region r)
{
	return f->r[r].desc_ok ? f->r[r].max_index : 0;
}

/* The agreed count of a family of tables (at most 5): the majority of
 * the superblock's count (sb, NULL when it has none) and the max_index of
 * each table described. */
static uint64_t family_vote(struct fsck *f, const enum axfs_region *rs,
			    int nr, const uint64_t *sb)
{
	uint64_t v[6];
	int n = 0;

	if (sb)
		v[n++] = *sb;
	for (int i = 0; i < nr; i++)
		if (f->r[rs[i]].desc_ok)
			v[n++] = count_of(f, rs[i]);
	return majority(v, n);
}

/* Every table of a family must have `n` entries. */
static void family_count(struct fsck *f, const enum axfs_region *rs, int nr,
			 uint64_t n, const char *what)
{
	for (int i = 0; i < nr; i++) {
		struct fsck_region *R = &f->r[rs[i]];

		if (R->desc_ok && R->max_index != n)
			fsck_report(f, FC_REGION_COUNT,
				    R->desc_off + AXFS_RD_MAX_INDEX, FSCK_NO_INO,
				    "table '%s' has max_index %llu, but there "
				    "are %llu %s", fsck_region_name(rs[i]),
				    (unsigned long long)R->max_index,
				    (unsigned long long)n, what);
	}
}

void fsck_check_counts(struct fsck *f)
{
	static const enum axfs_region inode_t[] = {
		AXFS_R_INODE_FILE_SIZE, AXFS_R_INODE_NAME_OFFSET,
		AXFS_R_INODE_NUM_ENTRIES, AXFS_R_INODE_MODE_INDEX,
		AXFS_R_INODE_ARRAY_INDEX };
	static const enum axfs_region node_t[] = {
		AXFS_R_NODE_TYPE, AXFS_R_NODE_INDEX };
	static const enum axfs_region cnode_t[] = {
		AXFS_R_CNODE_OFFSET, AXFS_R_CNODE_INDEX };
	static const enum axfs_region mode_t[] = {
		AXFS_R_MODES, AXFS_R_UIDS, AXFS_R_GIDS };

	for (int r = AXFS_R_NODE_TYPE; r < AXFS_REGION_COUNT; r++)
		table_entries(f, r);

	/* Inodes: the superblock and five tables vote. */
	f->n_inodes = family_vote(f, inode_t, 5, &f->files);
	if (f->files != f->n_inodes)
		fsck_report(f, FC_SB_FILES, AXFS_SB_FILES, FSCK_NO_INO,
			    "files is %llu, but the inode tables have %llu "
			    "entries", (unsigned long long)f->files,
			    (unsigned long long)f->n_inodes);
	else if (f->files == 0 || f->files > AXFS_MAX_INODES)
		fsck_report(f, FC_SB_FILES, AXFS_SB_FILES, FSCK_NO_INO,
			    "files is %llu (must be 1..%llu)",
			    (unsigned long long)f->files,
			    (unsigned long long)AXFS_MAX_INODES);
	family_count(f, inode_t, 5, f->n_inodes, "inodes");

	f->n_nodes = family_vote(f, node_t, 2, &f->blocks);
	family_count(f, node_t, 2, f->n_nodes, "nodes");

	/* Two cnode tables: when they disagree, believe the one whose size
	 * agrees with its max_index. */
	{
		struct fsck_region *a = &f->r[AXFS_R_CNODE_OFFSET];
		struct fsck_region *b = &f->r[AXFS_R_CNODE_INDEX];
		uint64_t ca = a->max_index, cb = b->max_index;

		if (!a->desc_ok)
			f->n_cnodes = cb;
		else if (!b->desc_ok || ca == cb)
			f->n_cnodes = ca;
		else if (a->table_ok && a->entries == ca)
			f->n_cnodes = ca;
		else
			f->n_cnodes = cb;
		family_count(f, cnode_t, 2, f->n_cnodes, "cnodes");
	}
	f->n_banodes = f->r[AXFS_R_BANODE_OFFSET].table_ok ?
		       f->r[AXFS_R_BANODE_OFFSET].entries : 0;

	f->n_modes = family_vote(f, mode_t, 3, NULL);
	family_count(f, mode_t, 3, f->n_modes, "mode tuples");

	/* cblock_offset holds one entry per cblock plus a sentinel. */
	{
		struct fsck_region *C = &f->r[AXFS_R_CBLOCK_OFFSET];

		f->n_cblocks = C->table_ok && C->entries ? C->entries - 1 : 0;
		if (C->desc_ok && f->r[AXFS_R_COMPRESSED].desc_ok &&
		    f->r[AXFS_R_COMPRESSED].size && C->max_index < 2)
			fsck_report(f, FC_REGION_COUNT,
				    C->desc_off + AXFS_RD_MAX_INDEX, FSCK_NO_INO,
				    "table 'cblock_offset' has %llu entries, but "
				    "the compressed region is not empty (needs "
				    "one per cblock and a sentinel)",
				    (unsigned long long)C->max_index);
	}

	{
		struct fsck_region *X = &f->r[AXFS_R_XIP];

		f->xip_pages = X->usable ? X->size / AXFS_PAGE_SIZE : 0;
	}

	/* Regions that are not tables: max_index counts their items. */
	{
		static const enum axfs_region rs[] = {
			AXFS_R_STRINGS, AXFS_R_XIP, AXFS_R_BYTE_ALIGNED,
			AXFS_R_COMPRESSED };
		const uint64_t want[] = { f->n_inodes,
			f->r[AXFS_R_XIP].size / AXFS_PAGE_SIZE,
			f->r[AXFS_R_BANODE_OFFSET].table_ok ? f->n_banodes :
			f->r[AXFS_R_BYTE_ALIGNED].max_index,
			f->r[AXFS_R_CBLOCK_OFFSET].table_ok ? f->n_cblocks :
			f->r[AXFS_R_COMPRESSED].max_index };
		static const char *const what[] = { "inodes", "pages",
			"banodes", "cblocks" };

		for (int i = 0; i < 4; i++) {
			struct fsck_region *R = &f->r[rs[i]];

			if (R->desc_ok && R->max_index != want[i])
				fsck_report(f, FC_REGION_MAX_INDEX,
					    R->desc_off + AXFS_RD_MAX_INDEX,
					    FSCK_NO_INO, "region '%s' has "
					    "max_index %llu, but there are %llu "
					    "%s", fsck_region_name(rs[i]),
					    (unsigned long long)R->max_index,
					    (unsigned long long)want[i],
					    what[i]);
		}
	}

	/* A table whose entries would fit in fewer bytes was not written
	 * by mkfs (and a flipped high byte shows up here). */
	for (int r = AXFS_R_NODE_TYPE; r < AXFS_REGION_COUNT &&
	     !fsck_stopped(f); r++) {
		struct fsck_region *R = &f->r[r];
		uint64_t max = 0;
		unsigned int need;

		if (!R->table_ok || !R->depth)
			continue;
		for (uint64_t i = 0; i < R->entries; i++) {
			uint64_t e = axfs_bytetable_get(R->data, R->depth, i);

			if (e > max)
				max = e;
		}
		need = axfs_bytetable_depth_for(max);
		if (R->depth > need)
			fsck_report(f, FC_REGION_DEPTH_MIN,
				    R->desc_off + AXFS_RD_TABLE_DEPTH,
				    FSCK_NO_INO, "table '%s' has depth %u, but "
				    "its largest entry %llu needs %u",
				    fsck_region_name(r), R->depth,
				    (unsigned long long)max, need);
	}
}

/* ---- bytes that belong to nothing --------------------------------------- */

void fsck_check_slack(struct fsck *f)
{
	struct span sp[2 * AXFS_REGION_COUNT + 3];
	uint64_t pos = 0;
	int n = 0;

	/* The superblock and the page_shift byte after it. */
	add_span(sp, &n, 0, AXFS_SB_PAGE_SHIFT + 1, -1);
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		struct fsck_region *R = &f->r[r];

		if (!R->desc_ok)
			continue;
		add_span(sp, &n, R->desc_off,
			 R->desc_off + AXFS_REGION_DESC_SIZE, r);
		if (R->range_ok && R->size) {
			add_span(sp, &n, R->fsoffset,
				 R->fsoffset + AXFS_REGION_STORED(R), 100 + r);
		}
	}
	if (f->limit >= 4) {
		add_span(sp, &n, f->limit - 4, f->limit, 200);
	}
	qsort(sp, (size_t)n, sizeof(sp[0]), cmp_span);
	for (int i = 0; i <= n; i++) {
		uint64_t gap_end = i < n ? sp[i].start : f->limit;

		if (gap_end > f->limit)
			gap_end = f->limit;
		if (gap_end > pos) {
			uint64_t k;

			if (fsck_scan_nonzero(f, -1, pos, gap_end - pos, &k))
				fsck_report(f, FC_IMAGE_SLACK, pos + k,
					    FSCK_NO_INO, "bytes %llu..%llu "
					    "belong to no region and are not "
					    "zero (first non-zero at %llu)",
					    (unsigned long long)pos,
					    (unsigned long long)(gap_end - 1),
					    (unsigned long long)(pos + k));
		}
		if (i < n && sp[i].end > pos)
			pos = sp[i].end;
	}
}

/* The byte after the superblock: page_shift for the later driver, unless
 * a descriptor or region sits there (the 2008 layout allows that). */
void fsck_check_page_shift(struct fsck *f)
{
	uint8_t ps;

	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		struct fsck_region *R = &f->r[r];

		if (R->desc_ok && R->desc_off <= AXFS_SB_PAGE_SHIFT &&
		    R->desc_off + AXFS_REGION_DESC_SIZE > AXFS_SB_PAGE_SHIFT)
			return;
		if (R->range_ok && R->size && R->fsoffset <= AXFS_SB_PAGE_SHIFT &&
		    R->fsoffset + AXFS_REGION_STORED(R) > AXFS_SB_PAGE_SHIFT)
			return;
	}
	if (f->limit <= AXFS_SB_PAGE_SHIFT)
		return;
	ps = f->sb[AXFS_SB_PAGE_SHIFT];
	if (ps == 0)
		fsck_report(f, FC_SB_NO_PAGE_SHIFT, AXFS_SB_PAGE_SHIFT,
			    FSCK_NO_INO, "page_shift (byte 256) is 0: the later "
			    "out-of-tree driver refuses to mount the image");
	else if (ps != AXFS_PAGE_SHIFT)
		fsck_report(f, FC_SB_PAGE_SHIFT, AXFS_SB_PAGE_SHIFT,
			    FSCK_NO_INO, "page_shift (byte 256) is %u, not 12",
			    ps);
}


/*
 * blocks only sizes the profiling driver's per-node counters: too small
 * for the nodes that files use is an out-of-bounds write there; larger,
 * or leaving out nodes no file uses (the legacy mkfs), is harmless.
 */
void fsck_check_blocks(struct fsck *f)
{
	uint64_t need = f->nodes_end_known ? f->nodes_end : f->n_nodes;

	if (f->blocks == f->n_nodes)
		return;
	if (f->blocks > f->limit)
		fsck_report(f, FC_SB_BLOCKS, AXFS_SB_BLOCKS, FSCK_NO_INO,
			    "blocks is %llu, more than the image has bytes: "
			    "the profiling driver cannot allocate its "
			    "counters and refuses to mount",
			    (unsigned long long)f->blocks);
	else if (f->blocks < need)
		fsck_report(f, FC_SB_BLOCKS, AXFS_SB_BLOCKS, FSCK_NO_INO,
			    "blocks is %llu, but files use nodes up to %llu "
			    "(the node tables have %llu entries)",
			    (unsigned long long)f->blocks,
			    (unsigned long long)need,
			    (unsigned long long)f->n_nodes);
	else
		fsck_report(f, FC_SB_BLOCKS_COUNT, AXFS_SB_BLOCKS, FSCK_NO_INO,
			    "blocks is %llu, but the node tables have %llu "
			    "entries (files use %llu)",
			    (unsigned long long)f->blocks,
			    (unsigned long long)f->n_nodes,
			    (unsigned long long)need);
}
