// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * compressor.c - the two libraries that write an image's zlib streams
 * (axfs_compressor.h): their names, versions and levels, and a deflater
 * (deflater.h) that runs either.
 *
 * Both make RFC 1950 streams with a 32 KiB window (zlib: windowBits 15,
 * memLevel 8, the default strategy, as compress2() and the packer always
 * used), which the kernel's zlib_inflate reads.  Their output does not
 * depend on the size of the output buffer, so a cblock's bytes depend only
 * on its data, the compressor, its version and the level.
 */
#include "deflater.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>

struct deflater {
	enum axfs_compressor c;
	struct libdeflate_compressor *ld;
	z_stream zs;
};

static const struct {
	const char *name;
	int max_level;
} compressors[] = {
	[AXFS_COMPRESSOR_LIBDEFLATE] = { "libdeflate", 12 },
	[AXFS_COMPRESSOR_ZLIB] = { "zlib", 9 },
};

enum axfs_compressor axfs_compressor_resolve(enum axfs_compressor c)
{
	return c == AXFS_COMPRESSOR_DEFAULT ? AXFS_DEFAULT_COMPRESSOR : c;
}

static int known(enum axfs_compressor c)
{
	return c == AXFS_COMPRESSOR_LIBDEFLATE || c == AXFS_COMPRESSOR_ZLIB;
}

const char *axfs_compressor_name(enum axfs_compressor c)
{
	c = axfs_compressor_resolve(c);
	return known(c) ? compressors[c].name : NULL;
}

enum axfs_compressor axfs_compressor_by_name(const char *name)
{
	if (name && !strcmp(name, "libdeflate"))
		return AXFS_COMPRESSOR_LIBDEFLATE;
	if (name && !strcmp(name, "zlib"))
		return AXFS_COMPRESSOR_ZLIB;
	return AXFS_COMPRESSOR_DEFAULT;
}

const char *axfs_compressor_names(void)
{
	return "libdeflate or zlib";
}

const char *axfs_compressor_version(enum axfs_compressor c)
{
	switch (axfs_compressor_resolve(c)) {
	case AXFS_COMPRESSOR_LIBDEFLATE:
		return LIBDEFLATE_VERSION_STRING;
	case AXFS_COMPRESSOR_ZLIB:
		return zlibVersion();
	default:
		return NULL;
	}
}

int axfs_compressor_max_level(enum axfs_compressor c)
{
	c = axfs_compressor_resolve(c);
	return known(c) ? compressors[c].max_level : 0;
}

int axfs_compressor_check_level(enum axfs_compressor c, int level,
				const char *where, struct axfs_error *err)
{
	int max = axfs_compressor_max_level(c);

	if (!max)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "unknown compressor %d (use %s)", (int)c,
				      axfs_compressor_names());
	if (level >= 1 && level <= max)
		return 0;
	if (where)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "%s%d is out of range for %s (1 to %d)",
				      where, level, axfs_compressor_name(c), max);
	return axfs_error_set(err, AXFS_ERR_INVALID,
			      "compression level %d is out of range for %s "
			      "(1 to %d)", level, axfs_compressor_name(c), max);
}

/* ---- the deflater ------------------------------------------------------- */

struct deflater *deflater_new(enum axfs_compressor c, int level)
{
	struct deflater *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->c = axfs_compressor_resolve(c);
	if (d->c == AXFS_COMPRESSOR_LIBDEFLATE) {
		d->ld = libdeflate_alloc_compressor(level);
		if (d->ld)
			return d;
	} else if (deflateInit2(&d->zs, level, Z_DEFLATED, 15, 8,
				Z_DEFAULT_STRATEGY) == Z_OK) {
		return d;
	}
	free(d);
	return NULL;
}

void deflater_free(struct deflater *d)
{
	if (!d)
		return;
	if (d->c == AXFS_COMPRESSOR_LIBDEFLATE)
		libdeflate_free_compressor(d->ld);
	else
		deflateEnd(&d->zs);
	free(d);
}

size_t deflater_bound(enum axfs_compressor c, size_t in_len)
{
	if (axfs_compressor_resolve(c) == AXFS_COMPRESSOR_LIBDEFLATE)
		return libdeflate_zlib_compress_bound(NULL, in_len);
	return (size_t)compressBound((uLong)in_len);
}

size_t deflater_run(struct deflater *d, const void *in, size_t in_len,
		    void *out, size_t out_cap)
{
	if (d->c == AXFS_COMPRESSOR_LIBDEFLATE)
		return libdeflate_zlib_compress(d->ld, in, in_len, out, out_cap);
	/* One deflate() call: avail_* are uInt. */
	if (in_len > UINT_MAX)
		return 0;
	if (out_cap > UINT_MAX)
		out_cap = UINT_MAX;
	if (deflateReset(&d->zs) != Z_OK)
		return 0;
	d->zs.next_in = (Bytef *)(uintptr_t)in;
	d->zs.avail_in = (uInt)in_len;
	d->zs.next_out = out;
	d->zs.avail_out = (uInt)out_cap;
	if (deflate(&d->zs, Z_FINISH) != Z_STREAM_END)
		return 0;
	return out_cap - d->zs.avail_out;
}
