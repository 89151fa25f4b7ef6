/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fsck/internal.h - shared state of the image checker.  fsck.c runs the
 * phases (fsck_super.c: superblock, descriptors, regions, counts, cblocks,
 * slack; fsck_tree.c: inodes, names, directories; fsck_data.c: nodes, XIP
 * pages, cblocks, byte-aligned data, with fsck_deep.c for --deep and
 * fsck_sink.c for what both use: fsck_deep.h, fsck_sink.h) on the image
 * as fsck_input.c reads it; the phases use the helpers fsck_report.c
 * (check table,
 * findings), fsck_alloc.c (memory), fsck_tables.c (zlib, offsets, table
 * entries) and fsck_path.c (inodes' names and paths).  Nothing here is
 * exported: functions are fsck_*, not axfs_*.
 */
#ifndef LIBAXFSIMG_FSCK_INTERNAL_H
#define LIBAXFSIMG_FSCK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "opts_size.h"
#include "budget.h"

#include "axfs_format.h"
#include "axfs_fsck.h"

/*
 * Every check: enum name, stable id, severity, one-line summary.  The ids
 * are an interface (scripts grep them, --json carries them, the manual
 * lists them): never rename one.
 */
#define FSCK_CHECKS(X) \
	X(IMAGE_SHORT, "image.short", ERROR, "the image is too short to hold a superblock") \
	X(IMAGE_SLACK, "image.slack", WARNING, "bytes outside the superblock, the descriptors and the regions are not zero") \
	X(IMAGE_DEVICE, "image.device-larger", NOTICE, "the device is larger than the image; the rest is not part of it and is not checked") \
	X(IMAGE_TRAILING, "image.trailing", NOTICE, "the file is longer than size (an image padded to a partition, or the legacy mkfs's padding): what follows is all 0x00, all 0xFF or other bytes, and is not part of the image") \
	X(SB_MAGIC, "sb.magic", ERROR, "no AXFS magic 0x48A0E4CD at byte 0") \
	X(SB_SIGNATURE, "sb.signature", ERROR, "the signature is not \"Advanced XIP FS\" followed by NUL") \
	X(SB_VERSION, "sb.version", WARNING, "unknown format version (known: 1.0.0 and 2.x.x)") \
	X(SB_COMPRESSION, "sb.compression", ERROR, "compression_type is not 0 (zlib); the driver refuses to mount") \
	X(SB_PADDING, "sb.padding", WARNING, "the superblock padding bytes 244..247 are not zero") \
	X(SB_PAGE_SHIFT, "sb.page-shift", WARNING, "byte 256 (page_shift of the later driver) is neither 12 nor 0") \
	X(SB_NO_PAGE_SHIFT, "sb.no-page-shift", NOTICE, "byte 256 is 0: the later out-of-tree driver refuses to mount") \
	X(SB_CBLOCK_SIZE, "sb.cblock-size", ERROR, "cblock_size is not a power of two from 4 KiB to 1 MiB") \
	X(SB_SIZE, "sb.size", ERROR, "size is larger than the file or device (or is not the mmap plus store segment lengths)") \
	X(SB_SIZE_ALIGN, "sb.size-align", WARNING, "size is not a multiple of 4096 (a loop device drops a partial sector)") \
	X(SB_END_MAGIC, "sb.end-magic", ERROR, "the last 4 bytes of the image are not the magic") \
	X(SB_OVER_4GIB, "sb.over-4gib", WARNING, "the image is larger than 4 GiB: the 2008 driver looks for the end magic at (u32)(size - 4), where it is") \
	X(SB_END_MAGIC_U32, "sb.end-magic-u32", ERROR, "the image is larger than 4 GiB and the magic is not at (u32)(size - 4): the 2008 driver refuses to mount") \
	X(SB_MMAP_SIZE, "sb.mmap-size", ERROR, "mmap_size is larger than size, or not the length of the mmap segment") \
	X(SB_MMAP_ALIGN, "sb.mmap-align", WARNING, "mmap_size of a split image is not a multiple of 4096") \
	X(SB_FILES, "sb.files", ERROR, "files is not the number of entries of the inode tables, or 0, or above 2^31-1") \
	X(SB_BLOCKS, "sb.blocks", ERROR, "blocks is smaller than the nodes files use (the profiling driver indexes its array by node), or larger than the image has bytes (it cannot allocate that array)") \
	X(SB_BLOCKS_COUNT, "sb.blocks-count", WARNING, "blocks covers every node a file uses, but is not the number of entries of the node tables") \
	X(DESC_RANGE, "desc.range", ERROR, "a region descriptor lies outside the image") \
	X(DESC_OVERLAP, "desc.overlap", ERROR, "a region descriptor overlaps the superblock or another descriptor") \
	X(DESC_PADDING, "desc.padding", WARNING, "the padding bytes 34..39 of a region descriptor are not zero") \
	X(DESC_INCORE, "desc.incore", WARNING, "the incore flag of a region descriptor is neither 0 nor 1") \
	X(REGION_RANGE, "region.range", ERROR, "a region's data lies outside the image") \
	X(REGION_OVERLAP, "region.overlap", ERROR, "a region's data overlaps another region, the superblock or a descriptor") \
	X(REGION_DEPTH, "region.depth", ERROR, "a byte table's depth is above 8") \
	X(REGION_NOT_TABLE, "region.not-table", WARNING, "a region that is not a byte table has a depth") \
	X(REGION_SIZE, "region.size", ERROR, "a byte table's size is not max_index x depth") \
	X(REGION_COUNT, "region.count", ERROR, "a table's entry count disagrees with the superblock or its sibling tables") \
	X(REGION_DEPTH_MIN, "region.depth-minimal", WARNING, "a byte table's depth is larger than its largest entry needs") \
	X(REGION_BOUND, "region.bound", ERROR, "a region the reader loads into memory (strings, a byte table, a data region stored compressed) claims more bytes than the superblock's inode and node counts allow; it is not inflated") \
	X(REGION_INFLATE, "region.inflate", ERROR, "a compressed region does not inflate to exactly size bytes") \
	X(REGION_STREAM_TAIL, "region.stream-tail", WARNING, "bytes follow the end of a compressed region's zlib stream") \
	X(REGION_EMPTY, "region.empty", WARNING, "an empty region has a non-zero fsoffset or compressed_size") \
	X(REGION_MAX_INDEX, "region.max-index", WARNING, "max_index of strings, xip, byte_aligned or compressed is not the inode, page, banode or cblock count") \
	X(REGION_XIP_ALIGN, "region.xip-align", ERROR, "the XIP region's offset or size is not a multiple of 4096") \
	X(REGION_MMAP, "region.mmap", WARNING, "the XIP region is not inside mmap_size, or a region straddles mmap_size") \
	X(REGION_COMPRESSED_DATA, "region.compressed-data", ERROR, "a data region is stored compressed beyond mmap_size, where the driver reads it raw") \
	X(LIMIT_MEMORY, "limit.memory", ERROR, "checking would need more memory than --max-memory allows") \
	X(ROOT_TYPE, "root.type", ERROR, "inode 0 (the root) is not a directory") \
	X(ROOT_EMPTY, "root.empty", ERROR, "the root directory is empty; the driver refuses to mount") \
	X(ROOT_NAME, "root.name", WARNING, "the root inode has a non-empty name") \
	X(DIR_RANGE, "dir.range", ERROR, "a directory's children lie outside the inode tables or include the root") \
	X(DIR_ORDER, "dir.order", ERROR, "a directory's children are not sorted bytewise (strcmp); lookup misses files") \
	X(DIR_DUPLICATE, "dir.duplicate", ERROR, "two children of a directory have the same name") \
	X(DIR_FIELDS, "dir.fields", WARNING, "a directory's size is not the bytes of its children's names (each + NUL), or an empty one's array_index is not 0") \
	X(INODE_MULTIPLE, "inode.multiple", ERROR, "an inode is the child of more than one directory (cycle or hard-linked directory)") \
	X(INODE_UNREACHABLE, "inode.unreachable", ERROR, "inodes are not reachable from the root") \
	X(INODE_TABLES, "inode.tables", ERROR, "an inode has no entry in one of the inode tables") \
	X(TREE_DEPTH, "tree.depth", WARNING, "directories are nested more than 4096 deep") \
	X(NAME_RANGE, "name.range", ERROR, "a name offset lies outside the strings region") \
	X(NAME_UNTERMINATED, "name.unterminated", ERROR, "a name is not NUL-terminated inside the strings region") \
	X(NAME_EMPTY, "name.empty", ERROR, "a name is empty") \
	X(NAME_SLASH, "name.slash", ERROR, "a name contains '/'") \
	X(NAME_DOT, "name.dot", ERROR, "a name is \".\" or \"..\"") \
	X(NAME_LONG, "name.too-long", ERROR, "a name is longer than 255 bytes") \
	X(STRINGS_UNUSED, "strings.unused", WARNING, "bytes of the strings region are not part of any name") \
	X(MODE_INDEX, "mode.index", ERROR, "an inode's mode index lies outside the modes, uids and gids tables") \
	X(MODE_TYPE, "mode.type", ERROR, "a mode table entry is not a directory, file, symlink, device, fifo or socket") \
	X(MODE_BITS, "mode.bits", WARNING, "a mode is wider than 16 bits or a uid/gid wider than 32 (the driver truncates)") \
	X(MODE_UNUSED, "mode.unused", WARNING, "a mode/uid/gid tuple is used by no inode") \
	X(FILE_NUM_ENTRIES, "file.num-entries", WARNING, "a file's num_entries (i_blocks) is not its size in 512-byte blocks (or pages), or a symlink's not 0 (or 1)") \
	X(FILE_NODES, "file.nodes", ERROR, "a file's nodes lie outside the node tables") \
	X(FILE_EMPTY_FIELDS, "file.empty-fields", WARNING, "an empty file's array_index is not 0") \
	X(SYMLINK_SIZE, "symlink.size", ERROR, "a symlink target is empty or 4096 bytes or longer") \
	X(SYMLINK_TARGET, "symlink.target", ERROR, "a symlink target contains NUL (readlink returns a shorter target)") \
	X(SYMLINK_NUL, "symlink.nul", WARNING, "a symlink target is not followed by NUL in its node (only kernels before 2.6.31, without nd_terminate_link, read past it)") \
	X(DEV_NUMBER, "dev.number", ERROR, "a device number does not fit 8-bit major and minor") \
	X(SPECIAL_FIELDS, "special.fields", WARNING, "a device, fifo or socket has non-zero num_entries or array_index, or a fifo/socket a size") \
	X(NODE_TYPE, "node.type", ERROR, "a node type is not 0 (XIP), 1 (compressed) or 2 (byte-aligned)") \
	X(NODE_INDEX, "node.index", ERROR, "a node index lies outside the XIP region or the cnode/banode tables") \
	X(NODE_UNUSED, "node.unused", WARNING, "nodes are used by no file") \
	X(NODE_OVERLAP, "node.overlap", WARNING, "files share only some nodes, or share nodes with different sizes") \
	X(NODE_AMPLIFIED, "node.amplified", WARNING, "files share nodes but not their mode and owner, so that extracting them writes more than 8 times the data the image holds (extract refuses that unless --max-ratio allows it)") \
	X(NODE_XIP_ORDER, "node.xip-order", NOTICE, "an XIP page is followed by a non-XIP page: the 2008 driver's read() returns wrong data for an unaligned read across them (mmap, exec and this project's driver are not affected)") \
	X(XIP_SHARED, "xip.shared", WARNING, "an XIP page is used by more than one node") \
	X(XIP_UNUSED, "xip.unused", WARNING, "XIP pages are used by no node") \
	X(XIP_TAIL, "xip.tail", WARNING, "bytes after the end of a file in its XIP page are not zero") \
	X(CNODE_CBLOCK, "cnode.cblock", ERROR, "a cnode's cblock number lies outside the cblock table") \
	X(CNODE_OFFSET, "cnode.offset", ERROR, "a page does not fit in its cblock (cnode_offset + bytes > cblock_size or the inflated length)") \
	X(CNODE_OVERLAP, "cnode.overlap", WARNING, "two pages overlap inside a cblock") \
	X(CNODE_SHARED, "cnode.shared", WARNING, "a cnode is shared by a node that is not a full page") \
	X(CNODE_UNUSED, "cnode.unused", WARNING, "cnodes are used by no node") \
	X(CBLOCK_ORDER, "cblock.order", ERROR, "cblock offsets are not strictly increasing from 0") \
	X(CBLOCK_RANGE, "cblock.range", ERROR, "a cblock ends beyond the compressed region") \
	X(CBLOCK_TOO_LONG, "cblock.too-long", ERROR, "a cblock's compressed length exceeds cblock_size (a heap overflow in the driver)") \
	X(CBLOCK_INFLATE, "cblock.inflate", ERROR, "a cblock is not a valid zlib stream") \
	X(CBLOCK_OVERSIZE, "cblock.oversize", ERROR, "a cblock inflates to more than cblock_size bytes") \
	X(CBLOCK_STREAM_TAIL, "cblock.stream-tail", WARNING, "bytes follow the end of a cblock's zlib stream") \
	X(CBLOCK_UNUSED, "cblock.unused", WARNING, "a cblock is used by no cnode") \
	X(CBLOCK_SLACK, "cblock.slack", WARNING, "inflated cblock bytes that belong to no page are not zero") \
	X(COMPRESSED_UNUSED, "compressed.unused", WARNING, "bytes of the compressed region follow the last cblock") \
	X(BANODE_RANGE, "banode.range", ERROR, "a byte-aligned page does not fit inside the byte-aligned region") \
	X(BANODE_OVERLAP, "banode.overlap", WARNING, "two byte-aligned pages overlap") \
	X(BANODE_SHARED, "banode.shared", WARNING, "a banode is shared by a node that is not a full page") \
	X(BANODE_UNUSED, "banode.unused", WARNING, "banodes are used by no node") \
	X(BA_SLACK, "banode.slack", WARNING, "bytes of the byte-aligned region that belong to no page are not zero") \
	X(BA_UNUSED, "byte-aligned.unused", WARNING, "bytes of the byte-aligned region follow the last page") \
	X(DIGEST_NONE, "digest.none", NOTICE, "the image has no digest (all 40 bytes are zero)") \
	X(DIGEST_MISMATCH, "digest.mismatch", ERROR, "the SHA-1 digest does not match the image") \
	X(DIGEST_PADDING, "digest.padding", ERROR, "bytes 20..39 of the digest field are not zero")

enum fsck_check {
#define FSCK_ENUM(e, id, sev, sum) FC_##e,
	FSCK_CHECKS(FSCK_ENUM)
#undef FSCK_ENUM
	FC_COUNT
};

#define FSCK_NO_INO UINT64_MAX

/* One region: the descriptor as read, and its contents once loaded. */
struct fsck_region {
	uint64_t desc_off;	/* where the descriptor is */
	int desc_ok;		/* the 40 bytes lie inside the image */
	uint64_t fsoffset, size, compressed_size, max_index;
	uint8_t depth, incore;
	int range_ok;		/* stored bytes lie inside the image */
	int usable;		/* its bytes can be read: in data, or (a data
				 * region stored raw) read from the image on
				 * demand, fsck_region_view() */
	const uint8_t *data;	/* size bytes (raw or inflated), or NULL */
	uint8_t *owned;		/* inflated copy to free */
	/* Byte tables: usable entries (0 when not usable). */
	int table_ok;
	uint64_t entries;
	int missing_reported;	/* "entry missing" said once per table */
};

/* A file's node range, for sharing and overlap checks and paths. */
struct fsck_range {
	uint64_t start, count, ino, size;
	int symlink;
	int overlaps;		/* starts inside an earlier range */
};

/*
 * fsck_input.c: the image as read: one or two segments (a split image's
 * mmap and store segments), each in memory (a buffer, a stream read to
 * its claimed end, an MTD device) or read with pread() from a regular
 * file or a block device as each check needs it, never copied whole nor
 * mapped (a mapped file cut short kills with SIGBUS).  Reads are
 * thread-safe: the digest thread and the deep check's workers read too.
 */
struct fsck_src {
	const uint8_t *mem[2];	/* the segment in memory, or NULL: fd[] */
	int fd[2];
	uint64_t len[2];	/* image bytes [0, len[0]) then the store */
};
/* A read buffer: image bytes [start, start + len) in buf, cap bytes
 * allocated on first use (fsck_src_view); the owner frees buf. */
struct fsck_window {
	uint8_t *buf;
	uint64_t cap, start, len;
};
#define FSCK_WINDOW_SIZE (1u << 20)	/* >= AXFS_CBLOCK_MAX */

struct fsck {
	const char *name;
	struct fsck_src src;
	struct fsck_window win;	/* the calling thread's reads */
	uint8_t sb[AXFS_SUPER_SIZE + 1];	/* the superblock, page_shift */
	uint64_t len;		/* bytes available */
	uint64_t limit;		/* the image: [0, limit) */
	int split;		/* two segments were joined */
	uint64_t seg1_len;	/* the mmap segment's length */
	int is_device;
	const struct axfs_fsck_opts *o;
	struct axfs_fsck_result *res;
	int stop;
	int read_rc;		/* a read failed: the error, in *err */
	struct axfs_error *err;
	uint64_t per_check[FC_COUNT];
	struct budget mem;	/* budget.h: the reader's rule */

	/* Superblock values. */
	uint32_t cblock_size;
	int cblock_ok;
	uint64_t files, size, blocks, mmap_size;
	uint64_t desc_start;	/* first byte after the superblock proper */
	struct fsck_region r[AXFS_REGION_COUNT];
	uint64_t n_inodes, n_nodes, n_modes, n_cnodes, n_banodes, n_cblocks;
	uint64_t xip_pages;
	uint64_t nodes_end;	/* 1 + the last node a file uses */
	int nodes_end_known;

	/* Tree (fsck_tree.c). */
	uint64_t *parent;	/* per inode: parent, FSCK_NO_INO unreached */
	uint64_t nino;		/* inodes walked */
	uint8_t *mode_used;	/* per mode tuple */
	struct fsck_range *ranges;
	size_t nranges, ranges_cap;
	char *pathbuf;		/* fsck_path() */
	size_t pathcap;

	z_stream zs;
	int zs_ok;
};

/* fsck_report.c */
void fsck_report(struct fsck *f, enum fsck_check c, uint64_t off,
		 uint64_t ino, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int fsck_stopped(struct fsck *f);
/* Tells how many findings the per-check limit held back (at the end). */
void fsck_report_suppressed(struct fsck *f);
const char *fsck_region_name(enum axfs_region r);
void fsck_progress(struct fsck *f, uint64_t done, uint64_t total);

/* fsck_alloc.c: memory accounting: 0 when `bytes` more fit under the limit. */
int fsck_mem_reserve(struct fsck *f, uint64_t bytes, uint64_t off,
		     const char *what);
void fsck_mem_release(struct fsck *f, uint64_t bytes);
void *fsck_alloc(struct fsck *f, uint64_t nmemb, uint64_t size,
		 uint64_t off, const char *what);
/* Memory that only speeds things up: NULL, and no finding, when it does
 * not fit under the limit. */
void *fsck_try_alloc(struct fsck *f, uint64_t bytes);
void fsck_free(struct fsck *f, void *p, uint64_t nmemb, uint64_t size);

/* fsck_tables.c: table entry i of region r; 0 on success, -1 if missing (reported once
 * as inode.tables when ino != FSCK_NO_INO). */
int fsck_table(struct fsck *f, enum axfs_region r, uint64_t i, uint64_t *v);
/* Byte offset to report for entry i of table r. */
uint64_t fsck_table_off(const struct fsck *f, enum axfs_region r, uint64_t i);
/* Byte offset to report for byte `off` inside region r. */
uint64_t fsck_region_off(const struct fsck *f, enum axfs_region r,
			 uint64_t off);
/* Inflates one zlib stream; see fsck_tables.c. */
enum fsck_z { FSCK_Z_OK, FSCK_Z_OVER, FSCK_Z_BAD, FSCK_Z_TRUNC };
enum fsck_z fsck_inflate(z_stream *zs, const uint8_t *src, uint64_t slen,
			 uint8_t *dst, uint64_t dcap, uint64_t *out_len,
			 uint64_t *in_used, const char **msg);

/* fsck_report.c: runs of items (unused nodes, unreachable inodes...)
 * reported as one finding per run. */
struct fsck_run {
	enum fsck_check check;
	uint64_t first, last, off;
	int open;
	const char *what;	/* "node", "XIP page" ... (+s for runs) */
	const char *verb;	/* "used by no file" ... */
};
void fsck_run_add(struct fsck *f, struct fsck_run *run, uint64_t item,
		  uint64_t off);
void fsck_run_flush(struct fsck *f, struct fsck_run *run);

/* fsck_path.c: the name of inode ino, NUL-terminated inside the strings
 * region and at most 255 bytes; -1 and *why ("no name offset", "no
 * strings region", "range", "long": a NUL at or past last_nul, the offset
 * after the region's last NUL, "unterminated") otherwise. */
int fsck_inode_name(struct fsck *f, uint64_t ino, uint64_t last_nul,
		    const char **name, size_t *len, uint64_t *noff,
		    const char **why);
/* "/a/b" for an inode the tree phase reached (f->parent), NULL otherwise;
 * valid until the next call. */
const char *fsck_path(struct fsck *f, uint64_t ino);
void fsck_path_free(struct fsck *f);

/* fsck_tables.c: 1 when p[0, n) is all zero bytes. */
int fsck_all_zero(const uint8_t *p, uint64_t n);
/* 1 and *first (its index) when p[0, n) has a non-zero byte. */
int fsck_first_nonzero(const uint8_t *p, uint64_t n, uint64_t *first);

/* fsck_input.c: an image file, device or stream.  Open, then load;
 * close after either (also when they fail). */
struct fsck_input {
	int fd;
	const char *name;	/* path, or IMAGE_INPUT_STDIN_NAME for "-" */
	uint64_t len;
	int is_device;
	int is_file;		/* a regular file: read with pread() */
	int use_fd;		/* p is NULL: read fd as checks need it */
	int mapped;
	uint8_t *p;
};
int fsck_input_open(struct fsck_input *in, const char *path,
		    struct axfs_error *err);
int fsck_input_load(struct fsck_input *in, uint64_t max_memory,
		    struct axfs_error *err);
void fsck_input_close(struct fsck_input *in);

/* Thread-safe reads of image bytes [off, off + n) (inside the segments):
 * 0, or a negative errno (-ENODATA: the file ends early, it changed while
 * it was read) with *bad the offset that failed. */
int fsck_src_read(const struct fsck_src *s, uint64_t off, void *buf,
		  uint64_t n, uint64_t *bad);
/* A pointer to image bytes [off, off + n), n <= w->cap: into a segment in
 * memory, or into w->buf (allocated then), filled from off as far as it
 * holds.  NULL and *rc, *bad on a read error. */
const uint8_t *fsck_src_view(const struct fsck_src *s, struct fsck_window *w,
			     uint64_t off, uint64_t n, int *rc, uint64_t *bad);
/* The first byte at or after off that may not be zero: holes of a sparse
 * file are skipped (SEEK_DATA); off itself where that is unknown. */
uint64_t fsck_src_data(const struct fsck_src *s, uint64_t off);
/* Image bytes [off, off + n) for the calling thread (f->win); NULL after
 * a read error, which stops the check (fsck_read_failed). */
const uint8_t *fsck_bytes(struct fsck *f, uint64_t off, uint64_t n);
/* Region r's bytes [off, off + n): its data, or the image's (n <= the
 * window's size). */
const uint8_t *fsck_region_view(struct fsck *f, enum axfs_region r,
				uint64_t off, uint64_t n);
/* 1 and *first (relative to off) when region r's bytes [off, off + n)
 * (r < 0: the image's) hold a non-zero byte; 0 otherwise or after a read
 * error. */
int fsck_scan_nonzero(struct fsck *f, int r, uint64_t off, uint64_t n,
		      uint64_t *first);
/* A read failed (rc, at byte bad): the check ends with that error. */
void fsck_read_failed(struct fsck *f, int rc, uint64_t bad);


/* fsck_super.c, in the order they run */
int fsck_check_superblock(struct fsck *f);	/* -1: not AXFS at all */
void fsck_check_digest_field(struct fsck *f);
void fsck_read_descriptors(struct fsck *f);
void fsck_check_regions(struct fsck *f);
void fsck_check_page_shift(struct fsck *f);
void fsck_load_regions(struct fsck *f);
void fsck_check_counts(struct fsck *f);
void fsck_check_slack(struct fsck *f);
void fsck_check_blocks(struct fsck *f);	/* after fsck_check_data() */

/* fsck_tree.c */
void fsck_check_tree(struct fsck *f);
void fsck_tree_free(struct fsck *f);

/* fsck_share.c: node.amplified (after fsck_check_tree(), which lists
 * the files' ranges) */
void fsck_check_share(struct fsck *f);

/* fsck_data.c */
void fsck_check_data(struct fsck *f);

#endif
