// SPDX-License-Identifier: GPL-2.0-or-later
/* The mkfs tree: ordering, numbering, implied parents, duplicates, hard
 * links, limits, and a large tree. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tree.h"
#include "axfs_format.h"
#include "unit.h"

static struct unit_log cap;
static struct axfs_logger cap_logger;

static void setup(struct tree *t)
{
	cap_logger = unit_logger(&cap);
	ck_assert_int_eq(tree_init(t, &cap_logger, NULL), 0);
}

static struct source_entry mk(const char *path, enum axfs_ftype type,
			      uint32_t mode)
{
	return unit_entry(path, type, mode, 0, NULL, NULL);
}

static void add_ok(struct tree *t, struct source_entry e)
{
	struct axfs_error err;

	axfs_error_clear(&err);
	ck_assert_msg(tree_add(t, &e, NULL, &err) == 0, "%s: %s", e.path,
		      err.msg);
}

/* The error has CODE and its message holds WHAT (and ALSO unless NULL). */
static void error_is(int rc, const struct axfs_error *err, int code,
		     const char *what, const char *also)
{
	ck_assert_int_eq(rc, code);
	ck_assert_msg(strstr(err->msg, what), "no '%s' in: %s", what, err->msg);
	ck_assert_msg(!also || strstr(err->msg, also), "no '%s' in: %s", also,
		      err->msg);
}

/* Adding e must fail: see error_is(). */
static void add_fails(struct tree *t, struct source_entry e, int code,
		      const char *what, const char *also)
{
	struct axfs_error err;

	error_is(tree_add(t, &e, NULL, &err), &err, code, what, also);
}

/* Finalizing t must fail (see error_is()); t is freed. */
static void finalize_fails(struct tree *t, int code, const char *what,
			   const char *also)
{
	struct axfs_error err;

	error_is(tree_finalize(t, &err), &err, code, what, also);
	tree_free(t);
}

/* A device node PATH of TYPE, MAJOR:MINOR, mode 0600. */
static void add_dev(struct tree *t, const char *path,
		    enum axfs_ftype type, uint32_t major, uint32_t minor)
{
	struct source_entry e = mk(path, type, 0600);

	e.rdev_major = major;
	e.rdev_minor = minor;
	add_ok(t, e);
}

/* Every entry's inode number is its index, and every directory's children
 * are consecutive inodes in strcmp order; returns how many children. */
static size_t check_numbering(const struct tree *t)
{
	size_t children = 0;

	for (size_t i = 0; i < t->count; i++) {
		const struct tree_entry *d = t->by_ino[i];

		ck_assert_uint_eq(d->ino, i);
		for (size_t c = 0; c < d->nchildren; c++) {
			ck_assert_uint_eq(d->children[c]->ino,
					  d->children[0]->ino + c);
			if (c)
				ck_assert_int_lt(strcmp(d->children[c - 1]->name,
							d->children[c]->name), 0);
		}
		children += d->nchildren;
	}
	return children;
}

static void add_file(struct tree *t, const char *path, uint64_t size)
{
	struct source_entry e = mk(path, AXFS_FT_REG, 0644);

	e.data.size = size;
	e.data.host_path = strdup(path);
	add_ok(t, e);
}

START_TEST(test_sorted_bytewise_and_bfs)
{
	struct tree t;
	struct axfs_error err;
	/* Bytes >= 0x80 sort after ASCII (unsigned), '-' before '.', and a
	 * prefix before its extensions, as strcmp() orders them. */
	static const char *names[] = {
		"z", "\xc3\xa9t\xc3\xa9", "a.b", "a-b", "a", "ab", "B", "a0",
	};
	static const char *sorted[] = {
		"B", "a", "a-b", "a.b", "a0", "ab", "z", "\xc3\xa9t\xc3\xa9",
	};

	setup(&t);
	for (size_t i = 0; i < 8; i++) {
		char p[64];

		snprintf(p, sizeof(p), "d/%s", names[i]);
		add_file(&t, p, 1);
	}
	add_file(&t, "c/x", 1);
	add_ok(&t, mk("b", AXFS_FT_DIR, 0700));
	add_file(&t, "b/y", 1);
	ck_assert_int_eq(tree_finalize(&t, &err), 0);
	ck_assert_uint_eq(t.count, 1 + 3 + 8 + 1 + 1);
	ck_assert_ptr_eq(t.by_ino[0], t.root);
	ck_assert_uint_eq(t.root->ino, 0);
	/* Root's children b, c, d are inodes 1..3. */
	ck_assert_str_eq(t.by_ino[1]->name, "b");
	ck_assert_str_eq(t.by_ino[2]->name, "c");
	ck_assert_str_eq(t.by_ino[3]->name, "d");
	/* Breadth-first: b's child, c's child, then d's eight. */
	ck_assert_str_eq(t.by_ino[4]->name, "y");
	ck_assert_str_eq(t.by_ino[5]->name, "x");
	for (int i = 0; i < 8; i++) {
		ck_assert_str_eq(t.by_ino[6 + i]->name, sorted[i]);
		ck_assert_ptr_eq(t.by_ino[6 + i]->parent, t.by_ino[3]);
	}
	/* Every directory's children are consecutive, in strcmp order. */
	ck_assert_uint_eq(check_numbering(&t), t.count - 1);
	tree_free(&t);
}
END_TEST

START_TEST(test_implicit_parents)
{
	struct tree t;
	struct source_entry e = mk("usr/lib/x/libz.so", AXFS_FT_REG, 0644);
	struct tree_entry *d;

	setup(&t);
	e.uid = 5;
	e.gid = 6;
	add_ok(&t, e);
	d = tree_lookup(&t, "/usr/lib");
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->type, AXFS_FT_DIR);
	ck_assert_uint_eq(d->mode, S_IFDIR | 0755);
	ck_assert_uint_eq(d->uid, 0);
	ck_assert_uint_eq(d->gid, 0);
	/* Three implied directories, each reported at INFO, none a warning. */
	ck_assert_int_eq(cap.info, 3);
	ck_assert_int_eq(cap.warn, 0);
	ck_assert_ptr_nonnull(strstr(cap.last_info, "'/usr/lib/x'"));
	/* The real entry arriving later sets the metadata, silently. */
	e = mk("usr/lib", AXFS_FT_DIR, 0750);
	e.uid = 7;
	add_ok(&t, e);
	ck_assert_uint_eq(d->mode, S_IFDIR | 0750);
	ck_assert_uint_eq(d->uid, 7);
	ck_assert_uint_eq(d->nchildren, 1);
	ck_assert_int_eq(cap.warn, 0);
	tree_free(&t);
}
END_TEST

START_TEST(test_lookup_forms)
{
	struct tree t;
	struct tree_entry *e;
	char buf[64];

	setup(&t);
	add_file(&t, "/a//b/./c", 3);
	e = tree_lookup(&t, "a/b/c");
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_eq(tree_lookup(&t, "/a/b/c"), e);
	ck_assert_ptr_eq(tree_lookup(&t, "./a/b/c"), e);
	ck_assert_ptr_eq(tree_lookup(&t, "/"), t.root);
	ck_assert_ptr_eq(tree_lookup(&t, ""), t.root);
	ck_assert_ptr_null(tree_lookup(&t, "a/b/c/d"));
	ck_assert_ptr_null(tree_lookup(&t, "a/x"));
	ck_assert_uint_eq(tree_entry_path(e, buf, sizeof(buf)), 6);
	ck_assert_str_eq(buf, "/a/b/c");
	ck_assert_uint_eq(tree_entry_path(t.root, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "/");
	/* Truncated, still terminated, full length returned. */
	ck_assert_uint_eq(tree_entry_path(e, buf, 4), 6);
	ck_assert_str_eq(buf, "/a/");
	tree_free(&t);
}
END_TEST

START_TEST(test_duplicates_last_wins)
{
	struct tree t;
	struct source_entry e;
	struct tree_entry *x;

	setup(&t);
	add_file(&t, "etc/passwd", 10);
	add_file(&t, "etc/passwd", 20);
	ck_assert_int_eq(cap.warn, 1);
	ck_assert_ptr_nonnull(strstr(cap.last_warn, "'/etc/passwd'"));
	ck_assert_ptr_nonnull(strstr(cap.last_warn, "last one wins"));
	x = tree_lookup(&t, "etc/passwd");
	ck_assert_uint_eq(x->size, 20);
	ck_assert_uint_eq(t.count, 3);
	/* A file then a symlink at the same path. */
	e = mk("etc/passwd", AXFS_FT_LNK, 0777);
	e.link_target = "shadow";
	add_ok(&t, e);
	ck_assert_int_eq(x->type, AXFS_FT_LNK);
	ck_assert_uint_eq(x->size, 6);
	ck_assert_ptr_null(x->data.host_path);
	/* A directory with entries cannot silently become a file. */
	e = mk("etc", AXFS_FT_REG, 0644);
	add_fails(&t, e, AXFS_ERR_INVALID, "'/etc'", NULL);
	/* A path below a file is refused, naming both. */
	e = mk("etc/passwd/x", AXFS_FT_REG, 0644);
	add_fails(&t, e, AXFS_ERR_INVALID, "/etc/passwd", "symlink");
	tree_free(&t);
}
END_TEST

START_TEST(test_empty_root_refused)
{
	struct tree t;
	struct axfs_error err;

	setup(&t);
	add_ok(&t, mk("", AXFS_FT_DIR, 0755));
	ck_assert_int_eq(tree_finalize(&t, &err), AXFS_ERR_INVALID);
	ck_assert_str_eq(err.msg, "the root directory is empty: the AXFS "
			 "driver refuses to mount an image with no entries");
	tree_free(&t);
}
END_TEST

START_TEST(test_root_metadata_and_type)
{
	struct tree t;
	struct source_entry e = mk("/", AXFS_FT_DIR, 0711);

	setup(&t);
	e.uid = 3;
	add_ok(&t, e);
	ck_assert_uint_eq(t.root->mode, S_IFDIR | 0711);
	ck_assert_uint_eq(t.root->uid, 3);
	ck_assert_str_eq(t.root->name, "");
	e = mk(".", AXFS_FT_REG, 0644);
	add_fails(&t, e, AXFS_ERR_INVALID, "root", NULL);
	e = mk("a/../b", AXFS_FT_REG, 0644);
	add_fails(&t, e, AXFS_ERR_INVALID, "..", NULL);
	tree_free(&t);
}
END_TEST

START_TEST(test_device_limits)
{
	struct tree t;
	struct axfs_error err;

	setup(&t);
	add_dev(&t, "dev/ok", AXFS_FT_CHR, 255, 255);
	ck_assert_int_eq(tree_finalize(&t, &err), 0);
	add_dev(&t, "dev/nvme0n1", AXFS_FT_BLK, 259, 0);
	finalize_fails(&t, AXFS_ERR_LIMIT, "'/dev/nvme0n1'", "259:0");

	setup(&t);
	add_dev(&t, "tty", AXFS_FT_CHR, 4, 256);
	finalize_fails(&t, AXFS_ERR_LIMIT, "'/tty'", NULL);
}
END_TEST

START_TEST(test_name_and_symlink_limits)
{
	struct tree t;
	struct axfs_error err;
	char name[300], target[5000];
	struct source_entry e;

	setup(&t);
	memset(name, 'n', 255);
	name[255] = '\0';
	add_file(&t, name, 1);			/* 255 bytes: fine */
	memset(name, 'n', 256);
	name[256] = '\0';
	e = mk(name, AXFS_FT_REG, 0644);
	add_fails(&t, e, AXFS_ERR_LIMIT, "256 bytes", NULL);

	memset(target, 't', 4095);
	target[4095] = '\0';
	e = mk("long", AXFS_FT_LNK, 0777);
	e.link_target = target;
	add_ok(&t, e);
	ck_assert_int_eq(tree_finalize(&t, &err), 0);
	target[4095] = 't';
	target[4096] = '\0';
	e.path = "toolong";
	add_ok(&t, e);
	finalize_fails(&t, AXFS_ERR_LIMIT, "'/toolong'", NULL);
}
END_TEST

START_TEST(test_hard_links)
{
	struct tree t;
	struct axfs_error err;
	struct source_entry e;
	struct tree_entry *a, *b, *c;

	setup(&t);
	add_file(&t, "a", 100);
	e = mk("b", AXFS_FT_REG, 0644);
	e.hardlink_to = "a";
	add_ok(&t, e);
	e.path = "sub/c";
	e.hardlink_to = "/b";		/* a link to a link: same group */
	add_ok(&t, e);
	a = tree_lookup(&t, "a");
	b = tree_lookup(&t, "b");
	c = tree_lookup(&t, "sub/c");
	ck_assert_ptr_eq(a->link_master, a);
	ck_assert_ptr_eq(b->link_master, a);
	ck_assert_ptr_eq(c->link_master, a);
	ck_assert_uint_eq(b->size, 100);
	ck_assert_ptr_null(b->data.host_path);
	ck_assert_str_eq(a->data.host_path, "a");

	/* Replacing the master hands the data to the next link. */
	add_file(&t, "a", 7);
	ck_assert_uint_eq(a->size, 7);
	ck_assert_ptr_eq(a->link_master, a);
	ck_assert_ptr_eq(b->link_master, b);
	ck_assert_ptr_eq(c->link_master, b);
	ck_assert_str_eq(b->data.host_path, "a");
	ck_assert_uint_eq(b->size, 100);

	/* Links to missing entries and to directories are refused. */
	e = mk("x", AXFS_FT_REG, 0644);
	e.hardlink_to = "nothere";
	add_fails(&t, e, AXFS_ERR_INVALID, "nothere", NULL);
	e.hardlink_to = "sub";
	add_fails(&t, e, AXFS_ERR_INVALID, "directories", NULL);
	ck_assert_int_eq(tree_finalize(&t, &err), 0);
	tree_free(&t);
}
END_TEST

START_TEST(test_many_entries)
{
	/* 100,000 entries in 100 directories added in scrambled order come
	 * out sorted and numbered with consecutive children. */
	struct tree t;
	struct axfs_error err;
	const uint64_t n = 100000;

	setup(&t);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t k = (i * 7919) % n;	/* 7919 is prime: a permutation */
		char p[64];
		struct source_entry e;

		snprintf(p, sizeof(p), "d%02llu/f%llu",
			 (unsigned long long)(k % 100), (unsigned long long)k);
		e = mk(p, AXFS_FT_FIFO, 0644);
		ck_assert_int_eq(tree_add(&t, &e, NULL, &err), 0);
	}
	ck_assert_int_eq(tree_finalize(&t, &err), 0);
	ck_assert_uint_eq(t.count, n + 100 + 1);
	ck_assert_uint_eq(check_numbering(&t), t.count - 1);
	ck_assert_ptr_nonnull(tree_lookup(&t, "/d42/f4242"));
	tree_free(&t);
}
END_TEST

Suite *suite_tree(void)
{
	Suite *s = suite_create("tree");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_sorted_bytewise_and_bfs);
	tcase_add_test(tc, test_implicit_parents);
	tcase_add_test(tc, test_lookup_forms);
	tcase_add_test(tc, test_duplicates_last_wins);
	tcase_add_test(tc, test_empty_root_refused);
	tcase_add_test(tc, test_root_metadata_and_type);
	tcase_add_test(tc, test_device_limits);
	tcase_add_test(tc, test_name_and_symlink_limits);
	tcase_add_test(tc, test_hard_links);
	tcase_add_test(tc, test_many_entries);
	suite_add_tcase(s, tc);
	return s;
}
