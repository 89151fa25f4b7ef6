// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/unit/test_vfs.c - axfs_vfs.h and the shared cblock pool
 * (cblock_pool.c) on an image built by axfs_build() from a real directory:
 * eight threads reading every file at once get what a plain handle reads,
 * each cblock is inflated once while the pool holds it, the pool never
 * holds more than its bound; attributes, lookup, readdir (resumed at any
 * position) and readlink are what the kernel driver gives; a damaged
 * cblock fails its reads with -EIO, every time, and nothing else.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "axfs_cblock_pool.h"
#include "axfs_reader.h"
#include "axfs_vfs.h"

#define NFILES		40
#define NTHREADS	8

static struct unit_fixture fx;

static void put_file(const char *name, size_t len, unsigned int seed)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tree/%s", fx.dir, name);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; i < len; i++)
		fputc(i % 7 == 0 ? (int)((i * seed) >> 3 & 0xff) :
		      'a' + (int)((i / 11 + seed) % 26), f);
	fclose(f);
}

static void setup(void)
{
	char path[160], name[32];

	unit_fixture_begin(&fx, "vfs");
	snprintf(path, sizeof(path), "%s/tree/sub", fx.dir);
	ck_assert_int_eq(mkdir(path, 0750), 0);
	snprintf(path, sizeof(path), "%s/tree/sub/deeper", fx.dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	for (int i = 0; i < NFILES; i++) {
		snprintf(name, sizeof(name), "sub/f%02d", i);
		put_file(name, (size_t)i * 3001 + 17, (unsigned int)i + 1);
	}
	put_file("big", 300000, 99);
	snprintf(path, sizeof(path), "%s/tree/link", fx.dir);
	ck_assert_int_eq(symlink("sub/f07", path), 0);

	unit_fixture_build(&fx, 8192);
}

static void teardown(void)
{
	unit_fixture_end(&fx);
}

/* The inode number (vfs numbering) of path, through lookups. */
static uint64_t vfs_path(struct axfs_vfs *v, const char *path)
{
	char buf[128], *save = NULL;
	struct axfs_error err;
	struct stat st;
	uint64_t ino = AXFS_VFS_ROOT;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *c = strtok_r(buf, "/", &save); c;
	     c = strtok_r(NULL, "/", &save))
		ck_assert_int_eq(axfs_vfs_lookup(v, ino, c, strlen(c), &ino,
						 &st, &err), 0);
	return ino;
}

/* ---- many threads, one pool --------------------------------------------- */

struct reader {
	struct axfs_vfs *v;
	struct axfs_image *plain;	/* reference reads (main thread) */
	uint64_t ino[NFILES + 1];
	uint8_t *want[NFILES + 1];
	size_t len[NFILES + 1];
	int id, bad;
};

static void *read_all(void *arg)
{
	struct reader *r = arg;
	struct axfs_error err;
	static __thread uint8_t buf[400000];

	for (int k = 0; k <= NFILES; k++) {
		int i = (k * 7 + r->id * 13) % (NFILES + 1);
		size_t got = 0, off = 0;

		/* Odd chunks, as the kernel's readahead would not ask. */
		while (off < r->len[i]) {
			size_t n;

			if (axfs_vfs_read(r->v, r->ino[i], off, buf + off,
					  5000 + (size_t)r->id * 100, &n,
					  &err) < 0 || n == 0) {
				r->bad++;
				break;
			}
			off += n;
			got += n;
		}
		if (got != r->len[i] || memcmp(buf, r->want[i], got) != 0)
			r->bad++;
	}
	return NULL;
}

/* Distinct cblocks of the files read. */
static uint64_t count_cblocks(struct axfs_image *img, struct reader *r)
{
	static uint8_t seen[1 << 16];
	struct axfs_page_loc loc;
	struct axfs_error err;
	uint64_t n = 0;

	memset(seen, 0, sizeof(seen));
	for (int i = 0; i <= NFILES; i++)
		for (uint64_t p = 0; p * AXFS_PAGE_SIZE < r->len[i]; p++) {
			ck_assert_int_eq(axfs_image_page_location(img,
				r->ino[i] - 1, p, &loc, &err), 0);
			if (loc.type != AXFS_NODE_COMPRESSED)
				continue;
			ck_assert_uint_lt(loc.cblock, sizeof(seen));
			n += !seen[loc.cblock];
			seen[loc.cblock] = 1;
		}
	return n;
}

static void run_readers(size_t cache, int check_once)
{
	struct axfs_vfs_opts vo = { .struct_size = sizeof(vo), .cache_bytes = cache };
	struct axfs_image *img = unit_fixture_open(&fx);
	struct axfs_image *plain = unit_fixture_open(&fx);
	struct axfs_cblock_pool_stats st;
	struct reader r[NTHREADS];
	pthread_t t[NTHREADS];
	struct axfs_error err;
	struct axfs_vfs *v;
	size_t got;

	ck_assert_int_eq(axfs_vfs_new(&v, img, &vo, &err), 0);
	memset(r, 0, sizeof(r));
	r[0].v = v;
	for (int i = 0; i <= NFILES; i++) {
		char path[32];

		if (i < NFILES)
			snprintf(path, sizeof(path), "sub/f%02d", i);
		else
			snprintf(path, sizeof(path), "big");
		r[0].ino[i] = vfs_path(v, path);
		r[0].len[i] = i < NFILES ? (size_t)i * 3001 + 17 : 300000;
		r[0].want[i] = malloc(r[0].len[i] + 1);
		ck_assert_int_eq(axfs_image_read(plain, r[0].ino[i] - 1, 0,
						 r[0].want[i], r[0].len[i],
						 &got, &err), 0);
		ck_assert_uint_eq(got, r[0].len[i]);
	}
	for (int k = 0; k < NTHREADS; k++) {
		if (k)
			r[k] = r[0];
		r[k].id = k;
		ck_assert_int_eq(pthread_create(&t[k], NULL, read_all, &r[k]),
				 0);
	}
	for (int k = 0; k < NTHREADS; k++) {
		pthread_join(t[k], NULL);
		ck_assert_int_eq(r[k].bad, 0);
	}
	axfs_cblock_pool_stats(axfs_vfs_pool(v), &st);
	ck_assert_uint_le(st.held, st.slots);
	ck_assert_uint_gt(st.hits, 0);
	if (check_once) {
		/* Room for all: inflated once each, never evicted. */
		ck_assert_uint_eq(st.evicted, 0);
		ck_assert_uint_eq(st.inflated, count_cblocks(plain, &r[0]));
	} else {
		ck_assert_uint_eq(st.slots, 4);
		ck_assert_uint_gt(st.evicted, 0);
	}
	for (int i = 0; i <= NFILES; i++)
		free(r[0].want[i]);
	axfs_vfs_free(v);
	axfs_image_close(img);
	axfs_image_close(plain);
}

START_TEST(test_vfs_threads_share_one_pool)
{
	run_readers(64u << 20, 1);
}
END_TEST

START_TEST(test_vfs_threads_small_pool)
{
	run_readers(1, 0);
}
END_TEST

/* ---- what the driver shows ------------------------------------------------ */

struct listing {
	char names[64][32];
	uint64_t ino[64], next[64];
	uint32_t type[64];
	int n, stop_after;
};

static int list_fn(void *ctx, const char *name, uint64_t ino, uint32_t type,
		   uint64_t next_pos)
{
	struct listing *l = ctx;

	if (l->stop_after && l->n >= l->stop_after)
		return 1;
	ck_assert_int_lt(l->n, 64);
	snprintf(l->names[l->n], sizeof(l->names[0]), "%s", name);
	l->ino[l->n] = ino;
	l->type[l->n] = type;
	l->next[l->n] = next_pos;
	l->n++;
	return 0;
}

START_TEST(test_vfs_attributes_lookup_readdir)
{
	struct axfs_image *img = unit_fixture_open(&fx);
	struct axfs_error err;
	struct axfs_vfs *v;
	struct listing l, part;
	struct statvfs sfs;
	struct stat st;
	uint64_t sub, ino, pos;
	char target[AXFS_PAGE_SIZE];
	size_t got;
	char c;

	ck_assert_int_eq(axfs_vfs_new(&v, img, NULL, &err), 0);
	ck_assert_int_eq(axfs_vfs_getattr(v, AXFS_VFS_ROOT, &st, &err), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_uint_eq(st.st_ino, 1);
	ck_assert_uint_eq(st.st_nlink, 3);		/* 2 + sub */
	ck_assert_int_eq(st.st_mtim.tv_sec, 1700000000);

	/* The root lists ".", "..", big, link, sub in strcmp order. */
	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(axfs_vfs_readdir(v, AXFS_VFS_ROOT, 0, list_fn, &l,
					  &err), 0);
	ck_assert_int_eq(l.n, 5);
	ck_assert_str_eq(l.names[0], ".");
	ck_assert_str_eq(l.names[1], "..");
	ck_assert_uint_eq(l.ino[1], AXFS_VFS_ROOT);
	ck_assert_str_eq(l.names[2], "big");
	ck_assert_str_eq(l.names[3], "link");
	ck_assert_uint_eq(l.type[3], S_IFLNK);
	ck_assert_str_eq(l.names[4], "sub");

	/* Numbers from readdir and lookup agree. */
	ck_assert_int_eq(axfs_vfs_lookup(v, AXFS_VFS_ROOT, "sub", 3, &sub, &st,
					 &err), 0);
	ck_assert_uint_eq(sub, l.ino[4]);
	ck_assert_uint_eq(st.st_ino, sub);
	ck_assert_uint_eq(st.st_mode, S_IFDIR | 0750);
	ck_assert_uint_eq(st.st_nlink, 3);		/* 2 + deeper */

	/* sub listed three entries at a time, resumed at the positions
	 * readdir gave: the same as in one go; ".." is the root. */
	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(axfs_vfs_readdir(v, sub, 0, list_fn, &l, &err), 0);
	ck_assert_int_eq(l.n, 2 + NFILES + 1);
	ck_assert_uint_eq(l.ino[1], AXFS_VFS_ROOT);
	pos = 0;
	for (int k = 0; k < l.n;) {
		memset(&part, 0, sizeof(part));
		part.stop_after = 3;
		ck_assert_int_eq(axfs_vfs_readdir(v, sub, pos, list_fn, &part,
						  &err), 0);
		ck_assert_int_gt(part.n, 0);
		for (int j = 0; j < part.n; j++, k++) {
			ck_assert_str_eq(part.names[j], l.names[k]);
			ck_assert_uint_eq(part.ino[j], l.ino[k]);
		}
		pos = part.next[part.n - 1];
	}
	memset(&part, 0, sizeof(part));
	ck_assert_int_eq(axfs_vfs_readdir(v, sub, pos, list_fn, &part, &err),
			 0);
	ck_assert_int_eq(part.n, 0);

	/* ".." of sub/deeper is sub, once deeper was looked up there. */
	ck_assert_int_eq(axfs_vfs_lookup(v, sub, "deeper", 6, &ino, &st, &err),
			 0);
	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(axfs_vfs_readdir(v, ino, 0, list_fn, &l, &err), 0);
	ck_assert_int_eq(l.n, 2);
	ck_assert_uint_eq(l.ino[1], sub);

	/* Misses and wrong types. */
	ck_assert_int_eq(axfs_vfs_lookup(v, sub, "f99", 3, &ino, &st, &err),
			 -ENOENT);
	ino = vfs_path(v, "big");
	ck_assert_int_eq(axfs_vfs_getattr(v, ino, &st, &err), 0);
	ck_assert_int_eq(st.st_size, 300000);
	ck_assert_int_eq(st.st_blocks, (300000 + 511) / 512);
	ck_assert_uint_eq(st.st_nlink, 1);
	ck_assert_int_eq(axfs_vfs_lookup(v, ino, "x", 1, &ino, &st, &err),
			 -ENOTDIR);
	ck_assert_int_eq(axfs_vfs_open(v, sub, &err), -EISDIR);
	ck_assert_int_eq(axfs_vfs_read(v, sub, 0, &c, 1, &got, &err),
			 -EISDIR);
	ck_assert_int_eq(axfs_vfs_getattr(v, 0, &st, &err), -EINVAL);
	ck_assert_int_eq(axfs_vfs_getattr(v, 1u << 30, &st, &err), -EIO);

	/* The symlink. */
	ino = vfs_path(v, "link");
	ck_assert_int_eq(axfs_vfs_readlink(v, ino, target, sizeof(target),
					   &err), 0);
	ck_assert_str_eq(target, "sub/f07");
	ck_assert_int_eq(axfs_vfs_readlink(v, ino, target, 3, &err),
			 -ENAMETOOLONG);
	ck_assert_int_eq(axfs_vfs_readlink(v, sub, target, 3, &err), -EINVAL);

	axfs_vfs_statfs(v, &sfs);
	ck_assert_uint_eq(sfs.f_bsize, 4096);
	ck_assert_uint_eq(sfs.f_namemax, 255);
	ck_assert_uint_eq(sfs.f_blocks, (fx.len + 4095) / 4096);
	axfs_vfs_free(v);
	axfs_image_close(img);
}
END_TEST

START_TEST(test_vfs_pool_of_another_image)
{
	struct axfs_image *a = unit_fixture_open(&fx);
	struct axfs_image *b = unit_fixture_open(&fx), *c;
	struct axfs_cblock_pool *p;
	struct axfs_error err;

	ck_assert_int_eq(axfs_cblock_pool_new(&p, a, 1, &err), 0);
	ck_assert_int_eq(axfs_image_clone(&c, a, &err), 0);
	ck_assert_int_eq(axfs_image_use_pool(c, p, &err), 0);
	ck_assert_int_lt(axfs_image_use_pool(b, p, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "another image"));
	axfs_image_close(c);
	axfs_cblock_pool_free(p);
	axfs_image_close(a);
	axfs_image_close(b);
}
END_TEST

/* A damaged cblock of big: its reads fail with -EIO every time (the
 * pool keeps no failed slot), other files read fine. */
START_TEST(test_vfs_damaged_cblock)
{
	struct axfs_image *img;
	struct axfs_page_loc loc;
	struct axfs_error err;
	struct axfs_vfs *v;
	static uint8_t buf[300000];
	uint64_t big, f3;
	size_t got;

	img = unit_fixture_open(&fx);
	ck_assert_int_eq(axfs_vfs_new(&v, img, NULL, &err), 0);
	big = vfs_path(v, "big");
	f3 = vfs_path(v, "sub/f03");
	axfs_vfs_free(v);
	ck_assert_int_eq(axfs_image_page_location(img, big - 1, 20, &loc,
						  &err), 0);
	ck_assert_uint_eq(loc.type, AXFS_NODE_COMPRESSED);
	ck_assert_uint_gt(loc.stored_len, 40);
	axfs_image_close(img);
	memset(fx.buf + loc.image_offset + 10, 0x5a, 24);

	img = unit_fixture_open(&fx);
	ck_assert_int_eq(axfs_vfs_new(&v, img, NULL, &err), 0);
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(axfs_vfs_read(v, big, 20 * 4096, buf, 4096,
					       &got, &err), -EIO);
		ck_assert_ptr_nonnull(strstr(err.msg, "cblock"));
	}
	ck_assert_int_eq(axfs_vfs_read(v, big, 0, buf, 4096, &got, &err), 0);
	ck_assert_uint_eq(got, 4096);
	ck_assert_int_eq(axfs_vfs_read(v, f3, 0, buf, sizeof(buf), &got,
				       &err), 0);
	ck_assert_uint_eq(got, 3 * 3001 + 17);
	axfs_vfs_free(v);
	axfs_image_close(img);
}
END_TEST

Suite *suite_vfs(void);
Suite *suite_vfs(void)
{
	Suite *s = suite_create("vfs");
	TCase *tc = tcase_create("vfs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_vfs_threads_share_one_pool);
	tcase_add_test(tc, test_vfs_threads_small_pool);
	tcase_add_test(tc, test_vfs_attributes_lookup_readdir);
	tcase_add_test(tc, test_vfs_pool_of_another_image);
	tcase_add_test(tc, test_vfs_damaged_cblock);
	suite_add_tcase(s, tc);
	return s;
}
