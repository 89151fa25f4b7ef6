// SPDX-License-Identifier: GPL-2.0-only
/* 5.16: bdev_nr_bytes() */
#include <linux/blkdev.h>

loff_t axfs_probe(struct block_device *b);
loff_t axfs_probe(struct block_device *b)
{
	return bdev_nr_bytes(b);
}
