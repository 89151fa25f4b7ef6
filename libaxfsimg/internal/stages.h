/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stages.h - what the stages of a build hand back: the planner's
 * statistics, the packer's regions and node tables, the writer's layout,
 * and struct axfs_build_result, which carries them with the tree to the
 * reports (report.h) and the summary.  Internal: the installed
 * axfs_build.h knows the result only as an opaque type.
 */
#ifndef LIBAXFSIMG_INTERNAL_STAGES_H
#define LIBAXFSIMG_INTERNAL_STAGES_H

#include <stdint.h>
#include "axfs_build.h"
#include "axfs_format.h"
#include "tree.h"

struct plan_stats {
	uint64_t xip_pages;		/* pages planned XIP */
	uint64_t profile_pages;		/* distinct profile pages read */
	uint64_t profile_missing;	/* entries naming absent paths */
	uint64_t profile_not_regular;	/* entries naming non-files */
	uint64_t profile_past_eof;	/* offsets beyond the file's end */
	uint64_t budget_dropped;	/* profiled pages the budget left out */
	uint64_t excluded;		/* profiled pages xip.exclude removed */
	uint64_t below_min_count;
	uint64_t profile_misaligned;	/* offsets not a multiple of 4096 */
	uint64_t suffix_pages;		/* made XIP by xip_suffix */
	uint64_t ranked_pages;		/* pages an ordered profile ranks */
};

/* An unlinked temporary file holding one region's bytes. */
struct pack_spool_file {
	int fd;				/* -1 if empty and never opened */
	uint64_t size;
};

/*
 * The node tables (node_type, node_index: one entry a 4 KiB page of every
 * file, holes included, as the format has them) held as runs of nodes
 * (issue 38 §4): a node stored on its own has a slot (its type and index);
 * a run of nodes that share one stored node's place (the pages of a hole,
 * pages equal to an earlier one) is one run whatever its length.  The runs
 * cover nodes [0, nnodes) in order.  Read them with pack_node_type(),
 * pack_node_index() or a walk over the runs (the writer streams them).
 */
struct pack_node_run {
	uint64_t first;			/* its first node */
	uint64_t n;			/* nodes in the run */
	uint64_t slot;			/* own: the first node's slot, the
					 * others' follow; shared: the one
					 * slot every node of the run takes */
	int shared;
};

/* Why a page of a file without a plan (tree_entry.pages NULL) is stored
 * byte-aligned: kept here, not in a plan entry a page (holes included). */
struct pack_reason {
	uint64_t ino;			/* the file's (its group master's) */
	uint64_t page;
	uint8_t reason;			/* enum tree_page_reason */
};

struct pack_result {
	uint32_t cblock_size;
	uint64_t nnodes;		/* nodes of the image */
	struct pack_node_run *runs;	/* nruns runs covering the nodes */
	size_t nruns;
	uint64_t nslots;		/* nodes stored on their own */
	uint8_t *slot_type;		/* enum axfs_node_type */
	uint64_t *slot_index;
	uint64_t ncnodes;		/* compressed nodes */
	uint64_t *cnode_offset;		/* offset inside the inflated cblock */
	uint64_t *cnode_index;		/* cblock number */
	uint64_t nbanodes;		/* byte-aligned nodes */
	uint64_t *banode_offset;
	uint64_t ncblocks;
	uint64_t *cblock_offset;	/* ncblocks + 1 entries */
	uint64_t xip_pages;
	struct pack_spool_file xip;	/* xip_pages * 4096 bytes */
	struct pack_spool_file byte_aligned;
	struct pack_spool_file compressed;
	/* Sorted by ino, page: pack_reason_of() */
	struct pack_reason *reasons;
	size_t nreasons;
	/* Statistics for reports. */
	uint64_t bytes_in;		/* file bytes read */
	uint64_t dedup_files;		/* files that reused another's nodes */
	uint64_t dedup_pages;		/* pages that reused another's cnode */
	/* Ordered profile: ranked pages stored in cblocks in rank order,
	 * and the cblocks [0, ordered_cblocks) that hold them. */
	uint64_t ordered_pages;
	uint64_t ordered_cblocks;
};

/* The slot node `node` (< nnodes) takes: its type and index are
 * p->slot_type[slot], p->slot_index[slot] (pack/pack_nodes.c). */
uint64_t pack_node_slot(const struct pack_result *p, uint64_t node);
uint8_t pack_node_type(const struct pack_result *p, uint64_t node);
uint64_t pack_node_index(const struct pack_result *p, uint64_t node);
/* The reason the packer gave page `page` of plan-less file `ino`, or
 * TREE_WHY_DEFAULT. */
int pack_reason_of(const struct pack_result *p, uint64_t ino,
		   uint64_t page);
/* n[type] += the nodes of each type, in O(runs). */
void pack_node_count(const struct pack_result *p,
		     uint64_t n[AXFS_NODE_TYPE_COUNT]);

/* Where each region landed, for reports and dump. */
struct write_layout {
	uint64_t fsoffset[AXFS_REGION_COUNT];
	uint64_t size[AXFS_REGION_COUNT];
	uint64_t compressed_size[AXFS_REGION_COUNT];
	uint64_t max_index[AXFS_REGION_COUNT];
	uint8_t depth[AXFS_REGION_COUNT];
	uint64_t image_size;
	uint64_t mmap_size;
};

/* Everything a report needs once the image exists. */
struct axfs_build_result {
	struct tree tree;
	struct pack_result packed;
	struct write_layout layout;
	struct plan_stats plan;
	uint32_t block_size;
	enum axfs_compressor compressor;	/* never DEFAULT */
	int level;
	int64_t timestamp;
	unsigned int lossy;		/* union of enum source_lossy seen */
	struct axfs_build_summary summary;	/* axfs_build_summary() */
};

#endif
