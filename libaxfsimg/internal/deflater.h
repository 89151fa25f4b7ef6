/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * deflater.h - one compressor's state for one thread (internal to
 * libaxfsimg; not installed, not exported): makes zlib (RFC 1950, window
 * 15) streams with the library and level of the options.
 *
 * Allocating the state is the costly part (libdeflate's level 9 tables,
 * zlib's deflate window), so each packer thread keeps one for all its
 * cblocks.  A deflater is used by one thread at a time.
 */
#ifndef LIBAXFSIMG_INTERNAL_DEFLATER_H
#define LIBAXFSIMG_INTERNAL_DEFLATER_H

#include <stddef.h>
#include "axfs_compressor.h"

struct deflater;

/* NULL when out of memory; c and level must be valid (checked before). */
struct deflater *deflater_new(enum axfs_compressor c, int level);
void deflater_free(struct deflater *d);
/* The longest stream c can make of any in_len bytes. */
size_t deflater_bound(enum axfs_compressor c, size_t in_len);
/*
 * Compresses in[0, in_len) into one whole stream in out[0, out_cap);
 * out_cap should be deflater_bound().  Returns the stream's length, or 0
 * when it could not be made (it did not fit, or in_len is beyond what the
 * library takes in one call).
 */
size_t deflater_run(struct deflater *d, const void *in, size_t in_len,
		    void *out, size_t out_cap);

#endif
