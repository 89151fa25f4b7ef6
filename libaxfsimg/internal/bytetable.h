/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bytetable.h - building the variable-depth byte tables of an image.
 *
 * A byte table stores n unsigned values big-endian, each in `depth`
 * bytes, where depth is the smallest that holds the largest value
 * (axfs_bytetable_depth_for in axfs_format.h).  A table whose values are
 * all zero has depth 0 and no bytes at all: the driver reads every entry
 * of a depth-0 table as 0 without touching memory.
 */
#ifndef LIBAXFSIMG_INTERNAL_BYTETABLE_H
#define LIBAXFSIMG_INTERNAL_BYTETABLE_H

#include <stdint.h>
#include "axfs_error.h"

struct bytetable {
	uint8_t *data;		/* count * depth bytes (NULL when empty) */
	uint64_t size;		/* count * depth */
	uint64_t count;		/* entries (the descriptor's max_index) */
	unsigned int depth;	/* 0..8 */
};

/* Smallest depth that holds every value of v[0..n). */
unsigned int bytetable_min_depth(const uint64_t *v, uint64_t n);

/* Packs v[0..n) at the minimal depth into bt (freed with
 * bytetable_free).  v may be NULL when n is 0. */
int bytetable_build(struct bytetable *bt, const uint64_t *v,
		    uint64_t n, struct axfs_error *err);

/* A table of n entries at `depth`, its bytes (bt->data; NULL when depth
 * or n is 0) for the caller to fill with axfs_bytetable_put(). */
int bytetable_alloc(struct bytetable *bt, uint64_t n, unsigned int depth,
		    struct axfs_error *err);

/* Same from a byte array. */
int bytetable_build_u8(struct bytetable *bt, const uint8_t *v,
		       uint64_t n, struct axfs_error *err);

void bytetable_free(struct bytetable *bt);

#endif
