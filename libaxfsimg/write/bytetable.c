// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bytetable.c - packs arrays of integers into AXFS byte tables at the
 * smallest depth that holds them.
 */
#include "bytetable.h"

#include <stdlib.h>
#include <string.h>

#include "axfs_format.h"

unsigned int bytetable_min_depth(const uint64_t *v, uint64_t n)
{
	uint64_t max = 0;

	for (uint64_t i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	return axfs_bytetable_depth_for(max);
}

int bytetable_alloc(struct bytetable *bt, uint64_t n, unsigned int depth,
		    struct axfs_error *err)
{
	memset(bt, 0, sizeof(*bt));
	bt->count = n;
	bt->depth = depth;
	if (depth == 0 || n == 0) {
		/* Nothing to store: every entry reads as 0. */
		bt->depth = n ? depth : 0;
		return 0;
	}
	if (n > SIZE_MAX / depth)
		return axfs_error_set(err, AXFS_ERR_NOMEM,
				      "byte table of %llu entries is too large",
				      (unsigned long long)n);
	bt->size = n * depth;
	bt->data = malloc((size_t)bt->size);
	if (!bt->data)
		return axfs_error_set(err, AXFS_ERR_NOMEM,
				      "out of memory for a byte table of %llu bytes",
				      (unsigned long long)bt->size);
	return 0;
}

int bytetable_build(struct bytetable *bt, const uint64_t *v,
		    uint64_t n, struct axfs_error *err)
{
	unsigned int depth = bytetable_min_depth(v, n);
	int rc = bytetable_alloc(bt, n, depth, err);

	if (rc < 0 || !bt->data)
		return rc;
	for (uint64_t i = 0; i < n; i++)
		axfs_bytetable_put(bt->data, depth, i, v[i]);
	return 0;
}

int bytetable_build_u8(struct bytetable *bt, const uint8_t *v,
		       uint64_t n, struct axfs_error *err)
{
	uint8_t max = 0;
	int rc;

	for (uint64_t i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	rc = bytetable_alloc(bt, n, axfs_bytetable_depth_for(max), err);
	if (rc < 0 || !bt->data)
		return rc;
	memcpy(bt->data, v, (size_t)n);	/* depth 1: the bytes themselves */
	return 0;
}

void bytetable_free(struct bytetable *bt)
{
	if (!bt)
		return;
	free(bt->data);
	memset(bt, 0, sizeof(*bt));
}
