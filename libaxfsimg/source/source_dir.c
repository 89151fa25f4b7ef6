// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source_dir.c - the directory source: walks a host tree depth-first,
 * every directory's names in bytewise (strcmp) order, never following
 * symlinks below the top.
 *
 * The order is fixed so that everything the walk decides is reproducible
 * whatever readdir returns: the first path of a hard-link group becomes
 * its master, and errors are reported for the same file every time.
 * Only metadata is read here; file data is read later, through
 * data_open/data_read, which check that the file still has the size it
 * had during the walk.
 */
#include "source.h"
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "axfs_format.h"

struct dir_frame {
	char *rel;			/* image path of the directory */
	char **names;			/* its entries, sorted */
	size_t n, i;
};

struct hl_slot {			/* (st_dev, st_ino) -> first path */
	dev_t dev;
	ino_t ino;
	char *path;			/* NULL: empty slot */
};

struct dir_source {
	struct source base;
	char *root;			/* as given, without trailing '/' */
	char **excl_rel;		/* excluded paths relative to root */
	size_t nexcl;
	struct dir_frame *stack;
	size_t depth, cap;
	int started;
	struct hl_slot *hl;
	size_t hl_slots, hl_used;
	/* Strings handed out with the current entry. */
	char *rel, *target, *link_to;
	size_t rel_cap, target_cap;
};

struct dir_handle {
	int fd;
	uint64_t size, done;
	char *path;
};

/* ---- small helpers ------------------------------------------------------ */

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int slash = la && a[la - 1] != '/' && lb;
	char *s = malloc(la + lb + 2);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	if (slash)
		s[la++] = '/';
	memcpy(s + la, b, lb + 1);
	return s;
}

/*
 * The kernel takes paths of at most PATH_MAX bytes.  An entry nested
 * deeper is reached by opening its parent directory one component at a
 * time below the root, never following a symlink, and naming it through
 * /proc/self/fd: nothing in the format limits the depth of a tree.
 */
struct reach {
	int fd;				/* the parent directory, or -1 */
	char alias[32 + NAME_MAX];
};

/* The path to use for entry `rel` of the tree at `root` (whose host path
 * is `host`): `host` itself when short enough, else r->alias; NULL with
 * errno set when a directory on the way cannot be opened. */
static const char *reach(const char *root, const char *host, const char *rel,
			 struct reach *r)
{
	const char *p = rel, *slash;
	int fd, e;

	r->fd = -1;
	if (strlen(host) < PATH_MAX)
		return host;
	fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	while (fd >= 0 && (slash = strchr(p, '/')) != NULL) {
		char comp[NAME_MAX + 1];
		size_t n = (size_t)(slash - p);
		int next = -1;

		errno = ENAMETOOLONG;
		if (n <= NAME_MAX) {
			memcpy(comp, p, n);
			comp[n] = '\0';
			next = openat(fd, comp, O_PATH | O_DIRECTORY |
				      O_NOFOLLOW | O_CLOEXEC);
		}
		e = errno;
		close(fd);
		errno = e;
		fd = next;
		p = slash + 1;
	}
	if (fd < 0)
		return NULL;
	if (strlen(p) > NAME_MAX) {
		close(fd);
		errno = ENAMETOOLONG;
		return NULL;
	}
	r->fd = fd;
	snprintf(r->alias, sizeof(r->alias), "/proc/self/fd/%d/%s", fd, p);
	return r->alias;
}

static void reach_done(struct reach *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Reads and sorts the names in host directory `path` (opened as `at`). */
static int read_names(const char *path, const char *at, char ***out,
		      size_t *nout, struct axfs_error *err)
{
	DIR *d = opendir(at);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		return axfs_error_sys(err, errno,
				      "cannot open directory '%s'", path);
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			size_t c = cap ? cap * 2 : 16;
			char **nv = realloc(v, c * sizeof(*v));

			if (!nv)
				goto nomem;
			v = nv;
			cap = c;
		}
		v[n] = strdup(de->d_name);
		if (!v[n])
			goto nomem;
		n++;
	}
	if (errno) {
		int e = errno;

		closedir(d);
		free_names(v, n);
		return axfs_error_sys(err, e, "cannot read directory '%s'",
				      path);
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	*nout = n;
	return 0;
nomem:
	closedir(d);
	free_names(v, n);
	return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory reading '%s'",
			      path);
}

static int ensure(char **buf, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 256;

	while (c < need)
		c *= 2;
	char *nb = realloc(*buf, c);

	if (!nb)
		return -1;
	*buf = nb;
	*cap = c;
	return 0;
}

/* ---- hard links --------------------------------------------------------- */

static size_t hl_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;

	return (size_t)(h ^ (h >> 29));
}

static struct hl_slot *hl_find(struct dir_source *s, dev_t dev, ino_t ino)
{
	size_t mask = s->hl_slots - 1;
	size_t i = hl_hash(dev, ino) & mask;

	while (s->hl[i].path && !(s->hl[i].dev == dev && s->hl[i].ino == ino))
		i = (i + 1) & mask;
	return &s->hl[i];
}

static int hl_grow(struct dir_source *s)
{
	struct hl_slot *old = s->hl;
	size_t oldn = s->hl_slots;

	s->hl_slots = oldn ? oldn * 2 : 64;
	s->hl = calloc(s->hl_slots, sizeof(*s->hl));
	if (!s->hl) {
		s->hl = old;
		s->hl_slots = oldn;
		return -1;
	}
	for (size_t i = 0; i < oldn; i++)
		if (old[i].path)
			*hl_find(s, old[i].dev, old[i].ino) = old[i];
	free(old);
	return 0;
}

/* Returns the first path seen for this inode, or records `rel` as it. */
static int hl_lookup(struct dir_source *s, const struct stat *st,
		     const char *rel, const char **first,
		     struct axfs_error *err)
{
	struct hl_slot *slot;

	*first = NULL;
	if ((s->hl_used + 1) * 2 > s->hl_slots && hl_grow(s) < 0)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	slot = hl_find(s, st->st_dev, st->st_ino);
	if (slot->path) {
		*first = slot->path;
		return 0;
	}
	slot->path = strdup(rel);
	if (!slot->path)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	slot->dev = st->st_dev;
	slot->ino = st->st_ino;
	s->hl_used++;
	return 0;
}

/* ---- the walk ----------------------------------------------------------- */

static int push_dir(struct dir_source *s, const char *rel, const char *host,
		    const char *at, struct axfs_error *err)
{
	struct dir_frame f = { 0 };
	int rc;

	if (s->depth == s->cap) {
		size_t c = s->cap ? s->cap * 2 : 16;
		struct dir_frame *v = realloc(s->stack, c * sizeof(*v));

		if (!v)
			return axfs_error_set(err, AXFS_ERR_NOMEM,
					      "out of memory");
		s->stack = v;
		s->cap = c;
	}
	rc = read_names(host, at, &f.names, &f.n, err);
	if (rc < 0)
		return rc;
	f.rel = strdup(rel);
	if (!f.rel) {
		free_names(f.names, f.n);
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	}
	s->stack[s->depth++] = f;
	return 0;
}

static void pop_dir(struct dir_source *s)
{
	struct dir_frame *f = &s->stack[--s->depth];

	free(f->rel);
	free_names(f->names, f->n);
}

static int is_excluded(const struct dir_source *s, const char *rel)
{
	for (size_t i = 0; i < s->nexcl; i++)
		if (strcmp(s->excl_rel[i], rel) == 0)
			return 1;
	return 0;
}

/* Flags xattrs and POSIX ACLs, which AXFS cannot store. */
static unsigned int xattr_lossy(const char *host)
{
	char small[1024], *list = small;
	ssize_t n = llistxattr(host, small, sizeof(small));
	unsigned int lossy = 0;

	if (n < 0 && errno == ERANGE) {
		n = llistxattr(host, NULL, 0);
		if (n <= 0)
			return 0;
		list = malloc((size_t)n);
		if (!list)
			return 0;
		n = llistxattr(host, list, (size_t)n);
	}
	for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t)strlen(list + i) + 1) {
		lossy |= source_xattr_lossy(list + i);
	}
	if (list != small)
		free(list);
	return lossy;
}

static int fill_from_stat(struct dir_source *s, struct source_entry *ent,
			  const char *host, const char *at,
			  const struct stat *st, struct axfs_error *err)
{
	ent->type = axfs_ftype_from_mode(st->st_mode);
	if (ent->type == AXFS_FT_NONE)
		return axfs_error_set(err, AXFS_ERR_UNSUPPORTED,
				      "'%s' has an unknown file type (mode %o)",
				      host, (unsigned int)st->st_mode);
	ent->mode = st->st_mode & 07777;
	ent->uid = st->st_uid;
	ent->gid = st->st_gid;
	ent->mtime = st->st_mtime;
	if (ent->type == AXFS_FT_CHR || ent->type == AXFS_FT_BLK) {
		ent->rdev_major = major(st->st_rdev);
		ent->rdev_minor = minor(st->st_rdev);
	}
	if (ent->type == AXFS_FT_LNK) {
		size_t want = (size_t)st->st_size + 1;

		for (;;) {
			ssize_t n;

			if (ensure(&s->target, &s->target_cap, want) < 0)
				return axfs_error_set(err, AXFS_ERR_NOMEM,
						      "out of memory");
			n = readlink(at, s->target, s->target_cap);
			if (n < 0)
				return axfs_error_sys(err, errno,
					"cannot read symlink '%s'", host);
			if ((size_t)n < s->target_cap) {
				s->target[n] = '\0';
				break;
			}
			want = s->target_cap * 2;	/* it grew */
		}
		ent->link_target = s->target;
	}
	ent->lossy = xattr_lossy(at);
	return 0;
}

/*
 * The bytes of a host file that hold data: its size when its blocks
 * cover it (the usual case: no file is opened for it), else the sum of
 * its SEEK_DATA extents.  What mkfs bounds the holes of a build by
 * (max_holes), before anything is allocated for them.  A file that cannot
 * be opened or mapped counts as all data: the packer reads it, and says
 * why it cannot.
 */
static uint64_t host_data_bytes(const char *at, const struct stat *st)
{
	uint64_t size = (uint64_t)st->st_size, data = 0, pos = 0;
	int fd;

	if ((uint64_t)st->st_blocks >= size / 512)
		return size;
	fd = open(at, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return size;
	while (pos < size) {
		off_t d = lseek(fd, (off_t)pos, SEEK_DATA), e;

		if (d < 0 && errno == ENXIO)
			break;
		if (d < 0 || (e = lseek(fd, d, SEEK_HOLE)) < d) {
			data = size;
			break;
		}
		if ((uint64_t)e > size)
			e = (off_t)size;
		data += (uint64_t)(e - d);
		pos = (uint64_t)e;
	}
	close(fd);
	return data < size ? data : size;
}

static int dir_next(struct source *src, struct source_entry *ent,
		    struct axfs_error *err)
{
	struct dir_source *s = (struct dir_source *)src;

	memset(ent, 0, sizeof(*ent));
	if (!s->started) {
		struct stat st;
		int rc;

		s->started = 1;
		if (stat(s->root, &st) < 0)
			return axfs_error_sys(err, errno, "cannot open '%s'",
					      s->root);
		if (!S_ISDIR(st.st_mode))
			return axfs_error_set(err, AXFS_ERR_INVALID,
					      "'%s' is not a directory", s->root);
		rc = push_dir(s, "", s->root, s->root, err);
		if (rc < 0)
			return rc;
		s->rel[0] = '\0';
		ent->path = s->rel;
		ent->type = AXFS_FT_DIR;
		ent->mode = st.st_mode & 07777;
		ent->uid = st.st_uid;
		ent->gid = st.st_gid;
		ent->mtime = st.st_mtime;
		ent->lossy = xattr_lossy(s->root);
		return 1;
	}

	while (s->depth) {
		struct dir_frame *f = &s->stack[s->depth - 1];
		const char *name;
		size_t lrel, lname;
		char *host;
		const char *at;
		struct reach r;
		struct stat st;
		int rc, access_errno = 0;
		uint64_t data_bytes = 0;

		if (f->i == f->n) {
			pop_dir(s);
			continue;
		}
		name = f->names[f->i++];
		lrel = strlen(f->rel);
		lname = strlen(name);
		if (ensure(&s->rel, &s->rel_cap, lrel + lname + 2) < 0)
			return axfs_error_set(err, AXFS_ERR_NOMEM,
					      "out of memory");
		if (lrel) {
			memcpy(s->rel, f->rel, lrel);
			s->rel[lrel] = '/';
			memcpy(s->rel + lrel + 1, name, lname + 1);
		} else {
			memcpy(s->rel, name, lname + 1);
		}
		host = join(s->root, s->rel);
		if (!host)
			return axfs_error_set(err, AXFS_ERR_NOMEM,
					      "out of memory");
		if (is_excluded(s, s->rel)) {
			axfs_log(src->log, AXFS_LOG_INFO,
				 "leaving out '%s' (the image being written)",
				 host);
			free(host);
			continue;
		}
		if (lname > AXFS_MAXPATHLEN) {
			rc = axfs_error_set(err, AXFS_ERR_LIMIT,
				"'%s': the name is %zu bytes long; AXFS names "
				"are at most %d bytes", host, lname,
				AXFS_MAXPATHLEN);
			free(host);
			return rc;
		}
		at = reach(s->root, host, s->rel, &r);
		if (!at || lstat(at, &st) < 0) {
			rc = axfs_error_sys(err, errno, "cannot stat '%s'", host);
			reach_done(&r);
			free(host);
			return rc;
		}
		rc = fill_from_stat(s, ent, host, at, &st, err);
		if (rc < 0) {
			reach_done(&r);
			free(host);
			return rc;
		}
		ent->path = s->rel;
		if (ent->type == AXFS_FT_DIR) {
			/* Reading it now reports an unreadable directory
			 * here, and continues the walk inside it next. */
			rc = push_dir(s, s->rel, host, at, err);
			reach_done(&r);
			free(host);
			return rc < 0 ? rc : 1;
		}
		if (ent->type == AXFS_FT_REG &&
		    faccessat(AT_FDCWD, at, R_OK, AT_EACCESS) < 0)
			access_errno = errno;
		if (ent->type == AXFS_FT_REG)
			data_bytes = host_data_bytes(at, &st);
		reach_done(&r);
		if (st.st_nlink > 1) {
			const char *first;

			rc = hl_lookup(s, &st, s->rel, &first, err);
			if (rc < 0) {
				free(host);
				return rc;
			}
			if (first) {
				free(s->link_to);
				s->link_to = strdup(first);
				if (!s->link_to) {
					free(host);
					return axfs_error_set(err,
						AXFS_ERR_NOMEM, "out of memory");
				}
				ent->hardlink_to = s->link_to;
				free(host);
				return 1;
			}
		}
		if (ent->type == AXFS_FT_REG) {
			/* Fail now, not after compressing for an hour. */
			if (access_errno) {
				rc = axfs_error_sys(err, access_errno,
						    "cannot read '%s'", host);
				free(host);
				return rc;
			}
			ent->data.host_path = host;	/* to the consumer */
			ent->data.size = (uint64_t)st.st_size;
			ent->data.data_bytes = data_bytes;
			return 1;
		}
		free(host);
		return 1;
	}
	return 0;
}

/* ---- data --------------------------------------------------------------- */

static int dir_data_open(struct source *src,
			 const struct source_data_ref *ref, void **handle,
			 struct axfs_error *err)
{
	struct dir_handle *h;
	struct stat st;

	*handle = NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	h->path = strdup(ref->host_path ? ref->host_path : "");
	if (!h->path) {
		free(h);
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	}
	h->size = ref->size;
	{
		const struct dir_source *s = (const struct dir_source *)src;
		const char *rel = h->path + strlen(s->root);
		struct reach r;
		const char *at;

		if (*rel == '/')
			rel++;
		at = reach(s->root, h->path, rel, &r);
		h->fd = at ? open(at, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
				  O_NOCTTY) : -1;
		reach_done(&r);
	}
	if (h->fd < 0) {
		int rc = axfs_error_sys(err, errno, "cannot open '%s'",
					h->path);

		free(h->path);
		free(h);
		return rc;
	}
	if (fstat(h->fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != h->size) {
		int rc = S_ISREG(st.st_mode) ?
			axfs_error_set(err, AXFS_ERR_IO,
				"'%s' changed while the image was being built "
				"(%llu bytes when scanned, %llu now)", h->path,
				(unsigned long long)h->size,
				(unsigned long long)st.st_size) :
			axfs_error_set(err, AXFS_ERR_IO,
				"'%s' is no longer a regular file", h->path);

		close(h->fd);
		free(h->path);
		free(h);
		return rc;
	}
	posix_fadvise(h->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	*handle = h;
	return 0;
}

/* Reads at the handle's own position (h->done), not the descriptor's, so
 * that data_hole may move the descriptor's offset with lseek. */
static int dir_data_read(struct source *src, void *handle, void *buf,
			 size_t len, size_t *got, struct axfs_error *err)
{
	struct dir_handle *h = handle;

	(void)src;
	return source_file_read(h->fd, h->path, h->size, &h->done, buf, len,
				got, err);
}

/*
 * The file system's own map of the file (lseek SEEK_DATA, SEEK_HOLE): the
 * hole at the position ends where the next data starts, or at the end of
 * the file when no data follows (ENXIO); that data ends at the next hole.
 * A file system that keeps no holes says "data to the end", and every
 * byte is read as before.  Any other failure is no hole and unknown data:
 * the bytes are then read, and a real I/O error shows there.
 */
static int dir_data_hole(struct source *src, void *handle,
			 uint64_t *hole, uint64_t *data,
			 struct axfs_error *err)
{
	struct dir_handle *h = handle;
	uint64_t left = h->size - h->done;
	off_t d, e;

	(void)src;
	(void)err;
	*hole = 0;
	*data = 0;
	if (!left)
		return 0;
	d = lseek(h->fd, (off_t)h->done, SEEK_DATA);
	if (d < 0) {
		if (errno == ENXIO)
			*hole = left;
		return 0;
	}
	if ((uint64_t)d >= h->size) {
		*hole = left;
		return 0;
	}
	*hole = (uint64_t)d > h->done ? (uint64_t)d - h->done : 0;
	e = lseek(h->fd, d, SEEK_HOLE);
	if (e > d)
		*data = ((uint64_t)e < h->size ? (uint64_t)e : h->size) -
			(uint64_t)d;
	return 0;
}

static int dir_data_skip(struct source *src, void *handle, uint64_t len,
			 struct axfs_error *err)
{
	struct dir_handle *h = handle;

	(void)src;
	if (len > h->size - h->done)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "'%s': cannot skip %llu bytes past its "
				      "end", h->path, (unsigned long long)len);
	h->done += len;
	return 0;
}

static int dir_data_pread(struct source *src, void *handle, void *buf,
			  size_t len, uint64_t off, size_t *got,
			  struct axfs_error *err)
{
	struct dir_handle *h = handle;

	(void)src;
	return source_file_pread(h->fd, h->path, h->size, buf, len, off, got,
				 err);
}

static void dir_data_close(struct source *src, void *handle)
{
	struct dir_handle *h = handle;

	(void)src;
	if (!h)
		return;
	close(h->fd);
	free(h->path);
	free(h);
}

static void dir_destroy(struct source *src)
{
	struct dir_source *s = (struct dir_source *)src;

	while (s->depth)
		pop_dir(s);
	free(s->stack);
	for (size_t i = 0; i < s->hl_slots; i++)
		free(s->hl[i].path);
	free(s->hl);
	for (size_t i = 0; i < s->nexcl; i++)
		free(s->excl_rel[i]);
	free(s->excl_rel);
	free(s->rel);
	free(s->target);
	free(s->link_to);
	free(s->root);
	free(s);
}

static const struct source_ops dir_ops = {
	.next = dir_next,
	.data_open = dir_data_open,
	.data_read = dir_data_read,
	.data_close = dir_data_close,
	.data_pread = dir_data_pread,
	.data_hole = dir_data_hole,
	.data_skip = dir_data_skip,
	.destroy = dir_destroy,
};

/*
 * The real path of `p`, also when p does not exist yet (the output image
 * before it is written): then its directory is resolved instead.
 */
static char *real_path_of(const char *p)
{
	char *r = realpath(p, NULL);
	char *dir, *slash, *base, *out;

	if (r)
		return r;
	dir = strdup(p);
	if (!dir)
		return NULL;
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		base = slash + 1;
		r = realpath(*dir ? dir : "/", NULL);
	} else {
		base = dir;
		r = realpath(".", NULL);
	}
	out = r ? join(r, base) : NULL;
	free(r);
	free(dir);
	return out;
}

int source_dir_open(struct source **out, const char *dir,
		    const struct source_opts *opts,
		    struct axfs_error *err)
{
	struct dir_source *s;
	char *realroot;
	size_t lroot;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	s->base.ops = &dir_ops;
	s->base.log = opts ? opts->log : NULL;
	s->root = strdup(dir);
	if (!s->root || ensure(&s->rel, &s->rel_cap, 256) < 0) {
		dir_destroy(&s->base);
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	}
	/* "dir/" and "dir" name the same tree; keep "/" as it is. */
	lroot = strlen(s->root);
	while (lroot > 1 && s->root[lroot - 1] == '/')
		s->root[--lroot] = '\0';
	s->base.name = s->root;

	realroot = realpath(s->root, NULL);
	if (!realroot) {
		int rc = axfs_error_sys(err, errno, "cannot open '%s'", dir);

		dir_destroy(&s->base);
		return rc;
	}
	/* Excluded host paths become paths relative to the root, so the
	 * walk compares strings instead of resolving every file. */
	if (opts && opts->n_exclude_host_paths) {
		size_t lr = strlen(realroot);

		s->excl_rel = calloc(opts->n_exclude_host_paths,
				     sizeof(*s->excl_rel));
		if (!s->excl_rel)
			goto nomem;
		for (size_t i = 0; i < opts->n_exclude_host_paths; i++) {
			char *r = real_path_of(opts->exclude_host_paths[i]);
			const char *rest;

			if (!r)
				continue;
			if (lr == 1)	/* the root is "/" */
				rest = r + 1;
			else if (strncmp(r, realroot, lr) == 0 && r[lr] == '/')
				rest = r + lr + 1;
			else
				rest = NULL;
			if (rest && *rest) {
				s->excl_rel[s->nexcl] = strdup(rest);
				if (!s->excl_rel[s->nexcl]) {
					free(r);
					goto nomem;
				}
				s->nexcl++;
			}
			free(r);
		}
	}
	free(realroot);
	*out = &s->base;
	return 0;
nomem:
	free(realroot);
	dir_destroy(&s->base);
	return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
}
