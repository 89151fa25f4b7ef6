// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * policy_apply.c - applies a parsed policy (policy.c) to the tree, before
 * it is finalised, in this order:
 *   1. owners (all-root, uid, gid, the id maps and offsets) on the
 *      entries from the source;
 *   2. devices, entries and device-table lines, in order: added, or
 *      replacing a source entry (with a warning that names the policy's
 *      file:line:column), or (table d, f, F, r) setting the mode and
 *      owners of the entry there;
 *   3. xip.files: want_xip = 1, reason "whole file", on regular files;
 *   4. the files rules, in order, so that later rules win;
 *   5. xip.exclude: a regular file it matches never keeps want_xip = 1
 *      (want_xip = 0, reason "excluded").  build.c also hands xip.exclude
 *      to the planner, which applies it to profile pages and --xip globs;
 * then warns, naming file:line:column, about every glob that matched
 * nothing.  Only the public fields of tree.h are used.
 */
#include "policy_apply.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "glob_match.h"
#include "pathbuf.h"
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
	if (pathbuf_reserve(&a->path, &a->cap, need) < 0)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	return 0;
}

/* An id through a map (sorted by from) or else moved by the offset;
 * -1 when the offset moves it past the largest id. */
static int64_t map_id(const struct axfs_policy_idmap *m, size_t n,
		      uint32_t offset, uint32_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m[mid].from == id)
			return m[mid].to;
		if (m[mid].from < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if ((uint64_t)id + offset > UINT32_MAX)
		return -1;
	return (int64_t)id + offset;
}

struct owners_walk {
	const struct axfs_policy *p;
	struct tree_entry *bad;		/* the first id an offset overflows */
	int bad_gid;
	uint32_t bad_id;
};

static void apply_owners(struct tree_entry *e, void *ctx)
{
	struct owners_walk *ow = ctx;
	const struct axfs_policy *p = ow->p;
	int64_t u, g;

	if (p->all_root == 1) {
		e->uid = 0;
		e->gid = 0;
	}
	if (p->has_uid)
		e->uid = p->uid;
	if (p->has_gid)
		e->gid = p->gid;
	u = map_id(p->uid_map, p->n_uid_map, p->uid_offset, e->uid);
	g = map_id(p->gid_map, p->n_gid_map, p->gid_offset, e->gid);
	if ((u < 0 || g < 0) && !ow->bad) {
		ow->bad = e;
		ow->bad_gid = u >= 0;
		ow->bad_id = u < 0 ? e->uid : e->gid;
	}
	if (u >= 0)
		e->uid = (uint32_t)u;
	if (g >= 0)
		e->gid = (uint32_t)g;
}

static int apply_all_owners(const struct axfs_policy *p, struct tree *t,
			    struct axfs_error *err)
{
	struct owners_walk ow = { p, NULL, 0, 0 };
	const struct axfs_policy_pos *pos;
	char path[4200];

	if (tree_for_each_entry(t, apply_owners, &ow) < 0)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	if (!ow.bad)
		return 0;
	pos = ow.bad_gid ? &p->gid_offset_pos : &p->uid_offset_pos;
	tree_entry_path(ow.bad, path, sizeof(path));
	return axfs_error_set(err, AXFS_ERR_LIMIT, "%s:%zu:%zu: owners.%s-offset: "
			      "'%s' has %s %u, which the offset %u moves past "
			      "4294967295", p->file ? p->file : "policy",
			      pos->line, pos->column,
			      ow.bad_gid ? "gid" : "uid", path,
			      ow.bad_gid ? "gid" : "uid", ow.bad_id,
			      ow.bad_gid ? p->gid_offset : p->uid_offset);
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

/* "p.yaml:3:5: entries[2]: " or "table.txt:7:1: ": where an entry of
 * `devices`, `entries` or a device table is. */
static void entry_where(const struct axfs_policy *p,
			const struct axfs_policy_device *d, char *buf,
			size_t len)
{
	if (d->section)
		snprintf(buf, len, "%s:%zu:%zu: %s[%zu]: ", pname(p), d->line,
			 d->column, d->section, d->index);
	else
		snprintf(buf, len, "%s:%zu:%zu: ", d->file, d->line, d->column);
}

/*
 * The host file of a `source:` entry, checked now so that a mistake
 * names the policy line: a regular file (not a FIFO, which would block,
 * nor a device), and never reached through a symlink in its last name:
 * a symlink is refused as the directory source refuses to follow one
 * (a link to /etc/shadow put where a build expects a file gives no
 * shadow file in the image).
 */
static int host_file(const char *where, const char *path,
		     struct source_entry *se, struct axfs_error *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
		      O_NOCTTY);

	if (fd < 0 && errno == ELOOP)
		return axfs_error_set(err, AXFS_ERR_INVALID, "%scannot take "
				      "'%s': it is a symbolic link (name the "
				      "file itself, or add a symlink entry)",
				      where, path);
	if (fd < 0)
		return axfs_error_sys(err, errno, "%scannot open '%s'", where,
				      path);
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return axfs_error_sys(err, e, "%scannot stat '%s'", where,
				      path);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return axfs_error_set(err, AXFS_ERR_INVALID, "%s'%s' is not a "
				      "regular file", where, path);
	}
	close(fd);
	se->data.size = (uint64_t)st.st_size;
	se->data.data_bytes = (uint64_t)st.st_size;
	se->data.policy_host = 1;
	if (!(se->data.host_path = strdup(path)))
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	return 0;
}

/* Mode and owners of an entry (table 'r': of everything below it). */
static void set_attrs(struct tree_entry *e, const struct axfs_policy_device *d,
		      int recurse)
{
	e->mode = (e->mode & ~(uint32_t)07777) | d->mode;
	e->uid = d->uid;
	e->gid = d->gid;
	for (size_t i = 0; recurse && i < e->nchildren; i++)
		set_attrs(e->children[i], d, 1);
}

/* A device-table line that sets what is there (d, f, F, r). */
static int set_entry(const struct axfs_policy_device *d, struct tree *t,
		     const char *where, int *add, struct axfs_error *err)
{
	struct tree_entry *e = tree_lookup(t, d->path);

	*add = 0;
	if (!e && d->op == AXFS_POLICY_SET_IF)
		return 0;
	if (!e && d->type == AXFS_FT_DIR) {
		*add = 1;
		return 0;
	}
	if (!e)
		return axfs_error_set(err, AXFS_ERR_INVALID, "%s'%s' is not in "
				      "the image (type %s sets the mode and "
				      "owners of %s that is there)", where,
				      d->path, d->op == AXFS_POLICY_SET_TREE ?
				      "r" : "f", d->op == AXFS_POLICY_SET_TREE ?
				      "an entry" : "a regular file");
	if (d->type != AXFS_FT_NONE && e->type != d->type)
		return axfs_error_set(err, AXFS_ERR_INVALID, "%s'%s' is a %s, "
				      "not a %s", where, d->path,
				      axfs_ftype_name(e->type),
				      axfs_ftype_name(d->type));
	set_attrs(e, d, d->op == AXFS_POLICY_SET_TREE);
	return 0;
}

static int add_one(struct axfs_policy *p, struct tree *t,
		   const struct axfs_policy_device *d,
		   const struct axfs_logger *log, struct axfs_error *err)
{
	char where[4400];
	struct tree_entry *old;
	struct source_entry se;
	struct axfs_error e2;
	int rc, add = 1;

	entry_where(p, d, where, sizeof(where));
	if (d->op != AXFS_POLICY_ADD &&
	    ((rc = set_entry(d, t, where, &add, err)) < 0 || !add))
		return rc < 0 ? rc : 0;
	old = tree_lookup(t, d->path);
	/* a table's lines replace each other silently, as makedevs does */
	if (old && d->section)
		axfs_log(log, AXFS_LOG_WARN, "%s'%s' replaces the %s from the "
			 "source", where, d->path, axfs_ftype_name(old->type));
	memset(&se, 0, sizeof(se));
	se.path = d->path + 1;
	se.type = d->type;
	se.mode = d->mode;
	se.uid = d->uid;
	se.gid = d->gid;
	se.rdev_major = d->major;
	se.rdev_minor = d->minor;
	if (d->hardlink)
		se.hardlink_to = d->target + 1;
	else if (d->type == AXFS_FT_LNK)
		se.link_target = d->target;
	else if (d->type == AXFS_FT_REG &&
		 (rc = host_file(where, d->source, &se, err)) < 0)
		return rc;
	axfs_error_clear(&e2);
	rc = tree_add(t, &se, NULL, &e2);
	if (rc < 0) {
		free(se.data.host_path);
		axfs_error_set(err, rc, "%s%s", where, e2.msg);
	}
	return rc;
}

static int add_devices(struct axfs_policy *p, struct tree *t,
		       const struct axfs_logger *log, struct axfs_error *err)
{
	const struct axfs_logger quiet = { quiet_replace_fn, (void *)log };
	const struct axfs_logger *saved = t->log;
	int rc = 0;

	t->log = &quiet;
	for (size_t i = 0; i < p->n_devices && rc == 0; i++)
		rc = add_one(p, t, &p->devices[i], log, err);
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

/* The globs of one list (xip.files, xip.exclude) that matched nothing, as
 * warnings: each once, at its first place when it is repeated. */
static void warn_unmatched(const struct axfs_policy *p,
			   const struct axfs_logger *log, const char *key,
			   char *const *globs,
			   const struct axfs_policy_pos *pos, size_t n,
			   const size_t *hits, const struct glob_set *set,
			   const char *nothing)
{
	for (size_t i = 0; i < n; i++)
		if (!hits[i] && set->first[i] == i)
			axfs_log(log, AXFS_LOG_WARN, "%s:%zu:%zu: %s[%zu]: '%s' %s",
				 pname(p), pos[i].line, pos[i].column, key, i,
				 globs[i], nothing);
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
	if ((rc = apply_all_owners(p, t, err)) < 0 ||
	    (rc = add_devices(p, t, log, err)) < 0)
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

	warn_unmatched(p, log, "xip.files", p->xip_files, p->xip_files_pos,
		       p->n_xip_files, a.files_hits, &a.files,
		       "matches no regular file");
	warn_unmatched(p, log, "xip.exclude", p->xip_exclude,
		       p->xip_exclude_pos, p->n_xip_exclude, a.excl_hits,
		       &a.excl, "matches nothing");
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
