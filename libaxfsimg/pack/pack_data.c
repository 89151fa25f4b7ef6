// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pack_data.c - a regular file's data: read once through the source and
 * each page sent where the plan says (pack_jobs.c: the XIP spool, a
 * cblock, the byte-aligned batch; pack_dedup.c: a page stored before).
 * packer.c calls it for every file that is not a copy of another;
 * pack_dedup.c for the first of identical files.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- reading files ---------------------------------------------------- */

/* Reads until `want` bytes or the end of the data. */
int pack_read_full(struct packer *pk, void *h, unsigned char *buf,
		   size_t want, size_t *got)
{
	*got = 0;
	while (*got < want) {
		size_t n = 0;
		int rc = pk->src->ops->data_read(pk->src, h, buf + *got,
						 want - *got, &n, pk->err);

		if (rc < 0)
			return rc;
		if (!n)
			break;
		*got += n;
	}
	return 0;
}

int pack_data_open(struct packer *pk, struct axfs_tree_entry *m, void **h)
{
	*h = NULL;
	return pk->src->ops->data_open(pk->src, &m->data, h, pk->err);
}

void pack_data_close(struct packer *pk, void *h)
{
	if (h)
		pk->src->ops->data_close(pk->src, h);
}

/* After `size` bytes: the data must end here. */
int pack_expect_eof(struct packer *pk, struct axfs_tree_entry *m, void *h)
{
	unsigned char b;
	size_t got;
	int rc = pack_read_full(pk, h, &b, 1, &got);

	if (rc < 0)
		return rc;
	if (got)
		return pack_err_path(pk, AXFS_ERR_IO, 0, m,
				"the file grew while it was being read");
	return 0;
}

int pack_shrank(struct packer *pk, struct axfs_tree_entry *m)
{
	return pack_err_path(pk, AXFS_ERR_IO, 0, m,
			"the file shrank while it was being read");
}

static int freader_page(struct freader *r, size_t len, const unsigned char **out)
{
	struct packer *pk = r->pk;
	int rc;

	if (r->mem) {
		*out = r->mem + r->pos;
		r->pos += len;
		return 0;
	}
	if (r->bpos == r->blen) {
		uint64_t left = r->m->size - r->pos;
		size_t want = left < PACK_READ_CHUNK ? (size_t)left :
						       PACK_READ_CHUNK;
		size_t got;

		if ((rc = pack_check_cancel(pk)) < 0 ||
		    (rc = pack_read_full(pk, r->h, pk->rbuf, want, &got)) < 0)
			return rc;
		if (got < want)
			return pack_shrank(pk, r->m);
		r->bpos = 0;
		r->blen = got;
		pack_progress(pk, 0);
	}
	*out = pk->rbuf + r->bpos;
	r->bpos += len;
	r->pos += len;
	return 0;
}

/* ---- storing a file --------------------------------------------------- */

/* Stores the pages of master m as the plan says; nodes are allocated. */
int pack_file_pages(struct packer *pk, struct freader *r)
{
	struct axfs_tree_entry *m = r->m;
	uint64_t n = npages_of(m), first;
	int nocomp = m->want_compress == 0;
	int rc;

	if ((rc = pack_alloc_nodes(pk, n, &first)) < 0)
		return rc;
	m->first_node = first;
	m->node_count = n;
	m->packed = 1;
	for (uint64_t p = 0; p < n; p++) {
		uint64_t left = m->size - p * AXFS_PAGE_SIZE;
		size_t len = left < AXFS_PAGE_SIZE ? (size_t)left :
						     AXFS_PAGE_SIZE;
		const unsigned char *d = NULL;

		if ((rc = freader_page(r, len, &d)) < 0)
			return rc;
		if (page_is_xip(m, p))
			rc = pack_xip_add(pk, first + p, d, len);
		else if (nocomp)
			rc = pack_raw_add(pk, first + p, d, len, m, p,
				     AXFS_WHY_UNCOMPRESSED);
		else if (len < AXFS_PAGE_SIZE && len <= AXFS_PACK_TAIL_MAX)
			rc = pack_raw_add(pk, first + p, d, len, m, p,
				     AXFS_WHY_TAIL);
		else if (len == AXFS_PAGE_SIZE && pk->share_pages)
			rc = pack_dedup_page(pk, m, p, first + p, d);
		else
			rc = pack_cblock_add(pk, first + p, d, len, m, p);
		if (rc < 0)
			return rc;
		pk->bytes_done += len;
	}
	return 0;
}

int pack_file_stream(struct packer *pk, struct axfs_tree_entry *m)
{
	struct freader r = { .pk = pk, .m = m };
	int rc;

	if ((rc = pack_data_open(pk, m, &r.h)) < 0)
		return rc;
	rc = pack_file_pages(pk, &r);
	if (rc == 0)
		rc = pack_expect_eof(pk, m, r.h);
	pack_data_close(pk, r.h);
	return rc;
}

