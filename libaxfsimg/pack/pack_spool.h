/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pack_spool.h - buffered appends to an unlinked temporary file that holds one
 * region of the image (struct pack_spool_file); internal to libaxfsimg.
 *
 * The file is created on the first byte written, in `tmpdir`, else
 * $TMPDIR, else /tmp, and unlinked at once, so it disappears with the
 * process whatever happens.  `sp->size` counts the bytes appended,
 * buffered ones included; after pack_spool_flush() they are all in the file
 * (the writer reads them back with pread from offset 0).
 */
#ifndef LIBAXFSIMG_PACK_PACK_SPOOL_H
#define LIBAXFSIMG_PACK_PACK_SPOOL_H

#include <stddef.h>
#include <stdint.h>
#include "axfs_error.h"
#include "packer.h"

struct pack_spool {
	struct pack_spool_file *sp;
	const char *tmpdir;		/* NULL: $TMPDIR, /tmp */
	const char *what;		/* "XIP", ... for messages */
	const char *dir;		/* where the spool file is, once open */
	unsigned char *buf;
	size_t len, cap;
};

void pack_spool_init(struct pack_spool *w, struct pack_spool_file *sp,
		       const char *tmpdir, const char *what, size_t bufsize);
int pack_spool_write(struct pack_spool *w, const void *data, size_t n,
		struct axfs_error *err);
int pack_spool_zeros(struct pack_spool *w, size_t n,
		      struct axfs_error *err);
int pack_spool_flush(struct pack_spool *w, struct axfs_error *err);
/* Frees the buffer (the spool file stays open in w->sp). */
void pack_spool_release(struct pack_spool *w);

#endif
