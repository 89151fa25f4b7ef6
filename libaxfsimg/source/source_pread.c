// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source_pread.c - pread(2) of a host file, again after a signal: the
 * directory source and the host-file layer both read with it.  A file of
 * its own, so that neither calls into source.c, which opens them.
 */
#include "internal.h"

#include <errno.h>
#include <unistd.h>

ssize_t source_pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	do
		n = pread(fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n;
}
