// SPDX-License-Identifier: GPL-2.0-only
/* 6.10: block_device.bd_mapping */
#include <linux/blkdev.h>

struct address_space *axfs_probe(struct block_device *b);
struct address_space *axfs_probe(struct block_device *b)
{
	return b->bd_mapping;
}
