// SPDX-License-Identifier: GPL-2.0-only
/* 6.7: bdev_open_by_path(), struct bdev_handle */
#include <linux/blkdev.h>

struct block_device *axfs_probe(const char *p, void *h);
struct block_device *axfs_probe(const char *p, void *h)
{
	return bdev_open_by_path(p, BLK_OPEN_READ, h, NULL)->bdev;
}
