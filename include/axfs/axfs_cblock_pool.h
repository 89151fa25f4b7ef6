/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_cblock_pool.h - inflated cblocks shared by the threads that read
 * one image (a FUSE daemon, a parallel reader).
 *
 * Each image handle keeps a few inflated cblocks of its own
 * (axfs_reader.h), which is right for one thread going through files in
 * order.  Threads serving random reads of the same files want one cache:
 * a pool holds at most max_bytes of inflated cblocks, least recently used
 * replaced first, and inflates each cblock once while it is held, however
 * many threads ask for it at the same moment (the others wait for the
 * first).  Handles made with axfs_image_clone() and given the pool with
 * axfs_image_use_pool() read their cblocks through it; each handle is
 * still used by one thread at a time, the pool by all of them.
 */
#ifndef AXFS_CBLOCK_POOL_H
#define AXFS_CBLOCK_POOL_H

#include <stddef.h>
#include <stdint.h>
#include "axfs_error.h"
#include "axfs_reader.h"

struct axfs_cblock_pool;

struct axfs_cblock_pool_stats {
	uint64_t hits;		/* served from the pool */
	uint64_t inflated;	/* cblocks inflated into the pool */
	uint64_t waited;	/* reads that waited for another's inflate */
	uint64_t evicted;	/* cblocks dropped to make room */
	uint64_t bypassed;	/* every slot in use: read without the pool */
	size_t slots;		/* the bound: cblocks held at most */
	size_t held;		/* cblocks held now */
};

/* A pool for the cblocks of img (and of its clones) holding at most
 * max_bytes of them, and never fewer than 4 cblocks. */
int axfs_cblock_pool_new(struct axfs_cblock_pool **out,
			 const struct axfs_image *img, size_t max_bytes,
			 struct axfs_error *err);
/* Frees the pool; no handle may use it any more. */
void axfs_cblock_pool_free(struct axfs_cblock_pool *pool);
/* From now on handle h reads cblocks through pool (NULL: its own cache
 * again).  Fails if pool was made for another image. */
int axfs_image_use_pool(struct axfs_image *h, struct axfs_cblock_pool *pool,
			struct axfs_error *err);
void axfs_cblock_pool_stats(struct axfs_cblock_pool *pool,
			    struct axfs_cblock_pool_stats *st);

#endif
