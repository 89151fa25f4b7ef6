// SPDX-License-Identifier: GPL-2.0-only
/*
 * regions.c - superblock, region descriptors and mount-time validation.
 *
 * Everything read from the image is treated as hostile: each offset, size,
 * depth and index is checked before use, in u64 with overflow checks, so
 * a corrupted image fails to mount with a message (or, for per-page data
 * checked later, gives -EIO for the broken file) instead of crashing or
 * reading outside the device.
 */
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/string.h>

#include "axfs.h"

#define axfs_corrupt(sb, fmt, ...) \
	axfs_err(sb, "corrupt image: " fmt, ##__VA_ARGS__)

/* ---- superblock -------------------------------------------------------- */

int axfs_read_super(struct super_block *sb, struct axfs_sb_info *sbi,
		    bool silent)
{
	struct axfs_super_onmedia dsb;
	u64 min_size = AXFS_SUPER_SIZE + 4;
	int err;

	/* The 2008 driver's 256 bytes; page_shift is not read. */
	err = axfs_read(sbi, &dsb, 0, AXFS_SUPER_SIZE);
	if (err) {
		if (!silent)
			axfs_err(sbi->sb, "cannot read the superblock (%d)",
				 err);
		return err;
	}
	if (be32_to_cpu(dsb.magic) != AXFS_MAGIC) {
		if (!silent)
			axfs_err(sbi->sb, "wrong magic 0x%08x, not an AXFS image",
				 be32_to_cpu(dsb.magic));
		return -EINVAL;
	}
	if (memcmp(dsb.signature, AXFS_SIGNATURE, AXFS_SIGNATURE_LEN)) {
		axfs_err(sbi->sb, "wrong signature, expected \"%s\"",
			 AXFS_SIGNATURE);
		return -EINVAL;
	}
	if (dsb.compression_type != AXFS_COMPRESSION_ZLIB) {
		axfs_err(sbi->sb, "unsupported compression type %u",
			 dsb.compression_type);
		return -EINVAL;
	}

	sbi->cblock_size = be32_to_cpu(dsb.cblock_size);
	sbi->files = be64_to_cpu(dsb.files);
	sbi->size = be64_to_cpu(dsb.size);
	sbi->blocks = be64_to_cpu(dsb.blocks);
	sbi->mmap_size = be64_to_cpu(dsb.mmap_size);
	sbi->timestamp = be64_to_cpu(dsb.timestamp);
	sbi->version[0] = dsb.version_major;
	sbi->version[1] = dsb.version_minor;
	sbi->version[2] = dsb.version_sub;

	if (sbi->size < min_size) {
		axfs_corrupt(sbi->sb, "size %llu is smaller than a superblock",
			     sbi->size);
		return -EINVAL;
	}
	if (!sbi->cblock_size || sbi->cblock_size > AXFS_CBLOCK_LIMIT) {
		axfs_corrupt(sbi->sb, "cblock_size %u (must be 1..%u)",
			     sbi->cblock_size, AXFS_CBLOCK_LIMIT);
		return -EINVAL;
	}
	if (sbi->mmap_size > sbi->size) {
		axfs_corrupt(sbi->sb, "mmap_size %llu is beyond the image size %llu",
			     sbi->mmap_size, sbi->size);
		return -EINVAL;
	}
	if (!sbi->files || sbi->files > AXFS_MAX_INODES ||
	    sbi->files > sbi->size) {
		axfs_corrupt(sbi->sb, "%llu inodes in a %llu-byte image", sbi->files,
			     sbi->size);
		return -EINVAL;
	}
	if (sbi->blocks > sbi->size) {
		axfs_corrupt(sbi->sb, "%llu nodes in a %llu-byte image", sbi->blocks,
			     sbi->size);
		return -EINVAL;
	}
	return 0;
}

/*
 * Check that each part of the image fits on what holds it.  Called once
 * the backends are open and the superblock is read.
 */
int axfs_check_devices(struct axfs_sb_info *sbi)
{
	bool dual = sbi->dev1.mtd || sbi->dev1.bdev;
	u64 first_len = dual ? sbi->mmap_size : sbi->size;
	struct axfs_dev *dev0 = &sbi->dev0;

	if (dual) {
		u64 store = sbi->size - sbi->mmap_size;

		if (sbi->mmap_size < AXFS_SUPER_SIZE) {
			axfs_corrupt(sbi->sb,
				     "dual-device image with mmap_size %llu: the superblock must be in the first segment",
				     sbi->mmap_size);
			return -EINVAL;
		}
		if (store > sbi->dev1.size) {
			axfs_err(sbi->sb, "second_dev holds %llu bytes, the image's second segment needs %llu",
				 sbi->dev1.size, store);
			return -EINVAL;
		}
	}
	if ((dev0->mtd || dev0->bdev) && first_len > dev0->size) {
		axfs_err(sbi->sb, "the image needs %llu bytes, the device holds %llu%s",
			 first_len, dev0->size,
			 dual ? "" :
			 " (truncated image, or a dual-device image without second_dev=?)");
		return -EINVAL;
	}
	return 0;
}

static int axfs_check_end_magic(struct axfs_sb_info *sbi)
{
	__be32 tail;
	int err;

	/* u64 offset: the 2008 driver truncated it to 32 bits. */
	err = axfs_read(sbi, &tail, sbi->size - 4, sizeof(tail));
	if (err) {
		axfs_err(sbi->sb, "cannot read the end of the image at %llu (%d)",
			 sbi->size - 4, err);
		return err;
	}
	if (be32_to_cpu(tail) != AXFS_MAGIC) {
		axfs_err(sbi->sb, "no magic at the end of the image (offset %llu): image incomplete or wrong size",
			 sbi->size - 4);
		return -EINVAL;
	}
	return 0;
}

/* ---- region descriptors ------------------------------------------------ */

/*
 * Kernel memory for what the image holds: a region copied or inflated at
 * mount may be as large as the device (or ~1000 times a compressed one),
 * which is legitimate on a big device and must then fail, not OOM-kill
 * or WARN, when the RAM is not there.
 */
#define AXFS_GFP_IMAGE	(GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL)

/* n entries of `each` bytes plus a page of slack for padding, saturating. */
static u64 axfs_entries_bytes(u64 n, u32 each)
{
	if (n > div_u64(U64_MAX - AXFS_PAGE_SIZE, each))
		return U64_MAX;
	return n * each + AXFS_PAGE_SIZE;
}

/*
 * The most bytes region i can hold once in memory, from the superblock's
 * counts (already bounded by the image size): a table one entry of at
 * most 8 bytes per inode (inode tables, modes, uids, gids) or per node
 * (+1, cblock_offset's sentinel), strings a name of at most 255 bytes and
 * its NUL per inode, a data region a 64 KiB page per node.  The same rule
 * as the tools' reader and fsck (libaxfsimg/budget.c, region.bound), so
 * an image fsck passes mounts; a descriptor claiming more (2 GiB of
 * strings for ten inodes) is refused before anything is allocated.
 */
static u64 axfs_region_limit(const struct axfs_sb_info *sbi, int i)
{
	switch (i) {
	case AXFS_R_STRINGS:
		return axfs_entries_bytes(sbi->files, AXFS_MAXPATHLEN + 1);
	case AXFS_R_XIP:
	case AXFS_R_BYTE_ALIGNED:
	case AXFS_R_COMPRESSED:
		return axfs_entries_bytes(sbi->blocks, 65536);
	case AXFS_R_INODE_FILE_SIZE:
	case AXFS_R_INODE_NAME_OFFSET:
	case AXFS_R_INODE_NUM_ENTRIES:
	case AXFS_R_INODE_MODE_INDEX:
	case AXFS_R_INODE_ARRAY_INDEX:
	case AXFS_R_MODES:
	case AXFS_R_UIDS:
	case AXFS_R_GIDS:
		return axfs_entries_bytes(sbi->files, AXFS_TABLE_DEPTH_MAX);
	default:
		return axfs_entries_bytes(sbi->blocks < U64_MAX ?
					  sbi->blocks + 1 : sbi->blocks,
					  AXFS_TABLE_DEPTH_MAX);
	}
}

/* Regions kept in memory: strings, tables, and any stored compressed. */
static bool axfs_region_over_limit(const struct axfs_sb_info *sbi, int i)
{
	const struct axfs_region_info *r = &sbi->r[i];

	if (i != AXFS_R_STRINGS && !AXFS_REGION_IS_TABLE(i) &&
	    !r->compressed_size)
		return false;
	return r->size > axfs_region_limit(sbi, i);
}

static int axfs_read_descriptors(struct axfs_sb_info *sbi)
{
	struct axfs_super_onmedia dsb;
	int i, err;

	err = axfs_read(sbi, &dsb, 0, AXFS_SUPER_SIZE);
	if (err)
		return err;
	for (i = 0; i < AXFS_REGION_COUNT; i++) {
		u64 at = be64_to_cpu(dsb.regions[i]);
		struct axfs_region_info *r = &sbi->r[i];
		struct axfs_region_desc_onmedia d;
		u64 stored, end;

		if (at > sbi->size || sbi->size - at < sizeof(d)) {
			axfs_corrupt(sbi->sb, "%s descriptor at %llu is outside the image",
				     axfs_format_region_name(i), at);
			return -EINVAL;
		}
		err = axfs_read(sbi, &d, at, sizeof(d));
		if (err)
			return err;
		AXFS_REGION_DESC_DECODE(r, &d);

		stored = AXFS_REGION_STORED(r);
		if (check_add_overflow(r->fsoffset, stored, &end) ||
		    end > sbi->size) {
			axfs_corrupt(sbi->sb,
				     "%s region [%llu, +%llu) is outside the image (%llu bytes)",
				     axfs_format_region_name(i), r->fsoffset,
				     stored, sbi->size);
			return -EINVAL;
		}
		if (AXFS_REGION_IS_TABLE(i) && r->depth > AXFS_TABLE_DEPTH_MAX) {
			axfs_corrupt(sbi->sb, "%s table depth %u", axfs_format_region_name(i),
				     r->depth);
			return -EINVAL;
		}
		if (axfs_region_over_limit(sbi, i)) {
			axfs_corrupt(sbi->sb,
				     "%s region claims %llu bytes; %llu inodes and %llu nodes allow at most %llu",
				     axfs_format_region_name(i), r->size,
				     sbi->files, sbi->blocks,
				     axfs_region_limit(sbi, i));
			return -EINVAL;
		}
		if (r->compressed_size &&
		    (r->compressed_size > U32_MAX || r->size > U32_MAX ||
		     div_u64(r->size, AXFS_ZLIB_MAX_RATIO) >
		     r->compressed_size + 1)) {
			axfs_corrupt(sbi->sb, "%s region: %llu bytes cannot inflate from %llu",
				     axfs_format_region_name(i), r->size,
				     r->compressed_size);
			return -EINVAL;
		}
	}
	return 0;
}

/* Is [fsoffset, fsoffset + len) of the image directly addressable? */
static bool axfs_in_mapping(const struct axfs_sb_info *sbi, u64 fsoffset,
			    u64 len)
{
	u64 end;

	return sbi->virt && !check_add_overflow(fsoffset, len, &end) &&
	       end <= sbi->mmap_size && end <= sbi->virt_len;
}

static int axfs_region_nomem(struct axfs_sb_info *sbi, int i, u64 bytes)
{
	axfs_err(sbi->sb, "cannot allocate %llu bytes for the %s region",
		 bytes, axfs_format_region_name(i));
	return -ENOMEM;
}

static int axfs_load_compressed_region(struct axfs_sb_info *sbi, int i)
{
	struct axfs_region_info *r = &sbi->r[i];
	const u8 *src = NULL;
	u8 *tmp = NULL;
	u8 *dst;
	u32 out = 0;
	int err;

	dst = kvmalloc(r->size, AXFS_GFP_IMAGE);
	if (!dst)
		return axfs_region_nomem(sbi, i, r->size);
	if (axfs_in_mapping(sbi, r->fsoffset, r->compressed_size)) {
		src = (const u8 *)sbi->virt + r->fsoffset;
	} else {
		tmp = kvmalloc(r->compressed_size, AXFS_GFP_IMAGE);
		if (!tmp) {
			err = axfs_region_nomem(sbi, i, r->compressed_size);
			goto fail;
		}
		err = axfs_read(sbi, tmp, r->fsoffset, r->compressed_size);
		if (err)
			goto fail;
		src = tmp;
	}
	/* Nothing else uses the stream yet; the lock is for lockdep's sake. */
	mutex_lock(&sbi->cblock_lock);
	err = axfs_inflate(sbi, dst, r->size, src, r->compressed_size, &out);
	mutex_unlock(&sbi->cblock_lock);
	if (err || out != r->size) {
		/* The 2008 driver freed the buffer here and went on using it. */
		axfs_corrupt(sbi->sb, "%s region does not inflate to %llu bytes",
			     axfs_format_region_name(i), r->size);
		err = -EINVAL;
		goto fail;
	}
	kvfree(tmp);
	r->data = dst;
	r->owned = true;
	return 0;
fail:
	kvfree(tmp);
	kvfree(dst);
	return err;
}

/*
 * Give each region a data pointer.  Tables and strings are always in
 * memory (used in place when directly addressable, else copied);
 * the xip, byte_aligned and compressed regions are read on demand unless
 * directly addressable, marked incore, or stored compressed.
 */
int axfs_load_regions(struct axfs_sb_info *sbi)
{
	int i, err;

	err = axfs_check_end_magic(sbi);
	if (err)
		return err;
	err = axfs_read_descriptors(sbi);
	if (err)
		return err;

	for (i = 0; i < AXFS_REGION_COUNT; i++) {
		struct axfs_region_info *r = &sbi->r[i];
		bool forced = i != AXFS_R_XIP && i != AXFS_R_BYTE_ALIGNED &&
			      i != AXFS_R_COMPRESSED;
		u8 *buf;

		if (!r->size)
			continue;
		if (r->compressed_size) {
			err = axfs_load_compressed_region(sbi, i);
			if (err)
				return err;
			continue;
		}
		if (axfs_in_mapping(sbi, r->fsoffset, r->size) && !r->incore) {
			r->data = (const u8 *)sbi->virt + r->fsoffset;
			continue;
		}
		if (!forced && !r->incore)
			continue;
		buf = kvmalloc(r->size, AXFS_GFP_IMAGE);
		if (!buf)
			return axfs_region_nomem(sbi, i, r->size);
		err = axfs_read(sbi, buf, r->fsoffset, r->size);
		if (err) {
			kvfree(buf);
			axfs_err(sbi->sb, "cannot read the %s region (%d)",
				 axfs_format_region_name(i), err);
			return err;
		}
		r->data = buf;
		r->owned = true;
	}
	return 0;
}

void axfs_free_regions(struct axfs_sb_info *sbi)
{
	int i;

	for (i = 0; i < AXFS_REGION_COUNT; i++) {
		struct axfs_region_info *r = &sbi->r[i];

		if (r->owned)
			kvfree(r->data);
		r->data = NULL;
		r->owned = false;
	}
}

/* ---- byte tables ------------------------------------------------------- */

/*
 * Entries of a loaded table of non-zero depth.  div_u64(): a 32-bit
 * kernel has no 64-bit division operator.
 */
static u64 axfs_table_len(const struct axfs_region_info *r)
{
	return div_u64(r->size, r->depth);
}

/* Number of entries a table holds; a depth-0 table reads 0 everywhere. */
u64 axfs_table_entries(const struct axfs_sb_info *sbi, int region)
{
	const struct axfs_region_info *r = &sbi->r[region];

	if (!r->depth)
		return U64_MAX;
	return r->data ? axfs_table_len(r) : 0;
}

int axfs_table_get(const struct axfs_sb_info *sbi, int region, u64 index,
		   u64 *value)
{
	const struct axfs_region_info *r = &sbi->r[region];

	*value = 0;
	if (!r->depth)
		return 0;
	if (!r->data || index >= axfs_table_len(r))
		return -EIO;
	*value = axfs_bytetable_get(r->data, r->depth, index);
	return 0;
}

/* ---- inodes ------------------------------------------------------------ */

int axfs_inode_mode(const struct axfs_sb_info *sbi, u64 ino, umode_t *mode)
{
	u64 mi, m;

	if (ino >= sbi->files ||
	    axfs_table_get(sbi, AXFS_R_INODE_MODE_INDEX, ino, &mi) ||
	    axfs_table_get(sbi, AXFS_R_MODES, mi, &m))
		return -EIO;
	/* The on-disk mode is truncated to 16 bits, as the 2008 driver did. */
	*mode = (umode_t)(m & 0xffff);
	return 0;
}

/*
 * The NUL-terminated name of inode ino inside the strings region, or NULL
 * if it runs off the region or is longer than AXFS_MAXPATHLEN.
 */
const char *axfs_inode_name(const struct axfs_sb_info *sbi, u64 ino,
			    unsigned int *len)
{
	const struct axfs_region_info *r = &sbi->r[AXFS_R_STRINGS];
	u64 off, room;
	size_t n;

	if (ino >= sbi->files ||
	    axfs_table_get(sbi, AXFS_R_INODE_NAME_OFFSET, ino, &off) ||
	    !r->data || off >= r->size)
		return NULL;
	room = min_t(u64, r->size - off, AXFS_MAXPATHLEN + 1);
	n = strnlen((const char *)r->data + off, room);
	if (n == room)
		return NULL;
	*len = n;
	return (const char *)r->data + off;
}

static bool axfs_valid_type(umode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: case S_IFDIR: case S_IFLNK: case S_IFCHR:
	case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		return true;
	}
	return false;
}

/* Every inode: a known type, a usable name, mode/uid/gid in range. */
static int axfs_check_inode(const struct axfs_sb_info *sbi, u64 i)
{
	unsigned int len;
	const char *name;
	umode_t mode;
	u64 mi, v;

	if (axfs_table_get(sbi, AXFS_R_INODE_MODE_INDEX, i, &mi) ||
	    axfs_inode_mode(sbi, i, &mode) ||
	    axfs_table_get(sbi, AXFS_R_UIDS, mi, &v) ||
	    axfs_table_get(sbi, AXFS_R_GIDS, mi, &v)) {
		axfs_corrupt(sbi->sb, "inode %llu: mode/uid/gid index out of range", i);
		return -EINVAL;
	}
	if (!axfs_valid_type(mode)) {
		axfs_corrupt(sbi->sb, "inode %llu: unknown file type 0%o", i, mode);
		return -EINVAL;
	}
	if (i == 0)
		return 0;	/* the root's name is never used */
	name = axfs_inode_name(sbi, i, &len);
	if (!name || !len || memchr(name, '/', len) ||
	    (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.')))) {
		axfs_corrupt(sbi->sb, "inode %llu: bad name", i);
		return -EINVAL;
	}
	return 0;
}

/*
 * Walk the whole tree once: every directory's children must be a range
 * of real inodes other than the root, and no directory may be the child
 * of two directories (that would allow cycles).  Records each inode's
 * parent for the profiler, and warns if names are not in strcmp order,
 * which makes some of them unreachable by lookup, as in the 2008 driver.
 */
int axfs_check_tree(struct axfs_sb_info *sbi, u32 **parentp)
{
	const u32 none = U32_MAX;
	bool warned = false;
	u32 *parent;
	umode_t mode;
	u64 i, j;
	int err;

	for (i = 0; i < sbi->files; i++) {
		u64 v;

		if (axfs_table_get(sbi, AXFS_R_INODE_FILE_SIZE, i, &v) ||
		    axfs_table_get(sbi, AXFS_R_INODE_NUM_ENTRIES, i, &v) ||
		    axfs_table_get(sbi, AXFS_R_INODE_ARRAY_INDEX, i, &v) ||
		    axfs_table_get(sbi, AXFS_R_INODE_NAME_OFFSET, i, &v)) {
			axfs_corrupt(sbi->sb, "inode tables hold fewer than %llu inodes",
				     sbi->files);
			return -EINVAL;
		}
		err = axfs_check_inode(sbi, i);
		if (err)
			return err;
		if (!(i & 1023))
			cond_resched();
	}

	if (axfs_inode_mode(sbi, 0, &mode) || !S_ISDIR(mode)) {
		axfs_err(sbi->sb, "root is not a directory");
		return -EINVAL;
	}

	parent = kvmalloc_array(sbi->files, sizeof(*parent), AXFS_GFP_IMAGE);
	if (!parent)
		return -ENOMEM;
	memset(parent, 0xff, sbi->files * sizeof(*parent));

	for (i = 0; i < sbi->files; i++) {
		u64 first, n, end;

		axfs_inode_mode(sbi, i, &mode);
		if (!S_ISDIR(mode))
			continue;
		axfs_table_get(sbi, AXFS_R_INODE_NUM_ENTRIES, i, &n);
		if (!n)
			continue;
		axfs_table_get(sbi, AXFS_R_INODE_ARRAY_INDEX, i, &first);
		if (!first || check_add_overflow(first, n, &end) ||
		    end > sbi->files) {
			axfs_corrupt(sbi->sb,
				     "directory inode %llu: children [%llu, +%llu) outside 1..%llu",
				     i, first, n, sbi->files - 1);
			err = -EINVAL;
			goto fail;
		}
		for (j = first; j < end; j++) {
			umode_t cmode;

			axfs_inode_mode(sbi, j, &cmode);
			if (parent[j] != none) {
				if (S_ISDIR(cmode)) {
					axfs_corrupt(sbi->sb,
						     "directory inode %llu is in two directories",
						     j);
					err = -EINVAL;
					goto fail;
				}
			} else {
				parent[j] = i;
			}
			/* One directory may hold every inode. */
			if (!(j & 1023))
				cond_resched();
			if (j + 1 < end && !warned) {
				unsigned int la, lb;
				const char *a = axfs_inode_name(sbi, j, &la);
				const char *b = axfs_inode_name(sbi, j + 1, &lb);

				if (strcmp(a, b) >= 0) {
					axfs_warn(sbi->sb, "directory inode %llu: names not sorted (\"%s\" before \"%s\"); some files cannot be looked up",
						  i, a, b);
					warned = true;
				}
			}
		}
		cond_resched();
	}

	if (!sbi->r[AXFS_R_INODE_NUM_ENTRIES].depth ||
	    axfs_table_get(sbi, AXFS_R_INODE_NUM_ENTRIES, 0, &i) || !i) {
		axfs_err(sbi->sb, "empty filesystem");
		err = -EINVAL;
		goto fail;
	}
	*parentp = parent;
	return 0;
fail:
	kvfree(parent);
	return err;
}
