// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The planner: which pages are XIP and why.  Budget selection with ties,
 * whole files against the budget, exclusions, min-count, profile entries
 * that cannot be XIP (one warning, each at INFO), hard links, exactly the
 * listed page set, determinism and plan_trim; xip_suffix and
 * plan_trim_suffix.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "planner.h"
#include "tree.h"
#include "axfs_format.h"
#include "unit.h"

static void add(struct tree *t, const char *path, enum axfs_ftype type,
		uint64_t size, const char *link_to)
{
	struct source_entry e = unit_entry(
		path, type, type == AXFS_FT_DIR ? 0755 : 0644, size,
		type == AXFS_FT_LNK ? "target" : NULL, link_to);

	unit_tree_add(t, &e);
}

static struct tree_entry *get(struct tree *t, const char *path)
{
	struct tree_entry *e = tree_lookup(t, path);

	ck_assert_msg(e != NULL, "no %s", path);
	return e;
}

static void prof(struct axfs_profile *p, const char *path, uint64_t page,
		 uint64_t count)
{
	struct axfs_error err;

	ck_assert_msg(axfs_profile_add(p, path, page * AXFS_PAGE_SIZE, count,
				       "test.csv", p->n + 1, &err) == 0,
		      "%s", err.msg);
}

/* Pages of a file as a string: 'X' XIP, '.' not. */
static const char *xmap(struct tree *t, const char *path)
{
	static char buf[64];
	struct tree_entry *e = get(t, path);
	uint64_t n = (e->size + 4095) / 4096;

	for (uint64_t i = 0; i < n && i < sizeof(buf) - 1; i++)
		buf[i] = e->pages && e->pages[i].xip ? 'X' : '.';
	buf[n < sizeof(buf) - 1 ? n : sizeof(buf) - 1] = '\0';
	return buf;
}

static uint8_t why(struct tree *t, const char *path, uint64_t page)
{
	struct tree_entry *e = get(t, path);

	return e->pages ? e->pages[page].reason : TREE_WHY_DEFAULT;
}

/* What every test plans: the tree, a profile and options to fill, what the
 * planner logged and counted. */
static struct tree t;
static struct unit_log lc;
static struct axfs_logger lg;
static struct axfs_profile p;
static struct plan_opts o;
static struct plan_stats st;
static struct axfs_error err;

/*
 * Before each test: /a 5 pages, /b 5 pages, /c 2 pages, /d/e 3 pages,
 * /z 1 page, /link -> target, /dir/, /empty (0 bytes), /h: hard link to
 * /a; an empty profile; options with only that profile and the logger.
 */
static void setup_tree5(void)
{
	lg = unit_logger(&lc);
	ck_assert_int_eq(tree_init(&t, NULL, &err), 0);
	add(&t, "a", AXFS_FT_REG, 5 * 4096, NULL);
	add(&t, "b", AXFS_FT_REG, 4 * 4096 + 7, NULL);
	add(&t, "c", AXFS_FT_REG, 2 * 4096, NULL);
	add(&t, "d", AXFS_FT_DIR, 0, NULL);
	add(&t, "d/e", AXFS_FT_REG, 3 * 4096, NULL);
	add(&t, "z", AXFS_FT_REG, 100, NULL);
	add(&t, "link", AXFS_FT_LNK, 6, NULL);
	add(&t, "dir", AXFS_FT_DIR, 0, NULL);
	add(&t, "empty", AXFS_FT_REG, 0, NULL);
	add(&t, "h", AXFS_FT_REG, 0, "a");
	ck_assert_msg(tree_finalize(&t, &err) == 0, "%s", err.msg);
	axfs_profile_init(&p, NULL);
	memset(&o, 0, sizeof(o));
	o.profile = &p;
	o.log = &lg;
}

static void teardown_tree5(void)
{
	axfs_profile_free(&p);
	tree_free(&t);
}

START_TEST(test_profile_exact_pages)
{
	/* XIP pages in the middle of files, followed by non-XIP pages: the
	 * set must be exactly what the profile lists (not widened). */
	prof(&p, "/a", 1, 5);
	prof(&p, "/a", 3, 2);
	prof(&p, "/b", 4, 1);		/* the partial last page */
	prof(&p, "./d/e", 0, 9);
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_str_eq(xmap(&t, "/a"), ".X.X.");
	ck_assert_str_eq(xmap(&t, "/b"), "....X");
	ck_assert_str_eq(xmap(&t, "/c"), "..");
	ck_assert_str_eq(xmap(&t, "/d/e"), "X..");
	ck_assert_uint_eq(st.xip_pages, 4);
	ck_assert_uint_eq(st.profile_pages, 4);
	ck_assert_int_eq(why(&t, "/a", 1), TREE_WHY_PROFILE);
	ck_assert_int_eq(why(&t, "/a", 0), TREE_WHY_DEFAULT);
	ck_assert_uint_eq(get(&t, "/a")->pages[1].count, 5);
	ck_assert_uint_eq(get(&t, "/a")->pages[3].count, 2);
	/* the hard link carries a copy of its master's plan */
	ck_assert_str_eq(xmap(&t, "/h"), ".X.X.");
	ck_assert_ptr_ne(get(&t, "/h")->pages, get(&t, "/a")->pages);
	ck_assert_int_eq(lc.warn, 0);
}
END_TEST

START_TEST(test_budget_ties)
{
	/* counts: 7 7 7 7 3 3 1; order after count: path bytewise, offset */
	prof(&p, "/c", 1, 7);
	prof(&p, "/b", 2, 7);
	prof(&p, "/b", 0, 7);
	prof(&p, "/d/e", 0, 7);
	prof(&p, "/a", 4, 3);
	prof(&p, "/a", 2, 3);
	prof(&p, "/z", 0, 1);
	o.has_budget = 1;
	o.budget = 5 * 4096 + 4095;	/* 5 pages; a partial page buys none */
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	/* chosen: /b@0 /b@2 /c@1 /d/e@0 (7s by path, offset), /a@2 (3) */
	ck_assert_str_eq(xmap(&t, "/b"), "X.X..");
	ck_assert_str_eq(xmap(&t, "/c"), ".X");
	ck_assert_str_eq(xmap(&t, "/d/e"), "X..");
	ck_assert_str_eq(xmap(&t, "/a"), "..X..");
	ck_assert_str_eq(xmap(&t, "/z"), ".");
	ck_assert_int_eq(why(&t, "/a", 4), TREE_WHY_BUDGET);
	ck_assert_uint_eq(get(&t, "/a")->pages[4].count, 3);
	ck_assert_int_eq(why(&t, "/z", 0), TREE_WHY_BUDGET);
	ck_assert_uint_eq(st.xip_pages, 5);
	ck_assert_uint_eq(st.budget_dropped, 2);

	/* Zero budget: nothing. */
	o.budget = 4095;
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_uint_eq(st.xip_pages, 0);
	ck_assert_uint_eq(st.budget_dropped, 7);
	ck_assert_str_eq(xmap(&t, "/b"), ".....");
}
END_TEST

START_TEST(test_whole_files_and_budget)
{
	const char *globs[] = { "/d/*" };

	get(&t, "/c")->want_xip = 1;
	get(&t, "/c")->reason_override = TREE_WHY_WHOLE_FILE;
	prof(&p, "/a", 0, 10);
	prof(&p, "/a", 1, 9);
	prof(&p, "/a", 2, 8);
	prof(&p, "/c", 0, 100);		/* already XIP as a whole file */
	o.xip_globs = globs;
	o.n_xip_globs = 1;
	o.has_budget = 1;
	o.budget = 7 * 4096;	/* 2 (/c) + 3 (/d/e) whole + 2 profile */
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_str_eq(xmap(&t, "/c"), "XX");
	ck_assert_int_eq(why(&t, "/c", 1), TREE_WHY_WHOLE_FILE);
	ck_assert_uint_eq(get(&t, "/c")->pages[0].count, 100);
	ck_assert_str_eq(xmap(&t, "/d/e"), "XXX");
	ck_assert_int_eq(why(&t, "/d/e", 0), TREE_WHY_XIP_GLOB);
	ck_assert_str_eq(xmap(&t, "/a"), "XX...");
	ck_assert_int_eq(why(&t, "/a", 2), TREE_WHY_BUDGET);
	ck_assert_uint_eq(st.xip_pages, 7);

	/* Whole files alone over the budget: the budget is a limit, so an
	 * error naming the biggest of them (/d/e, 3 pages, first). */
	o.budget = 4 * 4096;
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), AXFS_ERR_LIMIT);
	ck_assert_ptr_nonnull(strstr(err.msg, "takes 20480 bytes, more than "
					      "the XIP budget of 16384"));
	ck_assert_ptr_nonnull(strstr(err.msg, "'/d/e' (3 pages), '/c' (2 pages)"));
	/* Exactly the budget fits. */
	o.budget = 5 * 4096;
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_uint_eq(st.xip_pages, 5);
	ck_assert_str_eq(xmap(&t, "/a"), ".....");
}
END_TEST

START_TEST(test_exclusions_and_min_count)
{
	const char *globs[] = { "/b", "/c" };
	const char *excl[] = { "/d/**", "/c" };

	get(&t, "/a")->want_xip = 0;		/* a rule: never XIP */
	prof(&p, "/a", 0, 50);
	prof(&p, "/d/e", 1, 50);
	prof(&p, "/z", 0, 2);
	prof(&p, "/b", 0, 1);		/* /b is whole-file XIP anyway */
	o.xip_globs = globs;
	o.n_xip_globs = 2;
	o.xip_exclude = excl;
	o.n_xip_exclude = 2;
	o.min_count = 3;
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_str_eq(xmap(&t, "/a"), ".....");
	ck_assert_int_eq(why(&t, "/a", 0), TREE_WHY_EXCLUDED);
	ck_assert_str_eq(xmap(&t, "/d/e"), "...");
	ck_assert_int_eq(why(&t, "/d/e", 1), TREE_WHY_EXCLUDED);
	ck_assert_str_eq(xmap(&t, "/z"), ".");
	ck_assert_int_eq(why(&t, "/z", 0), TREE_WHY_MIN_COUNT);
	ck_assert_uint_eq(get(&t, "/z")->pages[0].count, 2);
	/* --xip /c loses against xip.exclude /c */
	ck_assert_str_eq(xmap(&t, "/c"), "..");
	ck_assert_int_eq(why(&t, "/c", 0), TREE_WHY_EXCLUDED);
	/* whole-file XIP ignores min-count */
	ck_assert_str_eq(xmap(&t, "/b"), "XXXXX");
	ck_assert_uint_eq(st.excluded, 2);
	ck_assert_uint_eq(st.below_min_count, 1);
	ck_assert_uint_eq(st.xip_pages, 5);
}
END_TEST

START_TEST(test_bad_profile_entries)
{
	prof(&p, "/missing", 0, 5);
	prof(&p, "/d/missing,with,commas", 1, 5);
	prof(&p, "/d", 0, 5);		/* a directory */
	prof(&p, "/link", 0, 5);	/* a symlink */
	prof(&p, "/z", 1, 5);		/* past EOF (100 bytes) */
	prof(&p, "/empty", 0, 5);	/* past EOF (0 bytes) */
	prof(&p, "/a", 0, 5);
	p.v[p.n - 1].offset = 100;	/* misaligned (bypassing the parser) */
	prof(&p, "/a", 4, 5);		/* fine */
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_uint_eq(st.profile_missing, 2);
	ck_assert_uint_eq(st.profile_not_regular, 2);
	ck_assert_uint_eq(st.profile_past_eof, 2);
	ck_assert_uint_eq(st.profile_misaligned, 1);
	ck_assert_uint_eq(st.profile_pages, 1);
	ck_assert_uint_eq(st.xip_pages, 1);
	ck_assert_str_eq(xmap(&t, "/a"), "....X");
	/* one warning naming them, each at INFO */
	ck_assert_int_eq(lc.warn, 1);
	ck_assert_ptr_nonnull(strstr(lc.last_warn, "7 profile entries"));
	ck_assert_ptr_nonnull(strstr(lc.last_warn, "/missing"));
	ck_assert_int_ge(lc.info, 7);
}
END_TEST

START_TEST(test_hard_link_names_and_duplicates)
{
	/* /h and /a are one file: their counts add up for the same page */
	prof(&p, "/h", 2, 4);
	prof(&p, "/a", 2, 4);
	prof(&p, "/c", 0, 7);
	prof(&p, "/c", 0, 1);		/* a duplicate line (not canonical) */
	o.has_budget = 1;
	o.budget = 4096;
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	/* 4+4 = 8 beats 7+1 = 8 on path: "/a" < "/c" */
	ck_assert_str_eq(xmap(&t, "/a"), "..X..");
	ck_assert_str_eq(xmap(&t, "/h"), "..X..");
	ck_assert_uint_eq(get(&t, "/a")->pages[2].count, 8);
	ck_assert_str_eq(xmap(&t, "/c"), "..");
	ck_assert_uint_eq(get(&t, "/c")->pages[0].count, 8);
	ck_assert_uint_eq(st.profile_pages, 2);
}
END_TEST

START_TEST(test_deterministic_and_trim)
{
	char first[4][64];
	const char *paths[4] = { "/a", "/b", "/c", "/d/e" };

	get(&t, "/c")->want_xip = 1;
	prof(&p, "/a", 0, 5);
	prof(&p, "/a", 1, 6);
	prof(&p, "/b", 0, 6);
	prof(&p, "/d/e", 2, 1);
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	for (int i = 0; i < 4; i++)
		strcpy(first[i], xmap(&t, paths[i]));
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_str_eq(xmap(&t, paths[i]), first[i]);
	ck_assert_uint_eq(st.xip_pages, 6);

	/* trim to 4: drop /d/e@2 (1) and /a@0 (5): the coldest profile
	 * pages go first, the whole file /c stays */
	ck_assert_uint_eq(plan_trim(&t, 4), 2);
	ck_assert_str_eq(xmap(&t, "/a"), ".X...");
	ck_assert_str_eq(xmap(&t, "/b"), "X....");
	ck_assert_str_eq(xmap(&t, "/c"), "XX");
	ck_assert_str_eq(xmap(&t, "/d/e"), "...");
	ck_assert_int_eq(why(&t, "/a", 0), TREE_WHY_MMAP_LIMIT);
	ck_assert_str_eq(xmap(&t, "/h"), ".X...");
	/* tie at 6: "/a" < "/b", so /b@0 goes before /a@1 */
	ck_assert_uint_eq(plan_trim(&t, 3), 1);
	ck_assert_str_eq(xmap(&t, "/a"), ".X...");
	ck_assert_str_eq(xmap(&t, "/b"), ".....");
	/* below the whole file: its pages go too */
	ck_assert_uint_eq(plan_trim(&t, 1), 2);
	ck_assert_str_eq(xmap(&t, "/c"), "X.");
	ck_assert_uint_eq(plan_trim(&t, 1), 0);
}
END_TEST

START_TEST(test_xip_suffix)
{
	get(&t, "/c")->want_xip = 1;
	prof(&p, "/a", 1, 5);
	prof(&p, "/a", 3, 9);
	prof(&p, "/b", 2, 1);		/* left out by the budget */
	prof(&p, "/d/e", 2, 4);		/* the last page: nothing to add */
	o.has_budget = 1;
	o.budget = 7 * AXFS_PAGE_SIZE;	/* /c (2) + 3 profile + 2 suffix */
	o.xip_suffix = 1;
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_str_eq(xmap(&t, "/a"), ".XXXX");
	ck_assert_str_eq(xmap(&t, "/h"), ".XXXX");	/* hard link to /a */
	ck_assert_str_eq(xmap(&t, "/b"), ".....");
	ck_assert_str_eq(xmap(&t, "/c"), "XX");
	ck_assert_str_eq(xmap(&t, "/d/e"), "..X");
	ck_assert_int_eq(why(&t, "/a", 1), TREE_WHY_PROFILE);
	ck_assert_int_eq(why(&t, "/a", 2), TREE_WHY_SUFFIX);
	ck_assert_int_eq(why(&t, "/a", 3), TREE_WHY_PROFILE);
	ck_assert_int_eq(why(&t, "/a", 4), TREE_WHY_SUFFIX);
	ck_assert_int_eq(why(&t, "/b", 2), TREE_WHY_BUDGET);
	ck_assert_str_eq(tree_page_reason_name(TREE_WHY_SUFFIX), "suffix");
	/* within the budget: 5 chosen, 2 added */
	ck_assert_uint_eq(st.suffix_pages, 2);
	ck_assert_uint_eq(st.xip_pages, 7);

	/* the trim drops suffix pages like profile pages, never /c; the
	 * shrink then takes every XIP page before a non-XIP one */
	/* count 0 ties: /a@2 goes before /a@4 (suffix pages front first) */
	ck_assert_uint_eq(plan_trim(&t, 6), 1);
	ck_assert_str_eq(xmap(&t, "/a"), ".X.XX");
	ck_assert_uint_eq(plan_trim_suffix(&t), 1);
	ck_assert_str_eq(xmap(&t, "/a"), "...XX");
	ck_assert_str_eq(xmap(&t, "/h"), "...XX");
	ck_assert_int_eq(why(&t, "/a", 1), TREE_WHY_MMAP_LIMIT);
	ck_assert_str_eq(xmap(&t, "/c"), "XX");
	ck_assert_str_eq(xmap(&t, "/d/e"), "..X");
	ck_assert_uint_eq(plan_trim_suffix(&t), 0);

	/* The suffix counts against the budget: with 5 pages, /a@3 (2 pages
	 * with its suffix) and /d/e@2 fit; /a@1 would cost 2 more. */
	o.budget = 5 * AXFS_PAGE_SIZE;
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_str_eq(xmap(&t, "/a"), "...XX");
	ck_assert_str_eq(xmap(&t, "/d/e"), "..X");
	ck_assert_int_eq(why(&t, "/a", 1), TREE_WHY_BUDGET);
	ck_assert_int_eq(why(&t, "/a", 4), TREE_WHY_SUFFIX);
	ck_assert_uint_eq(st.xip_pages, 5);
	ck_assert_uint_eq(st.suffix_pages, 1);

	/* without the option: exactly the chosen pages */
	o.xip_suffix = 0;
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_str_eq(xmap(&t, "/a"), ".X.X.");
	ck_assert_uint_eq(st.suffix_pages, 0);
	ck_assert_uint_eq(st.xip_pages, 5);
}
END_TEST

START_TEST(test_no_profile_no_arrays)
{
	o.profile = NULL;
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	/* nothing asked: every page default, no per-page arrays */
	for (size_t i = 0; i < t.count; i++)
		ck_assert_ptr_null(t.by_ino[i]->pages);
	ck_assert_uint_eq(st.xip_pages, 0);
	ck_assert_int_eq(lc.warn, 0);
}
END_TEST

static void ranked(struct axfs_profile *pr, const char *path, uint64_t page,
		   uint64_t count, uint64_t first)
{
	prof(pr, path, page, count);
	pr->v[pr->n - 1].first = first;
}

static uint32_t rank_of(struct tree *tr, const char *path, uint64_t page)
{
	struct tree_entry *e = get(tr, path);

	return e->pages ? e->pages[page].rank : 0;
}

START_TEST(test_ordered_ranks_and_xip)
{
	/* ranks with gaps, a name through the hard link, a line that
	 * matches nothing: the image's ranked pages get 1..N in rank order;
	 * count 0 is not an XIP candidate, a count is, as without order */
	ranked(&p, "/b", 1, 0, 40);
	ranked(&p, "/a", 2, 0, 7);
	ranked(&p, "/h", 2, 0, 90);	/* /a page 2 again: keeps 7 */
	ranked(&p, "/c", 0, 5, 12);
	ranked(&p, "/missing", 0, 0, 1);
	ranked(&p, "/d/e", 2, 0, 12);	/* ties /c: inode order */
	prof(&p, "/z", 0, 3);		/* counted, no rank */
	ck_assert_int_eq(axfs_profile_canonicalize(&p, &err), 0);
	ck_assert_int_eq(plan_tree(&t, &o, &st, &err), 0);
	ck_assert_uint_eq(st.ranked_pages, 4);
	ck_assert_uint_eq(rank_of(&t, "/a", 2), 1);
	ck_assert_uint_eq(get(&t, "/c")->ino < get(&t, "/d/e")->ino, 1);
	ck_assert_uint_eq(rank_of(&t, "/c", 0), 2);
	ck_assert_uint_eq(rank_of(&t, "/d/e", 2), 3);
	ck_assert_uint_eq(rank_of(&t, "/b", 1), 4);
	ck_assert_uint_eq(rank_of(&t, "/a", 0), 0);
	ck_assert_uint_eq(rank_of(&t, "/z", 0), 0);
	/* the hard link's copy of the plan carries the rank */
	ck_assert_uint_eq(rank_of(&t, "/h", 2), 1);
	/* XIP: exactly the counted pages */
	ck_assert_str_eq(xmap(&t, "/a"), ".....");
	ck_assert_str_eq(xmap(&t, "/b"), ".....");
	ck_assert_str_eq(xmap(&t, "/c"), "X.");
	ck_assert_str_eq(xmap(&t, "/z"), "X");
	ck_assert_uint_eq(st.xip_pages, 2);
	ck_assert_int_eq(why(&t, "/b", 1), TREE_WHY_DEFAULT);
}
END_TEST

Suite *suite_planner(void)
{
	Suite *s = suite_create("planner");
	TCase *tc = tcase_create("plan");

	tcase_add_checked_fixture(tc, setup_tree5, teardown_tree5);
	tcase_add_test(tc, test_profile_exact_pages);
	tcase_add_test(tc, test_budget_ties);
	tcase_add_test(tc, test_whole_files_and_budget);
	tcase_add_test(tc, test_exclusions_and_min_count);
	tcase_add_test(tc, test_bad_profile_entries);
	tcase_add_test(tc, test_hard_link_names_and_duplicates);
	tcase_add_test(tc, test_deterministic_and_trim);
	tcase_add_test(tc, test_xip_suffix);
	tcase_add_test(tc, test_no_profile_no_arrays);
	tcase_add_test(tc, test_ordered_ranks_and_xip);
	suite_add_tcase(s, tc);
	return s;
}
