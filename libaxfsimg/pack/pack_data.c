// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pack_data.c - a regular file's data: read once through the source
 * (pack_read.c) and each page sent where the plan says (pack_jobs.c: the
 * XIP spool, a cblock, the byte-aligned batch; pack_dedup.c: a page
 * stored before).  packer.c calls it for every file: pack_file_stream()
 * for a file whose size no other has, pack_file_dedup() for the others,
 * which share the nodes of an identical earlier file (pack_dedup.c finds
 * it) or are stored.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

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

		/* No further than the data the source knows (in whole
		 * pages): the hole after it is skipped, not read. */
		if (r->upto && r->upto < want)
			want = (size_t)r->upto;
		r->upto = 0;

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

static const unsigned char zero_page[AXFS_PAGE_SIZE];

/* Sends page p of master m (node `node`, bytes d) where the plan says. */
static int store_page(struct packer *pk, struct tree_entry *m,
		      uint64_t p, uint64_t node, const unsigned char *d,
		      size_t len)
{
	int rc;

	/* A full page bound for a cblock may share an earlier page's place
	 * (pack_dedup_page decides); every other page is stored on its own. */
	if (!page_is_xip(m, p) && m->want_compress != 0 &&
	    len == AXFS_PAGE_SIZE && pk->share_pages)
		return pack_dedup_page(pk, m, p, node, d);
	if ((rc = pack_node_own(pk, node)) < 0)
		return rc;
	if (page_is_xip(m, p))
		return pack_xip_add(pk, node, d, len);
	if (m->want_compress == 0)
		return pack_raw_add(pk, node, d, len, m, p,
				    TREE_WHY_UNCOMPRESSED);
	if (len < AXFS_PAGE_SIZE && len <= PACK_TAIL_MAX)
		return pack_raw_add(pk, node, d, len, m, p, TREE_WHY_TAIL);
	return pack_order_cblock_add(pk, node, d, len, m, p);
}

/*
 * k full pages of m from page p that are a hole.  Those bound for a
 * cblock all take the one shared zero page (pack_dedup_zero_run): no
 * read, no hash, no copy, whatever k is; only their node table entries
 * cost.  XIP pages and pages of an uncompressed file are stored as their
 * plan says (the format holds their bytes), from a static zero page.
 */
static int store_hole(struct packer *pk, struct tree_entry *m,
		      uint64_t p, uint64_t k)
{
	uint64_t q = p, end = p + k;
	int rc;

	while (q < end) {
		uint64_t r = q + 1;

		if (page_is_xip(m, q) || m->want_compress == 0 ||
		    !pk->share_pages) {
			rc = store_page(pk, m, q, m->first_node + q, zero_page,
					AXFS_PAGE_SIZE);
		} else {
			if (!m->pages)
				r = end;
			else
				while (r < end && !page_is_xip(m, r))
					r++;
			rc = pack_dedup_zero_run(pk, m, q, m->first_node + q,
						 r - q);
		}
		if (rc < 0)
			return rc;
		pk->bytes_done += (r - q) * AXFS_PAGE_SIZE;
		q = r;
	}
	pack_progress(pk, 0);
	return pack_check_cancel(pk);
}

/* Stores the pages of master m as the plan says; nodes are allocated. */
int pack_file_pages(struct packer *pk, struct freader *r)
{
	struct tree_entry *m = r->m;
	uint64_t n = npages_of(m), first;
	int rc;

	if ((rc = pack_alloc_nodes(pk, n, &first)) < 0)
		return rc == AXFS_ERR_NOMEM ?
			pack_err_path(pk, AXFS_ERR_NOMEM, 0, m, "out of memory "
				      "for its node tables (one node per 4 KiB "
				      "page, holes included)") : rc;
	m->first_node = first;
	m->node_count = n;
	m->packed = 1;
	for (uint64_t p = 0; p < n; p++) {
		uint64_t left = m->size - p * AXFS_PAGE_SIZE;
		size_t len = left < AXFS_PAGE_SIZE ? (size_t)left :
						     AXFS_PAGE_SIZE;
		const unsigned char *d = NULL;

		/* Between chunks, at a page boundary: a hole's whole pages
		 * are stored without being read. */
		if (!r->mem && r->bpos == r->blen && len == AXFS_PAGE_SIZE) {
			uint64_t hole, data, k;

			if ((rc = pack_hole_at(pk, r->h, m->size - r->pos,
					       &hole, &data)) < 0)
				return rc;
			k = hole / AXFS_PAGE_SIZE;
			if (!k && data)
				r->upto = (hole + data + AXFS_PAGE_SIZE - 1) /
					  AXFS_PAGE_SIZE * AXFS_PAGE_SIZE;
			if (k) {
				if ((rc = pack_skip(pk, r->h,
						    k * AXFS_PAGE_SIZE)) < 0 ||
				    (rc = store_hole(pk, m, p, k)) < 0)
					return rc;
				r->pos += k * AXFS_PAGE_SIZE;
				p += k - 1;
				continue;
			}
		}
		if ((rc = freader_page(r, len, &d)) < 0)
			return rc;
		if ((rc = store_page(pk, m, p, first + p, d, len)) < 0)
			return rc;
		pk->bytes_done += len;
	}
	return 0;
}

int pack_file_stream(struct packer *pk, struct tree_entry *m)
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

/* A file whose size another has: share the nodes of an identical earlier
 * file (pack_dedup.c) or store it. */
int pack_file_dedup(struct packer *pk, struct tree_entry *m)
{
	struct tree_entry *twin;
	uint64_t key = pack_dedup_key_init();
	void *h = NULL;
	int rc;

	if ((rc = pack_data_open(pk, m, &h)) < 0)
		return rc;
	if (m->size <= PACK_DEDUP_INMEM_MAX) {
		size_t got;

		rc = pack_read_full(pk, h, pk->mbuf, (size_t)m->size, &got);
		if (rc == 0 && got < m->size)
			rc = pack_shrank(pk, m);
		if (rc == 0)
			rc = pack_expect_eof(pk, m, h);
		pack_data_close(pk, h);
		if (rc < 0)
			return rc;
		key = pack_dedup_key_update(key, pk->mbuf, (size_t)m->size);
		twin = pack_dedup_find_file(pk, m, key, pk->mbuf, &rc);
		if (rc < 0)
			return rc;
		if (twin)
			return pack_dedup_share_file(pk, m, twin);
		struct freader r = { .pk = pk, .m = m, .mem = pk->mbuf };

		rc = pack_file_pages(pk, &r);
	} else {
		uint64_t pos = 0;

		/* Large: one pass for the key, a second to store it.  Holes
		 * are not read: the key steps over their zeros. */
		while (rc == 0 && pos < m->size) {
			uint64_t left = m->size - pos, hole, data;
			size_t want = left < PACK_READ_CHUNK ? (size_t)left :
							       PACK_READ_CHUNK;
			size_t got;

			rc = pack_hole_at(pk, h, left, &hole, &data);
			if (rc == 0 && hole) {
				rc = pack_skip(pk, h, hole);
				key = pack_dedup_key_zeros(key, hole);
				pos += hole;
				continue;
			}
			if (data && data < want)
				want = (size_t)data;
			if (rc == 0)
				rc = pack_check_cancel(pk);
			if (rc == 0)
				rc = pack_read_full(pk, h, pk->rbuf, want, &got);
			if (rc == 0 && got < want)
				rc = pack_shrank(pk, m);
			if (rc == 0)
				key = pack_dedup_key_update(key, pk->rbuf, want);
			pos += want;
		}
		if (rc == 0)
			rc = pack_expect_eof(pk, m, h);
		pack_data_close(pk, h);
		if (rc < 0)
			return rc;
		twin = pack_dedup_find_file(pk, m, key, NULL, &rc);
		if (rc < 0)
			return rc;
		if (twin)
			return pack_dedup_share_file(pk, m, twin);
		rc = pack_file_stream(pk, m);
	}
	if (rc == 0)
		rc = pack_dedup_add_file(pk, key, m);
	return rc;
}
