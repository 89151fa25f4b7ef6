/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_compressor.h - which library writes the zlib (RFC 1950) streams of
 * an image: the cblocks and the compressed metadata.
 *
 * Both write streams that the kernel's zlib inflates; they differ in size,
 * speed and exact bytes.  libdeflate is the default: at level 9 its
 * streams are 1.3 % smaller than zlib's at 2.3x less CPU (bench/RESULTS.md,
 * "zlib against libdeflate").  zlib stays for builds whose bytes must match
 * those of earlier releases.  The same tree and options give the same
 * bytes with the same compressor and compressor version.
 */
#ifndef AXFS_COMPRESSOR_H
#define AXFS_COMPRESSOR_H

#include "axfs_error.h"

enum axfs_compressor {
	/* In options: the policy's, else AXFS_DEFAULT_COMPRESSOR. */
	AXFS_COMPRESSOR_DEFAULT = 0,
	AXFS_COMPRESSOR_LIBDEFLATE,
	AXFS_COMPRESSOR_ZLIB,
};

#define AXFS_DEFAULT_COMPRESSOR AXFS_COMPRESSOR_LIBDEFLATE
/* Level 9 for both: zlib's highest, and libdeflate's best trade of size
 * against time before its much slower levels 10 to 12. */
#define AXFS_DEFAULT_LEVEL 9

/* DEFAULT becomes AXFS_DEFAULT_COMPRESSOR; others are returned as given. */
enum axfs_compressor axfs_compressor_resolve(enum axfs_compressor c);
/* "libdeflate", "zlib" (DEFAULT: the default's); NULL for an unknown value. */
const char *axfs_compressor_name(enum axfs_compressor c);
/* The compressor called `name`; AXFS_COMPRESSOR_DEFAULT if none is. */
enum axfs_compressor axfs_compressor_by_name(const char *name);
/* "libdeflate or zlib": the valid names, for messages. */
const char *axfs_compressor_names(void);
/* The library's version: zlib's of the loaded library, libdeflate's of
 * the headers it was built with (libdeflate has no run-time query). */
const char *axfs_compressor_version(enum axfs_compressor c);
/* Levels run from 1 to this: 9 for zlib, 12 for libdeflate; 0 if unknown. */
int axfs_compressor_max_level(enum axfs_compressor c);
/*
 * 0 if `level` is one of c's; else AXFS_ERR_INVALID with a message that
 * names the compressor and its range, prefixed by `where` (a policy's
 * "file:line:column: compression.level: ") when not NULL.
 */
int axfs_compressor_check_level(enum axfs_compressor c, int level,
				const char *where, struct axfs_error *err);

#endif
