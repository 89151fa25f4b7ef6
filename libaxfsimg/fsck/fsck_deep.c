// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_deep.c - the deep check of compressed data: every cblock is
 * inflated once, on a pool of threads (one per CPU, at most 8), and the
 * pages in it are checked against what it inflates to: each fits, no two
 * overlap, bytes that belong to no page are zero, symlink targets end in
 * a NUL.  Workers never report: their findings are queued per cblock (a
 * struct fsck_sink, fsck_sink.c) and the calling thread reports them in
 * cblock order, so the output does not depend on the number of threads or
 * on timing.  Each worker reads the compressed bytes through its own
 * window (fsck_src_view), a run of cblocks at a time: memory is a few
 * buffers, whatever the image's size.  Called by fsck_data.c; calls
 * fsck_sink.c, never back.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsck_deep.h"

#define MAX_THREADS 8
#define POOL_MIN_CBLOCKS 64
/* Cblocks a worker takes at once: neighbours share its window's read. */
#define BATCH 8

struct result {
	atomic_int done;
	int inflated;
	int read_rc;		/* reading it failed, at byte read_bad */
	uint64_t read_bad;
	uint64_t data_bytes;
	struct fsck_deferred *head;
};

struct pool {
	struct fsck_data *d;
	uint64_t nc;
	const uint64_t *first;
	const struct fsck_loc *locs;
	const uint8_t *valid;
	struct result *res;
	atomic_ullong next;
	atomic_int stop;
};

struct worker {
	struct pool *p;
	z_stream zs;
	uint8_t *buf;		/* cblock_size + 1: one byte to see "more" */
	struct fsck_window win;	/* compressed bytes read ahead */
	pthread_t tid;
	int started;
};

static void one_cblock(struct worker *w, uint64_t c)
{
	struct fsck_data *d = w->p->d;
	struct fsck *f = d->f;
	struct fsck_region *Z = &f->r[AXFS_R_COMPRESSED];
	const uint8_t *src;
	const struct fsck_loc *locs = w->p->locs + w->p->first[c];
	uint64_t n = w->p->first[c + 1] - w->p->first[c];
	struct result *r = &w->p->res[c];
	struct fsck_sink s = { .f = f, .direct = 0, .head = NULL };
	uint64_t start, b, clen, out_len = 0, in_used = 0, end = 0, first;
	uint64_t at, ino;
	const char *msg;
	enum fsck_z zr;

	s.tail = &s.head;
	/* The static pass validated these entries (valid[c]). */
	fsck_table(f, AXFS_R_CBLOCK_OFFSET, c, &start);
	fsck_table(f, AXFS_R_CBLOCK_OFFSET, c + 1, &b);
	clen = b - start;
	at = fsck_region_off(f, AXFS_R_COMPRESSED, start);
	ino = n ? fsck_owner_of(d, d->cnode_node[locs[0].idx] - 1) :
	      FSCK_NO_INO;
	if (Z->data) {
		src = Z->data + start;
	} else {
		src = fsck_src_view(&f->src, &w->win, Z->fsoffset + start, clen,
				    &r->read_rc, &r->read_bad);
		if (!src)
			goto out;
	}
	zr = fsck_inflate(&w->zs, src, clen, w->buf,
			  (uint64_t)f->cblock_size + 1, &out_len, &in_used,
			  &msg);
	r->inflated = 1;
	if (zr == FSCK_Z_BAD) {
		fsck_sink_report(&s, FC_CBLOCK_INFLATE, at, ino,
				 "cblock %llu does not inflate: %s (after %llu "
				 "of its %llu bytes)", (unsigned long long)c,
				 msg, (unsigned long long)in_used,
				 (unsigned long long)clen);
		goto out;
	}
	if (zr == FSCK_Z_TRUNC) {
		fsck_sink_report(&s, FC_CBLOCK_INFLATE, at, ino, "cblock %llu: "
				 "the zlib stream does not end within its %llu "
				 "bytes", (unsigned long long)c,
				 (unsigned long long)clen);
		goto out;
	}
	if (zr == FSCK_Z_OVER || out_len > f->cblock_size) {
		fsck_sink_report(&s, FC_CBLOCK_OVERSIZE, at, ino, "cblock %llu "
				 "inflates to more than cblock_size %u bytes",
				 (unsigned long long)c, f->cblock_size);
		goto out;
	}
	if (in_used < clen)
		fsck_sink_report(&s, FC_CBLOCK_STREAM_TAIL, at + in_used, ino,
				 "cblock %llu: %llu bytes follow the end of its "
				 "zlib stream", (unsigned long long)c,
				 (unsigned long long)(clen - in_used));
	for (uint64_t i = 0; i < n; i++) {
		uint64_t j = locs[i].idx, off = locs[i].off;
		uint16_t need = d->cnode_need[j];
		uint64_t len = NEED_BYTES(need);
		uint64_t cino = fsck_owner_of(d, d->cnode_node[j] - 1);

		if (off > out_len || len > out_len - off) {
			fsck_sink_report(&s, FC_CNODE_OFFSET,
					 fsck_table_off(f, AXFS_R_CNODE_OFFSET,
							j), cino,
					 "cnode %llu: %llu bytes at offset %llu "
					 "of cblock %llu, which inflates to only "
					 "%llu bytes", (unsigned long long)j,
					 (unsigned long long)len,
					 (unsigned long long)off,
					 (unsigned long long)c,
					 (unsigned long long)out_len);
			continue;
		}
		fsck_check_target(&s, w->buf + off, out_len - off, need,
				  fsck_table_off(f, AXFS_R_CNODE_OFFSET, j), 0,
				  cino);
		if (off < end)
			fsck_sink_report(&s, FC_CNODE_OVERLAP,
					 fsck_table_off(f, AXFS_R_CNODE_OFFSET,
							j), cino,
					 "cnode %llu (bytes %llu..%llu of cblock "
					 "%llu) overlaps the page before it",
					 (unsigned long long)j,
					 (unsigned long long)off,
					 (unsigned long long)(off + len - 1),
					 (unsigned long long)c);
		else if (off > end &&
			 fsck_first_nonzero(w->buf + end, off - end, &first))
			fsck_sink_report(&s, FC_CBLOCK_SLACK, at, cino,
					 "cblock %llu: inflated bytes %llu..%llu "
					 "belong to no page and are not zero",
					 (unsigned long long)c,
					 (unsigned long long)end,
					 (unsigned long long)(off - 1));
		/* A symlink's NUL is part of its page when it is there. */
		if (NEED_ALL(need) > len && off + len < out_len)
			len++;
		if (off + len > end)
			end = off + len;
		r->data_bytes += NEED_BYTES(need);
	}
	if (end < out_len &&
	    fsck_first_nonzero(w->buf + end, out_len - end, &first))
		fsck_sink_report(&s, FC_CBLOCK_SLACK, at, ino, "cblock %llu: "
				 "inflated bytes %llu..%llu belong to no page "
				 "and are not zero", (unsigned long long)c,
				 (unsigned long long)end,
				 (unsigned long long)(out_len - 1));
out:
	r->head = s.head;
}

/* Takes the next BATCH cblocks and checks them: 0 when none is left. */
static int take_batch(struct worker *w)
{
	struct pool *p = w->p;
	uint64_t c0 = atomic_fetch_add(&p->next, BATCH);

	if (c0 >= p->nc)
		return 0;
	for (uint64_t c = c0; c < c0 + BATCH && c < p->nc; c++) {
		if (p->valid[c] && !atomic_load(&p->stop))
			one_cblock(w, c);
		atomic_store_explicit(&p->res[c].done, 1, memory_order_release);
	}
	return 1;
}

static void work(struct worker *w)
{
	while (!atomic_load(&w->p->stop) && take_batch(w))
		;
}

static void *worker_main(void *arg)
{
	work(arg);
	return NULL;
}

/* Reports the results of cblocks [*emit, ...) that are done, in order. */
static void emit_ready(struct pool *p, uint64_t *emit, int wait)
{
	struct fsck *f = p->d->f;
	struct fsck_region *Z = &f->r[AXFS_R_COMPRESSED];

	while (*emit < p->nc) {
		struct result *r = &p->res[*emit];

		if (!atomic_load_explicit(&r->done, memory_order_acquire)) {
			if (!wait)
				return;
			sched_yield();
			continue;
		}
		if (r->read_rc)
			fsck_read_failed(f, r->read_rc, r->read_bad);
		fsck_sink_flush(f, r->head);
		r->head = NULL;
		f->res->cblocks += (uint64_t)r->inflated;
		f->res->data_bytes += r->data_bytes;
		(*emit)++;
		if ((*emit & 63) == 0) {
			uint64_t s = 0;

			fsck_table(f, AXFS_R_CBLOCK_OFFSET, *emit, &s);
			fsck_progress(f, s, Z->size);
		}
		if (fsck_stopped(f))
			atomic_store(&p->stop, 1);
	}
}

void fsck_deep_cblocks(struct fsck_data *d, uint64_t nc, const uint64_t *first,
		       const struct fsck_loc *locs, const uint8_t *valid)
{
	struct fsck *f = d->f;
	struct worker w[MAX_THREADS];
	struct pool p;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nt = cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : (int)cpus;
	uint64_t emit = 0, bufsz = (uint64_t)f->cblock_size + 1;

	if (!nc)
		return;
	/* Threads pay off only for real work. */
	if (nc < POOL_MIN_CBLOCKS)
		nt = 1;
	if ((uint64_t)nt > nc)
		nt = (int)nc;
	memset(&p, 0, sizeof(p));
	p.d = d;
	p.nc = nc;
	p.first = first;
	p.locs = locs;
	p.valid = valid;
	atomic_init(&p.next, 0);
	atomic_init(&p.stop, 0);
	p.res = fsck_alloc(f, nc, sizeof(*p.res),
			   f->r[AXFS_R_CBLOCK_OFFSET].desc_off,
			   "the cblock results");
	if (!p.res)
		return;
	for (uint64_t c = 0; c < nc; c++)
		atomic_init(&p.res[c].done, 0);
	memset(w, 0, sizeof(w));
	for (int i = 0; i < nt; i++) {
		w[i].p = &p;
		if (inflateInit(&w[i].zs) != Z_OK) {
			nt = i;
			break;
		}
		/* The first buffer is needed; more only add threads. */
		w[i].buf = i == 0 ?
			   fsck_alloc(f, bufsz, 1,
				      f->r[AXFS_R_COMPRESSED].desc_off,
				      "a cblock buffer") :
			   fsck_try_alloc(f, bufsz);
		w[i].win.cap = FSCK_WINDOW_SIZE;	/* allocated when read */
		if (!w[i].buf) {
			inflateEnd(&w[i].zs);
			nt = i;
			break;
		}
	}
	if (nt == 0)
		goto out;
	/* Worker 0 is this thread: it inflates too, between reports. */
	for (int i = 1; i < nt; i++)
		w[i].started = pthread_create(&w[i].tid, NULL, worker_main,
					      &w[i]) == 0;
	while (!atomic_load(&p.stop) && take_batch(&w[0]))
		emit_ready(&p, &emit, 0);
	for (int i = 1; i < nt; i++)
		if (w[i].started)
			pthread_join(w[i].tid, NULL);
	if (!atomic_load(&p.stop))
		emit_ready(&p, &emit, 1);
out:
	for (int i = 0; i < nt; i++) {
		inflateEnd(&w[i].zs);
		fsck_free(f, w[i].buf, bufsz, 1);
		free(w[i].win.buf);
	}
	/* Anything not reported (stopped early) is dropped. */
	for (uint64_t c = 0; c < nc; c++)
		fsck_sink_drop(p.res[c].head);
	fsck_free(f, p.res, nc, sizeof(*p.res));
}
