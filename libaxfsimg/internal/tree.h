/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tree.h - the in-memory filesystem tree that mkfs builds.
 *
 * Entries are added in any order (parents may be implied).  Finalising
 * sorts every directory's children bytewise (strcmp order, which the
 * driver's lookup relies on) and numbers inodes breadth-first so that the
 * children of each directory are consecutive inodes; the root is inode 0.
 */
#ifndef LIBAXFSIMG_INTERNAL_TREE_H
#define LIBAXFSIMG_INTERNAL_TREE_H

#include <stdint.h>
#include <stddef.h>
#include "source.h"

/*
 * The largest regular file mkfs takes: 16 TiB - 4 KiB, what a 32-bit
 * kernel opens (its MAX_LFS_FILESIZE; the driver refuses a larger inode
 * there).  A file claiming more (a sparse archive member is cheap to make
 * claim anything) is refused by name before anything is allocated for it,
 * so a page count can neither wrap nor size a node table from a lie.
 */
#define TREE_FILE_MAX	((1ull << 44) - 4096u)

/* Why a page got the node type it has: mkfs --report, dump --pages. */
enum tree_page_reason {
	TREE_WHY_DEFAULT = 0,		/* compressed: nothing asked otherwise */
	TREE_WHY_PROFILE,		/* XIP: the profile counted it */
	TREE_WHY_XIP_GLOB,		/* XIP: --xip GLOB matched the file */
	TREE_WHY_WHOLE_FILE,		/* XIP: policy xip.files */
	TREE_WHY_POLICY_RULE,		/* per-file rule (xip/compress) */
	TREE_WHY_BUDGET,		/* profiled, but the XIP budget ran out */
	TREE_WHY_EXCLUDED,		/* profiled, but xip.exclude matched */
	TREE_WHY_MIN_COUNT,		/* profiled, below xip.min-count */
	TREE_WHY_MMAP_LIMIT,		/* profiled, dropped to fit mmap limit */
	TREE_WHY_INCOMPRESSIBLE,	/* byte-aligned: zlib did not shrink it */
	TREE_WHY_TAIL,			/* byte-aligned: small tail, smaller so */
	TREE_WHY_UNCOMPRESSED,		/* byte-aligned: compress none asked */
	TREE_WHY_DEDUP,			/* shares the data of an identical file */
	TREE_WHY_SUFFIX,		/* XIP: after an XIP page (--xip-suffix) */
	TREE_WHY_COUNT
};
const char *tree_page_reason_name(enum tree_page_reason r);

/* The planner's decision for one page of a regular file. */
struct tree_page_plan {
	uint8_t xip;		/* 1: store uncompressed in the XIP region */
	uint8_t reason;		/* enum tree_page_reason */
	uint32_t rank;		/* ordered profile: 1.. in first-use order
				 * over the image's pages; 0: none */
	uint64_t count;		/* profile fault count (0 if none) */
};

struct tree_entry {
	char *name;			/* component; "" for the root */
	uint32_t name_len;
	enum axfs_ftype type;
	uint32_t mode;			/* S_IFMT bits | permissions (16 bits) */
	uint32_t uid, gid;
	uint64_t size;			/* regular: bytes; symlink: target len */
	uint32_t rdev_major, rdev_minor;
	char *link_target;		/* symlink target (owned) */
	struct source_data_ref data;	/* regular files (owned) */
	unsigned int lossy;		/* enum source_lossy bits seen */

	struct tree_entry *parent;
	struct tree_entry **children;	/* directories */
	size_t nchildren, children_cap;

	/* Hard links: every entry of a link group points at the group's
	 * first entry (itself for the first); data is stored once. */
	struct tree_entry *link_master;

	uint64_t ino;			/* set by tree_finalize */

	/* Set by the policy / command line before planning. */
	int8_t want_xip;		/* -1 unset, 0 never, 1 whole file */
	int8_t want_compress;		/* -1 unset, 0 store uncompressed */
	uint8_t reason_override;	/* enum tree_page_reason for want_* */

	/* Set by the planner: one per page (NULL: all compressed/default). */
	struct tree_page_plan *pages;

	/* Set by the packer: this entry's nodes are
	 * [first_node, first_node + node_count). */
	uint64_t first_node;
	uint64_t node_count;
	int packed;
};

struct tree {
	struct tree_entry *root;
	size_t count;			/* entries including the root */
	/* After finalize: entries indexed by inode number. */
	struct tree_entry **by_ino;
	void *priv;			/* path index, arenas */
	const struct axfs_logger *log;
};

int tree_init(struct tree *t, const struct axfs_logger *log,
	      struct axfs_error *err);
/*
 * Adds (or replaces: the last entry for a path wins, with a warning) the
 * entry from a source.  Missing parent directories are created as 0755
 * root:root and reported at AXFS_LOG_INFO.  Takes ownership of
 * e->data.host_path on success.
 */
int tree_add(struct tree *t, const struct source_entry *e,
	     struct tree_entry **out, struct axfs_error *err);
/* "/a/b", "a/b" and "./a/b" all name the same entry; "/" is the root. */
struct tree_entry *tree_lookup(const struct tree *t,
			       const char *path);
/* Sorts, checks limits (names <= 255 bytes, inode count), numbers. */
int tree_finalize(struct tree *t, struct axfs_error *err);
/* Full path of an entry, "/" for the root, "/a/b" otherwise. */
size_t tree_entry_path(const struct tree_entry *e, char *buf,
		       size_t len);
typedef void (*tree_entry_fn)(struct tree_entry *e, void *ctx);
/* Visits every entry (parents before children, without recursion), also
 * of a tree not yet finalised; -1 when out of memory. */
int tree_for_each_entry(struct tree *t, tree_entry_fn fn, void *ctx);
void tree_free(struct tree *t);

#endif
