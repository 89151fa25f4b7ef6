// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pack_util.c - what every file of the packer uses: errors naming the
 * entry, cancellation, progress, growing arrays, the reason a page got.  Calls no other file of the packer.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define PACK_PROGRESS_BYTES	(4u * 1024 * 1024)
#define PACK_PROGRESS_FILES	256u

/* ---- small helpers ------------------------------------------------------ */

int pack_err_path(struct packer *pk, int code, int errnum,
		  const struct tree_entry *e, const char *what)
{
	size_t n = tree_entry_path(e, NULL, 0);
	char *p = malloc(n + 1);

	if (p)
		tree_entry_path(e, p, n + 1);
	if (errnum)
		axfs_error_sys(pk->err, errnum, "'%s': %s", p ? p : "?", what);
	else
		axfs_error_set(pk->err, code, "'%s': %s", p ? p : "?", what);
	free(p);
	return pk->err ? pk->err->code : code;
}

int pack_nomem(struct packer *pk)
{
	return axfs_error_set(pk->err, AXFS_ERR_NOMEM,
			      "out of memory packing file data");
}

int pack_check_cancel(struct packer *pk)
{
	if (pk->o->cancel && *pk->o->cancel)
		return axfs_error_set(pk->err, AXFS_ERR_INTERRUPTED,
				      "interrupted");
	return 0;
}

void pack_progress(struct packer *pk, int force)
{
	const struct pack_opts *o = pk->o;

	if (!o->progress)
		return;
	if (!force && pk->bytes_done - pk->last_bytes < PACK_PROGRESS_BYTES &&
	    pk->files_done - pk->last_files < PACK_PROGRESS_FILES)
		return;
	pk->last_bytes = pk->bytes_done;
	pk->last_files = pk->files_done;
	o->progress(o->progress_ctx, pk->files_done, pk->files_total,
		    pk->bytes_done, pk->bytes_total);
}

/* Grows *v (elements of `size` bytes) to hold at least `need`. */
int pack_grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t nc;
	void *nv;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : 1024;
	while (nc < need)
		nc *= 2;
	if (nc > SIZE_MAX / size)
		return -1;
	nv = realloc(*v, nc * size);
	if (!nv)
		return -1;
	*v = nv;
	*cap = nc;
	return 0;
}

/* Records why a page is byte-aligned (only over the default reason). */
int pack_refine_reason(struct tree_entry *e, uint64_t page,
		       uint8_t reason)
{
	if (!e)
		return 0;
	if (!e->pages) {
		e->pages = calloc((size_t)npages_of(e), sizeof(*e->pages));
		if (!e->pages)
			return -1;
	}
	if (e->pages[page].reason == TREE_WHY_DEFAULT)
		e->pages[page].reason = reason;
	return 0;
}


/* Same size, pages XIP and compress choice: identical bytes may then share
 * nodes (pack_dedup.c), and ranks (pack_order.c). */
int pack_same_plan(const struct tree_entry *a, const struct tree_entry *b)
{
	uint64_t n = npages_of(a);

	if (a->size != b->size ||
	    (a->want_compress == 0) != (b->want_compress == 0))
		return 0;
	for (uint64_t p = 0; p < n; p++)
		if (page_is_xip(a, p) != page_is_xip(b, p))
			return 0;
	return 1;
}
