/* SPDX-License-Identifier: LGPL-2.1-or-later OR GPL-2.0-only */
/*
 * axfs_format.h - the AXFS on-disk format, described once.
 *
 * This is the single description of the format used by libaxfsimg, the
 * axfs command and the kernel module in kernel/ (which includes this file
 * directly).  It follows the 2008 AXFS driver (include/linux/axfs.h) as
 * compiled for a 64-bit little-endian machine: every field is big-endian
 * and the structs have natural alignment, so the superblock is 256 bytes
 * with 4 bytes of padding before `timestamp` at offset 248, and every
 * region descriptor is 40 bytes.
 *
 * Nothing here is a C struct to be copied to or from disk: fields are
 * addressed by byte offset and converted with the explicit big-endian
 * helpers below at the point of use.
 *
 * Dual-licensed so that the GPL-2.0-only kernel module can include it.
 */
#ifndef AXFS_FORMAT_H
#define AXFS_FORMAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/build_bug.h>
#define AXFS_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
typedef u8 axfs_u8;
typedef u32 axfs_u32;
typedef u64 axfs_u64;
#else
#include <stdint.h>
#include <assert.h>
#define AXFS_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
typedef uint8_t axfs_u8;
typedef uint32_t axfs_u32;
typedef uint64_t axfs_u64;
#endif

/* ---- identification ---------------------------------------------------- */

#define AXFS_MAGIC		0x48A0E4CDu
#define AXFS_SIGNATURE		"Advanced XIP FS"	/* + NUL = 16 bytes */
#define AXFS_SIGNATURE_LEN	16
#define AXFS_MAXPATHLEN		255	/* longest name; statfs f_namelen */
#define AXFS_PAGE_SIZE		4096u
#define AXFS_PAGE_SHIFT		12

/* What we write into the (unchecked) version bytes. */
#define AXFS_VERSION_MAJOR	1
#define AXFS_VERSION_MINOR	0
#define AXFS_VERSION_SUB	0

enum axfs_node_type {
	AXFS_NODE_XIP = 0,		/* uncompressed page in the XIP region */
	AXFS_NODE_COMPRESSED = 1,	/* page inside an inflated cblock */
	AXFS_NODE_BYTE_ALIGNED = 2,	/* bytes in the byte-aligned region */
};
#define AXFS_NODE_TYPE_COUNT 3

enum axfs_compression_type {
	AXFS_COMPRESSION_ZLIB = 0,	/* RFC 1950 zlib streams, window <= 15 */
};

/* cblock sizes that mkfs writes and fsck accepts (powers of two). */
#define AXFS_CBLOCK_MIN		4096u
#define AXFS_CBLOCK_MAX		(1024u * 1024u)
/* Whether v is such a cblock size: a power of two from 4 KiB to 1 MiB. */
#define AXFS_CBLOCK_SIZE_OK(v) \
	((v) >= AXFS_CBLOCK_MIN && (v) <= AXFS_CBLOCK_MAX && \
	 ((v) & ((v) - 1)) == 0)

/* ---- superblock: byte offsets ------------------------------------------ */

#define AXFS_SB_MAGIC			0	/* u32 */
#define AXFS_SB_SIGNATURE		4	/* u8[16] */
#define AXFS_SB_DIGEST			20	/* u8[40] */
#define AXFS_SB_DIGEST_LEN		40
#define AXFS_SB_CBLOCK_SIZE		60	/* u32 */
#define AXFS_SB_FILES			64	/* u64: number of inodes */
#define AXFS_SB_SIZE			72	/* u64: total image size */
#define AXFS_SB_BLOCKS			80	/* u64: number of nodes */
#define AXFS_SB_MMAP_SIZE		88	/* u64 */
#define AXFS_SB_REGION_OFFSETS		96	/* 18 x u64, see enum axfs_region */
#define AXFS_SB_VERSION_MAJOR		240	/* u8 */
#define AXFS_SB_VERSION_MINOR		241	/* u8 */
#define AXFS_SB_VERSION_SUB		242	/* u8 */
#define AXFS_SB_COMPRESSION_TYPE	243	/* u8, must be 0 */
#define AXFS_SB_PADDING			244	/* 4 bytes of struct padding */
#define AXFS_SB_TIMESTAMP		248	/* u64: time_t of every inode */
#define AXFS_SUPER_SIZE			256	/* what the 2008 driver copies */

/*
 * The later out-of-tree driver appends `u8 page_shift` after timestamp and
 * refuses to mount unless it equals PAGE_SHIFT; the 2008 driver never reads
 * it.  We write 12 there and start the region descriptors at 264.
 */
#define AXFS_SB_PAGE_SHIFT		256	/* u8 */
#define AXFS_SUPER_SIZE_EXT		264	/* sizeof with page_shift, aligned */

/*
 * The 18 regions, in the order their descriptor offsets appear in the
 * superblock: the offset of region r's descriptor is the u64 at
 * AXFS_SB_REGION_OFFSETS + 8 * r.
 */
enum axfs_region {
	AXFS_R_STRINGS,
	AXFS_R_XIP,
	AXFS_R_BYTE_ALIGNED,
	AXFS_R_COMPRESSED,
	AXFS_R_NODE_TYPE,
	AXFS_R_NODE_INDEX,
	AXFS_R_CNODE_OFFSET,
	AXFS_R_CNODE_INDEX,
	AXFS_R_BANODE_OFFSET,
	AXFS_R_CBLOCK_OFFSET,
	AXFS_R_INODE_FILE_SIZE,
	AXFS_R_INODE_NAME_OFFSET,
	AXFS_R_INODE_NUM_ENTRIES,
	AXFS_R_INODE_MODE_INDEX,
	AXFS_R_INODE_ARRAY_INDEX,
	AXFS_R_MODES,
	AXFS_R_UIDS,
	AXFS_R_GIDS,
	AXFS_REGION_COUNT
};

/* "strings", "node_type", ...; "?" for a number that is not a region. */
static inline const char *axfs_format_region_name(unsigned int r)
{
	static const char *const names[AXFS_REGION_COUNT] = {
		[AXFS_R_STRINGS] = "strings",
		[AXFS_R_XIP] = "xip",
		[AXFS_R_BYTE_ALIGNED] = "byte_aligned",
		[AXFS_R_COMPRESSED] = "compressed",
		[AXFS_R_NODE_TYPE] = "node_type",
		[AXFS_R_NODE_INDEX] = "node_index",
		[AXFS_R_CNODE_OFFSET] = "cnode_offset",
		[AXFS_R_CNODE_INDEX] = "cnode_index",
		[AXFS_R_BANODE_OFFSET] = "banode_offset",
		[AXFS_R_CBLOCK_OFFSET] = "cblock_offset",
		[AXFS_R_INODE_FILE_SIZE] = "inode_file_size",
		[AXFS_R_INODE_NAME_OFFSET] = "inode_name_offset",
		[AXFS_R_INODE_NUM_ENTRIES] = "inode_num_entries",
		[AXFS_R_INODE_MODE_INDEX] = "inode_mode_index",
		[AXFS_R_INODE_ARRAY_INDEX] = "inode_array_index",
		[AXFS_R_MODES] = "modes",
		[AXFS_R_UIDS] = "uids",
		[AXFS_R_GIDS] = "gids",
	};

	return r < AXFS_REGION_COUNT ? names[r] : "?";
}

#define AXFS_SB_REGION(r)	(AXFS_SB_REGION_OFFSETS + 8 * (r))

/* The 14 regions that are byte tables (read with axfs_bytetable_get). */
#define AXFS_REGION_IS_TABLE(r)	((r) >= AXFS_R_NODE_TYPE)
/* Regions the 2008 driver always loads at mount ("force"). */
#define AXFS_REGION_IS_FORCED(r) \
	((r) != AXFS_R_BYTE_ALIGNED && (r) != AXFS_R_COMPRESSED)

/* ---- region descriptor: byte offsets ----------------------------------- */

#define AXFS_RD_FSOFFSET	0	/* u64: where the data starts */
#define AXFS_RD_SIZE		8	/* u64: uncompressed size */
#define AXFS_RD_COMPRESSED_SIZE	16	/* u64: 0 = raw, else zlib length */
#define AXFS_RD_MAX_INDEX	24	/* u64: number of entries */
#define AXFS_RD_TABLE_DEPTH	32	/* u8: bytes per table entry */
#define AXFS_RD_INCORE		33	/* u8: non-zero = copy into RAM */
#define AXFS_RD_PADDING		34	/* 6 bytes of struct padding */
#define AXFS_REGION_DESC_SIZE	40

#define AXFS_TABLE_DEPTH_MAX	8

/*
 * Decodes the 40 descriptor bytes at `d` into the fields fsoffset, size,
 * compressed_size, max_index, depth and incore of *dst (the reader's,
 * fsck's and the kernel module's region structs all have them).
 */
#define AXFS_REGION_DESC_DECODE(dst, d) do {				\
	(dst)->fsoffset = axfs_get_be64((d) + AXFS_RD_FSOFFSET);	\
	(dst)->size = axfs_get_be64((d) + AXFS_RD_SIZE);		\
	(dst)->compressed_size =					\
		axfs_get_be64((d) + AXFS_RD_COMPRESSED_SIZE);		\
	(dst)->max_index = axfs_get_be64((d) + AXFS_RD_MAX_INDEX);	\
	(dst)->depth = (d)[AXFS_RD_TABLE_DEPTH];			\
	(dst)->incore = (d)[AXFS_RD_INCORE];				\
} while (0)

/* The bytes a region occupies in the image: its zlib stream, or its data. */
#define AXFS_REGION_STORED(r) \
	((r)->compressed_size ? (r)->compressed_size : (r)->size)

/*
 * zlib cannot expand data by more than 1032:1 (plus a few bytes): a region
 * or cblock whose size is larger than that multiple of its stream is
 * corrupt, and no more than that need be allocated to inflate it.
 */
#define AXFS_ZLIB_MAX_RATIO	1032u

AXFS_STATIC_ASSERT(AXFS_SB_TIMESTAMP + 8 == AXFS_SUPER_SIZE,
		   "superblock is 256 bytes with timestamp last");
AXFS_STATIC_ASSERT(AXFS_SB_REGION(AXFS_REGION_COUNT) == AXFS_SB_VERSION_MAJOR,
		   "18 region offsets end where the version bytes start");
AXFS_STATIC_ASSERT(AXFS_SB_CBLOCK_SIZE + 4 == AXFS_SB_FILES,
		   "files is naturally aligned after cblock_size");
AXFS_STATIC_ASSERT(AXFS_RD_PADDING + 6 == AXFS_REGION_DESC_SIZE,
		   "region descriptor is 40 bytes");
AXFS_STATIC_ASSERT(AXFS_REGION_COUNT == 18, "18 regions");

/* ---- big-endian helpers ------------------------------------------------ */

static inline axfs_u32 axfs_get_be32(const void *p)
{
	const axfs_u8 *b = (const axfs_u8 *)p;

	return ((axfs_u32)b[0] << 24) | ((axfs_u32)b[1] << 16) |
	       ((axfs_u32)b[2] << 8) | (axfs_u32)b[3];
}

static inline axfs_u64 axfs_get_be64(const void *p)
{
	const axfs_u8 *b = (const axfs_u8 *)p;

	return ((axfs_u64)axfs_get_be32(b) << 32) | axfs_get_be32(b + 4);
}

static inline void axfs_put_be32(void *p, axfs_u32 v)
{
	axfs_u8 *b = (axfs_u8 *)p;

	b[0] = (axfs_u8)(v >> 24);
	b[1] = (axfs_u8)(v >> 16);
	b[2] = (axfs_u8)(v >> 8);
	b[3] = (axfs_u8)v;
}

static inline void axfs_put_be64(void *p, axfs_u64 v)
{
	axfs_u8 *b = (axfs_u8 *)p;

	axfs_put_be32(b, (axfs_u32)(v >> 32));
	axfs_put_be32(b + 4, (axfs_u32)v);
}

/*
 * Byte tables: entry i is the `depth` bytes at i * depth, big-endian.
 * Depth 0 reads as 0 for every index (the table may then be empty).
 * The caller checks (index + 1) * depth <= table length.
 */
static inline axfs_u64 axfs_bytetable_get(const axfs_u8 *table,
					  unsigned int depth, axfs_u64 index)
{
	axfs_u64 v = 0;
	unsigned int i;

	for (i = 0; i < depth; i++)
		v = (v << 8) | table[index * depth + i];
	return v;
}

static inline void axfs_bytetable_put(axfs_u8 *table, unsigned int depth,
				      axfs_u64 index, axfs_u64 value)
{
	unsigned int i;

	for (i = 0; i < depth; i++)
		table[index * depth + i] =
			(axfs_u8)(value >> (8 * (depth - 1 - i)));
}

/* Smallest depth (0..8) that holds `max_value`. */
static inline unsigned int axfs_bytetable_depth_for(axfs_u64 max_value)
{
	unsigned int d = 0;

	while (max_value) {
		d++;
		max_value >>= 8;
	}
	return d;
}

/*
 * Device numbers: the driver decodes file_size with old_decode_dev(),
 * so major and minor are 8 bits each.
 */
#define AXFS_DEV_MAJOR_MAX	255u
#define AXFS_DEV_MINOR_MAX	255u
static inline axfs_u64 axfs_encode_dev(unsigned int major, unsigned int minor)
{
	return ((axfs_u64)major << 8) | minor;
}
#define AXFS_DEV_MAJOR(v)	((unsigned int)(((v) >> 8) & 0xff))
#define AXFS_DEV_MINOR(v)	((unsigned int)((v) & 0xff))

/* Modes are truncated to 16 bits and uid/gid to 32 by the driver. */
#define AXFS_MODE_BITS		16

/* Inode numbers are passed as `int` by the driver. */
#define AXFS_MAX_INODES		0x7fffffffull

#endif /* AXFS_FORMAT_H */
