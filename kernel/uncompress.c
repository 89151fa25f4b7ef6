// SPDX-License-Identifier: GPL-2.0-only
/*
 * uncompress.c - zlib inflate for cblocks and compressed metadata regions.
 *
 * Each mount has its own inflate state (the 2008 driver had one global
 * stream behind a global mutex); callers serialise on sbi->cblock_lock,
 * also at mount time, when nobody else could use it yet.
 * Streams are RFC 1950 zlib with a window of at most 32 KiB.
 */
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/zlib.h>

#include "axfs.h"

int axfs_zlib_init(struct axfs_sb_info *sbi)
{
	sbi->zs.workspace = kvmalloc(zlib_inflate_workspacesize(), GFP_KERNEL);
	return sbi->zs.workspace ? 0 : -ENOMEM;
}

void axfs_zlib_exit(struct axfs_sb_info *sbi)
{
	kvfree(sbi->zs.workspace);
	sbi->zs.workspace = NULL;
}

/*
 * Inflate one complete zlib stream of srclen bytes into at most dstlen
 * bytes.  Returns 0 with *outlen set, or -EIO if the stream is corrupt,
 * truncated, or does not fit.
 */
int axfs_inflate(struct axfs_sb_info *sbi, void *dst, u32 dstlen,
		 const void *src, u32 srclen, u32 *outlen)
{
	struct z_stream_s *zs = &sbi->zs;
	int err;

	lockdep_assert_held(&sbi->cblock_lock);
	if (zlib_inflateInit2(zs, MAX_WBITS) != Z_OK)
		return -EIO;
	zs->next_in = src;
	zs->avail_in = srclen;
	zs->next_out = dst;
	zs->avail_out = dstlen;
	err = zlib_inflate(zs, Z_FINISH);
	*outlen = zs->total_out;
	zlib_inflateEnd(zs);
	return err == Z_STREAM_END ? 0 : -EIO;
}
