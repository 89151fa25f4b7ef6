// SPDX-License-Identifier: GPL-2.0-only
/* 6.5: blkdev_get_by_path(path, BLK_OPEN_READ, holder, holder_ops) */
#include <linux/blkdev.h>

struct block_device *axfs_probe(const char *p, void *h);
struct block_device *axfs_probe(const char *p, void *h)
{
	return blkdev_get_by_path(p, BLK_OPEN_READ, h, NULL);
}
