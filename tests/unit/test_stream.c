// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/unit/test_stream.c - axfs_stream (reader_stream.c): the pieces of
 * every file come in order and hold what axfs_image_read() returns, for
 * any number of threads, piece size and read-ahead window; a corrupt
 * cblock ends the stream at the right piece with the reader's error; the
 * stream can be closed early.  The image is built by axfs_build() from a
 * real directory of small files, a large one and a sparse one.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_build.h"
#include "unit.h"
#include "unit_build.h"
#include "axfs_reader.h"
#include "axfs_stream.h"

static char dir[64], img_path[96];
static uint8_t *img_buf;
static size_t img_len;

struct files {
	struct axfs_stream_file *v;
	size_t n, cap;
};

static void write_file(const char *name, const uint8_t *p, size_t n)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/tree/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, p, n), (ssize_t)n);
	close(fd);
}

static void setup(void)
{
	struct axfs_build_opts o;
	struct axfs_error err;
	static uint8_t data[300000];
	uint64_t r = 12345;
	char path[160];

	snprintf(dir, sizeof(dir), "/tmp/axfs-stream.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tree", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/tree/d", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	for (size_t i = 0; i < sizeof(data); i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		/* Half random, half text: some cblocks shrink, some not. */
		data[i] = (i / 5000) % 2 ? (uint8_t)(r >> 56) :
			  (uint8_t)('a' + i % 23);
	}
	/* 700 small files: more than one job's 512 pieces. */
	for (int i = 0; i < 700; i++) {
		char name[32];

		snprintf(name, sizeof(name), "d/f%03d", i);
		write_file(name, data + i * 97, (size_t)(i * 37 % 3000));
	}
	write_file("large", data, sizeof(data));
	memset(data + 8192, 0, 3 * 4096);
	write_file("sparse", data, 40000);

	snprintf(img_path, sizeof(img_path), "%s/img", dir);
	snprintf(path, sizeof(path), "%s/tree", dir);
	unit_build_opts(&o, path, img_path, 16384);
	o.jobs = 2;
	o.timestamp = 0;
	ck_assert_msg(axfs_build(&o, NULL, &err) == 0, "%s", err.msg);

	img_buf = unit_read_file(img_path, &img_len);
}

static void teardown(void)
{
	free(img_buf);
	img_buf = NULL;
	unit_remove_tree(dir);
}

static int collect_fn(void *ctx, const char *path,
		      const struct axfs_inode_info *in)
{
	struct files *fl = ctx;

	(void)path;
	if (!S_ISREG(in->mode))
		return 0;
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 64;
		fl->v = realloc(fl->v, fl->cap * sizeof(*fl->v));
		ck_assert_ptr_nonnull(fl->v);
	}
	fl->v[fl->n].ino = in->ino;
	fl->v[fl->n].size = in->size;
	fl->n++;
	return 0;
}

static struct axfs_image *open_img(const uint8_t *buf, struct files *fl)
{
	struct axfs_image *img;
	struct axfs_error err;

	if (buf)
		ck_assert_msg(axfs_image_open_buffer(&img, buf, img_len, "img",
						     NULL, &err) == 0,
			      "%s", err.msg);
	else
		ck_assert_msg(axfs_image_open(&img, img_path, NULL, &err) == 0,
			      "%s", err.msg);
	memset(fl, 0, sizeof(*fl));
	ck_assert_int_eq(axfs_image_walk(img, collect_fn, fl, &err), 0);
	ck_assert_uint_ge(fl->n, 702);
	return img;
}

/* Streams every file and checks each piece against axfs_image_read. */
static void stream_all(unsigned int threads, size_t chunk, size_t window)
{
	struct axfs_stream_opts so = { sizeof(so), threads, chunk, window };
	struct axfs_stream *s;
	struct axfs_error err;
	struct files fl;
	struct axfs_image *img = open_img(NULL, &fl);
	size_t f = 0, pieces = 0;
	uint64_t off = 0, total = 0, want = 0;
	uint8_t *buf = malloc(1 << 20);
	int rc;

	ck_assert_ptr_nonnull(buf);
	for (size_t i = 0; i < fl.n; i++)
		want += fl.v[i].size;
	ck_assert_int_eq(axfs_stream_open(&s, img, fl.v, fl.n, &so, &err), 0);
	for (;;) {
		struct axfs_stream_piece p;
		size_t got;

		rc = axfs_stream_next(s, &p, &err);
		ck_assert_msg(rc >= 0, "%s", err.msg);
		if (rc == 0)
			break;
		/* In order: the next bytes of this file, or a later file
		 * once this one is complete (skipping empty files). */
		if (p.file != f) {
			ck_assert_uint_eq(off, fl.v[f].size);
			ck_assert_uint_gt(p.file, f);
			for (size_t k = f + 1; k < p.file; k++)
				ck_assert_uint_eq(fl.v[k].size, 0);
			f = p.file;
			off = 0;
		}
		ck_assert_uint_eq(p.offset, off);
		ck_assert_uint_gt(p.len, 0);
		if (chunk)
			ck_assert_uint_le(p.len, chunk);
		ck_assert_int_eq(axfs_image_read(img, fl.v[f].ino, off, buf,
						 p.len, &got, &err), 0);
		ck_assert_uint_eq(got, p.len);
		ck_assert_msg(!memcmp(buf, p.data, p.len),
			      "file %zu bytes %llu+%zu differ", f,
			      (unsigned long long)off, p.len);
		off += p.len;
		total += p.len;
		pieces++;
	}
	ck_assert_uint_eq(total, want);
	ck_assert_uint_ge(pieces, fl.n - 1);	/* f000 is empty */
	/* The end stays the end. */
	ck_assert_int_eq(axfs_stream_next(s, &(struct axfs_stream_piece){ 0 },
					  &err), 0);
	axfs_stream_close(s);
	axfs_image_close(img);
	free(fl.v);
	free(buf);
}

START_TEST(test_stream_every_config)
{
	stream_all(0, 0, 0);
	stream_all(0, 4096, 0);
	stream_all(1, 4096, 8192);
	stream_all(3, 8192, 0);
	stream_all(2, 65536, 5 * 65536);
	stream_all(4, 1 << 20, 1);
}
END_TEST

START_TEST(test_stream_closed_early)
{
	struct axfs_stream_opts so = { sizeof(so), 3, 4096, 0 };
	struct axfs_stream *s;
	struct axfs_stream_piece p;
	struct axfs_error err;
	struct files fl;
	struct axfs_image *img = open_img(NULL, &fl);

	ck_assert_int_eq(axfs_stream_open(&s, img, fl.v, fl.n, &so, &err), 0);
	ck_assert_int_eq(axfs_stream_next(s, &p, &err), 1);
	ck_assert_int_eq(axfs_stream_next(s, &p, &err), 1);
	axfs_stream_close(s);
	/* And with nothing to read at all. */
	ck_assert_int_eq(axfs_stream_open(&s, img, fl.v, 0, &so, &err), 0);
	ck_assert_int_eq(axfs_stream_next(s, &p, &err), 0);
	axfs_stream_close(s);
	axfs_image_close(img);
	free(fl.v);
}
END_TEST

/* A corrupt cblock: the stream gives every piece before the first one
 * that reads it, then fails there with the reader's message, for good. */
START_TEST(test_stream_corrupt_cblock)
{
	uint8_t *bad = malloc(img_len);
	const struct axfs_region_info *cr;
	struct axfs_image *img;
	struct files fl;
	char first_msg[AXFS_ERROR_MSG_MAX] = "";

	ck_assert_ptr_nonnull(bad);
	memcpy(bad, img_buf, img_len);
	img = open_img(img_buf, &fl);
	cr = axfs_image_region(img, AXFS_R_COMPRESSED);
	ck_assert_uint_eq(cr->compressed_size, 0);
	ck_assert_uint_gt(cr->size, 8192);
	memset(bad + cr->fsoffset + cr->size / 2, 0xa5, 64);
	axfs_image_close(img);
	free(fl.v);

	for (unsigned int threads = 0; threads <= 3; threads += 3) {
		struct axfs_stream_opts so = { sizeof(so), threads, 8192, 0 };
		struct axfs_stream *s;
		struct axfs_stream_piece p;
		struct axfs_error err, e2;
		size_t good = 0;
		int rc;

		img = open_img(bad, &fl);
		ck_assert_int_eq(axfs_stream_open(&s, img, fl.v, fl.n, &so,
						  &err), 0);
		while ((rc = axfs_stream_next(s, &p, &err)) == 1) {
			uint8_t buf[8192];
			size_t got;

			ck_assert_int_eq(axfs_image_read(img, fl.v[p.file].ino,
							 p.offset, buf, p.len,
							 &got, &e2), 0);
			ck_assert(!memcmp(buf, p.data, p.len));
			good++;
		}
		ck_assert_int_eq(rc, AXFS_ERR_FORMAT);
		ck_assert_ptr_null(p.data);
		ck_assert_msg(strstr(err.msg, "cblock"), "%s", err.msg);
		/* The failing piece really cannot be read. */
		{
			uint8_t buf[8192];
			size_t got;

			ck_assert_int_lt(axfs_image_read(img, fl.v[p.file].ino,
							 p.offset, buf, 8192,
							 &got, &e2), 0);
		}
		ck_assert_int_eq(axfs_stream_next(s, &p, &e2), AXFS_ERR_FORMAT);
		ck_assert_str_eq(e2.msg, err.msg);
		if (!first_msg[0])
			snprintf(first_msg, sizeof(first_msg), "%s", err.msg);
		else
			ck_assert_str_eq(err.msg, first_msg);
		ck_assert_uint_gt(good, 0);
		axfs_stream_close(s);
		axfs_image_close(img);
		free(fl.v);
	}
	free(bad);
}
END_TEST

Suite *suite_stream(void);
Suite *suite_stream(void)
{
	Suite *s = suite_create("stream");
	TCase *tc = tcase_create("stream");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_stream_every_config);
	tcase_add_test(tc, test_stream_closed_early);
	tcase_add_test(tc, test_stream_corrupt_cblock);
	suite_add_tcase(s, tc);
	return s;
}
