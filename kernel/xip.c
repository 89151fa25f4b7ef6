// SPDX-License-Identifier: GPL-2.0-only
/*
 * xip.c - file read and mmap: execute in place, and the profiler's hooks.
 *
 * On an image whose XIP region is in memory (directly addressable, or
 * loaded at mount), read() copies XIP and byte-aligned pages straight
 * to the reader, as DAX does and as the 2008 driver did with
 * xip_file_read(): a page the image holds uncompressed in memory costs
 * no page cache.  Other pages, and every page of other images, go
 * through the page cache (read_folio in file.c).  While a profile is on,
 * every page read() copies out is ranked for /proc/axfs/volumeN.order,
 * and with "all" profiling counted too.
 *
 * mmap() faults come here first:
 *
 *  - Each fault on a page of the file is counted for /proc/axfs/volumeN:
 *    with "on" (the default) in mappings that are not writable, as the
 *    2008 driver counted them, with "all" in every mapping.  Only faults
 *    that reach the filesystem count: a page already mapped in this
 *    process does not fault again, and there is no fault-around, so
 *    every first touch of a page by a process is one count (a fault the
 *    mm retries counts once).  In any mode but "off" the fault also
 *    ranks the page for volumeN.order.
 *
 *  - If the image's XIP region is directly addressable by physical
 *    address (physaddr=, or an MTD whose point() gives one), an XIP page
 *    is mapped straight from there (VM_MIXEDMAP + vmf_insert_mixed, as
 *    fs/cramfs does) and uses no page cache.  In a private writable
 *    mapping (a program's data segment) the page is mapped read-only
 *    even for a write fault: the write that follows faults again and
 *    the mm copies the page from the image into an anonymous one, as it
 *    does for DAX, so neither copy stays behind in the page cache.  (The
 *    2008 driver, and cramfs, gave writable mappings the page cache.)
 *    Everything else, on every backend, is served from the page cache
 *    by filemap_fault().
 *
 *  - Except where the mm would copy an XIP page through a kernel address
 *    that does not exist (32-bit ARM without LPAE, the image in lowmem
 *    outside the linear map: axfs_xip_has_unmapped_pages() below).  There
 *    a private writable mapping gets page-cache pages only, as in 2008,
 *    and a mapping given XIP pages can never be written (no VM_MAYWRITE)
 *    nor pinned (VM_IO), so nothing copies from them but read().
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/uio.h>
#include <asm/cacheflush.h>

#include "axfs.h"

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

/*
 * The first of want bytes of an XIP or byte-aligned node when its region
 * is in memory (directly addressable, or loaded at mount), so read() can
 * copy them straight to the reader; NULL for compressed nodes, regions
 * read from a device on demand, and bytes outside their region.
 */
static const u8 *axfs_node_in_memory(struct axfs_sb_info *sbi, u64 node,
				     size_t want)
{
	u64 type, index, off;
	int region;

	/* The type first: a compressed node needs no second lookup. */
	if (axfs_table_get(sbi, AXFS_R_NODE_TYPE, node, &type) ||
	    type == AXFS_NODE_COMPRESSED ||
	    axfs_table_get(sbi, AXFS_R_NODE_INDEX, node, &index) ||
	    axfs_node_place(sbi, type, index, &region, &off))
		return NULL;
	return axfs_region_ptr(sbi, region, off, want);
}

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

/*
 * Can the mm reach an XIP page of [phys, phys + len) through a kernel
 * address that does not exist?
 *
 * With special PTEs (CONFIG_ARCH_HAS_PTE_SPECIAL: x86, arm64, riscv64,
 * 32-bit ARM with LPAE) vmf_insert_mixed() marks the entry special and
 * vm_normal_page() never hands out its struct page: copy-on-write copies
 * from the user address, and get_user_pages() refuses the page.  Without
 * them (32-bit ARM without LPAE, Debian's armmp) a pfn with a struct page
 * is inserted as a normal page, and since 5.14 ARM's pfn_valid() is true
 * for no-map reserved memory too.  do_wp_page() then copies such a page
 * with copy_user_highpage(), and get_user_pages() (process_vm_readv(),
 * /proc/PID/mem, ptrace, core dumps, O_DIRECT, vmsplice) kmaps it: both
 * through kmap, which for a highmem page makes a mapping but for a
 * lowmem page is its linear-map address.  A no-map range has none: an
 * oops in copy_page() at the first write to a program's data segment.
 * Pages without a struct page (NOR flash, RAM beyond mem=) are mapped as
 * pfns the mm never copies through a struct page, highmem pages through
 * kmap: both are safe.
 *
 * physmem.c refuses System RAM, so a lowmem page with a struct page here
 * belongs to memory the kernel left out of its linear map (a no-map range
 * or a pageblock at its edge); any such page makes the whole mount take
 * the careful way.  At most one pfn_valid() per page, once per mount.
 */
static bool axfs_xip_has_unmapped_pages(phys_addr_t phys, u64 len)
{
	unsigned long pfn, last;

	if (IS_ENABLED(CONFIG_ARCH_HAS_PTE_SPECIAL) || !len)
		return false;
	last = PHYS_PFN(phys + len - 1);
	for (pfn = PHYS_PFN(phys); pfn <= last; pfn++)
		if (pfn_valid(pfn) && !PageHighMem(pfn_to_page(pfn)))
			return true;
	return false;
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
		axfs_info(sbi->sb, "XIP region at %llu is not page-aligned; mappings get XIP pages from the page cache",
			  x->fsoffset);
		return;
	}
	sbi->xip_direct = true;
	sbi->xip_no_cow = axfs_xip_has_unmapped_pages(sbi->phys + x->fsoffset,
						      x->size);
	if (sbi->xip_no_cow)
		axfs_info(sbi->sb, "XIP pages are lowmem outside the linear map and this kernel has no special PTEs: XIP for read-only mappings only, which cannot be made writable or pinned");
	axfs_xip_sync_icache(sbi);
}

static vm_fault_t axfs_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct inode *inode = file_inode(vma->vm_file);
	struct axfs_sb_info *sbi = AXFS_SB(inode->i_sb);
	pgoff_t pages = DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE);
	u64 ino = axfs_ino_index(inode);
	/* Shared writable mappings were refused: this one is read-only or private. */
	enum axfs_prof_mode use = vma->vm_flags & VM_WRITE ? AXFS_PROF_ALL :
							     AXFS_PROF_MAPPED;
	phys_addr_t phys;
	vm_fault_t ret;
	u64 node;

	if (vmf->pgoff >= pages ||
	    axfs_node_of_page(sbi, ino, vmf->pgoff, &node))
		return filemap_fault(vmf);
	/* VM_MIXEDMAP: axfs_file_mmap_prepare() allowed XIP pages. */
	if ((vma->vm_flags & VM_MIXEDMAP) &&
	    !axfs_xip_node_phys(sbi, node, &phys)) {
		axfs_profiling_add(sbi, node, ino, use);
		return vmf_insert_mixed(vma, vmf->address, PHYS_PFN(phys));
	}
	ret = filemap_fault(vmf);
	/*
	 * One count per fault: when filemap_fault() dropped the mmap lock to
	 * read (readahead, or read_folio for a page readahead left not up
	 * to date), the mm retries the fault, and the retry counts.
	 */
	if (!(ret & VM_FAULT_RETRY))
		axfs_profiling_add(sbi, node, ino, use);
	return ret;
}

/*
 * Whether read() copies XIP and byte-aligned pages from memory: only on
 * an image with XIP pages in memory (a region is in memory only if it has
 * bytes).  Without them the most it could save is the page of a file's
 * tail, for a look-up on every read.
 */
static bool axfs_read_direct(const struct axfs_sb_info *sbi)
{
	return sbi->r[AXFS_R_XIP].data;
}

/* Bytes of the file from pos to the end of its page (0 at or past EOF). */
static size_t axfs_bytes_in_page(loff_t size, loff_t pos)
{
	if (pos >= size)
		return 0;
	return min_t(loff_t, PAGE_SIZE - offset_in_page(pos), size - pos);
}

/*
 * The next step of a read of at most max bytes at pos: the bytes of pos's
 * page when they are in memory (*src points at pos), else the run of
 * pages from pos that are not (*src NULL).  0 at EOF.  Each page the step
 * covers is ranked while profiling is on and counted in "all" profiling
 * (axfs_profiling_add() decides).  A page whose node
 * cannot be looked up goes the page-cache way, whose read_folio reports
 * the corruption.
 */
static size_t axfs_read_step(struct axfs_sb_info *sbi, struct inode *inode,
			     loff_t pos, size_t max, const u8 **src)
{
	bool direct = axfs_read_direct(sbi);
	bool prof = axfs_profiling_on(sbi);
	loff_t size = i_size_read(inode);
	u64 ino = axfs_ino_index(inode);
	size_t len = 0;

	*src = NULL;
	while (len < max) {
		loff_t at = pos + len;
		size_t n = min(axfs_bytes_in_page(size, at), max - len);
		const u8 *mem = NULL;
		u64 node;

		if (!n)
			break;
		if (axfs_node_of_page(sbi, ino, at >> PAGE_SHIFT, &node))
			return len ? len : n;
		if (direct)
			mem = axfs_node_in_memory(sbi, node,
						  offset_in_page(at) + n);
		if (mem && len)
			break;		/* the page-cache run ends here */
		if (prof)
			axfs_profiling_add(sbi, node, ino, AXFS_PROF_ALL);
		if (mem) {
			*src = mem + offset_in_page(at);
			return n;
		}
		len += n;
	}
	return len;
}

static ssize_t axfs_file_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	struct axfs_sb_info *sbi = AXFS_SB(inode->i_sb);
	ssize_t done = 0;

	if (!axfs_read_direct(sbi) && !axfs_profiling_on(sbi))
		return generic_file_read_iter(iocb, to);

	while (iov_iter_count(to)) {
		size_t left = iov_iter_count(to);
		const u8 *src;
		size_t n = axfs_read_step(sbi, inode, iocb->ki_pos, left, &src);
		ssize_t got;

		if (!n)
			break;
		if (src) {
			got = copy_to_iter(src, n, to);
			iocb->ki_pos += got;
			done += got;
			if ((size_t)got < n)
				return done ? done : -EFAULT;
		} else {
			/* Only the run: the next page may be in memory. */
			iov_iter_truncate(to, n);
			got = generic_file_read_iter(iocb, to);
			iov_iter_reexpand(to, left - max_t(ssize_t, got, 0));
			if (got <= 0)
				return done ? done : got;
			done += got;
			if ((size_t)got < n)
				break;
		}
		if (fatal_signal_pending(current))
			break;
		cond_resched();
	}
	return done;
}

/*
 * splice (sendfile, copy_file_range across file systems) goes through
 * read_iter above when that copies from memory or profiles reads, as DAX
 * file systems do; else straight from the page cache.
 */
static ssize_t axfs_file_splice_read(struct file *in, loff_t *ppos,
				     struct pipe_inode_info *pipe, size_t len,
				     unsigned int flags)
{
	struct axfs_sb_info *sbi = AXFS_SB(file_inode(in)->i_sb);

	if (axfs_read_direct(sbi) || axfs_profiling_on(sbi))
		return copy_splice_read(in, ppos, pipe, len, flags);
	return filemap_splice_read(in, ppos, pipe, len, flags);
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
	if (!sbi->xip_direct)
		return 0;
	if (sbi->xip_no_cow) {
		/*
		 * No copy of an XIP page may be made through its struct
		 * page (axfs_xip_has_unmapped_pages()): a writable private
		 * mapping (a data segment) is served from the page cache,
		 * whose pages the mm copies safely, and a mapping that gets
		 * XIP pages can never become writable (mprotect() and
		 * ptrace writes fail) and is refused to get_user_pages(),
		 * as special PTEs are elsewhere.
		 */
		if (vma_desc_test_any(desc, VMA_WRITE_BIT))
			return 0;
		vma_desc_clear_flags(desc, VMA_MAYWRITE_BIT);
		vma_desc_set_flags(desc, VMA_IO_BIT);
	}
	vma_desc_set_flags(desc, VMA_MIXEDMAP_BIT);
	return 0;
}

AXFS_MMAP_PREPARE_OP(axfs_file_mmap_prepare)

const struct file_operations axfs_file_operations = {
	.llseek		= generic_file_llseek,
	.read_iter	= axfs_file_read_iter,
	.splice_read	= axfs_file_splice_read,
	.mmap_prepare	= AXFS_MMAP_PREPARE(axfs_file_mmap_prepare),
};
