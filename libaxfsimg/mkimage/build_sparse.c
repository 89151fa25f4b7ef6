// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mkimage/build_sparse.c - what sparse files may claim (issue 38 §4).
 *
 * A hole costs the image almost nothing (its pages all share one zero
 * page) but the format has a node a page, and every reader holds the node
 * tables in memory: a 10 KiB tar holding a 1 TiB sparse file made a
 * 544 KiB image of 256 Mi nodes, which took mkfs 2.9 GB and every reader
 * of ours refused at its default budget.  Two bounds, both errors naming
 * the file:
 *   - before anything is allocated for them, the holes of the build
 *     (each file's size less the bytes its source holds, known from an
 *     archive's sparse map or a host file's SEEK_DATA extents) are at
 *     most max_holes (AXFS_DEFAULT_MAX_HOLES, mkfs --max-holes);
 *   - once the image is laid out, before it replaces anything, what
 *     opening and checking it takes (budget_open_need()) is within the
 *     budget our readers give an image of its size by default
 *     (budget_default(): 64 MiB + 8 x its size).
 */
#include "internal.h"
#include "budget.h"

#include <limits.h>
#include <stdio.h>

static uint64_t npages(uint64_t size)
{
	return size / AXFS_PAGE_SIZE + (size % AXFS_PAGE_SIZE != 0);
}

static int is_data_master(const struct tree_entry *e)
{
	return e->type == AXFS_FT_REG &&
	       (!e->link_master || e->link_master == e);
}

int build_check_holes(const struct axfs_build_opts *o, const struct tree *t,
		      struct axfs_error *err)
{
	uint64_t max = o->max_holes ? o->max_holes : AXFS_DEFAULT_MAX_HOLES;
	uint64_t total = 0;

	for (size_t i = 0; i < t->count; i++) {
		const struct tree_entry *e = t->by_ino[i];
		uint64_t held, holes;
		char path[PATH_MAX];

		if (!is_data_master(e))
			continue;
		held = e->data.data_bytes < e->size ? e->data.data_bytes :
						      e->size;
		holes = e->size - held;
		if (holes <= max - total) {
			total += holes;
			continue;
		}
		tree_entry_path(e, path, sizeof(path));
		return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': '%s' is %llu "
			"bytes of which %llu are holes, which bring the "
			"image's holes over the %llu bytes max_holes (mkfs "
			"--max-holes) allows "
			"(a hole costs a node a 4 KiB page, which every reader "
			"holds in memory; raise --max-holes if the image is "
			"read with --max-memory)", o->source, path,
			(unsigned long long)e->size, (unsigned long long)holes,
			(unsigned long long)max);
	}
	return 0;
}

int build_check_readers(const struct axfs_build_opts *o,
			const struct axfs_build_result *res,
			struct axfs_error *err)
{
	const struct write_layout *lay = &res->layout;
	uint64_t need = budget_open_need(lay->size, lay->compressed_size,
					 res->packed.nnodes);
	uint64_t budget = budget_default(lay->image_size);
	const struct tree_entry *big = NULL;
	char path[PATH_MAX] = "";

	if (need <= budget)
		return 0;
	/* Name the file with the most nodes: it made the tables. */
	for (size_t i = 0; i < res->tree.count; i++) {
		const struct tree_entry *e = res->tree.by_ino[i];

		if (is_data_master(e) && (!big || e->size > big->size))
			big = e;
	}
	if (big)
		tree_entry_path(big, path, sizeof(path));
	return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': the image would be "
		"%llu bytes with %llu nodes (one a 4 KiB page, holes "
		"included), whose tables need %llu bytes of memory to read; "
		"our readers give an image of that size %llu (64 MiB + 8 x "
		"its size) unless run with --max-memory, so nothing was "
		"written; the largest file is '%s' (%llu pages)", o->source,
		(unsigned long long)lay->image_size,
		(unsigned long long)res->packed.nnodes,
		(unsigned long long)need, (unsigned long long)budget, path,
		(unsigned long long)(big ? npages(big->size) : 0));
}
