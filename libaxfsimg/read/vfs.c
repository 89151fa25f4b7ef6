// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfs.c - an image as the kernel driver shows it (axfs_vfs.h), for
 * servers that call in from many threads.
 *
 * Each call borrows an image handle (a clone reading its cblocks through
 * the shared pool) from a stack, so there are never more handles than
 * calls running at once, and gives it back.  The attributes follow
 * kernel/inode.c, lookup and readdir kernel/dir.c.  ".." of a directory
 * is the directory it was last looked up in, as the dentry tree of the
 * kernel has it: AXFS stores no parent.
 */
#include "axfs_format.h"
#include "axfs_vfs.h"
#include "opts_size.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#define DEFAULT_CACHE_BYTES	(32u << 20)

struct parent_map {			/* directory -> parent, open addressing */
	uint64_t *key;			/* inode number (>= 1); 0: empty */
	uint64_t *val;
	size_t cap, used;
};

struct axfs_vfs {
	struct axfs_image *img;
	struct axfs_cblock_pool *pool;
	pthread_mutex_t lock;		/* idle[] and parents */
	struct axfs_image **idle;
	size_t nidle, cap;
	struct parent_map parents;
	struct statvfs sfs;
};

int axfs_vfs_new(struct axfs_vfs **out, struct axfs_image *img,
		 const struct axfs_vfs_opts *o, struct axfs_error *err)
{
	const struct axfs_super_info *sb = axfs_image_super(img);
	struct axfs_vfs *v;
	size_t bytes = o && o->cache_bytes ? o->cache_bytes :
		       DEFAULT_CACHE_BYTES;
	int rc;

	*out = NULL;
	if (o && (rc = opts_size_check(o->struct_size, sizeof(*o),
				       "axfs_vfs_new", err)) < 0)
		return rc;
	v = calloc(1, sizeof(*v));
	if (!v)
		return axfs_error_sys(err, ENOMEM, "'%s': vfs",
				      axfs_image_name(img));
	rc = axfs_cblock_pool_new(&v->pool, img, bytes, err);
	if (rc < 0) {
		free(v);
		return rc;
	}
	v->img = img;
	pthread_mutex_init(&v->lock, NULL);
	v->sfs.f_bsize = v->sfs.f_frsize = AXFS_PAGE_SIZE;
	v->sfs.f_blocks = (axfs_image_file_size(img) + AXFS_PAGE_SIZE - 1) /
			  AXFS_PAGE_SIZE;
	v->sfs.f_files = sb->files;
	v->sfs.f_namemax = AXFS_MAXPATHLEN;
	v->sfs.f_flag = ST_RDONLY;
	*out = v;
	return 0;
}

void axfs_vfs_free(struct axfs_vfs *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nidle; i++)
		axfs_image_close(v->idle[i]);
	free(v->idle);
	free(v->parents.key);
	free(v->parents.val);
	axfs_cblock_pool_free(v->pool);
	pthread_mutex_destroy(&v->lock);
	free(v);
}

struct axfs_cblock_pool *axfs_vfs_pool(struct axfs_vfs *v)
{
	return v->pool;
}

void axfs_vfs_statfs(struct axfs_vfs *v, struct statvfs *st)
{
	*st = v->sfs;
}

/* ---- handles ------------------------------------------------------------ */

static struct axfs_image *take(struct axfs_vfs *v, struct axfs_error *err)
{
	struct axfs_image *h = NULL;

	pthread_mutex_lock(&v->lock);
	if (v->nidle)
		h = v->idle[--v->nidle];
	pthread_mutex_unlock(&v->lock);
	if (h)
		return h;
	if (axfs_image_clone(&h, v->img, err) < 0)
		return NULL;
	axfs_image_use_pool(h, v->pool, NULL);
	return h;
}

static void give(struct axfs_vfs *v, struct axfs_image *h)
{
	pthread_mutex_lock(&v->lock);
	if (v->nidle == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 16;
		struct axfs_image **n = realloc(v->idle, ncap * sizeof(*n));

		if (n) {
			v->idle = n;
			v->cap = ncap;
		}
	}
	if (v->nidle < v->cap) {
		v->idle[v->nidle++] = h;
		h = NULL;
	}
	pthread_mutex_unlock(&v->lock);
	axfs_image_close(h);		/* only when the stack cannot grow */
}

/* ---- parents (lock held) ------------------------------------------------ */

static size_t pm_slot(const struct parent_map *m, uint64_t k)
{
	uint64_t x = k * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(x >> 20) & (m->cap - 1);

	while (m->key[i] && m->key[i] != k)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void pm_set(struct parent_map *m, uint64_t dir, uint64_t parent)
{
	size_t i;

	if ((m->used + 1) * 2 > m->cap) {
		struct parent_map n = { .cap = m->cap ? m->cap * 2 : 256 };

		n.key = calloc(n.cap, sizeof(*n.key));
		n.val = calloc(n.cap, sizeof(*n.val));
		if (!n.key || !n.val) {
			free(n.key);
			free(n.val);
			return;		/* ".." then says the root */
		}
		for (size_t j = 0; j < m->cap; j++) {
			if (!m->key[j])
				continue;
			i = pm_slot(&n, m->key[j]);
			n.key[i] = m->key[j];
			n.val[i] = m->val[j];
		}
		n.used = m->used;
		free(m->key);
		free(m->val);
		*m = n;
	}
	i = pm_slot(m, dir);
	if (!m->key[i])
		m->used++;
	m->key[i] = dir;
	m->val[i] = parent;
}

static uint64_t pm_get(const struct parent_map *m, uint64_t dir)
{
	size_t i;

	if (!m->cap)
		return AXFS_VFS_ROOT;
	i = pm_slot(m, dir);
	return m->key[i] ? m->val[i] : AXFS_VFS_ROOT;
}

/* ---- attributes --------------------------------------------------------- */

static int eio(struct axfs_error *err, int rc)
{
	if (rc == AXFS_ERR_NOMEM || (err && err->sys_errno == ENOMEM))
		return -ENOMEM;
	return -EIO;
}

static int bad_inode(struct axfs_image *h, uint64_t ino,
		     struct axfs_error *err, const char *why)
{
	axfs_error_set(err, AXFS_ERR_FORMAT, "'%s': inode %" PRIu64 ": %s",
		       axfs_image_name(h), ino, why);
	return -EIO;
}

/* The image inode behind number ino (>= 1). */
static int get_inode(struct axfs_image *h, uint64_t ino,
		     struct axfs_inode_info *in, struct axfs_error *err)
{
	int rc;

	if (ino < AXFS_VFS_ROOT) {
		axfs_error_set(err, AXFS_ERR_INVALID, "'%s': no inode 0",
			       axfs_image_name(h));
		return -EINVAL;
	}
	rc = axfs_image_inode(h, ino - 1, in, err);
	return rc < 0 ? eio(err, rc) : 0;
}

/* A handle and the inode behind ino; on failure no handle is held. */
static int begin(struct axfs_vfs *v, uint64_t ino, struct axfs_image **h,
		 struct axfs_inode_info *in, struct axfs_error *err)
{
	int rc;

	*h = take(v, err);
	if (!*h)
		return -ENOMEM;
	rc = get_inode(*h, ino, in, err);
	if (rc < 0) {
		give(v, *h);
		*h = NULL;
	}
	return rc;
}

/* 2 + the subdirectories, as kernel/inode.c counts them. */
static nlink_t dir_nlink(struct axfs_image *h, const struct axfs_inode_info *d)
{
	uint64_t files = axfs_image_super(h)->files;
	uint64_t n = d->num_entries;
	nlink_t nlink = 2;
	struct axfs_inode_info c;

	if (d->array_index >= files)
		return nlink;
	if (n > files - d->array_index)
		n = files - d->array_index;
	for (uint64_t i = 0; i < n; i++)
		if (axfs_image_inode(h, d->array_index + i, &c, NULL) == 0 &&
		    S_ISDIR(c.mode) && nlink < UINT32_MAX)
			nlink++;
	return nlink;
}

static int fill_stat(struct axfs_image *h, const struct axfs_inode_info *in,
		     struct stat *st, struct axfs_error *err)
{
	const struct axfs_super_info *sb = axfs_image_super(h);
	uint64_t ino = in->ino + 1;

	memset(st, 0, sizeof(*st));
	st->st_ino = (ino_t)ino;
	st->st_mode = in->mode;
	st->st_nlink = 1;
	st->st_uid = in->uid;
	st->st_gid = in->gid;
	st->st_blksize = AXFS_PAGE_SIZE;
	st->st_atim.tv_sec = st->st_mtim.tv_sec = st->st_ctim.tv_sec =
		(time_t)sb->timestamp;
	switch (in->mode & S_IFMT) {
	case S_IFLNK:
		if (in->size == 0 || in->size >= AXFS_PAGE_SIZE)
			return bad_inode(h, ino, err, "a symbolic link target "
					 "must be 1 to 4095 bytes");
		/* Its size and blocks are a file's: */
		/* fall through */
	case S_IFREG:
		if (in->size > INT64_MAX)
			return bad_inode(h, ino, err, "file size beyond what "
					 "Linux can address");
		st->st_size = (off_t)in->size;
		st->st_blocks = (blkcnt_t)((in->size + 511) / 512);
		break;
	case S_IFDIR:
		st->st_size = (off_t)(in->size > INT64_MAX ? INT64_MAX :
				      in->size);
		st->st_nlink = dir_nlink(h, in);
		break;
	case S_IFCHR:
	case S_IFBLK: {
		uint64_t dev = in->file_size;

		if (dev > UINT32_MAX)
			return bad_inode(h, ino, err, "device number beyond 32 "
					 "bits");
		/* new_decode_dev(): 12-bit major, 20-bit minor. */
		st->st_rdev = makedev((unsigned int)((dev & 0xfff00) >> 8),
				      (unsigned int)((dev & 0xff) |
						     ((dev >> 12) & 0xfff00)));
		break;
	}
	case S_IFIFO:
	case S_IFSOCK:
		break;
	default:
		return bad_inode(h, ino, err, "unknown file type");
	}
	return 0;
}

int axfs_vfs_getattr(struct axfs_vfs *v, uint64_t ino, struct stat *st,
		     struct axfs_error *err)
{
	struct axfs_image *h;
	struct axfs_inode_info in;
	int rc = begin(v, ino, &h, &in, err);

	if (rc < 0)
		return rc;
	rc = fill_stat(h, &in, st, err);
	give(v, h);
	return rc;
}

int axfs_vfs_lookup(struct axfs_vfs *v, uint64_t dir, const char *name,
		    size_t len, uint64_t *ino, struct stat *st,
		    struct axfs_error *err)
{
	struct axfs_image *h;
	struct axfs_inode_info d, in;
	uint64_t found;
	int rc;

	*ino = 0;
	if (len > AXFS_MAXPATHLEN)
		return -ENAMETOOLONG;
	rc = begin(v, dir, &h, &d, err);
	if (rc < 0)
		return rc;
	if (!S_ISDIR(d.mode))
		rc = -ENOTDIR;
	if (rc == 0) {
		rc = axfs_image_lookup_at(h, dir - 1, name, len, &found, err);
		rc = rc < 0 ? eio(err, rc) : found == UINT64_MAX ? -ENOENT : 0;
	}
	if (rc == 0)
		rc = get_inode(h, found + 1, &in, err);
	if (rc == 0)
		rc = fill_stat(h, &in, st, err);
	give(v, h);
	if (rc < 0)
		return rc;
	*ino = found + 1;
	if (S_ISDIR(in.mode)) {
		pthread_mutex_lock(&v->lock);
		pm_set(&v->parents, *ino, dir);
		pthread_mutex_unlock(&v->lock);
	}
	return 0;
}

/* ---- directories --------------------------------------------------------- */

static int name_ok(const char *s, size_t len)
{
	if (len == 0 || len > AXFS_MAXPATHLEN || memchr(s, '/', len))
		return 0;
	return !(s[0] == '.' && (len == 1 || (len == 2 && s[1] == '.')));
}

int axfs_vfs_readdir(struct axfs_vfs *v, uint64_t dir, uint64_t pos,
		     axfs_vfs_dirent_fn fn, void *ctx, struct axfs_error *err)
{
	struct axfs_image *h;
	struct axfs_inode_info d, c;
	uint64_t files, parent;
	int rc = begin(v, dir, &h, &d, err), listed = 0;

	if (rc < 0)
		return rc;
	if (!S_ISDIR(d.mode))
		rc = -ENOTDIR;
	files = axfs_image_super(h)->files;
	/* kernel/dir.c: the whole listing fails on a bad range. */
	if (rc == 0 && d.num_entries &&
	    (d.array_index >= files || d.num_entries > files - d.array_index))
		rc = bad_inode(h, dir, err, "its entries lie beyond the last "
			       "inode");
	if (rc < 0)
		goto out;
	if (pos == 0) {
		if (fn(ctx, ".", dir, S_IFDIR, 1))
			goto out;
		listed = 1;
		pos = 1;
	}
	if (pos == 1) {
		pthread_mutex_lock(&v->lock);
		parent = dir == AXFS_VFS_ROOT ? dir : pm_get(&v->parents, dir);
		pthread_mutex_unlock(&v->lock);
		if (fn(ctx, "..", parent, S_IFDIR, 2))
			goto out;
		listed = 1;
		pos = 2;
	}
	for (uint64_t k = pos - 2; k < d.num_entries; k++) {
		int r = axfs_image_inode(h, d.array_index + k, &c, err);

		if (r < 0) {
			if (!listed)
				rc = eio(err, r);
			break;
		}
		if (!name_ok(c.name, c.name_len))
			continue;
		if (fn(ctx, c.name, c.ino + 1, c.mode & S_IFMT, k + 3))
			break;
		listed = 1;
	}
out:
	give(v, h);
	return rc;
}

/* ---- contents ------------------------------------------------------------ */

int axfs_vfs_open(struct axfs_vfs *v, uint64_t ino, struct axfs_error *err)
{
	struct stat st;
	int rc = axfs_vfs_getattr(v, ino, &st, err);

	if (rc == 0 && S_ISDIR(st.st_mode))
		rc = -EISDIR;
	else if (rc == 0 && !S_ISREG(st.st_mode))
		rc = -EINVAL;
	return rc;
}

int axfs_vfs_read(struct axfs_vfs *v, uint64_t ino, uint64_t off, void *buf,
		  size_t len, size_t *got, struct axfs_error *err)
{
	struct axfs_image *h;
	struct axfs_inode_info in;
	int rc;

	*got = 0;
	rc = begin(v, ino, &h, &in, err);
	if (rc < 0)
		return rc;
	if (!S_ISREG(in.mode))
		rc = S_ISDIR(in.mode) ? -EISDIR : -EINVAL;
	if (rc == 0) {
		rc = axfs_image_read(h, ino - 1, off, buf, len, got, err);
		rc = rc < 0 ? eio(err, rc) : 0;
	}
	give(v, h);
	return rc;
}

int axfs_vfs_readlink(struct axfs_vfs *v, uint64_t ino, char *buf,
		      size_t len, struct axfs_error *err)
{
	struct axfs_image *h;
	struct axfs_inode_info in;
	struct stat st;
	int rc = begin(v, ino, &h, &in, err);

	if (rc < 0)
		return rc;
	if (!S_ISLNK(in.mode))
		rc = -EINVAL;
	if (rc == 0)
		rc = fill_stat(h, &in, &st, err);
	if (rc == 0) {
		rc = axfs_image_readlink(h, ino - 1, buf, len, err);
		rc = rc == AXFS_ERR_LIMIT ? -ENAMETOOLONG :
		     rc < 0 ? eio(err, rc) : 0;
	}
	give(v, h);
	return rc;
}
