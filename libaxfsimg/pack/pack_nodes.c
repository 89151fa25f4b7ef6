// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pack_nodes.c - the node tables as runs (issue 38 §4; see pack_result in
 * stages.h).  The format has a node a 4 KiB page, holes included, but a
 * hole's pages all take the one zero page's place: held node by node they
 * cost 9 bytes a page (a 60 GiB sparse file: 141 MiB), held as one run
 * they cost one run.  The packer visits every node once, in node order
 * (files in inode order, pages in file order): a node stored on its own
 * gets the next slot, and consecutive such nodes one run; a node that
 * shares an earlier node's place joins the last run when that run shares
 * the same slot.  A slot's type and index are set when its page is
 * committed (pack_jobs.c), so a slot lives from its visit to the end.
 *
 * Memory: 9 bytes a stored node (as before) and 32 bytes a run, where a
 * run is a stretch of stored nodes or of nodes sharing one place: a hole
 * of any length costs 32 bytes.
 */
#include "internal.h"

#include <stdlib.h>

static uint64_t run_end(const struct pack_node_run *r)
{
	return r->first + r->n;
}

/* The nodes visited so far: [0, cursor). */
static uint64_t cursor(const struct pack_result *out)
{
	return out->nruns ? run_end(&out->runs[out->nruns - 1]) : 0;
}

static size_t run_of(const struct pack_result *p, uint64_t node)
{
	size_t lo = 0, hi = p->nruns;

	/* The last run whose first node is at most `node`. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->runs[mid].first <= node)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint64_t pack_node_slot(const struct pack_result *p, uint64_t node)
{
	const struct pack_node_run *r = &p->runs[run_of(p, node)];

	return r->shared ? r->slot : r->slot + (node - r->first);
}

uint8_t pack_node_type(const struct pack_result *p, uint64_t node)
{
	return p->slot_type[pack_node_slot(p, node)];
}

uint64_t pack_node_index(const struct pack_result *p, uint64_t node)
{
	return p->slot_index[pack_node_slot(p, node)];
}

void pack_node_count(const struct pack_result *p,
		     uint64_t n[AXFS_NODE_TYPE_COUNT])
{
	for (size_t i = 0; i < p->nruns; i++) {
		const struct pack_node_run *r = &p->runs[i];

		for (uint64_t k = 0; k < (r->shared ? 1 : r->n); k++) {
			uint8_t t = p->slot_type[r->slot + k];

			if (t < AXFS_NODE_TYPE_COUNT)
				n[t] += r->shared ? r->n : 1;
		}
	}
}

static int out_of_order(struct packer *pk, uint64_t node)
{
	return axfs_error_set(pk->err, AXFS_ERR_INVALID, "packer: node %llu "
			      "visited out of order (next: %llu)",
			      (unsigned long long)node,
			      (unsigned long long)cursor(pk->out));
}

static int add_run(struct packer *pk, uint64_t node, uint64_t n,
		   uint64_t slot, int shared)
{
	struct pack_result *out = pk->out;
	struct pack_node_run *r;

	if (pack_grow((void **)&out->runs, &pk->run_cap, out->nruns + 1,
		      sizeof(*out->runs)) < 0)
		return pack_nomem(pk);
	r = &out->runs[out->nruns++];
	r->first = node;
	r->n = n;
	r->slot = slot;
	r->shared = shared;
	return 0;
}

int pack_alloc_nodes(struct packer *pk, uint64_t n, uint64_t *first)
{
	struct pack_result *out = pk->out;

	/* Slots and runs are indexed with size_t in this process. */
	if (n > SIZE_MAX - out->nnodes)
		return pack_nomem(pk);
	*first = out->nnodes;
	out->nnodes += n;
	return 0;
}

int pack_node_own(struct packer *pk, uint64_t node)
{
	struct pack_result *out = pk->out;
	struct pack_node_run *last = out->nruns ?
				     &out->runs[out->nruns - 1] : NULL;
	uint64_t slot = out->nslots;
	size_t cap;

	if (node != cursor(out) || node >= out->nnodes)
		return out_of_order(pk, node);
	cap = pk->slot_cap;
	if (pack_grow((void **)&out->slot_type, &cap, (size_t)slot + 1,
		      sizeof(*out->slot_type)) < 0)
		return pack_nomem(pk);
	cap = pk->slot_cap;
	if (pack_grow((void **)&out->slot_index, &cap, (size_t)slot + 1,
		      sizeof(*out->slot_index)) < 0)
		return pack_nomem(pk);
	pk->slot_cap = cap;
	out->slot_type[slot] = NODE_PENDING;
	out->slot_index[slot] = 0;
	out->nslots++;
	if (last && !last->shared) {
		last->n++;
		return 0;
	}
	return add_run(pk, node, 1, slot, 0);
}

int pack_node_share(struct packer *pk, uint64_t node, uint64_t master,
		    uint64_t n)
{
	struct pack_result *out = pk->out;
	struct pack_node_run *last = out->nruns ?
				     &out->runs[out->nruns - 1] : NULL;
	uint64_t slot;

	if (node != cursor(out) || n > out->nnodes - node || master >= node)
		return out_of_order(pk, node);
	slot = pack_node_slot(out, master);
	if (last && last->shared && last->slot == slot) {
		last->n += n;
		return 0;
	}
	return add_run(pk, node, n, slot, 1);
}

void pack_node_set(struct pack_result *out, uint64_t node, uint8_t type,
		   uint64_t index)
{
	uint64_t slot = pack_node_slot(out, node);

	out->slot_type[slot] = type;
	out->slot_index[slot] = index;
}

int pack_nodes_check(struct packer *pk)
{
	struct pack_result *out = pk->out;

	if (cursor(out) != out->nnodes)
		return axfs_error_set(pk->err, AXFS_ERR_INVALID, "packer: "
				      "node %llu was not stored",
				      (unsigned long long)cursor(out));
	for (uint64_t s = 0; s < out->nslots; s++)
		if (out->slot_type[s] == NODE_PENDING)
			return axfs_error_set(pk->err, AXFS_ERR_INVALID,
					      "packer: slot %llu was not "
					      "stored", (unsigned long long)s);
	return 0;
}
