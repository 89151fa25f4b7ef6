// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * packer.c - stores the data of every regular file and symlink: XIP pages,
 * compressed cblocks, byte-aligned bytes, and the node tables.
 *
 * One pass over the tree in inode order, in the calling thread, reads
 * every file once (through the source) and appends each page to one of:
 *   - the XIP spool, when the plan says so: a full 4096-byte page, the
 *     last partial page zero-padded (the driver always copies 4096 bytes);
 *   - one of two open cblocks, filled in inode order: full pages go to
 *     the page cblock (always exactly full), tails (partial last pages:
 *     whole small files, the ends of larger ones, symlink targets) go to
 *     the tail cblock, so the tails of many files are compressed together
 *     the way squashfs packs fragments.  A page never spans two cblocks;
 *     its cnode_offset is where it starts in the inflated cblock;
 *   - the open "raw batch" of byte-aligned items: pages of files with
 *     want_compress == 0 (AXFS_WHY_UNCOMPRESSED) and tails of at most
 *     AXFS_PACK_TAIL_MAX bytes (AXFS_WHY_TAIL; none by default, see
 *     below).
 * A full cblock is handed to a pool of threads that deflate it (a zlib
 * RFC 1950 stream, window 15, made by the chosen compressor at the chosen
 * level; see deflater.h).  Finished cblocks and raw batches are committed
 * strictly in the order they were handed over, again in the calling
 * thread: a cblock whose stream is not shorter than its data (and so may
 * exceed cblock_size, axfs(5) rule 17) is not stored compressed; its
 * pages go to the byte-aligned region
 * (AXFS_WHY_INCOMPRESSIBLE, or AXFS_WHY_TAIL for a lone tail).  Node numbers, cblock numbers and every
 * offset therefore depend only on the tree, the data and the options,
 * never on -j or timing: the spools are byte-identical for every -j.
 *
 * Reading, compressing and writing overlap: while the threads compress,
 * the calling thread reads the next files and commits finished cblocks
 * to the spools (unlinked temporary files, see pack_spool.h).
 *
 * Memory bound (besides the metadata: the tree, the plan, about 33 bytes
 * of node tables per page, 40 bytes per dedup candidate, 48 bytes per
 * full page stored in a cblock, for page sharing): a window of
 * W = 2 * threads + 3 jobs, each with an input buffer of
 * max(cblock_size, 64 KiB) and an output buffer of the compressor's bound
 * for cblock_size (a little more than cblock_size); one compressor state
 * per thread (zlib: 256 KiB at the default memLevel; libdeflate 1.14,
 * measured: 0.2 MiB at level 1, 0.65 MiB at 2 to 9, 8.6 MiB at 10 to
 * 12); a 256 KiB read buffer and a 256 KiB compare buffer; up to 1 MiB
 * for a small dedup candidate; 3 spool buffers of 256 KiB.  With zlib,
 * 2 threads and 64 KiB cblocks that is about 4 MiB, with 2 threads and
 * 1 MiB cblocks about 17 MiB, whatever the size of the tree (peak RSS of
 * a whole mkfs of a 312 MiB tree: 15 MiB, of which the tree and tables
 * are most; mksquashfs: 425 MiB); libdeflate adds 0.8 MiB to that at
 * level 9 and 17 MiB at levels 10 to 12.
 *
 * Hard links: the group's data is packed once, when the first entry of
 * the group (in inode order) is reached; every member gets the master's
 * first_node/node_count.  Identical regular files (same size, same XIP
 * plan and compress setting, same bytes: a 64-bit crc32+adler32 key then
 * a byte-by-byte comparison, re-reading the earlier file) share nodes too
 * (AXFS_WHY_DEDUP, out->dedup_files).  Only files whose size occurs more
 * than once are candidates, so unique files are never hashed.  Symlinks
 * with the same target share their node.
 *
 * Symlinks: the target plus a trailing NUL is the node data of page 0
 * (the 2008 readlink takes strlen() of the page), never XIP.
 *
 * Reasons: the packer refines only pages the planner left at
 * AXFS_WHY_DEFAULT (a page left out by the budget keeps "budget" even if
 * it ends up byte-aligned), and resets its own reasons when a tree is
 * packed again (after axfs_plan_trim).
 */
#include "axfs_packer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "axfs_format.h"
#include "deflater.h"
#include "pack_spool.h"
#include "workpool.h"

/*
 * Tails (the partial last page of a file, a symlink target + NUL) of at
 * most this many bytes go byte-aligned without trying a cblock.  A
 * byte-aligned tail costs its bytes plus a banode_offset entry; in a
 * shared cblock it costs its deflated bytes (deflate sees its neighbours)
 * plus a cnode_offset and a cnode_index entry.  Measured on a 312 MiB
 * tree (bench/BLOCKSIZE.md) every threshold from 16 to 512 bytes made the
 * image larger or no smaller (+93 bytes at 16, +34 KB at 512 with 4 KiB
 * cblocks), so by default no tail skips compression; instead a tail that
 * ends up alone in its cblock and does not shrink there is stored
 * byte-aligned (AXFS_WHY_TAIL), which is smaller by measurement.  The
 * knob stays for benchmarks: make CFLAGS=-DAXFS_PACK_TAIL_MAX=N.
 */
#ifndef AXFS_PACK_TAIL_MAX
#define AXFS_PACK_TAIL_MAX 0
#endif

/*
 * 1: tails get their own open cblock (above); 0: one stream, a tail is
 * followed by the next file's pages.  Measured on the same tree, the tail
 * cblock makes images 0.05% (4 KiB cblocks), 0.3% (16 KiB) and 0.19%
 * (64 KiB) smaller at the same CPU time; reading a whole large file then
 * inflates one more cblock (its tail's), reading many small files of one
 * directory fewer.
 */
#ifndef AXFS_PACK_TAIL_STREAM
#define AXFS_PACK_TAIL_STREAM 1
#endif

#define PACK_READ_CHUNK		(256u * 1024)	/* multiple of 4096 */
#define PACK_RAW_MIN		(64u * 1024)	/* raw batch size, at least */
#define PACK_DEDUP_INMEM_MAX	(1024u * 1024)	/* candidates read in RAM */
#define PACK_SPOOL_BUF		(256u * 1024)
#define PACK_PROGRESS_BYTES	(4u * 1024 * 1024)
#define PACK_PROGRESS_FILES	256u
#define PACK_MAX_THREADS	256
#define NODE_PENDING		0xffu

enum job_mode { JOB_CBLOCK, JOB_RAW };

struct item {
	uint64_t node;
	uint32_t off, len;		/* bytes in job->in */
	struct axfs_tree_entry *e;	/* whose pages[] to refine; NULL */
	uint64_t page;
	uint8_t reason;			/* JOB_RAW: TAIL or UNCOMPRESSED */
};

struct job {
	struct workpool_item wi;	/* first: the pool hands us &wi */
	enum job_mode mode;
	enum axfs_compressor compressor;
	int level;
	unsigned char *in;
	size_t in_len, in_cap;
	unsigned char *out;		/* out_cap bytes */
	size_t out_len, out_cap;
	int shrank, zerr;
	struct item *items;
	size_t nitems, items_cap;
	struct job *next_free;
};

/* Files with the same data (files), symlinks with the same target
 * (links) and full pages stored in cblocks (pages), found by a 64-bit key
 * of their bytes and always confirmed by comparing the bytes. */
struct dd_ent {
	uint64_t key;
	uint64_t aux;			/* files, links: size; pages: page */
	struct axfs_tree_entry *e;
	size_t next;			/* index + 1 into v, 0 ends */
};

struct dd_table {
	struct dd_ent *v;
	size_t n, cap;
	size_t *bucket;			/* index + 1, 0 empty */
	size_t nbucket;			/* power of two */
};

struct packer {
	struct axfs_tree *t;
	struct axfs_source *src;
	const struct axfs_pack_opts *o;
	struct axfs_packed *out;
	struct axfs_error *err;
	uint32_t cbs;

	struct job *jobs;
	size_t njobs;
	struct job *free_jobs;
	struct job **fifo;		/* handed over, not yet committed */
	size_t fifo_head, fifo_n;
	struct job *cur[2];		/* open cblocks: pages, tails */
	struct job *raw;		/* open raw batch */
	struct workpool *pool;

	struct pack_spool xipw, baw, cw;
	size_t node_cap, cnode_cap, banode_cap, cbo_cap;

	unsigned char *rbuf, *cbuf;	/* read / compare buffers */
	unsigned char *mbuf;		/* a small dedup candidate */
	uint8_t *cand;			/* per ino: size shared, may dedup */
	struct dd_table files, links, pages;
	struct shared_page {		/* node reuses master's place */
		uint64_t node, master;
	} *shared;
	size_t nshared, shared_cap;
	unsigned char *pbuf;		/* an earlier page, read again */
	int share_pages;		/* the source can read a page again */

	uint64_t files_done, files_total, bytes_done, bytes_total;
	uint64_t last_files, last_bytes;
};

/* ---- small helpers ------------------------------------------------------ */

static struct axfs_tree_entry *master_of(struct axfs_tree_entry *e)
{
	return e->link_master ? e->link_master : e;
}

static int is_master(const struct axfs_tree_entry *e)
{
	return !e->link_master || e->link_master == e;
}

static uint64_t npages_of(const struct axfs_tree_entry *e)
{
	return (e->size + AXFS_PAGE_SIZE - 1) / AXFS_PAGE_SIZE;
}

static int err_path(struct packer *pk, int code, int errnum,
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

static int nomem(struct packer *pk)
{
	return axfs_error_set(pk->err, AXFS_ERR_NOMEM,
			      "out of memory packing file data");
}

static int check_cancel(struct packer *pk)
{
	if (pk->o->cancel && *pk->o->cancel)
		return axfs_error_set(pk->err, AXFS_ERR_INTERRUPTED,
				      "interrupted");
	return 0;
}

static void progress(struct packer *pk, int force)
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
static int grow(void **v, size_t *cap, size_t need, size_t size)
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
		return nomem(pk);
	if (grow((void **)&out->node_index, &cap, (size_t)(out->nnodes + n),
		 sizeof(*out->node_index)) < 0)
		return nomem(pk);
	cap = pk->node_cap;
	if (grow((void **)&out->node_type, &cap, (size_t)(out->nnodes + n),
		 sizeof(*out->node_type)) < 0)
		return nomem(pk);
	pk->node_cap = cap;
	memset(out->node_type + out->nnodes, NODE_PENDING, (size_t)n);
	memset(out->node_index + out->nnodes, 0,
	       (size_t)n * sizeof(*out->node_index));
	*first = out->nnodes;
	out->nnodes += n;
	return 0;
}

/* Records why a page is byte-aligned (only over the default reason). */
static int refine_reason(struct axfs_tree_entry *e, uint64_t page,
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

static int page_is_xip(const struct axfs_tree_entry *e, uint64_t p)
{
	return e->pages && e->pages[p].xip;
}

/* ---- compression jobs ---------------------------------------------------- */

static void compress_job(struct workpool_item *it, void **state)
{
	struct job *j = (struct job *)it;
	struct deflater *d = *state;

	if (!d) {
		/* Once per thread: every job has the same compressor and
		 * level. */
		d = deflater_new(j->compressor, j->level);
		if (!d) {
			j->zerr = 1;
			return;
		}
		*state = d;
	}
	j->shrank = 0;
	j->out_len = 0;
	if (j->in_len < 2)
		return;
	/* The whole stream, into room for the longest: stored compressed
	 * only when it is shorter than the data. */
	j->out_len = deflater_run(d, j->in, j->in_len, j->out, j->out_cap);
	if (j->out_len > 0 && j->out_len < j->in_len)
		j->shrank = 1;
	else
		j->out_len = 0;
}

static void free_deflater(void *state)
{
	deflater_free(state);
}

static int job_done(struct packer *pk, struct job *j, int block)
{
	if (j->mode != JOB_CBLOCK)
		return 1;
	if (block) {
		workpool_wait(pk->pool, &j->wi);
		return 1;
	}
	return workpool_is_done(pk->pool, &j->wi);
}

static int commit_cblock(struct packer *pk, struct job *j)
{
	struct axfs_packed *out = pk->out;
	uint64_t c = out->ncblocks;
	size_t cap;
	int rc;

	if (grow((void **)&out->cblock_offset, &pk->cbo_cap,
		 (size_t)out->ncblocks + 2, sizeof(*out->cblock_offset)) < 0)
		return nomem(pk);
	if ((rc = pack_spool_write(&pk->cw, j->out, j->out_len, pk->err)) < 0)
		return rc;
	out->cblock_offset[c + 1] = out->cblock_offset[c] + j->out_len;
	out->ncblocks++;
	cap = pk->cnode_cap;
	if (grow((void **)&out->cnode_offset, &cap,
		 (size_t)out->ncnodes + j->nitems,
		 sizeof(*out->cnode_offset)) < 0)
		return nomem(pk);
	cap = pk->cnode_cap;
	if (grow((void **)&out->cnode_index, &cap,
		 (size_t)out->ncnodes + j->nitems,
		 sizeof(*out->cnode_index)) < 0)
		return nomem(pk);
	pk->cnode_cap = cap;
	for (size_t i = 0; i < j->nitems; i++) {
		const struct item *it = &j->items[i];
		uint64_t cn = out->ncnodes++;

		out->cnode_offset[cn] = it->off;
		out->cnode_index[cn] = c;
		out->node_type[it->node] = AXFS_NODE_COMPRESSED;
		out->node_index[it->node] = cn;
	}
	return 0;
}

static int commit_raw(struct packer *pk, struct job *j)
{
	struct axfs_packed *out = pk->out;
	/* A cblock holding nothing but one tail that did not shrink:
	 * the tail is smaller byte-aligned, measured by compressing it. */
	int lone_tail = j->mode == JOB_CBLOCK && j->nitems == 1 &&
			j->items[0].len < AXFS_PAGE_SIZE;
	int rc;

	if (grow((void **)&out->banode_offset, &pk->banode_cap,
		 (size_t)out->nbanodes + j->nitems,
		 sizeof(*out->banode_offset)) < 0)
		return nomem(pk);
	for (size_t i = 0; i < j->nitems; i++) {
		const struct item *it = &j->items[i];
		uint64_t bn = out->nbanodes++;

		out->banode_offset[bn] = pk->out->byte_aligned.size;
		if ((rc = pack_spool_write(&pk->baw, j->in + it->off, it->len,
				      pk->err)) < 0)
			return rc;
		out->node_type[it->node] = AXFS_NODE_BYTE_ALIGNED;
		out->node_index[it->node] = bn;
		if (refine_reason(it->e, it->page, j->mode == JOB_RAW ?
				  it->reason : lone_tail ? AXFS_WHY_TAIL :
				  AXFS_WHY_INCOMPRESSIBLE) < 0)
			return nomem(pk);
	}
	return 0;
}

/* Commits the oldest handed-over job; waits for it when `block`. */
static int commit_head(struct packer *pk, int block, int *did)
{
	struct job *j;
	int rc;

	*did = 0;
	if (!pk->fifo_n)
		return 0;
	j = pk->fifo[pk->fifo_head];
	if (!job_done(pk, j, block))
		return 0;
	if (j->zerr)
		return axfs_error_set(pk->err, AXFS_ERR_NOMEM,
				      "out of memory in the %s compressor",
				      axfs_compressor_name(j->compressor));
	rc = j->mode == JOB_CBLOCK && j->shrank ? commit_cblock(pk, j) :
						   commit_raw(pk, j);
	if (rc < 0)
		return rc;
	pk->fifo_head = (pk->fifo_head + 1) % pk->njobs;
	pk->fifo_n--;
	j->nitems = 0;
	j->in_len = 0;
	j->next_free = pk->free_jobs;
	pk->free_jobs = j;
	*did = 1;
	return 0;
}

static int commit_ready(struct packer *pk)
{
	int did, rc;

	do {
		if ((rc = commit_head(pk, 0, &did)) < 0)
			return rc;
	} while (did);
	return 0;
}

static int get_job(struct packer *pk, enum job_mode mode, struct job **out)
{
	struct job *j;
	int did, rc;

	while (!pk->free_jobs) {
		if ((rc = commit_head(pk, 1, &did)) < 0)
			return rc;
		if (!did)	/* cannot happen: W > number of open jobs */
			return axfs_error_set(pk->err, AXFS_ERR_INVALID,
					      "packer: no free job");
	}
	j = pk->free_jobs;
	pk->free_jobs = j->next_free;
	j->mode = mode;
	j->in_len = 0;
	j->nitems = 0;
	j->shrank = 0;
	j->zerr = 0;
	if (mode == JOB_CBLOCK && !j->out) {
		j->out = malloc(j->out_cap);
		if (!j->out) {
			j->next_free = pk->free_jobs;
			pk->free_jobs = j;
			return nomem(pk);
		}
	}
	*out = j;
	return 0;
}

/* Hands a job over: cblocks to the threads, raw batches straight to the
 * commit queue (they need no work but keep their place in the order). */
static int submit(struct packer *pk, struct job *j)
{
	size_t tail = (pk->fifo_head + pk->fifo_n) % pk->njobs;

	pk->fifo[tail] = j;
	pk->fifo_n++;
	if (j->mode == JOB_CBLOCK)
		workpool_submit(pk->pool, &j->wi);
	return commit_ready(pk);
}

static int add_item(struct packer *pk, struct job *j, uint64_t node,
		    const void *data, size_t len, struct axfs_tree_entry *e,
		    uint64_t page, uint8_t reason)
{
	struct item *it;

	if (grow((void **)&j->items, &j->items_cap, j->nitems + 1,
		 sizeof(*j->items)) < 0)
		return nomem(pk);
	it = &j->items[j->nitems++];
	it->node = node;
	it->off = (uint32_t)j->in_len;
	it->len = (uint32_t)len;
	it->e = e;
	it->page = page;
	it->reason = reason;
	memcpy(j->in + j->in_len, data, len);
	j->in_len += len;
	return 0;
}

static int cblock_add(struct packer *pk, uint64_t node, const void *data,
		      size_t len, struct axfs_tree_entry *e, uint64_t page)
{
	/* full pages and tails go to separate open cblocks */
	struct job **cur = &pk->cur[AXFS_PACK_TAIL_STREAM &&
				    len < AXFS_PAGE_SIZE];
	struct job *j;
	int rc;

	if (*cur && (*cur)->in_len + len > pk->cbs) {
		j = *cur;
		*cur = NULL;
		if ((rc = submit(pk, j)) < 0)
			return rc;
	}
	if (!*cur && (rc = get_job(pk, JOB_CBLOCK, cur)) < 0)
		return rc;
	if ((rc = add_item(pk, *cur, node, data, len, e, page, 0)) < 0)
		return rc;
	if ((*cur)->in_len == pk->cbs) {
		j = *cur;
		*cur = NULL;
		return submit(pk, j);
	}
	return 0;
}

static int raw_add(struct packer *pk, uint64_t node, const void *data,
		   size_t len, struct axfs_tree_entry *e, uint64_t page,
		   uint8_t reason)
{
	struct job *j;
	int rc;

	if (pk->raw && pk->raw->in_len + len > pk->raw->in_cap) {
		j = pk->raw;
		pk->raw = NULL;
		if ((rc = submit(pk, j)) < 0)
			return rc;
	}
	if (!pk->raw && (rc = get_job(pk, JOB_RAW, &pk->raw)) < 0)
		return rc;
	return add_item(pk, pk->raw, node, data, len, e, page, reason);
}

static int xip_add(struct packer *pk, uint64_t node, const void *data,
		   size_t len)
{
	struct axfs_packed *out = pk->out;
	int rc;

	if ((rc = pack_spool_write(&pk->xipw, data, len, pk->err)) < 0 ||
	    (rc = pack_spool_zeros(&pk->xipw, AXFS_PAGE_SIZE - len,
				    pk->err)) < 0)
		return rc;
	out->node_type[node] = AXFS_NODE_XIP;
	out->node_index[node] = out->xip_pages++;
	return 0;
}

/* ---- reading files ---------------------------------------------------- */

/* Reads until `want` bytes or the end of the data. */
static int read_full(struct packer *pk, void *h, unsigned char *buf,
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

static int data_open(struct packer *pk, struct axfs_tree_entry *m, void **h)
{
	*h = NULL;
	return pk->src->ops->data_open(pk->src, &m->data, h, pk->err);
}

static void data_close(struct packer *pk, void *h)
{
	if (h)
		pk->src->ops->data_close(pk->src, h);
}

/* After `size` bytes: the data must end here. */
static int expect_eof(struct packer *pk, struct axfs_tree_entry *m, void *h)
{
	unsigned char b;
	size_t got;
	int rc = read_full(pk, h, &b, 1, &got);

	if (rc < 0)
		return rc;
	if (got)
		return err_path(pk, AXFS_ERR_IO, 0, m,
				"the file grew while it was being read");
	return 0;
}

static int shrank(struct packer *pk, struct axfs_tree_entry *m)
{
	return err_path(pk, AXFS_ERR_IO, 0, m,
			"the file shrank while it was being read");
}

/* Page source: the whole file in memory, or a stream read in chunks. */
struct freader {
	struct packer *pk;
	struct axfs_tree_entry *m;
	const unsigned char *mem;
	void *h;
	uint64_t pos;			/* bytes handed out */
	size_t bpos, blen;
};

static int fr_page(struct freader *r, size_t len, const unsigned char **out)
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

		if ((rc = check_cancel(pk)) < 0 ||
		    (rc = read_full(pk, r->h, pk->rbuf, want, &got)) < 0)
			return rc;
		if (got < want)
			return shrank(pk, r->m);
		r->bpos = 0;
		r->blen = got;
		progress(pk, 0);
	}
	*out = pk->rbuf + r->bpos;
	r->bpos += len;
	r->pos += len;
	return 0;
}

/* ---- keys and the tables of files, links and pages --------------------- */

static uint64_t key_update(uint64_t key, const unsigned char *p, size_t n)
{
	uint32_t crc = (uint32_t)(key >> 32), ad = (uint32_t)key;

	crc = (uint32_t)crc32_z(crc, p, n);
	ad = (uint32_t)adler32_z(ad, p, n);
	return ((uint64_t)crc << 32) | ad;
}

static uint64_t key_init(void)
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
		  struct axfs_tree_entry *e)
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
	if (grow((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v)) < 0)
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

/* ---- identical pages ------------------------------------------------- */

/*
 * A full page bound for a cblock that equals a page already stored in a
 * cblock, of this file or another (identical files already share all
 * their nodes, see pack_candidate), is not stored again: its node takes
 * the earlier node's type and index once that one is committed
 * (resolve_shared_pages).  The driver reads a node through its own
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
 * ten times faster than key_update (crc32 + adler32), which matters
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
	data_close(pk, h);
	return rc == 0 && got == AXFS_PAGE_SIZE &&
	       !memcmp(pk->pbuf, d, AXFS_PAGE_SIZE);
}

static int share_or_store_page(struct packer *pk, struct axfs_tree_entry *m,
			       uint64_t page, uint64_t node,
			       const unsigned char *d)
{
	const struct dd_table *t = &pk->pages;
	uint64_t key = page_key(d);

	for (size_t i = dd_first(t, key); i; i = t->v[i - 1].next) {
		const struct dd_ent *c = &t->v[i - 1];

		if (c->key != key || !same_page(pk, c, d))
			continue;
		if (grow((void **)&pk->shared, &pk->shared_cap,
			 pk->nshared + 1, sizeof(*pk->shared)) < 0 ||
		    refine_reason(m, page, AXFS_WHY_DEDUP) < 0)
			return nomem(pk);
		pk->shared[pk->nshared].node = node;
		pk->shared[pk->nshared].master = c->e->first_node + c->aux;
		pk->nshared++;
		pk->out->dedup_pages++;
		return 0;
	}
	if (dd_add(&pk->pages, key, page, m) < 0)
		return nomem(pk);
	return cblock_add(pk, node, d, AXFS_PAGE_SIZE, m, page);
}

/* After the last commit: every shared page's node gets its twin's place. */
static void resolve_shared_pages(struct packer *pk)
{
	struct axfs_packed *out = pk->out;

	for (size_t i = 0; i < pk->nshared; i++) {
		const struct shared_page *q = &pk->shared[i];

		out->node_type[q->node] = out->node_type[q->master];
		out->node_index[q->node] = out->node_index[q->master];
	}
}

/* ---- storing a file --------------------------------------------------- */

/* Stores the pages of master m as the plan says; nodes are allocated. */
static int pack_pages(struct packer *pk, struct freader *r)
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

		if ((rc = fr_page(r, len, &d)) < 0)
			return rc;
		if (page_is_xip(m, p))
			rc = xip_add(pk, first + p, d, len);
		else if (nocomp)
			rc = raw_add(pk, first + p, d, len, m, p,
				     AXFS_WHY_UNCOMPRESSED);
		else if (len < AXFS_PAGE_SIZE && len <= AXFS_PACK_TAIL_MAX)
			rc = raw_add(pk, first + p, d, len, m, p,
				     AXFS_WHY_TAIL);
		else if (len == AXFS_PAGE_SIZE && pk->share_pages)
			rc = share_or_store_page(pk, m, p, first + p, d);
		else
			rc = cblock_add(pk, first + p, d, len, m, p);
		if (rc < 0)
			return rc;
		pk->bytes_done += len;
	}
	return 0;
}

static int pack_stream(struct packer *pk, struct axfs_tree_entry *m)
{
	struct freader r = { .pk = pk, .m = m };
	int rc;

	if ((rc = data_open(pk, m, &r.h)) < 0)
		return rc;
	rc = pack_pages(pk, &r);
	if (rc == 0)
		rc = expect_eof(pk, m, r.h);
	data_close(pk, r.h);
	return rc;
}

/* ---- identical files -------------------------------------------------- */

/* Same pages XIP and the same compress choice: the nodes can be shared. */
static int same_plan(const struct axfs_tree_entry *a,
		     const struct axfs_tree_entry *b)
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

/*
 * Compares the data of a (re-read through the source) with b: in memory
 * when bmem is given, else re-read too.  1 equal, 0 different, <0 error.
 */
static int same_bytes(struct packer *pk, struct axfs_tree_entry *a,
		      struct axfs_tree_entry *b, const unsigned char *bmem)
{
	void *ha = NULL, *hb = NULL;
	uint64_t pos = 0;
	int rc, same = 1;

	if ((rc = data_open(pk, a, &ha)) < 0)
		return rc;
	if (!bmem && (rc = data_open(pk, b, &hb)) < 0)
		goto out;
	while (pos < a->size && same) {
		uint64_t left = a->size - pos;
		size_t want = left < PACK_READ_CHUNK ? (size_t)left :
						       PACK_READ_CHUNK;
		size_t ga, gb;

		if ((rc = check_cancel(pk)) < 0 ||
		    (rc = read_full(pk, ha, pk->cbuf, want, &ga)) < 0)
			goto out;
		if (ga < want) {
			rc = shrank(pk, a);
			goto out;
		}
		if (bmem) {
			same = !memcmp(pk->cbuf, bmem + pos, want);
		} else {
			if ((rc = read_full(pk, hb, pk->rbuf, want, &gb)) < 0)
				goto out;
			if (gb < want) {
				rc = shrank(pk, b);
				goto out;
			}
			same = !memcmp(pk->cbuf, pk->rbuf, want);
		}
		pos += want;
	}
	rc = same;
out:
	data_close(pk, ha);
	data_close(pk, hb);
	return rc;
}

/* An earlier file with the same bytes and plan, or NULL (rc < 0: error). */
static struct axfs_tree_entry *dd_find(struct packer *pk,
				       struct axfs_tree_entry *m, uint64_t key,
				       const unsigned char *mem, int *rc)
{
	const struct dd_table *d = &pk->files;

	*rc = 0;
	for (size_t i = dd_first(d, key); i; i = d->v[i - 1].next) {
		const struct dd_ent *de = &d->v[i - 1];

		if (de->aux != m->size || de->key != key ||
		    !same_plan(de->e, m))
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

static int share_nodes(struct packer *pk, struct axfs_tree_entry *m,
		       const struct axfs_tree_entry *a)
{
	uint64_t n = npages_of(m);

	m->first_node = a->first_node;
	m->node_count = a->node_count;
	m->packed = 1;
	for (uint64_t p = 0; p < n; p++)
		if (!page_is_xip(m, p) &&
		    refine_reason(m, p, AXFS_WHY_DEDUP) < 0)
			return nomem(pk);
	pk->out->dedup_files++;
	pk->bytes_done += m->size;
	return 0;
}

/* A file whose size is shared: find its twin or pack it. */
static int pack_candidate(struct packer *pk, struct axfs_tree_entry *m)
{
	struct axfs_tree_entry *twin;
	uint64_t key = key_init();
	void *h = NULL;
	int rc;

	if ((rc = data_open(pk, m, &h)) < 0)
		return rc;
	if (m->size <= PACK_DEDUP_INMEM_MAX) {
		size_t got;

		rc = read_full(pk, h, pk->mbuf, (size_t)m->size, &got);
		if (rc == 0 && got < m->size)
			rc = shrank(pk, m);
		if (rc == 0)
			rc = expect_eof(pk, m, h);
		data_close(pk, h);
		if (rc < 0)
			return rc;
		key = key_update(key, pk->mbuf, (size_t)m->size);
		twin = dd_find(pk, m, key, pk->mbuf, &rc);
		if (rc < 0)
			return rc;
		if (twin)
			return share_nodes(pk, m, twin);
		struct freader r = { .pk = pk, .m = m, .mem = pk->mbuf };

		rc = pack_pages(pk, &r);
	} else {
		uint64_t pos = 0;

		/* Large: one pass for the key, a second to store it. */
		while (rc == 0 && pos < m->size) {
			uint64_t left = m->size - pos;
			size_t want = left < PACK_READ_CHUNK ? (size_t)left :
							       PACK_READ_CHUNK;
			size_t got;

			rc = check_cancel(pk);
			if (rc == 0)
				rc = read_full(pk, h, pk->rbuf, want, &got);
			if (rc == 0 && got < want)
				rc = shrank(pk, m);
			if (rc == 0)
				key = key_update(key, pk->rbuf, want);
			pos += want;
		}
		if (rc == 0)
			rc = expect_eof(pk, m, h);
		data_close(pk, h);
		if (rc < 0)
			return rc;
		twin = dd_find(pk, m, key, NULL, &rc);
		if (rc < 0)
			return rc;
		if (twin)
			return share_nodes(pk, m, twin);
		rc = pack_stream(pk, m);
	}
	if (rc == 0 && dd_add(&pk->files, key, m->size, m) < 0)
		rc = nomem(pk);
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
		return pack_candidate(pk, m);
	return pack_stream(pk, m);
}

static int pack_symlink(struct packer *pk, struct axfs_tree_entry *e)
{
	size_t len = e->link_target ? strlen(e->link_target) : 0;
	uint64_t key, node;
	struct dd_table *d = &pk->links;
	int rc;

	if (len == 0 || len != e->size || len + 1 > AXFS_PAGE_SIZE)
		return err_path(pk, AXFS_ERR_LIMIT, 0, e,
				"a symlink target must be 1 to 4095 bytes");
	key = key_update(key_init(), (const unsigned char *)e->link_target,
			 len);
	for (size_t i = dd_first(d, key); i; i = d->v[i - 1].next) {
		const struct dd_ent *de = &d->v[i - 1];

		if (de->aux == len && de->key == key &&
		    !strcmp(de->e->link_target, e->link_target)) {
			e->first_node = de->e->first_node;
			e->node_count = 1;
			e->packed = 1;
			return 0;
		}
	}
	if ((rc = alloc_nodes(pk, 1, &node)) < 0)
		return rc;
	e->first_node = node;
	e->node_count = 1;
	e->packed = 1;
	/* The target and its NUL (axfs(5) rule 21). */
	if (len + 1 <= AXFS_PACK_TAIL_MAX)
		rc = raw_add(pk, node, e->link_target, len + 1, NULL, 0,
			     AXFS_WHY_TAIL);
	else
		rc = cblock_add(pk, node, e->link_target, len + 1, NULL, 0);
	if (rc == 0 && dd_add(d, key, len, e) < 0)
		rc = nomem(pk);
	return rc;
}

/* ---- setup, the main loop, teardown --------------------------------- */

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

/* Resets what an earlier packing left, counts totals, marks candidates. */
static int prepare(struct packer *pk)
{
	struct axfs_tree *t = pk->t;
	struct size_ino *v;
	size_t n = 0;

	pk->cand = calloc(t->count ? t->count : 1, 1);
	v = malloc((t->count ? t->count : 1) * sizeof(*v));
	if (!pk->cand || !v) {
		free(v);
		return nomem(pk);
	}
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
		if (e->size) {
			v[n].size = e->size;
			v[n].ino = e->ino;
			n++;
		}
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

static unsigned int thread_count(int jobs)
{
	long n = jobs;

	if (n <= 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		if (n < 1)
			n = 1;
	}
	return n > PACK_MAX_THREADS ? PACK_MAX_THREADS : (unsigned int)n;
}

static int setup(struct packer *pk)
{
	const struct axfs_pack_opts *o = pk->o;
	struct axfs_packed *out = pk->out;
	unsigned int nt = thread_count(o->jobs);
	size_t in_cap = pk->cbs > PACK_RAW_MIN ? pk->cbs : PACK_RAW_MIN;
	int rc;

	pack_spool_init(&pk->xipw, &out->xip, o->tmpdir, "XIP",
			  PACK_SPOOL_BUF);
	pack_spool_init(&pk->baw, &out->byte_aligned, o->tmpdir,
			  "byte-aligned", PACK_SPOOL_BUF);
	pack_spool_init(&pk->cw, &out->compressed, o->tmpdir,
			  "compressed", PACK_SPOOL_BUF);
	out->cblock_size = pk->cbs;
	if (grow((void **)&out->cblock_offset, &pk->cbo_cap, 1,
		 sizeof(*out->cblock_offset)) < 0)
		return nomem(pk);
	out->cblock_offset[0] = 0;

	/* Three open jobs (two cblocks, a raw batch) plus two per thread in
	 * flight. */
	pk->jobs = calloc(2 * (size_t)nt + 3, sizeof(*pk->jobs));
	pk->fifo = calloc(2 * (size_t)nt + 3, sizeof(*pk->fifo));
	if (pk->jobs)
		pk->njobs = 2 * (size_t)nt + 3;
	pk->rbuf = malloc(PACK_READ_CHUNK);
	pk->cbuf = malloc(PACK_READ_CHUNK);
	pk->mbuf = malloc(PACK_DEDUP_INMEM_MAX);
	pk->pbuf = malloc(AXFS_PAGE_SIZE);
	if (!pk->jobs || !pk->fifo || !pk->rbuf || !pk->cbuf || !pk->mbuf ||
	    !pk->pbuf)
		return nomem(pk);
	pk->share_pages = pk->src->ops->data_pread != NULL;
	for (size_t i = 0; i < pk->njobs; i++) {
		struct job *j = &pk->jobs[i];

		j->compressor = axfs_compressor_resolve(o->compressor);
		j->level = o->level;
		j->in_cap = in_cap;
		j->out_cap = deflater_bound(j->compressor, pk->cbs);
		j->in = malloc(in_cap);
		if (!j->in)
			return nomem(pk);
		j->next_free = pk->free_jobs;
		pk->free_jobs = j;
	}
	rc = workpool_create(&pk->pool, nt, compress_job, free_deflater);
	if (rc)
		return axfs_error_sys(pk->err, rc, "cannot start %u "
				      "compression threads", nt);
	return 0;
}

static void teardown(struct packer *pk)
{
	workpool_destroy(pk->pool);	/* first: threads may hold jobs */
	pk->pool = NULL;
	for (size_t i = 0; i < pk->njobs; i++) {
		free(pk->jobs[i].in);
		free(pk->jobs[i].out);
		free(pk->jobs[i].items);
	}
	free(pk->jobs);
	free(pk->fifo);
	free(pk->rbuf);
	free(pk->cbuf);
	free(pk->mbuf);
	free(pk->pbuf);
	free(pk->shared);
	free(pk->cand);
	dd_free(&pk->files);
	dd_free(&pk->links);
	dd_free(&pk->pages);
	pack_spool_release(&pk->xipw);
	pack_spool_release(&pk->baw);
	pack_spool_release(&pk->cw);
}

/* Hard-link members take their master's nodes and a copy of its plan. */
static int finish_links(struct packer *pk)
{
	struct axfs_tree *t = pk->t;

	for (size_t i = 0; i < t->count; i++) {
		struct axfs_tree_entry *e = t->by_ino[i];
		struct axfs_tree_entry *m;
		uint64_t n;

		if (e->type != AXFS_FT_REG || is_master(e))
			continue;
		m = e->link_master;
		e->first_node = m->first_node;
		e->node_count = m->node_count;
		e->packed = 1;
		free(e->pages);
		e->pages = NULL;
		n = npages_of(m);
		if (!m->pages || !n)
			continue;
		e->pages = malloc((size_t)n * sizeof(*e->pages));
		if (!e->pages)
			return nomem(pk);
		memcpy(e->pages, m->pages, (size_t)n * sizeof(*e->pages));
	}
	return 0;
}

static int pack_all(struct packer *pk)
{
	struct axfs_tree *t = pk->t;
	struct job *j;
	int did, rc;

	for (size_t i = 0; i < t->count; i++) {
		struct axfs_tree_entry *e = t->by_ino[i];

		if (e->type == AXFS_FT_REG) {
			struct axfs_tree_entry *m = master_of(e);

			if ((rc = check_cancel(pk)) < 0)
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
		progress(pk, 0);
	}
	for (int k = 0; k < 2; k++) {
		if ((j = pk->cur[k])) {
			pk->cur[k] = NULL;
			if ((rc = submit(pk, j)) < 0)
				return rc;
		}
	}
	if ((j = pk->raw)) {
		pk->raw = NULL;
		if ((rc = submit(pk, j)) < 0)
			return rc;
	}
	while (pk->fifo_n)
		if ((rc = commit_head(pk, 1, &did)) < 0)
			return rc;
	if ((rc = pack_spool_flush(&pk->xipw, pk->err)) < 0 ||
	    (rc = pack_spool_flush(&pk->baw, pk->err)) < 0 ||
	    (rc = pack_spool_flush(&pk->cw, pk->err)) < 0)
		return rc;
	resolve_shared_pages(pk);
	for (uint64_t n = 0; n < pk->out->nnodes; n++)
		if (pk->out->node_type[n] == NODE_PENDING)
			return axfs_error_set(pk->err, AXFS_ERR_INVALID,
					      "packer: node %llu was not "
					      "stored", (unsigned long long)n);
	if ((rc = finish_links(pk)) < 0)
		return rc;
	progress(pk, 1);
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
	pk.cbs = o->cblock_size;
	rc = setup(&pk);
	if (rc == 0)
		rc = prepare(&pk);
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
