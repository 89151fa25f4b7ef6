/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fsck_deep.h - the deep check of compressed data (fsck_deep.c), called
 * by fsck_data.c; it calls fsck_sink.c (fsck_sink.h), never back.
 */
#ifndef LIBAXFSIMG_FSCK_FSCK_DEEP_H
#define LIBAXFSIMG_FSCK_FSCK_DEEP_H

#include <stdint.h>
#include "fsck_sink.h"

/*
 * Inflates every cblock c < nc with valid[c] set, and checks the pages in
 * it: locs[first[c], first[c + 1]) sorted by offset.  Findings are
 * reported in cblock order whatever the number of threads.
 */
void fsck_deep_cblocks(struct fsck_data *d, uint64_t nc, const uint64_t *first,
		       const struct fsck_loc *locs, const uint8_t *valid);

#endif
