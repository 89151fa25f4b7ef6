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

/* A file whose size another has: share the nodes of an identical earlier
 * file (pack_dedup.c) or store it. */
int pack_file_dedup(struct packer *pk, struct axfs_tree_entry *m)
{
	struct axfs_tree_entry *twin;
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

		/* Large: one pass for the key, a second to store it. */
		while (rc == 0 && pos < m->size) {
			uint64_t left = m->size - pos;
			size_t want = left < PACK_READ_CHUNK ? (size_t)left :
							       PACK_READ_CHUNK;
			size_t got;

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
