/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fsck_sink.h - the bottom of the data checks: what the nodes claim
 * (struct fsck_data, filled by fsck_data.c, read by fsck_deep.c), where
 * findings go (straight to fsck_report(), or queued by a worker thread),
 * a node's owner and the symlink-target check of a page.  fsck_sink.c
 * defines these and calls neither fsck_data.c nor fsck_deep.c; calls and
 * includes run one way: fsck_data.c -> fsck_deep.c (fsck_deep.h) ->
 * fsck_sink.c (this header).
 */
#ifndef LIBAXFSIMG_FSCK_FSCK_SINK_H
#define LIBAXFSIMG_FSCK_FSCK_SINK_H

#include <stdint.h>
#include "internal.h"

/* need[] of a node/cnode/banode: bytes of file data the page must hold
 * (1..4096), with NEED_SYMLINK when it is a symlink target (a NUL should
 * follow it, but the driver reads only i_size bytes on kernels since
 * 2.6.31, and the legacy mkfs ends long targets at a cblock's end);
 * 0 = unused. */
#define NEED_SYMLINK 0x8000u
#define NEED_BYTES(n) ((n) & 0x1fffu)
/* The bytes a page covers: a symlink's NUL too (for overlaps and slack;
 * clip it to what exists). */
#define NEED_ALL(n) (NEED_BYTES(n) + (((n) & NEED_SYMLINK) ? 1u : 0u))

/* A page's place: where it starts, and which banode or cnode it is. */
struct fsck_loc {
	uint64_t off;		/* byte offset (banode) or cnode_offset */
	uint64_t idx;		/* banode or cnode number */
};

/* What the nodes claim, per node and per place they point at. */
struct fsck_data {
	struct fsck *f;
	uint16_t *need;		/* per node */
	uint64_t *xip_node;	/* per XIP page: node + 1, 0 = unused */
	uint64_t *cnode_node;	/* per cnode: node + 1 */
	uint16_t *cnode_need;
	uint64_t *banode_node;	/* per banode: node + 1 */
	uint16_t *banode_need;
	struct fsck_range *ranges;	/* sorted by start */
	size_t nranges;
};

/*
 * Where findings go: straight to fsck_report (the calling thread), or,
 * from a worker thread, onto a list that the calling thread reports later
 * in a fixed order.
 */
struct fsck_deferred;
struct fsck_sink {
	struct fsck *f;
	int direct;
	struct fsck_deferred *head, **tail;
};
void fsck_sink_report(struct fsck_sink *s, enum fsck_check c, uint64_t off,
		      uint64_t ino, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Reports a worker's queued findings in order, and frees them. */
void fsck_sink_flush(struct fsck *f, struct fsck_deferred *head);
/* Frees queued findings unreported (the check stopped early). */
void fsck_sink_drop(struct fsck_deferred *head);

/* The inode whose nodes include `node`, for paths. */
uint64_t fsck_owner_of(const struct fsck_data *d, uint64_t node);
/* A symlink target in a page: no NUL inside, a NUL right after.  `off`
 * is the image offset of p (off_is_data) or of the table entry that
 * points at it. */
void fsck_check_target(struct fsck_sink *s, const uint8_t *p, uint64_t avail,
		       uint16_t need, uint64_t off, int off_is_data,
		       uint64_t ino);

#endif
