// SPDX-License-Identifier: GPL-2.0-or-later
/* The directory source: walk order, entries, hard links, exclusions, and
 * the checks on data read later (a file that changes size is named). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "source.h"

static char top[256];

static void put(const char *rel, const char *data)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(data, f);
	fclose(f);
}

static void mk(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	ck_assert_int_eq(mkdir(p, 0750), 0);
}

static void setup(void)
{
	char p[512], q[512];

	snprintf(top, sizeof(top), "%s/axfs-srcdir.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(top));
	/* Created out of order; the walk must sort. */
	mk("z");
	mk("b");
	put("z/2", "two");
	put("z/10", "ten");
	put("b/\xc3\xa9", "e");
	put("b/B", "upper");
	put("a", "0123456789");
	snprintf(p, sizeof(p), "%s/a", top);
	snprintf(q, sizeof(q), "%s/z/hard", top);
	ck_assert_int_eq(link(p, q), 0);
	snprintf(q, sizeof(q), "%s/b/sym", top);
	ck_assert_int_eq(symlink("../a", q), 0);
	snprintf(q, sizeof(q), "%s/fifo", top);
	ck_assert_int_eq(mkfifo(q, 0600), 0);
}

static void teardown(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_walk_order_and_entries)
{
	static const char *want[] = {
		"", "a", "b", "b/B", "b/sym", "b/\xc3\xa9", "fifo", "z",
		"z/10", "z/2", "z/hard",
	};
	struct source *src;
	struct source_entry e;
	struct axfs_error err;
	size_t n = 0;
	int rc;

	ck_assert_msg(source_open(&src, top, NULL, &err) == 0, "%s",
		      err.msg);
	while ((rc = src->ops->next(src, &e, &err)) == 1) {
		ck_assert_uint_lt(n, sizeof(want) / sizeof(*want));
		ck_assert_str_eq(e.path, want[n]);
		if (!strcmp(e.path, "")) {
			ck_assert_int_eq(e.type, AXFS_FT_DIR);
		} else if (!strcmp(e.path, "a")) {
			ck_assert_int_eq(e.type, AXFS_FT_REG);
			ck_assert_uint_eq(e.data.size, 10);
			ck_assert_ptr_nonnull(e.data.host_path);
			ck_assert_ptr_null(e.hardlink_to);
		} else if (!strcmp(e.path, "b")) {
			ck_assert_int_eq(e.type, AXFS_FT_DIR);
			ck_assert_uint_eq(e.mode, 0750);
		} else if (!strcmp(e.path, "b/sym")) {
			ck_assert_int_eq(e.type, AXFS_FT_LNK);
			ck_assert_str_eq(e.link_target, "../a");
		} else if (!strcmp(e.path, "fifo")) {
			ck_assert_int_eq(e.type, AXFS_FT_FIFO);
			ck_assert_uint_eq(e.mode, 0600);
		} else if (!strcmp(e.path, "z/hard")) {
			/* The first path in walk order holds the data. */
			ck_assert_str_eq(e.hardlink_to, "a");
			ck_assert_ptr_null(e.data.host_path);
		}
		free(e.data.host_path);
		n++;
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(n, sizeof(want) / sizeof(*want));
	source_destroy(src);
}
END_TEST

START_TEST(test_excluded_paths)
{
	struct source *src;
	struct source_opts o;
	struct source_entry e;
	struct axfs_error err;
	char out[512], notyet[512];
	const char *ex[2];

	/* One existing file spelled through "..", one not created yet. */
	snprintf(out, sizeof(out), "%s/b/../a", top);
	snprintf(notyet, sizeof(notyet), "%s/z/.img.XXXX", top);
	ex[0] = out;
	ex[1] = notyet;
	put("z/.img.XXXX", "temp");
	memset(&o, 0, sizeof(o));
	o.exclude_host_paths = ex;
	o.n_exclude_host_paths = 2;
	ck_assert_int_eq(source_dir_open(&src, top, &o, &err), 0);
	while (src->ops->next(src, &e, &err) == 1) {
		ck_assert_str_ne(e.path, "a");
		ck_assert_str_ne(e.path, "z/.img.XXXX");
		/* z/hard is a link to the left-out a: it carries the data. */
		if (!strcmp(e.path, "z/hard")) {
			ck_assert_ptr_null(e.hardlink_to);
			ck_assert_ptr_nonnull(e.data.host_path);
		}
		free(e.data.host_path);
	}
	source_destroy(src);
}
END_TEST

/* Reads entry `path` of the source through data_open/data_read. */
static int read_all(struct source *src, const char *path,
		    void (*between)(void), char *buf, size_t len,
		    size_t *total, struct axfs_error *err)
{
	struct source_entry e;
	struct source_data_ref ref = { 0 };
	void *h;
	int rc;

	while (src->ops->next(src, &e, err) == 1) {
		if (!strcmp(e.path, path)) {
			ref = e.data;
			continue;
		}
		free(e.data.host_path);
	}
	ck_assert_ptr_nonnull(ref.host_path);
	rc = src->ops->data_open(src, &ref, &h, err);
	if (rc < 0) {
		free(ref.host_path);
		return rc;
	}
	*total = 0;
	if (between)
		between();
	for (;;) {
		size_t got;

		rc = src->ops->data_read(src, h, buf + *total, len - *total,
					 &got, err);
		if (rc < 0 || got == 0)
			break;
		*total += got;
	}
	src->ops->data_close(src, h);
	free(ref.host_path);
	return rc;
}

static void grow(void)
{
	put("a", "0123456789 and more");
}

static void shrink(void)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/a", top);
	ck_assert_int_eq(truncate(p, 4), 0);
}

START_TEST(test_data_read_and_size_changes)
{
	struct source *src;
	struct axfs_error err;
	char buf[64];
	size_t total;

	ck_assert_int_eq(source_open(&src, top, NULL, &err), 0);
	ck_assert_int_eq(read_all(src, "a", NULL, buf, sizeof(buf), &total,
				  &err), 0);
	ck_assert_uint_eq(total, 10);
	ck_assert_int_eq(memcmp(buf, "0123456789", 10), 0);
	source_destroy(src);

	ck_assert_int_eq(source_open(&src, top, NULL, &err), 0);
	ck_assert_int_lt(read_all(src, "a", grow, buf, sizeof(buf), &total,
				  &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "/a' grew while it was being read"));
	source_destroy(src);

	put("a", "0123456789");
	ck_assert_int_eq(source_open(&src, top, NULL, &err), 0);
	ck_assert_int_lt(read_all(src, "a", shrink, buf, sizeof(buf), &total,
				  &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "/a' shrank"));
	source_destroy(src);

	/* Changed between the walk and the open. */
	put("a", "0123456789");
	ck_assert_int_eq(source_open(&src, top, NULL, &err), 0);
	{
		struct source_entry e;
		struct source_data_ref ref = { 0 };
		void *h;

		while (src->ops->next(src, &e, &err) == 1) {
			if (!strcmp(e.path, "a"))
				ref = e.data;
			else
				free(e.data.host_path);
		}
		put("a", "x");
		ck_assert_int_lt(src->ops->data_open(src, &ref, &h, &err), 0);
		ck_assert_ptr_nonnull(strstr(err.msg, "changed while the image "
						      "was being built"));
		free(ref.host_path);
	}
	source_destroy(src);
}
END_TEST

START_TEST(test_errors_name_the_path)
{
	struct source *src;
	struct axfs_error err;
	char p[600];

	snprintf(p, sizeof(p), "%s/nothere", top);
	ck_assert_int_lt(source_open(&src, p, NULL, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "nothere': No such file"));
	ck_assert_int_eq(err.code, AXFS_ERR_IO);
	ck_assert_int_eq(err.sys_errno, ENOENT);
}
END_TEST

START_TEST(test_ftype_modes)
{
	for (int t = AXFS_FT_REG; t <= AXFS_FT_SOCK; t++) {
		uint32_t m = axfs_ftype_to_mode((enum axfs_ftype)t);

		ck_assert_uint_ne(m, 0);
		ck_assert_int_eq(axfs_ftype_from_mode(m | 0755), t);
		ck_assert_str_ne(axfs_ftype_name((enum axfs_ftype)t),
				 "unknown file type");
	}
	ck_assert_uint_eq(axfs_ftype_to_mode(AXFS_FT_NONE), 0);
	ck_assert_int_eq(axfs_ftype_from_mode(0), AXFS_FT_NONE);
	ck_assert_str_eq(axfs_ftype_name(AXFS_FT_CHR), "character device");
}
END_TEST

Suite *suite_source_dir(void)
{
	Suite *s = suite_create("source_dir");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_walk_order_and_entries);
	tcase_add_test(tc, test_excluded_paths);
	tcase_add_test(tc, test_data_read_and_size_changes);
	tcase_add_test(tc, test_errors_name_the_path);
	tcase_add_test(tc, test_ftype_modes);
	suite_add_tcase(s, tc);
	return s;
}
