// SPDX-License-Identifier: GPL-2.0-only
/* 6.10: bdev_fput() */
#include <linux/blkdev.h>

void axfs_probe(struct file *f);
void axfs_probe(struct file *f)
{
	bdev_fput(f);
}
