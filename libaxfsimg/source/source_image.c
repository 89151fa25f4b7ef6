// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source_image.c - the image source: an AXFS image (one file, or the two
 * segments of a split image) read back as entries, so that mkfs can
 * re-plan an image with a new profile and diff can compare it, without
 * root and without the tree it was built from.
 *
 * The image is walked once at open (the reader validates every inode on
 * the way) and its entries are handed out in that walk's order: depth
 * first, children in bytewise order, as the directory source walks a
 * tree.  Data is read back through the reader, one mutex around the
 * shared image handle, so handles may be used from several threads.
 *
 * What an image does not record, and how it is given back:
 *   - per-file times: every entry has the image timestamp as its mtime,
 *     and the source offers that timestamp as the build's default, so a
 *     rebuild keeps it unless --mtime, the policy or SOURCE_DATE_EPOCH
 *     say otherwise;
 *   - hard links: mkfs stores a link group, and a set of identical regular
 *     files, as inodes sharing their data nodes.  Inodes that share their
 *     nodes (same inode_array_index and size, non-empty) and their
 *     mode/owner tuple are handed out as a hard link group, the first in
 *     walk order being the master: with the same options this rebuilds
 *     the same bytes either way, and a profile naming one of them makes
 *     the whole group XIP, as it does for a link group in a tree;
 *   - xattrs, ACLs, link counts: never stored, so nothing to give back.
 */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_format.h"
#include "axfs_reader.h"
#include "internal.h"
#include "share.h"


struct img_rec {
	char *path;			/* image path without the leading '/' */
	char *link_target;		/* symlinks (owned) */
	uint64_t ino, size, array_index, mode_index;
	uint32_t mode, uid, gid, rdev;
	size_t link_to;			/* hard link: master record */
};

struct img_source {
	struct source base;
	struct axfs_image *img;
	pthread_mutex_t lock;		/* around every read of img */
	struct img_rec *recs;
	size_t n, cap, next;
	int64_t timestamp;
	struct share_totals share;	/* find_links() */
};

struct img_handle {
	uint64_t ino, size, pos;
};

struct collect {
	struct img_source *s;
	struct axfs_error *err;
	int rc;
};

static int collect_fn(void *ctx, const char *path,
		      const struct axfs_inode_info *in)
{
	struct collect *c = ctx;
	struct img_source *s = c->s;
	struct img_rec *r;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct img_rec *nr = realloc(s->recs, cap * sizeof(*nr));

		if (!nr)
			goto nomem;
		s->recs = nr;
		s->cap = cap;
	}
	r = &s->recs[s->n];
	memset(r, 0, sizeof(*r));
	r->path = strdup(path[0] == '/' ? path + 1 : path);
	if (!r->path)
		goto nomem;
	r->ino = in->ino;
	r->mode = in->mode;
	r->uid = in->uid;
	r->gid = in->gid;
	r->size = in->size;
	r->array_index = in->array_index;
	r->mode_index = in->mode_index;
	r->rdev = (uint32_t)in->file_size;
	r->link_to = SHARE_NO_LINK;
	if (S_ISLNK(in->mode)) {
		char target[AXFS_PAGE_SIZE + 1];

		c->rc = axfs_image_readlink(s->img, in->ino, target,
					    sizeof(target), c->err);
		if (c->rc < 0) {
			free(r->path);
			return 1;
		}
		r->link_target = strdup(target);
		if (!r->link_target) {
			free(r->path);
			goto nomem;
		}
	}
	s->n++;
	return 0;
nomem:
	c->rc = axfs_error_sys(c->err, ENOMEM, "'%s'", s->base.name);
	return 1;
}

/* The hard link groups, by share.h's rule, and what extracting the
 * image writes against what it holds. */
static int find_links(struct img_source *s, struct axfs_error *err)
{
	struct share_file *f = malloc((s->n + 1) * sizeof(*f));
	size_t *rec = malloc((s->n + 1) * sizeof(*rec));
	size_t *link = malloc((s->n + 1) * sizeof(*link));
	size_t m = 0;
	int rc = -1;

	if (!f || !rec || !link) {
		rc = axfs_error_sys(err, ENOMEM, "'%s'", s->base.name);
		goto out;
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct img_rec *r = &s->recs[i];

		if (!S_ISREG(r->mode))
			continue;
		f[m].array_index = r->array_index;
		f[m].size = r->size;
		f[m].mode_index = r->mode_index;
		rec[m++] = i;
	}
	rc = share_link_groups(f, m, link, &s->share, err);
	for (size_t k = 0; rc == 0 && k < m; k++)
		if (link[k] != SHARE_NO_LINK)
			s->recs[rec[k]].link_to = rec[link[k]];
out:
	free(f);
	free(rec);
	free(link);
	return rc;
}

static int img_next(struct source *src, struct source_entry *ent,
		    struct axfs_error *err)
{
	struct img_source *s = (struct img_source *)src;
	const struct img_rec *r;

	(void)err;
	if (s->next == s->n)
		return 0;
	r = &s->recs[s->next++];
	memset(ent, 0, sizeof(*ent));
	ent->path = r->path;
	ent->type = axfs_ftype_from_mode(r->mode);
	ent->mode = r->mode & 07777;
	ent->uid = r->uid;
	ent->gid = r->gid;
	ent->mtime = s->timestamp;
	if (ent->type == AXFS_FT_CHR || ent->type == AXFS_FT_BLK) {
		ent->rdev_major = AXFS_DEV_MAJOR(r->rdev);
		ent->rdev_minor = AXFS_DEV_MINOR(r->rdev);
	}
	ent->link_target = r->link_target;
	if (r->link_to != SHARE_NO_LINK)
		ent->hardlink_to = s->recs[r->link_to].path;
	if (ent->type == AXFS_FT_REG) {
		ent->data.spool_offset = r->ino;
		ent->data.size = r->size;
		ent->data.data_bytes = r->size;	/* holes unknown */
	}
	return 1;
}

static int img_data_open(struct source *src,
			 const struct source_data_ref *ref, void **handle,
			 struct axfs_error *err)
{
	struct img_handle *h = calloc(1, sizeof(*h));

	if (!h)
		return axfs_error_sys(err, ENOMEM, "'%s'", src->name);
	h->ino = ref->spool_offset;
	h->size = ref->size;
	*handle = h;
	return 0;
}

static int img_data_pread(struct source *src, void *handle, void *buf,
			  size_t len, uint64_t off, size_t *got,
			  struct axfs_error *err)
{
	struct img_source *s = (struct img_source *)src;
	struct img_handle *h = handle;
	int rc;

	*got = 0;
	if (off >= h->size)
		return 0;
	if (len > h->size - off)
		len = (size_t)(h->size - off);
	pthread_mutex_lock(&s->lock);
	rc = axfs_image_read(s->img, h->ino, off, buf, len, got, err);
	pthread_mutex_unlock(&s->lock);
	if (rc < 0)
		return rc;
	if (*got < len)
		return axfs_error_set(err, AXFS_ERR_FORMAT,
				      "'%s': inode %llu is shorter than its "
				      "size", src->name,
				      (unsigned long long)h->ino);
	return 0;
}

static int img_data_read(struct source *src, void *handle, void *buf,
			 size_t len, size_t *got, struct axfs_error *err)
{
	struct img_handle *h = handle;
	int rc = img_data_pread(src, handle, buf, len, h->pos, got, err);

	if (rc == 0)
		h->pos += *got;
	return rc;
}

static void img_data_close(struct source *src, void *handle)
{
	(void)src;
	free(handle);
}

static void img_destroy(struct source *src)
{
	struct img_source *s = (struct img_source *)src;

	for (size_t i = 0; i < s->n; i++) {
		free(s->recs[i].path);
		free(s->recs[i].link_target);
	}
	free(s->recs);
	axfs_image_close(s->img);
	pthread_mutex_destroy(&s->lock);
	free((char *)s->base.name);
	free(s);
}

static const struct source_ops img_ops = {
	.next = img_next,
	.data_open = img_data_open,
	.data_read = img_data_read,
	.data_close = img_data_close,
	.data_pread = img_data_pread,
	.destroy = img_destroy,
};

int source_image_open(struct source **out, const char *path,
		      const struct source_opts *opts,
		      struct axfs_error *err)
{
	struct axfs_open_opts oo;
	struct axfs_image *img;
	int rc;

	*out = NULL;
	memset(&oo, 0, sizeof(oo));
	oo.struct_size = sizeof(oo);
	oo.store_path = opts ? opts->store_path : NULL;
	oo.max_memory = opts ? opts->max_memory : 0;
	rc = axfs_image_open(&img, path, &oo, err);
	if (rc < 0)
		return rc;
	return source_image_take(out, img, path, opts, err);
}

int source_image_take(struct source **out, struct axfs_image *img,
			    const char *path,
			    const struct source_opts *opts,
			    struct axfs_error *err)
{
	struct img_source *s;
	struct collect c;
	int rc;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		axfs_image_close(img);
		return axfs_error_sys(err, ENOMEM, "'%s'", path);
	}
	pthread_mutex_init(&s->lock, NULL);
	s->base.ops = &img_ops;
	s->base.log = opts ? opts->log : NULL;
	s->img = img;
	s->base.name = strdup(path);
	if (!s->base.name) {
		img_destroy(&s->base);
		return axfs_error_sys(err, ENOMEM, "'%s'", path);
	}
	s->timestamp = (int64_t)axfs_image_super(s->img)->timestamp;
	s->base.has_timestamp = 1;
	s->base.timestamp = s->timestamp;
	c.s = s;
	c.err = err;
	c.rc = 0;
	rc = axfs_image_walk(s->img, collect_fn, &c, err);
	if (rc > 0)
		rc = c.rc;
	if (rc == 0)
		rc = find_links(s, err);
	if (rc < 0) {
		img_destroy(&s->base);
		return rc;
	}
	*out = &s->base;
	return 0;
}

int source_is_image(const char *path)
{
	unsigned char m[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = pread(fd, m, sizeof(m), AXFS_SB_MAGIC);
	close(fd);
	return n == (ssize_t)sizeof(m) && get_unaligned_be32(m) == AXFS_MAGIC;
}

int source_image_share(const struct source *src, struct share_totals *t)
{
	if (!src || src->ops != &img_ops)
		return -1;
	*t = ((const struct img_source *)src)->share;
	return 0;
}
