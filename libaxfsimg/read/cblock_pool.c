// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cblock_pool.c - inflated cblocks shared by threads (axfs_cblock_pool.h).
 *
 * A fixed array of slots, found by cblock number through a small hash
 * table.  A slot is free, loading (one thread inflates into it with no
 * lock held; the others that want the same cblock wait on `loaded`) or
 * ready.  Ready slots sit in a most-recently-used list; a miss takes a
 * free slot or the least recently used ready slot that nobody is copying
 * from.  When every slot is lent (more threads than slots), the reader
 * inflates into its handle's own cache instead of waiting: the bound on
 * memory holds and no thread blocks on a slot.  A failed inflate leaves
 * nothing behind, so the next reader tries again and gets the error
 * itself.
 */
#include "axfs_cblock_pool.h"
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define NONE		SIZE_MAX
#define MIN_SLOTS	4

enum slot_state { SLOT_FREE, SLOT_LOADING, SLOT_READY };

struct slot {
	uint8_t *data;			/* cblock_size bytes, once used */
	size_t len;			/* inflated length */
	uint64_t index;			/* cblock number */
	unsigned int lent;		/* readers copying from it */
	enum slot_state state;
	size_t hnext;			/* hash chain, or free list */
	size_t prev, next;		/* MRU list of ready slots */
};

struct axfs_cblock_pool {
	pthread_mutex_t lock;
	pthread_cond_t loaded;		/* a loading slot became ready/free */
	const struct axfs_image *origin;
	uint32_t cblock_size;
	struct slot *slot;
	size_t nslots;
	size_t *bucket;
	size_t nbuckets;		/* a power of two */
	size_t mru, lru;		/* ends of the list of ready slots */
	size_t free_head;
	struct axfs_cblock_pool_stats st;
};

static size_t bucket_of(const struct axfs_cblock_pool *p, uint64_t c)
{
	c ^= c >> 31;
	c *= 0x9e3779b97f4a7c15ull;
	return (size_t)(c >> 17) & (p->nbuckets - 1);
}

int axfs_cblock_pool_new(struct axfs_cblock_pool **out,
			 const struct axfs_image *img, size_t max_bytes,
			 struct axfs_error *err)
{
	struct axfs_cblock_pool *p;
	uint32_t cblock_size = img->sb.cblock_size;
	size_t n;

	*out = NULL;
	if (!img->cblock_ok || cblock_size == 0)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      AXFS_SB_CBLOCK_SIZE, "cblock_size %u is "
				      "unusable", (unsigned int)cblock_size);
	n = max_bytes / cblock_size;
	if (n < MIN_SLOTS)
		n = MIN_SLOTS;
	p = calloc(1, sizeof(*p));
	if (!p)
		return axfs_error_sys(err, ENOMEM, "'%s': cblock pool",
				      img->name);
	p->nbuckets = 1;
	while (p->nbuckets < 2 * n)
		p->nbuckets <<= 1;
	p->slot = calloc(n, sizeof(*p->slot));
	p->bucket = malloc(p->nbuckets * sizeof(*p->bucket));
	if (!p->slot || !p->bucket) {
		free(p->slot);
		free(p->bucket);
		free(p);
		return axfs_error_sys(err, ENOMEM, "'%s': cblock pool",
				      img->name);
	}
	for (size_t i = 0; i < p->nbuckets; i++)
		p->bucket[i] = NONE;
	for (size_t i = 0; i < n; i++)
		p->slot[i].hnext = i + 1 < n ? i + 1 : NONE;
	p->free_head = 0;
	p->mru = p->lru = NONE;
	p->nslots = n;
	p->st.slots = n;
	p->origin = img->origin;
	p->cblock_size = cblock_size;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->loaded, NULL);
	*out = p;
	return 0;
}

void axfs_cblock_pool_free(struct axfs_cblock_pool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nslots; i++)
		free(p->slot[i].data);
	pthread_cond_destroy(&p->loaded);
	pthread_mutex_destroy(&p->lock);
	free(p->slot);
	free(p->bucket);
	free(p);
}

int axfs_image_use_pool(struct axfs_image *h, struct axfs_cblock_pool *pool,
			struct axfs_error *err)
{
	if (pool && (pool->origin != h->origin ||
		     pool->cblock_size != h->sb.cblock_size))
		return axfs_error_set(err, AXFS_ERR_INVALID, "'%s': the cblock "
				      "pool belongs to another image", h->name);
	h->pool = pool;
	return 0;
}

void axfs_cblock_pool_stats(struct axfs_cblock_pool *p,
			    struct axfs_cblock_pool_stats *st)
{
	pthread_mutex_lock(&p->lock);
	*st = p->st;
	pthread_mutex_unlock(&p->lock);
}

/* ---- the lists (lock held) --------------------------------------------- */

static void mru_unlink(struct axfs_cblock_pool *p, size_t i)
{
	struct slot *s = &p->slot[i];

	if (s->prev != NONE)
		p->slot[s->prev].next = s->next;
	else
		p->mru = s->next;
	if (s->next != NONE)
		p->slot[s->next].prev = s->prev;
	else
		p->lru = s->prev;
	s->prev = s->next = NONE;
}

static void mru_push(struct axfs_cblock_pool *p, size_t i)
{
	struct slot *s = &p->slot[i];

	s->prev = NONE;
	s->next = p->mru;
	if (p->mru != NONE)
		p->slot[p->mru].prev = i;
	else
		p->lru = i;
	p->mru = i;
}

static size_t hash_find(const struct axfs_cblock_pool *p, uint64_t c)
{
	for (size_t i = p->bucket[bucket_of(p, c)]; i != NONE;
	     i = p->slot[i].hnext)
		if (p->slot[i].index == c)
			return i;
	return NONE;
}

static void hash_remove(struct axfs_cblock_pool *p, size_t i)
{
	size_t *link = &p->bucket[bucket_of(p, p->slot[i].index)];

	while (*link != i)
		link = &p->slot[*link].hnext;
	*link = p->slot[i].hnext;
}

static void slot_release(struct axfs_cblock_pool *p, size_t i)
{
	p->slot[i].state = SLOT_FREE;
	p->slot[i].lent = 0;
	p->slot[i].hnext = p->free_head;
	p->free_head = i;
}

/* A slot for a new cblock: a free one, else the least recently used
 * ready one nobody is copying from; NONE when all are lent. */
static size_t slot_take(struct axfs_cblock_pool *p)
{
	size_t i = p->free_head;

	if (i != NONE) {
		p->free_head = p->slot[i].hnext;
		return i;
	}
	for (i = p->lru; i != NONE; i = p->slot[i].prev)
		if (p->slot[i].lent == 0)
			break;
	if (i == NONE)
		return NONE;
	mru_unlink(p, i);
	hash_remove(p, i);
	p->st.evicted++;
	p->st.held--;
	return i;
}

/* ---- lending ------------------------------------------------------------ */

static void lend(struct axfs_cblock_pool *p, size_t i,
		 struct reader_cblock_ref *ref)
{
	ref->data = p->slot[i].data;
	ref->len = p->slot[i].len;
	ref->slot = &p->slot[i];
}

int reader_pool_get(struct axfs_cblock_pool *p, struct axfs_image *img,
		    uint64_t c, struct reader_cblock_ref *ref,
		    struct axfs_error *err)
{
	struct slot *s;
	size_t i;
	int rc;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		i = hash_find(p, c);
		if (i == NONE)
			break;
		if (p->slot[i].state == SLOT_READY) {
			p->slot[i].lent++;
			mru_unlink(p, i);
			mru_push(p, i);
			p->st.hits++;
			lend(p, i, ref);
			pthread_mutex_unlock(&p->lock);
			return 1;
		}
		/* Another thread is inflating it: wait, then look again
		 * (it may have failed and left nothing). */
		p->st.waited++;
		pthread_cond_wait(&p->loaded, &p->lock);
	}
	i = slot_take(p);
	if (i == NONE) {
		p->st.bypassed++;
		pthread_mutex_unlock(&p->lock);
		return 0;
	}
	s = &p->slot[i];
	s->index = c;
	s->state = SLOT_LOADING;
	s->lent = 1;
	s->prev = s->next = NONE;
	s->hnext = p->bucket[bucket_of(p, c)];
	p->bucket[bucket_of(p, c)] = i;
	pthread_mutex_unlock(&p->lock);

	/* Only this thread touches a loading slot's buffer. */
	if (!s->data)
		s->data = malloc(p->cblock_size);
	if (!s->data)
		rc = axfs_error_sys(err, ENOMEM, "'%s': cblock buffer",
				    img->name);
	else
		rc = axfs_image_cblock(img, c, s->data, &s->len, err);

	pthread_mutex_lock(&p->lock);
	if (rc < 0) {
		hash_remove(p, i);
		slot_release(p, i);
	} else {
		s->state = SLOT_READY;
		mru_push(p, i);
		p->st.inflated++;
		p->st.held++;
		lend(p, i, ref);
	}
	pthread_cond_broadcast(&p->loaded);
	pthread_mutex_unlock(&p->lock);
	return rc < 0 ? rc : 1;
}

void reader_pool_put(struct axfs_cblock_pool *p, struct reader_cblock_ref *ref)
{
	struct slot *s = ref->slot;

	pthread_mutex_lock(&p->lock);
	s->lent--;
	pthread_mutex_unlock(&p->lock);
	ref->slot = NULL;
}
