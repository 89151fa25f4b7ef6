/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * planner.h - decides, for every page of every regular file, whether
 * it is stored XIP (uncompressed, page-aligned) and why.
 *
 * Inputs: --xip globs, profiles (hottest pages first within a budget),
 * per-entry want_xip set by the policy, xip.exclude and xip.min-count.
 * The compressed / byte-aligned choice for non-XIP pages is made by the
 * packer, which sees the data.  Deterministic: ties in count are broken
 * by path, then offset.
 */
#ifndef LIBAXFSIMG_INTERNAL_PLANNER_H
#define LIBAXFSIMG_INTERNAL_PLANNER_H

#include <stdint.h>
#include "tree.h"
#include "axfs_profile.h"
#include "stages.h"

struct plan_opts {
	const char *const *xip_globs;	/* whole files XIP */
	size_t n_xip_globs;
	const struct axfs_profile *profile;	/* canonical; may be NULL */
	const char *const *xip_exclude;	/* never XIP */
	size_t n_xip_exclude;
	uint64_t min_count;		/* profile pages below: not XIP */
	int has_budget;
	uint64_t budget;		/* bytes of XIP pages at most; whole
					 * files are kept and count first,
					 * profile pages get the rest */
	int strict_profile;		/* a skipped profile entry is an
					 * error, not a warning */
	int xip_suffix;			/* every page after a file's first
					 * XIP page is XIP too (TREE_WHY_SUFFIX),
					 * on top of the budget */
	const struct axfs_logger *log;
};

/* The tree must be finalised.  Fills entry->pages. */
int plan_tree(struct tree *t, const struct plan_opts *o,
	      struct plan_stats *st, struct axfs_error *err);

/* Drops the coldest XIP pages until at most max_pages remain (used for
 * --mmap-limit); returns how many were dropped. */
uint64_t plan_trim(struct tree *t, uint64_t max_pages);

/* After a trim with xip_suffix: every XIP page before a file's last
 * non-XIP page stops being XIP (TREE_WHY_MMAP_LIMIT), so that the XIP
 * pages form a suffix again; only removes pages.  Returns how many. */
uint64_t plan_trim_suffix(struct tree *t);

/*
 * Gives every hard-link member its own copy of its master's page plan
 * (each entry owns and frees its `pages`); -1 when out of memory.  The
 * packer calls it once the masters are packed.
 */
int plan_sync_link_members(struct tree *t);

#endif
