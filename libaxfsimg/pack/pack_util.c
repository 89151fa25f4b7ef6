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

/*
 * Records why a page is byte-aligned (only over the default reason): in
 * the file's plan when it has one, else in out->reasons (sorted when the
 * packing ends), so a file without a plan never gets a plan entry a page
 * for the few pages that have a reason (a sparse file's lone tail).
 */
int pack_refine_reason(struct packer *pk, struct tree_entry *e,
		       uint64_t page, uint8_t reason)
{
	struct pack_result *out = pk->out;
	struct pack_reason *r;

	if (!e)
		return 0;
	if (e->pages) {
		if (e->pages[page].reason == TREE_WHY_DEFAULT)
			e->pages[page].reason = reason;
		return 0;
	}
	if (pack_grow((void **)&out->reasons, &pk->reason_cap,
		      out->nreasons + 1, sizeof(*out->reasons)) < 0)
		return -1;
	r = &out->reasons[out->nreasons++];
	r->ino = e->ino;
	r->page = page;
	r->reason = reason;
	return 0;
}

static int by_ino_page(const void *a, const void *b)
{
	const struct pack_reason *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->page < y->page ? -1 : x->page > y->page;
}

void pack_reasons_sort(struct pack_result *out)
{
	if (out->nreasons > 1)
		qsort(out->reasons, out->nreasons, sizeof(*out->reasons),
		      by_ino_page);
}

int pack_reason_of(const struct pack_result *p, uint64_t ino, uint64_t page)
{
	struct pack_reason key = { .ino = ino, .page = page };
	const struct pack_reason *r;

	if (!p->nreasons)
		return TREE_WHY_DEFAULT;
	r = bsearch(&key, p->reasons, p->nreasons, sizeof(*p->reasons),
		    by_ino_page);
	return r ? r->reason : TREE_WHY_DEFAULT;
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
