// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * planner.c - which pages of which regular files are stored XIP, and why.
 *
 * Sources of XIP, strongest first:
 *   1. exclusions: entry->want_xip == 0 (policy rule or xip.exclude applied
 *      by the policy) and the xip_exclude globs.  An excluded file has no
 *      XIP page at all; its profiled pages get TREE_WHY_EXCLUDED.
 *   2. whole files: entry->want_xip == 1 (policy xip.files or a rule; the
 *      reason is entry->reason_override) and --xip globs
 *      (TREE_WHY_XIP_GLOB).  Every page of the file is XIP.
 *   3. profile pages (TREE_WHY_PROFILE): pages with count >= min_count,
 *      hottest first (count descending, then path bytewise, then offset)
 *      while the budget lasts; the others get TREE_WHY_MIN_COUNT or
 *      TREE_WHY_BUDGET.  The profile count is kept in every page it names.
 *
 * An ordered profile also ranks pages by their first use: the planner
 * keeps, in each page it names, its rank among the image's ranked pages
 * (1..N, ties by inode then page), and the packer stores the compressed
 * ones in that order ahead of the rest.  A ranked page with count 0 was
 * read but not counted: it is not an XIP candidate (the 2008 view of the
 * same run does not list it), so the XIP choice is the same with or
 * without the order.
 *
 * The budget is the most bytes of XIP pages in the image, so whole-file
 * XIP counts against it: whole files are an explicit request and are
 * always honoured, they are charged first, and profile pages get what is
 * left.  When whole files alone exceed the budget, no profile page is
 * chosen and a warning says so.  (The other reading - a budget for
 * profile pages only - would let `xip.budget: 8MiB` produce an image with
 * far more XIP than 8 MiB, which is what the budget exists to prevent.)
 *
 * Hard links: the data, and so the plan, belongs to the group's master
 * (link_master).  A glob or profile line naming any path of the group
 * applies to the shared data; every member gets its own copy of the
 * master's page array so that reports can show it under each name.
 *
 * The 2008 driver's read() quirk (axfs(5) rule 16): axfs_file_read()
 * chooses xip_file_read() or do_sync_read() from the node type of the
 * FIRST page of each chunk of up to 4096 bytes, so an unaligned read()
 * that starts in an XIP page and runs into a compressed or byte-aligned
 * page returns XIP-region bytes (get_xip_mem() does not check the node
 * type) for the part in the second page.  The only layout that avoids it
 * is "XIP pages form a suffix of the file".  We nevertheless plan exactly
 * the pages the profile lists (the profile optimiser's contract, checked
 * page by page): widening the set would silently spend budget and flash
 * on pages nobody asked for.  mmap (the access the profile records) and
 * page-aligned reads are not affected; our own kernel module (kernel/)
 * does not have the bug.  Whole-file XIP never triggers it.
 *
 * For users of the 2008 driver the opt-in xip_suffix (mkfs --xip-suffix,
 * policy xip.suffix) makes every page after a file's first XIP page XIP
 * too (TREE_WHY_SUFFIX), once the pages above are chosen.  Those pages
 * are added on top of the budget: the budget chose the pages that are
 * worth XIP, the suffix is the price of reading them safely.  Under an
 * mmap limit, plan_trim_suffix restores the suffix after a trim by
 * removing XIP pages, never adding them.
 */
#include "planner.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "axfs_format.h"
#include "glob_match.h"

/* How many skipped profile entries the one warning names by path. */
#define PLAN_WARN_EXAMPLES 3
/* How many of them -v lists one per line; -vv lists them all. */
#define PLAN_INFO_LINES 20

enum {
	F_GLOB = 1 << 0,	/* an --xip glob matched a path of the group */
	F_WANT = 1 << 1,	/* want_xip == 1 */
	F_NEVER = 1 << 2,	/* want_xip == 0 */
	F_EXCL = 1 << 3,	/* an xip_exclude glob matched */
};

enum bad_kind {
	BAD_MISSING,
	BAD_NOT_REGULAR,
	BAD_PAST_EOF,
	BAD_MISALIGNED,
	BAD_KINDS
};

struct cand {
	struct tree_entry *m;	/* the data's owner */
	uint64_t page;
	uint64_t count;
	uint64_t first;			/* rank in its profile; 0: none */
	const char *path;		/* as the profile named it */
};

struct bad {
	size_t idx;			/* into profile->v */
	enum bad_kind kind;
};

static struct tree_entry *master_of(struct tree_entry *e)
{
	return e->link_master ? e->link_master : e;
}

static int is_master(const struct tree_entry *e)
{
	return e->type == AXFS_FT_REG &&
	       (!e->link_master || e->link_master == e);
}

static uint64_t npages_of(const struct tree_entry *e)
{
	return (e->size + AXFS_PAGE_SIZE - 1) / AXFS_PAGE_SIZE;
}

/* The entry's full image path in a malloc'd string ("/a/b"). */
static char *path_dup(const struct tree_entry *e)
{
	size_t n = tree_entry_path(e, NULL, 0);
	char *s = malloc(n + 1);

	if (s)
		tree_entry_path(e, s, n + 1);
	return s;
}

static int ensure_pages(struct tree_entry *m)
{
	uint64_t n = npages_of(m);

	if (m->pages || !n)
		return 0;
	if (n > SIZE_MAX / sizeof(*m->pages))
		return -1;
	m->pages = calloc((size_t)n, sizeof(*m->pages));
	return m->pages ? 0 : -1;
}

int plan_sync_link_members(struct tree *t)
{
	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *e = t->by_ino[i];
		struct tree_entry *m;
		uint64_t n;

		if (e->type != AXFS_FT_REG || is_master(e))
			continue;
		m = e->link_master;
		free(e->pages);
		e->pages = NULL;
		n = npages_of(m);
		if (!m->pages || !n)
			continue;
		e->pages = malloc((size_t)n * sizeof(*e->pages));
		if (!e->pages)
			return -1;
		memcpy(e->pages, m->pages, (size_t)n * sizeof(*e->pages));
	}
	return 0;
}

static int any_glob(const struct glob_set *s, const char *path)
{
	for (size_t k = 0; k < s->n; k++)
		if (glob_test(&s->g[k], path))
			return 1;
	return 0;
}

/* The --xip globs or xip.exclude, each compiled once, duplicates dropped;
 * <0 with err set (a glob past GLOB_MAX_LEN, or too many of them). */
static int compile_globs(struct glob_set *s, const char *const *g, size_t n,
			 const char *what, struct axfs_error *err)
{
	size_t bad = SIZE_MAX;

	if (n > GLOB_MAX_COUNT)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "more than %d %s "
				      "globs", GLOB_MAX_COUNT, what);
	if (glob_set_init(s, g, n, &bad) == 0)
		return 0;
	if (bad == SIZE_MAX)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	return axfs_error_set(err, AXFS_ERR_LIMIT, "%s glob of %zu bytes: no "
			      "image path is longer than %d", what,
			      strlen(g[bad]), GLOB_MAX_LEN);
}

static int cmp_cand_loc(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c;

	if (x->m->ino != y->m->ino)
		return x->m->ino < y->m->ino ? -1 : 1;
	if (x->page != y->page)
		return x->page < y->page ? -1 : 1;
	c = strcmp(x->path, y->path);
	return c;
}

/* Hottest first: count descending, then path bytewise, then offset. */
static int cmp_cand_hot(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	c = strcmp(x->path, y->path);
	if (c)
		return c;
	if (x->page != y->page)
		return x->page < y->page ? -1 : 1;
	return 0;
}

static const char *bad_text(enum bad_kind k)
{
	switch (k) {
	case BAD_MISSING: return "not in the image";
	case BAD_NOT_REGULAR: return "not a regular file";
	case BAD_PAST_EOF: return "offset past the end of the file";
	case BAD_MISALIGNED: return "offset not a multiple of 4096";
	default: return "?";
	}
}

/*
 * Skipped profile entries: each one at INFO, then one message for all of
 * them.  A profile none of whose entries names a page of the tree (another
 * prefix, a stale profile) would ship an untuned image unnoticed: an error,
 * as is any skip with strict_profile.  Otherwise a warning -q does not hide
 * (AXFS_LOG_ALERT).  Returns 0 or the error.
 */
static int report_bad(const struct plan_opts *o, const struct bad *bad,
		      size_t nbad, size_t nmatched,
		      const uint64_t kinds[BAD_KINDS], struct axfs_error *err)
{
	const struct axfs_profile *p = o->profile;
	char ex[1024];
	size_t len = 0;
	size_t shown = nbad < PLAN_WARN_EXAMPLES ? nbad : PLAN_WARN_EXAMPLES;

	if (!nbad)
		return 0;
	for (size_t i = 0; i < nbad; i++) {
		const struct axfs_profile_entry *pe = &p->v[bad[i].idx];

		axfs_log(o->log, i < PLAN_INFO_LINES ? AXFS_LOG_INFO :
			 AXFS_LOG_DEBUG,
			 "%s:%zu: profile page '%s' at %llu skipped: %s",
			 pe->file ? pe->file : "profile", pe->line, pe->path,
			 (unsigned long long)pe->offset,
			 bad_text(bad[i].kind));
	}
	if (nbad > PLAN_INFO_LINES)
		axfs_log(o->log, AXFS_LOG_INFO, "... and %zu more skipped "
			 "profile pages (-vv lists them)",
			 nbad - PLAN_INFO_LINES);
	ex[0] = '\0';
	for (size_t i = 0; i < shown && len < sizeof(ex); i++) {
		const struct axfs_profile_entry *pe = &p->v[bad[i].idx];
		int n = snprintf(ex + len, sizeof(ex) - len, "%s'%s' at %llu (%s)",
				 i ? ", " : "", pe->path,
				 (unsigned long long)pe->offset,
				 bad_text(bad[i].kind));

		if (n < 0)
			break;
		len += (size_t)n;
	}
#define BAD_FMT "%zu profile entr%s skipped (%llu not in the image, %llu " \
		"not regular files, %llu past the end of the file, %llu not " \
		"page-aligned): %s%s"
#define BAD_ARGS nbad, nbad == 1 ? "y" : "ies", \
		 (unsigned long long)kinds[BAD_MISSING], \
		 (unsigned long long)kinds[BAD_NOT_REGULAR], \
		 (unsigned long long)kinds[BAD_PAST_EOF], \
		 (unsigned long long)kinds[BAD_MISALIGNED], ex, \
		 nbad > shown ? ", ... (-v lists them)" : ""
	if (!nmatched)
		return axfs_error_set(err, AXFS_ERR_INVALID,
			"'%s': no profile entry names a page of the image, so "
			"the profile would make no page XIP (a profile of "
			"another tree or prefix?): " BAD_FMT,
			p->v[bad[0].idx].file ? p->v[bad[0].idx].file :
			"profile", BAD_ARGS);
	if (o->strict_profile)
		return axfs_error_set(err, AXFS_ERR_INVALID,
			BAD_FMT "; --strict-profile (xip.strict-profile) makes "
			"that an error", BAD_ARGS);
	axfs_log(o->log, AXFS_LOG_ALERT, BAD_FMT, BAD_ARGS);
#undef BAD_FMT
#undef BAD_ARGS
	return 0;
}

static void reset_plan(struct tree *t)
{
	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *e = t->by_ino[i];

		if (e->type != AXFS_FT_REG)
			continue;
		free(e->pages);
		e->pages = NULL;
	}
}

/* Flags from the entries' want_xip and from the globs, per master ino. */
static int collect_flags(struct tree *t, const struct plan_opts *o,
			 uint8_t *flag, struct axfs_error *err)
{
	int globs = o->n_xip_globs || o->n_xip_exclude, rc = 0;
	struct glob_set want, excl;

	memset(&excl, 0, sizeof(excl));
	if ((rc = compile_globs(&want, o->xip_globs, o->n_xip_globs,
				"--xip", err)) < 0)
		return rc;
	if ((rc = compile_globs(&excl, o->xip_exclude, o->n_xip_exclude,
				"xip.exclude", err)) < 0)
		goto out;
	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *e = t->by_ino[i];
		struct tree_entry *m;

		if (e->type != AXFS_FT_REG)
			continue;
		m = master_of(e);
		if (e->want_xip == 1)
			flag[m->ino] |= F_WANT;
		else if (e->want_xip == 0)
			flag[m->ino] |= F_NEVER;
		if (globs) {
			char *path = path_dup(e);

			if (!path) {
				rc = axfs_error_set(err, AXFS_ERR_NOMEM,
						    "out of memory planning "
						    "%zu entries", t->count);
				goto out;
			}
			if (any_glob(&want, path))
				flag[m->ino] |= F_GLOB;
			if (any_glob(&excl, path))
				flag[m->ino] |= F_EXCL;
			free(path);
		}
	}
out:
	glob_set_free(&want);
	glob_set_free(&excl);
	return rc;
}

static uint8_t whole_reason(const struct tree_entry *m, uint8_t f)
{
	if (f & F_GLOB)
		return TREE_WHY_XIP_GLOB;
	if (m->reason_override == TREE_WHY_POLICY_RULE ||
	    m->reason_override == TREE_WHY_WHOLE_FILE)
		return m->reason_override;
	return TREE_WHY_WHOLE_FILE;
}

/* Whole-file XIP; returns the number of pages, or UINT64_MAX on ENOMEM. */
static uint64_t plan_whole_files(struct tree *t,
				 const struct plan_opts *o,
				 const uint8_t *flag)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *m = t->by_ino[i];
		uint8_t f = flag[i];
		uint64_t n = npages_of(m);

		if (!is_master(m) || !(f & (F_GLOB | F_WANT)) || !n)
			continue;
		if (ensure_pages(m) < 0)
			return UINT64_MAX;
		if (f & (F_NEVER | F_EXCL)) {
			char *path = path_dup(m);

			axfs_log(o->log, AXFS_LOG_INFO,
				 "'%s': whole-file XIP asked for but excluded",
				 path ? path : "?");
			free(path);
			for (uint64_t p = 0; p < n; p++)
				m->pages[p].reason = TREE_WHY_EXCLUDED;
			continue;
		}
		for (uint64_t p = 0; p < n; p++) {
			m->pages[p].xip = 1;
			m->pages[p].reason = whole_reason(m, f);
		}
		pages += n;
	}
	return pages;
}

/* Profile entries -> candidate pages (merged), bad entries counted. */
static int read_profile(struct tree *t, const struct plan_opts *o,
			struct plan_stats *st, struct cand **out_c,
			size_t *out_n, struct bad **out_bad, size_t *out_nbad,
			uint64_t kinds[BAD_KINDS])
{
	const struct axfs_profile *p = o->profile;
	struct cand *c = NULL;
	struct bad *bad = NULL;
	size_t n = 0, nbad = 0;

	*out_c = NULL;
	*out_n = 0;
	*out_bad = NULL;
	*out_nbad = 0;
	if (!p || !p->n)
		return 0;
	c = malloc(p->n * sizeof(*c));
	bad = malloc(p->n * sizeof(*bad));
	if (!c || !bad) {
		free(c);
		free(bad);
		return -1;
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct axfs_profile_entry *pe = &p->v[i];
		struct tree_entry *e = tree_lookup(t, pe->path);
		enum bad_kind k;

		if (!e)
			k = BAD_MISSING;
		else if (e->type != AXFS_FT_REG)
			k = BAD_NOT_REGULAR;
		else if (pe->offset % AXFS_PAGE_SIZE)
			k = BAD_MISALIGNED;
		else if (pe->offset >= e->size)
			k = BAD_PAST_EOF;
		else {
			c[n].m = master_of(e);
			c[n].page = pe->offset / AXFS_PAGE_SIZE;
			c[n].count = pe->count;
			c[n].first = pe->first;
			c[n].path = pe->path;
			n++;
			continue;
		}
		bad[nbad].idx = i;
		bad[nbad].kind = k;
		nbad++;
		kinds[k]++;
	}
	st->profile_missing = kinds[BAD_MISSING];
	st->profile_not_regular = kinds[BAD_NOT_REGULAR];
	st->profile_past_eof = kinds[BAD_PAST_EOF];
	st->profile_misaligned = kinds[BAD_MISALIGNED];

	/* Merge lines naming the same page (duplicates in a profile that is
	 * not canonical, or two names of one hard-linked file): counts add
	 * up (saturating), the bytewise-smallest name is kept for ties. */
	if (n) {
		size_t w = 0;

		qsort(c, n, sizeof(*c), cmp_cand_loc);
		for (size_t i = 1; i < n; i++) {
			if (c[i].m == c[w].m && c[i].page == c[w].page) {
				c[w].count = c[w].count > UINT64_MAX - c[i].count ?
					     UINT64_MAX : c[w].count + c[i].count;
				if (c[i].first && (!c[w].first ||
						   c[i].first < c[w].first))
					c[w].first = c[i].first;
				continue;
			}
			c[++w] = c[i];
		}
		n = w + 1;
	}
	*out_c = c;
	*out_n = n;
	*out_bad = bad;
	*out_nbad = nbad;
	return 0;
}

/*
 * xip_suffix: the pages that making page `p` of master `m` XIP costs, since
 * every page after a file's first XIP page is XIP too: `p` and the pages
 * up to the file's first XIP page after it (or its end).  The XIP pages of
 * every file form a suffix all along, so that budget checks the total.
 */
static uint64_t suffix_cost(const struct tree_entry *m, uint64_t p)
{
	uint64_t n = npages_of(m), q = p;

	while (q < n && !m->pages[q].xip)
		q++;
	return q - p;
}

/* Whole-file XIP alone over the budget: an error naming the biggest. */
static int whole_over_budget(const struct tree *t,
			     const struct plan_opts *o, uint64_t whole,
			     struct axfs_error *err)
{
	const struct tree_entry *big[PLAN_WARN_EXAMPLES] = { NULL };
	char ex[1024];
	size_t len = 0;

	for (size_t i = 0; i < t->count; i++) {
		const struct tree_entry *m = t->by_ino[i];
		size_t k = PLAN_WARN_EXAMPLES;

		if (!is_master(m) || !m->pages || !npages_of(m) ||
		    !m->pages[0].xip)
			continue;
		while (k > 0 && (!big[k - 1] || big[k - 1]->size < m->size))
			k--;
		if (k >= PLAN_WARN_EXAMPLES)
			continue;
		memmove(&big[k + 1], &big[k],
			(PLAN_WARN_EXAMPLES - 1 - k) * sizeof(*big));
		big[k] = m;
	}
	ex[0] = '\0';
	for (size_t k = 0; k < PLAN_WARN_EXAMPLES && big[k]; k++) {
		char *path = path_dup(big[k]);
		int n = snprintf(ex + len, sizeof(ex) - len, "%s'%s' (%llu "
				 "pages)", k ? ", " : "", path ? path : "?",
				 (unsigned long long)npages_of(big[k]));

		free(path);
		if (n < 0 || (size_t)n >= sizeof(ex) - len)
			break;
		len += (size_t)n;
	}
	return axfs_error_set(err, AXFS_ERR_LIMIT,
		"whole-file XIP (--xip, xip.files, xip rules) takes %llu bytes, "
		"more than the XIP budget of %llu bytes (--xip-budget, "
		"xip.budget): it does not fit; the biggest: %s; raise the "
		"budget or make fewer files XIP",
		(unsigned long long)whole * AXFS_PAGE_SIZE,
		(unsigned long long)o->budget, ex);
}

/* First use first; ties (ranks of two names of one file, or of two
 * profiles) by inode, then page: the candidates' order. */
static int cmp_cand_rank(const void *a, const void *b)
{
	const struct cand *const *x = a, *const *y = b;

	if ((*x)->first != (*y)->first)
		return (*x)->first < (*y)->first ? -1 : 1;
	return *x < *y ? -1 : *x > *y;
}

/*
 * Gives every ranked candidate's page its rank among the image's ranked
 * pages, 1..N (profile ranks may have gaps: pages of other images, lines
 * that matched nothing).  -1 when out of memory.
 */
static int assign_ranks(struct cand *c, size_t nc, struct plan_stats *st,
			struct axfs_error *err)
{
	const struct cand **r;
	size_t n = 0;

	for (size_t i = 0; i < nc; i++)
		n += c[i].first != 0;
	if (!n)
		return 0;
	if (n > UINT32_MAX)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "the profile ranks "
				      "%zu pages, more than %u", n,
				      UINT32_MAX);
	r = malloc(n * sizeof(*r));
	if (!r)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	n = 0;
	for (size_t i = 0; i < nc; i++)
		if (c[i].first)
			r[n++] = &c[i];
	qsort(r, n, sizeof(*r), cmp_cand_rank);
	for (size_t k = 0; k < n; k++)
		r[k]->m->pages[r[k]->page].rank = (uint32_t)(k + 1);
	st->ranked_pages = n;
	free(r);
	return 0;
}

int plan_tree(struct tree *t, const struct plan_opts *o,
	      struct plan_stats *st, struct axfs_error *err)
{
	struct plan_stats dummy;
	struct cand *c = NULL, *sel = NULL;
	struct bad *bad = NULL;
	size_t nc = 0, nsel = 0, nbad = 0;
	uint64_t kinds[BAD_KINDS] = { 0 };
	uint64_t whole, room = UINT64_MAX;
	uint8_t *flag = NULL;
	int rc = AXFS_ERR_NOMEM;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	if (!t || !o || !t->by_ino)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "the tree must be finalised before "
				      "planning");
	reset_plan(t);
	flag = calloc(t->count ? t->count : 1, 1);
	if (!flag)
		goto nomem;
	if ((rc = collect_flags(t, o, flag, err)) < 0) {
		reset_plan(t);
		goto out;
	}
	whole = plan_whole_files(t, o, flag);
	if (whole == UINT64_MAX)
		goto nomem;
	if (read_profile(t, o, st, &c, &nc, &bad, &nbad, kinds) < 0)
		goto nomem;
	if ((rc = report_bad(o, bad, nbad, nc, kinds, err)) < 0) {
		reset_plan(t);
		goto out;
	}

	sel = malloc((nc ? nc : 1) * sizeof(*sel));
	if (!sel)
		goto nomem;
	for (size_t i = 0; i < nc; i++) {
		struct tree_entry *m = c[i].m;
		uint8_t f = flag[m->ino];
		struct tree_page_plan *pg;

		if (ensure_pages(m) < 0)
			goto nomem;
		st->profile_pages++;
		pg = &m->pages[c[i].page];
		pg->count = c[i].count;
		if (pg->xip)
			continue;		/* whole-file XIP already */
		if (c[i].first && !c[i].count)
			continue;		/* read, never counted */
		if (f & (F_NEVER | F_EXCL)) {
			pg->reason = TREE_WHY_EXCLUDED;
			st->excluded++;
		} else if (c[i].count < o->min_count) {
			pg->reason = TREE_WHY_MIN_COUNT;
			st->below_min_count++;
		} else {
			sel[nsel++] = c[i];
		}
	}
	if ((rc = assign_ranks(c, nc, st, err)) < 0) {
		reset_plan(t);
		goto out;
	}

	if (o->has_budget) {
		uint64_t cap = o->budget / AXFS_PAGE_SIZE;

		if (whole > cap) {
			rc = whole_over_budget(t, o, whole, err);
			reset_plan(t);
			goto out;
		}
		room = cap - whole;
	}
	qsort(sel, nsel, sizeof(*sel), cmp_cand_hot);
	for (size_t i = 0; i < nsel; i++) {
		struct tree_entry *m = sel[i].m;
		uint64_t p = sel[i].page, cost = 1;
		struct tree_page_plan *pg = &m->pages[p];

		if (pg->xip) {
			/* In the suffix of a hotter page: its own reason now. */
			pg->reason = TREE_WHY_PROFILE;
			st->suffix_pages--;
			continue;
		}
		if (o->xip_suffix)
			cost = suffix_cost(m, p);
		if (cost > room) {
			pg->reason = TREE_WHY_BUDGET;
			st->budget_dropped++;
			continue;
		}
		room -= cost;
		pg->xip = 1;
		pg->reason = TREE_WHY_PROFILE;
		st->xip_pages++;
		for (uint64_t q = p + 1; q < p + cost; q++) {
			m->pages[q].xip = 1;
			m->pages[q].reason = TREE_WHY_SUFFIX;
			st->suffix_pages++;
			st->xip_pages++;
		}
	}
	st->xip_pages += whole;
	if (plan_sync_link_members(t) < 0)
		goto nomem;
	if (o->profile || whole)
		axfs_log(o->log, AXFS_LOG_INFO,
			 "xip plan: %llu pages (%llu of whole files, %llu "
			 "from the profile); %llu left out by the budget, "
			 "%llu excluded, %llu below the minimum count",
			 (unsigned long long)st->xip_pages,
			 (unsigned long long)whole,
			 (unsigned long long)(st->xip_pages - whole -
					      st->suffix_pages),
			 (unsigned long long)st->budget_dropped,
			 (unsigned long long)st->excluded,
			 (unsigned long long)st->below_min_count);
	if (st->suffix_pages)
		axfs_log(o->log, AXFS_LOG_INFO,
			 "xip suffix: %llu more pages made XIP so that each "
			 "file's XIP pages run to its end",
			 (unsigned long long)st->suffix_pages);
	rc = 0;
	goto out;
nomem:
	rc = axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory planning %zu "
			    "entries", t->count);
	reset_plan(t);
out:
	free(flag);
	free(c);
	free(sel);
	free(bad);
	return rc;
}

/* ---- --mmap-limit: keep the hottest XIP pages ------------------------- */

struct xpage {
	struct tree_entry *m;
	uint64_t page;
	uint64_t count;
	int whole;		/* whole-file XIP: kept before profile pages */
	int suffix;		/* TREE_WHY_SUFFIX */
	const char *path;	/* the file's image path */
};

static int cmp_keep(const void *a, const void *b)
{
	const struct xpage *x = a, *y = b;
	int c;

	if (x->whole != y->whole)
		return x->whole > y->whole ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->path != y->path) {
		c = strcmp(x->path, y->path);
		if (c)
			return c;
	}
	/* Suffix pages of one file go front first: dropping a later one
	 * would make plan_trim_suffix drop every XIP page before it. */
	if (x->page != y->page && x->suffix && y->suffix)
		return x->page > y->page ? -1 : 1;
	if (x->page != y->page)
		return x->page < y->page ? -1 : 1;
	return 0;
}

/*
 * Keeps the max_pages XIP pages that the planner would choose first
 * (whole files, then profile pages hottest first) and stores the rest
 * compressed (TREE_WHY_MMAP_LIMIT).  Suffix pages go with the profile
 * pages (their count, if the profile named them, else 0).  Whole-file
 * pages go last because the mmap limit is a hard limit of the device: if
 * it is smaller than the whole files asked for, they cannot all be XIP.
 * On ENOMEM nothing is dropped (returns 0), which the caller sees as
 * "cannot trim".
 */
uint64_t plan_trim(struct tree *t, uint64_t max_pages)
{
	struct xpage *v = NULL;
	char **paths = NULL;
	size_t nv = 0, np = 0, cap = 0;
	uint64_t dropped = 0;

	if (!t || !t->by_ino)
		return 0;
	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *m = t->by_ino[i];
		uint64_t n = npages_of(m);
		int has = 0;

		if (!is_master(m) || !m->pages)
			continue;
		for (uint64_t p = 0; p < n; p++) {
			if (!m->pages[p].xip)
				continue;
			if (nv == cap) {
				size_t nc = cap ? 2 * cap : 256;
				struct xpage *nvv = realloc(v, nc * sizeof(*v));

				if (!nvv)
					goto out;
				v = nvv;
				cap = nc;
			}
			if (!has) {
				char **npp = realloc(paths,
						     (np + 1) * sizeof(*paths));

				if (!npp)
					goto out;
				paths = npp;
				paths[np] = path_dup(m);
				if (!paths[np])
					goto out;
				np++;
				has = 1;
			}
			v[nv].m = m;
			v[nv].page = p;
			v[nv].count = m->pages[p].count;
			v[nv].suffix = m->pages[p].reason == TREE_WHY_SUFFIX;
			v[nv].whole = m->pages[p].reason != TREE_WHY_PROFILE &&
				      !v[nv].suffix;
			v[nv].path = paths[np - 1];
			nv++;
		}
	}
	if (nv <= max_pages)
		goto out;
	qsort(v, nv, sizeof(*v), cmp_keep);
	for (size_t i = (size_t)max_pages; i < nv; i++) {
		struct tree_page_plan *pg = &v[i].m->pages[v[i].page];

		pg->xip = 0;
		pg->reason = TREE_WHY_MMAP_LIMIT;
		dropped++;
	}
	plan_sync_link_members(t);
out:
	for (size_t i = 0; i < np; i++)
		free(paths[i]);
	free(paths);
	free(v);
	return dropped;
}

uint64_t plan_trim_suffix(struct tree *t)
{
	uint64_t dropped = 0;

	if (!t || !t->by_ino)
		return 0;
	for (size_t i = 0; i < t->count; i++) {
		struct tree_entry *m = t->by_ino[i];
		uint64_t n = npages_of(m), last;

		if (!is_master(m) || !m->pages)
			continue;
		/* the last non-XIP page; none: the whole file is XIP */
		for (last = n; last > 0 && m->pages[last - 1].xip; last--)
			;
		for (uint64_t p = 0; p + 1 < last; p++) {
			if (!m->pages[p].xip)
				continue;
			m->pages[p].xip = 0;
			m->pages[p].reason = TREE_WHY_MMAP_LIMIT;
			dropped++;
		}
	}
	if (dropped)
		plan_sync_link_members(t);
	return dropped;
}
