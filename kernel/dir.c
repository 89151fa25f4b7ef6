// SPDX-License-Identifier: GPL-2.0-only
/*
 * dir.c - directory lookup and readdir.
 *
 * The children of a directory are the consecutive inodes
 * [array_index, array_index + num_entries), sorted by strcmp().  Lookup
 * scans them in order and stops early, as the 2008 driver did: at the
 * first name whose first byte is greater than the one searched for, or at
 * the first name of the same length that compares greater.  Bytes are
 * compared unsigned.  readdir adds "." and ".." and reports the file type
 * in d_type (the 2008 driver passed the whole mode there).
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/overflow.h>
#include <linux/string.h>

#include "axfs.h"

static int axfs_dir_range(const struct axfs_sb_info *sbi, u64 ino, u64 *first,
			  u64 *n)
{
	u64 end;

	if (axfs_table_get(sbi, AXFS_R_INODE_NUM_ENTRIES, ino, n) ||
	    axfs_table_get(sbi, AXFS_R_INODE_ARRAY_INDEX, ino, first))
		return -EIO;
	if (!*n)
		return 0;
	if (check_add_overflow(*first, *n, &end) || end > sbi->files)
		return -EIO;
	return 0;
}

static struct dentry *axfs_lookup(struct inode *dir, struct dentry *dentry,
				  unsigned int flags)
{
	struct axfs_sb_info *sbi = AXFS_SB(dir->i_sb);
	const unsigned char *want = dentry->d_name.name;
	unsigned int want_len = dentry->d_name.len;
	struct inode *inode = NULL;
	u64 first, n, i;

	if (axfs_dir_range(sbi, axfs_ino_index(dir), &first, &n))
		return ERR_PTR(-EIO);

	for (i = 0; i < n; i++) {
		unsigned int len;
		const char *name = axfs_inode_name(sbi, first + i, &len);
		int cmp;

		if (!name) {
			inode = ERR_PTR(-EIO);
			break;
		}
		if (want[0] < (unsigned char)name[0])
			break;
		if (len != want_len)
			continue;
		cmp = memcmp(want, name, len);
		if (cmp > 0)
			continue;
		if (cmp == 0)
			inode = axfs_iget(dir->i_sb, first + i);
		break;
	}
	/* d_splice_alias() refuses a second alias of a directory. */
	return d_splice_alias(inode, dentry);
}

static int axfs_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file_inode(file);
	struct axfs_sb_info *sbi = AXFS_SB(dir->i_sb);
	u64 first, n, i;

	if (axfs_dir_range(sbi, axfs_ino_index(dir), &first, &n))
		return -EIO;
	if (!dir_emit_dots(file, ctx))
		return 0;

	for (i = ctx->pos - 2; i < n; i++) {
		unsigned int len;
		const char *name = axfs_inode_name(sbi, first + i, &len);
		umode_t mode;

		if (!name || axfs_inode_mode(sbi, first + i, &mode))
			return -EIO;
		if (!dir_emit(ctx, name, len, first + i + 1,
			      (mode & S_IFMT) >> 12))
			break;
		ctx->pos++;
	}
	return 0;
}

const struct inode_operations axfs_dir_inode_operations = {
	.lookup		= axfs_lookup,
};

const struct file_operations axfs_dir_operations = {
	.llseek		= generic_file_llseek,
	.read		= generic_read_dir,
	.iterate_shared	= axfs_readdir,
};
