// SPDX-License-Identifier: GPL-2.0-only
/*
 * xip.c - file read and mmap: execute in place, and the profiler's hook.
 *
 * read() goes through the page cache (read_folio in file.c) for every
 * node type.  mmap() faults come here first:
 *
 *  - In a mapping that is not writable, each fault on a page of the file
 *    is counted for /proc/axfs/volumeN when profiling is on, as the 2008
 *    driver counted them (writable private mappings are left out: their
 *    pages end up copied in RAM anyway, so they are no XIP candidates).
 *    Only faults that reach the filesystem count: a page already mapped
 *    in this process does not fault again, and there is no fault-around,
 *    so every first touch of a page by a process is one count.
 *
 *  - If the image's XIP region is directly addressable by physical
 *    address (physaddr=, or an MTD whose point() gives one), an XIP page
 *    is mapped straight from there (VM_MIXEDMAP + vmf_insert_mixed, as
 *    fs/cramfs does) and uses no page cache.  Everything else, on every
 *    backend, is served from the page cache by filemap_fault().
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <asm/cacheflush.h>

#include "axfs.h"

/*
 * XIP pages reach user space through special PTEs, for which the kernel
 * does no cache maintenance: arm64's set_pte_at() brings the I-cache up
 * to date only for pages with a struct page that it can mark clean.  The
 * image may have been written after boot (/dev/mtdN, /dev/mem, a flash
 * driver) with its bytes still in the D-cache, and the I-cache may hold
 * instructions of whatever was at those addresses before.  So once, at
 * mount: write the D-cache back to the point of unification and
 * invalidate the I-cache over the whole XIP region.  A no-op where
 * instruction fetches see data writes (x86).
 */
static void axfs_xip_sync_icache(const struct axfs_sb_info *sbi)
{
	const struct axfs_region_info *x = &sbi->r[AXFS_R_XIP];
	unsigned long start = (unsigned long)x->data;

	flush_icache_range(start, start + x->size);
}

/* At mount: can XIP pages be mapped into user space by physical address? */
void axfs_setup_xip(struct axfs_sb_info *sbi)
{
	const struct axfs_region_info *x = &sbi->r[AXFS_R_XIP];

	if (!sbi->phys || !x->size)
		return;
	if (!x->data || x->owned) {
		axfs_info(sbi->sb, "XIP region not directly addressable; XIP pages go through the page cache");
		return;
	}
	if (!PAGE_ALIGNED(sbi->phys + x->fsoffset)) {
		axfs_info(sbi->sb, "XIP region at %llu is not page-aligned; XIP pages go through the page cache",
			  x->fsoffset);
		return;
	}
	sbi->xip_direct = true;
	axfs_xip_sync_icache(sbi);
}

static vm_fault_t axfs_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct inode *inode = file_inode(vma->vm_file);
	struct axfs_sb_info *sbi = AXFS_SB(inode->i_sb);
	pgoff_t pages = DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE);
	u64 ino = axfs_ino_index(inode);
	bool readonly = !(vma->vm_flags & VM_WRITE);
	phys_addr_t phys;
	u64 node;

	if (vmf->pgoff < pages &&
	    !axfs_node_of_page(sbi, ino, vmf->pgoff, &node)) {
		if (readonly)
			axfs_profiling_add(sbi, node, ino);
		if (readonly && sbi->xip_direct &&
		    !axfs_xip_node_phys(sbi, node, &phys))
			return vmf_insert_mixed(vma, vmf->address,
						PHYS_PFN(phys));
	}
	return filemap_fault(vmf);
}

static const struct vm_operations_struct axfs_vm_ops = {
	.fault		= axfs_fault,
};

static int axfs_file_mmap_prepare(struct vm_area_desc *desc)
{
	struct axfs_sb_info *sbi = AXFS_SB(file_inode(desc->file)->i_sb);
	int err;

	/* Refuses shared writable mappings; sets up the page cache side. */
	err = generic_file_readonly_mmap_prepare(desc);
	if (err)
		return err;
	desc->vm_ops = &axfs_vm_ops;
	if (sbi->xip_direct)
		vma_desc_set_flags(desc, VMA_MIXEDMAP_BIT);
	return 0;
}

AXFS_MMAP_PREPARE_OP(axfs_file_mmap_prepare)

const struct file_operations axfs_file_operations = {
	.llseek		= generic_file_llseek,
	.read_iter	= generic_file_read_iter,
	.splice_read	= filemap_splice_read,
	.mmap_prepare	= AXFS_MMAP_PREPARE(axfs_file_mmap_prepare),
};
