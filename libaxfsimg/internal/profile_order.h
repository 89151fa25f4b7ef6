/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * profile_order.h - the ranks of an ordered profile (the `first` field of
 * struct axfs_profile_entry), as merge-profile combines them.  Internal.
 *
 * Ranks of different runs are not comparable as numbers (a boot that
 * touched 500 pages and one that touched 5,000), so each input's ranks
 * are first normalised to its position in that run (0 .. 1, as a 32.32
 * fixed-point number), the inputs combined keeping each page's smallest
 * (axfs_profile_canonicalize_combine), and the result renumbered 1..N.
 * The rule is documented for users in axfs-profile(5).
 */
#ifndef LIBAXFSIMG_INTERNAL_PROFILE_ORDER_H
#define LIBAXFSIMG_INTERNAL_PROFILE_ORDER_H

#include "axfs_profile.h"

/* 1 when some entry has a rank. */
int profile_order_has_ranks(const struct axfs_profile *p);

/*
 * One canonical input: its ranked entries, in rank order (ties: path,
 * then offset), get 1 + floor((r - 1) * 2^32 / N) for r = 1..N, where N
 * is the number of ranked entries: the run's position of each page.
 */
int profile_order_normalise(struct axfs_profile *p, struct axfs_error *err);

/* A canonical profile: its ranked entries, ordered by rank, then path,
 * then offset, get the ranks 1..N. */
int profile_order_renumber(struct axfs_profile *p, struct axfs_error *err);

/* Moves every entry of src to the end of dst (src is left empty); -1
 * when out of memory (both unchanged). */
int profile_move_entries(struct axfs_profile *dst, struct axfs_profile *src);

/*
 * Reads each of the n files into p as merge-profile and mkfs -p read
 * them: each canonicalised and its ranks normalised on its own, then all
 * appended (the caller canonicalises the whole).  Errors name the file.
 */
int profile_read_inputs(struct axfs_profile *p, const char *const *files,
			size_t n, struct axfs_error *err);

#endif
