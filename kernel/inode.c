// SPDX-License-Identifier: GPL-2.0-only
/*
 * inode.c - build VFS inodes from the inode tables.
 *
 * AXFS inode i (root = 0) becomes VFS inode number i + 1, so that no
 * inode number is 0.  Each attribute is read from its byte table with a
 * bounds check; an inode whose tables do not make sense gives -EIO.
 */
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/pagemap.h>
#include <linux/stat.h>

#include "axfs.h"

/* Directories link 2 + one per subdirectory, as on other filesystems. */
static unsigned int axfs_dir_nlink(const struct axfs_sb_info *sbi, u64 ino)
{
	unsigned int nlink = 2;
	u64 first, n, i;
	umode_t mode;

	if (axfs_table_get(sbi, AXFS_R_INODE_NUM_ENTRIES, ino, &n) ||
	    axfs_table_get(sbi, AXFS_R_INODE_ARRAY_INDEX, ino, &first))
		return nlink;
	for (i = 0; i < n; i++)
		if (!axfs_inode_mode(sbi, first + i, &mode) && S_ISDIR(mode) &&
		    nlink < U32_MAX)
			nlink++;
	return nlink;
}

struct inode *axfs_iget(struct super_block *sb, u64 ino)
{
	struct axfs_sb_info *sbi = AXFS_SB(sb);
	struct timespec64 ts;
	struct inode *inode;
	u64 size, mi, uid, gid;
	umode_t mode;

	if (ino >= sbi->files)
		return ERR_PTR(-EIO);
	inode = iget_locked(sb, ino + 1);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode_state_read_once(inode) & I_NEW))
		return inode;

	if (axfs_inode_mode(sbi, ino, &mode) ||
	    axfs_table_get(sbi, AXFS_R_INODE_MODE_INDEX, ino, &mi) ||
	    axfs_table_get(sbi, AXFS_R_UIDS, mi, &uid) ||
	    axfs_table_get(sbi, AXFS_R_GIDS, mi, &gid) ||
	    axfs_table_get(sbi, AXFS_R_INODE_FILE_SIZE, ino, &size))
		goto bad;

	inode->i_mode = mode;
	/* st_blksize 4096 (the 2008 driver set i_blkbits to 32768). */
	inode->i_blkbits = PAGE_SHIFT;
	i_uid_write(inode, (uid_t)uid);
	i_gid_write(inode, (gid_t)gid);
	/* One timestamp for the whole image. */
	ts.tv_sec = (time64_t)sbi->timestamp;
	ts.tv_nsec = 0;
	inode_set_atime_to_ts(inode, ts);
	inode_set_mtime_to_ts(inode, ts);
	inode_set_ctime_to_ts(inode, ts);

	switch (mode & S_IFMT) {
	case S_IFREG:
		if (size > MAX_LFS_FILESIZE)
			goto bad;
		inode->i_size = size;
		inode->i_blocks = DIV_ROUND_UP_ULL(size, 512);
		inode->i_fop = &axfs_file_operations;
		inode->i_data.a_ops = &axfs_aops;
		break;
	case S_IFDIR:
		if (size > MAX_LFS_FILESIZE)
			goto bad;
		inode->i_size = size;
		inode->i_op = &axfs_dir_inode_operations;
		inode->i_fop = &axfs_dir_operations;
		set_nlink(inode, axfs_dir_nlink(sbi, ino));
		break;
	case S_IFLNK:
		/* page_get_link() terminates the target at i_size. */
		if (!size || size >= PAGE_SIZE)
			goto bad;
		inode->i_size = size;
		inode->i_blocks = DIV_ROUND_UP_ULL(size, 512);
		inode->i_op = &page_symlink_inode_operations;
		inode_nohighmem(inode);
		inode->i_data.a_ops = &axfs_aops;
		break;
	case S_IFCHR:
	case S_IFBLK:
		/*
		 * file_size holds old_encode_dev(); new_decode_dev() reads
		 * those the same way and also accepts larger numbers.
		 */
		if (size > U32_MAX)
			goto bad;
		init_special_inode(inode, mode, new_decode_dev((u32)size));
		break;
	case S_IFIFO:
	case S_IFSOCK:
		init_special_inode(inode, mode, 0);
		break;
	default:
		goto bad;
	}
	unlock_new_inode(inode);
	return inode;

bad:
	axfs_err_ratelimited(sb, "inode %llu: corrupt attributes", ino);
	iget_failed(inode);
	return ERR_PTR(-EIO);
}
