// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_sink.c - where the findings of the data checks go, and what
 * fsck_data.c and its deep check (fsck_deep.c) both use to make them: the
 * sink (straight to fsck_report(), or queued by a worker thread and
 * reported later in order), the inode a node belongs to (for the path a
 * finding names) and the symlink-target check of a page.
 *
 * These live here, not in fsck_data.c or fsck_deep.c, so that calls run
 * one way: fsck_data.c calls fsck_deep.c, both call this file, and this
 * file calls neither (only the unit's helpers: fsck_report()); the types
 * all three share are in this file's header, fsck_sink.h, below both.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck_sink.h"

struct fsck_deferred {
	enum fsck_check check;
	uint64_t off, ino;
	struct fsck_deferred *next;
	char msg[];
};

void fsck_sink_report(struct fsck_sink *s, enum fsck_check c, uint64_t off,
		      uint64_t ino, const char *fmt, ...)
{
	char msg[1024];
	struct fsck_deferred *d;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->direct) {
		fsck_report(s->f, c, off, ino, "%s", msg);
		return;
	}
	n = strlen(msg) + 1;
	d = malloc(sizeof(*d) + n);
	if (!d)
		return;		/* out of memory: the finding is lost, not the
				 * check (counts come from the main thread) */
	d->check = c;
	d->off = off;
	d->ino = ino;
	d->next = NULL;
	memcpy(d->msg, msg, n);
	*s->tail = d;
	s->tail = &d->next;
}

/* Reports a queued list in its order and frees it. */
void fsck_sink_flush(struct fsck *f, struct fsck_deferred *head)
{
	struct fsck_deferred *x, *nx;

	for (x = head; x; x = nx) {
		nx = x->next;
		fsck_report(f, x->check, x->off, x->ino, "%s", x->msg);
		free(x);
	}
}

/* Frees a queued list unreported (the check stopped early). */
void fsck_sink_drop(struct fsck_deferred *head)
{
	struct fsck_deferred *x, *nx;

	for (x = head; x; x = nx) {
		nx = x->next;
		free(x);
	}
}

/* The inode whose nodes include `node` (for paths in findings). */
uint64_t fsck_owner_of(const struct fsck_data *d, uint64_t node)
{
	size_t lo = 0, hi = d->nranges;

	if (node == FSCK_NO_INO)
		return FSCK_NO_INO;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->ranges[mid].start <= node)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo = first range starting after node; look back for a cover. */
	while (lo > 0) {
		const struct fsck_range *r = &d->ranges[lo - 1];

		if (node - r->start < r->count)
			return r->ino;
		if (lo < 2 || d->ranges[lo - 2].start != r->start)
			break;
		lo--;
	}
	return FSCK_NO_INO;
}

void fsck_check_target(struct fsck_sink *s, const uint8_t *p, uint64_t avail,
		       uint16_t need, uint64_t off, int off_is_data,
		       uint64_t ino)
{
	uint64_t len = NEED_BYTES(need);

	if (!(need & NEED_SYMLINK))
		return;
	if (memchr(p, 0, (size_t)(len < avail ? len : avail)))
		fsck_sink_report(s, FC_SYMLINK_TARGET, off, ino,
				 "symlink target contains a NUL byte");
	else if (len >= avail || p[len] != 0)
		fsck_sink_report(s, FC_SYMLINK_NUL,
				 off_is_data ? off + len : off, ino,
				 "symlink target is not followed by a NUL in "
				 "its node (kernels before 2.6.31 read the "
				 "link up to a NUL)");
}
