// SPDX-License-Identifier: GPL-2.0-only
/*
 * mtd.c - the MTD backend.
 *
 * `mount -t axfs mtd:NAME /mnt`, `mtdN`, `/dev/mtdN` or `/dev/mtdblockN`
 * mount straight from an MTD (get_tree_mtd, no block layer).  When the
 * MTD is directly mappable (point()), the first mmap_size bytes are read
 * through that mapping; if point() also gives a physical address that
 * covers them, XIP pages are mapped into user space from it.
 */
#include <linux/ctype.h>
#include <linux/types.h>	/* before kdev_t.h, which 5.10 lacks it */
#include <linux/kdev_t.h>
#include <linux/major.h>
#include <linux/mtd/mtd.h>
#include <linux/mtd/super.h>
#include <linux/blkdev.h>
#include <linux/fs_context.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "axfs.h"

/* "123" -> 123; anything else (empty, trailing junk) -> -1. */
static int axfs_mtd_number(const char *s)
{
	unsigned int n;

	if (!isdigit(*s) || kstrtouint(s, 10, &n) || n > INT_MAX)
		return -1;
	return n;
}

/* Strip "/dev/" and return the MTD number of "mtdN" / "mtdblockN", or -1. */
static int axfs_mtd_path_number(const char *name)
{
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	if (!strncmp(name, "mtdblock", 8))
		return axfs_mtd_number(name + 8);
	if (!strncmp(name, "mtd", 3))
		return axfs_mtd_number(name + 3);
	return -1;
}

/* Does second_dev= name an MTD (as opposed to a block device path)? */
bool axfs_is_mtd_name(const char *name)
{
	return !strncmp(name, "mtd:", 4) || axfs_mtd_path_number(name) >= 0;
}

int axfs_mtd_open(struct axfs_dev *dev, const char *name)
{
	struct mtd_info *mtd;
	int nr;

	if (!strncmp(name, "mtd:", 4)) {
		/* As get_tree_mtd(): by name, then by number. */
		mtd = get_mtd_device_nm(name + 4);
		nr = axfs_mtd_number(name + 4);
		if (IS_ERR(mtd) && nr >= 0)
			mtd = get_mtd_device(NULL, nr);
	} else {
		nr = axfs_mtd_path_number(name);
		if (nr < 0)
			return -EINVAL;
		mtd = get_mtd_device(NULL, nr);
	}
	if (IS_ERR(mtd))
		return PTR_ERR(mtd);
	dev->mtd = mtd;
	dev->own = true;
	dev->size = mtd->size;
	return 0;
}

void axfs_mtd_close(struct axfs_dev *dev)
{
	if (dev->mtd && dev->own)
		put_mtd_device(dev->mtd);
	dev->mtd = NULL;
}

int axfs_mtd_read(struct mtd_info *mtd, void *dst, u64 offset, u64 len)
{
	size_t retlen = 0;
	int err;

	if (offset > mtd->size || len > mtd->size - offset)
		return -EIO;
	err = mtd_read(mtd, offset, len, &retlen, dst);
	if (err && !mtd_is_bitflip(err))
		return -EIO;
	return retlen == len ? 0 : -EIO;
}

/*
 * Map the first mmap_size bytes of the first MTD if it can be pointed.
 * Not being able to point is not an error: the bytes are then read with
 * mtd_read().  Some drivers (mtdram) shorten the range when asked for a
 * physical address that is not contiguous: then retry without one.
 */
int axfs_mtd_point(struct axfs_sb_info *sbi)
{
	struct mtd_info *mtd = sbi->dev0.mtd;
	u64 len = min_t(u64, sbi->mmap_size, mtd->size);
	resource_size_t phys = 0;
	size_t retlen = 0;
	void *virt = NULL;
	int err;

	if (!len || len > SIZE_MAX)
		return 0;
	err = mtd_point(mtd, 0, len, &retlen, &virt, &phys);
	if (!err && retlen < len) {
		mtd_unpoint(mtd, 0, retlen);
		phys = 0;
		retlen = 0;
		err = mtd_point(mtd, 0, len, &retlen, &virt, NULL);
		if (!err && retlen < len) {
			mtd_unpoint(mtd, 0, retlen);
			err = -ERANGE;
		}
	}
	if (err) {
		if (err != -EOPNOTSUPP)
			axfs_info(sbi->sb, "%s: point() failed (%d), reading through mtd_read",
				  mtd->name, err);
		return 0;
	}
	sbi->virt = virt;
	sbi->virt_len = len;
	sbi->phys = phys;
	sbi->pointed = true;
	return 0;
}

void axfs_mtd_unpoint(struct axfs_sb_info *sbi)
{
	if (!sbi->pointed)
		return;
	mtd_unpoint(sbi->dev0.mtd, 0, sbi->virt_len);
	sbi->pointed = false;
	sbi->virt = NULL;
	sbi->virt_len = 0;
}

/*
 * Is the mount source an MTD?  "mtd:NAME", "mtdN", "/dev/mtdN",
 * "/dev/mtdblockN", or any block device node with the mtdblock major.
 */
bool axfs_source_is_mtd(const char *source)
{
	dev_t dev;

	if (!source)
		return false;
	if (axfs_is_mtd_name(source))
		return true;
	return !lookup_bdev(source, &dev) && MAJOR(dev) == MTD_BLOCK_MAJOR;
}

int axfs_get_tree_mtd(struct fs_context *fc,
		      int (*fill_super)(struct super_block *,
					struct fs_context *))
{
	int nr = -1;

	/* get_tree_mtd() knows "mtdN" but not the character device path. */
	if (!strncmp(fc->source, "/dev/mtd", 8) &&
	    strncmp(fc->source, "/dev/mtdblock", 13))
		nr = axfs_mtd_number(fc->source + 8);
	if (nr >= 0) {
		char *src = kasprintf(GFP_KERNEL, "mtd%d", nr);

		if (!src)
			return -ENOMEM;
		kfree(fc->source);
		fc->source = src;
	}
	return get_tree_mtd(fc, fill_super);
}
