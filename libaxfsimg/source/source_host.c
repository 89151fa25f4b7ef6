// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source_host.c - the host-file layer: a source over another one that
 * reads the data of the regular files a policy adds from host files
 * (`entries: [{type: file, source: ...}]`, axfs-policy(5)), whatever the
 * build's source is (a directory, an archive, an image).  Every other
 * call goes to the source below.
 *
 * A host file is an input: it is opened without following a symlink in
 * its last component (O_NOFOLLOW, as the directory source opens its
 * files) and without blocking on a FIFO, and must still be the regular
 * file of the size it had when the policy was applied.
 */
#include "source.h"
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct host_source {
	struct source base;
	struct source_ops ops;		/* what the source below offers */
	struct source *below;
};

struct host_handle {
	int own;			/* 1: a host file; 0: below's handle */
	void *below;
	int fd;
	const char *path;		/* the ref's, for messages */
	uint64_t size, done;
};

static struct source *below(struct source *src)
{
	return ((struct host_source *)src)->below;
}

static int host_next(struct source *src, struct source_entry *ent,
		     struct axfs_error *err)
{
	struct source *b = below(src);

	return b->ops->next(b, ent, err);
}

static int host_open(struct source *src, const struct source_data_ref *ref,
		     void **handle, struct axfs_error *err)
{
	struct host_handle *h = calloc(1, sizeof(*h));
	struct source *b = below(src);
	struct stat st;
	int rc;

	*handle = NULL;
	if (!h)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	h->fd = -1;
	if (!ref->policy_host) {
		rc = b->ops->data_open(b, ref, &h->below, err);
		if (rc < 0) {
			free(h);
			return rc;
		}
		*handle = h;
		return 0;
	}
	h->own = 1;
	h->path = ref->host_path;
	h->size = ref->size;
	h->fd = open(ref->host_path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		     O_CLOEXEC | O_NOCTTY);
	if (h->fd < 0) {
		rc = axfs_error_sys(err, errno, "cannot open '%s'",
				    ref->host_path);
		free(h);
		return rc;
	}
	if (fstat(h->fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != h->size) {
		rc = axfs_error_set(err, AXFS_ERR_IO, "'%s' changed while the "
				    "image was being built (it is no longer "
				    "the regular file of %llu bytes it was)",
				    ref->host_path,
				    (unsigned long long)h->size);
		close(h->fd);
		free(h);
		return rc;
	}
	*handle = h;
	return 0;
}

static int host_read(struct source *src, void *handle, void *buf,
		     size_t len, size_t *got, struct axfs_error *err)
{
	struct host_handle *h = handle;

	if (!h->own)
		return below(src)->ops->data_read(below(src), h->below, buf,
						  len, got, err);
	return source_file_read(h->fd, h->path, h->size, &h->done, buf, len,
				got, err);
}

static int host_pread(struct source *src, void *handle, void *buf,
		      size_t len, uint64_t off, size_t *got,
		      struct axfs_error *err)
{
	struct host_handle *h = handle;

	if (!h->own)
		return below(src)->ops->data_pread(below(src), h->below, buf,
						   len, off, got, err);
	return source_file_pread(h->fd, h->path, h->size, buf, len, off, got,
				 err);
}

/* A host file's holes are not looked for: it is read in full. */
static int host_hole(struct source *src, void *handle, uint64_t *hole,
		     uint64_t *data, struct axfs_error *err)
{
	struct host_handle *h = handle;

	if (!h->own)
		return below(src)->ops->data_hole(below(src), h->below, hole,
						  data, err);
	*hole = 0;
	*data = 0;
	return 0;
}

static int host_skip(struct source *src, void *handle, uint64_t len,
		     struct axfs_error *err)
{
	struct host_handle *h = handle;

	if (!h->own)
		return below(src)->ops->data_skip(below(src), h->below, len,
						  err);
	if (len > h->size - h->done)
		return axfs_error_set(err, AXFS_ERR_INVALID, "'%s': cannot "
				      "skip past its end", h->path);
	h->done += len;
	return 0;
}

static void host_close(struct source *src, void *handle)
{
	struct host_handle *h = handle;

	if (!h)
		return;
	if (h->own)
		close(h->fd);
	else
		below(src)->ops->data_close(below(src), h->below);
	free(h);
}

static void host_destroy(struct source *src)
{
	source_destroy(below(src));
	free(src);
}

int source_host_wrap(struct source **src, struct axfs_error *err)
{
	struct host_source *s = calloc(1, sizeof(*s));
	const struct source_ops *b = (*src)->ops;

	if (!s)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	s->below = *src;
	s->base = **src;		/* name, log, timestamp */
	s->ops.next = host_next;
	s->ops.data_open = host_open;
	s->ops.data_read = host_read;
	s->ops.data_close = host_close;
	/* the optional calls only where the source below has them */
	s->ops.data_pread = b->data_pread ? host_pread : NULL;
	s->ops.data_hole = b->data_hole ? host_hole : NULL;
	s->ops.data_skip = b->data_skip ? host_skip : NULL;
	s->ops.destroy = host_destroy;
	s->base.ops = &s->ops;
	*src = &s->base;
	return 0;
}
