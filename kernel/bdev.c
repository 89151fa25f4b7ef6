// SPDX-License-Identifier: GPL-2.0-only
/*
 * bdev.c - the block device backend.
 *
 * Image bytes are read through the block device's own page cache, as
 * fs/cramfs does, so the same code serves the device the VFS opened for
 * us (get_tree_bdev) and a second_dev= we open ourselves.  Every read is
 * checked against the device size first; a failed read is -EIO, never a
 * NULL buffer_head dereference (the 2008 driver did not check sb_bread).
 */
#include <linux/blkdev.h>
#include <linux/highmem.h>
#include <linux/pagemap.h>

#include "axfs.h"

int axfs_bdev_read(struct block_device *bdev, void *dst, u64 offset, u64 len)
{
	struct address_space *mapping = bdev->bd_inode->i_mapping;
	u8 *out = dst;

	if (offset > bdev_nr_bytes(bdev) || len > bdev_nr_bytes(bdev) - offset)
		return -EIO;

	while (len) {
		pgoff_t index = offset >> PAGE_SHIFT;
		size_t in_page = offset & ~PAGE_MASK;
		size_t chunk = min_t(u64, len, PAGE_SIZE - in_page);
		struct page *page;
		void *kaddr;

		page = read_mapping_page(mapping, index, NULL);
		if (IS_ERR(page))
			return -EIO;
		kaddr = kmap_local_page(page);
		memcpy(out, (u8 *)kaddr + in_page, chunk);
		kunmap_local(kaddr);
		put_page(page);

		out += chunk;
		offset += chunk;
		len -= chunk;
	}
	return 0;
}

/* Open a block device by path for second_dev=. */
int axfs_bdev_open(struct axfs_dev *dev, const char *path, void *holder)
{
	struct block_device *bdev;

	bdev = blkdev_get_by_path(path, FMODE_READ | FMODE_EXCL, holder);
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	dev->bdev = bdev;
	dev->own = true;
	dev->size = bdev_nr_bytes(bdev);
	return 0;
}

void axfs_bdev_close(struct axfs_dev *dev)
{
	if (dev->bdev && dev->own)
		blkdev_put(dev->bdev, FMODE_READ | FMODE_EXCL);
	dev->bdev = NULL;
}
