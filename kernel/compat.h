/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compat.h - the kernel interfaces that changed between Linux 5.10 and
 * today, one small helper each, so the rest of the driver reads the same
 * on every kernel line.  Each helper names the release that changed it;
 * the checks were made against Debian's headers of 5.10, 6.1, 6.12 and
 * 7.3.  Newest interface first in each #if.
 */
#ifndef AXFS_COMPAT_H
#define AXFS_COMPAT_H

#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/proc_fs.h>
#include <linux/version.h>

#define AXFS_KERNEL_AT_LEAST(a, b) \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, 0))

#if !AXFS_KERNEL_AT_LEAST(6, 17)
#include <linux/pfn_t.h>
#endif

/* 5.11: kmap_local_page(); 5.10 has kmap(), which may sleep as we do. */
static inline void *axfs_kmap(struct page *page)
{
#if AXFS_KERNEL_AT_LEAST(5, 11)
	return kmap_local_page(page);
#else
	return kmap(page);
#endif
}

static inline void axfs_kunmap(struct page *page, void *addr)
{
#if AXFS_KERNEL_AT_LEAST(5, 11)
	kunmap_local(addr);
#else
	kunmap(page);
#endif
}

/* 5.16: bdev_nr_bytes(). */
static inline u64 axfs_bdev_bytes(struct block_device *bdev)
{
#if AXFS_KERNEL_AT_LEAST(5, 16)
	return bdev_nr_bytes(bdev);
#else
	return i_size_read(bdev->bd_inode);
#endif
}

/* 6.10: bd_inode gave way to bd_mapping. */
static inline struct address_space *axfs_bdev_mapping(struct block_device *bdev)
{
#if AXFS_KERNEL_AT_LEAST(6, 10)
	return bdev->bd_mapping;
#else
	return bdev->bd_inode->i_mapping;
#endif
}

/* 5.11: lookup_bdev() returns the dev_t, not a referenced block_device. */
static inline int axfs_lookup_bdev(const char *path, dev_t *dev)
{
#if AXFS_KERNEL_AT_LEAST(5, 11)
	return lookup_bdev(path, dev);
#else
	struct block_device *bdev = lookup_bdev(path);

	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	*dev = bdev->bd_dev;
	bdput(bdev);
	return 0;
#endif
}

/*
 * Opening a block device by path, exclusively, read-only: four
 * generations.  *opened keeps what closing needs: the bdev file (6.9),
 * the bdev_handle (6.7), the holder (6.5), nothing before.
 */
static inline struct block_device *
axfs_blkdev_open(const char *path, void *holder, void **opened)
{
#if AXFS_KERNEL_AT_LEAST(6, 9)
	struct file *file = bdev_file_open_by_path(path, BLK_OPEN_READ, holder,
						   NULL);

	if (IS_ERR(file))
		return ERR_CAST(file);
	*opened = file;
	return file_bdev(file);
#elif AXFS_KERNEL_AT_LEAST(6, 7)
	struct bdev_handle *handle = bdev_open_by_path(path, BLK_OPEN_READ,
						       holder, NULL);

	if (IS_ERR(handle))
		return ERR_CAST(handle);
	*opened = handle;
	return handle->bdev;
#elif AXFS_KERNEL_AT_LEAST(6, 5)
	*opened = holder;
	return blkdev_get_by_path(path, BLK_OPEN_READ, holder, NULL);
#else
	*opened = NULL;
	return blkdev_get_by_path(path, FMODE_READ | FMODE_EXCL, holder);
#endif
}

static inline void axfs_blkdev_close(struct block_device *bdev, void *opened)
{
#if AXFS_KERNEL_AT_LEAST(6, 9)
	fput(opened);
#elif AXFS_KERNEL_AT_LEAST(6, 7)
	bdev_release(opened);
#elif AXFS_KERNEL_AT_LEAST(6, 5)
	blkdev_put(bdev, opened);
#else
	blkdev_put(bdev, FMODE_READ | FMODE_EXCL);
#endif
}

/*
 * A page-cache page for reading ahead, never waiting: created and locked
 * for us, or NULL if the page is cached already (up to date, or locked by
 * a reader) or memory is short.  5.16: folios; 6.4: __filemap_get_folio()
 * returns an ERR_PTR instead of NULL.
 */
static inline struct page *axfs_grab_page_nowait(struct address_space *mapping,
						 pgoff_t index)
{
#if AXFS_KERNEL_AT_LEAST(5, 16)
	struct folio *folio;

	folio = __filemap_get_folio(mapping, index,
				    FGP_LOCK | FGP_CREAT | FGP_NOWAIT,
				    readahead_gfp_mask(mapping));
	if (IS_ERR_OR_NULL(folio))
		return NULL;
	if (folio_test_uptodate(folio)) {
		folio_unlock(folio);
		folio_put(folio);
		return NULL;
	}
	return &folio->page;
#else
	struct page *page = grab_cache_page_nowait(mapping, index);

	if (page && PageUptodate(page)) {
		unlock_page(page);
		put_page(page);
		return NULL;
	}
	return page;
#endif
}

/* A locked page we were asked to read is done: up to date if filled. */
static inline void axfs_page_end_read(struct page *page, bool filled)
{
#if AXFS_KERNEL_AT_LEAST(5, 16)
	struct folio *folio = page_folio(page);

	if (filled)
		folio_mark_uptodate(folio);
	folio_unlock(folio);
#else
	if (filled)
		SetPageUptodate(page);
	unlock_page(page);
#endif
}

/*
 * The next page of a readahead, locked, its index in *index.  The page
 * cache keeps it while it is locked, so no reference is left to us.
 * 5.18: readahead_folio() (readahead_page() is gone in 7.x).
 */
static inline struct page *axfs_readahead_next(struct readahead_control *rac,
					       pgoff_t *index)
{
#if AXFS_KERNEL_AT_LEAST(5, 18)
	struct folio *folio = readahead_folio(rac);

	if (!folio)
		return NULL;
	*index = folio->index;
	return &folio->page;
#else
	struct page *page = readahead_page(rac);

	if (!page)
		return NULL;
	*index = page->index;
	put_page(page);
	return page;
#endif
}

/* 5.17: PDE_DATA() became pde_data(). */
static inline void *axfs_pde_data(const struct inode *inode)
{
#if AXFS_KERNEL_AT_LEAST(5, 17)
	return pde_data(inode);
#else
	return PDE_DATA(inode);
#endif
}

/* 6.3: vm_flags may only change through vm_flags_set(). */
static inline void axfs_vm_flags_set(struct vm_area_struct *vma,
				     unsigned long flags)
{
#if AXFS_KERNEL_AT_LEAST(6, 3)
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/*
 * 6.17: pfn_t is gone and vmf_insert_mixed() takes the page frame number
 * itself.  Either way the argument is derived from the physical address:
 * a plain address passed as a pfn would map the wrong memory.
 */
static inline vm_fault_t axfs_vmf_insert_phys(struct vm_fault *vmf,
					      phys_addr_t phys)
{
#if AXFS_KERNEL_AT_LEAST(6, 17)
	return vmf_insert_mixed(vmf->vma, vmf->address, PHYS_PFN(phys));
#else
	return vmf_insert_mixed(vmf->vma, vmf->address,
				phys_to_pfn_t(phys, PFN_DEV));
#endif
}

/* 6.5: generic_file_splice_read() gave way to filemap_splice_read(). */
#if AXFS_KERNEL_AT_LEAST(6, 5)
#define axfs_splice_read	filemap_splice_read
#else
#define axfs_splice_read	generic_file_splice_read
#endif

/* 6.6 (ctime) and 6.7 (atime, mtime): inode times behind accessors. */
static inline void axfs_set_inode_times(struct inode *inode,
					struct timespec64 ts)
{
#if AXFS_KERNEL_AT_LEAST(6, 7)
	inode_set_atime_to_ts(inode, ts);
	inode_set_mtime_to_ts(inode, ts);
	inode_set_ctime_to_ts(inode, ts);
#elif AXFS_KERNEL_AT_LEAST(6, 6)
	inode->i_atime = ts;
	inode->i_mtime = ts;
	inode_set_ctime_to_ts(inode, ts);
#else
	inode->i_atime = ts;
	inode->i_mtime = ts;
	inode->i_ctime = ts;
#endif
}

/* 6.19: i_state is read through inode_state_read_once(). */
static inline bool axfs_inode_is_new(struct inode *inode)
{
#if AXFS_KERNEL_AT_LEAST(6, 19)
	return inode_state_read_once(inode) & I_NEW;
#else
	return inode->i_state & I_NEW;
#endif
}

#endif /* AXFS_COMPAT_H */
