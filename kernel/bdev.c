// SPDX-License-Identifier: GPL-2.0-only
/*
 * bdev.c - the block device backend.
 *
 * Image bytes are read with bios into pages of our own, copied out, and
 * the pages freed, as fs/squashfs/block.c does: nothing of the device is
 * left in its page cache.  Reading through the device's page cache (as
 * this driver did before, like fs/cramfs) kept every compressed cblock
 * cached beside the pages inflated from it: 1.3 to 1.45 times squashfs's
 * RAM after the same programs (bench/RESULTS.md).  The same code serves
 * the device the VFS opened for us (get_tree_bdev) and a second_dev= we
 * open ourselves.  Every read is checked against the device size first;
 * a failed read is -EIO, never a NULL buffer_head dereference (the 2008
 * driver did not check sb_bread).
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "axfs.h"

/*
 * Read the device pages of [start, start + nr * PAGE_SIZE) (start aligned
 * to the logical block size, end at most the device's) into pages: one
 * bio, so one request, for up to BIO_MAX_VECS pages; a cblock spanning
 * several pages is never read a page at a time.
 */
static int axfs_bdev_submit(struct block_device *bdev, struct page **pages,
			    unsigned int nr, u64 start, u64 end)
{
	unsigned int i = 0;

	while (i < nr) {
		unsigned int n = min_t(unsigned int, nr - i, BIO_MAX_VECS);
		struct bio *bio;
		unsigned int j;
		int err;

		bio = bio_alloc(bdev, n, REQ_OP_READ, GFP_NOIO);
		bio->bi_iter.bi_sector = start >> SECTOR_SHIFT;
		for (j = 0; j < n; j++) {
			unsigned int len = min_t(u64, PAGE_SIZE, end - start);

			if (bio_add_page(bio, pages[i + j], len, 0) != len) {
				bio_put(bio);
				return -EIO;
			}
			start += len;
		}
		err = submit_bio_wait(bio);
		bio_put(bio);
		if (err)
			return -EIO;
		i += n;
	}
	return 0;
}

/*
 * A read holds at most this many pages at once, one bio's worth (1 MiB):
 * a long read (a metadata region at mount) goes through them in turn, so
 * its memory is its destination plus 1 MiB, not twice its length, and no
 * allocation grows with it (a 2 GiB region asked kcalloc() for an order-10
 * page array, an order-11 one from 4 GiB: a WARN).
 */
#define AXFS_BDEV_CHUNK_PAGES	BIO_MAX_VECS

/*
 * Copy image bytes [*pos, *pos + *left) that lie in the chunk read into
 * pages, which starts at device offset start and ends at end.
 */
static void axfs_bdev_copy(struct page **pages, u64 start, u64 end, u8 **out,
			   u64 *pos, u64 *left)
{
	u64 in_chunk = *pos - start;

	while (*left && *pos < end) {
		size_t in_page = in_chunk & ~PAGE_MASK;
		size_t n = min_t(u64, min_t(u64, *left, end - *pos),
				 PAGE_SIZE - in_page);

		/* Pages without __GFP_HIGHMEM: page_address() maps them. */
		memcpy(*out, (u8 *)page_address(pages[in_chunk >> PAGE_SHIFT]) +
		       in_page, n);
		*out += n;
		*pos += n;
		*left -= n;
		in_chunk += n;
	}
}

int axfs_bdev_read(struct block_device *bdev, void *dst, u64 offset, u64 len)
{
	unsigned int bsize = bdev_logical_block_size(bdev);
	u64 size = bdev_nr_bytes(bdev);
	struct page **pages;
	unsigned int nr, i;
	u64 start, end;
	u8 *out = dst;
	int err;

	if (offset > size || len > size - offset)
		return -EIO;
	if (!len)
		return 0;
	/* The device reads whole logical blocks; its size is a multiple. */
	start = round_down(offset, bsize);
	end = round_up(offset + len, bsize);
	if (end > size)
		return -EIO;
	nr = min_t(u64, DIV_ROUND_UP(end - start, PAGE_SIZE),
		   AXFS_BDEV_CHUNK_PAGES);
	pages = kzalloc_objs(*pages, nr, GFP_NOIO);
	if (!pages)
		return -ENOMEM;
	err = -ENOMEM;
	for (i = 0; i < nr; i++) {
		pages[i] = alloc_page(GFP_NOIO);
		if (!pages[i])
			goto out;
	}
	/* A chunk is whole pages, so whole logical blocks, but the last. */
	while (start < end) {
		u64 chunk_end = min_t(u64, end, start + (u64)nr * PAGE_SIZE);

		err = axfs_bdev_submit(bdev, pages,
				       DIV_ROUND_UP(chunk_end - start, PAGE_SIZE),
				       start, chunk_end);
		if (err)
			goto out;
		axfs_bdev_copy(pages, start, chunk_end, &out, &offset, &len);
		start = chunk_end;
		cond_resched();
	}
out:
	for (i = 0; i < nr && pages[i]; i++)
		__free_page(pages[i]);
	kfree(pages);
	return err;
}

/* Open a block device by path for second_dev=, read-only and exclusive. */
int axfs_bdev_open(struct axfs_dev *dev, const char *path, void *holder)
{
	struct file *file;

	file = bdev_file_open_by_path(path, BLK_OPEN_READ, holder, NULL);
	if (IS_ERR(file))
		return PTR_ERR(file);
	dev->bdev_file = file;
	dev->bdev = file_bdev(file);
	dev->own = true;
	dev->size = bdev_nr_bytes(dev->bdev);
	return 0;
}

void axfs_bdev_close(struct axfs_dev *dev)
{
	if (dev->bdev_file)
		bdev_fput(dev->bdev_file);
	dev->bdev_file = NULL;
	dev->bdev = NULL;
}
