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

#include <stdlib.h>
#include <string.h>

#include "glob_match.h"
#include "tree.h"

struct apply {
	struct axfs_policy *p;
	size_t *files_hits, *excl_hits;	/* per xip.files / xip.exclude glob */
	char *path;			/* "/a/b" of the entry being visited */
	size_t cap;
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

/* xip.files, then the rules in order, then xip.exclude, on one entry. */
static void apply_entry(struct apply *a, struct tree_entry *e)
{
	const struct axfs_policy *p = a->p;
	const char *path = a->path;
	int is_reg = e->type == AXFS_FT_REG;
	/* page decisions belong to the entry that holds the data */
	struct tree_entry *data = e->link_master ? e->link_master : e;

	for (size_t i = 0; i < p->n_xip_files; i++) {
		if (is_reg && glob_match(p->xip_files[i], path)) {
			a->files_hits[i]++;
			data->want_xip = 1;
			data->reason_override = TREE_WHY_WHOLE_FILE;
		}
	}
	for (size_t i = 0; i < p->n_rules; i++) {
		struct axfs_policy_rule *r = &p->rules[i];

		if (r->type != AXFS_FT_NONE && r->type != e->type)
			continue;
		if (!glob_match(r->match, path))
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
	for (size_t i = 0; i < p->n_xip_exclude; i++) {
		if (!glob_match(p->xip_exclude[i], path))
			continue;
		a->excl_hits[i]++;
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

int policy_apply(struct axfs_policy *p, struct tree *t,
		 const struct axfs_logger *log, struct axfs_error *err)
{
	struct apply a = { p, NULL, NULL, NULL, 0 };
	int rc;

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
	if (!a.files_hits || !a.excl_hits || path_reserve(&a, 256, err) < 0) {
		rc = axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
		goto out;
	}
	strcpy(a.path, "/");
	if ((rc = apply_walk(&a, t->root, 1, err)) < 0)
		goto out;

	for (size_t i = 0; i < p->n_xip_files; i++)
		if (!a.files_hits[i])
			axfs_log(log, AXFS_LOG_WARN,
				 "%s:%zu:%zu: xip.files[%zu]: '%s' matches no regular file",
				 pname(p), p->xip_files_pos[i].line,
				 p->xip_files_pos[i].column, i, p->xip_files[i]);
	for (size_t i = 0; i < p->n_xip_exclude; i++)
		if (!a.excl_hits[i])
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
	return rc;
}
