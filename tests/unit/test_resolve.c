// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/unit/test_resolve.c - axfs_image_resolve() and axfs_image_lookup()
 * (libaxfsimg/read/reader_path.c) on an image built by axfs_build() from a real
 * directory shaped like Debian's: usr-merge links (/bin -> usr/bin),
 * /etc/os-release -> ../usr/lib/os-release, an absolute link, links that
 * climb above the root, loops, a chain of exactly 40 links and one of 41,
 * a dangling link.  Each case is compared with what the kernel gives for
 * the same path in a chroot: the inode reached and its path without links.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "axfs_reader.h"

static struct unit_fixture fx;

static void mk(const char *rel, const char *link_target, int is_dir)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tree/%s", fx.dir, rel);
	if (link_target) {
		ck_assert_int_eq(symlink(link_target, path), 0);
	} else if (is_dir) {
		ck_assert_int_eq(mkdir(path, 0755), 0);
	} else {
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fprintf(f, "%s\n", rel);
		fclose(f);
	}
}

static void setup(void)
{
	char name[16], target[64];

	unit_fixture_begin(&fx, "resolve");
	mk("usr", NULL, 1);
	mk("usr/bin", NULL, 1);
	mk("usr/bin/ls", NULL, 0);
	mk("usr/lib", NULL, 1);
	mk("usr/lib/os-release", NULL, 0);
	mk("bin", "usr/bin", 0);
	mk("etc", NULL, 1);
	mk("etc/os-release", "../usr/lib/os-release", 0);
	mk("etc/abs", "/usr/lib", 0);
	mk("up", "../../../..", 0);
	mk("loop1", "loop2", 0);
	mk("loop2", "./loop1", 0);
	mk("self", "self", 0);
	mk("dangling", "nowhere", 0);
	/* l00 -> l01 -> ... -> l39 -> the file: 40 links;
	 * m00 -> ... -> m40 -> usr: 41 links. */
	for (int i = 0; i < 41; i++) {
		if (i < 40) {
			snprintf(name, sizeof(name), "l%02d", i);
			if (i < 39)
				snprintf(target, sizeof(target), "l%02d", i + 1);
			else
				snprintf(target, sizeof(target),
					 "etc/../usr/lib/os-release");
			mk(name, target, 0);
		}
		snprintf(name, sizeof(name), "m%02d", i);
		if (i < 40)
			snprintf(target, sizeof(target), "m%02d", i + 1);
		else
			snprintf(target, sizeof(target), "usr");
		mk(name, target, 0);
	}
	unit_fixture_build(&fx, 4096);
}

static void teardown(void)
{
	unit_fixture_end(&fx);
}

/* The links followed, as on_link saw them: "/bin /etc/abs ". */
struct seen {
	char links[512];
};

static int on_link(void *ctx, const char *path, uint64_t ino)
{
	struct seen *s = ctx;
	size_t n = strlen(s->links);

	(void)ino;
	snprintf(s->links + n, sizeof(s->links) - n, "%s ", path);
	return 0;
}

/* path resolves (with flags) to the inode that `want` names without
 * links, and its path without links is `want`. */
static void resolves(struct axfs_image *img, const char *path,
		     unsigned int flags, const char *want, const char *links)
{
	struct axfs_error err;
	struct seen s = { "" };
	uint64_t ino, want_ino;
	char *real = NULL;

	ck_assert_msg(axfs_image_resolve(img, path, flags, &ino, &real,
					 on_link, &s, &err) == 0,
		      "%s: %s", path, err.msg);
	ck_assert_msg(axfs_image_lookup(img, want, &want_ino, &err) == 0,
		      "%s: %s", want, err.msg);
	ck_assert_msg(ino == want_ino, "%s: inode %llu, want %llu (%s)",
		      path, (unsigned long long)ino,
		      (unsigned long long)want_ino, want);
	ck_assert_str_eq(real, want);
	ck_assert_str_eq(s.links, links);
	free(real);
}

static void fails(struct axfs_image *img, const char *path,
		  unsigned int flags, int code, const char *why)
{
	struct axfs_error err;
	uint64_t ino;
	char *real = NULL;

	ck_assert_int_eq(axfs_image_resolve(img, path, flags, &ino, &real,
					    NULL, NULL, &err), code);
	ck_assert_ptr_null(real);
	ck_assert_msg(strstr(err.msg, path) && strstr(err.msg, why),
		      "%s: '%s'", path, err.msg);
}

START_TEST(test_follows_as_the_kernel)
{
	struct axfs_image *img = unit_fixture_open(&fx);

	resolves(img, "/", 0, "/", "");
	resolves(img, "", 0, "/", "");
	resolves(img, "/etc/os-release", 0, "/usr/lib/os-release",
		 "/etc/os-release ");
	resolves(img, "etc/os-release", 0, "/usr/lib/os-release",
		 "/etc/os-release ");
	resolves(img, "/etc/os-release", AXFS_RESOLVE_NOFOLLOW,
		 "/etc/os-release", "");
	resolves(img, "/bin/ls", AXFS_RESOLVE_NOFOLLOW, "/usr/bin/ls",
		 "/bin ");
	resolves(img, "/bin", 0, "/usr/bin", "/bin ");
	resolves(img, "/bin", AXFS_RESOLVE_NOFOLLOW, "/bin", "");
	/* a trailing '/' follows the last link, NOFOLLOW or not */
	resolves(img, "/bin/", AXFS_RESOLVE_NOFOLLOW, "/usr/bin", "/bin ");
	/* ".." after a link is the link target's parent, not lexical */
	resolves(img, "/bin/../lib/os-release", 0, "/usr/lib/os-release",
		 "/bin ");
	resolves(img, "/etc/abs/os-release", 0, "/usr/lib/os-release",
		 "/etc/abs ");
	/* nothing leads above the root */
	resolves(img, "/../../etc/./os-release", AXFS_RESOLVE_NOFOLLOW,
		 "/etc/os-release", "");
	resolves(img, "/up/usr/bin/ls", 0, "/usr/bin/ls", "/up ");
	resolves(img, "/etc/abs/../../up/../etc", 0, "/etc",
		 "/etc/abs /up ");
	/* exactly 40 links */
	resolves(img, "/l00", AXFS_RESOLVE_NOFOLLOW, "/l00", "");
	{
		struct axfs_error err;
		uint64_t ino;
		char *real;

		ck_assert_msg(axfs_image_resolve(img, "/l00", 0, &ino, &real,
						 NULL, NULL, &err) == 0, "%s",
			      err.msg);
		ck_assert_str_eq(real, "/usr/lib/os-release");
		free(real);
	}
	resolves(img, "/self", AXFS_RESOLVE_NOFOLLOW, "/self", "");
	resolves(img, "/dangling", AXFS_RESOLVE_NOFOLLOW, "/dangling", "");
	axfs_image_close(img);
}
END_TEST

START_TEST(test_errors_name_the_path)
{
	struct axfs_image *img = unit_fixture_open(&fx);
	struct axfs_error err;
	uint64_t ino;

	fails(img, "/m00", 0, AXFS_ERR_LOOP,
	      "too many levels of symbolic links");
	fails(img, "/m00/bin", AXFS_RESOLVE_NOFOLLOW, AXFS_ERR_LOOP,
	      "too many levels of symbolic links");
	fails(img, "/loop1", 0, AXFS_ERR_LOOP,
	      "too many levels of symbolic links");
	fails(img, "/self/", AXFS_RESOLVE_NOFOLLOW, AXFS_ERR_LOOP,
	      "too many levels of symbolic links");
	fails(img, "/dangling", 0, AXFS_ERR_NOT_FOUND,
	      "no such file or directory");
	fails(img, "/usr/nope", 0, AXFS_ERR_NOT_FOUND,
	      "no such file or directory");
	fails(img, "/usr/bin/ls/", 0, AXFS_ERR_NOT_FOUND, "not a directory");
	fails(img, "/usr/bin/ls/x", 0, AXFS_ERR_NOT_FOUND, "not a directory");
	fails(img, "/usr/bin/ls/..", 0, AXFS_ERR_NOT_FOUND,
	      "not a directory");
	fails(img, "/etc/os-release/", 0, AXFS_ERR_NOT_FOUND,
	      "not a directory");
	/* the image is named too */
	fails(img, "/nope", 0, AXFS_ERR_NOT_FOUND, "'img'");
	/* axfs_image_lookup() follows no link */
	ck_assert_int_eq(axfs_image_lookup(img, "/bin/ls", &ino, &err),
			 AXFS_ERR_NOT_FOUND);
	ck_assert_int_eq(axfs_image_lookup(img, "/etc/os-release", &ino,
					   &err), 0);
	axfs_image_close(img);
}
END_TEST

/* on_link stops the resolution with its own value. */
static int stop(void *ctx, const char *path, uint64_t ino)
{
	(void)ctx;
	(void)path;
	(void)ino;
	return 7;
}

START_TEST(test_on_link_stops)
{
	struct axfs_image *img = unit_fixture_open(&fx);
	struct axfs_error err;
	uint64_t ino;
	char *real = NULL;

	ck_assert_int_eq(axfs_image_resolve(img, "/bin/ls", 0, &ino, &real,
					    stop, NULL, &err), 7);
	ck_assert_ptr_null(real);
	axfs_image_close(img);
}
END_TEST

START_TEST(test_split_segment_probe)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/img", fx.dir);
	ck_assert_int_eq(axfs_image_is_split_segment(path), 0);
	/* All but the last byte of an image whose mmap_size says 256 looks
	 * like an mmap segment; the whole image does not. */
	snprintf(path, sizeof(path), "%s/seg", fx.dir);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	{
		uint8_t *copy = malloc(fx.len);

		ck_assert_ptr_nonnull(copy);
		memcpy(copy, fx.buf, fx.len);
		memset(copy + 88, 0, 8);	/* mmap_size, u64 at 88 */
		copy[88 + 6] = 0x01;
		ck_assert_uint_eq(fwrite(copy, 1, fx.len - 1, f),
				  fx.len - 1);
		free(copy);
	}
	fclose(f);
	ck_assert_int_eq(axfs_image_is_split_segment(path), 1);
	snprintf(path, sizeof(path), "%s/none", fx.dir);
	ck_assert_int_eq(axfs_image_is_split_segment(path), 0);
}
END_TEST

Suite *suite_resolve(void)
{
	Suite *s = suite_create("resolve");
	TCase *tc = tcase_create("resolve");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_follows_as_the_kernel);
	tcase_add_test(tc, test_errors_name_the_path);
	tcase_add_test(tc, test_on_link_stops);
	tcase_add_test(tc, test_split_segment_probe);
	suite_add_tcase(s, tc);
	return s;
}
