/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * share.h - the regular files of an image that share their node range,
 * and what extracting them writes (share.c): one rule for the image
 * source (its hard link groups), extract (the same groups, and the bound
 * on what it writes) and fsck (the same bound, as a finding).
 *
 * Link groups.  mkfs stores a link group, and a set of identical files,
 * as inodes that share one node range.  Non-empty files that share their
 * range (same array_index and size) and their mode/owner tuple
 * (mode_index) are one hard link group, led by its first file in the
 * order given; the others are hard links to it.
 *
 * The bound.  Files that share nodes but not their mode and owner (or
 * whose ranges overlap without being the same) cannot be hard links:
 * extracting them writes their data once each, so that a few KiB of
 * image could claim GiB.  What an extraction writes (each link group
 * once) may therefore be at most `ratio` times what the image holds for
 * its files (the union of their node ranges, each byte counted once);
 * the default, SHARE_MAX_RATIO, is far above what a real tree of shared
 * files gives (1 when nothing is shared but by link groups).
 */
#ifndef LIBAXFSIMG_SHARE_H
#define LIBAXFSIMG_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "axfs_error.h"

#define SHARE_NO_LINK ((size_t)-1)
#define SHARE_MAX_RATIO 8

/* A regular file as the inode tables give it. */
struct share_file {
	uint64_t array_index, size, mode_index;
};

struct share_totals {
	uint64_t written;	/* the bytes of the files, each group once */
	uint64_t held;		/* the bytes of the union of their ranges */
};

/*
 * Finds the link groups of the n files f (in the order given, which
 * decides who leads a group): link_to[i] is the index of the file i is a
 * hard link to, SHARE_NO_LINK when it leads a group or has none (link_to
 * may be NULL); *t (may be NULL) gets the totals.  0, or -ENOMEM (err).
 */
int share_link_groups(const struct share_file *f, size_t n, size_t *link_to,
		      struct share_totals *t, struct axfs_error *err);

/* 1 when t->written is more than ratio times t->held, else 0. */
int share_over_ratio(const struct share_totals *t, uint64_t ratio);

#endif
