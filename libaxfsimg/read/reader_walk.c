// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * reader_walk.c - lookup in one directory and the depth-first walk of the
 * tree (whole paths: reader_path.c).
 *
 * Lookup runs the 2008 driver's axfs_lookup() loop, so a name that the
 * driver cannot find (because the directory is not in strcmp order) is
 * not found here either.  The walk lists each directory's children in
 * readdir order (inode order), depth-first, and refuses what would make
 * a tree unsafe or endless to follow: cycles (a directory reached twice),
 * names that are empty, "." or "..", contain '/' or run off the strings
 * region, and nesting deeper than 4096.  In strict mode it also refuses
 * names out of strcmp order (the driver's lookup would miss them), names
 * longer than 255 bytes (the VFS never looks them up), unknown file types
 * and any inode listed twice, which keeps the walk linear in the image
 * size.  Lenient mode allows shared non-directory inodes, up to a cap.
 */
#include "internal.h"
#include "pathbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * A name for a message, cut to the buffer ("..." when cut).  Its bytes are
 * kept as they are, as every name in a library message is: whoever shows
 * a message escapes it with the one rule of text.h (cmd/ escapes
 * every message as a whole), and JSON output escapes it as JSON, so an
 * escape here would be escaped twice.
 */
static const char *qname(char *buf, size_t size, const char *s, size_t len)
{
	if (len < size) {
		memcpy(buf, s, len);
		buf[len] = '\0';
	} else {
		memcpy(buf, s, size - 4);
		memcpy(buf + size - 4, "...", 4);
	}
	return buf;
}

/*
 * The children of a directory are inodes [array_index, +num_entries).  The
 * driver never reads array_index of an empty directory, and the legacy
 * mkfs leaves whatever it had there: not an error.
 */
static int dir_range(struct axfs_image *img, const struct axfs_inode_info *d,
		     struct axfs_error *err)
{
	if (d->num_entries == 0)
		return 0;
	if (d->array_index <= img->n_inodes &&
	    d->num_entries <= img->n_inodes - d->array_index)
		return 0;
	return reader_entry_err(img, err, AXFS_R_INODE_NUM_ENTRIES, d->ino,
				"directory inode %" PRIu64 " lists inodes [%"
				PRIu64 ", +%" PRIu64 "), beyond the %" PRIu64
				" inodes", d->ino, d->array_index,
				d->num_entries, img->n_inodes);
}

/*
 * One step of axfs_lookup().  The early exit compares the searched name's
 * first byte (unsigned char) with the entry's first byte as plain char,
 * which is signed on x86, our compatibility target.
 */
int reader_lookup_in_dir(struct axfs_image *img,
			const struct axfs_inode_info *dir, const char *name,
			size_t len, uint64_t *found, struct axfs_error *err)
{
	struct axfs_inode_info e;
	int rc;

	*found = UINT64_MAX;
	if (len > AXFS_MAXPATHLEN)
		return 0;	/* the VFS fails with ENAMETOOLONG first */
	rc = dir_range(img, dir, err);
	if (rc < 0)
		return rc;
	for (uint64_t i = 0; i < dir->num_entries; i++) {
		int c;

		rc = axfs_image_inode(img, dir->array_index + i, &e, err);
		if (rc < 0)
			return rc;
		if ((int)(unsigned char)name[0] < (int)(signed char)e.name[0])
			break;
		if (len != e.name_len)
			continue;
		c = memcmp(name, e.name, len);
		if (c > 0)
			continue;
		if (c < 0)
			break;
		*found = e.ino;
		return 0;
	}
	return 0;
}

int axfs_image_lookup_at(struct axfs_image *img, uint64_t dir,
			 const char *name, size_t len, uint64_t *ino,
			 struct axfs_error *err)
{
	struct axfs_inode_info d;
	int rc;

	*ino = UINT64_MAX;
	rc = reader_inode_of_type(img, dir, S_IFDIR, &d, err);
	if (rc < 0)
		return rc;
	if (len == 0)
		return 0;
	return reader_lookup_in_dir(img, &d, name, len, ino, err);
}

/* ---- a set of inode numbers (open addressing, keys stored + 1) ---- */

struct inoset {
	uint64_t *slot;
	size_t cap, used;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

/* 1: added, 0: already there, <0: no memory. */
static int inoset_add(struct inoset *s, uint64_t ino)
{
	size_t i;

	if ((s->used + 1) * 2 > s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 1024;
		uint64_t *n = calloc(ncap, sizeof(*n));

		if (!n)
			return -1;
		for (size_t j = 0; j < s->cap; j++) {
			if (!s->slot[j])
				continue;
			i = (size_t)mix(s->slot[j]) & (ncap - 1);
			while (n[i])
				i = (i + 1) & (ncap - 1);
			n[i] = s->slot[j];
		}
		free(s->slot);
		s->slot = n;
		s->cap = ncap;
	}
	i = (size_t)mix(ino + 1) & (s->cap - 1);
	while (s->slot[i]) {
		if (s->slot[i] == ino + 1)
			return 0;
		i = (i + 1) & (s->cap - 1);
	}
	s->slot[i] = ino + 1;
	s->used++;
	return 1;
}

/* ---- the walk ------------------------------------------------------------ */

struct frame {
	uint64_t ino, first, count, next;
	size_t pathlen;			/* the directory's own path length */
	const char *prev;		/* previous child's name (strings) */
	size_t prev_len;
};

struct walk {
	struct axfs_image *img;
	struct frame *st;
	size_t sp, st_cap;
	char *path;
	size_t path_cap;
	struct inoset seen;
	uint64_t visits;
};

static int path_set(struct walk *w, size_t at, const char *name, size_t len,
		    struct axfs_error *err)
{
	size_t need = at + 1 + len + 1;

	if (pathbuf_reserve(&w->path, &w->path_cap, need) < 0)
		return axfs_error_sys(err, ENOMEM, "walk");
	w->path[at] = '/';
	memcpy(w->path + at + 1, name, len);
	w->path[at + 1 + len] = '\0';
	return 0;
}

static int push(struct walk *w, const struct axfs_inode_info *d,
		size_t pathlen, struct axfs_error *err)
{
	struct frame *f;

	if (w->sp == w->st_cap) {
		size_t ncap = w->st_cap ? w->st_cap * 2 : 32;
		struct frame *n = realloc(w->st, ncap * sizeof(*n));

		if (!n)
			return axfs_error_sys(err, ENOMEM, "walk");
		w->st = n;
		w->st_cap = ncap;
	}
	f = &w->st[w->sp++];
	f->ino = d->ino;
	f->first = d->array_index;
	f->count = d->num_entries;
	f->next = 0;
	f->pathlen = pathlen;
	f->prev = NULL;
	f->prev_len = 0;
	return 0;
}

static int known_type(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: case S_IFDIR: case S_IFLNK: case S_IFCHR:
	case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		return 1;
	}
	return 0;
}

/* strcmp() order of two names that hold no NUL. */
static int name_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);

	if (c)
		return c;
	return al < bl ? -1 : al > bl;
}

/* An error about the name of inode c: names the byte where the name is
 * (or, when strings is stored compressed, its inode_name_offset entry). */
static int name_err(struct axfs_image *img, struct axfs_error *err,
		    const struct axfs_inode_info *c, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int name_err(struct axfs_image *img, struct axfs_error *err,
		    const struct axfs_inode_info *c, const char *fmt, ...)
{
	const struct axfs_region_info *st =
		axfs_image_region(img, AXFS_R_STRINGS);
	char msg[AXFS_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (st->compressed_size)
		return reader_entry_err(img, err, AXFS_R_INODE_NAME_OFFSET,
					c->ino, "%s", msg);
	return reader_img_err(img, err, AXFS_ERR_FORMAT,
			      st->fsoffset + c->name_offset, "%s", msg);
}

/* Checks the child `c` of directory frame `f`, whose path is w->path. */
static int check_child(struct walk *w, struct frame *f,
		       const struct axfs_inode_info *c, struct axfs_error *err)
{
	struct axfs_image *img = w->img;
	const char *dir = f->pathlen ? w->path : "/";
	char q[64], q2[64];
	const char *bad = NULL;

	w->path[f->pathlen ? f->pathlen : 0] = '\0';
	if (c->name_len == 0)
		bad = "an empty name";
	else if (memchr(c->name, '/', c->name_len))
		bad = "a '/' in its name";
	else if (!strcmp(c->name, ".") || !strcmp(c->name, ".."))
		bad = "a name the VFS never looks up";
	else if (!img->lenient && c->name_len > AXFS_MAXPATHLEN)
		bad = "a name longer than 255 bytes (the VFS never looks it up)";
	if (bad)
		return name_err(img, err, c, "inode %" PRIu64 " in directory "
				"'%s' has %s ('%s')", c->ino, dir, bad,
				qname(q, sizeof(q), c->name, c->name_len));
	if (img->lenient)
		return 0;
	if (f->prev && name_cmp(f->prev, f->prev_len, c->name,
				c->name_len) >= 0)
		return name_err(img, err, c, "inode %" PRIu64 ": directory "
				"'%s' lists '%s' after '%s': names must be "
				"unique and in strcmp order, or the driver's "
				"lookup cannot find them", c->ino, dir,
				qname(q, sizeof(q), c->name, c->name_len),
				qname(q2, sizeof(q2), f->prev, f->prev_len));
	if (!known_type(c->mode))
		return reader_entry_err(img, err, AXFS_R_MODES, c->mode_index,
					"inode %" PRIu64 " ('%s' in '%s') has "
					"mode 0%o, an unknown file type", c->ino,
					qname(q, sizeof(q), c->name,
					     c->name_len), dir, c->mode);
	return 0;
}

static int walk_run(struct walk *w, axfs_walk_fn fn, void *ctx,
		    struct axfs_error *err)
{
	struct axfs_image *img = w->img;
	struct axfs_inode_info in;
	uint64_t max_visits = 2 * img->n_inodes + 64;
	int rc;

	rc = axfs_image_inode(img, 0, &in, err);
	if (rc < 0)
		return rc;
	if (!S_ISDIR(in.mode))
		return reader_entry_err(img, err, AXFS_R_MODES, in.mode_index,
					"the root inode is a %s, not a "
					"directory", reader_type_name(in.mode));
	if ((rc = dir_range(img, &in, err)) < 0)
		return rc;
	if (inoset_add(&w->seen, 0) < 0 || path_set(w, 0, "", 0, err) < 0)
		return axfs_error_sys(err, ENOMEM, "walk");
	rc = fn(ctx, "/", &in);
	if (rc)
		return rc;
	if ((rc = push(w, &in, 0, err)) < 0)
		return rc;

	while (w->sp > 0) {
		struct frame *f = &w->st[w->sp - 1];
		uint64_t k;
		int added;

		if (f->next == f->count) {
			w->sp--;
			continue;
		}
		k = f->first + f->next++;
		rc = axfs_image_inode(img, k, &in, err);
		if (rc < 0)
			return rc;
		rc = check_child(w, f, &in, err);
		if (rc < 0)
			return rc;
		f->prev = in.name;
		f->prev_len = in.name_len;
		rc = path_set(w, f->pathlen, in.name, in.name_len, err);
		if (rc < 0)
			return rc;
		added = inoset_add(&w->seen, k);
		if (added < 0)
			return axfs_error_sys(err, ENOMEM, "walk");
		if (!added && (S_ISDIR(in.mode) || !img->lenient))
			return reader_entry_err(img, err,
						AXFS_R_INODE_ARRAY_INDEX, f->ino,
						"'%s' is inode %" PRIu64 ", which "
						"was already reached another "
						"way: %s", w->path, k,
						S_ISDIR(in.mode) ? "a cycle or a "
						"hard-linked directory" :
						"an inode listed in two "
						"directories");
		if (++w->visits > max_visits)
			return reader_img_err(img, err, AXFS_ERR_FORMAT,
					      UINT64_MAX, "the directories list "
					      "more than %" PRIu64 " entries for "
					      "%" PRIu64 " inodes", max_visits,
					      img->n_inodes);
		rc = fn(ctx, w->path, &in);
		if (rc)
			return rc;
		if (!S_ISDIR(in.mode))
			continue;
		if (w->sp > READER_MAX_DEPTH)
			return reader_img_err(img, err, AXFS_ERR_LIMIT,
					      UINT64_MAX, "nested more than %d "
					      "directories deep: '%s'",
					      READER_MAX_DEPTH, w->path);
		if ((rc = dir_range(img, &in, err)) < 0)
			return rc;
		rc = push(w, &in, f->pathlen + 1 + in.name_len, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int axfs_image_walk(struct axfs_image *img, axfs_walk_fn fn, void *ctx,
		    struct axfs_error *err)
{
	struct walk w;
	int rc;

	memset(&w, 0, sizeof(w));
	w.img = img;
	rc = walk_run(&w, fn, ctx, err);
	free(w.st);
	free(w.path);
	free(w.seen.slot);
	return rc;
}
