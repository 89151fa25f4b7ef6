/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * workpool.h - a fixed pool of threads running one function on submitted
 * items (internal to libaxfsimg; not installed, not exported).
 *
 * Items are taken in submission order by whichever thread is free; the
 * caller decides the order in which results are used (the packer commits
 * them strictly in submission order, so the output never depends on
 * which thread ran what).  Each thread keeps a private state pointer for
 * the function (the packer keeps one compressor state, deflater.h, per
 * thread there).
 */
#ifndef LIBAXFSIMG_INTERNAL_WORKPOOL_H
#define LIBAXFSIMG_INTERNAL_WORKPOOL_H

struct workpool;

struct workpool_item {
	struct workpool_item *next;	/* queue link, owned by the pool */
	int done;			/* set (under the pool lock) when run */
};

/* Runs one item; *state is the calling thread's private pointer (NULL at
 * first; whatever the function stores is freed by state_free). */
typedef void (*workpool_fn)(struct workpool_item *it, void **state);

/* 0 or an errno value. */
int workpool_create(struct workpool **out, unsigned int nthreads,
		    workpool_fn fn, void (*state_free)(void *));
void workpool_submit(struct workpool *wp, struct workpool_item *it);
/* Blocks until `it` has been run. */
void workpool_wait(struct workpool *wp, struct workpool_item *it);
/* Non-blocking: 1 if `it` has been run. */
int workpool_is_done(struct workpool *wp, struct workpool_item *it);
/* Drops items not yet started, waits for running ones, joins threads. */
void workpool_destroy(struct workpool *wp);

#endif
