// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * build_exclude.c - the entries of the source left out of the image:
 * mkfs --exclude, --exclude-from and the policy's top-level `exclude:`,
 * globs over image paths with the rules of glob_match.h.  An entry is left
 * out when its path, or the path of a directory above it, matches one, so
 * an excluded directory takes everything under it (as mksquashfs -e does).
 * The root is never left out.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glob_match.h"
#include "axfs_policy.h"

int build_exclude_init(struct build_exclude *x, const struct axfs_build_opts *o,
		       struct axfs_error *err)
{
	const struct axfs_policy *pol = o->policy;
	size_t npol = pol ? pol->n_exclude : 0;

	memset(x, 0, sizeof(*x));
	x->n = o->n_exclude_globs + npol;
	if (!x->n)
		return 0;
	x->glob = calloc(x->n, sizeof(*x->glob));
	x->where = calloc(x->n, sizeof(*x->where));
	x->matched = calloc(x->n, sizeof(*x->matched));
	if (!x->glob || !x->where || !x->matched) {
		build_exclude_free(x);
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < o->n_exclude_globs; i++) {
		x->glob[i] = o->exclude_globs[i];
		x->where[i] = strdup(o->exclude_where && o->exclude_where[i] ?
				     o->exclude_where[i] : "--exclude");
		if (!x->where[i])
			goto nomem;
	}
	for (size_t i = 0; i < npol; i++) {
		size_t k = o->n_exclude_globs + i;
		char buf[512];

		x->glob[k] = pol->exclude[i];
		snprintf(buf, sizeof(buf), "%s:%zu:%zu: exclude[%zu]",
			 pol->file ? pol->file : "policy",
			 pol->exclude_pos[i].line, pol->exclude_pos[i].column, i);
		x->where[k] = strdup(buf);
		if (!x->where[k])
			goto nomem;
	}
	return 0;
nomem:
	build_exclude_free(x);
	return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
}

void build_exclude_free(struct build_exclude *x)
{
	for (size_t i = 0; x->where && i < x->n; i++)
		free(x->where[i]);
	free(x->glob);
	free(x->where);
	free(x->matched);
	memset(x, 0, sizeof(*x));
}

/* The first glob matching "/" + path exactly, or -1. */
static long match_one(struct build_exclude *x, const char *abs)
{
	for (size_t i = 0; i < x->n; i++)
		if (glob_match(x->glob[i], abs))
			return (long)i;
	return -1;
}

int build_exclude_test(struct build_exclude *x, const char *path,
		       const struct axfs_logger *log)
{
	char abs[4200];
	size_t len;
	long g;

	if (!x->n || !*path)
		return 0;
	len = strlen(path);
	if (len + 2 > sizeof(abs))
		return 0;
	abs[0] = '/';
	memcpy(abs + 1, path, len + 1);
	g = match_one(x, abs);
	if (g >= 0) {
		x->matched[g]++;
		x->count++;
		axfs_log(log, AXFS_LOG_INFO, "'%s': excluded (%s '%s')", abs,
			 x->where[g], x->glob[g]);
		return 1;
	}
	/* A directory above it: "/a", "/a/b", ... */
	for (size_t i = 1; i < len + 1; i++) {
		if (abs[i] != '/')
			continue;
		abs[i] = '\0';
		g = match_one(x, abs);
		abs[i] = '/';
		if (g >= 0) {
			x->count++;
			axfs_log(log, AXFS_LOG_DEBUG, "'%s': excluded with its "
				 "directory", abs);
			return 1;
		}
	}
	return 0;
}

void build_exclude_report(const struct build_exclude *x,
			  const struct axfs_logger *log)
{
	for (size_t i = 0; i < x->n; i++)
		if (!x->matched[i])
			axfs_log(log, AXFS_LOG_WARN, "%s: '%s' matches nothing "
				 "in the source", x->where[i], x->glob[i]);
	if (x->count)
		axfs_log(log, AXFS_LOG_INFO, "excluded %llu entr%s",
			 (unsigned long long)x->count,
			 x->count == 1 ? "y" : "ies");
}
