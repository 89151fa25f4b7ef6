// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * reader_stream.c - see axfs_stream.h.
 *
 * The files are cut into jobs: runs of consecutive pieces (a whole small
 * file, or up to `chunk` bytes of a large one) of at most `chunk` bytes
 * and PIECES_PER_JOB pieces.  Job k is read into slot k % nslots by
 * whichever thread claims it; threads claim jobs in order, and only when
 * the caller has finished with the job that used the slot before, so the
 * read-ahead never exceeds the slots.  Claiming in order keeps each
 * thread's jobs close together in the image; a job reads its pages in
 * order through one handle, so a cblock is inflated once for all the
 * pages and small files it holds (bar the cblocks that two jobs share).
 */
#include "axfs_stream.h"
#include "opts_size.h"
#include "axfs_format.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PIECES_PER_JOB	512
#define DEFAULT_CHUNK	(2u << 20)

enum { SLOT_FREE, SLOT_BUSY, SLOT_READY };

struct job_piece {
	size_t file;
	uint64_t offset;
	size_t len;
	size_t buf_off;			/* page-aligned */
};

struct slot {
	int state;
	uint64_t seq;			/* the job it holds */
	size_t npieces;
	struct job_piece pieces[PIECES_PER_JOB];
	uint8_t *buf;			/* chunk bytes */
	size_t failed_at;		/* npieces: none failed */
	struct axfs_error err;
};

struct worker;

struct axfs_stream {
	struct axfs_image *img;
	const struct axfs_stream_file *files;
	size_t n;
	size_t chunk;

	pthread_mutex_t lock;
	pthread_cond_t ready;		/* a slot became READY */
	pthread_cond_t freed;		/* a slot became FREE, or stop */
	/* Where the next job starts. */
	size_t cur_file;
	uint64_t cur_off;
	uint64_t next_claim;		/* its number */
	int all_claimed;		/* jobs are [0, next_claim) */
	int halt;			/* a read failed: claim no more */
	int stop;			/* closing */

	uint64_t next_use;		/* the job the caller is in */
	size_t piece;			/* the next piece of it */

	struct slot *slots;
	size_t nslots;
	unsigned int nthreads;		/* started */
	struct worker *workers;
};

struct worker {
	struct axfs_stream *s;
	struct axfs_image *h;		/* a clone of s->img */
	pthread_t tid;
};

static size_t round_page(size_t n)
{
	return (n + AXFS_PAGE_SIZE - 1) & ~(size_t)(AXFS_PAGE_SIZE - 1);
}

/* Skips finished and empty files; sets all_claimed at the end. */
static void skip_done(struct axfs_stream *s)
{
	while (s->cur_file < s->n &&
	       s->cur_off >= s->files[s->cur_file].size) {
		s->cur_file++;
		s->cur_off = 0;
	}
	if (s->cur_file == s->n)
		s->all_claimed = 1;
}

/* Under the lock, with slot sl free: gives it the next job. */
static void claim(struct axfs_stream *s, struct slot *sl)
{
	size_t used = 0;

	sl->state = SLOT_BUSY;
	sl->seq = s->next_claim++;
	sl->npieces = 0;
	while (sl->npieces < PIECES_PER_JOB && used < s->chunk &&
	       !s->all_claimed) {
		const struct axfs_stream_file *f = &s->files[s->cur_file];
		struct job_piece *p = &sl->pieces[sl->npieces++];
		uint64_t rest = f->size - s->cur_off;
		/* used and chunk are page multiples: so is the room. */
		size_t len = s->chunk - used;

		if (rest < len)
			len = (size_t)rest;
		p->file = s->cur_file;
		p->offset = s->cur_off;
		p->len = len;
		p->buf_off = used;
		used += round_page(len);
		s->cur_off += len;
		skip_done(s);
	}
}

/* Reads the pieces of a claimed job (without the lock). */
static void read_job(struct axfs_stream *s, struct axfs_image *h,
		     struct slot *sl)
{
	sl->failed_at = sl->npieces;
	for (size_t i = 0; i < sl->npieces; i++) {
		const struct job_piece *p = &sl->pieces[i];
		uint64_t ino = s->files[p->file].ino;
		uint64_t first = p->offset / AXFS_PAGE_SIZE;
		size_t pages = round_page(p->len) / AXFS_PAGE_SIZE;

		for (size_t k = 0; k < pages; k++) {
			size_t got;

			/* Each page lands in place: the piece is contiguous
			 * (read_page zero-fills a short last page). */
			if (axfs_image_read_page(h, ino, first + k,
						 sl->buf + p->buf_off +
						 k * AXFS_PAGE_SIZE, &got,
						 &sl->err) < 0) {
				sl->failed_at = i;
				return;
			}
		}
	}
}

/* Under the lock, with slot sl free: claims the next job for it, reads it
 * with the lock dropped (h: the reader's own handle), marks it ready. */
static void run_job(struct axfs_stream *s, struct axfs_image *h,
		    struct slot *sl)
{
	claim(s, sl);
	pthread_mutex_unlock(&s->lock);
	read_job(s, h, sl);
	pthread_mutex_lock(&s->lock);
	sl->state = SLOT_READY;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct axfs_stream *s = w->s;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		struct slot *sl = &s->slots[s->next_claim % s->nslots];

		if (s->stop || s->halt || s->all_claimed)
			break;
		if (sl->state != SLOT_FREE) {
			/* The caller still has the job that used it. */
			pthread_cond_wait(&s->freed, &s->lock);
			continue;
		}
		run_job(s, w->h, sl);
		if (sl->failed_at < sl->npieces)
			s->halt = 1;
		pthread_cond_broadcast(&s->ready);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void stop_workers(struct axfs_stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_cond_broadcast(&s->freed);
	pthread_mutex_unlock(&s->lock);
	for (unsigned int i = 0; i < s->nthreads; i++)
		pthread_join(s->workers[i].tid, NULL);
	s->nthreads = 0;
}

void axfs_stream_close(struct axfs_stream *s)
{
	if (!s)
		return;
	stop_workers(s);
	if (s->workers) {
		for (size_t i = 0; s->workers[i].s; i++)
			axfs_image_close(s->workers[i].h);
		free(s->workers);
	}
	for (size_t i = 0; s->slots && i < s->nslots; i++)
		free(s->slots[i].buf);
	free(s->slots);
	pthread_cond_destroy(&s->freed);
	pthread_cond_destroy(&s->ready);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

int axfs_stream_open(struct axfs_stream **out, struct axfs_image *img,
		     const struct axfs_stream_file *files, size_t n,
		     const struct axfs_stream_opts *o, struct axfs_error *err)
{
	struct axfs_stream *s;
	unsigned int threads = o ? o->threads : 0;
	size_t window;
	int rc;

	*out = NULL;
	if (o && (rc = opts_size_check(o->struct_size, sizeof(*o),
				       "axfs_stream_open", err)) < 0)
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s)
		return axfs_error_sys(err, ENOMEM, "file reader");
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->ready, NULL);
	pthread_cond_init(&s->freed, NULL);
	s->img = img;
	s->files = files;
	s->n = n;
	s->chunk = o && o->chunk ? round_page(o->chunk) : DEFAULT_CHUNK;
	window = o && o->window ? o->window : (size_t)threads * 2 * s->chunk;
	/* One slot for the caller's job, one more per thread. */
	s->nslots = window / s->chunk;
	if (s->nslots < (size_t)threads + 1)
		s->nslots = (size_t)threads + 1;
	skip_done(s);

	s->slots = calloc(s->nslots, sizeof(*s->slots));
	if (!s->slots)
		goto nomem;
	for (size_t i = 0; i < s->nslots; i++) {
		s->slots[i].buf = malloc(s->chunk);
		if (!s->slots[i].buf)
			goto nomem;
	}
	if (threads) {
		/* One spare, zeroed element ends the array. */
		s->workers = calloc((size_t)threads + 1, sizeof(*s->workers));
		if (!s->workers)
			goto nomem;
		for (unsigned int i = 0; i < threads; i++) {
			rc = axfs_image_clone(&s->workers[i].h, img, err);
			if (rc < 0)
				goto fail;
			s->workers[i].s = s;
		}
		for (unsigned int i = 0; i < threads; i++) {
			rc = pthread_create(&s->workers[i].tid, NULL,
					    worker_main, &s->workers[i]);
			if (rc) {
				rc = axfs_error_sys(err, rc, "cannot start a "
						    "reader thread");
				goto fail;
			}
			s->nthreads++;
		}
	}
	*out = s;
	return 0;
nomem:
	rc = axfs_error_sys(err, ENOMEM, "file reader buffers");
fail:
	axfs_stream_close(s);
	return rc;
}

int axfs_stream_next(struct axfs_stream *s, struct axfs_stream_piece *p,
		     struct axfs_error *err)
{
	struct slot *sl;
	const struct job_piece *jp;

	memset(p, 0, sizeof(*p));
	pthread_mutex_lock(&s->lock);
	for (;;) {
		sl = &s->slots[s->next_use % s->nslots];
		if (sl->state == SLOT_READY && sl->seq == s->next_use) {
			if (s->piece < sl->npieces)
				break;
			/* Done with this job: its slot takes a new one. */
			sl->state = SLOT_FREE;
			s->next_use++;
			s->piece = 0;
			pthread_cond_broadcast(&s->freed);
			continue;
		}
		if (s->all_claimed && s->next_use >= s->next_claim) {
			pthread_mutex_unlock(&s->lock);
			return 0;
		}
		if (!s->nthreads) {
			/* No threads: read the job here (its slot is free:
			 * the caller left the one before). */
			if (sl->state != SLOT_FREE)
				break;
			run_job(s, s->img, sl);
			continue;
		}
		pthread_cond_wait(&s->ready, &s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	if (sl->state != SLOT_READY || sl->seq != s->next_use)
		return axfs_error_set(err, AXFS_ERR_INVALID, "file reader: "
				      "out of order");
	jp = &sl->pieces[s->piece];
	p->file = jp->file;
	p->offset = jp->offset;
	if (s->piece == sl->failed_at) {
		/* Stays here: every later call fails the same way. */
		if (err)
			*err = sl->err;
		return sl->err.code < 0 ? sl->err.code : AXFS_ERR_FORMAT;
	}
	p->data = sl->buf + jp->buf_off;
	p->len = jp->len;
	s->piece++;
	return 1;
}
