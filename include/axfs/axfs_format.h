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
#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Values of __be32/__be64 fields (host order from big-endian). */
static inline uint32_t be32_to_cpu(uint32_t v) { return be32toh(v); }
static inline uint64_t be64_to_cpu(uint64_t v) { return be64toh(v); }
static inline uint32_t cpu_to_be32(uint32_t v) { return htobe32(v); }
static inline uint64_t cpu_to_be64(uint64_t v) { return htobe64(v); }

/* Big-endian integers at any address (image bytes). */
static inline uint32_t get_unaligned_be32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline uint64_t get_unaligned_be64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static inline void put_unaligned_be32(uint32_t val, void *p)
{
	val = htobe32(val);
	memcpy(p, &val, sizeof(val));
}

static inline void put_unaligned_be64(uint64_t val, void *p)
{
	val = htobe64(val);
	memcpy(p, &val, sizeof(val));
}

#include "axfs_fs.h"

#endif /* AXFS_FORMAT_H */
