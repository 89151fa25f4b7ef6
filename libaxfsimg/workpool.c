// SPDX-License-Identifier: LGPL-2.1-or-later
/* workpool.c - see workpool.h */
#include "workpool.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

struct workpool {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* an item was queued, or stop */
	pthread_cond_t done;		/* an item finished */
	struct workpool_item *head, *tail;
	int stop;
	workpool_fn fn;
	void (*state_free)(void *);
	unsigned int nthreads;		/* started */
	pthread_t *threads;
};

static void *worker(void *arg)
{
	struct workpool *wp = arg;
	void *state = NULL;

	pthread_mutex_lock(&wp->lock);
	for (;;) {
		struct workpool_item *it;

		while (!wp->head && !wp->stop)
			pthread_cond_wait(&wp->work, &wp->lock);
		if (wp->stop)
			break;
		it = wp->head;
		wp->head = it->next;
		if (!wp->head)
			wp->tail = NULL;
		pthread_mutex_unlock(&wp->lock);

		wp->fn(it, &state);

		pthread_mutex_lock(&wp->lock);
		it->done = 1;
		pthread_cond_broadcast(&wp->done);
	}
	pthread_mutex_unlock(&wp->lock);
	if (state && wp->state_free)
		wp->state_free(state);
	return NULL;
}

int workpool_create(struct workpool **out, unsigned int nthreads,
		    workpool_fn fn, void (*state_free)(void *))
{
	struct workpool *wp = calloc(1, sizeof(*wp));
	int rc;

	*out = NULL;
	if (!wp)
		return ENOMEM;
	wp->threads = calloc(nthreads ? nthreads : 1, sizeof(*wp->threads));
	if (!wp->threads) {
		free(wp);
		return ENOMEM;
	}
	wp->fn = fn;
	wp->state_free = state_free;
	pthread_mutex_init(&wp->lock, NULL);
	pthread_cond_init(&wp->work, NULL);
	pthread_cond_init(&wp->done, NULL);
	for (unsigned int i = 0; i < nthreads; i++) {
		rc = pthread_create(&wp->threads[i], NULL, worker, wp);
		if (rc) {
			workpool_destroy(wp);
			return rc;
		}
		wp->nthreads++;
	}
	*out = wp;
	return 0;
}

void workpool_submit(struct workpool *wp, struct workpool_item *it)
{
	pthread_mutex_lock(&wp->lock);
	it->next = NULL;
	it->done = 0;
	if (wp->tail)
		wp->tail->next = it;
	else
		wp->head = it;
	wp->tail = it;
	pthread_cond_signal(&wp->work);
	pthread_mutex_unlock(&wp->lock);
}

void workpool_wait(struct workpool *wp, struct workpool_item *it)
{
	pthread_mutex_lock(&wp->lock);
	while (!it->done)
		pthread_cond_wait(&wp->done, &wp->lock);
	pthread_mutex_unlock(&wp->lock);
}

int workpool_is_done(struct workpool *wp, struct workpool_item *it)
{
	int d;

	pthread_mutex_lock(&wp->lock);
	d = it->done;
	pthread_mutex_unlock(&wp->lock);
	return d;
}

void workpool_destroy(struct workpool *wp)
{
	if (!wp)
		return;
	pthread_mutex_lock(&wp->lock);
	wp->stop = 1;
	wp->head = wp->tail = NULL;
	pthread_cond_broadcast(&wp->work);
	pthread_mutex_unlock(&wp->lock);
	for (unsigned int i = 0; i < wp->nthreads; i++)
		pthread_join(wp->threads[i], NULL);
	pthread_cond_destroy(&wp->work);
	pthread_cond_destroy(&wp->done);
	pthread_mutex_destroy(&wp->lock);
	free(wp->threads);
	free(wp);
}
