// SPDX-License-Identifier: GPL-2.0-only
/* 5.18: bio_alloc(bdev, nr_vecs, opf, gfp) */
#include <linux/bio.h>

struct bio *axfs_probe(struct block_device *b);
struct bio *axfs_probe(struct block_device *b)
{
	return bio_alloc(b, 1, REQ_OP_READ, GFP_NOIO);
}
