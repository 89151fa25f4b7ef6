// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pack_dedup.c - data the packer stores once (see pack/internal.h for the
 * packer's other files).  It finds and compares (reading through
 * pack_read.c) and stores a shared page (pack_jobs.c); pack_data.c calls
 * it for a file's twin and a page's, packer.c for symlinks.
 *
 * Identical regular files (same size, same XIP plan and compress setting,
 * same bytes: a 64-bit crc32+adler32 key then a byte-by-byte comparison,
 * re-reading the earlier file) share nodes (TREE_WHY_DEDUP,
 * out->dedup_files).  Only files whose size occurs more than once are
 * candidates, so unique files are never hashed.  Symlinks with the same
 * target share their node.  Full pages bound for a cblock that equal an
 * earlier one share its cnode (out->dedup_pages); all-zero pages share
 * the first one stored without a hash, a lookup or a re-read, and a run
 * of hole pages (never read: pack_data.c) shares it in one step
 * (pack_dedup_zero_run).  Keys and comparisons of identical files step
 * over holes unread.
 *
 * Memory: 40 bytes per dedup candidate, 48 bytes per full page stored in
 * a cblock, a 256 KiB compare buffer and up to 1 MiB for a small
 * candidate; a run of shared pages (a hole of any length is one run) is
 * one run of the node tables (pack_nodes.c).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- keys and tables ---------------------------------------------------- */

uint64_t pack_dedup_key_update(uint64_t key, const unsigned char *p,
			       size_t n)
{
	uint32_t crc = (uint32_t)(key >> 32), ad = (uint32_t)key;

	crc = (uint32_t)crc32_z(crc, p, n);
	ad = (uint32_t)adler32_z(ad, p, n);
	return ((uint64_t)crc << 32) | ad;
}

/*
 * The key after n more zero bytes (a hole), without reading or hashing
 * them: the same key as pack_dedup_key_update() over n zeros, in O(log n).  zlib's
 * combine functions append a block given its own checksum; the CRC-32 of
 * 2^j pages of zeros doubles from one page, the Adler-32 of n zeros is
 * a = 1, b = n (mod 65521).
 */
uint64_t pack_dedup_key_zeros(uint64_t key, uint64_t n)
{
	static const unsigned char zero[AXFS_PAGE_SIZE];
	uint32_t crc = (uint32_t)(key >> 32), ad = (uint32_t)key;
	uint64_t rem = n % AXFS_PAGE_SIZE, pages = n / AXFS_PAGE_SIZE;
	uLong zc = crc32_z(0, zero, (size_t)rem), pc = crc32_z(0, zero,
							       AXFS_PAGE_SIZE);
	uint64_t plen = AXFS_PAGE_SIZE;

	while (pages) {
		if (pages & 1)
			zc = crc32_combine(zc, pc, (z_off_t)plen);
		pages >>= 1;
		if (pages) {
			pc = crc32_combine(pc, pc, (z_off_t)plen);
			plen *= 2;
		}
	}
	crc = (uint32_t)crc32_combine(crc, zc, (z_off_t)n);
	ad = (uint32_t)adler32_combine(ad, ((n % 65521u) << 16) | 1,
				       (z_off_t)n);
	return ((uint64_t)crc << 32) | ad;
}

uint64_t pack_dedup_key_init(void)
{
	return ((uint64_t)crc32_z(0, NULL, 0) << 32) |
	       (uint32_t)adler32_z(0, NULL, 0);
}

static size_t dd_slot(const struct dd_table *d, uint64_t key)
{
	return (size_t)((key * 0xff51afd7ed558ccdull) >> 17) &
	       (d->nbucket - 1);
}

/* The chain that holds `key`, if any: index + 1 into v, 0 ends; follow
 * ->next, and compare ->key (a chain holds other keys too). */
static size_t dd_first(const struct dd_table *d, uint64_t key)
{
	return d->nbucket ? d->bucket[dd_slot(d, key)] : 0;
}

static int dd_add(struct dd_table *d, uint64_t key, uint64_t aux,
		  struct tree_entry *e)
{
	size_t s;

	if (d->n + 1 > d->nbucket / 2) {
		size_t nb = d->nbucket ? d->nbucket * 2 : 1024;
		size_t *b = calloc(nb, sizeof(*b));

		if (!b)
			return -1;
		free(d->bucket);
		d->bucket = b;
		d->nbucket = nb;
		for (size_t i = 0; i < d->n; i++) {
			s = dd_slot(d, d->v[i].key);
			d->v[i].next = b[s];
			b[s] = i + 1;
		}
	}
	if (pack_grow((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v)) < 0)
		return -1;
	s = dd_slot(d, key);
	d->v[d->n].key = key;
	d->v[d->n].aux = aux;
	d->v[d->n].e = e;
	d->v[d->n].next = d->bucket[s];
	d->bucket[s] = d->n + 1;
	d->n++;
	return 0;
}

static void dd_free(struct dd_table *d)
{
	free(d->v);
	free(d->bucket);
	memset(d, 0, sizeof(*d));
}

/* ---- identical pages ------------------------------------------------------ */

/*
 * A full page bound for a cblock that equals a page already stored in a
 * cblock, of this file or another (identical files already share all
 * their nodes, see pack_file_dedup() in pack_data.c), is not stored again:
 * its node takes the earlier node's slot (pack_nodes.c), so its type and
 * index are the earlier one's once that is committed.  The driver reads a node through its own
 * node_type and node_index entries, so two nodes may name one cnode.  On
 * a 259 MiB Debian tree 2.9 % of the full pages repeat another
 * (bench/RESULTS.md).  A key finds candidates (pk->pages, aux: the page
 * number in its file); the earlier page is read again through the source
 * and compared byte by byte, so colliding keys, by chance or crafted,
 * never share.  A page that cannot be read again (the file changed, a
 * read error) is simply stored.
 */

/*
 * Two 64-bit multiply-xorshift lanes over the page's 8-byte words: about
 * ten times faster than pack_dedup_key_update() (crc32 + adler32), which matters
 * because every compressed full page of the tree goes through it on the
 * reading thread.  Words are read in host order: the key never reaches
 * the image, and which pages share depends only on their bytes.
 */
static uint64_t page_key(const unsigned char *page)
{
	uint64_t a = 0x9e3779b97f4a7c15u, b = 0xc2b2ae3d27d4eb4fu;

	for (size_t i = 0; i < AXFS_PAGE_SIZE; i += 16) {
		uint64_t x, y;

		memcpy(&x, page + i, sizeof(x));
		memcpy(&y, page + i + 8, sizeof(y));
		a = (a ^ x) * 0xff51afd7ed558ccdu;
		a ^= a >> 32;
		b = (b ^ y) * 0xc4ceb9fe1a85ec53u;
		b ^= b >> 29;
	}
	a ^= b * 0x9e3779b97f4a7c15u;
	return a ^ (a >> 31);
}

static int same_page(struct packer *pk, const struct dd_ent *c,
		     const unsigned char *d)
{
	struct axfs_error ignored;	/* a failed re-read only means "store" */
	void *h = NULL;
	size_t got = 0;
	int rc;

	if (pk->src->ops->data_open(pk->src, &c->e->data, &h, &ignored) < 0)
		return 0;
	rc = pk->src->ops->data_pread(pk->src, h, pk->pbuf, AXFS_PAGE_SIZE,
				      c->aux * AXFS_PAGE_SIZE, &got, &ignored);
	pack_data_close(pk, h);
	return rc == 0 && got == AXFS_PAGE_SIZE &&
	       !memcmp(pk->pbuf, d, AXFS_PAGE_SIZE);
}

/*
 * n nodes from `node` that share master's place.  A run that continues
 * the last one (the pages of a hole) extends it (pack_node_share): the
 * node tables grow with the runs, not the pages.  No reason is recorded per page (that would cost
 * 16 bytes a page): the report calls "dedup" a page whose node shares its
 * place with an earlier node (report.c).
 */
static int share_pages(struct packer *pk, uint64_t node, uint64_t master,
		       uint64_t n)
{
	pk->out->dedup_pages += n;
	return pack_node_share(pk, node, master, n);
}

static int page_is_zero(const unsigned char *d)
{
	static const unsigned char zero[AXFS_PAGE_SIZE];

	return !memcmp(d, zero, AXFS_PAGE_SIZE);
}

int pack_dedup_page(struct packer *pk, struct tree_entry *m,
		    uint64_t page, uint64_t node,
		    const unsigned char *d)
{
	const struct dd_table *t = &pk->pages;
	int zero = page_is_zero(d);
	uint64_t key;
	int rc;

	/* The stored zero page is zeros whatever its file holds now: no
	 * need to read it again to compare. */
	if (zero && pk->zero_node)
		return share_pages(pk, node, pk->zero_node - 1, 1);
	key = page_key(d);

	for (size_t i = dd_first(t, key); i; i = t->v[i - 1].next) {
		const struct dd_ent *c = &t->v[i - 1];

		if (c->key != key || !same_page(pk, c, d))
			continue;
		if (zero)
			pk->zero_node = c->e->first_node + c->aux + 1;
		return share_pages(pk, node, c->e->first_node + c->aux, 1);
	}
	if (dd_add(&pk->pages, key, page, m) < 0)
		return pack_nomem(pk);
	if (zero)
		pk->zero_node = node + 1;
	if ((rc = pack_node_own(pk, node)) < 0)
		return rc;
	return pack_order_cblock_add(pk, node, d, AXFS_PAGE_SIZE, m, page);
}

/*
 * n full zero pages of m from `page` (a hole, never read): the first zero
 * page stored takes them all, one run, whatever n is.  The first zero
 * page of the build is stored here if none was, exactly as if it had
 * been read, so an image is the same whether its holes were read or not.
 */
int pack_dedup_zero_run(struct packer *pk, struct tree_entry *m,
			uint64_t page, uint64_t node, uint64_t n)
{
	static const unsigned char zero[AXFS_PAGE_SIZE];
	int rc;

	if (!n)
		return 0;
	if (!pk->zero_node) {
		if ((rc = pack_dedup_page(pk, m, page, node, zero)) < 0)
			return rc;
		node++;
		n--;
	}
	return n ? share_pages(pk, node, pk->zero_node - 1, n) : 0;
}

/* ---- identical files ------------------------------------------------------ */

/*
 * Compares the data of a (re-read through the source) with b: in memory
 * when bmem is given, else re-read too.  1 equal, 0 different, <0 error.
 */
static int same_bytes(struct packer *pk, struct tree_entry *a,
		      struct tree_entry *b, const unsigned char *bmem)
{
	void *ha = NULL, *hb = NULL;
	uint64_t pos = 0;
	int rc, same = 1;

	if ((rc = pack_data_open(pk, a, &ha)) < 0)
		return rc;
	if (!bmem && (rc = pack_data_open(pk, b, &hb)) < 0)
		goto out;
	while (pos < a->size && same) {
		uint64_t left = a->size - pos, hole_a = 0, hole_b = 0;
		uint64_t data_a = 0, data_b = 0;
		size_t want = left < PACK_READ_CHUNK ? (size_t)left :
						       PACK_READ_CHUNK;
		size_t ga, gb;

		/* Where both have a hole, both are zeros: skipped unread;
		 * elsewhere no further than the data either knows. */
		if (!bmem &&
		    ((rc = pack_hole_at(pk, ha, left, &hole_a, &data_a)) < 0 ||
		     (rc = pack_hole_at(pk, hb, left, &hole_b, &data_b)) < 0))
			goto out;
		if (hole_a && hole_b) {
			uint64_t both = hole_a < hole_b ? hole_a : hole_b;

			if ((rc = pack_skip(pk, ha, both)) < 0 ||
			    (rc = pack_skip(pk, hb, both)) < 0)
				goto out;
			pos += both;
			continue;
		}
		if (!hole_a && data_a && data_a < want)
			want = (size_t)data_a;
		if (!hole_b && data_b && data_b < want)
			want = (size_t)data_b;
		if ((rc = pack_check_cancel(pk)) < 0 ||
		    (rc = pack_read_full(pk, ha, pk->cbuf, want, &ga)) < 0)
			goto out;
		if (ga < want) {
			rc = pack_shrank(pk, a);
			goto out;
		}
		if (bmem) {
			same = !memcmp(pk->cbuf, bmem + pos, want);
		} else {
			if ((rc = pack_read_full(pk, hb, pk->rbuf, want, &gb)) < 0)
				goto out;
			if (gb < want) {
				rc = pack_shrank(pk, b);
				goto out;
			}
			same = !memcmp(pk->cbuf, pk->rbuf, want);
		}
		pos += want;
	}
	rc = same;
out:
	pack_data_close(pk, ha);
	pack_data_close(pk, hb);
	return rc;
}

/* An earlier file with the same bytes and plan, or NULL (rc < 0: error). */
struct tree_entry *pack_dedup_find_file(struct packer *pk,
					struct tree_entry *m,
					uint64_t key,
					const unsigned char *mem, int *rc)
{
	const struct dd_table *d = &pk->files;

	*rc = 0;
	for (size_t i = dd_first(d, key); i; i = d->v[i - 1].next) {
		const struct dd_ent *de = &d->v[i - 1];

		if (de->aux != m->size || de->key != key ||
		    !pack_same_plan(de->e, m))
			continue;
		*rc = same_bytes(pk, de->e, m, mem);
		if (*rc < 0)
			return NULL;
		if (*rc == 1) {
			*rc = 0;
			return de->e;
		}
	}
	return NULL;
}

/* m takes the nodes of its twin a. */
int pack_dedup_share_file(struct packer *pk, struct tree_entry *m,
			  const struct tree_entry *a)
{
	uint64_t n = npages_of(m);

	m->first_node = a->first_node;
	m->node_count = a->node_count;
	m->packed = 1;
	/* Without a plan no reason is recorded (that would cost a plan entry
	 * a page, holes included): the report calls "dedup" a node that
	 * shares an earlier node's place (report.c), as these all do. */
	for (uint64_t p = 0; m->pages && p < n; p++)
		if (!page_is_xip(m, p) &&
		    pack_refine_reason(pk, m, p, TREE_WHY_DEDUP) < 0)
			return pack_nomem(pk);
	pk->out->dedup_files++;
	pk->bytes_done += m->size;
	return 0;
}

/* Remembers m, stored, as the twin of later files with the same key. */
int pack_dedup_add_file(struct packer *pk, uint64_t key,
			struct tree_entry *m)
{
	if (dd_add(&pk->files, key, m->size, m) < 0)
		return pack_nomem(pk);
	return 0;
}

/* ---- symlinks ------------------------------------------------------------- */

static uint64_t link_key(const struct tree_entry *e)
{
	return pack_dedup_key_update(pack_dedup_key_init(),
				     (const unsigned char *)e->link_target,
				     (size_t)e->size);
}

/* An earlier symlink with the same target, or NULL. */
struct tree_entry *pack_dedup_find_link(struct packer *pk,
					const struct tree_entry *e)
{
	const struct dd_table *d = &pk->links;
	uint64_t key = link_key(e);

	for (size_t i = dd_first(d, key); i; i = d->v[i - 1].next) {
		const struct dd_ent *de = &d->v[i - 1];

		if (de->aux == e->size && de->key == key &&
		    !strcmp(de->e->link_target, e->link_target))
			return de->e;
	}
	return NULL;
}

int pack_dedup_add_link(struct packer *pk, struct tree_entry *e)
{
	if (dd_add(&pk->links, link_key(e), e->size, e) < 0)
		return pack_nomem(pk);
	return 0;
}

/* ---- setup and teardown --------------------------------------------------- */

struct size_ino {
	uint64_t size;
	uint64_t ino;
};

static int cmp_size_ino(const void *a, const void *b)
{
	const struct size_ino *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

/* The buffers, and the candidates: regular files (masters) whose size
 * another one has. */
int pack_dedup_start(struct packer *pk)
{
	struct tree *t = pk->t;
	struct size_ino *v;
	size_t n = 0;

	pk->cbuf = malloc(PACK_READ_CHUNK);
	pk->mbuf = malloc(PACK_DEDUP_INMEM_MAX);
	pk->pbuf = malloc(AXFS_PAGE_SIZE);
	pk->cand = calloc(t->count ? t->count : 1, 1);
	v = malloc((t->count ? t->count : 1) * sizeof(*v));
	if (!pk->cbuf || !pk->mbuf || !pk->pbuf || !pk->cand || !v) {
		free(v);
		return pack_nomem(pk);
	}
	pk->share_pages = pk->src->ops->data_pread != NULL;
	for (size_t i = 0; i < t->count; i++) {
		const struct tree_entry *e = t->by_ino[i];

		if (e->type != AXFS_FT_REG || !is_master(e) || !e->size)
			continue;
		v[n].size = e->size;
		v[n].ino = e->ino;
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_size_ino);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j].size == v[i].size; j++)
			;
		if (j - i > 1)
			for (size_t k = i; k < j; k++)
				pk->cand[v[k].ino] = 1;
	}
	free(v);
	return 0;
}

void pack_dedup_stop(struct packer *pk)
{
	free(pk->cbuf);
	free(pk->mbuf);
	free(pk->pbuf);
	free(pk->cand);
	dd_free(&pk->files);
	dd_free(&pk->links);
	dd_free(&pk->pages);
}
