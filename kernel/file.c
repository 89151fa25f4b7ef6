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
 * The cblock cache keeps the cblocks inflated last (cblock_cache of them,
 * least recently used replaced), so reading a cblock's pages in turn
 * inflates it once, and so do readers of several files at once.  A
 * mutex serialises it; a cblock that fails to inflate is not kept (the
 * 2008 driver served the stale buffer).  When a cblock is inflated for
 * one page, the file's other pages in it go into the page cache as well,
 * so a random read does not inflate the same cblock again for its
 * neighbours.  ->readahead takes pages from the cache but inflates
 * nothing (axfs_readahead() says why).
 *
 * Readahead in the image's order: when a cblock's compressed bytes must
 * be read from a device (block device, MTD without point(), a second
 * device) right after the cblock before it, the same request also reads
 * the cblocks that follow it, up to cblock_readahead KiB, into the
 * mount's buffer for compressed bytes, and the next inflations take
 * them from there without a device request.  An ordered image (axfs
 * mkfs -p with a profile that has ranks) places the compressed pages a
 * boot uses in the order it uses them, so that run is read in a few
 * large requests instead of one per cblock.  Nothing grows: the buffer
 * is allocated at mount, and it holds only compressed bytes (a cblock
 * may hold pages of several files; which files is not known without
 * a reverse map, and their pages reach the page cache when inflated).
 */
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
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

int axfs_node(const struct axfs_sb_info *sbi, u64 node, u64 *type, u64 *index)
{
	if (axfs_table_get(sbi, AXFS_R_NODE_TYPE, node, type) ||
	    axfs_table_get(sbi, AXFS_R_NODE_INDEX, node, index))
		return -EIO;
	return 0;
}

/*
 * Where the bytes of an XIP or byte-aligned node (node_index index) lie:
 * *region and the offset in it.  -EIO for a compressed or unknown type
 * and for an offset that cannot be had.
 */
int axfs_node_place(const struct axfs_sb_info *sbi, u64 type, u64 index,
		    int *region, u64 *off)
{
	switch (type) {
	case AXFS_NODE_XIP:
		*region = AXFS_R_XIP;
		return check_mul_overflow(index, (u64)AXFS_PAGE_SIZE, off) ?
		       -EIO : 0;
	case AXFS_NODE_BYTE_ALIGNED:
		*region = AXFS_R_BYTE_ALIGNED;
		return axfs_table_get(sbi, AXFS_R_BANODE_OFFSET, index, off);
	}
	return -EIO;
}

static u32 axfs_zbuf_size(u32 n)
{
	/* zlib's compressBound(): what a cblock can grow to. */
	return n + (n >> 12) + (n >> 14) + (n >> 25) + 13;
}

/*
 * How many inflated cblocks each mount keeps (module parameter
 * cblock_cache, given when the module is loaded and read-only after, so
 * only who loads modules sizes what every mount allocates; read at mount;
 * kernel/README.md has the measurement the default comes from).  Buffers
 * are allocated as entries are first used.
 */
#define AXFS_CBLOCK_CACHE_DEFAULT	4
#define AXFS_CBLOCK_CACHE_MAX		64
static unsigned int axfs_cblock_cache = AXFS_CBLOCK_CACHE_DEFAULT;
module_param_named(cblock_cache, axfs_cblock_cache, uint, 0444);
MODULE_PARM_DESC(cblock_cache,
		 "inflated cblocks cached per mount, 1 to 64, set at load (default "
		 __stringify(AXFS_CBLOCK_CACHE_DEFAULT) ")");

/*
 * How many KiB of the cblocks that follow a cblock read from a device
 * are read along with it (module parameter cblock_readahead, read at
 * mount, 0 to 1024; 0 turns it off).  The buffer for compressed bytes
 * grows by that much, once, at mount.
 */
#define AXFS_READAHEAD_DEFAULT_KB	128
#define AXFS_READAHEAD_MAX_KB		1024
/* At most this many cblocks in one readahead (tiny cblocks). */
#define AXFS_READAHEAD_MAX_CBLOCKS	64
static unsigned int axfs_cblock_readahead = AXFS_READAHEAD_DEFAULT_KB;
module_param_named(cblock_readahead, axfs_cblock_readahead, uint, 0444);
MODULE_PARM_DESC(cblock_readahead,
		 "KiB of the following cblocks read with a cblock from a device, 0 to 1024, set at load (default "
		 __stringify(AXFS_READAHEAD_DEFAULT_KB) ")");

int axfs_cblock_init(struct axfs_sb_info *sbi)
{
	u32 ra;

	unsigned int i, n;

	if (!sbi->r[AXFS_R_COMPRESSED].size)
		return 0;
	n = clamp_t(unsigned int, READ_ONCE(axfs_cblock_cache), 1,
		    AXFS_CBLOCK_CACHE_MAX);
	sbi->cblocks = kcalloc(n, sizeof(*sbi->cblocks), GFP_KERNEL);
	if (!sbi->cblocks)
		return -ENOMEM;
	sbi->cblock_entries = n;
	for (i = 0; i < n; i++)
		sbi->cblocks[i].c = U64_MAX;
	/* One buffer now: reads never fail for want of the others. */
	sbi->cblocks[0].buf = kvmalloc(sbi->cblock_size, GFP_KERNEL);
	if (!sbi->cblocks[0].buf)
		return -ENOMEM;
	/* Compressed bytes not directly addressable are read into zbuf. */
	if (!sbi->r[AXFS_R_COMPRESSED].data) {
		ra = min_t(u32, READ_ONCE(axfs_cblock_readahead),
			   AXFS_READAHEAD_MAX_KB) * 1024;
		sbi->cblock_readahead = ra;
		sbi->cblock_zbuf_size = axfs_zbuf_size(sbi->cblock_size) + ra;
		sbi->cblock_zbuf = kvmalloc(sbi->cblock_zbuf_size, GFP_KERNEL);
		if (!sbi->cblock_zbuf)
			return -ENOMEM;
	}
	return 0;
}

void axfs_cblock_exit(struct axfs_sb_info *sbi)
{
	unsigned int i;

	for (i = 0; sbi->cblocks && i < sbi->cblock_entries; i++)
		kvfree(sbi->cblocks[i].buf);
	kfree(sbi->cblocks);
	kvfree(sbi->cblock_zbuf);
	sbi->cblocks = NULL;
	sbi->cblock_entries = 0;
	sbi->cblock_zbuf = NULL;
}

/*
 * How many compressed bytes from start (cblock c's) to read from the
 * device: c's len, and, when c follows the cblock read last (a run in
 * the image's order), the whole cblocks after it that fit the buffer.
 */
static u64 axfs_readahead_len(struct axfs_sb_info *sbi, u64 c, u64 start,
			      u64 len)
{
	u64 region = sbi->r[AXFS_R_COMPRESSED].size;
	u64 first = len, k, end;

	if (c != sbi->zbuf_next_c || !sbi->cblock_readahead)
		return len;
	for (k = c + 2; k < c + 2 + AXFS_READAHEAD_MAX_CBLOCKS; k++) {
		if (axfs_table_get(sbi, AXFS_R_CBLOCK_OFFSET, k, &end) ||
		    end <= start + len || end > region ||
		    end - start > sbi->cblock_zbuf_size ||
		    end - start - first > sbi->cblock_readahead)
			break;
		len = end - start;
	}
	return len;
}

/*
 * The len compressed bytes of cblock c at start (lock held): in place
 * when the image is in memory, else from the buffer when an earlier
 * device read brought them, else read from the device (with the cblocks
 * after it, axfs_readahead_len()).  NULL with *err on a failed read.
 */
static const u8 *axfs_cblock_src(struct axfs_sb_info *sbi, u64 c, u64 start,
				 u64 len, int *err)
{
	const struct axfs_region_info *r = &sbi->r[AXFS_R_COMPRESSED];
	const u8 *src = axfs_region_ptr(sbi, AXFS_R_COMPRESSED, start, len);
	u64 want;

	*err = -EIO;
	if (src) {
		/* Inflated from the image's memory: bytes copied from it. */
		if (!r->owned)
			atomic64_add(len, &sbi->device_bytes_read);
		return len > U32_MAX ? NULL : src;
	}
	if (len > axfs_zbuf_size(sbi->cblock_size))
		return NULL;
	if (sbi->zbuf_len && start >= sbi->zbuf_start &&
	    start - sbi->zbuf_start <= sbi->zbuf_len &&
	    len <= sbi->zbuf_len - (start - sbi->zbuf_start)) {
		if (start != sbi->zbuf_start)
			atomic64_inc(&sbi->readahead_cblocks);
		sbi->zbuf_next_c = c + 1;
		return sbi->cblock_zbuf + (start - sbi->zbuf_start);
	}
	want = axfs_readahead_len(sbi, c, start, len);
	sbi->zbuf_len = 0;
	*err = axfs_region_read(sbi, AXFS_R_COMPRESSED, sbi->cblock_zbuf,
				start, want);
	/* What was read ahead cannot fail the cblock asked for. */
	if (*err && want > len) {
		want = len;
		*err = axfs_region_read(sbi, AXFS_R_COMPRESSED,
					sbi->cblock_zbuf, start, want);
	}
	if (*err)
		return NULL;
	sbi->zbuf_start = start;
	sbi->zbuf_len = want;
	sbi->zbuf_next_c = c + 1;
	return sbi->cblock_zbuf;
}

/* Inflate cblock c into entry e (lock held); e holds nothing on error. */
static int axfs_cblock_inflate(struct axfs_sb_info *sbi, u64 c,
			       struct axfs_cblock_entry *e)
{
	const u8 *src;
	u64 start, end;
	u32 out;
	int err;

	e->c = U64_MAX;
	if (axfs_table_get(sbi, AXFS_R_CBLOCK_OFFSET, c, &start) ||
	    axfs_table_get(sbi, AXFS_R_CBLOCK_OFFSET, c + 1, &end) ||
	    end <= start)
		return -EIO;
	src = axfs_cblock_src(sbi, c, start, end - start, &err);
	if (!src)
		return err;
	err = axfs_inflate(sbi, e->buf, sbi->cblock_size, src, end - start,
			   &out);
	if (err) {
		axfs_err_ratelimited(sbi->sb, "cblock %llu does not inflate", c);
		return err;
	}
	e->c = c;
	e->len = out;
	atomic64_inc(&sbi->cblocks_inflated);
	return 0;
}

/*
 * The cache entry holding cblock c, which is inflated into the least
 * recently used entry if none holds it (*fresh then says so), unless
 * cached_only: then -EAGAIN.  Called with cblock_lock held.  An entry
 * whose buffer cannot be allocated is passed over for the least recently
 * used one that has a buffer.
 */
static struct axfs_cblock_entry *axfs_cblock_get(struct axfs_sb_info *sbi,
						 u64 c, bool cached_only,
						 bool *fresh)
{
	struct axfs_cblock_entry *e, *lru = NULL, *lru_buf = NULL;
	unsigned int i;
	int err;

	lockdep_assert_held(&sbi->cblock_lock);
	if (!sbi->cblocks || c == U64_MAX)
		return ERR_PTR(-EIO);
	sbi->cblock_clock++;
	for (i = 0; i < sbi->cblock_entries; i++) {
		e = &sbi->cblocks[i];
		if (e->c == c) {
			e->used = sbi->cblock_clock;
			*fresh = false;
			return e;
		}
		if (!lru || e->used < lru->used)
			lru = e;
		if (e->buf && (!lru_buf || e->used < lru_buf->used))
			lru_buf = e;
	}
	if (cached_only)
		return ERR_PTR(-EAGAIN);
	if (!lru->buf)
		lru->buf = kvmalloc(sbi->cblock_size, GFP_KERNEL | __GFP_NOWARN);
	if (!lru->buf)
		lru = lru_buf;
	err = axfs_cblock_inflate(sbi, c, lru);
	if (err)
		return ERR_PTR(err);
	lru->used = sbi->cblock_clock;
	*fresh = true;
	return lru;
}

/* Bytes of the file in page index (at most PAGE_SIZE; 0 past the end). */
static size_t axfs_page_bytes(struct inode *inode, pgoff_t index)
{
	loff_t size = i_size_read(inode);
	u64 pos = (u64)index << PAGE_SHIFT;

	return pos >= size ? 0 : min_t(u64, PAGE_SIZE, size - pos);
}

/* Where compressed page index of a file lies: cblock *c, at *offset. */
static int axfs_page_in_cblock(struct axfs_sb_info *sbi, struct inode *inode,
			       pgoff_t index, u64 *c, u64 *offset)
{
	u64 node, type, cnode;

	if (axfs_node_of_page(sbi, axfs_ino_index(inode), index, &node) ||
	    axfs_node(sbi, node, &type, &cnode) ||
	    type != AXFS_NODE_COMPRESSED ||
	    axfs_table_get(sbi, AXFS_R_CNODE_OFFSET, cnode, offset) ||
	    axfs_table_get(sbi, AXFS_R_CNODE_INDEX, cnode, c))
		return -EIO;
	return 0;
}

/* Copy want bytes at offset of a cached cblock to dst (lock held). */
static int axfs_cblock_copy(const struct axfs_cblock_entry *e, u8 *dst,
			    u64 offset, size_t want)
{
	if (offset > e->len || want > e->len - offset)
		return -EIO;
	memcpy(dst, e->buf + offset, want);
	return 0;
}

/*
 * Fill sibling page index from cached cblock e (lock held) if nobody has
 * it: false when it is not in e, so the caller stops walking that way.
 */
static bool axfs_fill_sibling(struct axfs_sb_info *sbi, struct inode *inode,
			      pgoff_t index, const struct axfs_cblock_entry *e)
{
	size_t want = axfs_page_bytes(inode, index);
	struct folio *folio;
	u64 in_c, offset;
	u8 *buf;
	int err;

	if (!want || axfs_page_in_cblock(sbi, inode, index, &in_c, &offset) ||
	    in_c != e->c)
		return false;
	/*
	 * Created and locked for us, never waited for; NULL (before 6.4) or
	 * an error when memory is short or someone else has the page.
	 */
	folio = __filemap_get_folio(inode->i_mapping, index,
				    FGP_LOCK | FGP_CREAT | FGP_NOWAIT,
				    readahead_gfp_mask(inode->i_mapping));
	if (IS_ERR_OR_NULL(folio))
		return true;
	if (folio_test_uptodate(folio)) {
		folio_unlock(folio);
		folio_put(folio);
		return true;
	}
	buf = kmap_local_folio(folio, 0);
	err = axfs_cblock_copy(e, buf, offset, want);
	memset(buf + want, 0, PAGE_SIZE - want);
	kunmap_local(buf);
	/* A page that does not check out is left to its own read (EIO). */
	if (!err)
		flush_dcache_folio(folio);
	folio_end_read(folio, !err);
	folio_put(folio);
	return true;
}

/*
 * Cblock c was just inflated for page index: one inflate serves every
 * page of the file it holds, so fill the others into the page cache too
 * (as squashfs does with a block).  A file's pages in a cblock are
 * consecutive, so walk both ways from index until a page lies elsewhere;
 * pages already cached or being read by someone else are skipped, never
 * waited for.
 */
static void axfs_fill_siblings(struct axfs_sb_info *sbi, struct inode *inode,
			       pgoff_t index,
			       const struct axfs_cblock_entry *e)
{
	pgoff_t span = sbi->cblock_size >> PAGE_SHIFT;
	pgoff_t i;

	for (i = 1; i < span && i <= index; i++)
		if (!axfs_fill_sibling(sbi, inode, index - i, e))
			break;
	for (i = 1; i < span && index + i > index; i++)
		if (!axfs_fill_sibling(sbi, inode, index + i, e))
			break;
}

/*
 * Fill page index of a file, stored compressed, into dst (want bytes);
 * with cached_only only from a cblock in the cache, else -EAGAIN.
 */
static int axfs_read_compressed(struct axfs_sb_info *sbi, struct inode *inode,
				pgoff_t index, u8 *dst, size_t want,
				bool cached_only)
{
	struct axfs_cblock_entry *e;
	u64 offset, c;
	bool fresh;
	int err;

	if (axfs_page_in_cblock(sbi, inode, index, &c, &offset))
		return -EIO;
	mutex_lock(&sbi->cblock_lock);
	e = axfs_cblock_get(sbi, c, cached_only, &fresh);
	if (IS_ERR(e)) {
		err = PTR_ERR(e);
	} else {
		err = axfs_cblock_copy(e, dst, offset, want);
		if (!err && fresh)
			axfs_fill_siblings(sbi, inode, index, e);
	}
	mutex_unlock(&sbi->cblock_lock);
	return err;
}

/*
 * Fill one page of an inode's data into buf (PAGE_SIZE bytes).  With
 * cached_only (readahead), a compressed page whose cblock is not in the
 * cache is not inflated: -EAGAIN.
 */
static int axfs_fill_page(struct axfs_sb_info *sbi, struct inode *inode,
			  pgoff_t index, u8 *buf, bool cached_only)
{
	size_t want = axfs_page_bytes(inode, index);
	u64 node, type, nidx, off;
	int region, err;

	if (!want) {
		memset(buf, 0, PAGE_SIZE);
		return 0;
	}

	err = axfs_node_of_page(sbi, axfs_ino_index(inode), index, &node);
	if (!err)
		err = axfs_node(sbi, node, &type, &nidx);
	if (err)
		return err;
	if (type == AXFS_NODE_COMPRESSED) {
		err = axfs_read_compressed(sbi, inode, index, buf, want,
					   cached_only);
	} else {
		err = axfs_node_place(sbi, type, nidx, &region, &off);
		if (!err)
			err = axfs_region_read(sbi, region, buf, off, want);
	}
	if (err)
		return err;
	memset(buf + want, 0, PAGE_SIZE - want);
	return 0;
}

/*
 * Fill one page-cache folio of a file (a single page: the driver does not
 * ask for large folios).  A folio that cannot be read is left not up to
 * date, which the caller reports as EIO (the error flag that
 * folio_set_error() set is gone since 6.12, and no reader needs it).
 * With cached_only, -EAGAIN (silently) for a page that needs an inflate.
 */
static int axfs_read_one(struct inode *inode, struct folio *folio,
			 bool cached_only)
{
	u8 *buf = kmap_local_folio(folio, 0);
	int err;

	err = axfs_fill_page(AXFS_SB(inode->i_sb), inode, folio->index, buf,
			     cached_only);
	if (err)
		memset(buf, 0, PAGE_SIZE);
	kunmap_local(buf);
	if (err == -EAGAIN)
		return err;
	if (err)
		axfs_err_ratelimited(inode->i_sb, "inode %llu: page %lu is corrupt",
				     axfs_ino_index(inode), folio->index);
	else
		flush_dcache_folio(folio);
	return err;
}

/*
 * Readahead fills only what costs no inflate: holes and the bytes past
 * the end, XIP and byte-aligned pages, and compressed pages whose cblock
 * is in the cblock cache.  The page cache's windows follow the file's
 * order (an mmap fault reads around it, 16 pages either side; read()
 * reads ahead of the reader), an ordered image the boot's, so most of
 * the other compressed pages of a window lie in cblocks the boot would
 * not inflate, or not yet.  Those folios are left not up to date, as an
 * I/O error leaves them (Documentation/filesystems/vfs.rst); the page
 * demanded among them, and any used later, comes through read_folio,
 * which inflates its cblock and fills the file's other pages in it
 * (axfs_fill_siblings()), so a file read in order still costs one
 * inflate a cblock.  Not even the window's first folio is inflated here:
 * it is the demanded page in read()'s synchronous readahead, which
 * read_folio then reads at once, but 16 pages before the fault in an
 * mmap read-around.  Compressed bytes already in the device buffer are
 * no reason either: reading them was cheap, inflating them is not.  A
 * folio that cannot be read is left not up to date, and its read_folio
 * reports it.
 */
static void axfs_readahead(struct readahead_control *rac)
{
	struct inode *inode = rac->mapping->host;
	struct folio *folio;

	while ((folio = readahead_folio(rac)))
		folio_end_read(folio, !axfs_read_one(inode, folio, true));
}

static int axfs_read_folio(struct file *file, struct folio *folio)
{
	int err = axfs_read_one(folio->mapping->host, folio, false);

	folio_end_read(folio, !err);
	return err;
}

AXFS_READ_FOLIO_OP(axfs_read_folio)

const struct address_space_operations axfs_aops = {
	.read_folio	= AXFS_READ_FOLIO(axfs_read_folio),
	.readahead	= axfs_readahead,
};
