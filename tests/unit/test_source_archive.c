// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The archive source: archives written here with libarchive's write API
 * (every format and filter mkfs promises), read back through the source,
 * every field and every byte of data checked.
 */
#include <check.h>
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"

/* ---- writing archives ---------------------------------------------------- */

struct w {
	struct archive *a;
	char path[64];
};

static void w_begin(struct w *w, int format, int filter)
{
	int fd;

	strcpy(w->path, "/tmp/axfs-ut-arc.XXXXXX");
	fd = mkstemp(w->path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	w->a = archive_write_new();
	ck_assert_ptr_nonnull(w->a);
	ck_assert_int_eq(archive_write_set_format(w->a, format), ARCHIVE_OK);
	if (filter != ARCHIVE_FILTER_NONE)
		ck_assert_msg(archive_write_add_filter(w->a, filter) ==
			      ARCHIVE_OK, "filter %d: %s", filter,
			      archive_error_string(w->a));
	ck_assert_int_eq(archive_write_open_filename(w->a, w->path),
			 ARCHIVE_OK);
}

static void w_end(struct w *w)
{
	ck_assert_int_eq(archive_write_close(w->a), ARCHIVE_OK);
	archive_write_free(w->a);
	w->a = NULL;
}

/* A new entry NAME of TYPE (none for a hard link) and PERM, to finish and
 * pass to w_header(). */
static struct archive_entry *w_entry(const char *name, unsigned int type,
				     unsigned int perm)
{
	struct archive_entry *e = archive_entry_new();

	ck_assert_ptr_nonnull(e);
	archive_entry_copy_pathname(e, name);
	if (type)
		archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, perm);
	return e;
}

static void w_header(struct w *w, struct archive_entry *e)
{
	ck_assert_msg(archive_write_header(w->a, e) == ARCHIVE_OK,
		      "header '%s' (format %d): %s", archive_entry_pathname(e),
		      archive_format(w->a), archive_error_string(w->a));
}

/* One entry; for regular files (and hard links with data) `data`. */
static void w_add(struct w *w, const char *name, unsigned int type,
		  unsigned int perm, int64_t uid, int64_t gid, int64_t mtime,
		  const char *link, const char *hardlink, const void *data,
		  size_t len)
{
	struct archive_entry *e = w_entry(name, type, perm);

	archive_entry_set_uid(e, uid);
	archive_entry_set_gid(e, gid);
	archive_entry_set_mtime(e, mtime, 0);
	if (link)
		archive_entry_copy_symlink(e, link);
	if (hardlink)
		archive_entry_copy_hardlink(e, hardlink);
	archive_entry_set_size(e, (la_int64_t)len);
	w_header(w, e);
	if (len)
		ck_assert_int_eq(archive_write_data(w->a, data, len),
				 (la_ssize_t)len);
	archive_entry_free(e);
}

static void w_file(struct w *w, const char *name, const char *data)
{
	w_add(w, name, AE_IFREG, 0644, 0, 0, 1000, NULL, NULL, data,
	      strlen(data));
}

static void w_dir(struct w *w, const char *name)
{
	w_add(w, name, AE_IFDIR, 0755, 0, 0, 1000, NULL, NULL, NULL, 0);
}

static void w_dev(struct w *w, const char *name, unsigned int type,
		  unsigned int major, unsigned int minor)
{
	struct archive_entry *e = w_entry(name, type, 0620);

	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 5);
	archive_entry_set_rdevmajor(e, major);
	archive_entry_set_rdevminor(e, minor);
	archive_entry_set_size(e, 0);
	w_header(w, e);
	archive_entry_free(e);
}

/* ---- reading them back ----------------------------------------------------- */

struct got {
	char *path;
	enum axfs_ftype type;
	uint32_t mode, uid, gid, maj, min;
	int64_t mtime;
	char *link, *hardlink;
	unsigned int lossy;
	uint64_t size;
	unsigned char *data;		/* read through data_open/data_read */
};

struct log_buf {
	char text[8192];
	int warnings;
};

static void log_fn(void *ctx, enum axfs_log_level level, const char *msg)
{
	struct log_buf *l = ctx;
	size_t n = strlen(l->text);

	if (level == AXFS_LOG_WARN)
		l->warnings++;
	snprintf(l->text + n, sizeof(l->text) - n, "%s\n", msg);
}

static unsigned char *read_data(struct source *s,
				const struct source_data_ref *ref)
{
	struct axfs_error err;
	unsigned char *buf = malloc(ref->size + 1);
	void *h;
	size_t got, done = 0;

	ck_assert_ptr_nonnull(buf);
	ck_assert_msg(s->ops->data_open(s, ref, &h, &err) == 0, "%s", err.msg);
	for (;;) {
		/* Odd read sizes, to cross every boundary. */
		size_t want = 4093;

		ck_assert_msg(s->ops->data_read(s, h, buf + done, want, &got,
						&err) == 0, "%s", err.msg);
		if (!got)
			break;
		done += got;
		ck_assert_uint_le(done, ref->size);
		if (ref->size - done < want && ref->size != done) {
			ck_assert_msg(s->ops->data_read(s, h, buf + done,
				ref->size - done, &got, &err) == 0, "%s",
				err.msg);
			done += got;
		}
	}
	ck_assert_uint_eq(done, ref->size);
	s->ops->data_close(s, h);
	return buf;
}

#define MAXE 64

/* What the last read_archive() gave: the entries, how many of them (or the
 * error code), what the source logged, its error. */
static struct got g[MAXE];
static int n;
static struct log_buf logged;
static struct axfs_error rerr;

/* Reads every entry of `path` into g[]; returns (and sets n to) how many,
 * or the error code. */
static int read_archive(const char *path)
{
	struct axfs_logger lg = { log_fn, &logged };
	struct source_opts o = { .log = &lg };
	struct source *s;
	struct source_entry e;
	struct axfs_error *err = &rerr;
	int rc;

	n = 0;
	memset(&logged, 0, sizeof(logged));
	rc = source_archive_open(&s, path, &o, err);
	if (rc < 0)
		return n = rc;
	ck_assert_str_eq(s->name, strcmp(path, "-") ? path : "standard input");
	while ((rc = s->ops->next(s, &e, err)) > 0) {
		struct got *one = &g[n++];

		ck_assert_int_le(n, MAXE);
		memset(one, 0, sizeof(*one));
		one->path = strdup(e.path);
		one->type = e.type;
		one->mode = e.mode;
		one->uid = e.uid;
		one->gid = e.gid;
		one->maj = e.rdev_major;
		one->min = e.rdev_minor;
		one->mtime = e.mtime;
		one->link = e.link_target ? strdup(e.link_target) : NULL;
		one->hardlink = e.hardlink_to ? strdup(e.hardlink_to) : NULL;
		one->lossy = e.lossy;
		ck_assert_ptr_null(e.data.host_path);
		if (e.type == AXFS_FT_REG) {
			one->size = e.data.size;
			one->data = read_data(s, &e.data);
		} else {
			ck_assert_uint_eq(e.data.size, 0);
		}
	}
	/* After the end (or an error) it stays there. */
	if (rc == 0)
		ck_assert_int_eq(s->ops->next(s, &e, err), 0);
	else
		ck_assert_int_eq(s->ops->next(s, &e, NULL), rc);
	source_destroy(s);
	if (rc < 0)
		n = rc;
	return n;
}

/* read_archive(path) must give `want` entries. */
static void read_expect(const char *path, int want)
{
	ck_assert_msg(read_archive(path) == want, "%s: %d entries, not %d: %s",
		      path, n, want, rerr.msg);
}

static void free_got(void)
{
	for (int i = 0; i < n; i++) {
		free(g[i].path);
		free(g[i].link);
		free(g[i].hardlink);
		free(g[i].data);
	}
	n = 0;
}

static void check_data(const struct got *one, const char *want)
{
	ck_assert_uint_eq(one->size, strlen(want));
	ck_assert_msg(memcmp(one->data, want, one->size) == 0,
		      "'%s': wrong data", one->path);
}

/* ---- tests ----------------------------------------------------------------- */

/* Every field of every file type, through the pax writer. */
START_TEST(test_fields)
{
	struct w w;

	w_begin(&w, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE);
	w_add(&w, "./", AE_IFDIR, 0750, 0, 0, 1234, NULL, NULL, NULL, 0);
	w_add(&w, "./bin/", AE_IFDIR, 0755, 0, 0, 1000, NULL, NULL, NULL, 0);
	w_add(&w, "./bin/su", AE_IFREG, 04755, 0, 0, 1700000000, NULL, NULL,
	      "\x7f" "ELF", 4);
	w_add(&w, "./bin/sh", AE_IFLNK, 0777, 0, 0, 1000, "busybox", NULL,
	      NULL, 0);
	w_add(&w, "./tmp/", AE_IFDIR, 01777, 0, 0, 1000, NULL, NULL, NULL, 0);
	w_add(&w, "./home/user/f", AE_IFREG, 02640, 1000, 100, 5, NULL, NULL,
	      "abc", 3);
	w_add(&w, "./empty", AE_IFREG, 0600, 65534, 65533, 0, NULL, NULL,
	      NULL, 0);
	w_dev(&w, "./dev/console", AE_IFCHR, 5, 1);
	w_dev(&w, "./dev/sda", AE_IFBLK, 8, 0);
	w_dev(&w, "./dev/big", AE_IFCHR, 4095, 1048575);
	w_add(&w, "./run/fifo", AE_IFIFO, 0666, 0, 0, 1000, NULL, NULL, NULL,
	      0);
	w_end(&w);

	read_expect(w.path, 11);
	ck_assert_str_eq(g[0].path, "");
	ck_assert_int_eq(g[0].type, AXFS_FT_DIR);
	ck_assert_uint_eq(g[0].mode, 0750);
	ck_assert_int_eq(g[0].mtime, 1234);
	ck_assert_str_eq(g[1].path, "bin");
	ck_assert_str_eq(g[2].path, "bin/su");
	ck_assert_int_eq(g[2].type, AXFS_FT_REG);
	ck_assert_uint_eq(g[2].mode, 04755);
	ck_assert_int_eq(g[2].mtime, 1700000000);
	check_data(&g[2], "\x7f" "ELF");
	ck_assert_str_eq(g[3].path, "bin/sh");
	ck_assert_int_eq(g[3].type, AXFS_FT_LNK);
	ck_assert_str_eq(g[3].link, "busybox");
	ck_assert_uint_eq(g[4].mode, 01777);
	ck_assert_str_eq(g[5].path, "home/user/f");	/* parents implied */
	ck_assert_uint_eq(g[5].mode, 02640);
	ck_assert_uint_eq(g[5].uid, 1000);
	ck_assert_uint_eq(g[5].gid, 100);
	check_data(&g[5], "abc");
	ck_assert_uint_eq(g[6].size, 0);
	ck_assert_uint_eq(g[6].uid, 65534);
	ck_assert_uint_eq(g[6].gid, 65533);
	ck_assert_int_eq(g[7].type, AXFS_FT_CHR);
	ck_assert_uint_eq(g[7].maj, 5);
	ck_assert_uint_eq(g[7].min, 1);
	ck_assert_uint_eq(g[7].mode, 0620);
	ck_assert_uint_eq(g[7].gid, 5);
	ck_assert_int_eq(g[8].type, AXFS_FT_BLK);
	ck_assert_uint_eq(g[8].maj, 8);
	ck_assert_uint_eq(g[8].min, 0);
	ck_assert_uint_eq(g[9].maj, 4095);
	ck_assert_uint_eq(g[9].min, 1048575);
	ck_assert_int_eq(g[10].type, AXFS_FT_FIFO);
	ck_assert_uint_eq(g[10].mode, 0666);
	for (int i = 0; i < n; i++) {
		ck_assert_ptr_null(g[i].hardlink);
		ck_assert_uint_eq(g[i].lossy, 0);
	}
	ck_assert_int_eq(logged.warnings, 0);
	free_got();
	unlink(w.path);
}
END_TEST

/* Every filter, and tar, GNU tar, ustar, cpio newc and odc. */
START_TEST(test_formats_filters)
{
	static const int formats[] = {
		ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FORMAT_TAR_GNUTAR,
		ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE, ARCHIVE_FORMAT_CPIO_SVR4_NOCRC,
		ARCHIVE_FORMAT_CPIO_POSIX,
	};
	static const int filters[] = {
		ARCHIVE_FILTER_NONE, ARCHIVE_FILTER_GZIP, ARCHIVE_FILTER_XZ,
		ARCHIVE_FILTER_ZSTD, ARCHIVE_FILTER_BZIP2, ARCHIVE_FILTER_LZ4,
	};
	static unsigned char big[300000];

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)(i * 7 + (i >> 9));
	for (size_t f = 0; f < sizeof(formats) / sizeof(*formats); f++) {
		for (size_t z = 0; z < sizeof(filters) / sizeof(*filters); z++) {
			struct w w;

			w_begin(&w, formats[f], filters[z]);
			w_dir(&w, ".");
			w_dir(&w, "etc");
			w_file(&w, "etc/hostname", "axfs\n");
			w_add(&w, "big", AE_IFREG, 0755, 3, 4, 1000, NULL,
			      NULL, big, sizeof(big));
			w_add(&w, "lnk", AE_IFLNK, 0777, 0, 0, 1000,
			      "etc/hostname", NULL, NULL, 0);
			w_dev(&w, "null", AE_IFCHR, 1, 3);
			w_end(&w);
			n = read_archive(w.path);
			ck_assert_msg(n == 6, "format %d filter %d: %d %s",
				      formats[f], filters[z], n, rerr.msg);
			ck_assert_str_eq(g[0].path, "");
			ck_assert_str_eq(g[2].path, "etc/hostname");
			check_data(&g[2], "axfs\n");
			ck_assert_uint_eq(g[3].size, sizeof(big));
			ck_assert(memcmp(g[3].data, big, sizeof(big)) == 0);
			ck_assert_uint_eq(g[3].mode, 0755);
			ck_assert_uint_eq(g[3].uid, 3);
			ck_assert_uint_eq(g[3].gid, 4);
			ck_assert_str_eq(g[4].link, "etc/hostname");
			ck_assert_int_eq(g[5].type, AXFS_FT_CHR);
			ck_assert_uint_eq(g[5].maj, 1);
			ck_assert_uint_eq(g[5].min, 3);
			ck_assert_int_eq(logged.warnings, 0);
			free_got();
			unlink(w.path);
		}
	}
}
END_TEST

/* "./", "/", "//", "." components and trailing slashes; the root. */
START_TEST(test_normalise)
{
	struct w w;

	w_begin(&w, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE);
	w_dir(&w, "./");
	w_dir(&w, ".");
	w_dir(&w, "./a/");
	w_file(&w, "./a//b", "1");
	w_file(&w, "a/./c", "2");
	w_file(&w, "././a/d", "3");
	w_file(&w, "/abs/x", "4");
	w_file(&w, "//abs//y", "5");
	w_dir(&w, "/");
	w_end(&w);
	read_expect(w.path, 9);
	ck_assert_str_eq(g[0].path, "");
	ck_assert_str_eq(g[1].path, "");
	ck_assert_str_eq(g[2].path, "a");
	ck_assert_str_eq(g[3].path, "a/b");
	ck_assert_str_eq(g[4].path, "a/c");
	ck_assert_str_eq(g[5].path, "a/d");
	ck_assert_str_eq(g[6].path, "abs/x");
	check_data(&g[6], "4");
	ck_assert_str_eq(g[7].path, "abs/y");
	ck_assert_str_eq(g[8].path, "");
	/* One warning for the leading slashes, naming the archive. */
	ck_assert_int_eq(logged.warnings, 1);
	ck_assert_ptr_nonnull(strstr(logged.text, "removing leading '/'"));
	ck_assert_ptr_nonnull(strstr(logged.text, w.path));
	free_got();
	unlink(w.path);
}
END_TEST

/* A bad entry: the error names the archive and the entry. */
static void expect_bad(void (*fill)(struct w *), int code, const char *entry,
		       const char *why)
{
	struct w w;

	w_begin(&w, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE);
	fill(&w);
	w_end(&w);
	memset(&rerr, 0, sizeof(rerr));
	n = read_archive(w.path);
	ck_assert_msg(n == code, "got %d: %s", n, rerr.msg);
	ck_assert_int_eq(rerr.code, code);
	ck_assert_msg(strstr(rerr.msg, w.path) != NULL, "%s", rerr.msg);
	ck_assert_msg(strstr(rerr.msg, entry) != NULL, "no '%s' in: %s", entry,
		      rerr.msg);
	ck_assert_msg(strstr(rerr.msg, why) != NULL, "no '%s' in: %s", why,
		      rerr.msg);
	unlink(w.path);
}

static void fill_dotdot(struct w *w)
{
	w_file(w, "ok", "x");
	w_file(w, "a/../../etc/passwd", "x");
}

static void fill_dotdot_end(struct w *w)
{
	w_file(w, "a/..", "x");
}

static void fill_dotdot_hardlink(struct w *w)
{
	w_file(w, "ok", "x");
	w_add(w, "h", AE_IFREG, 0644, 0, 0, 0, NULL, "../ok", NULL, 0);
}

static char long_name[300];

static void fill_long_name(struct w *w)
{
	memset(long_name, 'n', 256);
	memcpy(long_name + 256, "/f", 3);
	w_file(w, long_name, "x");
}

static void fill_hardlink_missing(struct w *w)
{
	w_file(w, "a", "x");
	w_add(w, "b", AE_IFREG, 0644, 0, 0, 0, NULL, "nothere", NULL, 0);
}

static void fill_hardlink_later(struct w *w)
{
	w_add(w, "b", AE_IFREG, 0644, 0, 0, 0, NULL, "a", NULL, 0);
	w_file(w, "a", "x");
}

static void fill_hardlink_dir(struct w *w)
{
	w_dir(w, "d");
	w_add(w, "b", AE_IFREG, 0644, 0, 0, 0, NULL, "./d/", NULL, 0);
}

static void fill_hardlink_root(struct w *w)
{
	w_add(w, "b", AE_IFREG, 0644, 0, 0, 0, NULL, "./", NULL, 0);
}

static void fill_root_file(struct w *w)
{
	w_file(w, ".", "x");
}

static void fill_big_uid(struct w *w)
{
	w_add(w, "u", AE_IFREG, 0644, 5000000000LL, 0, 0, NULL, NULL, "x", 1);
}

START_TEST(test_rejected)
{
	expect_bad(fill_dotdot, AXFS_ERR_INVALID, "'a/../../etc/passwd'",
		   "'..' components are not allowed");
	expect_bad(fill_dotdot_end, AXFS_ERR_INVALID, "'a/..'", "'..'");
	expect_bad(fill_dotdot_hardlink, AXFS_ERR_INVALID, "'h'", "'..'");
	expect_bad(fill_long_name, AXFS_ERR_LIMIT, "nnnnnnnn/f'",
		   "longer than 255 bytes");
	expect_bad(fill_hardlink_missing, AXFS_ERR_INVALID, "'b'",
		   "hard link to 'nothere', which is not earlier");
	expect_bad(fill_hardlink_later, AXFS_ERR_INVALID, "'b'",
		   "not earlier in the archive");
	expect_bad(fill_hardlink_dir, AXFS_ERR_INVALID, "'b'",
		   "directories cannot be hard-linked");
	expect_bad(fill_hardlink_root, AXFS_ERR_INVALID, "'b'",
		   "directories cannot be hard-linked");
	expect_bad(fill_root_file, AXFS_ERR_INVALID, "'.'",
		   "the root must be a directory");
	expect_bad(fill_big_uid, AXFS_ERR_LIMIT, "'u'", "32 bits");
}
END_TEST

/* 255 bytes is the longest name, and pax long names and link targets
 * come through whole. */
START_TEST(test_long_names)
{
	char name[256], target[1200], path[600];
	struct w w;

	memset(name, 'a', 255);
	name[255] = '\0';
	snprintf(path, sizeof(path), "d/%s/%s", name, name);
	for (int i = 0; i < 1100; i++)
		target[i] = (char)('a' + i % 26);
	target[1100] = '\0';
	for (int fmt = 0; fmt < 2; fmt++) {
		w_begin(&w, fmt ? ARCHIVE_FORMAT_TAR_GNUTAR :
			ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE, ARCHIVE_FILTER_NONE);
		w_file(&w, path, "long");
		w_add(&w, "l", AE_IFLNK, 0777, 0, 0, 0, target, NULL, NULL, 0);
		w_add(&w, "h", AE_IFREG, 0644, 0, 0, 0, NULL, path, NULL, 0);
		w_end(&w);
		read_expect(w.path, 3);
		ck_assert_str_eq(g[0].path, path);
		check_data(&g[0], "long");
		ck_assert_str_eq(g[1].link, target);
		ck_assert_str_eq(g[2].hardlink, path);
		check_data(&g[2], "long");
		free_got();
		unlink(w.path);
	}
}
END_TEST

/* Names are the archive's bytes, UTF-8 or not, whatever the locale. */
START_TEST(test_bytes_names)
{
	static const char *names[] = {
		"lat\xe9", "utf8\xc3\xa9", "tab\tname", "sp ace", "nl\nx",
		"\xff\xfe",
	};
	static const int formats[] = {
		ARCHIVE_FORMAT_TAR_GNUTAR, ARCHIVE_FORMAT_TAR_USTAR,
		ARCHIVE_FORMAT_CPIO_SVR4_NOCRC,
	};

	for (size_t f = 0; f < sizeof(formats) / sizeof(*formats); f++) {
		struct w w;

		w_begin(&w, formats[f], ARCHIVE_FILTER_NONE);
		for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
			w_file(&w, names[i], names[i]);
		w_end(&w);
		read_expect(w.path, 6);
		for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
			ck_assert_str_eq(g[i].path, names[i]);
			check_data(&g[i], names[i]);
		}
		free_got();
		unlink(w.path);
	}
}
END_TEST

/* tar hard links: no data, the target's type and mode. */
START_TEST(test_hardlinks_tar)
{
	struct w w;

	w_begin(&w, ARCHIVE_FORMAT_TAR_GNUTAR, ARCHIVE_FILTER_GZIP);
	w_add(&w, "./bin/a", AE_IFREG, 04711, 2, 3, 0, NULL, NULL, "AAAA", 4);
	w_add(&w, "./bin/b", 0, 0644, 0, 0, 0, NULL, "./bin/a", NULL, 0);
	w_add(&w, "./c", 0, 0644, 0, 0, 0, NULL, "/bin/b", NULL, 0);
	w_add(&w, "./s", AE_IFLNK, 0777, 0, 0, 0, "target", NULL, NULL, 0);
	w_add(&w, "./s2", 0, 0, 0, 0, 0, NULL, "s", NULL, 0);
	w_end(&w);
	read_expect(w.path, 5);
	ck_assert_ptr_null(g[0].hardlink);
	ck_assert_str_eq(g[1].hardlink, "bin/a");
	ck_assert_str_eq(g[2].hardlink, "bin/b");	/* as named */
	for (int i = 1; i < 3; i++) {
		ck_assert_int_eq(g[i].type, AXFS_FT_REG);
		ck_assert_uint_eq(g[i].mode, 04711);
		ck_assert_uint_eq(g[i].uid, 2);
		ck_assert_uint_eq(g[i].gid, 3);
		check_data(&g[i], "AAAA");
	}
	ck_assert_str_eq(g[4].hardlink, "s");
	ck_assert_int_eq(g[4].type, AXFS_FT_LNK);
	ck_assert_str_eq(g[4].link, "target");
	free_got();
	unlink(w.path);
}
END_TEST

/*
 * cpio newc written by hand, as GNU cpio writes a link group: every
 * member but the last with size 0, the data with the last.  The group's
 * data must be the last member's.
 */
static void newc_put(FILE *f, const char *name, unsigned int ino,
		     unsigned int mode, unsigned int nlink, const char *data)
{
	size_t nl = strlen(name) + 1, dl = data ? strlen(data) : 0;
	static const char zeros[4];

	fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X"
		"%08zX%08X", ino, mode, 0u, 0u, nlink, 0u, dl, 0u, 0u, 0u, 0u,
		nl, 0u);
	fwrite(name, 1, nl, f);
	fwrite(zeros, 1, (4 - (110 + nl) % 4) % 4, f);
	if (dl) {
		fwrite(data, 1, dl, f);
		fwrite(zeros, 1, (4 - dl % 4) % 4, f);
	}
}

START_TEST(test_hardlinks_newc)
{
	char path[] = "/tmp/axfs-ut-arc.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	newc_put(f, ".", 1, 040755, 2, NULL);
	newc_put(f, "x", 2, 0100640, 3, NULL);
	newc_put(f, "other", 3, 0100644, 1, "other data");
	newc_put(f, "y", 2, 0100640, 3, NULL);
	newc_put(f, "z", 2, 0100640, 3, "group data");
	newc_put(f, "TRAILER!!!", 0, 0, 1, NULL);
	fclose(f);
	read_expect(path, 5);
	ck_assert_str_eq(g[1].path, "x");
	ck_assert_ptr_null(g[1].hardlink);
	check_data(&g[1], "group data");
	ck_assert_uint_eq(g[1].mode, 0640);
	check_data(&g[2], "other data");
	ck_assert_str_eq(g[3].hardlink, "x");
	check_data(&g[3], "group data");
	ck_assert_str_eq(g[4].hardlink, "x");
	check_data(&g[4], "group data");
	free_got();
	unlink(path);
}
END_TEST

/* cpio odc written by hand: every member of a link group carries the
 * data, and a later member's data replaces the group's, as extracting it
 * would; duplicates each keep their own data. */
static void odc_put(FILE *f, const char *name, unsigned int ino,
		    unsigned int mode, unsigned int nlink, const char *data)
{
	size_t dl = data ? strlen(data) : 0;

	fprintf(f, "070707%06o%06o%06o%06o%06o%06o%06o%011o%06zo%011zo",
		1u, ino, mode, 0u, 0u, nlink, 0u, 0u, strlen(name) + 1, dl);
	fwrite(name, 1, strlen(name) + 1, f);
	if (dl)
		fwrite(data, 1, dl, f);
}

START_TEST(test_hardlink_data_and_duplicates)
{
	char path[] = "/tmp/axfs-ut-arc.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	odc_put(f, "a", 7, 0100644, 2, "old");
	odc_put(f, "b", 7, 0100644, 2, "newer");
	odc_put(f, "dup", 8, 0100644, 1, "first version");
	odc_put(f, "dup", 9, 0100644, 1, "second");
	odc_put(f, "TRAILER!!!", 0, 0, 1, NULL);
	fclose(f);
	read_expect(path, 4);
	check_data(&g[0], "newer");
	ck_assert_str_eq(g[1].hardlink, "a");
	check_data(&g[1], "newer");
	ck_assert_str_eq(g[2].path, "dup");
	check_data(&g[2], "first version");
	ck_assert_str_eq(g[3].path, "dup");
	check_data(&g[3], "second");
	free_got();
	unlink(path);
}
END_TEST

/* Sparse entries: holes (also at the end) read back as zeros, the size
 * is the file's. */
START_TEST(test_sparse)
{
	struct w w;
	struct archive_entry *e;

	w_begin(&w, ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE, ARCHIVE_FILTER_NONE);
	e = w_entry("sparse", AE_IFREG, 0644);
	archive_entry_set_size(e, 5000000);
	archive_entry_sparse_add_entry(e, 8192, 4096);
	archive_entry_sparse_add_entry(e, 3000000, 10);
	w_header(&w, e);
	{
		/* The writer takes the whole file and skips the holes. */
		unsigned char *all = calloc(1, 5000000);

		memset(all + 8192, 'S', 4096);
		memcpy(all + 3000000, "0123456789", 10);
		ck_assert_int_eq(archive_write_data(w.a, all, 5000000),
				 5000000);
		free(all);
	}
	archive_entry_free(e);
	w_file(&w, "after", "after");
	w_end(&w);
	read_expect(w.path, 2);
	ck_assert_uint_eq(g[0].size, 5000000);
	for (size_t i = 0; i < 5000000; i++) {
		unsigned char want = 0;

		if (i >= 8192 && i < 8192 + 4096)
			want = 'S';
		else if (i >= 3000000 && i < 3000010)
			want = (unsigned char)('0' + (i - 3000000));
		if (g[0].data[i] != want)
			ck_abort_msg("byte %zu is %d, not %d", i, g[0].data[i],
				     want);
	}
	check_data(&g[1], "after");
	free_got();
	unlink(w.path);
}
END_TEST

/* xattrs and ACLs are flagged, not stored. */
START_TEST(test_lossy)
{
	struct w w;
	struct archive_entry *e;

	w_begin(&w, ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE, ARCHIVE_FILTER_NONE);
	e = w_entry("cap", AE_IFREG, 0755);
	archive_entry_xattr_add_entry(e, "security.capability", "\1\0\0\2", 4);
	w_header(&w, e);
	archive_entry_free(e);
	e = w_entry("acl", AE_IFDIR, 0755);
	ck_assert_int_eq(archive_entry_acl_add_entry(e,
		ARCHIVE_ENTRY_ACL_TYPE_ACCESS, ARCHIVE_ENTRY_ACL_READ,
		ARCHIVE_ENTRY_ACL_USER, 1000, "user"), ARCHIVE_OK);
	ck_assert_int_eq(archive_entry_acl_add_entry(e,
		ARCHIVE_ENTRY_ACL_TYPE_ACCESS, ARCHIVE_ENTRY_ACL_READ,
		ARCHIVE_ENTRY_ACL_MASK, -1, NULL), ARCHIVE_OK);
	w_header(&w, e);
	archive_entry_free(e);
	w_file(&w, "plain", "p");
	w_end(&w);
	read_expect(w.path, 3);
	ck_assert_uint_eq(g[0].lossy, SOURCE_LOSSY_XATTR | SOURCE_LOSSY_CAPABILITY);
	ck_assert_uint_eq(g[1].lossy, SOURCE_LOSSY_ACL);
	ck_assert_uint_eq(g[2].lossy, 0);
	free_got();
	unlink(w.path);
}
END_TEST

/* Truncated, garbage and empty inputs: errors naming archive and entry. */
START_TEST(test_malformed)
{
	static unsigned char big[100000];
	struct w w;
	struct stat st;
	char garbage[] = "/tmp/axfs-ut-arc.XXXXXX";
	int fd;

	w_begin(&w, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE);
	w_file(&w, "first", "1");
	w_add(&w, "usr/lib/big", AE_IFREG, 0644, 0, 0, 0, NULL, NULL, big,
	      sizeof(big));
	w_file(&w, "last", "1");
	w_end(&w);
	ck_assert_int_eq(stat(w.path, &st), 0);

	/* In the middle of big's data. */
	ck_assert_int_eq(truncate(w.path, 50000), 0);
	n = read_archive(w.path);
	ck_assert_int_eq(n, AXFS_ERR_PARSE);
	ck_assert_msg(strstr(rerr.msg, w.path) && strstr(rerr.msg,
		      "entry 'usr/lib/big'"), "%s", rerr.msg);

	/* In the middle of the header after big. */
	ck_assert_int_eq(truncate(w.path, 512 + 512 + 512 + 100352 + 100), 0);
	n = read_archive(w.path);
	ck_assert_int_lt(n, 0);
	ck_assert_msg(strstr(rerr.msg, w.path) && strstr(rerr.msg,
		      "after 'usr/lib/big'"), "%s", rerr.msg);
	unlink(w.path);

	/* Garbage. */
	fd = mkstemp(garbage);
	for (int i = 0; i < 2000; i++)
		ck_assert_int_eq(write(fd, "garbage!", 8), 8);
	close(fd);
	n = read_archive(garbage);
	ck_assert_int_eq(n, AXFS_ERR_PARSE);
	ck_assert_msg(strstr(rerr.msg, garbage) && strstr(rerr.msg,
		      "Unrecognized archive format"), "%s", rerr.msg);

	/* Empty: what a failed producer in a pipeline leaves. */
	ck_assert_int_eq(truncate(garbage, 0), 0);
	n = read_archive(garbage);
	ck_assert_int_eq(n, AXFS_ERR_PARSE);
	ck_assert_msg(strstr(rerr.msg, "empty"), "%s", rerr.msg);
	unlink(garbage);

	/* Missing file. */
	n = read_archive("/nonexistent/x.tar");
	ck_assert_int_eq(n, AXFS_ERR_IO);
	ck_assert_msg(strstr(rerr.msg, "cannot open '/nonexistent/x.tar'"),
		      "%s", rerr.msg);
}
END_TEST

/* A valid archive without entries is a warning, not an error. */
START_TEST(test_empty_archive)
{
	struct w w;

	w_begin(&w, ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_NONE);
	w_end(&w);
	ck_assert_int_eq(read_archive(w.path), 0);
	ck_assert_int_eq(logged.warnings, 1);
	ck_assert_ptr_nonnull(strstr(logged.text, "no entries"));
	unlink(w.path);
}
END_TEST

/* "-" reads standard input. */
START_TEST(test_stdin)
{
	struct w w;
	int saved = dup(0), fd;

	w_begin(&w, ARCHIVE_FORMAT_CPIO_SVR4_NOCRC, ARCHIVE_FILTER_XZ);
	w_dir(&w, ".");
	w_file(&w, "from-stdin", "piped");
	w_end(&w);
	fd = open(w.path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, 0), 0);
	close(fd);
	n = read_archive("-");
	dup2(saved, 0);
	close(saved);
	ck_assert_msg(n == 2, "%d %s", n, rerr.msg);
	ck_assert_str_eq(g[1].path, "from-stdin");
	check_data(&g[1], "piped");
	free_got();

	/* Errors name "standard input". */
	ck_assert_int_eq(truncate(w.path, 10), 0);
	fd = open(w.path, O_RDONLY);
	saved = dup(0);
	dup2(fd, 0);
	close(fd);
	n = read_archive("-");
	dup2(saved, 0);
	close(saved);
	ck_assert_int_lt(n, 0);
	ck_assert_msg(strstr(rerr.msg, "'standard input'"), "%s", rerr.msg);
	unlink(w.path);
}
END_TEST

/* The spool lives in tmpdir, unlinked; a missing tmpdir is an error. */
START_TEST(test_tmpdir)
{
	char dir[] = "/tmp/axfs-ut-spool.XXXXXX";
	struct source_opts o = { .tmpdir = dir };
	struct source *s;
	struct source_entry e;
	struct axfs_error err;
	struct w w;
	DIR *d;
	struct dirent *de;
	int files = 0;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	w_begin(&w, ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_NONE);
	w_file(&w, "f", "data");
	w_end(&w);
	ck_assert_int_eq(source_archive_open(&s, w.path, &o, &err), 0);
	ck_assert_int_eq(s->ops->next(s, &e, &err), 1);
	d = opendir(dir);
	while ((de = readdir(d)))
		files += de->d_name[0] != '.';
	closedir(d);
	ck_assert_int_eq(files, 0);
	source_destroy(s);
	ck_assert_int_eq(rmdir(dir), 0);

	ck_assert_int_lt(source_archive_open(&s, w.path, &o, &err), 0);
	ck_assert_msg(strstr(err.msg, dir), "%s", err.msg);
	unlink(w.path);
}
END_TEST

/* Data handles are independent and may be read from several threads. */
struct thr {
	struct source *s;
	struct source_data_ref ref;
	int ok;
};

static void *reader_thread(void *arg)
{
	struct thr *t = arg;
	struct axfs_error err;
	unsigned char buf[1000];
	uint64_t pos = 0;
	void *h;
	size_t got;

	t->ok = 0;
	for (int round = 0; round < 20; round++) {
		if (t->s->ops->data_open(t->s, &t->ref, &h, &err) < 0)
			return NULL;
		pos = 0;
		while (t->s->ops->data_read(t->s, h, buf, sizeof(buf), &got,
					    &err) == 0 && got) {
			for (size_t i = 0; i < got; i++)
				if (buf[i] != (unsigned char)((pos + i) % 251))
					return NULL;
			pos += got;
		}
		t->s->ops->data_close(t->s, h);
		if (pos != t->ref.size)
			return NULL;
	}
	t->ok = 1;
	return NULL;
}

START_TEST(test_threads)
{
	static unsigned char data[700000];
	struct source *s;
	struct source_entry e;
	struct axfs_error err;
	struct thr t[3];
	pthread_t tid[3];
	struct w w;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i % 251);
	w_begin(&w, ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_ZSTD);
	w_add(&w, "f", AE_IFREG, 0644, 0, 0, 0, NULL, NULL, data,
	      sizeof(data));
	w_end(&w);
	ck_assert_int_eq(source_archive_open(&s, w.path, NULL, &err), 0);
	ck_assert_int_eq(s->ops->next(s, &e, &err), 1);
	for (int i = 0; i < 3; i++) {
		t[i].s = s;
		t[i].ref = e.data;
		ck_assert_int_eq(pthread_create(&tid[i], NULL, reader_thread,
						&t[i]), 0);
	}
	for (int i = 0; i < 3; i++) {
		pthread_join(tid[i], NULL);
		ck_assert(t[i].ok);
	}
	/* A reference past the spool is refused, not read. */
	e.data.spool_offset = e.data.size;
	{
		void *h;

		ck_assert_int_lt(s->ops->data_open(s, &e.data, &h, &err), 0);
	}
	ck_assert_int_eq(s->ops->next(s, &e, &err), 0);
	source_destroy(s);
	unlink(w.path);
}
END_TEST

/* mtree specs are not archives here: they would make libarchive open
 * host files named in them. */
START_TEST(test_mtree_refused)
{
	char path[] = "/tmp/axfs-ut-arc.XXXXXX";
	int fd = mkstemp(path);
	const char *spec = "#mtree\n./passwd type=file contents=/etc/passwd\n";

	ck_assert_int_eq(write(fd, spec, strlen(spec)), (ssize_t)strlen(spec));
	close(fd);
	ck_assert_int_lt(read_archive(path), 0);
	unlink(path);
}
END_TEST

Suite *suite_source_archive(void)
{
	Suite *s = suite_create("source_archive");
	TCase *tc = tcase_create("source_archive");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fields);
	tcase_add_test(tc, test_formats_filters);
	tcase_add_test(tc, test_normalise);
	tcase_add_test(tc, test_rejected);
	tcase_add_test(tc, test_long_names);
	tcase_add_test(tc, test_bytes_names);
	tcase_add_test(tc, test_hardlinks_tar);
	tcase_add_test(tc, test_hardlinks_newc);
	tcase_add_test(tc, test_hardlink_data_and_duplicates);
	tcase_add_test(tc, test_sparse);
	tcase_add_test(tc, test_lossy);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_empty_archive);
	tcase_add_test(tc, test_stdin);
	tcase_add_test(tc, test_tmpdir);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_mtree_refused);
	suite_add_tcase(s, tc);
	return s;
}
