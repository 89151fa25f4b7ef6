// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * profile_order.c - normalising and renumbering the ranks of ordered
 * profiles (see internal/profile_order.h).
 */
#include "profile_order.h"

#include <stdint.h>
#include <stdlib.h>

struct ranked {
	uint64_t first;
	size_t idx;		/* canonical position: path, then offset */
};

static int by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int profile_order_has_ranks(const struct axfs_profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].first)
			return 1;
	return 0;
}

/* The ranked entries of p in rank order (*n of them; NULL, 0: none). */
static int sorted_ranks(const struct axfs_profile *p, struct ranked **out,
			size_t *n, struct axfs_error *err)
{
	struct ranked *r;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < p->n; i++)
		k += p->v[i].first != 0;
	if (!k)
		return 0;
	if (k > SIZE_MAX / sizeof(*r) || !(r = malloc(k * sizeof(*r))))
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	k = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].first)
			r[k++] = (struct ranked){ p->v[i].first, i };
	qsort(r, k, sizeof(*r), by_rank);
	*out = r;
	*n = k;
	return 0;
}

int profile_order_normalise(struct axfs_profile *p, struct axfs_error *err)
{
	struct ranked *r;
	size_t n;
	int rc = sorted_ranks(p, &r, &n, err);

	if (rc < 0 || !n)
		return rc;
	/* (r - 1) << 32 must fit: 2^32 ranked pages would be 16 TiB */
	if ((uint64_t)n > UINT32_MAX) {
		free(r);
		return axfs_error_set(err, AXFS_ERR_LIMIT, "a profile with "
				      "more than %u ranked pages", UINT32_MAX);
	}
	for (size_t k = 0; k < n; k++)
		p->v[r[k].idx].first = ((uint64_t)k << 32) / n + 1;
	free(r);
	return 0;
}

int profile_order_renumber(struct axfs_profile *p, struct axfs_error *err)
{
	struct ranked *r;
	size_t n;
	int rc = sorted_ranks(p, &r, &n, err);

	if (rc < 0)
		return rc;
	for (size_t k = 0; k < n; k++)
		p->v[r[k].idx].first = (uint64_t)k + 1;
	free(r);
	return 0;
}
