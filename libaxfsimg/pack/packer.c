// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * packer.c - stores the data of every regular file and symlink: XIP pages,
 * compressed cblocks, byte-aligned bytes, and the node tables.  This file
 * is the orchestrator: setup, the loop over the tree, teardown.  A file's
 * pages are read and stored by pack_data.c; where pages go and the threads
 * that compress them are in pack_jobs.c, data stored once in pack_dedup.c,
 * what they all use in pack_util.c (pack/internal.h).  Calls run one way:
 * none of those files calls back into this one.
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
 * of node tables per stored page, 32 per run of hole pages whatever its
 * length (pack_nodes.c), and what
 * pack_jobs.c and pack_dedup.c say they hold): a 256 KiB read buffer and 3 spool buffers of 256 KiB.  With zlib,
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
 * TREE_WHY_DEFAULT (a page left out by the budget keeps "budget" even if
 * it ends up byte-aligned), and resets its own reasons when a tree is
 * packed again (after plan_trim).
 */
#include "internal.h"
#include "planner.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int pack_file(struct packer *pk, struct tree_entry *m)
{
	if (m->size == 0) {
		m->first_node = 0;
		m->node_count = 0;
		m->packed = 1;
		return 0;
	}
	if (pk->cand[m->ino])
		return pack_file_dedup(pk, m);
	return pack_file_stream(pk, m);
}

static int pack_symlink(struct packer *pk, struct tree_entry *e)
{
	size_t len = e->link_target ? strlen(e->link_target) : 0;
	const struct tree_entry *twin;
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
	if ((rc = pack_alloc_nodes(pk, 1, &node)) < 0 ||
	    (rc = pack_node_own(pk, node)) < 0)
		return rc;
	e->first_node = node;
	e->node_count = 1;
	e->packed = 1;
	/* The target and its NUL (axfs(5) rule 21). */
	if (len + 1 <= PACK_TAIL_MAX)
		rc = pack_raw_add(pk, node, e->link_target, len + 1, NULL, 0,
				  TREE_WHY_TAIL);
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
	struct tree *t = pk->t;

	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *e = t->by_ino[i];

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

				if (r == TREE_WHY_INCOMPRESSIBLE ||
				    r == TREE_WHY_TAIL ||
				    r == TREE_WHY_UNCOMPRESSED ||
				    r == TREE_WHY_DEDUP)
					e->pages[p].reason = TREE_WHY_DEFAULT;
			}
		}
	}
}

static int setup(struct packer *pk)
{
	int rc;

	pack_order_start(pk);
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
	pack_order_stop(pk);
	free(pk->rbuf);
}

/* Hard-link members take their master's nodes and a copy of its plan. */
static int finish_links(struct packer *pk)
{
	struct tree *t = pk->t;

	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *e = t->by_ino[i];

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
	struct tree *t = pk->t;
	int rc;

	if ((rc = pack_order_share_ranks(pk)) < 0)
		return rc;
	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *e = t->by_ino[i];

		if (e->type == AXFS_FT_REG) {
			struct tree_entry *m = master_of(e);

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
	if ((rc = pack_jobs_finish(pk)) < 0 ||
	    (rc = pack_order_finish(pk)) < 0)
		return rc;
	pack_reasons_sort(pk->out);
	if ((rc = pack_nodes_check(pk)) < 0 ||
	    (rc = finish_links(pk)) < 0)
		return rc;
	pack_progress(pk, 1);
	return 0;
}

int pack_tree(struct tree *t, struct source *src,
	      const struct pack_opts *o, struct pack_result *out,
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
		pack_free_packed(out);
		return rc;
	}
	for (size_t i = 0; i < t->count; i++) {
		const struct tree_entry *e = t->by_ino[i];

		if (e->type == AXFS_FT_REG && is_master(e))
			out->bytes_in += e->size;
	}
	return 0;
}

void pack_free_packed(struct pack_result *p)
{
	if (!p)
		return;
	free(p->runs);
	free(p->reasons);
	free(p->slot_type);
	free(p->slot_index);
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
