// SPDX-License-Identifier: LGPL-2.1-or-later
/* page_dedup.c - the packer's table of full pages stored in cblocks */
#include "page_dedup.h"

#include <stdlib.h>
#include <string.h>

#include "axfs_format.h"

/*
 * Two 64-bit multiply-xorshift lanes over the page's 8-byte words: about
 * ten times faster than crc32 + adler32, which matters because every
 * compressed full page of the tree goes through it on the packer's
 * reading thread.  The words are read in host order: the key never
 * reaches the image, and which pages share depends only on their bytes.
 */
uint64_t page_dedup_key(const unsigned char *page)
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

static size_t slot(const struct page_dedup *t, uint64_t key)
{
	return (size_t)(key ^ (key >> 29)) & (t->nbucket - 1);
}

uint32_t page_dedup_first(const struct page_dedup *t, uint64_t key)
{
	return t->nbucket ? t->bucket[slot(t, key)] : 0;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 256;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

int page_dedup_add(struct page_dedup *t, uint64_t key, uint64_t node,
		   struct axfs_tree_entry *e, uint64_t page)
{
	size_t s;

	if (t->n >= UINT32_MAX - 1 || page > UINT32_MAX)
		return -1;
	/* Keep chains short: as many buckets as entries, rehashed when the
	 * table doubles. */
	if (t->n >= t->nbucket) {
		size_t nb = t->nbucket ? t->nbucket * 2 : 1024;
		uint32_t *b = calloc(nb, sizeof(*b));

		if (!b)
			return -1;
		free(t->bucket);
		t->bucket = b;
		t->nbucket = nb;
		for (size_t i = 0; i < t->n; i++) {
			s = slot(t, t->v[i].key);
			t->v[i].next = b[s];
			b[s] = (uint32_t)(i + 1);
		}
	}
	if (grow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v)) < 0)
		return -1;
	s = slot(t, key);
	t->v[t->n].key = key;
	t->v[t->n].node = node;
	t->v[t->n].e = e;
	t->v[t->n].page = (uint32_t)page;
	t->v[t->n].next = t->bucket[s];
	t->bucket[s] = (uint32_t)(t->n + 1);
	t->n++;
	return 0;
}

int page_dedup_add_pair(struct page_dedup *t, uint64_t node, uint64_t master)
{
	if (grow((void **)&t->pairs, &t->pairs_cap, t->npairs + 1,
		 sizeof(*t->pairs)) < 0)
		return -1;
	t->pairs[t->npairs].node = node;
	t->pairs[t->npairs].master = master;
	t->npairs++;
	return 0;
}

void page_dedup_free(struct page_dedup *t)
{
	free(t->v);
	free(t->bucket);
	free(t->pairs);
	memset(t, 0, sizeof(*t));
}
