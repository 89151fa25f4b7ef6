/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_format.h - the AXFS on-disk format for user space.
 *
 * The format is described once, in axfs_fs.h, in the kernel's style: the
 * kernel driver includes that file as it is.  This shim gives user space
 * what the kernel has and axfs_fs.h uses (static_assert, offsetof, the
 * byte-order helpers under their kernel names), then includes it; the
 * tools include this file, never axfs_fs.h directly.  The types (__u8,
 * __be32, __be64...) come from <linux/types.h>, the kernel's user-space
 * header (linux-libc-dev), which axfs_fs.h includes.
 */
#ifndef AXFS_FORMAT_H
#define AXFS_FORMAT_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Big-endian integers at any address (image bytes); no <endian.h>, which
 * strict C11 programs including the installed API do not get. */
static inline uint32_t get_unaligned_be32(const void *p)
{
	const uint8_t *b = (const uint8_t *)p;

	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) |
	       ((uint32_t)b[2] << 8) | (uint32_t)b[3];
}

static inline uint64_t get_unaligned_be64(const void *p)
{
	const uint8_t *b = (const uint8_t *)p;

	return ((uint64_t)get_unaligned_be32(b) << 32) | get_unaligned_be32(b + 4);
}

static inline void put_unaligned_be32(uint32_t val, void *p)
{
	uint8_t *b = (uint8_t *)p;

	b[0] = (uint8_t)(val >> 24);
	b[1] = (uint8_t)(val >> 16);
	b[2] = (uint8_t)(val >> 8);
	b[3] = (uint8_t)val;
}

static inline void put_unaligned_be64(uint64_t val, void *p)
{
	put_unaligned_be32((uint32_t)(val >> 32), p);
	put_unaligned_be32((uint32_t)val, (uint8_t *)p + 4);
}

/* Values of __be32/__be64 fields (host order from big-endian). */
static inline uint32_t be32_to_cpu(uint32_t v) { return get_unaligned_be32(&v); }
static inline uint64_t be64_to_cpu(uint64_t v) { return get_unaligned_be64(&v); }

#include "axfs_fs.h"

#endif /* AXFS_FORMAT_H */
