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

/*
 * Ask for the device pages of [offset, offset + len) at once, so a cblock
 * spanning several pages is read with one request, not one synchronous
 * read per page (read_mapping_page() reads only the page it is asked
 * for).  Pages already cached are skipped; a fresh readahead state reads
 * a range at a random place as it is.
 */
static void axfs_bdev_readahead(struct address_space *mapping, u64 offset,
				u64 len)
{
	pgoff_t first = offset >> PAGE_SHIFT;
	pgoff_t last = (offset + len - 1) >> PAGE_SHIFT;
	struct file_ra_state ra;

	if (last == first)
		return;
	file_ra_state_init(&ra, mapping);
	page_cache_sync_readahead(mapping, &ra, NULL, first, last - first + 1);
}

int axfs_bdev_read(struct block_device *bdev, void *dst, u64 offset, u64 len)
{
	struct address_space *mapping = bdev->bd_mapping;
	u8 *out = dst;

	u64 size = bdev_nr_bytes(bdev);

	if (offset > size || len > size - offset)
		return -EIO;
	if (len)
		axfs_bdev_readahead(mapping, offset, len);

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

	bdev = axfs_bdev_open_path(path, holder, &dev->opened);
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
		axfs_bdev_release(dev->bdev, dev->opened);
	dev->bdev = NULL;
}
