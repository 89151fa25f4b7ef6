/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * foreign.h - the other read-only images a user hands us by mistake
 * (SquashFS, EROFS, cramfs, ext2/3/4, romfs, UBI), named by their magic
 * so that the readers say "a SquashFS image, not AXFS" instead of "bad
 * magic" or libarchive's "Unrecognized archive format".
 */
#ifndef LIBAXFSIMG_INTERNAL_FOREIGN_H
#define LIBAXFSIMG_INTERNAL_FOREIGN_H

#include <stddef.h>
#include <stdint.h>

/* Bytes from the start of a file that foreign_format() looks at (the
 * deepest magic, ext2's, ends at byte 1082). */
#define FOREIGN_PROBE_SIZE 2048

struct foreign_format {
	const char *name;	/* "SquashFS", "EROFS", ... */
	const char *what;	/* "a SquashFS image", "an EROFS image" */
	uint64_t offset;	/* where its magic is */
};

/* The format whose magic the first `len` bytes of a file `b` carry, or
 * NULL (a magic past `len` is not seen). */
const struct foreign_format *foreign_format(const uint8_t *b, size_t len);
/* foreign_format() with magics of at least min_magic bytes. */
const struct foreign_format *foreign_format_min(const uint8_t *b, size_t len,
						size_t min_magic);

/* The same for the file at `path` (read with pread; NULL when it cannot
 * be read or is none of them), with magics of 4 bytes or more only: asked
 * before a file is taken for an archive, where libarchive would read an
 * EROFS image (1024 zero bytes first) as an empty tar, a 2-byte magic
 * (ext2's) would misname one tar in 65536. */
const struct foreign_format *foreign_format_of_file(const char *path);

#endif
