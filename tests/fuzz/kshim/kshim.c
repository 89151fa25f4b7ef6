// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kshim.c - the kernel functions kshim.h declares, as a single-threaded
 * user-space stand-in: allocation with the kernel's limits, printk, a
 * mutex that checks its use, an inode cache per super_block, dentries,
 * readdir helpers, folios, and the zlib_inflate API.
 */
#include "kshim.h"

void kshim_printk(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kshim_vlog(level, "", fmt, ap);
	va_end(ap);
}

int kshim_warn_on(int cond, const char *file, int line)
{
	if (cond)
		kshim_die("WARN_ON hit");
	return cond;
}

/* ---- memory ------------------------------------------------------------ */

static long fail_countdown = -1;

void kshim_fail_alloc(long n)
{
	fail_countdown = n;
}

/*
 * kmalloc() gives at most KMALLOC_MAX_SIZE (4 MiB with 4 KiB pages),
 * kvmalloc() at most INT_MAX bytes (mm/util.c, since 5.15): a buffer
 * sized from the image in the wrong one fails here as in the kernel.
 */
#define KMALLOC_MAX_SIZE	(4UL << 20)

static void *kshim_kv(size_t n, size_t size, gfp_t flags, size_t limit)
{
	size_t bytes;

	if (fail_countdown >= 0 && fail_countdown-- == 0)
		return NULL;
	if (check_mul_overflow(n, size, &bytes) || bytes > limit)
		return NULL;
	return kshim_alloc(bytes, flags & __GFP_ZERO);
}

void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	return kshim_kv(n, size, flags, KMALLOC_MAX_SIZE);
}

void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
{
	return kshim_kv(n, size, flags, INT_MAX);
}

void kfree(const void *p)
{
	kshim_free(p);
}

/* ---- mutex: no threads, but every lock must be released in turn ------- */

void mutex_init(struct mutex *m)
{
	m->held = 0;
}

void kshim_assert_held(const struct mutex *m)
{
	if (!m->held)
		kshim_die("lockdep_assert_held: the mutex is not held");
}

void mutex_lock(struct mutex *m)
{
	if (m->held)
		kshim_die("mutex_lock on a held mutex (deadlock)");
	m->held = 1;
}

void mutex_unlock(struct mutex *m)
{
	if (!m->held)
		kshim_die("mutex_unlock on a free mutex");
	m->held = 0;
}

/* ---- inodes ------------------------------------------------------------ */

void init_special_inode(struct inode *inode, umode_t mode, dev_t dev)
{
	inode->i_mode = mode;
	if (S_ISCHR(mode) || S_ISBLK(mode))
		inode->i_rdev = dev;
	else if (!S_ISFIFO(mode) && !S_ISSOCK(mode))
		kshim_die("init_special_inode: not a special file");
}

struct inode *iget_locked(struct super_block *sb, unsigned long ino)
{
	struct inode *inode;

	for (inode = sb->kshim_inodes; inode; inode = inode->kshim_next)
		if (inode->i_ino == ino) {
			if (inode->i_state & I_NEW)
				kshim_die("iget_locked: inode still I_NEW");
			return inode;
		}
	inode = kzalloc(sizeof(*inode), GFP_KERNEL);
	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_sb = sb;
	inode->i_state = I_NEW;
	inode->i_nlink = 1;
	inode->i_data.host = inode;
	inode->i_mapping = &inode->i_data;
	inode->kshim_next = sb->kshim_inodes;
	sb->kshim_inodes = inode;
	return inode;
}

void unlock_new_inode(struct inode *inode)
{
	if (!(inode->i_state & I_NEW))
		kshim_die("unlock_new_inode: inode is not new");
	inode->i_state &= ~I_NEW;
}

/* The inode is dropped: the next iget_locked makes a new one. */
void iget_failed(struct inode *inode)
{
	struct inode **p = &inode->i_sb->kshim_inodes;

	if (!(inode->i_state & I_NEW))
		kshim_die("iget_failed: inode is not new");
	while (*p != inode)
		p = &(*p)->kshim_next;
	*p = inode->kshim_next;
	kfree(inode);
}

void kshim_evict_inodes(struct super_block *sb)
{
	while (sb->kshim_inodes) {
		struct inode *next = sb->kshim_inodes->kshim_next;

		kfree(sb->kshim_inodes);
		sb->kshim_inodes = next;
	}
}

/* ---- dentries and readdir ------------------------------------------------ */

struct dentry *d_splice_alias(struct inode *inode, struct dentry *dentry)
{
	if (IS_ERR(inode))
		return ERR_CAST(inode);
	dentry->d_inode = inode;
	return NULL;
}

bool dir_emit_dots(struct file *file, struct dir_context *ctx)
{
	if (ctx->pos == 0) {
		if (!ctx->actor(ctx, ".", 1, ctx->pos, file->f_inode->i_ino,
				S_IFDIR >> 12))
			return false;
		ctx->pos = 1;
	}
	if (ctx->pos == 1) {
		/* The shim keeps no parent: ".." names the directory. */
		if (!ctx->actor(ctx, "..", 2, ctx->pos, file->f_inode->i_ino,
				S_IFDIR >> 12))
			return false;
		ctx->pos = 2;
	}
	return true;
}

loff_t generic_file_llseek(struct file *file, loff_t offset, int whence)
{
	kshim_die("generic_file_llseek is not part of the shim");
}

ssize_t generic_read_dir(struct file *file, char *buf, size_t len,
			 loff_t *pos)
{
	kshim_die("generic_read_dir is not part of the shim");
}

ssize_t generic_file_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	kshim_die("generic_file_read_iter is not part of the shim");
}

ssize_t generic_file_splice_read(struct file *in, loff_t *ppos,
				 struct pipe_inode_info *pipe, size_t len,
				 unsigned int flags)
{
	kshim_die("generic_file_splice_read is not part of the shim");
}

ssize_t filemap_splice_read(struct file *in, loff_t *ppos,
			    struct pipe_inode_info *pipe, size_t len,
			    unsigned int flags)
{
	kshim_die("filemap_splice_read is not part of the shim");
}

ssize_t copy_splice_read(struct file *in, loff_t *ppos,
			 struct pipe_inode_info *pipe, size_t len,
			 unsigned int flags)
{
	kshim_die("copy_splice_read is not part of the shim");
}

size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i)
{
	kshim_die("copy_to_iter is not part of the shim");
}

const struct inode_operations page_symlink_inode_operations;

int lookup_bdev(const char *path, dev_t *dev)
{
	kshim_die("lookup_bdev is not part of the shim");
}

struct block_device *blkdev_get_by_path(const char *path, fmode_t mode,
					void *holder)
{
	kshim_die("blkdev_get_by_path is not part of the shim");
}

void blkdev_put(struct block_device *bdev, fmode_t mode)
{
	kshim_die("blkdev_put is not part of the shim");
}

void *pde_data(const struct inode *inode)
{
	kshim_die("pde_data is not part of the shim");
}

/* ---- mmap ---------------------------------------------------------------- */

/* The page cache side of a fault: nothing to map, the caller checks. */
vm_fault_t filemap_fault(struct vm_fault *vmf)
{
	vmf->vma->kshim_inserted = false;
	return 0;
}

vm_fault_t vmf_insert_mixed(struct vm_area_struct *vma, unsigned long addr,
			    unsigned long pfn)
{
	if (!(vma->vm_flags & VM_MIXEDMAP))
		kshim_die("vmf_insert_mixed without VM_MIXEDMAP");
	if (addr < vma->vm_start || addr >= vma->vm_end)
		kshim_die("vmf_insert_mixed outside the vma");
	vma->kshim_inserted = true;
	vma->kshim_pfn = pfn;
	return VM_FAULT_NOPAGE;
}

int generic_file_readonly_mmap(struct file *file, struct vm_area_struct *vma)
{
	if ((vma->vm_flags & VM_SHARED) && (vma->vm_flags & VM_MAYWRITE))
		return -EINVAL;
	return 0;
}

/* ---- folios ------------------------------------------------------------ */

void folio_unlock(struct folio *folio)
{
	if (!folio->locked)
		kshim_die("folio_unlock on an unlocked folio");
	folio->locked = false;
}

struct folio *__filemap_get_folio(struct address_space *mapping,
				  pgoff_t index, int fgp_flags, gfp_t gfp)
{
	struct folio *folio;

	if (fgp_flags != (FGP_LOCK | FGP_CREAT | FGP_NOWAIT))
		kshim_die("__filemap_get_folio: flags the shim does not know");
	if (index >= DIV_ROUND_UP(i_size_read(mapping->host), PAGE_SIZE))
		kshim_die("__filemap_get_folio past the end of the file");
	folio = kzalloc(sizeof(*folio), gfp);
	if (!folio)
		return NULL;
	folio->page.kshim_addr = kmalloc(PAGE_SIZE, gfp);
	if (!folio->page.kshim_addr) {
		kfree(folio);
		return NULL;
	}
	folio->mapping = mapping;
	folio->index = index;
	folio->locked = true;
	folio->kshim_refs = 1;
	return folio;
}

void folio_put(struct folio *folio)
{
	if (folio->kshim_refs <= 0)
		kshim_die("folio_put on a folio the shim did not make");
	if (folio->locked)
		kshim_die("folio_put on a locked folio");
	if (--folio->kshim_refs)
		return;
	kfree(folio->page.kshim_addr);
	kfree(folio);
}

struct folio *readahead_folio(struct readahead_control *rac)
{
	kshim_die("readahead_folio is not part of the shim");
}

/* ---- zlib ---------------------------------------------------------------- */

int zlib_inflate_workspacesize(void)
{
	return kshim_zworkspace_size();
}

int zlib_inflateInit2(struct z_stream_s *strm, int window_bits)
{
	strm->total_in = 0;
	strm->total_out = 0;
	strm->msg = NULL;
	return kshim_zinit(strm->workspace, window_bits);
}

int zlib_inflate(struct z_stream_s *strm, int flush)
{
	unsigned long in_before = strm->avail_in;
	int rc;

	rc = kshim_zinflate(strm->workspace, &strm->next_in, &strm->avail_in,
			    &strm->next_out, &strm->avail_out,
			    &strm->total_out, flush);
	strm->total_in += in_before - strm->avail_in;
	return rc;
}

int zlib_inflateEnd(struct z_stream_s *strm)
{
	return kshim_zend(strm->workspace);
}
