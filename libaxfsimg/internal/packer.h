/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * packer.h - stores file data: XIP pages, cblocks, byte-aligned
 * bytes, and the node tables that point at them.
 *
 * Files are packed in inode order, so the output depends only on the tree
 * and the options (never on -j or timing).  Compression runs on a pool of
 * threads; results are committed in order.  Region data goes to unlinked
 * temporary spool files, not memory.
 */
#ifndef LIBAXFSIMG_INTERNAL_PACKER_H
#define LIBAXFSIMG_INTERNAL_PACKER_H

#include <stdint.h>
#include "axfs_compressor.h"
#include "tree.h"
#include "source.h"
#include "stages.h"

struct pack_opts {
	uint32_t cblock_size;		/* power of two, 4 KiB .. 1 MiB */
	enum axfs_compressor compressor;	/* DEFAULT: libdeflate */
	int level;			/* 1 to axfs_compressor_max_level() */
	int jobs;			/* threads; <= 0: online CPUs */
	const char *tmpdir;		/* spool files; NULL = $TMPDIR, /tmp */
	const struct axfs_logger *log;
	/* Progress: called from the calling thread only. */
	void (*progress)(void *ctx, uint64_t files_done, uint64_t files_total,
			 uint64_t bytes_done, uint64_t bytes_total);
	void *progress_ctx;
	volatile int *cancel;		/* non-zero: stop with INTERRUPTED */
};

/*
 * Packs every regular file and symlink of a finalised, planned tree:
 * sets entry->first_node / node_count (hard links and identical files
 * share nodes) and may refine entry->pages[i].reason for byte-aligned
 * pages.  Symlink targets are stored with a trailing NUL inside the node
 * data (the 2008 driver's readlink relies on it).
 */
int pack_tree(struct tree *t, struct source *src,
	      const struct pack_opts *o, struct pack_result *out,
	      struct axfs_error *err);
void pack_free_packed(struct pack_result *p);

#endif
