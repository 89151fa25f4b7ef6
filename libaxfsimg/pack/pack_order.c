// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pack_order.c - the boot order: the compressed pages an ordered profile
 * ranks (tree_page_plan.rank, set by the planner) are stored in cblocks in
 * rank order, at the start of the compressed region, ahead of every other
 * cblock (issue 40).  A boot that reads its pages in the recorded order
 * then inflates the fewest cblocks, ceil(ranked pages / pages per cblock),
 * and reads the device forward.
 *
 * How: while the packer walks the tree, a ranked page bound for a cblock
 * is not added to the open cblock but kept aside (its bytes appended to an
 * unlinked spool file, its node and rank in an array: 48 bytes per page);
 * its node stays pending.  When every file is packed and the cold cblocks
 * committed, the kept pages are cut in rank order into groups of as many
 * pages as a cblock holds, each group stored in one cblock of its own
 * (full pages and tails together, in node order inside the group), and
 * the compressed region is then rotated: the hot cblocks are renumbered
 * 0..H-1 and their bytes moved in front, the cold ones follow in their
 * own order.  Nothing else moves: node and cnode numbers, cnode offsets,
 * the XIP and byte-aligned regions are what they would be anyway, and a
 * page another page shares (pack_dedup.c) is resolved afterwards, to the
 * place its twin ends up.
 *
 * The format lets any node point at any cblock (axfs(5)), so the 2008
 * driver reads the result; the image records no order, so fsck has no new
 * invariant to check.  Deterministic: the ranks are distinct (1..N over
 * the image's pages) and everything else is the packer's usual order, so
 * the bytes depend on neither -j nor timing.  Without ranks nothing here
 * runs and the image is byte for byte what it was before.
 *
 * Identical files: pack_dedup.c stores the data of identical files once,
 * as the first of them in inode order has it, so a rank given to a later
 * copy would come too late.  Before packing, pack_order_share_ranks()
 * gives the files that may be identical (a size another file has, at most
 * PACK_DEDUP_INMEM_MAX bytes, one of them ranked, the same pages XIP) each
 * other's ranks, page by page the smallest, when a checksum of their bytes
 * agrees: only where pages go depends on it, never what they hold.  (Identical pages of
 * different files, and the zero page of holes, still share the first
 * stored copy, wherever it is.)
 *
 * Calls: packer.c, pack_data.c and pack_dedup.c call down into this
 * file, which calls pack_jobs.c, pack_read.c and pack_util.c.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define PACK_HOT_SPOOL_BUF	(256u * 1024)

struct pack_hot {
	uint64_t rank;
	uint64_t node;
	uint64_t spool_off;		/* its bytes in the hot spool */
	struct tree_entry *e;
	uint64_t page;
	uint32_t len;
};

static int by_rank(const void *a, const void *b)
{
	const struct pack_hot *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static int by_node(const void *a, const void *b)
{
	const struct pack_hot *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

void pack_order_start(struct packer *pk)
{
	pack_spool_init(&pk->hot_spool, &pk->hot_file, pk->o->tmpdir,
			"boot-order", PACK_HOT_SPOOL_BUF);
}

void pack_order_stop(struct packer *pk)
{
	pack_spool_release(&pk->hot_spool);
	if (pk->hot_file.fd >= 0)
		close(pk->hot_file.fd);
	pk->hot_file.fd = -1;
	free(pk->hot);
	pk->hot = NULL;
	pk->nhot = pk->hot_cap = 0;
}

struct twin {
	struct tree_entry *m;
	uint64_t key;			/* size, then this: equal bytes */
	int ranked;
};

static int by_size_key(const void *a, const void *b)
{
	const struct twin *x = a, *y = b;

	if (x->m->size != y->m->size)
		return x->m->size < y->m->size ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->m->ino < y->m->ino ? -1 : x->m->ino > y->m->ino;
}

static int has_rank(const struct tree_entry *m)
{
	uint64_t n = npages_of(m);

	for (uint64_t p = 0; m->pages && p < n; p++)
		if (m->pages[p].rank)
			return 1;
	return 0;
}

/* crc32 and adler32 of m's bytes, read through the source into mbuf. */
static int file_key(struct packer *pk, struct tree_entry *m, uint64_t *key)
{
	void *h = NULL;
	size_t got;
	int rc;

	if ((rc = pack_data_open(pk, m, &h)) < 0)
		return rc;
	rc = pack_read_full(pk, h, pk->mbuf, (size_t)m->size, &got);
	pack_data_close(pk, h);
	if (rc == 0 && got < m->size)
		return pack_shrank(pk, m);
	if (rc < 0)
		return rc;
	*key = (uint64_t)crc32_z(0, pk->mbuf, (size_t)m->size) << 32 |
	       (uint32_t)adler32_z(1, pk->mbuf, (size_t)m->size);
	return 0;
}

/*
 * Files [a, b) have the same bytes: those planned as v[a] is (the ones
 * that will share its nodes) get, page by page, the smallest rank of them.
 */
static int merge_ranks(struct twin *v, size_t a, size_t b)
{
	uint64_t n = npages_of(v[a].m);
	int ranked = 0, twins = 0;

	for (size_t i = a; i < b; i++) {
		if (!pack_same_plan(v[a].m, v[i].m))
			continue;
		ranked |= v[i].ranked;
		twins++;
	}
	if (!ranked || twins < 2)
		return 0;
	for (size_t i = a; i < b; i++) {
		struct tree_entry *m = v[i].m;

		if (pack_same_plan(v[a].m, m) && !m->pages &&
		    !(m->pages = calloc((size_t)n, sizeof(*m->pages))))
			return -1;
	}
	for (uint64_t p = 0; p < n; p++) {
		uint32_t r = 0;

		for (size_t i = a; i < b; i++) {
			uint32_t q = v[i].m->pages ? v[i].m->pages[p].rank : 0;

			if (q && pack_same_plan(v[a].m, v[i].m) && (!r || q < r))
				r = q;
		}
		for (size_t i = a; i < b; i++)
			if (pack_same_plan(v[a].m, v[i].m))
				v[i].m->pages[p].rank = r;
	}
	return 0;
}

int pack_order_share_ranks(struct packer *pk)
{
	struct tree *t = pk->t;
	struct twin *v = NULL;
	size_t n = 0, any = 0;
	int rc = 0;

	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *m = t->by_ino[i];

		if (m->type == AXFS_FT_REG && is_master(m) && pk->cand[m->ino] &&
		    m->size && m->size <= PACK_DEDUP_INMEM_MAX)
			n++;
	}
	if (!n || !(v = calloc(n, sizeof(*v))))
		return n ? pack_nomem(pk) : 0;
	n = 0;
	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *m = t->by_ino[i];

		if (m->type == AXFS_FT_REG && is_master(m) && pk->cand[m->ino] &&
		    m->size && m->size <= PACK_DEDUP_INMEM_MAX) {
			v[n].m = m;
			v[n].ranked = has_rank(m);
			any += v[n].ranked;
			n++;
		}
	}
	if (!any)
		goto out;
	qsort(v, n, sizeof(*v), by_size_key);
	/* keys only within sizes that have a ranked file */
	for (size_t a = 0, b; a < n && rc == 0; a = b) {
		int ranked = 0;

		for (b = a; b < n && v[b].m->size == v[a].m->size; b++)
			ranked |= v[b].ranked;
		for (size_t i = a; ranked && b - a > 1 && i < b && rc == 0; i++)
			rc = file_key(pk, v[i].m, &v[i].key);
	}
	if (rc < 0)
		goto out;
	qsort(v, n, sizeof(*v), by_size_key);
	for (size_t a = 0, b; a < n; a = b) {
		int ranked = 0;

		for (b = a; b < n && v[b].m->size == v[a].m->size &&
			    v[b].key == v[a].key; b++)
			ranked |= v[b].ranked;
		if (ranked && b - a > 1 && merge_ranks(v, a, b) < 0) {
			rc = pack_nomem(pk);
			break;
		}
	}
out:
	free(v);
	return rc;
}

int pack_order_cblock_add(struct packer *pk, uint64_t node, const void *data,
			  size_t len, struct tree_entry *e, uint64_t page)
{
	struct pack_hot *h;
	int rc;

	if (pk->hot_pass || !e || !e->pages || !e->pages[page].rank)
		return pack_cblock_add(pk, node, data, len, e, page);
	if (pack_grow((void **)&pk->hot, &pk->hot_cap, pk->nhot + 1,
		      sizeof(*pk->hot)) < 0)
		return pack_nomem(pk);
	h = &pk->hot[pk->nhot];
	h->rank = e->pages[page].rank;
	h->node = node;
	h->spool_off = pk->hot_file.size;
	h->e = e;
	h->page = page;
	h->len = (uint32_t)len;
	if ((rc = pack_spool_write(&pk->hot_spool, data, len, pk->err)) < 0)
		return rc;
	pk->nhot++;
	return 0;
}

static int read_at(struct packer *pk, int fd, void *buf, size_t n,
		   uint64_t off, const char *what)
{
	unsigned char *p = buf;

	while (n) {
		ssize_t k = pread(fd, p, n, (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return axfs_error_sys(pk->err, k < 0 ? errno : EIO,
					      "cannot read back the temporary "
					      "file of the %s region", what);
		p += k;
		n -= (size_t)k;
		off += (uint64_t)k;
	}
	return 0;
}

/* Appends bytes [from, to) of the spool file `fd` to w. */
static int copy_range(struct packer *pk, int fd, uint64_t from, uint64_t to,
		      struct pack_spool *w)
{
	int rc;

	while (from < to) {
		size_t k = to - from < PACK_READ_CHUNK ? (size_t)(to - from) :
							  PACK_READ_CHUNK;

		if ((rc = read_at(pk, fd, pk->rbuf, k, from, "compressed")) < 0 ||
		    (rc = pack_spool_write(w, pk->rbuf, k, pk->err)) < 0)
			return rc;
		from += k;
	}
	return 0;
}

/*
 * Cblocks [cold, n) (the hot ones) move in front of [0, cold): the
 * compressed spool is copied in the new order into a new spool, cblock
 * offsets recomputed and every cnode's cblock number renumbered.
 */
static int rotate(struct packer *pk, uint64_t cold)
{
	struct pack_result *out = pk->out;
	uint64_t n = out->ncblocks, hot = n - cold;
	uint64_t *off = out->cblock_offset, *noff;
	struct pack_spool_file nf;
	struct pack_spool w;
	int rc;

	noff = malloc(((size_t)n + 1) * sizeof(*noff));
	if (!noff)
		return pack_nomem(pk);
	pack_spool_init(&w, &nf, pk->o->tmpdir, "compressed",
			PACK_HOT_SPOOL_BUF);
	rc = copy_range(pk, out->compressed.fd, off[cold], off[n], &w);
	if (rc == 0)
		rc = copy_range(pk, out->compressed.fd, 0, off[cold], &w);
	if (rc == 0)
		rc = pack_spool_flush(&w, pk->err);
	pack_spool_release(&w);
	if (rc < 0) {
		if (nf.fd >= 0)
			close(nf.fd);
		free(noff);
		return rc;
	}
	noff[0] = 0;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t old = k < hot ? cold + k : k - hot;

		noff[k + 1] = noff[k] + (off[old + 1] - off[old]);
	}
	memcpy(off, noff, ((size_t)n + 1) * sizeof(*off));
	free(noff);
	for (uint64_t cn = 0; cn < out->ncnodes; cn++) {
		uint64_t c = out->cnode_index[cn];

		out->cnode_index[cn] = c < cold ? c + hot : c - cold;
	}
	close(out->compressed.fd);
	out->compressed = nf;
	return 0;
}

int pack_order_finish(struct packer *pk)
{
	struct pack_result *out = pk->out;
	uint64_t cold = out->ncblocks;
	size_t per = pk->cblock_size / AXFS_PAGE_SIZE;	/* pages a cblock holds */
	int rc;

	if (!pk->nhot)
		return 0;
	if ((rc = pack_spool_flush(&pk->hot_spool, pk->err)) < 0)
		return rc;
	qsort(pk->hot, pk->nhot, sizeof(*pk->hot), by_rank);
	pk->hot_pass = 1;
	for (size_t g = 0; g < pk->nhot; g += per) {
		size_t end = g + per < pk->nhot ? g + per : pk->nhot;

		/* The next cblock's worth in rank order, stored in node order
		 * (file by file, page by page): which pages share a cblock is
		 * what the boot pays for, not their order inside it, and
		 * neighbours of one file deflate better together. */
		if ((rc = pack_check_cancel(pk)) < 0)
			return rc;
		qsort(pk->hot + g, end - g, sizeof(*pk->hot), by_node);
		for (size_t i = g; i < end; i++) {
			const struct pack_hot *h = &pk->hot[i];

			if ((rc = read_at(pk, pk->hot_file.fd, pk->rbuf, h->len,
					  h->spool_off, "boot-order")) < 0 ||
			    (rc = pack_cblock_add(pk, h->node, pk->rbuf,
						  h->len, h->e, h->page)) < 0)
				return rc;
		}
		if ((rc = pack_cblock_close(pk)) < 0)
			return rc;
	}
	if ((rc = pack_jobs_finish(pk)) < 0)
		return rc;
	for (size_t i = 0; i < pk->nhot; i++)
		out->ordered_pages +=
			pack_node_type(out, pk->hot[i].node) ==
			AXFS_NODE_COMPRESSED;
	out->ordered_cblocks = out->ncblocks - cold;
	if (cold && out->ordered_cblocks)
		return rotate(pk, cold);
	return 0;
}
