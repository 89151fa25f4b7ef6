// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * profile_order.c - normalising and renumbering the ranks of ordered
 * profiles (see internal/profile_order.h).
 */
#include "profile_order.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

int profile_move_entries(struct axfs_profile *dst, struct axfs_profile *src)
{
	if (!src->n)
		return 0;
	if (dst->n + src->n > dst->cap) {
		size_t cap = dst->n + src->n;
		struct axfs_profile_entry *v;

		if (cap > SIZE_MAX / sizeof(*v) ||
		    !(v = realloc(dst->v, cap * sizeof(*v))))
			return -1;
		dst->v = v;
		dst->cap = cap;
	}
	memcpy(dst->v + dst->n, src->v, src->n * sizeof(*src->v));
	dst->n += src->n;
	src->n = 0;
	return 0;
}

int profile_read_inputs(struct axfs_profile *p, const char *const *files,
			size_t n, struct axfs_error *err)
{
	struct axfs_profile one;
	int rc = 0;

	axfs_profile_init(&one, p->log);
	for (size_t i = 0; i < n && rc == 0; i++) {
		if ((rc = axfs_profile_read(&one, files[i], err)) < 0 ||
		    (rc = axfs_profile_canonicalize(&one, err)) < 0 ||
		    (rc = profile_order_normalise(&one, err)) < 0)
			break;
		if (profile_move_entries(p, &one) < 0)
			rc = axfs_error_set(err, AXFS_ERR_NOMEM,
					    "out of memory");
	}
	axfs_profile_free(&one);
	return rc;
}
