// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pack_jobs.c - where the packer's pages go, and the threads that
 * compress them (see pack/internal.h for the packer's other files).
 *
 * Each page is appended to one of:
 *   - the XIP spool, when the plan says so: a full 4096-byte page, the
 *     last partial page zero-padded (the driver always copies 4096 bytes);
 *   - one of two open cblocks, filled in inode order: full pages go to
 *     the page cblock (always exactly full), tails (partial last pages:
 *     whole small files, the ends of larger ones, symlink targets) go to
 *     the tail cblock, so the tails of many files are compressed together
 *     the way squashfs packs fragments.  A page never spans two cblocks;
 *     its cnode_offset is where it starts in the inflated cblock;
 *   - the open "raw batch" of byte-aligned items: pages of files with
 *     want_compress == 0 (TREE_WHY_UNCOMPRESSED) and tails of at most
 *     PACK_TAIL_MAX bytes (TREE_WHY_TAIL).
 * A full cblock is handed to a pool of threads that deflate it (a zlib
 * RFC 1950 stream, window 15, made by the chosen compressor at the chosen
 * level; see deflater.h).  Finished cblocks and raw batches are committed
 * strictly in the order they were handed over, in the calling thread: a
 * cblock whose stream is not shorter than its data (and so may exceed
 * cblock_size, axfs(5) rule 17) is not stored compressed; its pages go to
 * the byte-aligned region (TREE_WHY_INCOMPRESSIBLE, or TREE_WHY_TAIL for
 * a lone tail).  Node numbers, cblock numbers and every offset therefore
 * depend only on the tree, the data and the options, never on -j or
 * timing: the spools are byte-identical for every -j.
 *
 * A window of W = 2 * threads + 3 jobs (two open cblocks, a raw batch,
 * two per thread in flight), each with an input buffer of
 * max(cblock_size, 64 KiB) and an output buffer of the compressor's bound
 * for cblock_size; one compressor state per thread.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deflater.h"

#define PACK_RAW_MIN		(64u * 1024)	/* raw batch size, at least */
#define PACK_SPOOL_BUF		(256u * 1024)
#define PACK_MAX_THREADS	256

static void compress_job(struct workpool_item *it, void **state)
{
	struct pack_job *j = (struct pack_job *)it;
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

static int job_done(struct packer *pk, struct pack_job *j, int block)
{
	if (j->mode != JOB_CBLOCK)
		return 1;
	if (block) {
		workpool_wait(pk->pool, &j->wi);
		return 1;
	}
	return workpool_is_done(pk->pool, &j->wi);
}

static int commit_cblock(struct packer *pk, struct pack_job *j)
{
	struct pack_result *out = pk->out;
	uint64_t c = out->ncblocks;
	size_t cap;
	int rc;

	if (pack_grow((void **)&out->cblock_offset, &pk->cbo_cap,
		 (size_t)out->ncblocks + 2, sizeof(*out->cblock_offset)) < 0)
		return pack_nomem(pk);
	if ((rc = pack_spool_write(&pk->compressed_spool, j->out, j->out_len, pk->err)) < 0)
		return rc;
	out->cblock_offset[c + 1] = out->cblock_offset[c] + j->out_len;
	out->ncblocks++;
	cap = pk->cnode_cap;
	if (pack_grow((void **)&out->cnode_offset, &cap,
		 (size_t)out->ncnodes + j->nitems,
		 sizeof(*out->cnode_offset)) < 0)
		return pack_nomem(pk);
	cap = pk->cnode_cap;
	if (pack_grow((void **)&out->cnode_index, &cap,
		 (size_t)out->ncnodes + j->nitems,
		 sizeof(*out->cnode_index)) < 0)
		return pack_nomem(pk);
	pk->cnode_cap = cap;
	for (size_t i = 0; i < j->nitems; i++) {
		const struct item *it = &j->items[i];
		uint64_t cn = out->ncnodes++;

		out->cnode_offset[cn] = it->off;
		out->cnode_index[cn] = c;
		pack_node_set(out, it->node, AXFS_NODE_COMPRESSED, cn);
	}
	return 0;
}

static int commit_raw(struct packer *pk, struct pack_job *j)
{
	struct pack_result *out = pk->out;
	/* A cblock holding nothing but one tail that did not shrink:
	 * the tail is smaller byte-aligned, measured by compressing it. */
	int lone_tail = j->mode == JOB_CBLOCK && j->nitems == 1 &&
			j->items[0].len < AXFS_PAGE_SIZE;
	int rc;

	if (pack_grow((void **)&out->banode_offset, &pk->banode_cap,
		 (size_t)out->nbanodes + j->nitems,
		 sizeof(*out->banode_offset)) < 0)
		return pack_nomem(pk);
	for (size_t i = 0; i < j->nitems; i++) {
		const struct item *it = &j->items[i];
		uint64_t bn = out->nbanodes++;

		out->banode_offset[bn] = pk->out->byte_aligned.size;
		if ((rc = pack_spool_write(&pk->byte_aligned_spool, j->in + it->off, it->len,
				      pk->err)) < 0)
			return rc;
		pack_node_set(out, it->node, AXFS_NODE_BYTE_ALIGNED, bn);
		if (pack_refine_reason(pk, it->e, it->page, j->mode == JOB_RAW ?
				  it->reason : lone_tail ? TREE_WHY_TAIL :
				  TREE_WHY_INCOMPRESSIBLE) < 0)
			return pack_nomem(pk);
	}
	return 0;
}

/* Commits the oldest handed-over job; waits for it when `block`. */
static int commit_head(struct packer *pk, int block, int *did)
{
	struct pack_job *j;
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

static int get_job(struct packer *pk, enum pack_job_mode mode, struct pack_job **out)
{
	struct pack_job *j;
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
			return pack_nomem(pk);
		}
	}
	*out = j;
	return 0;
}

/* Hands a job over: cblocks to the threads, raw batches straight to the
 * commit queue (they need no work but keep their place in the order). */
static int submit(struct packer *pk, struct pack_job *j)
{
	size_t tail = (pk->fifo_head + pk->fifo_n) % pk->njobs;

	pk->fifo[tail] = j;
	pk->fifo_n++;
	if (j->mode == JOB_CBLOCK)
		workpool_submit(pk->pool, &j->wi);
	return commit_ready(pk);
}

static int add_item(struct packer *pk, struct pack_job *j, uint64_t node,
		    const void *data, size_t len, struct tree_entry *e,
		    uint64_t page, uint8_t reason)
{
	struct item *it;

	if (pack_grow((void **)&j->items, &j->items_cap, j->nitems + 1,
		 sizeof(*j->items)) < 0)
		return pack_nomem(pk);
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

int pack_cblock_add(struct packer *pk, uint64_t node, const void *data,
		    size_t len, struct tree_entry *e, uint64_t page)
{
	/* full pages and tails go to separate open cblocks, except in the
	 * boot order (pack_order.c), which one stream keeps */
	struct pack_job **cur = &pk->cur[!pk->hot_pass && PACK_TAIL_STREAM &&
				    len < AXFS_PAGE_SIZE];
	struct pack_job *j;
	int rc;

	if (*cur && (*cur)->in_len + len > pk->cblock_size) {
		j = *cur;
		*cur = NULL;
		if ((rc = submit(pk, j)) < 0)
			return rc;
	}
	if (!*cur && (rc = get_job(pk, JOB_CBLOCK, cur)) < 0)
		return rc;
	if ((rc = add_item(pk, *cur, node, data, len, e, page, 0)) < 0)
		return rc;
	if ((*cur)->in_len == pk->cblock_size) {
		j = *cur;
		*cur = NULL;
		return submit(pk, j);
	}
	return 0;
}

int pack_cblock_close(struct packer *pk)
{
	struct pack_job *j = pk->cur[0];

	if (!j)
		return 0;
	pk->cur[0] = NULL;
	return submit(pk, j);
}

int pack_raw_add(struct packer *pk, uint64_t node, const void *data,
		 size_t len, struct tree_entry *e, uint64_t page,
		 uint8_t reason)
{
	struct pack_job *j;
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

int pack_xip_add(struct packer *pk, uint64_t node, const void *data,
		 size_t len)
{
	struct pack_result *out = pk->out;
	int rc;

	if ((rc = pack_spool_write(&pk->xip_spool, data, len, pk->err)) < 0 ||
	    (rc = pack_spool_zeros(&pk->xip_spool, AXFS_PAGE_SIZE - len,
				    pk->err)) < 0)
		return rc;
	pack_node_set(out, node, AXFS_NODE_XIP, out->xip_pages++);
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

/* The spools, the first cblock offset, the jobs and the threads. */
int pack_jobs_start(struct packer *pk)
{
	const struct pack_opts *o = pk->o;
	struct pack_result *out = pk->out;
	unsigned int nt = thread_count(o->jobs);
	size_t in_cap = pk->cblock_size > PACK_RAW_MIN ? pk->cblock_size :
							 PACK_RAW_MIN;
	int rc;

	pack_spool_init(&pk->xip_spool, &out->xip, o->tmpdir, "XIP",
			PACK_SPOOL_BUF);
	pack_spool_init(&pk->byte_aligned_spool, &out->byte_aligned,
			o->tmpdir, "byte-aligned", PACK_SPOOL_BUF);
	pack_spool_init(&pk->compressed_spool, &out->compressed, o->tmpdir,
			"compressed", PACK_SPOOL_BUF);
	out->cblock_size = pk->cblock_size;
	if (pack_grow((void **)&out->cblock_offset, &pk->cbo_cap, 1,
		      sizeof(*out->cblock_offset)) < 0)
		return pack_nomem(pk);
	out->cblock_offset[0] = 0;

	/* Three open jobs (two cblocks, a raw batch) plus two per thread in
	 * flight. */
	pk->jobs = calloc(2 * (size_t)nt + 3, sizeof(*pk->jobs));
	pk->fifo = calloc(2 * (size_t)nt + 3, sizeof(*pk->fifo));
	if (!pk->jobs || !pk->fifo)
		return pack_nomem(pk);
	pk->njobs = 2 * (size_t)nt + 3;
	for (size_t i = 0; i < pk->njobs; i++) {
		struct pack_job *j = &pk->jobs[i];

		j->compressor = axfs_compressor_resolve(o->compressor);
		j->level = o->level;
		j->in_cap = in_cap;
		j->out_cap = deflater_bound(j->compressor, pk->cblock_size);
		j->in = malloc(in_cap);
		if (!j->in)
			return pack_nomem(pk);
		j->next_free = pk->free_jobs;
		pk->free_jobs = j;
	}
	rc = workpool_create(&pk->pool, nt, compress_job, free_deflater);
	if (rc)
		return axfs_error_sys(pk->err, rc, "cannot start %u "
				      "compression threads", nt);
	return 0;
}

/* After the last file: hands over the open jobs, commits every job and
 * flushes the spools. */
int pack_jobs_finish(struct packer *pk)
{
	struct pack_job *j;
	int did, rc;

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
	if ((rc = pack_spool_flush(&pk->xip_spool, pk->err)) < 0 ||
	    (rc = pack_spool_flush(&pk->byte_aligned_spool, pk->err)) < 0 ||
	    (rc = pack_spool_flush(&pk->compressed_spool, pk->err)) < 0)
		return rc;
	return 0;
}

void pack_jobs_stop(struct packer *pk)
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
	pack_spool_release(&pk->xip_spool);
	pack_spool_release(&pk->byte_aligned_spool);
	pack_spool_release(&pk->compressed_spool);
}
