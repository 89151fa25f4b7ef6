// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kzlib.c - the kernel's zlib_inflate API (lib/zlib_inflate) over
 * user-space zlib, for the kernel shim.  The caller's workspace holds a
 * z_stream; the return codes and flush values are the same numbers in
 * both.  Counts the bytes inflated, so that the harness can stop
 * reading an image that inflates without end.
 */
#include <string.h>
#include <zlib.h>

#include "kshim_libc.h"

static unsigned long long inflated;

int kshim_zworkspace_size(void)
{
	return (int)sizeof(z_stream);
}

int kshim_zinit(void *ws, int window_bits)
{
	z_stream *zs = ws;

	memset(zs, 0, sizeof(*zs));
	return inflateInit2(zs, window_bits);
}

int kshim_zinflate(void *ws, const uint8_t **in, unsigned int *in_len,
		   uint8_t **out, unsigned int *out_len,
		   unsigned long *total_out, int flush)
{
	z_stream *zs = ws;
	uLong before = zs->total_out;
	int rc;

	zs->next_in = (Bytef *)*in;
	zs->avail_in = *in_len;
	zs->next_out = *out;
	zs->avail_out = *out_len;
	rc = inflate(zs, flush);
	inflated += zs->total_out - before;
	*in = zs->next_in;
	*in_len = zs->avail_in;
	*out = zs->next_out;
	*out_len = zs->avail_out;
	*total_out = zs->total_out;
	return rc;
}

int kshim_zend(void *ws)
{
	return inflateEnd(ws);
}

unsigned long long kshim_inflated(void)
{
	return inflated;
}

void kshim_inflated_reset(void)
{
	inflated = 0;
}
