// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * reader_path.c - whole paths inside an image: axfs_image_lookup() (no
 * symbolic link followed, for what must see the image as stored) and
 * axfs_image_resolve() (links followed as the kernel follows them, for
 * what a user names: `axfs cat IMG /etc/os-release`, `ls`, `extract`).
 *
 * One loop serves both.  It keeps the directories it went through as a
 * stack of inode numbers, so ".." goes back to the directory the path
 * (or the link) really came from, and never above the root.  A link
 * replaces itself in the rest of the path by its target: the text still
 * to resolve is target + rest, so its length is bounded by the path given
 * plus AXFS_RESOLVE_MAX_LINKS targets of at most 4095 bytes, and so is
 * the stack.
 */
#include "internal.h"
#include "reader_device.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* axfs_image_lookup(): a link on the way is not a directory. */
#define RESOLVE_NO_LINKS	0x100u

struct level {
	uint64_t ino;
	size_t real_len;		/* length of real[] down to here */
};

struct resolver {
	struct axfs_image *img;
	const char *path;		/* as given, for messages */
	struct level *lv;
	size_t depth, cap;		/* lv[0] is the root */
	char *real;			/* "/usr/lib" (empty for the root) */
	size_t real_cap;
	struct axfs_error *err;
};

static int push(struct resolver *r, uint64_t ino, const char *name,
		size_t len)
{
	size_t at = r->lv[r->depth - 1].real_len;

	if (r->depth == r->cap) {
		size_t ncap = r->cap * 2;
		struct level *n = realloc(r->lv, ncap * sizeof(*n));

		if (!n)
			return axfs_error_sys(r->err, ENOMEM, "'%s'", r->path);
		r->lv = n;
		r->cap = ncap;
	}
	if (at + len + 2 > r->real_cap) {
		size_t ncap = (at + len + 2) * 2;
		char *n = realloc(r->real, ncap);

		if (!n)
			return axfs_error_sys(r->err, ENOMEM, "'%s'", r->path);
		r->real = n;
		r->real_cap = ncap;
	}
	r->real[at] = '/';
	memcpy(r->real + at + 1, name, len);
	r->real[at + 1 + len] = '\0';
	r->lv[r->depth].ino = ino;
	r->lv[r->depth].real_len = at + 1 + len;
	r->depth++;
	return 0;
}

static int fail(struct resolver *r, int code, const char *why)
{
	return axfs_error_set(r->err, code, "'%s': '%s': %s", r->img->name,
			      r->path, why);
}

/* The inode the walk is at, which must be a directory (*d: its info). */
static int at_dir(struct resolver *r, struct axfs_inode_info *d)
{
	int rc = axfs_image_inode(r->img, r->lv[r->depth - 1].ino, d, r->err);

	if (rc < 0)
		return rc;
	if (!S_ISDIR(d->mode))
		return fail(r, AXFS_ERR_NOT_FOUND, "not a directory");
	return 0;
}

/* The text still to resolve after following the link at the top of the
 * stack: its target, then `rest` (which is empty or starts with '/'). */
static int follow(struct resolver *r, const char *rest, char **todo)
{
	char target[AXFS_PAGE_SIZE];
	size_t tlen, rlen = strlen(rest);
	char *n;
	int rc;

	rc = axfs_image_readlink(r->img, r->lv[r->depth - 1].ino, target,
				 sizeof(target), r->err);
	if (rc < 0)
		return rc;
	tlen = strlen(target);
	if (tlen == 0)		/* as the kernel: an empty target is ENOENT */
		return fail(r, AXFS_ERR_NOT_FOUND,
			    "no such file or directory");
	n = malloc(tlen + rlen + 1);
	if (!n)
		return axfs_error_sys(r->err, ENOMEM, "'%s'", r->path);
	memcpy(n, target, tlen);
	memcpy(n + tlen, rest, rlen + 1);
	r->depth--;			/* the link's directory */
	if (n[0] == '/')
		r->depth = 1;
	*todo = n;
	return 0;
}

static int resolve(struct axfs_image *img, const char *path,
		   unsigned int flags, uint64_t *ino, char **real,
		   axfs_resolve_link_fn on_link, void *ctx,
		   struct axfs_error *err)
{
	struct resolver r = { .img = img, .path = path, .err = err };
	struct axfs_inode_info d;
	char *todo = strdup(path);
	const char *p = todo;
	unsigned int links = 0;
	int want_dir = 0, rc;

	r.cap = 16;
	r.lv = malloc(r.cap * sizeof(*r.lv));
	r.real_cap = 256;
	r.real = malloc(r.real_cap);
	if (!todo || !r.lv || !r.real) {
		rc = axfs_error_sys(err, ENOMEM, "'%s'", path);
		goto out;
	}
	r.lv[0].ino = 0;
	r.lv[0].real_len = 0;
	r.real[0] = '\0';
	r.depth = 1;
	for (;;) {
		const char *s, *q;
		uint64_t next;
		size_t len;
		int last;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		s = p;
		while (*p && *p != '/')
			p++;
		len = (size_t)(p - s);
		for (q = p; *q == '/'; q++)
			;
		last = !*q;
		want_dir = last && *p == '/';
		rc = at_dir(&r, &d);
		if (rc < 0)
			goto out;
		if (len == 1 && s[0] == '.')
			continue;
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			if (r.depth > 1)
				r.depth--;
			continue;
		}
		rc = reader_lookup_in_dir(img, &d, s, len, &next, err);
		if (rc < 0)
			goto out;
		if (next == UINT64_MAX) {
			rc = fail(&r, AXFS_ERR_NOT_FOUND,
				  "no such file or directory");
			goto out;
		}
		rc = push(&r, next, s, len);
		if (rc < 0)
			goto out;
		if (flags & RESOLVE_NO_LINKS)
			continue;
		rc = axfs_image_inode(img, next, &d, err);
		if (rc < 0)
			goto out;
		if (!S_ISLNK(d.mode) ||
		    (last && !want_dir && (flags & AXFS_RESOLVE_NOFOLLOW)))
			continue;
		if (++links > AXFS_RESOLVE_MAX_LINKS) {
			rc = fail(&r, AXFS_ERR_LOOP,
				  "too many levels of symbolic links");
			goto out;
		}
		if (on_link) {
			rc = on_link(ctx, r.real, next);
			if (rc)
				goto out;
		}
		{
			char *n;

			rc = follow(&r, p, &n);
			if (rc < 0)
				goto out;
			free(todo);
			todo = n;
			p = todo;
		}
	}
	if (want_dir) {
		rc = at_dir(&r, &d);
		if (rc < 0)
			goto out;
	}
	*ino = r.lv[r.depth - 1].ino;
	if (real) {
		r.real[r.lv[r.depth - 1].real_len] = '\0';
		*real = strdup(r.depth > 1 ? r.real : "/");
		if (!*real) {
			rc = axfs_error_sys(err, ENOMEM, "'%s'", path);
			goto out;
		}
	}
	rc = 0;
out:
	free(todo);
	free(r.lv);
	free(r.real);
	return rc;
}

int axfs_image_lookup(struct axfs_image *img, const char *path,
		      uint64_t *ino, struct axfs_error *err)
{
	return resolve(img, path, RESOLVE_NO_LINKS, ino, NULL, NULL, NULL,
		       err);
}

int axfs_image_resolve(struct axfs_image *img, const char *path,
		       unsigned int flags, uint64_t *ino, char **real,
		       axfs_resolve_link_fn on_link, void *ctx,
		       struct axfs_error *err)
{
	return resolve(img, path, flags & AXFS_RESOLVE_NOFOLLOW, ino, real,
		       on_link, ctx, err);
}

int axfs_image_is_split_segment(const char *path)
{
	uint8_t sb[AXFS_SB_MMAP_SIZE + 8];
	struct stat st;
	uint64_t len, size, mmap_size;
	int fd = open(path, O_RDONLY | O_CLOEXEC), dev, ok;

	if (fd < 0)
		return 0;
	ok = fstat(fd, &st) == 0 &&
	     reader_fd_length(fd, &st, &len, &dev) == 0 &&
	     pread(fd, sb, sizeof(sb), 0) == (ssize_t)sizeof(sb);
	close(fd);
	if (!ok || get_unaligned_be32(sb + AXFS_SB_MAGIC) != AXFS_MAGIC)
		return 0;
	size = get_unaligned_be64(sb + AXFS_SB_SIZE);
	mmap_size = get_unaligned_be64(sb + AXFS_SB_MMAP_SIZE);
	return size > len && mmap_size < size && mmap_size <= len;
}
