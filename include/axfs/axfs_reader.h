/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_reader.h - opens an AXFS image and reads it, safely.
 *
 * The image is untrusted: the superblock and every region descriptor are
 * validated against the file size before use, every table index and
 * offset is checked at use, and every error names the byte offset of the
 * offending field.  Nothing is allocated from an unchecked size.  Reads
 * follow the 2008 driver's read path (so dump/extract/fsck see exactly
 * what the kernel returns), minus its bugs.
 */
#ifndef AXFS_READER_H
#define AXFS_READER_H

#include <stdint.h>
#include <stddef.h>
#include "axfs_error.h"

/*
 * The sizes of the format that the structures and calls below hold, under
 * the API's names.  This header does not include the format (axfs_format.h
 * and the kernel-style axfs_fs.h it wraps: their byte-order helpers, such
 * as be32_to_cpu(), and <linux/types.h> would enter every user's
 * namespace); a program that wants the format's names (AXFS_R_*, enum
 * axfs_region, AXFS_MAGIC...) includes axfs_format.h itself.  The library
 * checks that each equals the format's (read/reader.c).
 */
#define AXFS_INFO_SIGNATURE_LEN	16	/* AXFS_SIGNATURE_LEN */
#define AXFS_INFO_DIGEST_LEN	40	/* AXFS_SB_DIGEST_LEN */
#define AXFS_INFO_REGIONS	18	/* AXFS_REGION_COUNT */
#define AXFS_INFO_PAGE_SIZE	4096u	/* AXFS_PAGE_SIZE */

struct axfs_image;

struct axfs_super_info {
	uint32_t magic;
	uint8_t signature[AXFS_INFO_SIGNATURE_LEN];
	uint8_t digest[AXFS_INFO_DIGEST_LEN];
	uint32_t cblock_size;
	uint64_t files, size, blocks, mmap_size;
	uint64_t region_desc[AXFS_INFO_REGIONS];	/* descriptor offsets */
	uint8_t version_major, version_minor, version_sub;
	uint8_t compression_type;
	uint64_t timestamp;
	uint8_t page_shift;		/* byte 256 (0 if the image is short) */
};

struct axfs_region_info {
	uint64_t desc_offset;		/* where its descriptor is */
	uint64_t fsoffset, size, compressed_size, max_index;
	uint8_t depth, incore;
	/* Loaded (and inflated) contents for strings and the byte tables;
	 * NULL for xip/byte_aligned/compressed, which are read on demand. */
	const uint8_t *data;
};

struct axfs_inode_info {
	uint64_t ino;
	uint32_t mode;			/* from modes[mode_index] */
	uint32_t uid, gid;
	uint64_t file_size;		/* as stored (rdev for devices) */
	uint64_t size;			/* i_size as the driver sets it */
	uint64_t num_entries;
	uint64_t array_index;
	uint64_t mode_index;
	uint64_t name_offset;
	const char *name;		/* NUL-terminated inside strings */
	size_t name_len;
};

/* Where one page of a file lives, for dump --pages and fsck. */
struct axfs_page_loc {
	uint64_t node;			/* global node number */
	uint8_t type;			/* enum axfs_node_type */
	uint64_t node_index;
	uint64_t cblock;		/* compressed: cblock number */
	uint64_t cnode_offset;		/* compressed: offset in the cblock */
	uint64_t image_offset;		/* xip/ba: byte offset of the data;
					 * compressed: of the cblock */
	uint64_t stored_len;		/* xip: 4096; ba: bytes to region end
					 * (<= 4096); compressed: cblock len */
	uint64_t data_len;		/* bytes of the file in this page */
};

struct axfs_open_opts {
	/* sizeof(this struct) as the caller compiled it; the options grow
	 * at their end (see axfs_build_opts). */
	size_t struct_size;
	/* Non-zero: fewer checks at open (fsck does its own and wants to
	 * look inside broken images). */
	int lenient;
	/* The store segment of a split image (NULL: single file). */
	const char *store_path;
	/* The memory the metadata regions may take, and the most read from
	 * an input that cannot be read in place; 0: 64 MiB + 8 x the
	 * image's real size (and 1 GiB for such an input).  See
	 * libaxfsimg/README.md, "Memory". */
	uint64_t max_memory;
};

/* Opens the image at `path`; "-" is standard input.  An input that
 * cannot be read in place (a pipe, a FIFO, a character device) is read
 * into memory: its superblock first, then at most the size it claims. */
int axfs_image_open(struct axfs_image **out, const char *path,
		    const struct axfs_open_opts *o, struct axfs_error *err);
/* From memory (fuzzers, tests); the buffer must outlive the image. */
int axfs_image_open_buffer(struct axfs_image **out, const void *buf,
			   size_t len, const char *name,
			   const struct axfs_open_opts *o,
			   struct axfs_error *err);
void axfs_image_close(struct axfs_image *img);
/* A second handle on an open image for another thread: it shares the
 * image's descriptors and loaded metadata and has its own cblock cache
 * (or shares one: axfs_cblock_pool.h).
 * A handle is not thread-safe; handles are.  Close every clone before
 * the image it was made from. */
int axfs_image_clone(struct axfs_image **out, const struct axfs_image *img,
		     struct axfs_error *err);

const char *axfs_image_name(const struct axfs_image *img);
uint64_t axfs_image_file_size(const struct axfs_image *img);
const struct axfs_super_info *axfs_image_super(const struct axfs_image *img);
/* A region r is an enum axfs_region value (AXFS_R_STRINGS...:
 * axfs_format.h); NULL, an error, "?" for one out of range. */
const struct axfs_region_info *axfs_image_region(const struct axfs_image *img,
						 unsigned int r);
const char *axfs_region_name(unsigned int r);	/* "strings" ... */

/* Reads raw image bytes [off, off+len) (both segments of a split image). */
int axfs_image_pread(struct axfs_image *img, void *buf, size_t len,
		     uint64_t off, struct axfs_error *err);
/* Table entry i of a byte-table region, bounds-checked. */
int axfs_image_table(struct axfs_image *img, unsigned int r,
		     uint64_t i, uint64_t *val, struct axfs_error *err);

int axfs_image_inode(struct axfs_image *img, uint64_t ino,
		     struct axfs_inode_info *out, struct axfs_error *err);
/* "/a/b" -> inode, with the driver's lookup semantics, following no
 * symbolic link ("/a/b" where a is a link fails, not a directory). */
int axfs_image_lookup(struct axfs_image *img, const char *path,
		      uint64_t *ino, struct axfs_error *err);

/*
 * Path resolution inside the image, as the kernel resolves a path on the
 * mounted image with the image as the root (chroot): symbolic links are
 * followed, relative ones from the directory holding them and absolute
 * ones from the root of the image; ".." of the root is the root, so no
 * path leads out of the image; at most AXFS_RESOLVE_MAX_LINKS links in
 * all (the kernel's MAXSYMLINKS), more is AXFS_ERR_LOOP.  A path that
 * does not start with '/' starts at the root too.  A trailing '/' makes
 * the last component a directory (a link to one is followed).
 *
 * flags: AXFS_RESOLVE_NOFOLLOW leaves a symbolic link in the last
 * component unfollowed (lstat(2) rather than stat(2)).
 * on_link (may be NULL) is called with each link followed, by its path
 * without links (as *real), before it is followed; a non-zero return
 * stops the resolution and is returned.
 * Sets *ino and, when real is not NULL, *real to a malloc'd path of the
 * result without links, "." or ".." ("/usr/lib/os-release"; "/" for the
 * root) that the caller frees.  Errors name the image and `path`:
 * AXFS_ERR_NOT_FOUND (no such file or directory, or a component that is
 * not a directory), AXFS_ERR_LOOP, AXFS_ERR_NOMEM, or what the image's
 * damage gives.
 */
#define AXFS_RESOLVE_NOFOLLOW	1u
#define AXFS_RESOLVE_MAX_LINKS	40
typedef int (*axfs_resolve_link_fn)(void *ctx, const char *link_path,
				    uint64_t ino);
int axfs_image_resolve(struct axfs_image *img, const char *path,
		       unsigned int flags, uint64_t *ino, char **real,
		       axfs_resolve_link_fn on_link, void *ctx,
		       struct axfs_error *err);

/*
 * 1 when the file at path is the mmap segment of a split image, which
 * cannot be read without its store segment: its superblock's magic is
 * AXFS's, the image size it gives is beyond the file and its mmap_size is
 * within it.  0 otherwise, including when path cannot be read (opening
 * it says why).
 */
int axfs_image_is_split_segment(const char *path);
/* Name (len bytes, no '/') in directory inode dir, with the same
 * semantics; *ino = UINT64_MAX when it is not there. */
int axfs_image_lookup_at(struct axfs_image *img, uint64_t dir,
			 const char *name, size_t len, uint64_t *ino,
			 struct axfs_error *err);

int axfs_image_page_location(struct axfs_image *img, uint64_t ino,
			     uint64_t page, struct axfs_page_loc *loc,
			     struct axfs_error *err);
/* Page `page` of a regular file or symlink: out gets 4096 bytes (zero
 * beyond the data, unlike the driver's stale tail); *len = file bytes in
 * this page. */
int axfs_image_read_page(struct axfs_image *img, uint64_t ino, uint64_t page,
			 uint8_t out[AXFS_INFO_PAGE_SIZE], size_t *len,
			 struct axfs_error *err);
/* pread-like on a regular file; *got < len only at end of file. */
int axfs_image_read(struct axfs_image *img, uint64_t ino, uint64_t off,
		    void *buf, size_t len, size_t *got,
		    struct axfs_error *err);
/* Symlink target, NUL-terminated; fails if it does not fit in len. */
int axfs_image_readlink(struct axfs_image *img, uint64_t ino, char *buf,
			size_t len, struct axfs_error *err);
/* Inflates cblock c into out (cblock_size bytes); *len = inflated size. */
int axfs_image_cblock(struct axfs_image *img, uint64_t c, uint8_t *out,
		      size_t *len, struct axfs_error *err);

/* Depth-first walk in directory order; path is "/" then "/a", "/a/b".
 * Refuses cycles, bad names ('/', NUL, "." / ".."), and depth > 4096.
 * A non-zero return from fn stops the walk and is returned. */
typedef int (*axfs_walk_fn)(void *ctx, const char *path,
			    const struct axfs_inode_info *ino);
int axfs_image_walk(struct axfs_image *img, axfs_walk_fn fn, void *ctx,
		    struct axfs_error *err);

#endif
