/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A path being built on the heap (fsck's names of inodes, the policy's
 * walk over the tree, the image walk): its buffer grows by doubling, from
 * 256 bytes, so that a deep tree costs a few reallocations.
 */
#ifndef LIBAXFSIMG_INTERNAL_PATHBUF_H
#define LIBAXFSIMG_INTERNAL_PATHBUF_H

#include <stddef.h>
#include <stdlib.h>

/* Room for need bytes in *buf, of *cap bytes: 0, or -1 when out of memory
 * (then *buf and *cap are as they were). */
static inline int pathbuf_reserve(char **buf, size_t *cap, size_t need)
{
	size_t c = *cap ? *cap : 256;
	char *nb;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	nb = realloc(*buf, c);
	if (!nb)
		return -1;
	*buf = nb;
	*cap = c;
	return 0;
}

#endif
