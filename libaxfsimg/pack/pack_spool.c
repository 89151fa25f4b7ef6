// SPDX-License-Identifier: LGPL-2.1-or-later
/* pack_spool.c - see pack_spool.h */
#include "pack_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void pack_spool_init(struct pack_spool *w, struct pack_spool_file *sp,
		       const char *tmpdir, const char *what, size_t bufsize)
{
	memset(w, 0, sizeof(*w));
	w->sp = sp;
	w->tmpdir = tmpdir;
	w->what = what;
	w->cap = bufsize;
	sp->fd = -1;
	sp->size = 0;
}

static int pack_spool_open(struct pack_spool *w, struct axfs_error *err)
{
	const char *dir = w->tmpdir;
	char *path;
	size_t n;
	int fd;

	if (!dir || !*dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	n = strlen(dir) + sizeof("/axfs-spool-XXXXXX");
	path = malloc(n);
	if (!path)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	snprintf(path, n, "%s/axfs-spool-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		axfs_error_sys(err, e, "cannot create a temporary file in "
			       "'%s' for the %s region", dir, w->what);
		free(path);
		return AXFS_ERR_IO;
	}
	unlink(path);
	free(path);
	w->sp->fd = fd;
	w->dir = dir;
	return 0;
}

static int write_all(struct pack_spool *w, const void *data, size_t n,
		     struct axfs_error *err)
{
	const unsigned char *p = data;
	int rc;

	if (w->sp->fd < 0 && (rc = pack_spool_open(w, err)) < 0)
		return rc;
	while (n) {
		ssize_t k = write(w->sp->fd, p, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return axfs_error_sys(err, errno, "cannot write the "
					      "temporary file of the %s region "
					      "in '%s'%s", w->what, w->dir,
					      errno == ENOSPC || errno == EDQUOT ?
					      " (set TMPDIR to a directory "
					      "with room)" : "");
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int pack_spool_flush(struct pack_spool *w, struct axfs_error *err)
{
	int rc;

	if (!w->len)
		return 0;
	rc = write_all(w, w->buf, w->len, err);
	w->len = 0;
	return rc;
}

int pack_spool_write(struct pack_spool *w, const void *data, size_t n,
		struct axfs_error *err)
{
	int rc;

	if (!n)
		return 0;
	if (!w->buf && w->cap) {
		w->buf = malloc(w->cap);
		if (!w->buf)
			return axfs_error_set(err, AXFS_ERR_NOMEM,
					      "out of memory");
	}
	if (w->len + n > w->cap) {
		if ((rc = pack_spool_flush(w, err)) < 0)
			return rc;
		if (n >= w->cap) {
			rc = write_all(w, data, n, err);
			if (rc == 0)
				w->sp->size += n;
			return rc;
		}
	}
	memcpy(w->buf + w->len, data, n);
	w->len += n;
	w->sp->size += n;
	return 0;
}

int pack_spool_zeros(struct pack_spool *w, size_t n,
		      struct axfs_error *err)
{
	static const unsigned char zeros[4096];
	int rc;

	while (n) {
		size_t k = n < sizeof(zeros) ? n : sizeof(zeros);

		if ((rc = pack_spool_write(w, zeros, k, err)) < 0)
			return rc;
		n -= k;
	}
	return 0;
}

void pack_spool_release(struct pack_spool *w)
{
	free(w->buf);
	w->buf = NULL;
	w->len = 0;
}
