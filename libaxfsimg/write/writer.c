// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * writer.c - lays out and writes a whole AXFS image.
 *
 * Layout, in file order:
 *
 *   0     superblock (256 bytes), page_shift = 12 at byte 256
 *   264   18 region descriptors, 40 bytes each, in enum axfs_region order
 *   ...   XIP region, starting on a 4096-byte boundary
 *         strings, then the 14 byte tables (node_type .. gids)
 *         [mmap_size, when an mmap limit is given]
 *         byte_aligned region, compressed region
 *         zero padding to a multiple of 4096; the magic in the last 4 bytes
 *
 * The memory-mapped part (everything a physaddr= mount reads in place:
 * superblock, descriptors, XIP pages, uncompressed metadata) comes first
 * so that `split` can cut the image at mmap_size.  An empty region gets
 * fsoffset 0 and size 0.  Every metadata region is built in memory
 * (it is small and may be compressed as a whole); the data regions are
 * copied from the packer's spool files, so the image is never held in
 * memory.  Every integer goes through the big-endian helpers.
 */
#include "writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sha1.h>

#include "bytetable.h"
#include "deflater.h"

#define WBUF_SIZE (1u << 20)
#define DESC_START AXFS_SUPER_SIZE_EXT
#define HEADER_SIZE (DESC_START + AXFS_REGION_COUNT * AXFS_REGION_DESC_SIZE)

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* ---- sequential output -------------------------------------------------- */

struct out {
	int fd;
	const char *name;		/* the image in messages, or NULL */
	uint64_t pos;			/* bytes accepted so far */
	uint8_t *buf;
	size_t len;
	struct axfs_error *err;
};

/* "cannot write 'NAME': reason", or "the image" when it has no name. */
static int write_failed(struct axfs_error *err, int errnum, const char *name)
{
	if (name)
		return axfs_error_sys(err, errnum, "cannot write '%s'", name);
	return axfs_error_sys(err, errnum, "cannot write the image");
}

static int out_flush(struct out *w)
{
	size_t done = 0;

	while (done < w->len) {
		ssize_t n = write(w->fd, w->buf + done, w->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return write_failed(w->err, n < 0 ? errno : EIO,
					    w->name);
		done += (size_t)n;
	}
	w->len = 0;
	return 0;
}

static int out_write(struct out *w, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		size_t n = WBUF_SIZE - w->len;

		if (n > len)
			n = len;
		memcpy(w->buf + w->len, p, n);
		w->len += n;
		w->pos += n;
		p += n;
		len -= n;
		if (w->len == WBUF_SIZE) {
			int rc = out_flush(w);

			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

static int out_pad_to(struct out *w, uint64_t pos)
{
	while (w->pos < pos) {
		size_t n = WBUF_SIZE - w->len;

		if (n > pos - w->pos)
			n = (size_t)(pos - w->pos);
		memset(w->buf + w->len, 0, n);
		w->len += n;
		w->pos += n;
		if (w->len == WBUF_SIZE) {
			int rc = out_flush(w);

			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/* Copies `size` bytes of a spool file (read with pread from offset 0). */
static int out_copy_spool(struct out *w, const struct pack_spool_file *sp,
			  const char *what)
{
	uint64_t off = 0;

	if (sp->size == 0)
		return 0;
	if (sp->fd < 0)
		return axfs_error_set(w->err, AXFS_ERR_INVALID,
				      "the %s region has no spool file", what);
	while (off < sp->size) {
		size_t room = WBUF_SIZE - w->len;
		ssize_t n;

		if (room > sp->size - off)
			room = (size_t)(sp->size - off);
		n = pread(sp->fd, w->buf + w->len, room, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return axfs_error_sys(w->err, errno,
					      "cannot read the %s spool file",
					      what);
		if (n == 0)
			return axfs_error_set(w->err, AXFS_ERR_IO,
				"the %s spool file ends after %llu of %llu "
				"bytes", what, (unsigned long long)off,
				(unsigned long long)sp->size);
		w->len += (size_t)n;
		w->pos += (uint64_t)n;
		off += (uint64_t)n;
		if (w->len == WBUF_SIZE) {
			int rc = out_flush(w);

			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/* ---- metadata ----------------------------------------------------------- */

/* One metadata region as it will be stored. */
struct meta {
	uint8_t *raw;			/* uncompressed bytes (not owned for
					 * tables: see tables[]) */
	uint64_t size;
	uint8_t *z;			/* zlib stream, or NULL: stored raw */
	uint64_t zsize;
	uint64_t max_index;
	unsigned int depth;
	int node_stream;		/* stored raw, written from the
					 * packer's runs: 1 node_type,
					 * 2 node_index (out_node_table) */
};

struct triple {
	uint32_t mode, uid, gid;
};

struct triple_index {
	uint64_t *slots;		/* index + 1, 0 = empty */
	size_t nslots;
	struct triple *v;
	uint64_t n;
};

static size_t triple_hash(const struct triple *k)
{
	uint64_t h = k->mode * 0x9e3779b97f4a7c15ull;

	h ^= (h >> 31) ^ ((uint64_t)k->uid * 0xc2b2ae3d27d4eb4full);
	h ^= (h >> 29) ^ ((uint64_t)k->gid * 0x165667b19e3779f9ull);
	return (size_t)(h ^ (h >> 32));
}

/* Index of (mode, uid, gid), numbered in order of first use. */
static int64_t triple_get(struct triple_index *ti, const struct triple *k)
{
	size_t mask = ti->nslots - 1;
	size_t i = triple_hash(k) & mask;

	while (ti->slots[i]) {
		const struct triple *x = &ti->v[ti->slots[i] - 1];

		if (x->mode == k->mode && x->uid == k->uid && x->gid == k->gid)
			return (int64_t)ti->slots[i] - 1;
		i = (i + 1) & mask;
	}
	ti->v[ti->n] = *k;
	ti->slots[i] = ++ti->n;
	return (int64_t)ti->n - 1;
}

static int zcompress(struct meta *m, struct deflater *d,
		     enum axfs_compressor c, struct axfs_error *err)
{
	size_t cap, zlen;
	uint8_t *z;

	if (m->size == 0)
		return 0;
	if (m->size > (uint64_t)UINT32_MAX / 2)
		return 0;	/* the driver passes sizes as int: store raw */
	cap = deflater_bound(c, (size_t)m->size);
	z = malloc(cap);
	if (!z)
		return axfs_error_set(err, AXFS_ERR_NOMEM,
				      "out of memory compressing metadata");
	zlen = deflater_run(d, m->raw, (size_t)m->size, z, cap);
	if (!zlen) {
		free(z);
		return axfs_error_set(err, AXFS_ERR_NOMEM, "%s failed to "
				      "compress metadata",
				      axfs_compressor_name(c));
	}
	/* The bound is about the input's size: keep only the stream (a
	 * hole's node tables deflate a thousandfold). */
	m->z = realloc(z, zlen);
	if (!m->z)
		m->z = z;
	m->zsize = zlen;
	return 0;
}

static uint64_t meta_stored(const struct meta *m)
{
	return m->z ? m->zsize : m->size;
}

struct build {
	const struct tree *t;
	const struct pack_result *p;
	struct bytetable tables[AXFS_REGION_COUNT];
	uint8_t *strings;
	uint64_t strings_size;
	struct meta meta[AXFS_REGION_COUNT];	/* strings + tables */
	uint64_t ntriples;
};

static void build_free(struct build *b)
{
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		bytetable_free(&b->tables[r]);
		free(b->meta[r].z);
	}
	free(b->strings);
}

/* Node range of a file: a hard link uses its group master's. */
static const struct tree_entry *data_owner(const struct tree_entry *e)
{
	return e->packed || !e->link_master ? e : e->link_master;
}

static int inode_tables(struct build *b, struct axfs_error *err)
{
	const struct tree *t = b->t;
	const struct pack_result *p = b->p;
	uint64_t n = t->count;
	uint64_t *fsz = NULL, *name = NULL, *nent = NULL, *midx = NULL,
		 *aidx = NULL, *modes = NULL, *uids = NULL, *gids = NULL;
	struct triple_index ti = { 0 };
	uint64_t spos = 0;
	int rc = AXFS_ERR_NOMEM;
	char path[1024];

	fsz = calloc(n, sizeof(*fsz));
	name = calloc(n, sizeof(*name));
	nent = calloc(n, sizeof(*nent));
	midx = calloc(n, sizeof(*midx));
	aidx = calloc(n, sizeof(*aidx));
	ti.nslots = 16;
	while (ti.nslots < 2 * n)
		ti.nslots *= 2;
	ti.slots = calloc(ti.nslots, sizeof(*ti.slots));
	ti.v = calloc(n, sizeof(*ti.v));
	for (uint64_t i = 0; i < n; i++)
		b->strings_size += t->by_ino[i]->name_len + 1;
	b->strings = malloc(b->strings_size);
	if (!fsz || !name || !nent || !midx || !aidx || !ti.slots || !ti.v ||
	    !b->strings) {
		axfs_error_set(err, AXFS_ERR_NOMEM,
			       "out of memory laying out %llu inodes",
			       (unsigned long long)n);
		goto out;
	}

	for (uint64_t i = 0; i < n; i++) {
		const struct tree_entry *e = t->by_ino[i];
		const struct tree_entry *o = data_owner(e);
		struct triple k = { e->mode & 0xffffu, e->uid, e->gid };

		if (e->ino != i) {
			rc = axfs_error_set(err, AXFS_ERR_INVALID,
				"the tree is not finalised (inode %llu)",
				(unsigned long long)i);
			goto out;
		}
		name[i] = spos;
		memcpy(b->strings + spos, e->name, e->name_len);
		b->strings[spos + e->name_len] = '\0';
		spos += e->name_len + 1;
		midx[i] = (uint64_t)triple_get(&ti, &k);

		switch (e->type) {
		case AXFS_FT_DIR:
			/* Size: the bytes its entries' names take in the
			 * strings region, as cramfs reports the bytes of a
			 * directory's listing. */
			for (size_t c = 0; c < e->nchildren; c++)
				fsz[i] += e->children[c]->name_len + 1;
			nent[i] = e->nchildren;
			aidx[i] = e->nchildren ? e->children[0]->ino : 0;
			break;
		case AXFS_FT_REG:
		case AXFS_FT_LNK: {
			uint64_t pages = e->type == AXFS_FT_REG ?
				(e->size + AXFS_PAGE_SIZE - 1) / AXFS_PAGE_SIZE :
				1;

			if (o->node_count != pages ||
			    o->first_node + o->node_count < o->first_node ||
			    o->first_node + o->node_count > p->nnodes) {
				tree_entry_path(e, path, sizeof(path));
				rc = axfs_error_set(err, AXFS_ERR_INVALID,
					"'%s' has %llu nodes from %llu (of "
					"%llu) but needs %llu: the packer did "
					"not store it", path,
					(unsigned long long)o->node_count,
					(unsigned long long)o->first_node,
					(unsigned long long)p->nnodes,
					(unsigned long long)pages);
				goto out;
			}
			fsz[i] = e->size;
			/* i_blocks in 512-byte units, so du(1) shows the
			 * file's size; symlinks take no blocks. */
			nent[i] = e->type == AXFS_FT_REG ?
				  (e->size + 511) / 512 : 0;
			aidx[i] = pages ? o->first_node : 0;
			break;
		}
		case AXFS_FT_CHR:
		case AXFS_FT_BLK:
			fsz[i] = axfs_encode_dev(e->rdev_major, e->rdev_minor);
			break;
		default:
			break;
		}
	}

	modes = calloc(ti.n ? ti.n : 1, sizeof(*modes));
	uids = calloc(ti.n ? ti.n : 1, sizeof(*uids));
	gids = calloc(ti.n ? ti.n : 1, sizeof(*gids));
	if (!modes || !uids || !gids) {
		axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < ti.n; i++) {
		modes[i] = ti.v[i].mode;
		uids[i] = ti.v[i].uid;
		gids[i] = ti.v[i].gid;
	}
	b->ntriples = ti.n;
	if ((rc = bytetable_build(&b->tables[AXFS_R_INODE_FILE_SIZE], fsz, n, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_INODE_NAME_OFFSET], name, n, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_INODE_NUM_ENTRIES], nent, n, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_INODE_MODE_INDEX], midx, n, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_INODE_ARRAY_INDEX], aidx, n, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_MODES], modes, ti.n, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_UIDS], uids, ti.n, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_GIDS], gids, ti.n, err)) < 0)
		goto out;
	rc = 0;
out:
	free(fsz);
	free(name);
	free(nent);
	free(midx);
	free(aidx);
	free(modes);
	free(uids);
	free(gids);
	free(ti.slots);
	free(ti.v);
	return rc;
}

/*
 * node_type (types) or node_index: one entry a node, built from the
 * packer's runs (stages.h), so a hole of any length is one run there and
 * only here, in the table the format needs, an entry a page.  The largest
 * value is a slot's: every node takes a slot's type and index.
 */
static uint64_t node_value(const struct pack_result *p, int types,
			   const struct pack_node_run *r, uint64_t k)
{
	uint64_t s = r->shared ? r->slot : r->slot + k;

	return types ? p->slot_type[s] : p->slot_index[s];
}

static unsigned int node_depth(const struct pack_result *p, int types)
{
	uint64_t max = 0;

	for (uint64_t s = 0; s < p->nslots; s++) {
		uint64_t v = types ? p->slot_type[s] : p->slot_index[s];

		if (v > max)
			max = v;
	}
	return axfs_bytetable_depth_for(max);
}

/* The table in memory: it is compressed as a whole. */
static int node_table(struct bytetable *bt, const struct pack_result *p,
		      int types, struct axfs_error *err)
{
	int rc = bytetable_alloc(bt, p->nnodes, node_depth(p, types), err);

	if (rc < 0 || !bt->data)
		return rc;
	for (size_t i = 0; i < p->nruns; i++) {
		const struct pack_node_run *r = &p->runs[i];

		for (uint64_t k = 0; k < r->n; k++)
			axfs_bytetable_put(bt->data, bt->depth, r->first + k,
					   node_value(p, types, r, k));
	}
	return 0;
}

static int node_tables(struct build *b, struct axfs_error *err)
{
	const struct pack_result *p = b->p;
	uint64_t ncbo = p->cblock_offset ? p->ncblocks + 1 : 0;
	int rc;

	if (p->ncblocks && !p->cblock_offset)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "cblock offsets missing");
	if (ncbo && p->cblock_offset[p->ncblocks] != p->compressed.size)
		return axfs_error_set(err, AXFS_ERR_INVALID,
			"the last cblock ends at %llu but the compressed "
			"region holds %llu bytes",
			(unsigned long long)p->cblock_offset[p->ncblocks],
			(unsigned long long)p->compressed.size);
	if (p->xip.size != p->xip_pages * AXFS_PAGE_SIZE)
		return axfs_error_set(err, AXFS_ERR_INVALID,
			"the XIP region holds %llu bytes, not %llu pages",
			(unsigned long long)p->xip.size,
			(unsigned long long)p->xip_pages);
	/* node_type and node_index: one at a time in build_meta() */
	if ((rc = bytetable_build(&b->tables[AXFS_R_CNODE_OFFSET], p->cnode_offset, p->ncnodes, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_CNODE_INDEX], p->cnode_index, p->ncnodes, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_BANODE_OFFSET], p->banode_offset, p->nbanodes, err)) < 0 ||
	    (rc = bytetable_build(&b->tables[AXFS_R_CBLOCK_OFFSET], p->cblock_offset, ncbo, err)) < 0)
		return rc;
	return 0;
}

static int is_meta(int r)
{
	return r == AXFS_R_STRINGS || AXFS_REGION_IS_TABLE(r);
}

static int build_meta(struct build *b, const struct write_opts *o,
		      struct axfs_error *err)
{
	enum axfs_compressor c = axfs_compressor_resolve(o->compressor);
	int level = axfs_compressor_check_level(c, o->level, NULL, NULL) == 0 ?
		    o->level : AXFS_DEFAULT_LEVEL;
	/* Compressed metadata is inflated into RAM at mount; raw metadata
	 * below mmap_size is used in place by a physaddr= mount.  Auto:
	 * compress when it is smaller, unless an mmap limit asks for the
	 * in-place layout. */
	int raw_only = o->compress_metadata == 0 ||
		       (o->compress_metadata < 0 && o->mmap_limit);
	struct deflater *d = NULL;
	int rc;

	if ((rc = inode_tables(b, err)) < 0 || (rc = node_tables(b, err)) < 0)
		return rc;
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		struct meta *m = &b->meta[r];
		/* 1 node_type, 2 node_index (meta.node_stream), 0 others */
		int node_tab = r == AXFS_R_NODE_TYPE ? 1 :
			       r == AXFS_R_NODE_INDEX ? 2 : 0;

		if (!is_meta(r))
			continue;
		/* The node tables, an entry a page (holes included), are
		 * built from the packer's runs one at a time and, once
		 * compressed, dropped: at most one is held raw.  Stored
		 * raw, they are written from the runs, never held. */
		if (node_tab && raw_only) {
			uint64_t n = b->p->nnodes;
			unsigned int depth = n ? node_depth(b->p,
						node_tab == 1) : 0;

			m->node_stream = node_tab;
			m->size = n * depth;
			m->max_index = n;
			m->depth = depth;
			continue;
		}
		if (node_tab &&
		    (rc = node_table(&b->tables[r], b->p, node_tab == 1,
				     err)) < 0) {
			deflater_free(d);
			return rc;
		}
		if (r == AXFS_R_STRINGS) {
			m->raw = b->strings;
			m->size = b->strings_size;
			m->max_index = b->t->count;
		} else {
			m->raw = b->tables[r].data;
			m->size = b->tables[r].size;
			m->max_index = b->tables[r].count;
			m->depth = b->tables[r].depth;
		}
		if (raw_only)
			continue;
		if (!d && !(d = deflater_new(c, level)))
			return axfs_error_set(err, AXFS_ERR_NOMEM, "out of "
					      "memory in the %s compressor",
					      axfs_compressor_name(c));
		rc = zcompress(m, d, c, err);
		if (rc < 0) {
			deflater_free(d);
			return rc;
		}
		if (m->z && o->compress_metadata < 0 && m->zsize >= m->size) {
			free(m->z);
			m->z = NULL;
			m->zsize = 0;
		}
		if (m->z && node_tab) {
			bytetable_free(&b->tables[r]);
			m->raw = NULL;
		}
	}
	deflater_free(d);
	return 0;
}

/* A node table stored raw, written entry by entry from the runs. */
static int out_node_table(struct out *w, const struct pack_result *p,
			  int types, unsigned int depth)
{
	uint8_t buf[32768];
	size_t n = 0, cap = depth ? sizeof(buf) / depth : 0;
	int rc;

	if (!depth)
		return 0;
	for (size_t i = 0; i < p->nruns; i++) {
		const struct pack_node_run *r = &p->runs[i];

		for (uint64_t k = 0; k < r->n; k++) {
			axfs_bytetable_put(buf, depth, n++,
					   node_value(p, types, r, k));
			if (n == cap) {
				if ((rc = out_write(w, buf, n * depth)) < 0)
					return rc;
				n = 0;
			}
		}
	}
	return n ? out_write(w, buf, n * depth) : 0;
}

/* ---- the image ---------------------------------------------------------- */

static void put_desc(uint8_t *hdr, int r, const struct write_layout *lay)
{
	uint8_t *d = hdr + DESC_START + r * AXFS_REGION_DESC_SIZE;

	put_unaligned_be64(DESC_START + (uint64_t)r * AXFS_REGION_DESC_SIZE, hdr + AXFS_SB_REGION(r));
	put_unaligned_be64(lay->fsoffset[r], d + AXFS_RD_FSOFFSET);
	put_unaligned_be64(lay->size[r], d + AXFS_RD_SIZE);
	put_unaligned_be64(lay->compressed_size[r], d + AXFS_RD_COMPRESSED_SIZE);
	put_unaligned_be64(lay->max_index[r], d + AXFS_RD_MAX_INDEX);
	d[AXFS_RD_TABLE_DEPTH] = lay->depth[r];
	d[AXFS_RD_INCORE] = 0;
}

static void place(struct write_layout *lay, int r, uint64_t *pos,
		  uint64_t stored)
{
	lay->fsoffset[r] = stored ? *pos : 0;
	*pos += stored;
}

int write_image(int fd, const struct tree *t,
		const struct pack_result *p,
		const struct write_opts *o, struct write_layout *lay,
		struct axfs_error *err)
{
	static const int meta_order[] = {
		AXFS_R_STRINGS, AXFS_R_NODE_TYPE, AXFS_R_NODE_INDEX,
		AXFS_R_CNODE_OFFSET, AXFS_R_CNODE_INDEX, AXFS_R_BANODE_OFFSET,
		AXFS_R_CBLOCK_OFFSET, AXFS_R_INODE_FILE_SIZE,
		AXFS_R_INODE_NAME_OFFSET, AXFS_R_INODE_NUM_ENTRIES,
		AXFS_R_INODE_MODE_INDEX, AXFS_R_INODE_ARRAY_INDEX,
		AXFS_R_MODES, AXFS_R_UIDS, AXFS_R_GIDS,
	};
	struct build b = { .t = t, .p = p };
	struct out w = { .fd = fd, .name = o->name, .err = err };
	uint8_t hdr[HEADER_SIZE];
	uint8_t magic[4];
	uint64_t pos, meta_end, data_start;
	int rc;

	memset(lay, 0, sizeof(*lay));
	if (!t->by_ino || !t->count)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "the tree is not finalised");
	rc = build_meta(&b, o, err);
	if (rc < 0)
		goto out;

	/* Where everything goes. */
	pos = HEADER_SIZE;
	if (p->xip.size) {
		pos = round_up(pos, AXFS_PAGE_SIZE);
		place(lay, AXFS_R_XIP, &pos, p->xip.size);
	}
	lay->size[AXFS_R_XIP] = p->xip.size;
	lay->max_index[AXFS_R_XIP] = p->xip_pages;
	for (size_t i = 0; i < sizeof(meta_order) / sizeof(*meta_order); i++) {
		int r = meta_order[i];
		const struct meta *m = &b.meta[r];

		place(lay, r, &pos, meta_stored(m));
		lay->size[r] = m->size;
		lay->compressed_size[r] = m->z ? m->zsize : 0;
		lay->max_index[r] = m->max_index;
		lay->depth[r] = (uint8_t)m->depth;
	}
	meta_end = pos;
	if (o->mmap_limit) {
		lay->mmap_size = round_up(meta_end, AXFS_PAGE_SIZE);
		if (lay->mmap_size > o->mmap_limit) {
			rc = axfs_error_set(err, AXFS_ERR_LIMIT,
				"the memory-mapped part of the image (superblock, "
				"descriptors, %llu XIP pages and the metadata) "
				"needs %llu bytes, %llu more than the mmap limit "
				"of %llu", (unsigned long long)p->xip_pages,
				(unsigned long long)lay->mmap_size,
				(unsigned long long)(lay->mmap_size - o->mmap_limit),
				(unsigned long long)o->mmap_limit);
			goto out;
		}
		pos = lay->mmap_size;
	}
	data_start = pos;
	place(lay, AXFS_R_BYTE_ALIGNED, &pos, p->byte_aligned.size);
	lay->size[AXFS_R_BYTE_ALIGNED] = p->byte_aligned.size;
	lay->max_index[AXFS_R_BYTE_ALIGNED] = p->nbanodes;
	place(lay, AXFS_R_COMPRESSED, &pos, p->compressed.size);
	lay->size[AXFS_R_COMPRESSED] = p->compressed.size;
	lay->max_index[AXFS_R_COMPRESSED] = p->ncblocks;
	/* Room for the trailing magic, then whole 4 KiB pages: a loop
	 * device drops a partial sector and the driver reads size - 4. */
	lay->image_size = round_up(pos + 4, AXFS_PAGE_SIZE);
	if (!o->mmap_limit)
		lay->mmap_size = lay->image_size;

	/* Superblock and descriptors. */
	memset(hdr, 0, sizeof(hdr));
	put_unaligned_be32(AXFS_MAGIC, hdr + AXFS_SB_MAGIC);
	memcpy(hdr + AXFS_SB_SIGNATURE, AXFS_SIGNATURE, AXFS_SIGNATURE_LEN);
	/* The driver allocates two cblock_size buffers even without
	 * compressed data: never write 0. */
	put_unaligned_be32(p->cblock_size ? p->cblock_size : AXFS_CBLOCK_MIN, hdr + AXFS_SB_CBLOCK_SIZE);
	put_unaligned_be64(t->count, hdr + AXFS_SB_FILES);
	put_unaligned_be64(lay->image_size, hdr + AXFS_SB_SIZE);
	put_unaligned_be64(p->nnodes, hdr + AXFS_SB_BLOCKS);
	put_unaligned_be64(lay->mmap_size, hdr + AXFS_SB_MMAP_SIZE);
	for (int r = 0; r < AXFS_REGION_COUNT; r++)
		put_desc(hdr, r, lay);
	hdr[AXFS_SB_VERSION_MAJOR] = AXFS_VERSION_MAJOR;
	hdr[AXFS_SB_VERSION_MINOR] = AXFS_VERSION_MINOR;
	hdr[AXFS_SB_VERSION_SUB] = AXFS_VERSION_SUB;
	hdr[AXFS_SB_COMPRESSION_TYPE] = AXFS_COMPRESSION_ZLIB;
	put_unaligned_be64((uint64_t)o->timestamp, hdr + AXFS_SB_TIMESTAMP);
	hdr[AXFS_SB_PAGE_SHIFT] = AXFS_PAGE_SHIFT;

	w.buf = malloc(WBUF_SIZE);
	if (!w.buf) {
		rc = axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		rc = write_failed(err, errno, o->name);
		goto out;
	}
	if ((rc = out_write(&w, hdr, sizeof(hdr))) < 0)
		goto out;
	if (p->xip.size) {
		if ((rc = out_pad_to(&w, lay->fsoffset[AXFS_R_XIP])) < 0 ||
		    (rc = out_copy_spool(&w, &p->xip, "XIP")) < 0)
			goto out;
	}
	for (size_t i = 0; i < sizeof(meta_order) / sizeof(*meta_order); i++) {
		const struct meta *m = &b.meta[meta_order[i]];

		if (m->z)
			rc = out_write(&w, m->z, m->zsize);
		else if (m->node_stream)
			rc = out_node_table(&w, p, m->node_stream == 1,
					    m->depth);
		else if (m->size)
			rc = out_write(&w, m->raw, m->size);
		if (rc < 0)
			goto out;
	}
	if ((rc = out_pad_to(&w, data_start)) < 0 ||
	    (rc = out_copy_spool(&w, &p->byte_aligned, "byte-aligned")) < 0 ||
	    (rc = out_copy_spool(&w, &p->compressed, "compressed")) < 0 ||
	    (rc = out_pad_to(&w, lay->image_size - 4)) < 0)
		goto out;
	put_unaligned_be32(AXFS_MAGIC, magic);
	if ((rc = out_write(&w, magic, 4)) < 0 || (rc = out_flush(&w)) < 0)
		goto out;
	if (ftruncate(fd, (off_t)lay->image_size) < 0) {
		rc = write_failed(err, errno, o->name);
		goto out;
	}

	if (o->digest) {
		uint8_t digest[20];

		rc = write_digest(fd, lay->image_size, digest, err);
		if (rc < 0)
			goto out;
		ssize_t n = pwrite(fd, digest, sizeof(digest),
				   AXFS_SB_DIGEST);

		if (n != (ssize_t)sizeof(digest)) {
			rc = o->name ? write_failed(err, n < 0 ? errno : EIO,
						    o->name) :
				axfs_error_sys(err, n < 0 ? errno : EIO,
					       "cannot write the image digest");
			goto out;
		}
	}
	rc = 0;
out:
	free(w.buf);
	build_free(&b);
	return rc;
}

int write_digest(int fd, uint64_t size, uint8_t out[20],
		 struct axfs_error *err)
{
	enum { CHUNK = 1 << 20 };
	uint8_t *buf = malloc(CHUNK);
	uint64_t off = 0;
	SHA1_CTX ctx;

	if (!buf)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	SHA1Init(&ctx);
	while (off < size) {
		size_t want = size - off > CHUNK ? CHUNK : (size_t)(size - off);
		ssize_t n = pread(fd, buf, want, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int rc = n < 0 ?
				axfs_error_sys(err, errno,
					"cannot read the image at byte %llu",
					(unsigned long long)off) :
				axfs_error_set(err, AXFS_ERR_FORMAT,
					"the image ends at byte %llu, before "
					"its size of %llu",
					(unsigned long long)off,
					(unsigned long long)size);

			free(buf);
			return rc;
		}
		/* The digest field itself reads as zeros. */
		for (uint64_t i = off; i < off + (uint64_t)n; i++) {
			if (i >= AXFS_SB_DIGEST + AXFS_SB_DIGEST_LEN)
				break;
			if (i >= AXFS_SB_DIGEST)
				buf[i - off] = 0;
		}
		SHA1Update(&ctx, buf, (size_t)n);
		off += (uint64_t)n;
	}
	SHA1Final(out, &ctx);
	free(buf);
	return 0;
}
