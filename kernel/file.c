// SPDX-License-Identifier: GPL-2.0-only
/*
 * file.c - filling page-cache pages from the three kinds of node.
 *
 * Page p of inode i is node array_index[i] + p.  Its node_type says where
 * the bytes are:
 *   XIP          xip region bytes [node_index * 4096, +4096)
 *   byte-aligned byte_aligned region bytes from banode_offset[node_index]
 *   compressed   bytes from cnode_offset[node_index] in inflated cblock
 *                cnode_index[node_index]
 * Only the bytes of the file are copied (the rest of the last page is
 * zeroed, where the 2008 driver let the next node's bytes show), and each
 * of them must lie inside its region or inflated cblock, else -EIO.
 *
 * The cblock cache keeps the last inflated cblock, so reading a cblock's
 * pages in turn inflates it once.  A mutex serialises it; a cblock that
 * fails to inflate is not kept (the 2008 driver served the stale buffer).
 */
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/slab.h>

#include "axfs.h"

int axfs_node_of_page(const struct axfs_sb_info *sbi, u64 ino, pgoff_t index,
		      u64 *node)
{
	u64 first;

	if (axfs_table_get(sbi, AXFS_R_INODE_ARRAY_INDEX, ino, &first) ||
	    check_add_overflow(first, (u64)index, node))
		return -EIO;
	return 0;
}

static int axfs_node(const struct axfs_sb_info *sbi, u64 node, u64 *type,
		     u64 *index)
{
	if (axfs_table_get(sbi, AXFS_R_NODE_TYPE, node, type) ||
	    axfs_table_get(sbi, AXFS_R_NODE_INDEX, node, index))
		return -EIO;
	return 0;
}

/* Physical address of an XIP node's page, if it can be mapped directly. */
int axfs_xip_node_phys(struct axfs_sb_info *sbi, u64 node, phys_addr_t *phys)
{
	const struct axfs_region_info *x = &sbi->r[AXFS_R_XIP];
	u64 type, index;

	if (axfs_node(sbi, node, &type, &index) || type != AXFS_NODE_XIP ||
	    index >= x->size / AXFS_PAGE_SIZE)
		return -EIO;
	*phys = sbi->phys + x->fsoffset + index * AXFS_PAGE_SIZE;
	return 0;
}

static u32 axfs_zbuf_size(u32 n)
{
	/* zlib's compressBound(): what a cblock can grow to. */
	return n + (n >> 12) + (n >> 14) + (n >> 25) + 13;
}

int axfs_cblock_init(struct axfs_sb_info *sbi)
{
	sbi->cblock_cur = U64_MAX;
	if (!sbi->r[AXFS_R_COMPRESSED].size)
		return 0;
	sbi->cblock_buf = kvmalloc(sbi->cblock_size, GFP_KERNEL);
	if (!sbi->cblock_buf)
		return -ENOMEM;
	/* Compressed bytes not directly addressable are read into zbuf. */
	if (!sbi->r[AXFS_R_COMPRESSED].data) {
		sbi->cblock_zbuf_size = axfs_zbuf_size(sbi->cblock_size);
		sbi->cblock_zbuf = kvmalloc(sbi->cblock_zbuf_size, GFP_KERNEL);
		if (!sbi->cblock_zbuf)
			return -ENOMEM;
	}
	return 0;
}

void axfs_cblock_exit(struct axfs_sb_info *sbi)
{
	kvfree(sbi->cblock_buf);
	kvfree(sbi->cblock_zbuf);
	sbi->cblock_buf = NULL;
	sbi->cblock_zbuf = NULL;
}

/* Make cblock c the cached one.  Called with cblock_lock held. */
static int axfs_cblock_load(struct axfs_sb_info *sbi, u64 c)
{
	const u8 *src;
	u64 start, end, len;
	u32 out;
	int err;

	lockdep_assert_held(&sbi->cblock_lock);
	if (c == sbi->cblock_cur)
		return 0;
	sbi->cblock_cur = U64_MAX;
	if (!sbi->cblock_buf || c == U64_MAX ||
	    axfs_table_get(sbi, AXFS_R_CBLOCK_OFFSET, c, &start) ||
	    axfs_table_get(sbi, AXFS_R_CBLOCK_OFFSET, c + 1, &end) ||
	    end <= start)
		return -EIO;
	len = end - start;
	src = axfs_region_ptr(sbi, AXFS_R_COMPRESSED, start, len);
	if (!src) {
		if (len > sbi->cblock_zbuf_size)
			return -EIO;
		err = axfs_region_read(sbi, AXFS_R_COMPRESSED, sbi->cblock_zbuf,
				       start, len);
		if (err)
			return err;
		src = sbi->cblock_zbuf;
	} else if (len > U32_MAX) {
		return -EIO;
	}
	err = axfs_inflate(sbi, sbi->cblock_buf, sbi->cblock_size, src, len,
			   &out);
	if (err) {
		axfs_err_ratelimited(sbi->sb, "cblock %llu does not inflate", c);
		return err;
	}
	sbi->cblock_cur = c;
	sbi->cblock_len = out;
	return 0;
}

static int axfs_read_cnode(struct axfs_sb_info *sbi, u64 cnode, u8 *dst,
			   size_t want)
{
	u64 offset, c;
	int err;

	if (axfs_table_get(sbi, AXFS_R_CNODE_OFFSET, cnode, &offset) ||
	    axfs_table_get(sbi, AXFS_R_CNODE_INDEX, cnode, &c))
		return -EIO;
	mutex_lock(&sbi->cblock_lock);
	err = axfs_cblock_load(sbi, c);
	if (!err) {
		if (offset > sbi->cblock_len || want > sbi->cblock_len - offset)
			err = -EIO;
		else
			memcpy(dst, sbi->cblock_buf + offset, want);
	}
	mutex_unlock(&sbi->cblock_lock);
	return err;
}

/* Fill one page of an inode's data into buf (PAGE_SIZE bytes). */
static int axfs_fill_page(struct axfs_sb_info *sbi, struct inode *inode,
			  pgoff_t index, u8 *buf)
{
	u64 ino = axfs_ino_index(inode);
	loff_t size = i_size_read(inode);
	u64 pos = (u64)index << PAGE_SHIFT;
	u64 node, type, nidx, off;
	size_t want;
	int err;

	if (pos >= size) {
		memset(buf, 0, PAGE_SIZE);
		return 0;
	}
	want = min_t(u64, PAGE_SIZE, size - pos);

	err = axfs_node_of_page(sbi, ino, index, &node);
	if (!err)
		err = axfs_node(sbi, node, &type, &nidx);
	if (err)
		return err;

	switch (type) {
	case AXFS_NODE_XIP:
		if (check_mul_overflow(nidx, (u64)AXFS_PAGE_SIZE, &off))
			return -EIO;
		err = axfs_region_read(sbi, AXFS_R_XIP, buf, off, want);
		break;
	case AXFS_NODE_BYTE_ALIGNED:
		if (axfs_table_get(sbi, AXFS_R_BANODE_OFFSET, nidx, &off))
			return -EIO;
		err = axfs_region_read(sbi, AXFS_R_BYTE_ALIGNED, buf, off, want);
		break;
	case AXFS_NODE_COMPRESSED:
		err = axfs_read_cnode(sbi, nidx, buf, want);
		break;
	default:
		err = -EIO;
	}
	if (err)
		return err;
	memset(buf + want, 0, PAGE_SIZE - want);
	return 0;
}

/*
 * Fill one page-cache page of a file.  A page that cannot be read is left
 * not up to date, which the caller reports as EIO (the error flag that
 * folio_set_error() set is gone since 6.12, and no reader needs it).
 */
static int axfs_read_page(struct inode *inode, struct page *page,
			  pgoff_t index)
{
	u8 *buf = axfs_kmap(page);
	int err;

	err = axfs_fill_page(AXFS_SB(inode->i_sb), inode, index, buf);
	if (err)
		memset(buf, 0, PAGE_SIZE);
	axfs_kunmap(page, buf);
	if (err)
		axfs_err_ratelimited(inode->i_sb, "inode %llu: page %lu is corrupt",
				     axfs_ino_index(inode), index);
	else
		flush_dcache_page(page);
	return err;
}

/* 5.19: ->readpage became ->read_folio; our folios are single pages. */
#if AXFS_KERNEL_AT_LEAST(5, 19)
static int axfs_read_folio(struct file *file, struct folio *folio)
{
	int err = axfs_read_page(folio->mapping->host, &folio->page,
				 folio->index);

	if (!err)
		folio_mark_uptodate(folio);
	folio_unlock(folio);
	return err;
}

const struct address_space_operations axfs_aops = {
	.read_folio	= axfs_read_folio,
};
#else
static int axfs_readpage(struct file *file, struct page *page)
{
	int err = axfs_read_page(page->mapping->host, page, page->index);

	if (!err)
		SetPageUptodate(page);
	unlock_page(page);
	return err;
}

const struct address_space_operations axfs_aops = {
	.readpage	= axfs_readpage,
};
#endif
