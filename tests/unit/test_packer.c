// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The packer: every page stored where the node tables say, read back the
 * way the 2008 driver reads it (XIP: 4096 bytes of the XIP region;
 * byte-aligned: min(4096, size - offset); compressed: inflate the cblock
 * into a cblock_size buffer, copy from cnode_offset), plus the driver's
 * limits (compressed length <= cblock_size, a page inside its cblock),
 * XIP padding, shared cblocks for tails, incompressible data, symlink
 * NULs, hard links, identical files, determinism across -j, errors and
 * cancellation.  The data comes from a small in-memory source.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "packer.h"
#include "planner.h"
#include "tree.h"
#include "unit.h"
#include "axfs_format.h"

/* ---- an in-memory source ------------------------------------------------ */

#define MEM_FILES 64

struct memsrc {
	struct source base;
	unsigned char *data[MEM_FILES];
	size_t len[MEM_FILES];
	size_t nfiles;
	size_t short_by[MEM_FILES];	/* pretend the file shrank */
	/* What data_pread returns when set: the file changed after it was
	 * read (same length). */
	unsigned char *changed[MEM_FILES];
	unsigned int opens;
	/* data_hole: [hole_start, hole_end) of each file is a hole (its
	 * bytes in data[] are zeros); bytes handed out by data_read. */
	size_t hole_start[MEM_FILES], hole_end[MEM_FILES];
	uint64_t bytes_read;
};

struct memh {
	size_t idx, pos;
};

static int mem_open(struct source *s, const struct source_data_ref *ref,
		    void **h, struct axfs_error *err)
{
	struct memsrc *m = (struct memsrc *)s;
	struct memh *mh;

	if (ref->spool_offset >= m->nfiles)
		return axfs_error_set(err, AXFS_ERR_NOT_FOUND, "no such data");
	mh = calloc(1, sizeof(*mh));
	ck_assert_ptr_nonnull(mh);
	mh->idx = (size_t)ref->spool_offset;
	m->opens++;
	*h = mh;
	return 0;
}

/* Short reads on purpose (at most 3000 bytes) to test the read loops. */
static int mem_read(struct source *s, void *h, void *buf, size_t len,
		    size_t *got, struct axfs_error *err)
{
	struct memsrc *m = (struct memsrc *)s;
	struct memh *mh = h;
	size_t end = m->len[mh->idx] - m->short_by[mh->idx];
	size_t n = end - mh->pos;

	(void)err;
	if (n > len)
		n = len;
	if (n > 3000)
		n = 3000;
	memcpy(buf, m->data[mh->idx] + mh->pos, n);
	mh->pos += n;
	m->bytes_read += n;
	*got = n;
	return 0;
}

static int mem_hole(struct source *s, void *h, uint64_t *hole,
		    uint64_t *data, struct axfs_error *err)
{
	struct memsrc *m = (struct memsrc *)s;
	struct memh *mh = h;
	size_t hs = m->hole_start[mh->idx], he = m->hole_end[mh->idx];

	(void)err;
	*hole = 0;
	*data = 0;
	if (mh->pos >= hs && mh->pos < he)
		*hole = he - mh->pos;
	else if (mh->pos < hs)
		*data = hs - mh->pos;
	return 0;
}

static int mem_skip(struct source *s, void *h, uint64_t len,
		    struct axfs_error *err)
{
	struct memh *mh = h;

	(void)s;
	(void)err;
	mh->pos += (size_t)len;
	return 0;
}

static void mem_close(struct source *s, void *h)
{
	(void)s;
	free(h);
}

static int mem_pread(struct source *s, void *h, void *buf, size_t len,
		     uint64_t off, size_t *got, struct axfs_error *err)
{
	struct memsrc *m = (struct memsrc *)s;
	struct memh *mh = h;
	const unsigned char *d = m->changed[mh->idx] ? m->changed[mh->idx] :
						       m->data[mh->idx];

	(void)err;
	*got = 0;
	if (off >= m->len[mh->idx])
		return 0;
	if (len > m->len[mh->idx] - off)
		len = (size_t)(m->len[mh->idx] - off);
	memcpy(buf, d + off, len);
	*got = len;
	return 0;
}

/* Without data_pread: the packer cannot compare pages, shares none. */
static const struct source_ops mem_ops = {
	.data_open = mem_open,
	.data_read = mem_read,
	.data_close = mem_close,
};

static const struct source_ops mem_ops_pread = {
	.data_open = mem_open,
	.data_read = mem_read,
	.data_close = mem_close,
	.data_pread = mem_pread,
};

static const struct source_ops mem_ops_holes = {
	.data_open = mem_open,
	.data_read = mem_read,
	.data_close = mem_close,
	.data_pread = mem_pread,
	.data_hole = mem_hole,
	.data_skip = mem_skip,
};

struct fx {
	struct memsrc src;
	struct tree t;
	struct pack_result p;
};

static void fx_init(struct fx *f)
{
	struct axfs_error err;

	memset(f, 0, sizeof(*f));
	f->src.base.ops = &mem_ops;
	f->src.base.name = "memory";
	ck_assert_int_eq(tree_init(&f->t, NULL, &err), 0);
	f->p.xip.fd = f->p.byte_aligned.fd = f->p.compressed.fd = -1;
}

static void fx_free(struct fx *f)
{
	pack_free_packed(&f->p);
	tree_free(&f->t);
	for (size_t i = 0; i < f->src.nfiles; i++) {
		free(f->src.data[i]);
		free(f->src.changed[i]);
	}
}

static void add_entry(struct fx *f, const char *path, enum axfs_ftype type,
		      const char *target, const char *link_to,
		      const void *data, size_t len)
{
	struct source_entry e = unit_entry(
		path, type, type == AXFS_FT_DIR ? 0755 : 0644, 0, target,
		link_to);

	if (type == AXFS_FT_REG && !link_to) {
		size_t i = f->src.nfiles++;

		ck_assert_uint_lt(i, MEM_FILES);
		f->src.data[i] = malloc(len ? len : 1);
		memcpy(f->src.data[i], data, len);
		f->src.len[i] = len;
		e.data.spool_offset = i;
		e.data.size = len;
	}
	unit_tree_add(&f->t, &e);
}

static void add_file(struct fx *f, const char *path, const void *data,
		     size_t len)
{
	add_entry(f, path, AXFS_FT_REG, NULL, NULL, data, len);
}

static unsigned char *text(size_t len, unsigned int seed)
{
	unsigned char *b = malloc(len ? len : 1);
	static const char *words[] = { "alpha ", "beta ", "gamma ", "delta\n",
				       "axfs ", "page ", "node " };

	for (size_t i = 0; i < len;) {
		const char *w = words[(i / 7 + seed) % 7];

		for (size_t k = 0; w[k] && i < len; k++)
			b[i++] = (unsigned char)w[k];
	}
	return b;
}

static unsigned char *noise(size_t len, uint32_t seed)
{
	unsigned char *b = malloc(len ? len : 1);
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		b[i] = (unsigned char)(x >> 24);
	}
	return b;
}

static void finalize_plan(struct fx *f, const char *const *xip, size_t nxip)
{
	struct plan_opts o;
	struct plan_stats st;
	struct axfs_error err;

	ck_assert_msg(tree_finalize(&f->t, &err) == 0, "%s", err.msg);
	memset(&o, 0, sizeof(o));
	o.xip_globs = xip;
	o.n_xip_globs = nxip;
	ck_assert_msg(plan_tree(&f->t, &o, &st, &err) == 0, "%s", err.msg);
}

static int pack_with(struct fx *f, uint32_t cblock_size, int jobs,
		     enum axfs_compressor c, int level, struct axfs_error *err)
{
	struct pack_opts o;

	memset(&o, 0, sizeof(o));
	o.cblock_size = cblock_size;
	o.compressor = c;
	o.level = level;
	o.jobs = jobs;
	pack_free_packed(&f->p);
	return pack_tree(&f->t, &f->src.base, &o, &f->p, err);
}

static void pack_ok_with(struct fx *f, uint32_t cblock_size, int jobs,
			 enum axfs_compressor c, int level)
{
	struct axfs_error err;

	ck_assert_msg(pack_with(f, cblock_size, jobs, c, level, &err) == 0, "%s",
		      err.msg);
}

/* The default compressor (libdeflate) at level 9. */
static void pack_ok(struct fx *f, uint32_t cblock_size, int jobs)
{
	pack_ok_with(f, cblock_size, jobs, AXFS_COMPRESSOR_DEFAULT, 9);
}

/* ---- reading back as the driver does ---------------------------------- */

static unsigned char *spool_bytes(const struct pack_spool_file *s)
{
	unsigned char *b = malloc(s->size ? s->size : 1);

	if (s->size) {
		ck_assert_int_ge(s->fd, 0);
		ck_assert_int_eq(pread(s->fd, b, s->size, 0), (ssize_t)s->size);
	}
	return b;
}

/* The three data regions, read back once per check. */
struct view {
	const struct pack_result *p;
	unsigned char *x, *b, *c;
};

static void view_open(struct view *v, const struct pack_result *p)
{
	v->p = p;
	v->x = spool_bytes(&p->xip);
	v->b = spool_bytes(&p->byte_aligned);
	v->c = spool_bytes(&p->compressed);
}

static void view_close(struct view *v)
{
	free(v->x);
	free(v->b);
	free(v->c);
}

/* Node n's page as the driver's readpage fills it (4096 bytes). */
static void view_node(const struct view *v, uint64_t n,
		      unsigned char page[4096])
{
	const struct pack_result *p = v->p;
	uint64_t idx = pack_node_index(p, n);

	memset(page, 0, 4096);
	switch (pack_node_type(p, n)) {
	case AXFS_NODE_XIP:
		ck_assert_uint_lt(idx, p->xip_pages);
		ck_assert_uint_ge(p->xip.size, (idx + 1) * 4096);
		memcpy(page, v->x + idx * 4096, 4096);
		break;
	case AXFS_NODE_BYTE_ALIGNED: {
		uint64_t ofs, len;

		ck_assert_uint_lt(idx, p->nbanodes);
		ofs = p->banode_offset[idx];
		ck_assert_uint_le(ofs, p->byte_aligned.size);
		len = p->byte_aligned.size - ofs;
		memcpy(page, v->b + ofs, len > 4096 ? 4096 : len);
		break;
	}
	case AXFS_NODE_COMPRESSED: {
		unsigned char *buf = calloc(1, p->cblock_size);
		const unsigned char *c = v->c;
		uint64_t cb, off, len, cnoff;
		uLongf out = p->cblock_size;

		ck_assert_uint_lt(idx, p->ncnodes);
		cb = p->cnode_index[idx];
		cnoff = p->cnode_offset[idx];
		ck_assert_uint_lt(cb, p->ncblocks);
		off = p->cblock_offset[cb];
		len = p->cblock_offset[cb + 1] - off;
		/* axfs(5) rule 17: the driver copies the stream into a
		 * cblock_size buffer with no check */
		ck_assert_uint_le(len, p->cblock_size);
		ck_assert_int_eq(c[off] & 0x0f, 8);	/* zlib, deflate */
		ck_assert_uint_le(c[off] >> 4, 7);	/* window <= 15 */
		ck_assert_int_eq(uncompress(buf, &out, c + off, len), Z_OK);
		ck_assert_uint_le(cnoff, out);
		len = p->cblock_size - cnoff;
		memcpy(page, buf + cnoff, len > 4096 ? 4096 : len);
		free(buf);
		break;
	}
	default:
		ck_abort_msg("node %llu has type %u", (unsigned long long)n,
			     pack_node_type(p, n));
	}
}

static void read_node(const struct pack_result *p, uint64_t n,
		      unsigned char page[4096])
{
	struct view v;

	view_open(&v, p);
	view_node(&v, n, page);
	view_close(&v);
}

/* Every page of a file comes back; returns how many were of each type. */
static void check_file(struct fx *f, const char *path, const void *data,
		       size_t len, unsigned int counts[3])
{
	struct tree_entry *e = tree_lookup(&f->t, path);
	uint64_t n = (len + 4095) / 4096;
	unsigned char page[4096];
	struct view v;

	ck_assert_msg(e != NULL, "%s", path);
	ck_assert_int_eq(e->packed, 1);
	ck_assert_uint_eq(e->node_count, n);
	ck_assert_uint_le(e->first_node + n, f->p.nnodes);
	view_open(&v, &f->p);
	for (uint64_t i = 0; i < n; i++) {
		size_t k = len - i * 4096 > 4096 ? 4096 : len - i * 4096;
		uint8_t type = pack_node_type(&f->p, e->first_node + i);

		view_node(&v, e->first_node + i, page);
		ck_assert_msg(!memcmp(page, (const unsigned char *)data +
				      i * 4096, k),
			      "%s page %llu differs", path,
			      (unsigned long long)i);
		if (type == AXFS_NODE_XIP)	/* padded with zeros */
			for (size_t z = k; z < 4096; z++)
				ck_assert_int_eq(page[z], 0);
		if (counts)
			counts[type]++;
	}
	view_close(&v);
}

static void check_invariants(const struct pack_result *p)
{
	ck_assert_uint_eq(p->cblock_offset[0], 0);
	ck_assert_uint_eq(p->cblock_offset[p->ncblocks], p->compressed.size);
	for (uint64_t c = 0; c < p->ncblocks; c++)
		ck_assert_uint_le(p->cblock_offset[c + 1] - p->cblock_offset[c],
				  p->cblock_size);
	ck_assert_uint_eq(p->xip.size, p->xip_pages * 4096);
	for (uint64_t n = 0; n < p->nnodes; n++)
		ck_assert_uint_le(pack_node_type(p, n), 2);
}

/* ---- tests --------------------------------------------------------------- */

START_TEST(test_roundtrip_sizes)
{
	static const size_t sizes[] = { 1, 100, 4095, 4096, 4097, 8192,
					65535, 65536, 65537, 200000 };
	static const uint32_t cbss[] = { 4096, 16384, 65536, 1048576 };
	struct fx f;
	unsigned char *d[10];
	char name[32];

	for (size_t c = 0; c < sizeof(cbss) / sizeof(cbss[0]); c++) {
		fx_init(&f);
		for (size_t i = 0; i < 10; i++) {
			d[i] = i % 3 == 2 ? noise(sizes[i], (uint32_t)i) :
					    text(sizes[i], (unsigned)i);
			snprintf(name, sizeof(name), "f%zu", i);
			add_file(&f, name, d[i], sizes[i]);
		}
		finalize_plan(&f, NULL, 0);
		pack_ok(&f, cbss[c], 2);
		check_invariants(&f.p);
		ck_assert_uint_eq(f.p.cblock_size, cbss[c]);
		for (size_t i = 0; i < 10; i++) {
			snprintf(name, sizeof(name), "/f%zu", i);
			check_file(&f, name, d[i], sizes[i], NULL);
			free(d[i]);
		}
		ck_assert_uint_eq(f.p.xip_pages, 0);
		fx_free(&f);
	}
}
END_TEST

START_TEST(test_xip_padding)
{
	struct fx f;
	unsigned char *a = text(5000, 1), *b = text(3000, 2);
	const char *xip[] = { "/x*" };
	unsigned int counts[3] = { 0 };
	unsigned char *xs;

	fx_init(&f);
	add_file(&f, "xa", a, 5000);
	add_file(&f, "xb", b, 3000);
	add_file(&f, "plain", b, 3000);
	finalize_plan(&f, xip, 1);
	pack_ok(&f, 65536, 1);
	check_invariants(&f.p);
	check_file(&f, "/xa", a, 5000, counts);
	check_file(&f, "/xb", b, 3000, counts);
	ck_assert_uint_eq(counts[AXFS_NODE_XIP], 3);
	ck_assert_uint_eq(f.p.xip_pages, 3);
	ck_assert_uint_eq(f.p.xip.size, 3 * 4096);
	/* the partial pages are zero-padded in the XIP region itself */
	xs = spool_bytes(&f.p.xip);
	for (size_t i = 4096 + 904; i < 8192; i++)
		ck_assert_int_eq(xs[i], 0);
	for (size_t i = 8192 + 3000; i < 12288; i++)
		ck_assert_int_eq(xs[i], 0);
	free(xs);
	/* same bytes as /xb but not XIP: not shared with it */
	check_file(&f, "/plain", b, 3000, counts);
	ck_assert_uint_ne(tree_lookup(&f.t, "/plain")->first_node,
			  tree_lookup(&f.t, "/xb")->first_node);
	ck_assert_uint_eq(f.p.dedup_files, 0);
	free(a);
	free(b);
	fx_free(&f);
}
END_TEST

START_TEST(test_tails_share_cblocks)
{
	struct fx f;
	unsigned char *d[8];
	char name[16];
	uint64_t cb = UINT64_MAX;

	fx_init(&f);
	for (int i = 0; i < 8; i++) {
		d[i] = text(300 + (size_t)i * 211, (unsigned)i);
		snprintf(name, sizeof(name), "s%d", i);
		add_file(&f, name, d[i], 300 + (size_t)i * 211);
	}
	finalize_plan(&f, NULL, 0);
	pack_ok(&f, 65536, 2);
	check_invariants(&f.p);
	/* eight small files, one cblock, consecutive offsets */
	ck_assert_uint_eq(f.p.ncblocks, 1);
	for (int i = 0; i < 8; i++) {
		struct tree_entry *e;
		uint64_t cn;

		snprintf(name, sizeof(name), "/s%d", i);
		check_file(&f, name, d[i], 300 + (size_t)i * 211, NULL);
		e = tree_lookup(&f.t, name);
		ck_assert_int_eq(pack_node_type(&f.p, e->first_node),
				 AXFS_NODE_COMPRESSED);
		cn = pack_node_index(&f.p, e->first_node);
		if (cb == UINT64_MAX)
			cb = f.p.cnode_index[cn];
		ck_assert_uint_eq(f.p.cnode_index[cn], cb);
		free(d[i]);
	}
	fx_free(&f);
}
END_TEST

START_TEST(test_incompressible_byte_aligned)
{
	struct fx f;
	unsigned char *r = noise(3 * 65536, 7), *tx = text(10000, 3);
	unsigned int counts[3] = { 0 };
	struct tree_entry *e;

	fx_init(&f);
	add_file(&f, "r", r, 3 * 65536);
	add_file(&f, "t", tx, 10000);
	finalize_plan(&f, NULL, 0);
	pack_ok(&f, 65536, 2);
	check_invariants(&f.p);
	check_file(&f, "/r", r, 3 * 65536, counts);
	/* random data never shrinks: stored byte-aligned, with the reason */
	ck_assert_uint_eq(counts[AXFS_NODE_BYTE_ALIGNED], 48);
	/* r has no plan: the reasons are in the packer's list, not in a
	 * plan entry a page */
	e = tree_lookup(&f.t, "/r");
	ck_assert_ptr_null(e->pages);
	ck_assert_uint_eq(f.p.nreasons, 48);
	ck_assert_int_eq(pack_reason_of(&f.p, e->ino, 0),
			 TREE_WHY_INCOMPRESSIBLE);
	ck_assert_int_eq(pack_reason_of(&f.p, e->ino, 47),
			 TREE_WHY_INCOMPRESSIBLE);
	memset(counts, 0, sizeof(counts));
	check_file(&f, "/t", tx, 10000, counts);
	ck_assert_uint_eq(counts[AXFS_NODE_COMPRESSED], 3);
	ck_assert_uint_eq(f.p.byte_aligned.size, 3 * 65536);
	free(r);
	free(tx);
	fx_free(&f);
}
END_TEST

/* With 4 KiB cblocks a tail followed by a full page sits alone in its
 * cblock; ten random bytes do not shrink there: byte-aligned, "tail". */
START_TEST(test_lone_tail_byte_aligned)
{
	struct fx f;
	unsigned char *a = text(4096 + 10, 1), *r = noise(10, 3);
	unsigned char *b = text(8192, 2);
	unsigned int counts[3] = { 0 };
	struct tree_entry *e;

	memcpy(a + 4096, r, 10);
	fx_init(&f);
	add_file(&f, "a", a, 4096 + 10);
	add_file(&f, "b", b, 8192);
	finalize_plan(&f, NULL, 0);
	pack_ok(&f, 4096, 2);
	check_invariants(&f.p);
	check_file(&f, "/a", a, 4096 + 10, counts);
	ck_assert_uint_eq(counts[AXFS_NODE_COMPRESSED], 1);
	ck_assert_uint_eq(counts[AXFS_NODE_BYTE_ALIGNED], 1);
	e = tree_lookup(&f.t, "/a");
	ck_assert_ptr_null(e->pages);
	ck_assert_int_eq(pack_reason_of(&f.p, e->ino, 1), TREE_WHY_TAIL);
	ck_assert_int_eq(pack_reason_of(&f.p, e->ino, 0), TREE_WHY_DEFAULT);
	ck_assert_uint_eq(f.p.byte_aligned.size, 10);
	check_file(&f, "/b", b, 8192, NULL);
	free(a);
	free(b);
	free(r);
	fx_free(&f);
}
END_TEST

START_TEST(test_uncompressed_by_policy)
{
	struct fx f;
	unsigned char *tx = text(9000, 4);
	unsigned int counts[3] = { 0 };
	struct tree_entry *e;

	fx_init(&f);
	add_file(&f, "u", tx, 9000);
	finalize_plan(&f, NULL, 0);
	e = tree_lookup(&f.t, "/u");
	e->want_compress = 0;
	pack_ok(&f, 16384, 1);
	check_invariants(&f.p);
	check_file(&f, "/u", tx, 9000, counts);
	ck_assert_uint_eq(counts[AXFS_NODE_BYTE_ALIGNED], 3);
	ck_assert_int_eq(pack_reason_of(&f.p, e->ino, 2),
			 TREE_WHY_UNCOMPRESSED);
	ck_assert_uint_eq(f.p.ncblocks, 0);
	free(tx);
	fx_free(&f);
}
END_TEST

START_TEST(test_symlink_nul)
{
	struct fx f;
	struct tree_entry *a, *b, *c;
	unsigned char page[4096];
	char longt[4096];

	memset(longt, 'q', 4095);
	longt[4095] = '\0';
	fx_init(&f);
	add_file(&f, "file", "hello", 5);
	add_entry(&f, "la", AXFS_FT_LNK, "file", NULL, NULL, 0);
	add_entry(&f, "lb", AXFS_FT_LNK, "file", NULL, NULL, 0);
	add_entry(&f, "lc", AXFS_FT_LNK, longt, NULL, NULL, 0);
	finalize_plan(&f, NULL, 0);
	/* one cblock: /la's bytes are followed by /lc's inside it */
	pack_ok(&f, 65536, 2);
	check_invariants(&f.p);
	ck_assert_uint_eq(f.p.ncblocks, 1);
	a = tree_lookup(&f.t, "/la");
	b = tree_lookup(&f.t, "/lb");
	c = tree_lookup(&f.t, "/lc");
	ck_assert_uint_eq(a->node_count, 1);
	read_node(&f.p, a->first_node, page);
	/* target then NUL inside the node data (not just the zero fill) */
	ck_assert_int_eq(memcmp(page, "file", 5), 0);
	/* same target: one node */
	ck_assert_uint_eq(b->first_node, a->first_node);
	/* 4095 bytes + NUL fill a whole page */
	read_node(&f.p, c->first_node, page);
	ck_assert_int_eq(memcmp(page, longt, 4095), 0);
	ck_assert_int_eq(page[4095], 0);
	ck_assert_int_ne(pack_node_type(&f.p, c->first_node), AXFS_NODE_XIP);
	fx_free(&f);
}
END_TEST

START_TEST(test_hard_links_share)
{
	struct fx f;
	unsigned char *tx = text(20000, 5);
	struct tree_entry *a, *h;
	const char *xip[] = { "/z" };
	uint64_t nodes;

	fx_init(&f);
	add_file(&f, "a", tx, 20000);
	add_entry(&f, "d", AXFS_FT_DIR, NULL, NULL, NULL, 0);
	add_entry(&f, "d/h", AXFS_FT_REG, NULL, "a", NULL, 0);
	add_entry(&f, "z", AXFS_FT_REG, NULL, "a", NULL, 0);
	finalize_plan(&f, xip, 1);
	pack_ok(&f, 65536, 2);
	check_invariants(&f.p);
	a = tree_lookup(&f.t, "/a");
	h = tree_lookup(&f.t, "/d/h");
	ck_assert_uint_eq(h->first_node, a->first_node);
	ck_assert_uint_eq(h->node_count, a->node_count);
	nodes = f.p.nnodes;
	ck_assert_uint_eq(nodes, 5);	/* one copy */
	/* --xip on one name makes the shared data XIP */
	check_file(&f, "/d/h", tx, 20000, NULL);
	ck_assert_uint_eq(f.p.xip_pages, 5);
	ck_assert_uint_eq(f.src.opens, 1);	/* read once */
	ck_assert_uint_eq(f.p.dedup_files, 0);
	free(tx);
	fx_free(&f);
}
END_TEST

/* The group's master has a higher inode than a member: the data is
 * stored when the first name is reached, once. */
START_TEST(test_hard_link_master_later)
{
	struct fx f;
	unsigned char *tx = text(9000, 2);
	struct tree_entry *a, *z;

	fx_init(&f);
	add_file(&f, "z", tx, 9000);
	add_entry(&f, "a", AXFS_FT_REG, NULL, "z", NULL, 0);
	add_file(&f, "m", tx, 100);
	finalize_plan(&f, NULL, 0);
	a = tree_lookup(&f.t, "/a");
	z = tree_lookup(&f.t, "/z");
	ck_assert_ptr_eq(a->link_master, z);
	ck_assert_uint_lt(a->ino, z->ino);
	pack_ok(&f, 4096, 2);
	check_invariants(&f.p);
	check_file(&f, "/a", tx, 9000, NULL);
	check_file(&f, "/z", tx, 9000, NULL);
	check_file(&f, "/m", tx, 100, NULL);
	ck_assert_uint_eq(a->first_node, 0);	/* stored at /a's place */
	ck_assert_uint_eq(z->first_node, 0);
	ck_assert_uint_eq(f.p.nnodes, 4);
	free(tx);
	fx_free(&f);
}
END_TEST

START_TEST(test_identical_files_dedup)
{
	struct fx f;
	size_t big = 1024 * 1024 + 5000;	/* beyond the in-memory limit */
	unsigned char *t1 = text(30000, 6), *t2 = text(30000, 6);
	unsigned char *t3 = text(30000, 1);	/* same size, other bytes */
	unsigned char *b1 = noise(big, 9), *b2 = noise(big, 9);
	struct tree_entry *e1, *e2, *e3;

	t3[29999] ^= 1;
	fx_init(&f);
	add_file(&f, "t1", t1, 30000);
	add_file(&f, "t2", t2, 30000);
	add_file(&f, "t3", t3, 30000);
	add_file(&f, "b1", b1, big);
	add_file(&f, "b2", b2, big);
	add_file(&f, "e1", "", 0);
	add_file(&f, "e2", "", 0);
	finalize_plan(&f, NULL, 0);
	pack_ok(&f, 65536, 2);
	check_invariants(&f.p);
	check_file(&f, "/t1", t1, 30000, NULL);
	check_file(&f, "/t2", t2, 30000, NULL);
	check_file(&f, "/t3", t3, 30000, NULL);
	check_file(&f, "/b2", b2, big, NULL);
	e1 = tree_lookup(&f.t, "/t1");
	e2 = tree_lookup(&f.t, "/t2");
	e3 = tree_lookup(&f.t, "/t3");
	ck_assert_uint_eq(e2->first_node, e1->first_node);
	ck_assert_uint_ne(e3->first_node, e1->first_node);
	/* t2 has no plan: no reason is kept per page (a plan entry a page,
	 * holes included), the report derives "dedup" from the shared
	 * nodes. */
	ck_assert_ptr_null(e2->pages);
	ck_assert_uint_eq(tree_lookup(&f.t, "/b2")->first_node,
			  tree_lookup(&f.t, "/b1")->first_node);
	ck_assert_uint_eq(f.p.dedup_files, 2);
	ck_assert_uint_eq(tree_lookup(&f.t, "/e1")->node_count, 0);
	/* t1, t3 and b1 stored; t2 and b2 share */
	ck_assert_uint_eq(f.p.nnodes, 8 + 8 + (big + 4095) / 4096);
	free(t1);
	free(t2);
	free(t3);
	free(b1);
	free(b2);
	fx_free(&f);
}
END_TEST

/* Identical full pages share a node's place; tails do not; a page whose
 * twin reads back different (the file changed) is stored. */
START_TEST(test_identical_pages_shared)
{
	unsigned char *n = noise(5 * 4096, 21), *t = text(4096, 3);
	unsigned char a[3 * 4096 + 10], b[3 * 4096 + 10];
	struct tree_entry *ea, *eb;
	struct fx f;

	memcpy(a, n, 3 * 4096);			/* n0 n1 n2 tail */
	memcpy(a + 3 * 4096, n + 4 * 4096, 10);
	memcpy(b, n + 4096, 4096);		/* n1 t n0 tail */
	memcpy(b + 4096, t, 4096);
	memcpy(b + 2 * 4096, n, 4096);
	memcpy(b + 3 * 4096, n + 4 * 4096, 10);
	for (int round = 0; round < 3; round++) {
		fx_init(&f);
		if (round != 2)
			f.src.base.ops = &mem_ops_pread;
		add_file(&f, "a", a, sizeof(a));
		add_file(&f, "b", b, sizeof(b));
		if (round == 1) {
			f.src.changed[0] = malloc(sizeof(a));
			memcpy(f.src.changed[0], a, sizeof(a));
			f.src.changed[0][4096 + 7] ^= 0x40;
		}
		finalize_plan(&f, NULL, 0);
		pack_ok(&f, 4096, 2);
		check_invariants(&f.p);
		check_file(&f, "/a", a, sizeof(a), NULL);
		check_file(&f, "/b", b, sizeof(b), NULL);
		ea = tree_lookup(&f.t, "/a");
		eb = tree_lookup(&f.t, "/b");
		if (round == 0) {
			ck_assert_uint_eq(f.p.dedup_pages, 2);
			ck_assert_uint_eq(pack_node_index(&f.p, eb->first_node),
					  pack_node_index(&f.p, ea->first_node + 1));
			ck_assert_uint_eq(pack_node_index(&f.p, eb->first_node + 2),
					  pack_node_index(&f.p, ea->first_node));
			/* No reason is kept per shared page (16 bytes a page
			 * for a hole): the report derives "dedup". */
			ck_assert(!eb->pages ||
				  eb->pages[0].reason == TREE_WHY_DEFAULT);
			/* the tails are equal too, but tails are never shared */
			ck_assert(pack_node_type(&f.p, eb->first_node + 3) !=
				  pack_node_type(&f.p, ea->first_node + 3) ||
				  pack_node_index(&f.p, eb->first_node + 3) !=
				  pack_node_index(&f.p, ea->first_node + 3));
		} else {
			/* round 1: a's page 1 reads back changed, so b's
			 * page 0 is stored; its page 2 (a's page 0) still
			 * shares.  round 2: no data_pread, nothing shared. */
			ck_assert_uint_eq(f.p.dedup_pages, round == 1 ? 1 : 0);
			ck_assert_uint_ne(pack_node_index(&f.p, eb->first_node),
					  pack_node_index(&f.p, ea->first_node + 1));
		}
		fx_free(&f);
	}
	free(n);
	free(t);
}
END_TEST

/*
 * Holes: their pages are never read; those bound for a cblock all take
 * the first zero page, in one run; an XIP hole page is stored (zeros);
 * the same bytes without holes give the same node tables and spools; a
 * twin of the same size is found with the hole stepped over.
 */
START_TEST(test_holes_not_read)
{
	/* Over 1 MiB, so that a and b, candidates for sharing (same size),
	 * are streamed, not read whole into memory. */
	const size_t np = 400, len = np * 4096 + 100;
	const size_t hs = 3 * 4096 + 5, he = 350 * 4096 + 7;
	unsigned char *d = calloc(1, len), *t = noise(len, 5);
	static const char *const xip[] = { "/x" };
	struct fx f, g;

	memcpy(d, t, hs);			/* data, hole, data */
	memcpy(d + he, t + he, len - he);
	for (int round = 0; round < 2; round++) {
		struct tree_entry *a, *b, *x;
		uint64_t zero;

		fx_init(&f);
		f.src.base.ops = round ? &mem_ops_pread : &mem_ops_holes;
		add_file(&f, "a", d, len);
		add_file(&f, "b", d, len);	/* a's twin: shares its nodes */
		add_file(&f, "x", d, 8 * 4096);	/* XIP, hole from page 3 */
		for (size_t i = 0; i < 3; i++) {
			f.src.hole_start[i] = hs;
			f.src.hole_end[i] = i == 2 ? 8 * 4096 : he;
		}
		finalize_plan(&f, xip, 1);
		pack_ok(&f, 65536, 2);
		check_invariants(&f.p);
		check_file(&f, "/a", d, len, NULL);
		check_file(&f, "/b", d, len, NULL);
		check_file(&f, "/x", d, 8 * 4096, NULL);
		a = tree_lookup(&f.t, "/a");
		b = tree_lookup(&f.t, "/b");
		x = tree_lookup(&f.t, "/x");
		ck_assert_uint_eq(b->first_node, a->first_node);
		ck_assert_uint_eq(f.p.dedup_files, 1);
		/* Pages 4 to 349 of a are the hole's whole pages: one zero
		 * page (page 4, stored) and 345 that share it. */
		zero = a->first_node + 4;
		for (size_t p = 4; p < 350; p++) {
			ck_assert_uint_eq(pack_node_type(&f.p, a->first_node + p),
					  pack_node_type(&f.p, zero));
			ck_assert_uint_eq(pack_node_index(&f.p, a->first_node + p),
					  pack_node_index(&f.p, zero));
		}
		ck_assert_uint_eq(f.p.dedup_pages, 345);
		ck_assert_uint_eq(pack_node_type(&f.p, x->first_node + 7),
				  AXFS_NODE_XIP);
		if (round == 0) {
			/* a's data for its key and to store it, b's for its
			 * key and both for the comparison, x's data: all
			 * together less than one file, holes never read. */
			ck_assert_uint_lt(f.src.bytes_read, len);
		} else {
			/* Without data_hole every byte is read, and the
			 * image is the same. */
			ck_assert_uint_ge(f.src.bytes_read, 3 * len);
		}
		if (round == 0) {
			g = f;			/* kept for the comparison */
			continue;
		}
		ck_assert_uint_eq(f.p.nnodes, g.p.nnodes);
		for (uint64_t n = 0; n < f.p.nnodes; n++) {
			ck_assert_uint_eq(pack_node_type(&f.p, n),
					  pack_node_type(&g.p, n));
			ck_assert_uint_eq(pack_node_index(&f.p, n),
					  pack_node_index(&g.p, n));
		}
		ck_assert_uint_eq(f.p.compressed.size, g.p.compressed.size);
		ck_assert_uint_eq(f.p.xip.size, g.p.xip.size);
		fx_free(&f);
		fx_free(&g);
	}
	free(d);
	free(t);
}
END_TEST

/* The same tree packed with 1, 2 and 8 threads: identical bytes. */
/* The spools of one compressor and level are the same for every -j, and
 * every file reads back (zlib inflates each cblock); returns the
 * compressed spool (its size in *csize). */
static unsigned char *deterministic(enum axfs_compressor c, int level,
				    uint64_t *csize)
{
	static const int jobs[] = { 1, 2, 8 };
	struct fx f;
	unsigned char *ref[3] = { NULL }, *cur[3];
	uint64_t refsz[3];
	unsigned char *d[12];
	char name[16];
	uint8_t *rtype = NULL;
	uint64_t *ridx = NULL, rn = 0;

	fx_init(&f);
	for (int i = 0; i < 12; i++) {
		size_t len = 3000 + (size_t)i * 37000;

		d[i] = i % 4 == 3 ? noise(len, (uint32_t)i) :
				    text(len, (unsigned)i);
		snprintf(name, sizeof(name), "f%02d", i);
		add_file(&f, name, d[i], len);
	}
	finalize_plan(&f, NULL, 0);
	for (size_t j = 0; j < 3; j++) {
		const struct pack_spool_file *sp[3];

		pack_ok_with(&f, 16384, jobs[j], c, level);
		check_invariants(&f.p);
		for (int i = 0; i < 12; i++) {
			snprintf(name, sizeof(name), "/f%02d", i);
			check_file(&f, name, d[i], 3000 + (size_t)i * 37000,
				   NULL);
		}
		sp[0] = &f.p.xip;
		sp[1] = &f.p.byte_aligned;
		sp[2] = &f.p.compressed;
		for (int s = 0; s < 3; s++) {
			cur[s] = spool_bytes(sp[s]);
			if (!j) {
				ref[s] = cur[s];
				refsz[s] = sp[s]->size;
				continue;
			}
			ck_assert_uint_eq(sp[s]->size, refsz[s]);
			ck_assert_int_eq(memcmp(cur[s], ref[s], refsz[s]), 0);
			free(cur[s]);
		}
		if (!j) {
			rn = f.p.nnodes;
			rtype = malloc(rn);
			ridx = malloc(rn * sizeof(*ridx));
			for (uint64_t n = 0; n < rn; n++) {
				rtype[n] = pack_node_type(&f.p, n);
				ridx[n] = pack_node_index(&f.p, n);
			}
		} else {
			ck_assert_uint_eq(f.p.nnodes, rn);
			for (uint64_t n = 0; n < rn; n++) {
				ck_assert_uint_eq(rtype[n],
						  pack_node_type(&f.p, n));
				ck_assert_uint_eq(ridx[n],
						  pack_node_index(&f.p, n));
			}
		}
	}
	ck_assert_uint_gt(refsz[2], 0);
	ck_assert_uint_gt(refsz[1], 0);
	free(ref[0]);
	free(ref[1]);
	for (int i = 0; i < 12; i++)
		free(d[i]);
	free(rtype);
	free(ridx);
	fx_free(&f);
	*csize = refsz[2];
	return ref[2];
}

START_TEST(test_deterministic_across_jobs)
{
	uint64_t zn, ln, l12n;
	unsigned char *z = deterministic(AXFS_COMPRESSOR_ZLIB, 9, &zn);
	unsigned char *l = deterministic(AXFS_COMPRESSOR_LIBDEFLATE, 9, &ln);
	unsigned char *l12 = deterministic(AXFS_COMPRESSOR_LIBDEFLATE, 12,
					   &l12n);

	/* Different streams of the same data (as measured in
	 * bench/RESULTS.md, libdeflate's are the smaller). */
	ck_assert(zn != ln || memcmp(z, l, zn));
	ck_assert_uint_lt(ln, zn);
	ck_assert_uint_le(l12n, ln);
	free(z);
	free(l);
	free(l12);
}
END_TEST

struct prog {
	uint64_t calls, files, files_total, bytes, bytes_total;
};

static void on_progress(void *ctx, uint64_t fd, uint64_t ft, uint64_t bd,
			uint64_t bt)
{
	struct prog *p = ctx;

	ck_assert_uint_ge(fd, p->files);	/* monotonic */
	ck_assert_uint_ge(bd, p->bytes);
	p->calls++;
	p->files = fd;
	p->files_total = ft;
	p->bytes = bd;
	p->bytes_total = bt;
}

START_TEST(test_progress_cancel_errors)
{
	struct fx f;
	unsigned char *tx = text(50000, 8);
	struct pack_opts o;
	struct axfs_error err;
	struct prog pr = { 0 };
	volatile int cancel = 0;

	fx_init(&f);
	add_file(&f, "a", tx, 50000);
	add_file(&f, "b", tx, 777);
	add_entry(&f, "l", AXFS_FT_LNK, "a", NULL, NULL, 0);
	finalize_plan(&f, NULL, 0);

	memset(&o, 0, sizeof(o));
	o.cblock_size = 65536;
	o.level = 6;
	o.jobs = 2;
	o.progress = on_progress;
	o.progress_ctx = &pr;
	o.cancel = &cancel;
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err), 0);
	ck_assert_uint_ge(pr.calls, 1);
	ck_assert_uint_eq(pr.files, 3);
	ck_assert_uint_eq(pr.files_total, 3);
	ck_assert_uint_eq(pr.bytes, 50777);
	ck_assert_uint_eq(pr.bytes_total, 50777);
	ck_assert_uint_eq(f.p.bytes_in, 50777);
	pack_free_packed(&f.p);

	/* cancelled: INTERRUPTED, nothing left behind */
	cancel = 1;
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err),
			 AXFS_ERR_INTERRUPTED);
	ck_assert_int_eq(f.p.compressed.fd, -1);
	ck_assert_ptr_null(f.p.slot_type);
	ck_assert_ptr_null(f.p.runs);
	cancel = 0;

	/* bad options */
	o.cblock_size = 3000;
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err),
			 AXFS_ERR_INVALID);
	o.cblock_size = 2 * 1024 * 1024;
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err),
			 AXFS_ERR_INVALID);
	o.cblock_size = 4096;
	o.level = 0;
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err),
			 AXFS_ERR_INVALID);
	/* each compressor's own range, named */
	o.level = 13;
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err),
			 AXFS_ERR_INVALID);
	ck_assert_str_eq(err.msg, "compression level 13 is out of range for "
			 "libdeflate (1 to 12)");
	o.compressor = AXFS_COMPRESSOR_ZLIB;
	o.level = 10;
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err),
			 AXFS_ERR_INVALID);
	ck_assert_str_eq(err.msg, "compression level 10 is out of range for "
			 "zlib (1 to 9)");
	ck_assert_ptr_null(f.p.slot_type);
	ck_assert_ptr_null(f.p.runs);
	o.compressor = AXFS_COMPRESSOR_LIBDEFLATE;
	o.level = 12;
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err), 0);
	check_file(&f, "/a", tx, 50000, NULL);
	pack_free_packed(&f.p);
	o.compressor = AXFS_COMPRESSOR_DEFAULT;
	o.level = 9;

	/* a file that shrank while being read: an error naming it */
	f.src.short_by[0] = 10;
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err),
			 AXFS_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "'/a'"));
	ck_assert_int_eq(f.p.xip.fd, -1);
	f.src.short_by[0] = 0;

	/* packing again works (build_fit.c repacks after plan_trim) */
	ck_assert_int_eq(pack_tree(&f.t, &f.src.base, &o, &f.p, &err), 0);
	check_file(&f, "/a", tx, 50000, NULL);
	free(tx);
	fx_free(&f);
}
END_TEST

/* The boot order (pack_order.c): ranked compressed pages fill the first
 * cblocks in rank order, a cblock's worth each; the rest follows. */
START_TEST(test_boot_order)
{
	static const struct { const char *path; uint64_t page, rank; } r[] = {
		{ "/f2", 3, 1 }, { "/f0", 7, 2 }, { "/f1", 1, 3 },
		{ "/f2", 9, 4 }, { "/f0", 0, 5 }, { "/f1", 9, 6 },
		{ "/f0", 1, 7 }, { "/f2", 0, 8 }, { "/f1", 4, 9 },
		{ "/f0", 9, 10 },		/* its tail: 1000 bytes */
	};
	const size_t nr = sizeof(r) / sizeof(r[0]), per = 4;
	size_t len = 9 * 4096 + 1000;
	unsigned char *d[3], *spool[2];
	uint64_t size[2];
	struct axfs_profile prof;
	struct plan_opts o;
	struct plan_stats st;
	struct axfs_error err;
	struct fx f;
	char name[8];

	for (int jobs = 1; jobs <= 2; jobs++) {
		fx_init(&f);
		for (int i = 0; i < 3; i++) {
			d[i] = text(len + (size_t)i * 4096, (unsigned)(i * 3 + 1));
			snprintf(name, sizeof(name), "f%d", i);
			add_file(&f, name, d[i], len + (size_t)i * 4096);
		}
		ck_assert_int_eq(tree_finalize(&f.t, &err), 0);
		axfs_profile_init(&prof, NULL);
		for (size_t k = 0; k < nr; k++) {
			ck_assert_int_eq(axfs_profile_add(&prof, r[k].path,
				r[k].page * 4096, 0, "t", k + 1, &err), 0);
			prof.v[prof.n - 1].first = r[k].rank;
		}
		memset(&o, 0, sizeof(o));
		o.profile = &prof;
		ck_assert_msg(plan_tree(&f.t, &o, &st, &err) == 0, "%s",
			      err.msg);
		ck_assert_uint_eq(st.ranked_pages, nr);
		ck_assert_uint_eq(st.xip_pages, 0);	/* count 0 */
		pack_ok(&f, (uint32_t)(per * 4096), jobs);
		check_invariants(&f.p);
		ck_assert_uint_eq(f.p.ordered_pages, nr);
		ck_assert_uint_eq(f.p.ordered_cblocks, (nr + per - 1) / per);
		for (size_t k = 0; k < nr; k++) {
			struct tree_entry *e = tree_lookup(&f.t, r[k].path);
			uint64_t n = e->first_node + r[k].page;

			ck_assert_int_eq(pack_node_type(&f.p, n), AXFS_NODE_COMPRESSED);
			/* rank k+1 is in cblock k / per */
			ck_assert_uint_eq(f.p.cnode_index[pack_node_index(&f.p, n)],
					  k / per);
		}
		/* every other page is in a later cblock */
		for (uint64_t n = 0; n < f.p.nnodes; n++) {
			size_t k;

			for (k = 0; k < nr; k++) {
				struct tree_entry *e =
					tree_lookup(&f.t, r[k].path);

				if (e->first_node + r[k].page == n)
					break;
			}
			if (k == nr)
				ck_assert_uint_ge(
					f.p.cnode_index[pack_node_index(&f.p, n)],
					f.p.ordered_cblocks);
		}
		for (int i = 0; i < 3; i++) {
			snprintf(name, sizeof(name), "/f%d", i);
			check_file(&f, name, d[i], len + (size_t)i * 4096, NULL);
			free(d[i]);
		}
		spool[jobs - 1] = spool_bytes(&f.p.compressed);
		size[jobs - 1] = f.p.compressed.size;
		axfs_profile_free(&prof);
		fx_free(&f);
	}
	/* the same bytes whatever the number of threads */
	ck_assert_uint_eq(size[0], size[1]);
	ck_assert_int_eq(memcmp(spool[0], spool[1], size[0]), 0);
	free(spool[0]);
	free(spool[1]);
}
END_TEST

Suite *suite_packer(void)
{
	Suite *s = suite_create("packer");
	TCase *tc = tcase_create("pack");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_roundtrip_sizes);
	tcase_add_test(tc, test_xip_padding);
	tcase_add_test(tc, test_tails_share_cblocks);
	tcase_add_test(tc, test_incompressible_byte_aligned);
	tcase_add_test(tc, test_lone_tail_byte_aligned);
	tcase_add_test(tc, test_uncompressed_by_policy);
	tcase_add_test(tc, test_symlink_nul);
	tcase_add_test(tc, test_hard_links_share);
	tcase_add_test(tc, test_hard_link_master_later);
	tcase_add_test(tc, test_identical_files_dedup);
	tcase_add_test(tc, test_identical_pages_shared);
	tcase_add_test(tc, test_holes_not_read);
	tcase_add_test(tc, test_boot_order);
	tcase_add_test(tc, test_deterministic_across_jobs);
	tcase_add_test(tc, test_progress_cancel_errors);
	suite_add_tcase(s, tc);
	return s;
}
