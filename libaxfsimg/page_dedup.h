/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * page_dedup.h - the packer's table of the full pages it has put into
 * cblocks, to find a page stored before (internal to libaxfsimg).
 *
 * A key is only a hint: the packer confirms every candidate byte by byte
 * (packer.c, share_page), so keys that collide, by chance or crafted,
 * never make two different pages share.
 */
#ifndef AXFS_PAGE_DEDUP_H
#define AXFS_PAGE_DEDUP_H

#include <stddef.h>
#include <stdint.h>

struct axfs_tree_entry;

struct page_dedup_ent {
	uint64_t key;
	uint64_t node;			/* the node that stores the page */
	struct axfs_tree_entry *e;	/* its file (to read the page again) */
	uint32_t page;			/* its page number in that file */
	uint32_t next;			/* chain: index + 1, 0 ends */
};

/* A node that reuses the page of an earlier node (`master`). */
struct page_dedup_pair {
	uint64_t node, master;
};

struct page_dedup {
	struct page_dedup_ent *v;
	size_t n, cap;
	uint32_t *bucket;		/* index + 1 of a chain's head */
	size_t nbucket;			/* a power of two, or 0 */
	struct page_dedup_pair *pairs;
	size_t npairs, pairs_cap;
};

/* A 64-bit key of one AXFS_PAGE_SIZE-byte page. */
uint64_t page_dedup_key(const unsigned char *page);

/* The first / next entry with this key's chain (index + 1, 0: none);
 * entries on a chain may have other keys: compare ->key. */
uint32_t page_dedup_first(const struct page_dedup *t, uint64_t key);
static inline uint32_t page_dedup_next(const struct page_dedup *t,
				       uint32_t i)
{
	return t->v[i - 1].next;
}

/* 0, or -1 out of memory (or more than UINT32_MAX - 1 entries). */
int page_dedup_add(struct page_dedup *t, uint64_t key, uint64_t node,
		   struct axfs_tree_entry *e, uint64_t page);
int page_dedup_add_pair(struct page_dedup *t, uint64_t node, uint64_t master);

void page_dedup_free(struct page_dedup *t);

#endif
