/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * budget.h - the memory rule for hostile images, in one place
 * (libaxfsimg/README.md, "Memory"): what a reader or a check may hold is
 * a function of the image's real size, whatever the image claims, and
 * every region is bounded by what the superblock's counts allow.  Used by
 * the reader (reader.c), the checker (fsck.c) and the loading of inputs
 * that cannot be read in place (image_input.c).  Not installed.
 */
#ifndef LIBAXFSIMG_INTERNAL_BUDGET_H
#define LIBAXFSIMG_INTERNAL_BUDGET_H

#include <stdint.h>
#include "axfs_format.h"

/* The default budget: 64 MiB plus 8 bytes per byte of the image. */
#define BUDGET_BASE	(64ull << 20)
#define BUDGET_PER_BYTE	8u
/* A non-seekable input (a pipe, standard input) is copied into memory:
 * at most what its superblock claims, and at most this unless the caller
 * sets a budget (--max-memory). */
#define BUDGET_STREAM_MAX_DEFAULT	(1ull << 30)

struct budget {
	uint64_t limit;
	uint64_t used;
};

/* 64 MiB + 8 x image_size, saturating. */
uint64_t budget_default(uint64_t image_size);
/* 0 and `bytes` counted when they fit under the limit, else -1. */
int budget_take(struct budget *b, uint64_t bytes);
void budget_give(struct budget *b, uint64_t bytes);

/*
 * The most bytes region r can hold (inflated) in an image whose
 * superblock counts `files` inodes and `blocks` nodes: a table has at
 * most one 8-byte entry per inode (inode tables, modes, uids, gids) or
 * per node (+1: cblock_offset's sentinel), strings one name of at most
 * 255 bytes and its NUL per inode, a data region at most one 64 KiB page
 * per node; plus a page of slack for padding.
 */
uint64_t budget_region_max(enum axfs_region r, uint64_t files,
			  uint64_t blocks);

/* Whether the reader loads region r into memory when it opens an image:
 * strings and the byte tables always, a data region stored compressed. */
int budget_region_loaded(enum axfs_region r, uint64_t compressed_size);

/*
 * The most an image with these regions takes from a budget when it is
 * opened and checked: the reader's loads in region order (each region,
 * plus its zlib stream while it inflates: reader.c, load_region()), and
 * the 2 bytes a node fsck adds for what each node must hold (its largest
 * array a node).  mkfs refuses to write an image for which this is over
 * budget_default() of its size: every reader of ours would refuse it.
 */
uint64_t budget_open_need(const uint64_t size[AXFS_REGION_COUNT],
			  const uint64_t compressed_size[AXFS_REGION_COUNT],
			  uint64_t nodes);

#endif
