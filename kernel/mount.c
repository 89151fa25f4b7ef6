// SPDX-License-Identifier: GPL-2.0-only
/*
 * mount.c - the mount sequence, once the backends are attached.
 *
 * The one place that calls into every layer at mount: the memory
 * mapping (physmem.c) and MTD point() (mtd.c), the superblock and
 * regions (regions.c), the cblock cache (file.c) and XIP (xip.c).  The
 * layers themselves only call down (xip.c -> file.c -> regions.c ->
 * io.c), never back up to here.
 */
#include <linux/mm.h>

#include "axfs.h"

/*
 * Everything axfs_fill_super() does once the backends are attached
 * (sb->s_bdev or s_mtd in dev0, second_dev= in dev1, physaddr= in the
 * options): map, read and check the superblock, fit the image to what
 * holds it, load and check the regions and the tree, set up the cblock
 * cache and XIP.  Also what tests/fuzz/fuzz_kernel.c mounts with, since
 * it cannot link the VFS side.  On error the caller frees what was set
 * up (axfs_free_sbi()).
 */
int axfs_open_image(struct super_block *sb, bool silent)
{
	struct axfs_sb_info *sbi = AXFS_SB(sb);
	bool dual = sbi->dev1.mtd || sbi->dev1.bdev;
	int err;

	/* Until the superblock is read, every offset comes from the start. */
	sbi->size = U64_MAX;
	sbi->mmap_size = U64_MAX;
	if (sbi->opt.physaddr) {
		u64 first = sbi->opt.physsize ?
			    min_t(u64, sbi->opt.physsize, PAGE_SIZE) : PAGE_SIZE;

		err = axfs_physmem_map(sbi, first);
		if (err)
			return err;
	}

	err = axfs_read_super(sb, sbi, silent);
	if (err)
		return err;

	/* With no device the whole image is memory (2008 driver). */
	if (sbi->opt.physaddr && !dual)
		sbi->mmap_size = sbi->size;
	err = axfs_check_devices(sbi);
	if (err)
		return err;
	if (sbi->opt.physaddr) {
		err = axfs_physmem_map(sbi, sbi->mmap_size);
		if (err)
			return err;
	}
	if (IS_ENABLED(CONFIG_AXFS_MTD) && sbi->dev0.mtd)
		axfs_mtd_point(sbi);

	err = axfs_zlib_init(sbi);
	if (!err)
		err = axfs_load_regions(sbi);
	if (!err)
		err = axfs_check_tree(sbi, &sbi->parent);
	if (!err)
		err = axfs_cblock_init(sbi);
	if (err)
		return err;
	axfs_setup_xip(sbi);
	return 0;
}
