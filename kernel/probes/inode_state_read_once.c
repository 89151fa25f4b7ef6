// SPDX-License-Identifier: GPL-2.0-only
/* 6.19: inode_state_read_once() */
#include <linux/fs.h>

bool axfs_probe(struct inode *i);
bool axfs_probe(struct inode *i)
{
	return inode_state_read_once(i) & I_NEW;
}
