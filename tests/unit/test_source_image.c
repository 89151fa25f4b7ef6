// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/unit/test_source_image.c - the image source (source_image.c): an
 * image built by axfs_build() from a real directory is read back as
 * entries in walk order, with the image timestamp as every mtime, its
 * owners, modes, symlink targets and data (read and pread); inodes that
 * share their data and mode form a hard link group led by the first in
 * walk order; source_open() picks it by the magic; a store segment
 * with a source that is no image, truncated and corrupted images are
 * errors, never crashes.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_build.h"
#include "source.h"
#include "unit_build.h"

#define TS 1234567

static char dir[64], img_path[96], tree_path[96];
static uint8_t data[50000];

static void put(const char *name, const uint8_t *p, size_t n, mode_t mode)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tree_path, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, p, n), (ssize_t)n);
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
}

static void setup(void)
{
	struct axfs_build_opts o;
	struct axfs_error err;
	char a[160], b[160];

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)("axfs image source "[i % 18] + i / 4096);
	snprintf(dir, sizeof(dir), "/tmp/axfs-srcimg.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(tree_path, sizeof(tree_path), "%s/tree", dir);
	snprintf(img_path, sizeof(img_path), "%s/img", dir);
	ck_assert_int_eq(mkdir(tree_path, 0755), 0);
	put("a", data, sizeof(data), 0755);
	put("c", data, sizeof(data), 0600);	/* same bytes, other mode */
	put("d", data, sizeof(data), 0755);	/* same bytes and mode */
	put("z", data, 0, 0644);
	snprintf(a, sizeof(a), "%s/a", tree_path);
	snprintf(b, sizeof(b), "%s/b", tree_path);
	ck_assert_int_eq(link(a, b), 0);
	snprintf(b, sizeof(b), "%s/l", tree_path);
	ck_assert_int_eq(symlink("a", b), 0);
	snprintf(b, sizeof(b), "%s/e", tree_path);
	ck_assert_int_eq(mkdir(b, 0700), 0);

	unit_build_opts(&o, tree_path, img_path, 4096);
	o.level = 0;		/* the default compression level */
	o.timestamp = TS;
	o.force_uid = 42;
	ck_assert_msg(axfs_build(&o, NULL, &err) == 0, "%s", err.msg);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void check_data(struct source *s, const struct source_entry *e)
{
	static uint8_t buf[sizeof(data)];
	struct axfs_error err;
	size_t got, total = 0;
	void *h;

	ck_assert_uint_eq(e->data.size, sizeof(data));
	ck_assert_int_eq(s->ops->data_open(s, &e->data, &h, &err), 0);
	do {
		ck_assert_int_eq(s->ops->data_read(s, h, buf + total, 7000,
						   &got, &err), 0);
		total += got;
	} while (got);
	ck_assert_uint_eq(total, sizeof(data));
	ck_assert_mem_eq(buf, data, sizeof(data));
	ck_assert_int_eq(s->ops->data_pread(s, h, buf, 100, 40000, &got,
					    &err), 0);
	ck_assert_uint_eq(got, 100);
	ck_assert_mem_eq(buf, data + 40000, 100);
	ck_assert_int_eq(s->ops->data_pread(s, h, buf, 100, sizeof(data) - 10,
					    &got, &err), 0);
	ck_assert_uint_eq(got, 10);
	s->ops->data_close(s, h);
}

START_TEST(test_entries)
{
	static const char *const want[] = { "", "a", "b", "c", "d", "e", "l",
					    "z" };
	struct source_opts so;
	struct source *s;
	struct source_entry e;
	struct axfs_error err;
	size_t n = 0;
	int rc;

	memset(&so, 0, sizeof(so));
	ck_assert_int_eq(source_is_image(img_path), 1);
	ck_assert_int_eq(source_is_image(tree_path), 0);
	ck_assert_msg(source_open(&s, img_path, &so, &err) == 0, "%s",
		      err.msg);
	ck_assert_int_eq(s->has_timestamp, 1);
	ck_assert_int_eq(s->timestamp, TS);
	while ((rc = s->ops->next(s, &e, &err)) > 0) {
		ck_assert_uint_lt(n, sizeof(want) / sizeof(*want));
		ck_assert_str_eq(e.path, want[n]);
		ck_assert_int_eq(e.mtime, TS);
		ck_assert_uint_eq(e.uid, 42);
		ck_assert_uint_eq(e.lossy, 0);
		switch (e.path[0]) {
		case '\0':
			ck_assert_int_eq(e.type, AXFS_FT_DIR);
			break;
		case 'a':
			ck_assert_ptr_null(e.hardlink_to);
			ck_assert_uint_eq(e.mode, 0755);
			check_data(s, &e);
			break;
		case 'b':
		case 'd':
			ck_assert_ptr_nonnull(e.hardlink_to);
			ck_assert_str_eq(e.hardlink_to, "a");
			break;
		case 'c':
			ck_assert_ptr_null(e.hardlink_to);
			ck_assert_uint_eq(e.mode, 0600);
			check_data(s, &e);
			break;
		case 'e':
			ck_assert_int_eq(e.type, AXFS_FT_DIR);
			ck_assert_uint_eq(e.mode, 0700);
			break;
		case 'l':
			ck_assert_int_eq(e.type, AXFS_FT_LNK);
			ck_assert_str_eq(e.link_target, "a");
			break;
		case 'z':
			ck_assert_int_eq(e.type, AXFS_FT_REG);
			ck_assert_ptr_null(e.hardlink_to);
			ck_assert_uint_eq(e.data.size, 0);
			break;
		}
		n++;
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(n, sizeof(want) / sizeof(*want));
	source_destroy(s);
}
END_TEST

START_TEST(test_store_needs_image)
{
	struct source_opts so;
	struct source *s;
	struct axfs_error err;

	memset(&so, 0, sizeof(so));
	so.store_path = img_path;
	ck_assert_int_eq(source_open(&s, tree_path, &so, &err),
			 AXFS_ERR_INVALID);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(err.msg, "no store segment"));
}
END_TEST

/* Every truncation and a sweep of corrupted bytes: an error or a source
 * whose entries can all be read, never a crash (ASan in make check). */
START_TEST(test_hostile)
{
	char bad[128];
	uint8_t *img;
	long len;
	FILE *f = fopen(img_path, "rb");

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	img = malloc((size_t)len);
	ck_assert_ptr_nonnull(img);
	ck_assert_uint_eq(fread(img, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	snprintf(bad, sizeof(bad), "%s/bad", dir);
	for (long i = 0; i < len; i += 61) {
		for (int trunc = 0; trunc < 2; trunc++) {
			struct source *s;
			struct source_entry e;
			struct axfs_error err;
			int fd = open(bad, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			uint8_t saved = img[i];

			ck_assert_int_ge(fd, 0);
			if (!trunc)
				img[i] ^= 0xa5;
			ck_assert_int_eq(write(fd, img, trunc ? (size_t)i :
					       (size_t)len),
					 trunc ? i : len);
			close(fd);
			img[i] = saved;
			if (source_image_open(&s, bad, NULL, &err) < 0) {
				ck_assert_int_ne(err.msg[0], 0);
				continue;
			}
			while (s->ops->next(s, &e, &err) > 0) {
				uint8_t buf[4096];
				size_t got;
				void *h;

				if (e.type != AXFS_FT_REG || e.hardlink_to ||
				    s->ops->data_open(s, &e.data, &h, &err) < 0)
					continue;
				while (s->ops->data_read(s, h, buf, sizeof(buf),
							 &got, &err) == 0 &&
				       got)
					;
				s->ops->data_close(s, h);
			}
			source_destroy(s);
		}
	}
	free(img);
}
END_TEST

Suite *suite_source_image(void);
Suite *suite_source_image(void)
{
	Suite *s = suite_create("source_image");
	TCase *tc = tcase_create("source_image");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_entries);
	tcase_add_test(tc, test_store_needs_image);
	tcase_add_test(tc, test_hostile);
	suite_add_tcase(s, tc);
	return s;
}
