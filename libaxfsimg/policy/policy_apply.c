// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * policy_apply.c - applies a parsed policy (policy.c) to the tree, before
 * it is finalised, in this order:
 *   1. owners (all-root, uid, gid) on the entries from the source;
 *   2. devices: added, or replacing a source entry (with a warning that
 *      names the policy's file:line:column);
 *   3. xip.files: want_xip = 1, reason "whole file", on regular files;
 *   4. the files rules, in order, so that later rules win;
 *   5. xip.exclude: a regular file it matches never keeps want_xip = 1
 *      (want_xip = 0, reason "excluded").  build.c also hands xip.exclude
 *      to the planner, which applies it to profile pages and --xip globs;
 * then warns, naming file:line:column, about every glob that matched
 * nothing.  Only the public fields of tree.h are used.
 */
#include "policy_apply.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "glob_match.h"
#include "tree.h"

struct apply {
	struct axfs_policy *p;
	size_t *files_hits, *excl_hits;	/* per xip.files / xip.exclude glob */
	char *path;			/* "/a/b" of the entry being visited */
	size_t cap;
	/* compiled once, duplicates dropped: xip.files, xip.exclude and
	 * the rules' globs; a rule's glob is tested once an entry however
	 * many rules share it (rule_hit holds the result for the entry
	 * numbered rule_seen) */
	struct glob_set files, excl, rules;
	const char **rule_pat;
	int8_t *rule_hit;
	uint64_t *rule_seen, entry;
};

static int path_reserve(struct apply *a, size_t need, struct axfs_error *err)
{
	char *np;
	size_t cap = a->cap ? a->cap : 256;

	if (need <= a->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (!(np = realloc(a->path, cap)))
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	a->path = np;
	a->cap = cap;
	return 0;
}

static void apply_owners(const struct axfs_policy *p, struct tree_entry *e)
{
	if (p->all_root == 1) {
		e->uid = 0;
		e->gid = 0;
	}
	if (p->has_uid)
		e->uid = p->uid;
	if (p->has_gid)
		e->gid = p->gid;
	for (size_t i = 0; i < e->nchildren; i++)
		apply_owners(p, e->children[i]);
}

/* Whether the glob of rule i matches the entry at path: tested at most
 * once an entry for the rules that share it. */
static int rule_matches(struct apply *a, size_t i, const char *path)
{
	size_t k = a->rules.which[i];

	if (a->rule_seen[k] != a->entry) {
		a->rule_seen[k] = a->entry;
		a->rule_hit[k] = (int8_t)glob_test(&a->rules.g[k], path);
	}
	return a->rule_hit[k];
}

/* xip.files, then the rules in order, then xip.exclude, on one entry. */
static void apply_entry(struct apply *a, struct tree_entry *e)
{
	const struct axfs_policy *p = a->p;
	const char *path = a->path;
	int is_reg = e->type == AXFS_FT_REG;
	/* page decisions belong to the entry that holds the data */
	struct tree_entry *data = e->link_master ? e->link_master : e;

	a->entry++;		/* rule_seen starts at 0: none tested */
	for (size_t k = 0; is_reg && k < a->files.n; k++) {
		if (glob_test(&a->files.g[k], path)) {
			a->files_hits[a->files.orig[k]]++;
			data->want_xip = 1;
			data->reason_override = TREE_WHY_WHOLE_FILE;
		}
	}
	for (size_t i = 0; i < p->n_rules; i++) {
		struct axfs_policy_rule *r = &p->rules[i];

		if (r->type != AXFS_FT_NONE && r->type != e->type)
			continue;
		if (!rule_matches(a, i, path))
			continue;
		r->matched++;
		if (r->has_mode)
			e->mode = (e->mode & ~(uint32_t)07777) | r->mode;
		if (r->has_uid)
			e->uid = r->uid;
		if (r->has_gid)
			e->gid = r->gid;
		if (!is_reg)
			continue;
		if (r->xip >= 0) {
			data->want_xip = (int8_t)r->xip;
			data->reason_override = TREE_WHY_POLICY_RULE;
		}
		if (r->compress >= 0) {
			data->want_compress = (int8_t)r->compress;
			/* reason_override explains want_xip when it is set */
			if (data->want_xip < 0)
				data->reason_override = TREE_WHY_POLICY_RULE;
		}
	}
	for (size_t k = 0; k < a->excl.n; k++) {
		if (!glob_test(&a->excl.g[k], path))
			continue;
		a->excl_hits[a->excl.orig[k]]++;
		if (is_reg && data->want_xip == 1) {
			data->want_xip = 0;
			data->reason_override = TREE_WHY_EXCLUDED;
		}
	}
}

static int apply_walk(struct apply *a, struct tree_entry *e, size_t len,
		      struct axfs_error *err)
{
	int rc;

	apply_entry(a, e);
	for (size_t i = 0; i < e->nchildren; i++) {
		struct tree_entry *c = e->children[i];
		size_t base = len == 1 ? 0 : len;	/* the root is "/" */
		size_t clen = base + 1 + c->name_len;

		if ((rc = path_reserve(a, clen + 1, err)) < 0)
			return rc;
		a->path[base] = '/';
		memcpy(a->path + base + 1, c->name, c->name_len);
		a->path[clen] = '\0';
		if ((rc = apply_walk(a, c, clen, err)) < 0)
			return rc;
		a->path[len] = '\0';
		if (len == 1)
			a->path[0] = '/';
	}
	return 0;
}

static const char *pname(const struct axfs_policy *p)
{
	return p->file ? p->file : "policy";
}

/* Forwards the tree's messages except its "appears more than once"
 * warning: a device entry replacing a source entry is reported by us,
 * with the policy's file:line. */
static void quiet_replace_fn(void *ctx, enum axfs_log_level level,
			     const char *msg)
{
	const struct axfs_logger *lg = ctx;

	if (level != AXFS_LOG_WARN && lg && lg->fn)
		lg->fn(lg->ctx, level, msg);
}

static int add_devices(struct axfs_policy *p, struct tree *t,
		       const struct axfs_logger *log, struct axfs_error *err)
{
	const struct axfs_logger quiet = { quiet_replace_fn, (void *)log };
	const struct axfs_logger *saved = t->log;
	int rc = 0;

	t->log = &quiet;
	for (size_t i = 0; i < p->n_devices && rc == 0; i++) {
		const struct axfs_policy_device *d = &p->devices[i];
		struct tree_entry *old = tree_lookup(t, d->path);
		struct source_entry se;
		struct axfs_error e2;

		if (old)
			axfs_log(log, AXFS_LOG_WARN,
				 "%s:%zu:%zu: devices[%zu]: '%s' replaces the %s from the source",
				 pname(p), d->line, d->column, i, d->path,
				 axfs_ftype_name(old->type));
		memset(&se, 0, sizeof(se));
		se.path = d->path + 1;
		se.type = d->type;
		se.mode = d->mode;
		se.uid = d->uid;
		se.gid = d->gid;
		se.rdev_major = d->major;
		se.rdev_minor = d->minor;
		axfs_error_clear(&e2);
		rc = tree_add(t, &se, NULL, &e2);
		if (rc < 0)
			axfs_error_set(err, rc, "%s:%zu:%zu: devices[%zu]: %s",
				       pname(p), d->line, d->column, i, e2.msg);
	}
	t->log = saved;
	return rc;
}

/* Compiles the policy's globs once.  The parser has checked them (a
 * struct filled by hand may hold anything: a glob past GLOB_MAX_LEN is
 * refused here too). */
static int compile_globs(struct apply *a, struct axfs_error *err)
{
	const struct axfs_policy *p = a->p;
	size_t bad = SIZE_MAX;
	const char *what = "xip.files";

	if (glob_set_init(&a->files, (const char *const *)p->xip_files,
			  p->n_xip_files, &bad) < 0)
		goto fail;
	what = "xip.exclude";
	if (glob_set_init(&a->excl, (const char *const *)p->xip_exclude,
			  p->n_xip_exclude, &bad) < 0)
		goto fail;
	what = "files";
	for (size_t i = 0; i < p->n_rules; i++)
		a->rule_pat[i] = p->rules[i].match;
	if (glob_set_init(&a->rules, a->rule_pat, p->n_rules, &bad) < 0)
		goto fail;
	a->rule_hit = calloc(a->rules.n + 1, sizeof(*a->rule_hit));
	a->rule_seen = calloc(a->rules.n + 1, sizeof(*a->rule_seen));
	if (!a->rule_hit || !a->rule_seen) {
		bad = SIZE_MAX;
		goto fail;
	}
	return 0;
fail:
	if (bad == SIZE_MAX)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	return axfs_error_set(err, AXFS_ERR_LIMIT, "%s: %s[%zu]: a glob longer "
			      "than %d bytes", pname(p), what, bad, GLOB_MAX_LEN);
}

int policy_apply(struct axfs_policy *p, struct tree *t,
		 const struct axfs_logger *log, struct axfs_error *err)
{
	struct apply a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.p = p;

	if (t->by_ino)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "%s: a policy must be applied before the tree is finalised",
				      pname(p));
	/* owners first: they describe the source; devices bring their own */
	apply_owners(p, t->root);
	if ((rc = add_devices(p, t, log, err)) < 0)
		return rc;

	for (size_t i = 0; i < p->n_rules; i++)
		p->rules[i].matched = 0;
	a.files_hits = calloc(p->n_xip_files + 1, sizeof(size_t));
	a.excl_hits = calloc(p->n_xip_exclude + 1, sizeof(size_t));
	a.rule_pat = calloc(p->n_rules + 1, sizeof(*a.rule_pat));
	if (!a.files_hits || !a.excl_hits || !a.rule_pat ||
	    path_reserve(&a, 256, err) < 0) {
		rc = axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
		goto out;
	}
	if ((rc = compile_globs(&a, err)) < 0)
		goto out;
	strcpy(a.path, "/");
	if ((rc = apply_walk(&a, t->root, 1, err)) < 0)
		goto out;

	for (size_t i = 0; i < p->n_xip_files; i++)
		if (!a.files_hits[i] && a.files.first[i] == i)
			axfs_log(log, AXFS_LOG_WARN,
				 "%s:%zu:%zu: xip.files[%zu]: '%s' matches no regular file",
				 pname(p), p->xip_files_pos[i].line,
				 p->xip_files_pos[i].column, i, p->xip_files[i]);
	for (size_t i = 0; i < p->n_xip_exclude; i++)
		if (!a.excl_hits[i] && a.excl.first[i] == i)
			axfs_log(log, AXFS_LOG_WARN,
				 "%s:%zu:%zu: xip.exclude[%zu]: '%s' matches nothing",
				 pname(p), p->xip_exclude_pos[i].line,
				 p->xip_exclude_pos[i].column, i, p->xip_exclude[i]);
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct axfs_policy_rule *r = &p->rules[i];

		if (r->matched)
			continue;
		if (r->type != AXFS_FT_NONE)
			axfs_log(log, AXFS_LOG_WARN,
				 "%s:%zu:%zu: files[%zu]: '%s' matches no %s",
				 pname(p), r->line, r->column, i, r->match,
				 axfs_ftype_name(r->type));
		else
			axfs_log(log, AXFS_LOG_WARN,
				 "%s:%zu:%zu: files[%zu]: '%s' matches nothing",
				 pname(p), r->line, r->column, i, r->match);
	}
	rc = 0;
out:
	free(a.files_hits);
	free(a.excl_hits);
	free(a.path);
	glob_set_free(&a.files);
	glob_set_free(&a.excl);
	glob_set_free(&a.rules);
	free(a.rule_pat);
	free(a.rule_hit);
	free(a.rule_seen);
	return rc;
}
