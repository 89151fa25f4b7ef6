/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * writer.h - lays out and writes a whole image from a finalised,
 * packed tree: superblock, region descriptors, regions, padding, the
 * trailing magic and the SHA-1 digest.
 *
 * Layout (see man/axfs.5): superblock (256 bytes) + page_shift byte,
 * 18 descriptors from byte 264, then the XIP region (page-aligned), the
 * strings and the 14 byte tables, the byte-aligned region, the compressed
 * region; padded to a multiple of 4096 with the magic in the last 4 bytes.
 * Everything below mmap_size is what a physaddr= mount reads in place.
 */
#ifndef LIBAXFSIMG_INTERNAL_WRITER_H
#define LIBAXFSIMG_INTERNAL_WRITER_H

#include <stdint.h>
#include "tree.h"
#include "packer.h"
#include "axfs_format.h"
#include "stages.h"

struct write_opts {
	int64_t timestamp;
	/* 0: single device, mmap_size = size.  Else the memory-mapped part
	 * (superblock, descriptors, XIP, in-place metadata) must fit. */
	uint64_t mmap_limit;
	/* -1 auto (compress a metadata region when it saves space and no
	 * mmap limit asks for in-place metadata), 0 never, 1 always. */
	int compress_metadata;
	enum axfs_compressor compressor;	/* DEFAULT: libdeflate */
	int level;			/* invalid for the compressor: 9 */
	int digest;			/* 1: write the SHA-1 digest */
	const struct axfs_logger *log;
	/* The output's name in messages ("cannot write 'NAME': ..."); NULL:
	 * "the image". */
	const char *name;
};

/* Writes the image to fd (a fresh temporary file, written from offset 0). */
int write_image(int fd, const struct tree *t,
		const struct pack_result *p,
		const struct write_opts *o, struct write_layout *lay,
		struct axfs_error *err);

/*
 * The digest: SHA-1 over every byte of the image with the 40-byte digest
 * field read as zeros; stored as 20 raw bytes followed by 20 zero bytes.
 * For a split image the digest covers the joined image.
 */
int write_digest(int fd, uint64_t size, uint8_t out[20],
		 struct axfs_error *err);

#endif
