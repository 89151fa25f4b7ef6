// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * packer.c - stores the data of every regular file and symlink: XIP pages,
 * compressed cblocks, byte-aligned bytes, and the node tables.  This file
 * is the per-file flow; where pages go and the threads that compress them
 * are in pack_jobs.c, data stored once in pack_dedup.c (pack/internal.h).
 *
 * One pass over the tree in inode order, in the calling thread, reads
 * every file once (through the source) and sends each page to the XIP
 * spool, an open cblock or the byte-aligned batch, as the plan and the
 * file's compress setting say.  Reading, compressing and writing overlap:
 * while the threads compress, the calling thread reads the next files and
 * commits finished cblocks to the spools (unlinked temporary files, see
 * pack_spool.h).
 *
 * Memory bound (besides the metadata: the tree, the plan, about 33 bytes
 * of node tables per page, and what pack_jobs.c and pack_dedup.c say they
 * hold): a 256 KiB read buffer and 3 spool buffers of 256 KiB.  With zlib,
 * 2 threads and 64 KiB cblocks the packer holds about 4 MiB, with 2
 * threads and 1 MiB cblocks about 17 MiB, whatever the size of the tree
 * (zlib: 256 KiB of compressor state per thread at the default memLevel;
 * libdeflate 1.14, measured: 0.2 MiB at level 1, 0.65 MiB at 2 to 9,
 * 8.6 MiB at 10 to 12; peak RSS of a whole mkfs of a 312 MiB tree:
 * 15 MiB, of which the tree and tables are most; mksquashfs: 425 MiB);
 * libdeflate adds 0.8 MiB to that at level 9 and 17 MiB at levels 10 to
 * 12.
 *
 * Hard links: the group's data is packed once, when the first entry of
 * the group (in inode order) is reached; every member gets the master's
 * first_node/node_count.
 *
 * Symlinks: the target plus a trailing NUL is the node data of page 0
 * (the 2008 readlink takes strlen() of the page), never XIP.
 *
 * Reasons: the packer refines only pages the planner left at
 * AXFS_WHY_DEFAULT (a page left out by the budget keeps "budget" even if
 * it ends up byte-aligned), and resets its own reasons when a tree is
 * packed again (after axfs_plan_trim).
 */
#include "internal.h"
#include "axfs_planner.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PACK_PROGRESS_BYTES	(4u * 1024 * 1024)
#define PACK_PROGRESS_FILES	256u

/* ---- small helpers ------------------------------------------------------ */

int pack_err_path(struct packer *pk, int code, int errnum,
		  const struct axfs_tree_entry *e, const char *what)
{
	size_t n = axfs_tree_path(e, NULL, 0);
	char *p = malloc(n + 1);

	if (p)
		axfs_tree_path(e, p, n + 1);
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
	const struct axfs_pack_opts *o = pk->o;

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

/* The node tables must be 64-bit addressable in this process. */
static int alloc_nodes(struct packer *pk, uint64_t n, uint64_t *first)
{
	struct axfs_packed *out = pk->out;
	size_t cap = pk->node_cap;

	if (n > SIZE_MAX - out->nnodes)
		return pack_nomem(pk);
	if (pack_grow((void **)&out->node_index, &cap, (size_t)(out->nnodes + n),
		 sizeof(*out->node_index)) < 0)
		return pack_nomem(pk);
	cap = pk->node_cap;
	if (pack_grow((void **)&out->node_type, &cap, (size_t)(out->nnodes + n),
		 sizeof(*out->node_type)) < 0)
		return pack_nomem(pk);
	pk->node_cap = cap;
	memset(out->node_type + out->nnodes, NODE_PENDING, (size_t)n);
	memset(out->node_index + out->nnodes, 0,
	       (size_t)n * sizeof(*out->node_index));
	*first = out->nnodes;
	out->nnodes += n;
	return 0;
}

/* Records why a page is byte-aligned (only over the default reason). */
int pack_refine_reason(struct axfs_tree_entry *e, uint64_t page,
		       uint8_t reason)
{
	if (!e)
		return 0;
	if (!e->pages) {
		e->pages = calloc((size_t)npages_of(e), sizeof(*e->pages));
		if (!e->pages)
			return -1;
	}
	if (e->pages[page].reason == AXFS_WHY_DEFAULT)
		e->pages[page].reason = reason;
	return 0;
}

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

	if ((rc = alloc_nodes(pk, n, &first)) < 0)
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

static int pack_file(struct packer *pk, struct axfs_tree_entry *m)
{
	if (m->size == 0) {
		m->first_node = 0;
		m->node_count = 0;
		m->packed = 1;
		return 0;
	}
	if (pk->cand[m->ino])
		return pack_dedup_file(pk, m);
	return pack_file_stream(pk, m);
}

static int pack_symlink(struct packer *pk, struct axfs_tree_entry *e)
{
	size_t len = e->link_target ? strlen(e->link_target) : 0;
	const struct axfs_tree_entry *twin;
	uint64_t node;
	int rc;

	if (len == 0 || len != e->size || len + 1 > AXFS_PAGE_SIZE)
		return pack_err_path(pk, AXFS_ERR_LIMIT, 0, e,
				     "a symlink target must be 1 to 4095 bytes");
	twin = pack_dedup_find_link(pk, e);
	if (twin) {
		e->first_node = twin->first_node;
		e->node_count = 1;
		e->packed = 1;
		return 0;
	}
	if ((rc = alloc_nodes(pk, 1, &node)) < 0)
		return rc;
	e->first_node = node;
	e->node_count = 1;
	e->packed = 1;
	/* The target and its NUL (axfs(5) rule 21). */
	if (len + 1 <= AXFS_PACK_TAIL_MAX)
		rc = pack_raw_add(pk, node, e->link_target, len + 1, NULL, 0,
				  AXFS_WHY_TAIL);
	else
		rc = pack_cblock_add(pk, node, e->link_target, len + 1, NULL,
				     0);
	if (rc == 0)
		rc = pack_dedup_add_link(pk, e);
	return rc;
}

/* ---- setup, the main loop, teardown --------------------------------- */

/* Resets what an earlier packing left, counts totals, marks candidates. */
static void prepare(struct packer *pk)
{
	struct axfs_tree *t = pk->t;

	for (size_t i = 0; i < t->count; i++) {
		struct axfs_tree_entry *e = t->by_ino[i];

		if (e->type != AXFS_FT_REG && e->type != AXFS_FT_LNK)
			continue;
		e->first_node = 0;
		e->node_count = 0;
		e->packed = 0;
		pk->files_total++;
		if (e->type != AXFS_FT_REG || !is_master(e))
			continue;
		pk->bytes_total += e->size;
		if (e->pages) {
			uint64_t np = npages_of(e);

			for (uint64_t p = 0; p < np; p++) {
				uint8_t r = e->pages[p].reason;

				if (r == AXFS_WHY_INCOMPRESSIBLE ||
				    r == AXFS_WHY_TAIL ||
				    r == AXFS_WHY_UNCOMPRESSED ||
				    r == AXFS_WHY_DEDUP)
					e->pages[p].reason = AXFS_WHY_DEFAULT;
			}
		}
	}
}

static int setup(struct packer *pk)
{
	int rc;

	pk->rbuf = malloc(PACK_READ_CHUNK);
	if (!pk->rbuf)
		return pack_nomem(pk);
	if ((rc = pack_jobs_start(pk)) < 0)
		return rc;
	return pack_dedup_start(pk);
}

static void teardown(struct packer *pk)
{
	pack_jobs_stop(pk);	/* first: threads may hold jobs */
	pack_dedup_stop(pk);
	free(pk->rbuf);
}

/* Hard-link members take their master's nodes and a copy of its plan. */
static int finish_links(struct packer *pk)
{
	struct axfs_tree *t = pk->t;

	for (size_t i = 0; i < t->count; i++) {
		struct axfs_tree_entry *e = t->by_ino[i];

		if (e->type != AXFS_FT_REG || is_master(e))
			continue;
		e->first_node = e->link_master->first_node;
		e->node_count = e->link_master->node_count;
		e->packed = 1;
	}
	if (plan_sync_link_members(t) < 0)
		return pack_nomem(pk);
	return 0;
}

static int pack_all(struct packer *pk)
{
	struct axfs_tree *t = pk->t;
	int rc;

	for (size_t i = 0; i < t->count; i++) {
		struct axfs_tree_entry *e = t->by_ino[i];

		if (e->type == AXFS_FT_REG) {
			struct axfs_tree_entry *m = master_of(e);

			if ((rc = pack_check_cancel(pk)) < 0)
				return rc;
			if (!m->packed && (rc = pack_file(pk, m)) < 0)
				return rc;
		} else if (e->type == AXFS_FT_LNK) {
			if ((rc = pack_symlink(pk, e)) < 0)
				return rc;
		} else {
			continue;
		}
		pk->files_done++;
		pack_progress(pk, 0);
	}
	if ((rc = pack_jobs_finish(pk)) < 0)
		return rc;
	pack_dedup_resolve_pages(pk);
	for (uint64_t n = 0; n < pk->out->nnodes; n++)
		if (pk->out->node_type[n] == NODE_PENDING)
			return axfs_error_set(pk->err, AXFS_ERR_INVALID,
					      "packer: node %llu was not "
					      "stored", (unsigned long long)n);
	if ((rc = finish_links(pk)) < 0)
		return rc;
	pack_progress(pk, 1);
	return 0;
}

int axfs_pack_tree(struct axfs_tree *t, struct axfs_source *src,
		   const struct axfs_pack_opts *o, struct axfs_packed *out,
		   struct axfs_error *err)
{
	struct packer pk;
	int rc;

	if (!out)
		return axfs_error_set(err, AXFS_ERR_INVALID, "no output");
	memset(out, 0, sizeof(*out));
	out->xip.fd = out->byte_aligned.fd = out->compressed.fd = -1;
	if (!t || !t->by_ino || !src || !o)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "the tree must be finalised and planned "
				      "before packing");
	if (!AXFS_CBLOCK_SIZE_OK(o->cblock_size))
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "block size %u is not a power of two "
				      "from 4 KiB to 1 MiB", o->cblock_size);
	if ((rc = axfs_compressor_check_level(o->compressor, o->level, NULL,
					      err)) < 0)
		return rc;

	memset(&pk, 0, sizeof(pk));
	pk.t = t;
	pk.src = src;
	pk.o = o;
	pk.out = out;
	pk.err = err;
	pk.cblock_size = o->cblock_size;
	prepare(&pk);
	rc = setup(&pk);
	if (rc == 0)
		rc = pack_all(&pk);
	teardown(&pk);
	if (rc < 0) {
		axfs_packed_free(out);
		return rc;
	}
	for (size_t i = 0; i < t->count; i++) {
		const struct axfs_tree_entry *e = t->by_ino[i];

		if (e->type == AXFS_FT_REG && is_master(e))
			out->bytes_in += e->size;
	}
	return 0;
}

void axfs_packed_free(struct axfs_packed *p)
{
	if (!p)
		return;
	free(p->node_type);
	free(p->node_index);
	free(p->cnode_offset);
	free(p->cnode_index);
	free(p->banode_offset);
	free(p->cblock_offset);
	if (p->xip.fd >= 0)
		close(p->xip.fd);
	if (p->byte_aligned.fd >= 0)
		close(p->byte_aligned.fd);
	if (p->compressed.fd >= 0)
		close(p->compressed.fd);
	memset(p, 0, sizeof(*p));
	p->xip.fd = p->byte_aligned.fd = p->compressed.fd = -1;
}
