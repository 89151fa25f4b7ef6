/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pack/internal.h - the packer's shared state, internal to libaxfsimg.
 * The packer (packer.h) is cut in eight; calls run down this list,
 * never back up:
 *   packer.c      the orchestrator: one pass over the tree in inode order,
 *                 symlinks, hard links, setup and teardown;
 *   pack_data.c   a file's data, read once, every page sent to its place;
 *                 a file another has the size of shares an identical
 *                 earlier file's nodes instead;
 *   pack_dedup.c  identical files, symlink targets and full pages: keys,
 *                 tables, byte-by-byte comparisons;
 *   pack_order.c  the boot order: ranked pages kept aside, then stored in
 *                 rank order in the first cblocks of the region;
 *   pack_jobs.c   where pages go: the XIP spool, open cblocks and raw
 *                 batches, the compression threads and the commit queue
 *                 that writes results to the spools and node tables in the
 *                 order they were handed over;
 *   pack_read.c   a file's data read through the source, holes skipped;
 *   pack_nodes.c  the node tables as runs: a node stored on its own gets
 *                 a slot, a run of nodes sharing one place (a hole) is one
 *                 entry;
 *   pack_util.c   errors, progress, arrays, reasons.
 */
#ifndef LIBAXFSIMG_PACK_INTERNAL_H
#define LIBAXFSIMG_PACK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "axfs_format.h"
#include "packer.h"
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
 * byte-aligned (TREE_WHY_TAIL), which is smaller by measurement.  The
 * knob stays for benchmarks: make CFLAGS=-DAXFS_PACK_TAIL_MAX=N.
 */
#ifndef PACK_TAIL_MAX
#define PACK_TAIL_MAX 0
#endif

/*
 * 1: tails get their own open cblock (above); 0: one stream, a tail is
 * followed by the next file's pages.  Measured on the same tree, the tail
 * cblock makes images 0.05% (4 KiB cblocks), 0.3% (16 KiB) and 0.19%
 * (64 KiB) smaller at the same CPU time; reading a whole large file then
 * inflates one more cblock (its tail's), reading many small files of one
 * directory fewer.
 */
#ifndef PACK_TAIL_STREAM
#define PACK_TAIL_STREAM 1
#endif

#define PACK_READ_CHUNK		(256u * 1024)	/* multiple of 4096 */
#define PACK_DEDUP_INMEM_MAX	(1024u * 1024)	/* candidates read in RAM */
#define NODE_PENDING		0xffu

enum pack_job_mode { JOB_CBLOCK, JOB_RAW };

struct item {
	uint64_t node;
	uint32_t off, len;		/* bytes in job->in */
	struct tree_entry *e;		/* whose pages[] to refine; NULL */
	uint64_t page;
	uint8_t reason;			/* JOB_RAW: TAIL or UNCOMPRESSED */
};

struct pack_job {
	struct workpool_item wi;	/* first: the pool hands us &wi */
	enum pack_job_mode mode;
	enum axfs_compressor compressor;
	int level;
	unsigned char *in;
	size_t in_len, in_cap;
	unsigned char *out;		/* out_cap bytes */
	size_t out_len, out_cap;
	int shrank, zerr;
	struct item *items;
	size_t nitems, items_cap;
	struct pack_job *next_free;
};

/* Files with the same data (files), symlinks with the same target
 * (links) and full pages stored in cblocks (pages), found by a 64-bit key
 * of their bytes and always confirmed by comparing the bytes. */
struct dd_ent {
	uint64_t key;
	uint64_t aux;			/* files, links: size; pages: page */
	struct tree_entry *e;
	size_t next;			/* index + 1 into v, 0 ends */
};

struct dd_table {
	struct dd_ent *v;
	size_t n, cap;
	size_t *bucket;			/* index + 1, 0 empty */
	size_t nbucket;			/* power of two */
};

struct packer {
	struct tree *t;
	struct source *src;
	const struct pack_opts *o;
	struct pack_result *out;
	struct axfs_error *err;
	uint32_t cblock_size;

	/* pack_jobs.c */
	struct pack_job *jobs;
	size_t njobs;
	struct pack_job *free_jobs;
	struct pack_job **fifo;		/* handed over, not yet committed */
	size_t fifo_head, fifo_n;
	struct pack_job *cur[2];		/* open cblocks: pages, tails */
	struct pack_job *raw;		/* open raw batch */
	struct workpool *pool;
	struct pack_spool xip_spool, byte_aligned_spool, compressed_spool;
	size_t slot_cap, run_cap, reason_cap, cnode_cap, banode_cap, cbo_cap;

	unsigned char *rbuf;		/* file data read in chunks */

	/* pack_dedup.c */
	unsigned char *cbuf;		/* an earlier file, read again */
	unsigned char *mbuf;		/* a small dedup candidate */
	uint8_t *cand;			/* per ino: size shared, may dedup */
	struct dd_table files, links, pages;
	unsigned char *pbuf;		/* an earlier page, read again */
	int share_pages;		/* the source can read a page again */
	/* The first all-zero full page stored in a cblock: node + 1 (0:
	 * none yet).  Later zero pages (the holes of sparse files) share
	 * it without a hash, a lookup or a re-read of the earlier file. */
	uint64_t zero_node;

	/* pack_order.c: ranked pages kept aside until the cold cblocks
	 * are committed */
	struct pack_spool hot_spool;
	struct pack_spool_file hot_file;
	struct pack_hot *hot;
	size_t nhot, hot_cap;
	int hot_pass;			/* storing them: one cblock stream */

	uint64_t files_done, files_total, bytes_done, bytes_total;
	uint64_t last_files, last_bytes;
};

/* Page source: the whole file in memory, or a stream read in chunks. */
struct freader {
	struct packer *pk;
	struct tree_entry *m;
	const unsigned char *mem;
	void *h;
	uint64_t pos;			/* bytes handed out */
	size_t bpos, blen;
	uint64_t upto;			/* next read: at most this (0: any) */
};

static inline struct tree_entry *master_of(struct tree_entry *e)
{
	return e->link_master ? e->link_master : e;
}

static inline int is_master(const struct tree_entry *e)
{
	return !e->link_master || e->link_master == e;
}

static inline uint64_t npages_of(const struct tree_entry *e)
{
	return (e->size + AXFS_PAGE_SIZE - 1) / AXFS_PAGE_SIZE;
}

static inline int page_is_xip(const struct tree_entry *e, uint64_t p)
{
	return e->pages && e->pages[p].xip;
}

/* pack_util.c: errors, progress, arrays, reasons. */
int pack_nomem(struct packer *pk);
int pack_err_path(struct packer *pk, int code, int errnum,
		  const struct tree_entry *e, const char *what);
int pack_check_cancel(struct packer *pk);
void pack_progress(struct packer *pk, int force);
int pack_grow(void **v, size_t *cap, size_t need, size_t size);
int pack_refine_reason(struct packer *pk, struct tree_entry *e,
		       uint64_t page, uint8_t reason);
void pack_reasons_sort(struct pack_result *out);
int pack_same_plan(const struct tree_entry *a, const struct tree_entry *b);

/* pack_nodes.c: the node tables (struct pack_result's runs and slots).
 * Nodes are numbered (pack_alloc_nodes: n more, *first the first) then
 * visited once each, in node order: stored on their own (pack_node_own,
 * before the page goes to a region) or sharing an earlier node's place
 * (pack_node_share: n nodes from `node`, one run).  pack_node_set records
 * where a visited node's page landed; pack_nodes_check that every node
 * was visited and every page landed. */
int pack_alloc_nodes(struct packer *pk, uint64_t n, uint64_t *first);
int pack_node_own(struct packer *pk, uint64_t node);
int pack_node_share(struct packer *pk, uint64_t node, uint64_t master,
		    uint64_t n);
void pack_node_set(struct pack_result *out, uint64_t node, uint8_t type,
		   uint64_t index);
int pack_nodes_check(struct packer *pk);

/* pack_read.c: reading a file through the source. */
int pack_shrank(struct packer *pk, struct tree_entry *m);
int pack_read_full(struct packer *pk, void *h, unsigned char *buf,
		   size_t want, size_t *got);
int pack_data_open(struct packer *pk, struct tree_entry *m, void **h);
void pack_data_close(struct packer *pk, void *h);
int pack_expect_eof(struct packer *pk, struct tree_entry *m, void *h);
/* The hole at h's position (at most max bytes; 0: data, or the source
 * knows no holes) and the data after it; skipping it. */
int pack_hole_at(struct packer *pk, void *h, uint64_t max, uint64_t *len,
		 uint64_t *data);
int pack_skip(struct packer *pk, void *h, uint64_t len);

/* pack_data.c: storing a file's pages. */
int pack_file_pages(struct packer *pk, struct freader *r);
int pack_file_stream(struct packer *pk, struct tree_entry *m);
int pack_file_dedup(struct packer *pk, struct tree_entry *m);

/* pack_jobs.c */
int pack_jobs_start(struct packer *pk);
int pack_jobs_finish(struct packer *pk);
void pack_jobs_stop(struct packer *pk);
int pack_cblock_add(struct packer *pk, uint64_t node, const void *data,
		    size_t len, struct tree_entry *e, uint64_t page);
/* Hands over the open page cblock, if any: the next page starts a new
 * one. */
int pack_cblock_close(struct packer *pk);
int pack_raw_add(struct packer *pk, uint64_t node, const void *data,
		 size_t len, struct tree_entry *e, uint64_t page,
		 uint8_t reason);
int pack_xip_add(struct packer *pk, uint64_t node, const void *data,
		 size_t len);

/* pack_order.c: a page bound for a cblock goes through here (kept aside
 * when it is ranked); pack_order_finish stores the kept pages after the
 * others and moves their cblocks in front. */
void pack_order_start(struct packer *pk);
void pack_order_stop(struct packer *pk);
/* Before packing: files with the same bytes get each other's ranks. */
int pack_order_share_ranks(struct packer *pk);
int pack_order_cblock_add(struct packer *pk, uint64_t node, const void *data,
			  size_t len, struct tree_entry *e, uint64_t page);
int pack_order_finish(struct packer *pk);

/* pack_dedup.c */
int pack_dedup_start(struct packer *pk);
void pack_dedup_stop(struct packer *pk);
uint64_t pack_dedup_key_init(void);
/* The key after n more zero bytes (a hole), in O(log n). */
uint64_t pack_dedup_key_zeros(uint64_t key, uint64_t n);
uint64_t pack_dedup_key_update(uint64_t key, const unsigned char *p,
			       size_t n);
struct tree_entry *pack_dedup_find_file(struct packer *pk,
					struct tree_entry *m,
					uint64_t key,
					const unsigned char *mem, int *rc);
int pack_dedup_share_file(struct packer *pk, struct tree_entry *m,
			  const struct tree_entry *a);
int pack_dedup_add_file(struct packer *pk, uint64_t key,
			struct tree_entry *m);
int pack_dedup_page(struct packer *pk, struct tree_entry *m,
		    uint64_t page, uint64_t node, const unsigned char *d);
int pack_dedup_zero_run(struct packer *pk, struct tree_entry *m,
			uint64_t page, uint64_t node, uint64_t n);
struct tree_entry *pack_dedup_find_link(struct packer *pk,
					const struct tree_entry *e);
int pack_dedup_add_link(struct packer *pk, struct tree_entry *e);

#endif
