/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_packer.h - stores file data: XIP pages, cblocks, byte-aligned
 * bytes, and the node tables that point at them.
 *
 * Files are packed in inode order, so the output depends only on the tree
 * and the options (never on -j or timing).  Compression runs on a pool of
 * threads; results are committed in order.  Region data goes to unlinked
 * temporary spool files, not memory.
 */
#ifndef AXFS_PACKER_H
#define AXFS_PACKER_H

#include <stdint.h>
#include "axfs_compressor.h"
#include "axfs_tree.h"
#include "axfs_source.h"

/*
 * Default cblock size, chosen by measurement (bench/blocksize.sh,
 * bench/BLOCKSIZE.md): image size and build time against the cost to the
 * driver, which inflates a whole cblock for a fault in any of its pages.
 */
#define AXFS_DEFAULT_BLOCK_SIZE 65536u

struct axfs_pack_opts {
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

/* An unlinked temporary file holding one region's bytes. */
struct axfs_spool {
	int fd;				/* -1 if empty and never opened */
	uint64_t size;
};

struct axfs_packed {
	uint32_t cblock_size;
	uint64_t nnodes;		/* node tables, indexed by node */
	uint8_t *node_type;		/* enum axfs_node_type */
	uint64_t *node_index;
	uint64_t ncnodes;		/* compressed nodes */
	uint64_t *cnode_offset;		/* offset inside the inflated cblock */
	uint64_t *cnode_index;		/* cblock number */
	uint64_t nbanodes;		/* byte-aligned nodes */
	uint64_t *banode_offset;
	uint64_t ncblocks;
	uint64_t *cblock_offset;	/* ncblocks + 1 entries */
	uint64_t xip_pages;
	struct axfs_spool xip;		/* xip_pages * 4096 bytes */
	struct axfs_spool byte_aligned;
	struct axfs_spool compressed;
	/* Statistics for reports. */
	uint64_t bytes_in;		/* file bytes read */
	uint64_t dedup_files;		/* files that reused another's nodes */
	uint64_t dedup_pages;		/* pages that reused another's cnode */
};

/*
 * Packs every regular file and symlink of a finalised, planned tree:
 * sets entry->first_node / node_count (hard links and identical files
 * share nodes) and may refine entry->pages[i].reason for byte-aligned
 * pages.  Symlink targets are stored with a trailing NUL inside the node
 * data (the 2008 driver's readlink relies on it).
 */
int axfs_pack_tree(struct axfs_tree *t, struct axfs_source *src,
		   const struct axfs_pack_opts *o, struct axfs_packed *out,
		   struct axfs_error *err);
void axfs_packed_free(struct axfs_packed *p);

#endif
