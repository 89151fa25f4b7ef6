// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source_archive.c - the archive source: any tar, pax or cpio archive
 * libarchive reads, compressed or not, from a file or standard input.
 *
 * The archive is read exactly once, on the first call to next(): every
 * entry's metadata is kept in memory and every regular file's data is
 * copied to an unlinked spool file (through a bounded buffer, holes of
 * sparse entries left as holes, and where the blocks went recorded, so
 * that data_hole knows them without reading), so memory grows with the
 * number of entries and data blocks, never with the data or the holes.  Entries are then handed out in archive
 * order; data_open/data_read read the spool back with pread, so handles
 * are independent and may be used from several threads.
 *
 * Reading everything first is what lets hard links come out right: cpio
 * newc stores a link group's data with its LAST member, after the first
 * member has been seen with size 0, and a pax or odc hard link may carry
 * data that replaces the group's; the group's master record is updated
 * before any entry is handed out.
 *
 * Names are normalised, never guessed: "./" prefixes, "." components,
 * repeated and trailing slashes are dropped, "." and "./" are the root,
 * and a leading "/" is removed (with one warning, as tar does: the image
 * is a root filesystem, so "/etc" can only mean its "etc").  A ".."
 * component is rejected with an error naming the entry, since what it
 * means depends on symlinks; so are names longer than 255 bytes.  Names
 * are kept as the bytes the archive holds, whatever the locale.
 */
#include "source.h"
#include "internal.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_format.h"
#include "foreign.h"
#include "tree.h"

#define SPOOL_BUF_SIZE	(256u * 1024u)	/* bounded write buffer */
#define READ_BLOCK_SIZE	(64u * 1024u)	/* libarchive's read size */
#define NO_MASTER	((size_t)-1)

/* One archive entry, metadata only. */
struct rec {
	char *path;			/* normalised image path (owned) */
	char *link_target;		/* symlink target (owned) */
	size_t master;			/* hard link: record of the group's
					 * first member, else NO_MASTER */
	size_t link_to;			/* hard link: the record it names */
	enum axfs_ftype type;
	uint32_t mode, uid, gid;
	uint32_t rdev_major, rdev_minor;
	int64_t mtime;
	uint64_t off, size;		/* data in the spool */
	uint64_t data;			/* of size, bytes the archive holds */
	unsigned int lossy;
};

struct spool {
	int fd;
	uint64_t end;			/* logical length of the spool */
	char *buf;			/* pending bytes for [buf_off, +used) */
	uint64_t buf_off;
	size_t used;
	const char *dir;		/* for messages */
};

/* Bytes of the spool an archive block filled: [start, end).  Sorted and
 * disjoint (the spool only grows); what lies between is a hole. */
struct extent {
	uint64_t start, end;
};

struct arc_source {
	struct source base;
	char *path;			/* as given; "-" is standard input */
	const char *disp;		/* for messages */
	struct archive *ar;
	locale_t utf8;			/* (locale_t)0 if unavailable */
	struct spool spool;
	/* Where archive blocks put data: the holes of sparse members are
	 * known without reading the spool.  One entry per run of adjacent
	 * blocks, so at most one per block with data: bounded by what the
	 * archive holds. */
	struct extent *ext;
	size_t n_ext, ext_cap;
	struct rec *recs;
	size_t n, cap;
	size_t *index;			/* path hash -> record + 1; 0 empty */
	size_t index_slots, index_used;
	size_t next_out;
	int state;			/* 0 not read, 1 read, -1 failed */
	struct axfs_error failure;	/* repeated after a failure */
	char *prev;			/* name of the last entry read */
	size_t prev_cap;
	int warned_abs;
	char *tmpdir;
	/* Standard input whose first bytes were already read (mkfs -
	 * looked for an image's superblock): handed to libarchive first. */
	unsigned char prefix[AXFS_SUPER_SIZE_EXT];
	size_t prefix_len;
	int prefix_given, prefix_done;
	unsigned char *rbuf;		/* READ_BLOCK_SIZE, after the prefix */
};

struct arc_handle {
	uint64_t off, size, done;
	const char *name;		/* the entry, for messages */
};

/* ---- messages ----------------------------------------------------------- */

/* "'archive': entry 'name': ..." — every archive error names both. */
static int fail_entry(struct arc_source *s, struct axfs_error *err, int code,
		      const char *entry, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail_entry(struct arc_source *s, struct axfs_error *err, int code,
		      const char *entry, const char *fmt, ...)
{
	char what[AXFS_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (entry)
		return axfs_error_set(err, code, "'%s': entry '%s': %s",
				      s->disp, entry, what);
	return axfs_error_set(err, code, "'%s': %s", s->disp, what);
}

static int nomem(struct axfs_error *err)
{
	return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
}

static const char *ar_msg(struct archive *a)
{
	const char *m = archive_error_string(a);

	return m && *m ? m : "unknown libarchive error";
}

/* The code for a failure libarchive reports. */
static int ar_code(struct archive *a)
{
	int e = archive_errno(a);

	if (e == ENOMEM)
		return AXFS_ERR_NOMEM;
	if (e == EIO)
		return AXFS_ERR_IO;
	return AXFS_ERR_PARSE;
}

/* ---- names ---------------------------------------------------------------- */

/*
 * Normalises an archive name into `out` (at least strlen(in) + 1 bytes):
 * see the comment at the top.  Returns 0, or an error code with *why set.
 */
static int norm_path(const char *in, char *out, int *absolute,
		     const char **why)
{
	const char *p = in;
	size_t n = 0;

	*absolute = 0;
	if (*p == '/') {
		*absolute = 1;
		while (*p == '/')
			p++;
	}
	while (*p) {
		const char *c = p;
		size_t len;

		while (*p && *p != '/')
			p++;
		len = (size_t)(p - c);
		while (*p == '/')
			p++;
		if (len == 0 || (len == 1 && c[0] == '.'))
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			*why = "'..' components are not allowed (extract the "
			       "archive and build from the directory if the "
			       "names are meant)";
			return AXFS_ERR_INVALID;
		}
		if (len > AXFS_MAXPATHLEN) {
			*why = "a name is longer than 255 bytes, the longest "
			       "AXFS can store";
			return AXFS_ERR_LIMIT;
		}
		if (n)
			out[n++] = '/';
		memcpy(out + n, c, len);
		n += len;
	}
	out[n] = '\0';
	return 0;
}

/* ---- the path index ------------------------------------------------------ */

static size_t str_hash(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return (size_t)(h ^ (h >> 32));
}

/* The slot for `path`: holding its record + 1, or 0 (empty). */
static size_t *index_slot(struct arc_source *s, const char *path)
{
	size_t mask = s->index_slots - 1;
	size_t i = str_hash(path) & mask;

	while (s->index[i] && strcmp(s->recs[s->index[i] - 1].path, path))
		i = (i + 1) & mask;
	return &s->index[i];
}

static int index_grow(struct arc_source *s)
{
	size_t *old = s->index, oldn = s->index_slots;

	s->index_slots = oldn ? oldn * 2 : 1024;
	s->index = calloc(s->index_slots, sizeof(*s->index));
	if (!s->index) {
		s->index = old;
		s->index_slots = oldn;
		return -1;
	}
	for (size_t i = 0; i < oldn; i++)
		if (old[i])
			*index_slot(s, s->recs[old[i] - 1].path) = old[i];
	free(old);
	return 0;
}

/* The latest record for `path`, or NO_MASTER. */
static size_t index_find(struct arc_source *s, const char *path)
{
	size_t *slot;

	if (!s->index_slots)
		return NO_MASTER;
	slot = index_slot(s, path);
	return *slot ? *slot - 1 : NO_MASTER;
}

/* Makes record r the latest one for its path. */
static int index_set(struct arc_source *s, size_t r)
{
	size_t *slot;

	if ((s->index_used + 1) * 2 > s->index_slots && index_grow(s) < 0)
		return -1;
	slot = index_slot(s, s->recs[r].path);
	if (!*slot)
		s->index_used++;
	*slot = r + 1;
	return 0;
}

/* ---- the spool ------------------------------------------------------------ */

static int spool_open(struct spool *sp, const char *dir,
		      struct axfs_error *err)
{
	size_t ld = strlen(dir);
	char *tmpl;

	sp->dir = dir;
	sp->buf = malloc(SPOOL_BUF_SIZE);
	if (!sp->buf)
		return nomem(err);
	/* Never linked into the directory: nothing to clean up after a
	 * crash.  Fall back to mkstemp + unlink where O_TMPFILE is not
	 * supported by the filesystem. */
#ifdef O_TMPFILE
	sp->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (sp->fd >= 0)
		return 0;
#endif
	tmpl = malloc(ld + sizeof("/axfs-spool.XXXXXX"));
	if (!tmpl)
		return nomem(err);
	memcpy(tmpl, dir, ld);
	memcpy(tmpl + ld, "/axfs-spool.XXXXXX", sizeof("/axfs-spool.XXXXXX"));
	sp->fd = mkostemp(tmpl, O_CLOEXEC);
	if (sp->fd < 0) {
		int rc = axfs_error_sys(err, errno,
			"cannot create a spool file for the archive's data "
			"in '%s'", dir);

		free(tmpl);
		return rc;
	}
	unlink(tmpl);
	free(tmpl);
	return 0;
}

static int spool_flush(struct spool *sp, struct axfs_error *err)
{
	size_t done = 0;

	while (done < sp->used) {
		ssize_t n = pwrite(sp->fd, sp->buf + done, sp->used - done,
				   (off_t)(sp->buf_off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return axfs_error_sys(err, n < 0 ? errno : ENOSPC,
				"cannot write the spool file for the archive's "
				"data in '%s'%s", sp->dir, n == 0 ||
				errno == ENOSPC || errno == EDQUOT ?
				" (set TMPDIR to a directory with room)" : "");
		done += (size_t)n;
	}
	sp->buf_off += sp->used;
	sp->used = 0;
	return 0;
}

/* Writes len bytes at spool offset off (anywhere at or after the data
 * already written; a gap is left as a hole). */
static int spool_write(struct spool *sp, uint64_t off, const void *data,
		       size_t len, struct axfs_error *err)
{
	const char *p = data;

	if (off != sp->buf_off + sp->used) {
		int rc = spool_flush(sp, err);

		if (rc < 0)
			return rc;
		sp->buf_off = off;
	}
	while (len) {
		size_t room = SPOOL_BUF_SIZE - sp->used;
		size_t k = len < room ? len : room;

		memcpy(sp->buf + sp->used, p, k);
		sp->used += k;
		p += k;
		len -= k;
		if (sp->used == SPOOL_BUF_SIZE) {
			int rc = spool_flush(sp, err);

			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/* Flushes and makes the file as long as the logical spool, so a trailing
 * hole reads back as zeros. */
static int spool_finish(struct spool *sp, struct axfs_error *err)
{
	struct stat st;
	int rc = spool_flush(sp, err);

	if (rc < 0)
		return rc;
	if (fstat(sp->fd, &st) < 0)
		return axfs_error_sys(err, errno,
				      "cannot stat the spool file in '%s'",
				      sp->dir);
	if ((uint64_t)st.st_size < sp->end &&
	    ftruncate(sp->fd, (off_t)sp->end) < 0)
		return axfs_error_sys(err, errno,
				      "cannot extend the spool file in '%s'",
				      sp->dir);
	free(sp->buf);
	sp->buf = NULL;
	return 0;
}

/* ---- reading the archive -------------------------------------------------- */

static enum axfs_ftype ftype_of(struct archive_entry *e)
{
	switch (archive_entry_filetype(e)) {
	case AE_IFREG: return AXFS_FT_REG;
	case AE_IFDIR: return AXFS_FT_DIR;
	case AE_IFLNK: return AXFS_FT_LNK;
	case AE_IFCHR: return AXFS_FT_CHR;
	case AE_IFBLK: return AXFS_FT_BLK;
	case AE_IFIFO: return AXFS_FT_FIFO;
	case AE_IFSOCK: return AXFS_FT_SOCK;
	}
	return AXFS_FT_NONE;
}

static unsigned int lossy_of(struct archive_entry *e)
{
	unsigned int lossy = 0;
	const char *name;
	const void *value;
	size_t size;

	if (archive_entry_xattr_reset(e) > 0)
		while (archive_entry_xattr_next(e, &name, &value, &size) ==
		       ARCHIVE_OK)
			lossy |= name ? source_xattr_lossy(name) :
				 SOURCE_LOSSY_XATTR;
	/* Only extended entries are counted: user::, group:: and other::
	 * are the mode bits, which are kept. */
	if (archive_entry_acl_count(e, ARCHIVE_ENTRY_ACL_TYPE_ACCESS |
				    ARCHIVE_ENTRY_ACL_TYPE_DEFAULT |
				    ARCHIVE_ENTRY_ACL_TYPE_NFS4) > 0)
		lossy |= SOURCE_LOSSY_ACL;
	return lossy;
}

/* Records that [start, start + n) of the spool holds archive data. */
static int add_extent(struct arc_source *s, uint64_t start, size_t n,
		      struct axfs_error *err)
{
	struct extent *x;

	if (s->n_ext && s->ext[s->n_ext - 1].end == start) {
		s->ext[s->n_ext - 1].end += n;
		return 0;
	}
	if (s->n_ext == s->ext_cap) {
		size_t cap = s->ext_cap ? s->ext_cap * 2 : 64;

		x = cap > SIZE_MAX / sizeof(*x) ? NULL :
		    realloc(s->ext, cap * sizeof(*x));
		if (!x)
			return nomem(err);
		s->ext = x;
		s->ext_cap = cap;
	}
	s->ext[s->n_ext].start = start;
	s->ext[s->n_ext].end = start + n;
	s->n_ext++;
	return 0;
}

/*
 * Copies the current entry's data to the end of the spool.  Blocks come
 * with their offsets; gaps (sparse holes) and a short tail up to the
 * size the archive declares stay holes, which read back as zeros.
 */
static int spool_entry_data(struct arc_source *s, struct archive_entry *e,
			    const char *name, int hardlink, uint64_t *off,
			    uint64_t *size, uint64_t *data,
			    struct axfs_error *err)
{
	uint64_t base = s->spool.end, len = 0, held = 0;
	int64_t declared = archive_entry_size_is_set(e) ?
		archive_entry_size(e) : 0;

	/* Refused before the spool grows to it (the tree's rule, checked
	 * here too: a sparse member claims any size for a few bytes). */
	if (declared > 0 && (uint64_t)declared > TREE_FILE_MAX)
		return fail_entry(s, err, AXFS_ERR_LIMIT, name,
			"it is %lld bytes; an AXFS file is at most %llu bytes "
			"(16 TiB - 4 KiB, the largest a 32-bit kernel opens)",
			(long long)declared, TREE_FILE_MAX);
	for (;;) {
		const void *buf;
		size_t n;
		la_int64_t at;
		int r = archive_read_data_block(s->ar, &buf, &n, &at);
		int rc;

		if (r == ARCHIVE_EOF)
			break;
		if (r == ARCHIVE_WARN) {
			axfs_log(s->base.log, AXFS_LOG_WARN,
				 "'%s': entry '%s': %s", s->disp, name,
				 ar_msg(s->ar));
		} else if (r != ARCHIVE_OK) {
			return fail_entry(s, err, ar_code(s->ar), name,
					  "cannot read its data: %s",
					  ar_msg(s->ar));
		}
		if (at < 0 || (uint64_t)at < len)
			return fail_entry(s, err, AXFS_ERR_PARSE, name,
				"its data blocks are out of order (offset %lld "
				"after %llu bytes)", (long long)at,
				(unsigned long long)len);
		if (n) {
			rc = spool_write(&s->spool, base + (uint64_t)at, buf, n,
					 err);
			if (rc == 0)
				rc = add_extent(s, base + (uint64_t)at, n, err);
			if (rc < 0)
				return rc;
			len = (uint64_t)at + n;
			held += n;
		}
	}
	if (declared > 0 && (uint64_t)declared > len) {
		/* Only a sparse entry may end before its size: the rest is
		 * a hole.  Anything else is short, whatever libarchive said
		 * (but a hard link's size may promise no data at all). */
		if (archive_entry_sparse_count(e) <= 0 && !(hardlink && !len))
			return fail_entry(s, err, AXFS_ERR_PARSE, name,
				"the archive declares %lld bytes but holds %llu",
				(long long)declared, (unsigned long long)len);
		len = (uint64_t)declared;
	}
	*off = base;
	*size = len;
	*data = held < len ? held : len;
	s->spool.end = base + len;
	return 0;
}

static int add_rec(struct arc_source *s, struct rec **out)
{
	if (s->n == s->cap) {
		size_t c = s->cap ? s->cap * 2 : 256;
		struct rec *v = realloc(s->recs, c * sizeof(*v));

		if (!v)
			return -1;
		s->recs = v;
		s->cap = c;
	}
	*out = memset(&s->recs[s->n++], 0, sizeof(**out));
	(*out)->master = NO_MASTER;
	(*out)->link_to = NO_MASTER;
	return 0;
}

static void drop_last_rec(struct arc_source *s)
{
	struct rec *r = &s->recs[--s->n];

	free(r->path);
	free(r->link_target);
}

/* Fills a hard-link record from the entry it names. */
static int read_hardlink(struct arc_source *s, struct archive_entry *e,
			 const char *name, struct rec *r,
			 struct axfs_error *err)
{
	const char *raw = archive_entry_hardlink(e);
	const char *why = NULL;
	char *target;
	size_t to, m;
	int abs, rc;

	if (!raw)
		raw = archive_entry_hardlink_utf8(e);
	target = malloc(strlen(raw) + 1);
	if (!target)
		return nomem(err);
	rc = norm_path(raw, target, &abs, &why);
	if (rc < 0) {
		rc = fail_entry(s, err, rc, name, "hard link to '%s': %s",
				raw, why);
		free(target);
		return rc;
	}
	if (!*target) {
		free(target);
		return fail_entry(s, err, AXFS_ERR_INVALID, name,
			"hard link to the root directory '%s': directories "
			"cannot be hard-linked", raw);
	}
	to = index_find(s, target);
	free(target);
	if (to == NO_MASTER)
		return fail_entry(s, err, AXFS_ERR_INVALID, name,
			"hard link to '%s', which is not earlier in the archive",
			raw);
	m = s->recs[to].master == NO_MASTER ? to : s->recs[to].master;
	if (s->recs[m].type == AXFS_FT_DIR)
		return fail_entry(s, err, AXFS_ERR_INVALID, name,
			"hard link to the directory '%s': directories cannot "
			"be hard-linked", raw);
	r->link_to = to;
	r->master = m;
	return 0;
}

/* Keeps the archive's name of the entry just read, for the next error. */
static int remember_name(struct arc_source *s, const char *name)
{
	size_t need = strlen(name) + 1;

	if (need > s->prev_cap) {
		char *p = realloc(s->prev, need);

		if (!p)
			return -1;
		s->prev = p;
		s->prev_cap = need;
	}
	memcpy(s->prev, name, need);
	return 0;
}

/* Reads one header and its data into a new record; 1: done, 0: end. */
static int read_one(struct arc_source *s, struct axfs_error *err)
{
	struct archive_entry *e;
	struct rec *r;
	const char *name, *why = NULL;
	int64_t uid, gid;
	int abs, rc;
	const char *prev = s->prev;
	int h = archive_read_next_header(s->ar, &e);

	if (h == ARCHIVE_EOF)
		return 0;
	if (h < ARCHIVE_WARN) {
		/* RETRY (a damaged header libarchive could skip) is an
		 * error too: skipping would build a different tree. */
		if (prev)
			return fail_entry(s, err, ar_code(s->ar), NULL,
				"cannot read the entry after '%s': %s", prev,
				ar_msg(s->ar));
		return fail_entry(s, err, ar_code(s->ar), NULL,
			"cannot read the first entry: %s", ar_msg(s->ar));
	}
	name = archive_entry_pathname(e);
	if (!name)	/* not convertible: the UTF-8 form, if there is one */
		name = archive_entry_pathname_utf8(e);
	if (!name || !*name)
		return fail_entry(s, err, AXFS_ERR_PARSE, NULL,
			"the entry after '%s' has no name",
			prev ? prev : "(the start)");
	if (h == ARCHIVE_WARN) {
		const char *m = ar_msg(s->ar);

		/* libarchive keeps the bytes of a name it cannot convert;
		 * so do we, which is worth a note, not a warning. */
		axfs_log(s->base.log, strstr(m, "can't be converted") ?
			 AXFS_LOG_INFO : AXFS_LOG_WARN,
			 "'%s': entry '%s': %s", s->disp, name, m);
	}
	if (archive_entry_is_encrypted(e))
		return fail_entry(s, err, AXFS_ERR_UNSUPPORTED, name,
				  "it is encrypted");

	if (add_rec(s, &r) < 0)
		return nomem(err);
	r->path = malloc(strlen(name) + 1);
	if (!r->path) {
		s->n--;
		return nomem(err);
	}
	rc = norm_path(name, r->path, &abs, &why);
	if (rc < 0) {
		rc = fail_entry(s, err, rc, name, "%s", why);
		goto fail;
	}
	if (abs && !s->warned_abs) {
		s->warned_abs = 1;
		axfs_log(s->base.log, AXFS_LOG_WARN,
			 "'%s': removing leading '/' from entry names "
			 "(first: '%s')", s->disp, name);
	}

	if (archive_entry_hardlink(e) || archive_entry_hardlink_utf8(e)) {
		rc = read_hardlink(s, e, name, r, err);
		if (rc < 0)
			goto fail;
		if (!*r->path) {
			rc = fail_entry(s, err, AXFS_ERR_INVALID, name,
					"the root cannot be a hard link");
			goto fail;
		}
		/* Data with a hard link (cpio newc keeps the group's data on
		 * its last member; odc and pax may repeat it) replaces the
		 * group's data, as extracting it would. */
		if (s->recs[r->master].type == AXFS_FT_REG &&
		    archive_entry_size(e) > 0) {
			uint64_t off, size, data;

			rc = spool_entry_data(s, e, name, 1, &off, &size, &data,
					      err);
			if (rc < 0)
				goto fail;
			if (size) {
				s->recs[r->master].off = off;
				s->recs[r->master].size = size;
				s->recs[r->master].data = data;
			}
		}
		goto done;
	}

	r->type = ftype_of(e);
	if (r->type == AXFS_FT_NONE) {
		rc = fail_entry(s, err, AXFS_ERR_UNSUPPORTED, name,
				"unknown file type (mode %o)",
				(unsigned int)archive_entry_mode(e));
		goto fail;
	}
	if (!*r->path && r->type != AXFS_FT_DIR) {
		rc = fail_entry(s, err, AXFS_ERR_INVALID, name,
				"the root must be a directory, not a %s",
				axfs_ftype_name(r->type));
		goto fail;
	}
	r->mode = (uint32_t)archive_entry_perm(e) & 07777;
	uid = archive_entry_uid(e);
	gid = archive_entry_gid(e);
	if (uid < 0 || uid > UINT32_MAX || gid < 0 || gid > UINT32_MAX) {
		rc = fail_entry(s, err, AXFS_ERR_LIMIT, name,
			"owner %lld:%lld does not fit in 32 bits",
			(long long)uid, (long long)gid);
		goto fail;
	}
	r->uid = (uint32_t)uid;
	r->gid = (uint32_t)gid;
	r->mtime = archive_entry_mtime(e);
	r->lossy = lossy_of(e);
	switch (r->type) {
	case AXFS_FT_CHR:
	case AXFS_FT_BLK:
		r->rdev_major = (uint32_t)archive_entry_rdevmajor(e);
		r->rdev_minor = (uint32_t)archive_entry_rdevminor(e);
		break;
	case AXFS_FT_LNK: {
		const char *t = archive_entry_symlink(e);

		if (!t)
			t = archive_entry_symlink_utf8(e);
		if (!t || !*t) {
			rc = fail_entry(s, err, AXFS_ERR_INVALID, name,
					"symlink with an empty target");
			goto fail;
		}
		r->link_target = strdup(t);
		if (!r->link_target) {
			rc = nomem(err);
			goto fail;
		}
		break;
	}
	case AXFS_FT_REG:
		rc = spool_entry_data(s, e, name, 0, &r->off, &r->size,
				      &r->data, err);
		if (rc < 0)
			goto fail;
		break;
	default:
		break;
	}
done:
	if (index_set(s, s->n - 1) < 0 || remember_name(s, name) < 0) {
		rc = nomem(err);
		goto fail;
	}
	return 1;
fail:
	drop_last_rec(s);
	return rc;
}

static int read_all(struct arc_source *s, struct axfs_error *err)
{
	locale_t old = (locale_t)0;
	int rc;

	/* Names come out as the archive's bytes whatever the caller's
	 * locale: pax names are UTF-8, so read them in a UTF-8 locale
	 * (per thread; the process locale is not touched). */
	if (s->utf8)
		old = uselocale(s->utf8);
	do
		rc = read_one(s, err);
	while (rc > 0);
	if (s->utf8)
		uselocale(old);
	if (rc < 0)
		return rc;
	/* Zero bytes (or a compressed nothing) is what a failed producer
	 * in a pipeline leaves: an error, not an empty image.  A real
	 * archive without entries is only worth a warning. */
	if (s->n == 0 && archive_format(s->ar) == ARCHIVE_FORMAT_EMPTY)
		return fail_entry(s, err, AXFS_ERR_PARSE, NULL,
				  "the input is empty, not an archive");
	if (s->n == 0)
		axfs_log(s->base.log, AXFS_LOG_WARN,
			 "'%s': the archive has no entries", s->disp);
	archive_read_free(s->ar);
	s->ar = NULL;
	rc = spool_finish(&s->spool, err);
	if (rc < 0)
		return rc;
	return 0;
}

/* ---- the producer interface -------------------------------------------- */

static int arc_next(struct source *src, struct source_entry *ent,
		    struct axfs_error *err)
{
	struct arc_source *s = (struct arc_source *)src;
	const struct rec *r, *m;

	memset(ent, 0, sizeof(*ent));
	if (s->state == 0) {
		int rc = read_all(s, &s->failure);

		s->state = rc < 0 ? -1 : 1;
	}
	if (s->state < 0) {
		if (err)
			*err = s->failure;
		return s->failure.code ? s->failure.code : AXFS_ERR_INVALID;
	}
	if (s->next_out == s->n)
		return 0;
	r = &s->recs[s->next_out++];
	m = r->master == NO_MASTER ? r : &s->recs[r->master];
	ent->path = r->path;
	ent->type = m->type;
	ent->mode = m->mode;
	ent->uid = m->uid;
	ent->gid = m->gid;
	ent->mtime = r->master == NO_MASTER ? r->mtime : m->mtime;
	ent->rdev_major = m->rdev_major;
	ent->rdev_minor = m->rdev_minor;
	ent->link_target = m->link_target;
	ent->lossy = m->lossy;
	if (r->master != NO_MASTER)
		ent->hardlink_to = s->recs[r->link_to].path;
	if (m->type == AXFS_FT_REG) {
		ent->data.spool_offset = m->off;
		ent->data.size = m->size;
		ent->data.data_bytes = m->data;
	}
	return 1;
}

static int arc_data_open(struct source *src,
			 const struct source_data_ref *ref, void **handle,
			 struct axfs_error *err)
{
	struct arc_source *s = (struct arc_source *)src;
	struct arc_handle *h;

	*handle = NULL;
	if (s->state != 1 || ref->spool_offset > s->spool.end ||
	    ref->size > s->spool.end - ref->spool_offset)
		return axfs_error_set(err, AXFS_ERR_INVALID,
			"'%s': no data at spool offset %llu (+%llu)", s->disp,
			(unsigned long long)ref->spool_offset,
			(unsigned long long)ref->size);
	h = calloc(1, sizeof(*h));
	if (!h)
		return nomem(err);
	h->off = ref->spool_offset;
	h->size = ref->size;
	*handle = h;
	return 0;
}

static int arc_data_read(struct source *src, void *handle, void *buf,
			 size_t len, size_t *got, struct axfs_error *err)
{
	struct arc_source *s = (struct arc_source *)src;
	struct arc_handle *h = handle;
	ssize_t n;

	*got = 0;
	if (len > h->size - h->done)
		len = (size_t)(h->size - h->done);
	if (len == 0)
		return 0;
	do
		n = pread(s->spool.fd, buf, len, (off_t)(h->off + h->done));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return axfs_error_sys(err, errno,
			"'%s': cannot read the spool file in '%s'", s->disp,
			s->spool.dir);
	if (n == 0)
		return axfs_error_set(err, AXFS_ERR_IO,
			"'%s': the spool file in '%s' ended early (at %llu)",
			s->disp, s->spool.dir,
			(unsigned long long)(h->off + h->done));
	h->done += (uint64_t)n;
	*got = (size_t)n;
	return 0;
}

static int arc_data_pread(struct source *src, void *handle, void *buf,
			  size_t len, uint64_t off, size_t *got,
			  struct axfs_error *err)
{
	struct arc_source *s = (struct arc_source *)src;
	struct arc_handle *h = handle;
	ssize_t n;

	*got = 0;
	if (off >= h->size || len == 0)
		return 0;
	if (len > h->size - off)
		len = (size_t)(h->size - off);
	do
		n = pread(s->spool.fd, buf, len, (off_t)(h->off + off));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return axfs_error_sys(err, errno,
			"'%s': cannot read the spool file in '%s'", s->disp,
			s->spool.dir);
	*got = (size_t)n;
	return 0;
}

/* The hole at the handle's position: up to the next extent that starts
 * after it, or to the end of the data; none inside an extent.  The data
 * that follows: to that extent's end. */
static int arc_data_hole(struct source *src, void *handle,
			 uint64_t *hole, uint64_t *data,
			 struct axfs_error *err)
{
	struct arc_source *s = (struct arc_source *)src;
	struct arc_handle *h = handle;
	uint64_t pos = h->off + h->done, end = h->off + h->size, at;
	size_t lo = 0, hi = s->n_ext;

	(void)err;
	*hole = 0;
	*data = 0;
	/* The first extent that ends after pos. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->ext[mid].end <= pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->n_ext || s->ext[lo].start >= end) {
		*hole = end - pos;
		return 0;
	}
	at = s->ext[lo].start > pos ? s->ext[lo].start : pos;
	*hole = at - pos;
	*data = (s->ext[lo].end < end ? s->ext[lo].end : end) - at;
	return 0;
}

static int arc_data_skip(struct source *src, void *handle, uint64_t len,
			 struct axfs_error *err)
{
	struct arc_source *s = (struct arc_source *)src;
	struct arc_handle *h = handle;

	if (len > h->size - h->done)
		return axfs_error_set(err, AXFS_ERR_INVALID,
			"'%s': entry '%s': cannot skip %llu bytes past its end",
			s->disp, h->name ? h->name : "?",
			(unsigned long long)len);
	h->done += len;
	return 0;
}

static void arc_data_close(struct source *src, void *handle)
{
	(void)src;
	free(handle);
}

static void arc_destroy(struct source *src)
{
	struct arc_source *s = (struct arc_source *)src;

	if (!s)
		return;
	if (s->ar)
		archive_read_free(s->ar);
	if (s->spool.fd >= 0)
		close(s->spool.fd);
	free(s->spool.buf);
	for (size_t i = 0; i < s->n; i++) {
		free(s->recs[i].path);
		free(s->recs[i].link_target);
	}
	free(s->recs);
	free(s->ext);
	free(s->index);
	if (s->utf8)
		freelocale(s->utf8);
	free(s->tmpdir);
	free(s->prev);
	free(s->path);
	free(s->rbuf);
	free(s);
}

static const struct source_ops arc_ops = {
	.next = arc_next,
	.data_open = arc_data_open,
	.data_read = arc_data_read,
	.data_close = arc_data_close,
	.data_pread = arc_data_pread,
	.data_hole = arc_data_hole,
	.data_skip = arc_data_skip,
	.destroy = arc_destroy,
};

/* Every format libarchive reads but mtree, whose specs name host files
 * that libarchive would open: a source reads the archive and nothing
 * else. */
static void support_formats(struct archive *a)
{
	archive_read_support_format_7zip(a);
	archive_read_support_format_ar(a);
	archive_read_support_format_cab(a);
	archive_read_support_format_cpio(a);
	archive_read_support_format_empty(a);
	archive_read_support_format_iso9660(a);
	archive_read_support_format_lha(a);
	archive_read_support_format_rar(a);
	archive_read_support_format_rar5(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_warc(a);
	archive_read_support_format_xar(a);
	archive_read_support_format_zip(a);
}

/* libarchive's read callback for standard input after a prefix. */
static la_ssize_t prefixed_read(struct archive *a, void *ctx,
				const void **buf)
{
	struct arc_source *s = ctx;
	ssize_t n;

	if (!s->prefix_done) {
		s->prefix_done = 1;
		if (s->prefix_len) {
			*buf = s->prefix;
			return (la_ssize_t)s->prefix_len;
		}
	}
	do
		n = read(STDIN_FILENO, s->rbuf, READ_BLOCK_SIZE);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		archive_set_error(a, errno, "cannot read standard input");
		return -1;
	}
	*buf = s->rbuf;
	return n;
}

static int archive_open(struct source **out, const char *path,
			const unsigned char *prefix, size_t plen,
			const struct source_opts *opts,
			struct axfs_error *err);

int source_archive_open(struct source **out, const char *path,
			const struct source_opts *opts,
			struct axfs_error *err)
{
	return archive_open(out, path, NULL, 0, opts, err);
}

int source_archive_open_stdin(struct source **out,
				    const unsigned char *prefix, size_t plen,
				    const struct source_opts *opts,
				    struct axfs_error *err)
{
	return archive_open(out, "-", prefix ? prefix : (const unsigned char *)"",
			    plen, opts, err);
}

/* The archive at `path` ("-": standard input, after `plen` bytes of
 * `prefix` when prefix is not NULL). */
static int archive_open(struct source **out, const char *path,
			const unsigned char *prefix, size_t plen,
			const struct source_opts *opts,
			struct axfs_error *err)
{
	struct arc_source *s;
	const char *dir;
	locale_t old = (locale_t)0;
	const struct foreign_format *ff;
	int stdin_in, rc;

	*out = NULL;
	if (!path || !*path)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "no archive given");
	/* Another image (SquashFS, EROFS, ...) is named as one, never taken
	 * for an empty tar or an unrecognized archive. */
	if (!prefix && strcmp(path, "-") != 0 &&
	    (ff = foreign_format_of_file(path)))
		return axfs_error_set(err, AXFS_ERR_PARSE, "'%s': byte %llu: "
				      "the magic of %s: not an AXFS image, a "
				      "directory or an archive that can be "
				      "read", path,
				      (unsigned long long)ff->offset, ff->what);
	s = calloc(1, sizeof(*s));
	if (!s)
		return nomem(err);
	s->spool.fd = -1;
	s->base.ops = &arc_ops;
	s->base.log = opts ? opts->log : NULL;
	s->path = strdup(path);
	if (!s->path)
		goto nomem;
	stdin_in = strcmp(path, "-") == 0;
	s->disp = stdin_in ? "standard input" : s->path;
	s->base.name = s->disp;
	s->utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);

	dir = opts && opts->tmpdir && *opts->tmpdir ? opts->tmpdir :
		getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	s->tmpdir = strdup(dir);
	if (!s->tmpdir)
		goto nomem;

	s->ar = archive_read_new();
	if (!s->ar)
		goto nomem;
	support_formats(s->ar);
	archive_read_support_filter_all(s->ar);

	if (stdin_in && prefix) {
		if (plen > sizeof(s->prefix))
			plen = sizeof(s->prefix);
		memcpy(s->prefix, prefix, plen);
		s->prefix_len = plen;
		s->prefix_given = 1;
		s->rbuf = malloc(READ_BLOCK_SIZE);
		if (!s->rbuf)
			goto nomem;
	}
	if (s->utf8)
		old = uselocale(s->utf8);
	if (s->prefix_given)
		rc = archive_read_open(s->ar, s, NULL, prefixed_read, NULL);
	else if (stdin_in)
		rc = archive_read_open_fd(s->ar, STDIN_FILENO, READ_BLOCK_SIZE);
	else
		rc = archive_read_open_filename(s->ar, path, READ_BLOCK_SIZE);
	if (s->utf8)
		uselocale(old);
	if (rc != ARCHIVE_OK) {
		int e = archive_errno(s->ar);

		/* Format detection runs here: a file that is no archive
		 * fails now, not at the first entry. */
		if (e > 0 && e != EILSEQ && e != EINVAL)
			rc = axfs_error_sys(err, e, "cannot open '%s'",
					    s->disp);
		else
			rc = axfs_error_set(err, AXFS_ERR_PARSE,
				"'%s' is %san archive that can be read: %s",
				s->disp, stdin_in ? "not " :
				"neither a directory nor ", ar_msg(s->ar));
		arc_destroy(&s->base);
		return rc;
	}
	rc = spool_open(&s->spool, s->tmpdir, err);
	if (rc < 0) {
		arc_destroy(&s->base);
		return rc;
	}
	*out = &s->base;
	return 0;
nomem:
	arc_destroy(&s->base);
	return nomem(err);
}
