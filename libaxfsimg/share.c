// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * share.c - link groups and the bound on what an extraction writes; see
 * share.h for the rule.  The files are sorted once by what a group
 * shares (range start, size, mode/owner tuple, then the order given):
 * a group is then a run of equal keys, and the union of the ranges is
 * one pass over the starts in order.
 */
#include "share.h"

#include <errno.h>
#include <stdlib.h>

#include "axfs_format.h"

static int by_share(const void *a, const void *b, void *ctx)
{
	const struct share_file *f = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct share_file *p = &f[i], *q = &f[j];

	if (p->array_index != q->array_index)
		return p->array_index < q->array_index ? -1 : 1;
	if (p->size != q->size)
		return p->size < q->size ? -1 : 1;
	if (p->mode_index != q->mode_index)
		return p->mode_index < q->mode_index ? -1 : 1;
	/* The order given last: a group's first file leads it. */
	return i < j ? -1 : i > j;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Where a file's range starts, in bytes (saturated: the tables are
 * untrusted). */
static uint64_t range_start(const struct share_file *f)
{
	return f->array_index > UINT64_MAX / AXFS_PAGE_SIZE ? UINT64_MAX :
	       f->array_index * AXFS_PAGE_SIZE;
}

int share_link_groups(const struct share_file *f, size_t n, size_t *link_to,
		      struct share_totals *t, struct axfs_error *err)
{
	struct share_totals sum = { 0, 0 };
	uint64_t reach = 0;	/* the end of the union so far */
	size_t *idx, m = 0, lead = SHARE_NO_LINK;

	for (size_t i = 0; link_to && i < n; i++)
		link_to[i] = SHARE_NO_LINK;
	idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!idx)
		return axfs_error_sys(err, ENOMEM, "the link groups");
	for (size_t i = 0; i < n; i++)
		if (f[i].size > 0)
			idx[m++] = i;
	qsort_r(idx, m, sizeof(*idx), by_share, (void *)f);
	for (size_t k = 0; k < m; k++) {
		const struct share_file *r = &f[idx[k]];
		const struct share_file *p = k ? &f[idx[k - 1]] : NULL;
		uint64_t start = range_start(r), end = sat_add(start, r->size);

		if (p && p->array_index == r->array_index &&
		    p->size == r->size && p->mode_index == r->mode_index) {
			if (link_to)
				link_to[idx[k]] = lead;
		} else {
			lead = idx[k];
			sum.written = sat_add(sum.written, r->size);
		}
		if (start >= reach)
			sum.held = sat_add(sum.held, end - start);
		else if (end > reach)
			sum.held = sat_add(sum.held, end - reach);
		if (end > reach)
			reach = end;
	}
	free(idx);
	if (t)
		*t = sum;
	return 0;
}

int share_over_ratio(const struct share_totals *t, uint64_t ratio)
{
	if (ratio && t->held > UINT64_MAX / ratio)
		return 0;
	return t->written > t->held * ratio;
}
