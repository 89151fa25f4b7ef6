/* SPDX-License-Identifier: LGPL-2.1-or-later OR GPL-2.0-only */
/*
 * axfs_fs.h - the AXFS on-disk format, described once.
 *
 * This is the single description of the format: the kernel driver
 * (fs/axfs) includes it as it is, and the user-space tools (libaxfsimg,
 * the axfs command) include it through axfs_format.h, which gives user
 * space the kernel's names for the types and the byte-order helpers.
 *
 * It follows the 2008 AXFS driver (include/linux/axfs.h) as compiled for
 * a 64-bit little-endian machine: every integer is big-endian and the
 * structures have natural alignment, so the superblock is 256 bytes with
 * 4 bytes of padding before timestamp at offset 248, and every region
 * descriptor is 40 bytes.  The fields are __be32/__be64, converted with
 * be32_to_cpu()/be64_to_cpu() (or get_unaligned_be32()/get_unaligned_be64()
 * where the bytes may be unaligned) at the point of use.
 *
 * Dual-licensed so that the GPL-2.0-only kernel driver can include it.
 */
#ifndef _AXFS_FS_H
#define _AXFS_FS_H

#include <linux/types.h>

/* ---- identification ---------------------------------------------------- */

#define AXFS_MAGIC		0x48A0E4CD
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

/* ---- superblock -------------------------------------------------------- */

/*
 * The superblock at offset 0.  The 2008 driver reads the first 256 bytes
 * (up to timestamp); the later out-of-tree driver appends page_shift and
 * refuses to mount unless it equals PAGE_SHIFT.  The tools write 12 there
 * and start the region descriptors at 264.
 */
struct axfs_super_onmedia {
	__be32 magic;			/* AXFS_MAGIC */
	__u8 signature[16];		/* AXFS_SIGNATURE */
	__u8 digest[40];		/* unused */
	__be32 cblock_size;		/* bytes inflated from one cblock */
	__be64 files;			/* number of inodes */
	__be64 size;			/* total image size */
	__be64 blocks;			/* number of nodes */
	__be64 mmap_size;		/* bytes of the image XIP may map */
	__be64 regions[AXFS_REGION_COUNT]; /* descriptor offsets */
	__u8 version_major;
	__u8 version_minor;
	__u8 version_sub;
	__u8 compression_type;		/* AXFS_COMPRESSION_ZLIB */
	__u8 padding[4];
	__be64 timestamp;		/* time_t of every inode */
	__u8 page_shift;		/* AXFS_PAGE_SHIFT */
};

/* Byte offsets of the superblock's fields, for code that reads bytes. */
#define AXFS_SB_MAGIC		offsetof(struct axfs_super_onmedia, magic)
#define AXFS_SB_SIGNATURE	offsetof(struct axfs_super_onmedia, signature)
#define AXFS_SB_DIGEST		offsetof(struct axfs_super_onmedia, digest)
#define AXFS_SB_DIGEST_LEN	40
#define AXFS_SB_CBLOCK_SIZE	offsetof(struct axfs_super_onmedia, cblock_size)
#define AXFS_SB_FILES		offsetof(struct axfs_super_onmedia, files)
#define AXFS_SB_SIZE		offsetof(struct axfs_super_onmedia, size)
#define AXFS_SB_BLOCKS		offsetof(struct axfs_super_onmedia, blocks)
#define AXFS_SB_MMAP_SIZE	offsetof(struct axfs_super_onmedia, mmap_size)
#define AXFS_SB_REGION_OFFSETS	offsetof(struct axfs_super_onmedia, regions)
#define AXFS_SB_VERSION_MAJOR	offsetof(struct axfs_super_onmedia, version_major)
#define AXFS_SB_VERSION_MINOR	offsetof(struct axfs_super_onmedia, version_minor)
#define AXFS_SB_VERSION_SUB	offsetof(struct axfs_super_onmedia, version_sub)
#define AXFS_SB_COMPRESSION_TYPE offsetof(struct axfs_super_onmedia, compression_type)
#define AXFS_SB_PADDING		offsetof(struct axfs_super_onmedia, padding)
#define AXFS_SB_TIMESTAMP	offsetof(struct axfs_super_onmedia, timestamp)
#define AXFS_SB_PAGE_SHIFT	offsetof(struct axfs_super_onmedia, page_shift)
#define AXFS_SUPER_SIZE		256	/* what the 2008 driver reads */
#define AXFS_SUPER_SIZE_EXT	264	/* with page_shift, 8-byte aligned */

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

/* ---- region descriptor ------------------------------------------------- */

/* Where a region lies and how it is stored (40 bytes, at any offset). */
struct axfs_region_desc_onmedia {
	__be64 fsoffset;		/* where the data starts */
	__be64 size;			/* uncompressed size */
	__be64 compressed_size;		/* 0 = raw, else zlib stream length */
	__be64 max_index;		/* number of entries */
	__u8 table_byte_depth;		/* bytes per table entry */
	__u8 incore;			/* non-zero = copy into RAM */
	__u8 padding[6];
};

#define AXFS_RD_FSOFFSET \
	offsetof(struct axfs_region_desc_onmedia, fsoffset)
#define AXFS_RD_SIZE		offsetof(struct axfs_region_desc_onmedia, size)
#define AXFS_RD_COMPRESSED_SIZE \
	offsetof(struct axfs_region_desc_onmedia, compressed_size)
#define AXFS_RD_MAX_INDEX \
	offsetof(struct axfs_region_desc_onmedia, max_index)
#define AXFS_RD_TABLE_DEPTH \
	offsetof(struct axfs_region_desc_onmedia, table_byte_depth)
#define AXFS_RD_INCORE \
	offsetof(struct axfs_region_desc_onmedia, incore)
#define AXFS_RD_PADDING \
	offsetof(struct axfs_region_desc_onmedia, padding)
#define AXFS_REGION_DESC_SIZE	sizeof(struct axfs_region_desc_onmedia)

#define AXFS_TABLE_DEPTH_MAX	8

/*
 * Decodes the descriptor *d (a struct axfs_region_desc_onmedia, aligned)
 * into the fields fsoffset, size, compressed_size, max_index, depth and
 * incore of *dst (the reader's, fsck's and the kernel driver's region
 * structures all have them).
 */
#define AXFS_REGION_DESC_DECODE(dst, d) do {				\
	(dst)->fsoffset = be64_to_cpu((d)->fsoffset);			\
	(dst)->size = be64_to_cpu((d)->size);				\
	(dst)->compressed_size = be64_to_cpu((d)->compressed_size);	\
	(dst)->max_index = be64_to_cpu((d)->max_index);			\
	(dst)->depth = (d)->table_byte_depth;				\
	(dst)->incore = (d)->incore;					\
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

static_assert(AXFS_SB_TIMESTAMP + 8 == AXFS_SUPER_SIZE,
	      "superblock is 256 bytes with timestamp last");
static_assert(AXFS_SB_REGION_OFFSETS == 96 && AXFS_SB_VERSION_MAJOR == 240,
	      "18 region offsets from 96 to where the version bytes start");
static_assert(AXFS_SB_CBLOCK_SIZE + 4 == AXFS_SB_FILES,
	      "files is naturally aligned after cblock_size");
static_assert(AXFS_SB_PAGE_SHIFT == AXFS_SUPER_SIZE,
	      "page_shift follows the 2008 superblock");
static_assert(AXFS_REGION_DESC_SIZE == 40 && AXFS_RD_PADDING + 6 == 40,
	      "region descriptor is 40 bytes");
static_assert(AXFS_REGION_COUNT == 18, "18 regions");

/*
 * Byte tables: entry i is the `depth` bytes at i * depth, big-endian.
 * Depth 0 reads as 0 for every index (the table may then be empty).
 * The caller checks (index + 1) * depth <= table length.
 */
static inline __u64 axfs_bytetable_get(const __u8 *table,
				       unsigned int depth, __u64 index)
{
	__u64 v = 0;
	unsigned int i;

	for (i = 0; i < depth; i++)
		v = (v << 8) | table[index * depth + i];
	return v;
}

static inline void axfs_bytetable_put(__u8 *table, unsigned int depth,
				      __u64 index, __u64 value)
{
	unsigned int i;

	for (i = 0; i < depth; i++)
		table[index * depth + i] =
			(__u8)(value >> (8 * (depth - 1 - i)));
}

/* Smallest depth (0..8) that holds `max_value`. */
static inline unsigned int axfs_bytetable_depth_for(__u64 max_value)
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
static inline __u64 axfs_encode_dev(unsigned int major, unsigned int minor)
{
	return ((__u64)major << 8) | minor;
}

#define AXFS_DEV_MAJOR(v)	((unsigned int)(((v) >> 8) & 0xff))
#define AXFS_DEV_MINOR(v)	((unsigned int)((v) & 0xff))

/* Modes are truncated to 16 bits and uid/gid to 32 by the driver. */
#define AXFS_MODE_BITS		16

/* Inode numbers are passed as `int` by the driver. */
#define AXFS_MAX_INODES		0x7fffffffull

#endif /* _AXFS_FS_H */
