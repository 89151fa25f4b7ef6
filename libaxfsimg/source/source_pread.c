// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source_pread.c - reading a host file of a size known from its scan:
 * the directory source and the host-file layer both read with these.  A
 * file of its own, so that neither calls into source.c, which opens them.
 */
#include "internal.h"

#include <errno.h>
#include <unistd.h>

#include "axfs_error.h"

ssize_t source_pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	do
		n = pread(fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n;
}

int source_file_read(int fd, const char *path, uint64_t size, uint64_t *done,
		     void *buf, size_t len, size_t *got, struct axfs_error *err)
{
	ssize_t n;

	*got = 0;
	if (*done == size) {
		char extra;

		/* At the end: make sure the file did not grow. */
		n = source_pread(fd, &extra, 1, size);
		if (n < 0)
			return axfs_error_sys(err, errno, "cannot read '%s'",
					      path);
		if (n > 0)
			return axfs_error_set(err, AXFS_ERR_IO,
				"'%s' grew while it was being read (it had "
				"%llu bytes when scanned)", path,
				(unsigned long long)size);
		return 0;
	}
	if (len == 0)
		return 0;
	if (len > size - *done)
		len = (size_t)(size - *done);
	n = source_pread(fd, buf, len, *done);
	if (n < 0)
		return axfs_error_sys(err, errno, "cannot read '%s'", path);
	if (n == 0)
		return axfs_error_set(err, AXFS_ERR_IO,
			"'%s' shrank while it was being read (%llu bytes when "
			"scanned, it ended after %llu)", path,
			(unsigned long long)size, (unsigned long long)*done);
	*done += (uint64_t)n;
	*got = (size_t)n;
	return 0;
}

int source_file_pread(int fd, const char *path, uint64_t size, void *buf,
		      size_t len, uint64_t off, size_t *got,
		      struct axfs_error *err)
{
	ssize_t n;

	*got = 0;
	if (off >= size || len == 0)
		return 0;
	if (len > size - off)
		len = (size_t)(size - off);
	n = source_pread(fd, buf, len, off);
	if (n < 0)
		return axfs_error_sys(err, errno, "cannot read '%s'", path);
	*got = (size_t)n;
	return 0;
}
