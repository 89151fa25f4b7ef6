/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * read/internal.h - the private state of an open image, shared by
 * reader.c (open, validation, tables, inodes), reader_data.c (pages, a
 * handle's cache of cblocks), reader_cblock.c (one cblock: its bounds and
 * inflate), cblock_pool.c (cblocks shared by threads) and reader_walk.c
 * (lookup, walk).  Not installed.
 */
#ifndef LIBAXFSIMG_READ_INTERNAL_H
#define LIBAXFSIMG_READ_INTERNAL_H

#include <stdint.h>
#include <zlib.h>
#include "opts_size.h"
#include "axfs_reader.h"
#include "reader_device.h"
#include "budget.h"

struct libdeflate_decompressor;

/*
 * The largest region we load into memory (strings, a byte table, or a
 * data region that is itself stored zlib-compressed).  A raw region is
 * also bounded by the image size; an inflated one by zlib's maximum
 * expansion of its stream.  1 GiB covers 2^31 inodes at 4-byte depth.
 */
#define READER_MAX_INCORE	(1ull << 30)
/* Lenient mode accepts any cblock_size up to this (fsck reports it). */
#define READER_MAX_CBLOCK_LENIENT	(64u * 1024u * 1024u)
/* Deepest directory nesting the walk follows. */
#define READER_MAX_DEPTH	4096
/* Inflated cblocks each handle keeps at most (see struct axfs_image):
 * as many as fit in READER_CACHE_BYTES, at least 2. */
#define READER_CBLOCK_CACHE	16
#define READER_CACHE_BYTES	(2u << 20)

struct axfs_image {
	char *name;			/* for messages */
	char *store_name;		/* NULL: single segment */
	int fd;				/* -1 in buffer mode */
	int store_fd;			/* -1 when there is no store */
	const uint8_t *buf;		/* buffer mode */
	uint8_t *own_buf;		/* buf when we read it (a stream) */
	/* Memory the loaded regions may take (budget.h): the caller's
	 * max_memory, or 64 MiB + 8 x the image's real size. */
	struct budget mem;
	uint64_t seg0_len;		/* bytes readable from the first segment */
	uint64_t split_at;		/* offsets >= this are in the store */
	uint64_t file_size;		/* logical length of the whole image */
	uint64_t limit;			/* regions must end at or before this */
	int lenient;

	struct axfs_super_info sb;
	struct axfs_region_info reg[AXFS_REGION_COUNT];
	uint8_t *owned[AXFS_REGION_COUNT];
	/* Lenient mode: a region that could not be loaded keeps the reason
	 * here and every use of it fails with that message. */
	uint8_t bad[AXFS_REGION_COUNT];
	struct axfs_error why[AXFS_REGION_COUNT];
	/* Entries of each byte table; a depth-0 table (which reads as 0
	 * everywhere) counts as `limit` entries, so that every loop is still
	 * bounded by the size of the image. */
	uint64_t entries[AXFS_REGION_COUNT];
	uint64_t n_inodes;		/* valid inode numbers: [0, n_inodes) */
	uint64_t n_nodes;		/* valid node numbers: [0, n_nodes) */
	int cblock_ok;			/* cblock_size usable for buffers */

	/* A few inflated cblocks, least recently used replaced first.  The
	 * driver keeps one; a reader going through files in directory
	 * order comes back to cblocks shared with files of other
	 * directories and to the cblocks that hold file tails, so a handful
	 * saves most repeated inflates (bench/RESULTS.md).  Each handle has
	 * its own: a handle is used by one thread at a time. */
	struct reader_cblock_cache {
		uint8_t *data;		/* cblock_size bytes, inflated */
		size_t len;		/* inflated length */
		uint64_t index;		/* cblock number */
		uint64_t used;		/* img->cblk_clock at the last use */
		int valid;
	} cblk[READER_CBLOCK_CACHE];
	uint64_t cblk_clock;
	uint8_t *cin;			/* cblock_size bytes, compressed */
	/* Inflates cblocks (reader_cblock.c); allocated at the first, one
	 * per handle since a handle is used by one thread at a time. */
	struct libdeflate_decompressor *ld;
	/* A clone (axfs_image_clone) shares the parent's descriptors and
	 * loaded regions: it closes and frees neither. */
	int is_clone;
	/* The image opened (itself, or what a clone was made from): a
	 * cblock pool serves the handles of one image only. */
	const struct axfs_image *origin;
	/* Shared inflated cblocks (axfs_cblock_pool.h); NULL: cblk[]. */
	struct axfs_cblock_pool *pool;
};

/* "'name': byte N: msg" (the offset part only when off != UINT64_MAX). */
int reader_img_err(const struct axfs_image *img, struct axfs_error *err,
		   int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Error about entry i of table r: names the image byte of the entry, or
 * the inflated offset when the table is stored compressed. */
int reader_entry_err(const struct axfs_image *img, struct axfs_error *err,
		     enum axfs_region r, uint64_t i, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Bounds-checked table read. */
int reader_table_get(const struct axfs_image *img, enum axfs_region r,
		     uint64_t i, uint64_t *val, struct axfs_error *err);
/* Fails with the stored reason when region r could not be loaded. */
int reader_region_usable(const struct axfs_image *img, enum axfs_region r,
			 struct axfs_error *err);
/* Reads [off, off+len) of data region r, from memory if it is loaded;
 * the caller has checked off + len against the region's size. */
int reader_region_read(struct axfs_image *img, enum axfs_region r,
		       uint64_t off, void *buf, size_t len,
		       struct axfs_error *err);
/* Where cblock c lies in the compressed region, [*start, *end), checked
 * (reader_cblock.c, with axfs_image_cblock()). */
int reader_cblock_bounds(struct axfs_image *img, uint64_t c, uint64_t *start,
			 uint64_t *end, struct axfs_error *err);
/* Inflates a zlib stream that must end (Z_STREAM_END) within out_len
 * bytes; *got = inflated length.  A stream that needs more room fails. */
int reader_inflate(const struct axfs_image *img, const uint8_t *in,
		   size_t in_len, uint8_t *out, size_t out_len, size_t *got,
		   uint64_t off, const char *what, struct axfs_error *err);
/* An inflated cblock lent to a reader until reader_pool_put(). */
struct reader_cblock_ref {
	const uint8_t *data;
	size_t len;
	void *slot;			/* the pool's slot; NULL: own cache */
};
/* Cblock c from the pool: 1 and *ref lent, 0 when every slot is lent
 * (the caller reads without the pool), or a negative error code. */
int reader_pool_get(struct axfs_cblock_pool *pool, struct axfs_image *img,
		    uint64_t c, struct reader_cblock_ref *ref,
		    struct axfs_error *err);
void reader_pool_put(struct axfs_cblock_pool *pool,
		     struct reader_cblock_ref *ref);

/* Name (len bytes) in directory inode dir, with the driver's lookup:
 * *found = UINT64_MAX when it is not there (reader_walk.c). */
int reader_lookup_in_dir(struct axfs_image *img,
			const struct axfs_inode_info *dir, const char *name,
			size_t len, uint64_t *found, struct axfs_error *err);


/* Human-readable file type name of a mode ("directory", ...). */
const char *reader_type_name(uint32_t mode);
/* Inode ino, which must be of one type (S_IFDIR, S_IFLNK...): else the
 * error "inode N is a TYPE, not a TYPE". */
int reader_inode_of_type(struct axfs_image *img, uint64_t ino, uint32_t type,
			 struct axfs_inode_info *in, struct axfs_error *err);

#endif
