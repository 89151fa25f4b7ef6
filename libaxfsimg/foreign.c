// SPDX-License-Identifier: LGPL-2.1-or-later
/* foreign.c - other images named by their magic (foreign.h) */
#include "foreign.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Each magic as the bytes on disk, at its offset.  Several per format
 * where the format has either byte order (SquashFS 'hsqs'/'sqsh',
 * cramfs). */
static const struct magic {
	struct foreign_format f;
	const char *bytes;
	size_t len;
} magics[] = {
	{ { "SquashFS", "a SquashFS image", 0 }, "hsqs", 4 },
	{ { "SquashFS", "a SquashFS image", 0 }, "sqsh", 4 },
	{ { "EROFS", "an EROFS image", 1024 }, "\xe2\xe1\xf5\xe0", 4 },
	{ { "cramfs", "a cramfs image", 0 }, "\x45\x3d\xcd\x28", 4 },
	{ { "cramfs", "a cramfs image", 0 }, "\x28\xcd\x3d\x45", 4 },
	{ { "cramfs", "a cramfs image", 512 }, "\x45\x3d\xcd\x28", 4 },
	{ { "romfs", "a romfs image", 0 }, "-rom1fs-", 8 },
	{ { "UBI", "a UBI image", 0 }, "UBI#", 4 },
	{ { "ext2/3/4", "an ext2/3/4 file system", 1080 }, "\x53\xef", 2 },
};

const struct foreign_format *foreign_format_min(const uint8_t *b, size_t len,
						size_t min_magic)
{
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		const struct magic *m = &magics[i];

		if (m->len >= min_magic && m->f.offset + m->len <= len &&
		    memcmp(b + m->f.offset, m->bytes, m->len) == 0)
			return &m->f;
	}
	return NULL;
}

const struct foreign_format *foreign_format(const uint8_t *b, size_t len)
{
	return foreign_format_min(b, len, 0);
}

/* Regular files and block devices only: a FIFO is not even opened (its
 * writer would see a reader come and go). */
static int probe_kind(const struct stat *st)
{
	return S_ISREG(st->st_mode) || S_ISBLK(st->st_mode);
}

const struct foreign_format *foreign_format_of_file(const char *path)
{
	uint8_t b[FOREIGN_PROBE_SIZE];
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st) < 0 || !probe_kind(&st))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !probe_kind(&st)) {
		close(fd);
		return NULL;
	}
	n = pread(fd, b, sizeof(b), 0);
	close(fd);
	return n > 0 ? foreign_format_min(b, (size_t)n, 4) : NULL;
}
