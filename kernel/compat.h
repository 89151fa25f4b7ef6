/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compat.h - the kernel interfaces the driver uses, under their upstream
 * names, for the kernels (5.10 on) that lack them.
 *
 * The driver's .c files are written against the newest kernel: they call
 * kmap_local_folio(), readahead_folio(), folio_end_read(), bdev_nr_bytes(),
 * vm_flags_set() and so on by their real names, and a reader looks them
 * up in the kernel's own documentation.  Here each older kernel's
 * implementation is given under that name, as the backports project does,
 * with the release that brought the interface.
 *
 * Whether a kernel has an interface is decided by the compile probes of
 * Kbuild (kernel/probes/, AXFS_HAVE_* in the generated axfs-probes.h),
 * not by its version number: distributions backport folios, block-device
 * files and inode time accessors to older lines (Debian's 5.10 and 6.1
 * have inode_set_ctime_to_ts(), RHEL-like kernels have folios), and a
 * version compare would then define a second copy of what the kernel has.
 *
 * A tree as new as AXFS_COMPAT_NEWEST needs nothing here: mkpatch.sh
 * leaves this file and the probes out of the patch for such a tree.
 *
 * AXFS_COMPAT_NEWEST 6.19
 */
#ifndef AXFS_COMPAT_H
#define AXFS_COMPAT_H

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/proc_fs.h>
#include <linux/slab.h>

#ifndef AXFS_HAVE_PROBES
#error "compat.h needs the Kbuild probes (axfs-probes.h): build with kernel/Kbuild"
#endif

/*
 * Each shim that shares its name with a kernel function is a static
 * inline named axfs_backport_NAME, made visible as NAME by a #define, so
 * that it may call the kernel's own NAME where one exists with another
 * signature (as backports' LINUX_BACKPORT() does).
 */

/* ---- memory mapping ---------------------------------------------------- */

/* 5.11: kmap_local_page(); 5.10 has kmap(), which may sleep as we do. */
#ifndef AXFS_HAVE_KMAP_LOCAL
static inline void *kmap_local_page(struct page *page)
{
	return kmap(page);
}

static inline void axfs_backport_kunmap_local(const void *addr)
{
	kunmap(kmap_to_page((void *)addr));
}

#define kunmap_local(addr)	axfs_backport_kunmap_local(addr)
#endif

/* 6.3: vm_flags may only change through vm_flags_set() and vm_flags_clear(). */
#ifndef AXFS_HAVE_VM_FLAGS_SET
static inline void vm_flags_set(struct vm_area_struct *vma, unsigned long flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma, unsigned long flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/*
 * 6.17: pfn_t is gone and vmf_insert_mixed() takes the page frame number
 * itself; before, the pfn_t says it is a device pfn (PFN_DEV), as the
 * XIP pages of the image are.
 */
#ifndef AXFS_HAVE_VMF_INSERT_MIXED_PFN
#include <linux/pfn_t.h>
static inline vm_fault_t axfs_backport_vmf_insert_mixed(struct vm_area_struct *vma,
							unsigned long addr,
							unsigned long pfn)
{
	return vmf_insert_mixed(vma, addr, __pfn_to_pfn_t(pfn, PFN_DEV));
}

#define vmf_insert_mixed(vma, addr, pfn) \
	axfs_backport_vmf_insert_mixed(vma, addr, pfn)
#endif

/*
 * 7.x: ->mmap_prepare(desc), which describes the mapping before it exists
 * (flags as vma_flags_t bits).  Before, ->mmap(file, vma) set up the vma
 * itself; the driver's mmap_prepare runs there through a wrapper, on a
 * desc that carries the vma.  6.17 to 6.19 had an ->mmap_prepare with a
 * vm_flags word instead of the bits: they take this path too.
 */
#ifndef AXFS_HAVE_MMAP_PREPARE
struct axfs_backport_vm_area_desc {
	struct file *file;
	struct vm_area_struct *vma;
	const struct vm_operations_struct *vm_ops;
};

#define vm_area_desc		axfs_backport_vm_area_desc
#define VMA_WRITE_BIT		VM_WRITE
#define VMA_MAYWRITE_BIT	VM_MAYWRITE
#define VMA_IO_BIT		VM_IO
#define VMA_MIXEDMAP_BIT	VM_MIXEDMAP
#define vma_desc_set_flags(desc, flags)	vm_flags_set((desc)->vma, flags)
#define vma_desc_clear_flags(desc, flags) vm_flags_clear((desc)->vma, flags)
#define vma_desc_test_any(desc, flags)	(!!((desc)->vma->vm_flags & (flags)))

static inline int axfs_backport_readonly_mmap_prepare(struct vm_area_desc *desc)
{
	return generic_file_readonly_mmap(desc->file, desc->vma);
}

#define generic_file_readonly_mmap_prepare(desc) \
	axfs_backport_readonly_mmap_prepare(desc)

#define AXFS_MMAP_PREPARE_OP(fn)					\
	static int fn##_mmap(struct file *file,				\
			     struct vm_area_struct *vma)		\
	{								\
		struct vm_area_desc desc = { .file = file, .vma = vma };\
		int err = fn(&desc);					\
									\
		if (!err && desc.vm_ops)				\
			vma->vm_ops = desc.vm_ops;			\
		return err;						\
	}
#define mmap_prepare		mmap
#define AXFS_MMAP_PREPARE(fn)	fn##_mmap
#else
#define AXFS_MMAP_PREPARE_OP(fn)
#define AXFS_MMAP_PREPARE(fn)	fn
#endif

/*
 * 7.0: kzalloc_obj() and kzalloc_objs(), kvzalloc_objs() for arrays: an
 * allocation sized and typed by what it is for, GFP_KERNEL unless given
 * (the form the kernel's kmalloc_objs.cocci asks for).  A kernel whose
 * kzalloc_obj() still needs the flags gets these too.
 */
#ifndef AXFS_HAVE_KZALLOC_OBJ
#undef kzalloc_obj
#undef kzalloc_objs
#undef kvzalloc_objs
#define axfs_backport_gfp_(zero, gfp, ...)	gfp
#define axfs_backport_gfp(...)	axfs_backport_gfp_(0, ##__VA_ARGS__, GFP_KERNEL)
#define kzalloc_obj(obj, ...)						\
	kzalloc(sizeof(obj), axfs_backport_gfp(__VA_ARGS__))
#define kzalloc_objs(obj, n, ...)					\
	kcalloc(n, sizeof(obj), axfs_backport_gfp(__VA_ARGS__))
#define kvzalloc_objs(obj, n, ...)					\
	kvcalloc(n, sizeof(obj), axfs_backport_gfp(__VA_ARGS__))
#endif

/* ---- the page cache: folios -------------------------------------------- */

/*
 * 5.16: folios.  Before them every page-cache folio of this driver is one
 * page, so a folio is spelt as a page: the driver never has a variable
 * named "page" beside one named "folio".
 */
#ifndef AXFS_HAVE_FOLIO
#define folio page
static inline void folio_mark_uptodate(struct page *page)
{
	SetPageUptodate(page);
}

static inline bool folio_test_uptodate(struct page *page)
{
	return PageUptodate(page);
}

static inline void folio_unlock(struct page *page)
{
	unlock_page(page);
}

static inline void folio_put(struct page *page)
{
	put_page(page);
}

static inline void flush_dcache_folio(struct page *page)
{
	flush_dcache_page(page);
}

static inline void *kmap_local_folio(struct page *page, size_t offset)
{
	return kmap_local_page(page) + offset;
}

/* grab_cache_page_nowait() and friends are pagecache_get_page(). */
static inline struct page *axfs_backport_filemap_get_folio(struct address_space *mapping,
							   pgoff_t index, int fgp,
							   gfp_t gfp)
{
	return pagecache_get_page(mapping, index, fgp, gfp);
}

#define __filemap_get_folio(mapping, index, fgp, gfp) \
	axfs_backport_filemap_get_folio(mapping, index, fgp, gfp)
#endif

/* 5.18: readahead_folio(), which leaves no reference to the caller. */
#ifndef AXFS_HAVE_READAHEAD_FOLIO
static inline struct folio *readahead_folio(struct readahead_control *rac)
{
	struct page *page = readahead_page(rac);

	if (page)
		put_page(page);
	return (struct folio *)page;
}
#endif

/* 6.9: folio_end_read(): up to date if the read succeeded, unlocked. */
#ifndef AXFS_HAVE_FOLIO_END_READ
static inline void folio_end_read(struct folio *folio, bool success)
{
	if (success)
		folio_mark_uptodate(folio);
	folio_unlock(folio);
}
#endif

/*
 * 5.19: ->readpage(file, page) became ->read_folio(file, folio).  The
 * driver names ->read_folio; before 5.19 the member it sets is ->readpage,
 * through a wrapper taking the page.
 */
#ifndef AXFS_HAVE_READ_FOLIO
#define AXFS_READ_FOLIO_OP(fn)						\
	static int fn##_readpage(struct file *file, struct page *page)	\
	{								\
		return fn(file, (struct folio *)page);			\
	}
#define read_folio		readpage
#define AXFS_READ_FOLIO(fn)	fn##_readpage
#else
#define AXFS_READ_FOLIO_OP(fn)
#define AXFS_READ_FOLIO(fn)	fn
#endif

/*
 * 6.5: generic_file_splice_read() gave way to filemap_splice_read() (from
 * the page cache) and copy_splice_read() (through ->read_iter); the old
 * one read through ->read_iter as well.
 */
#ifndef AXFS_HAVE_FILEMAP_SPLICE_READ
#define filemap_splice_read	generic_file_splice_read
#define copy_splice_read	generic_file_splice_read
#endif

/* ---- block devices ----------------------------------------------------- */

/* 5.16: bdev_nr_bytes(). */
#ifndef AXFS_HAVE_BDEV_NR_BYTES
static inline loff_t bdev_nr_bytes(struct block_device *bdev)
{
	return i_size_read(bdev->bd_inode);
}
#endif

/*
 * 5.18: bio_alloc() takes the device and the operation; before, they were
 * set on the bio after allocating it.
 */
#ifndef AXFS_HAVE_BIO_ALLOC_BDEV
static inline struct bio *axfs_backport_bio_alloc(struct block_device *bdev,
						  unsigned short nr_vecs,
						  unsigned int opf, gfp_t gfp)
{
	struct bio *bio = bio_alloc(gfp, nr_vecs);

	bio_set_dev(bio, bdev);
	bio->bi_opf = opf;
	return bio;
}

#define bio_alloc(bdev, nr_vecs, opf, gfp) \
	axfs_backport_bio_alloc(bdev, nr_vecs, opf, gfp)
#endif

/* 5.12: BIO_MAX_VECS, the most pages in one bio, was BIO_MAX_PAGES. */
#ifndef BIO_MAX_VECS
#define BIO_MAX_VECS	BIO_MAX_PAGES
#endif

/* 5.11: lookup_bdev() returns the dev_t, not a referenced block_device. */
#ifndef AXFS_HAVE_LOOKUP_BDEV_DEV
static inline int axfs_backport_lookup_bdev(const char *path, dev_t *dev)
{
	struct block_device *bdev = lookup_bdev(path);

	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	*dev = bdev->bd_dev;
	bdput(bdev);
	return 0;
}

#define lookup_bdev(path, dev)	axfs_backport_lookup_bdev(path, dev)
#endif

/*
 * 6.9: a block device is opened as a file: bdev_file_open_by_path(),
 * file_bdev(), and (6.10) bdev_fput() to close it.  Before, the handle
 * had other types (a struct bdev_handle in 6.7 and 6.8, the holder in
 * 6.5 and 6.6, nothing before): the driver's "file" is then a box of
 * the device and that handle, which only these three ever look into.
 */
#ifndef AXFS_HAVE_BDEV_FILE
struct axfs_backport_bdev_file {
	struct block_device *bdev;
	void *handle;
};

static inline struct file *
axfs_backport_bdev_file_open_by_path(const char *path, void *holder)
{
	struct axfs_backport_bdev_file *box = kzalloc(sizeof(*box), GFP_KERNEL);
	struct block_device *bdev;

	if (!box)
		return ERR_PTR(-ENOMEM);
#if defined(AXFS_HAVE_BDEV_HANDLE)
	box->handle = bdev_open_by_path(path, BLK_OPEN_READ, holder, NULL);
	bdev = IS_ERR(box->handle) ? ERR_CAST(box->handle) :
	       ((struct bdev_handle *)box->handle)->bdev;
#elif defined(AXFS_HAVE_BLK_OPEN_MODE)
	box->handle = holder;
	bdev = blkdev_get_by_path(path, BLK_OPEN_READ, holder, NULL);
#else
	bdev = blkdev_get_by_path(path, FMODE_READ | FMODE_EXCL, holder);
#endif
	if (IS_ERR(bdev)) {
		kfree(box);
		return ERR_CAST(bdev);
	}
	box->bdev = bdev;
	return (struct file *)box;
}

#define bdev_file_open_by_path(path, mode, holder, hops) \
	axfs_backport_bdev_file_open_by_path(path, holder)

static inline struct block_device *axfs_backport_file_bdev(struct file *file)
{
	return ((struct axfs_backport_bdev_file *)file)->bdev;
}

#define file_bdev(file)	axfs_backport_file_bdev(file)

static inline void axfs_backport_bdev_fput(struct file *file)
{
	struct axfs_backport_bdev_file *box = (void *)file;

#if defined(AXFS_HAVE_BDEV_HANDLE)
	bdev_release(box->handle);
#elif defined(AXFS_HAVE_BLK_OPEN_MODE)
	blkdev_put(box->bdev, box->handle);
#else
	blkdev_put(box->bdev, FMODE_READ | FMODE_EXCL);
#endif
	kfree(box);
}

#define bdev_fput(file)	axfs_backport_bdev_fput(file)
#elif !defined(AXFS_HAVE_BDEV_FPUT)
#define bdev_fput(file)	fput(file)
#endif

/* ---- sysfs ------------------------------------------------------------- */

/*
 * 6.2: kobject_init_and_add() takes a const struct kobj_type; before, the
 * same object without const (the kernel never writes to it).
 */
#ifndef AXFS_HAVE_KOBJ_TYPE_CONST
#define kobject_init_and_add(kobj, ktype, parent, fmt, ...)		\
	kobject_init_and_add(kobj, (void *)(ktype), parent, fmt,	\
			     ##__VA_ARGS__)
#endif

/* ---- inodes and /proc -------------------------------------------------- */

/* 5.17: PDE_DATA() became pde_data(). */
#ifndef AXFS_HAVE_PDE_DATA
static inline void *pde_data(const struct inode *inode)
{
	return PDE_DATA(inode);
}
#endif

/*
 * 6.6 (ctime) and 6.7 (atime, mtime): inode times behind accessors;
 * Debian backported the ctime one to 5.10 and 6.1, hence two probes.
 */
#ifndef AXFS_HAVE_INODE_SET_CTIME_TO_TS
static inline struct timespec64 inode_set_ctime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_ctime = ts;
	return ts;
}
#endif

#ifndef AXFS_HAVE_INODE_SET_MTIME_TO_TS
static inline struct timespec64 inode_set_atime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_atime = ts;
	return ts;
}

static inline struct timespec64 inode_set_mtime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_mtime = ts;
	return ts;
}
#endif

/* 6.19: i_state is read through inode_state_read_once(). */
#ifndef AXFS_HAVE_INODE_STATE_READ_ONCE
static inline unsigned long inode_state_read_once(struct inode *inode)
{
	return READ_ONCE(inode->i_state);
}
#endif

#endif /* AXFS_COMPAT_H */
