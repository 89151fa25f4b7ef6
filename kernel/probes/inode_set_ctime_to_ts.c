// SPDX-License-Identifier: GPL-2.0-only
/* 6.6: inode_set_ctime_to_ts() (backported to older lines) */
#include <linux/fs.h>

void axfs_probe(struct inode *i, struct timespec64 t);
void axfs_probe(struct inode *i, struct timespec64 t)
{
	inode_set_ctime_to_ts(i, t);
}
