// SPDX-License-Identifier: GPL-2.0-only
/*
 * physmem.c - the image (or its mmap segment) in directly addressable
 * memory: NOR flash, or RAM set aside for it (`memmap=SIZE$ADDR`), mounted
 * with `-o physaddr=0x...`.
 *
 * The range is mapped with memremap(MEMREMAP_WB).  Metadata and
 * uncompressed regions are then used in place, compressed pages go
 * through the page cache, and XIP pages are mapped into user space by
 * their physical address (xip.c).
 *
 * Bounds: the image's own size decides how much is mapped, so it is
 * checked first against physsize= when given; without physsize= the whole
 * range must be memory the kernel knows of (iomem resources with no hole:
 * a reserved-memory node, memmap=, a flash device), since on arm64 a read
 * where nothing answers is a synchronous external abort, not 0xff.  In
 * every case the range must not overlap RAM the kernel uses ("System
 * RAM"): reading there would be reading outside the device.
 *
 * What the option trusts: whoever mounts (CAP_SYS_ADMIN) names memory the
 * kernel then reads and maps into user space, which is what /dev/mem
 * gives.  So it is refused where /dev/mem is: under lockdown
 * (LOCKDOWN_DEV_MEM, "integrity" and "confidentiality"; super.c checks
 * before the mount starts).  The range is
 * claimed with request_mem_region() for as long as it is mapped, so two
 * mounts, or a mount and a driver that claims its memory, never share it:
 * the second is refused, naming the range.
 */
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/limits.h>
#include <linux/mm.h>

#include "axfs.h"

/* Without physsize=, refuse windows larger than this. */
#define AXFS_PHYS_DEFAULT_LIMIT	(64ULL << 30)

/* walk_iomem_res_desc() callback: extend the covered range, stop at a hole. */
static int axfs_physmem_cover(struct resource *res, void *arg)
{
	u64 *next = arg;

	if (res->start > *next)
		return 1;
	*next = max_t(u64, *next, (u64)res->end + 1);
	return 0;
}

/* Is all of [phys, phys + len) described by iomem resources? */
static bool axfs_physmem_described(phys_addr_t phys, u64 len)
{
	u64 next = phys;

	walk_iomem_res_desc(IORES_DESC_NONE, IORESOURCE_MEM, phys,
			    phys + len - 1, &next, axfs_physmem_cover);
	return next >= phys + len;
}

/* Claim [phys, phys + len) for this mount, or say who holds it. */
static int axfs_physmem_claim(struct axfs_sb_info *sbi, phys_addr_t phys,
			      u64 len)
{
	if (request_mem_region(phys, len, "axfs"))
		return 0;
	axfs_err(sbi->sb, "0x%llx-0x%llx is in use (another mount or a driver claimed it; see /proc/iomem)",
		 (unsigned long long)phys, (unsigned long long)(phys + len - 1));
	return -EBUSY;
}

int axfs_physmem_map(struct axfs_sb_info *sbi, u64 len)
{
	phys_addr_t phys = sbi->opt.physaddr;
	u64 limit = sbi->opt.physsize ? sbi->opt.physsize :
					 AXFS_PHYS_DEFAULT_LIMIT;
	void *virt;

	axfs_physmem_unmap(sbi);
	if (!len)
		return -EINVAL;
	/* The last byte must be a phys_addr_t too (32 bits without LPAE). */
	if (len > limit || len - 1 > PHYS_ADDR_MAX - phys) {
		axfs_err(sbi->sb, "image at 0x%llx needs 0x%llx bytes, more than %s 0x%llx",
			 (unsigned long long)phys, len,
			 sbi->opt.physsize ? "physsize=" : "the limit",
			 limit);
		return -EINVAL;
	}
	if (!sbi->opt.physsize && !axfs_physmem_described(phys, len)) {
		axfs_err(sbi->sb, "0x%llx-0x%llx is not all memory the kernel knows of; reserve it (reserved-memory, memmap=) or give physsize=",
			 (unsigned long long)phys,
			 (unsigned long long)(phys + len - 1));
		return -EINVAL;
	}
	if (region_intersects(phys, len, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		axfs_err(sbi->sb, "0x%llx-0x%llx overlaps System RAM; reserve it (memmap=) or fix the image size",
			 (unsigned long long)phys,
			 (unsigned long long)(phys + len - 1));
		return -EINVAL;
	}
	if (axfs_physmem_claim(sbi, phys, len))
		return -EBUSY;
	virt = memremap(phys, len, MEMREMAP_WB);
	if (!virt) {
		release_mem_region(phys, len);
		axfs_err(sbi->sb, "cannot map 0x%llx bytes at 0x%llx", len,
			 (unsigned long long)phys);
		return -ENOMEM;
	}
	sbi->virt = virt;
	sbi->virt_len = len;
	sbi->phys = phys;
	sbi->memremapped = true;
	return 0;
}

void axfs_physmem_unmap(struct axfs_sb_info *sbi)
{
	if (sbi->memremapped && sbi->virt) {
		memunmap(sbi->virt);
		release_mem_region(sbi->phys, sbi->virt_len);
	}
	if (sbi->memremapped) {
		sbi->virt = NULL;
		sbi->virt_len = 0;
		sbi->memremapped = false;
	}
}
