// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.c - read image bytes from wherever they live.
 *
 * An AXFS image may sit in directly addressable memory (physaddr=, or an
 * MTD that supports point()), on an MTD, on a block device, or split in
 * two: the first mmap_size bytes in memory or on a first device, the rest
 * on a second device starting at its offset 0.  Everything above this file
 * asks for image offsets; this file maps them to a source and checks every
 * range against the image and device sizes, so a hostile offset becomes
 * -EIO instead of a read outside the device.  Every byte read is counted
 * in device_bytes_read (/sys/fs/axfs/<s_id>/): from a device, or, for an
 * image in memory, copied from it.
 */
#include <linux/overflow.h>
#include <linux/string.h>

#include "axfs.h"

static int axfs_dev_read(struct axfs_dev *dev, void *dst, u64 offset, u64 len)
{
	u64 end;

	if (check_add_overflow(offset, len, &end) || end > dev->size)
		return -EIO;
	/* Without AXFS_MTD (a small built-in kernel) mtd.c is not built. */
	if (IS_ENABLED(CONFIG_AXFS_MTD) && dev->mtd)
		return axfs_mtd_read(dev->mtd, dst, offset, len);
	if (dev->bdev)
		return axfs_bdev_read(dev->bdev, dst, offset, len);
	return -EIO;
}

static bool axfs_has_dev(const struct axfs_dev *dev)
{
	return dev->mtd || dev->bdev;
}

/* Copy from the direct mapping, if it covers [offset, offset + len). */
static int axfs_mem_read(struct axfs_sb_info *sbi, void *dst, u64 offset,
			 u64 len)
{
	u64 end;

	if (!sbi->virt || check_add_overflow(offset, len, &end) ||
	    end > sbi->virt_len)
		return -EIO;
	memcpy(dst, (const u8 *)sbi->virt + offset, len);
	return 0;
}

/*
 * Read len bytes at image offset fsoffset.  Returns 0 or a negative errno;
 * a range outside the image or its devices is -EIO.
 */
int axfs_read(struct axfs_sb_info *sbi, void *dst, u64 fsoffset, u64 len)
{
	u8 *out = dst;
	u64 end;
	int err;

	if (!len)
		return 0;
	if (check_add_overflow(fsoffset, len, &end) || end > sbi->size)
		return -EIO;

	while (len) {
		u64 chunk;

		if (fsoffset < sbi->mmap_size) {
			chunk = min(len, sbi->mmap_size - fsoffset);
			if (sbi->virt)
				err = axfs_mem_read(sbi, out, fsoffset, chunk);
			else
				err = axfs_dev_read(&sbi->dev0, out, fsoffset,
						    chunk);
		} else {
			chunk = len;
			if (axfs_has_dev(&sbi->dev1))
				err = axfs_dev_read(&sbi->dev1, out,
						    fsoffset - sbi->mmap_size,
						    chunk);
			else if (axfs_has_dev(&sbi->dev0))
				err = axfs_dev_read(&sbi->dev0, out, fsoffset,
						    chunk);
			else
				err = axfs_mem_read(sbi, out, fsoffset, chunk);
		}
		if (err)
			return err;
		atomic64_add(chunk, &sbi->device_bytes_read);
		out += chunk;
		fsoffset += chunk;
		len -= chunk;
	}
	return 0;
}

/* Read bytes [offset, offset + len) of a region, bounds-checked. */
int axfs_region_read(struct axfs_sb_info *sbi, int region, void *dst,
		     u64 offset, u64 len)
{
	const struct axfs_region_info *r = &sbi->r[region];
	u64 end;

	if (check_add_overflow(offset, len, &end) || end > r->size)
		return -EIO;
	if (!len)
		return 0;
	if (r->data) {
		memcpy(dst, r->data + offset, len);
		/* Bytes of the image's memory, not a copy made at mount. */
		if (!r->owned)
			atomic64_add(len, &sbi->device_bytes_read);
		return 0;
	}
	/* Regions stored compressed are always loaded: r->data is set. */
	if (r->compressed_size)
		return -EIO;
	return axfs_read(sbi, dst, r->fsoffset + offset, len);
}

/* A pointer to region bytes already in memory, or NULL. */
const u8 *axfs_region_ptr(struct axfs_sb_info *sbi, int region, u64 offset,
			  u64 len)
{
	const struct axfs_region_info *r = &sbi->r[region];
	u64 end;

	if (!r->data || check_add_overflow(offset, len, &end) || end > r->size)
		return NULL;
	return r->data + offset;
}
