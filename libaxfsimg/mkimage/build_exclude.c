// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * build_exclude.c - the entries of the source left out of the image:
 * mkfs --exclude, --exclude-from and the policy's top-level `exclude:`,
 * globs over image paths with the rules of glob_match.h.  An entry is left
 * out when its path, or the path of a directory above it, matches one, so
 * an excluded directory takes everything under it (as mksquashfs -e does).
 * The root is never left out.
 *
 * Each distinct glob is compiled once (glob_set; a glob given twice is
 * tested once and warned about once).  An entry is tested against every
 * glob; the directories above it only when the previous entry did not
 * already settle them (sources give a directory before its contents), so
 * the cost is entries x globs, not entries x depth x globs.
 */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glob_match.h"
#include "axfs_policy.h"

int build_exclude_init(struct build_exclude *x, const struct axfs_build_opts *o,
		       struct axfs_error *err)
{
	const struct axfs_policy *pol = o->policy;
	size_t npol = pol ? pol->n_exclude : 0, bad = SIZE_MAX;
	int rc;

	memset(x, 0, sizeof(*x));
	if (o->n_exclude_globs > GLOB_MAX_COUNT || npol > GLOB_MAX_COUNT)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "more than %d "
				      "exclude globs", GLOB_MAX_COUNT);
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
	if (glob_set_init(&x->set, x->glob, x->n, &bad) < 0) {
		if (bad == SIZE_MAX)
			goto nomem;
		rc = axfs_error_set(err, AXFS_ERR_LIMIT, "%s: a glob of %zu "
				    "bytes: no image path is longer than %d",
				    x->where[bad], strlen(x->glob[bad]),
				    GLOB_MAX_LEN);
		build_exclude_free(x);
		return rc;
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
	glob_set_free(&x->set);
	free(x->prev);
	memset(x, 0, sizeof(*x));
}

/* The first glob matching path exactly (its index in x->glob), or -1. */
static long match_one(const struct build_exclude *x, const char *abs)
{
	for (size_t k = 0; k < x->set.n; k++)
		if (glob_test(&x->set.g[k], abs))
			return (long)x->set.orig[k];
	return -1;
}

/* The longest directory above both abs and x->prev (its length: the
 * position of a '/' in abs), or 0. */
static size_t common_dir(const struct build_exclude *x, const char *abs)
{
	const char *prev = x->prev;
	size_t i = 0, last = 0;

	if (!prev)
		return 0;
	for (; abs[i] && abs[i] == prev[i]; i++)
		if (abs[i] == '/' && i)
			last = i;
	if (abs[i] == '/' && !prev[i] && i)
		last = i;
	return last;
}

/* Remembers abs and what is settled about its directories. */
static void remember(struct build_exclude *x, const char *abs, size_t len,
		     size_t known, size_t below)
{
	if (len + 1 > x->prev_cap) {
		char *np = realloc(x->prev, len + 1);

		if (!np) {		/* only a cache: start again */
			free(x->prev);
			x->prev = NULL;
			x->prev_cap = 0;
			x->known = x->below = 0;
			return;
		}
		x->prev = np;
		x->prev_cap = len + 1;
	}
	memcpy(x->prev, abs, len + 1);
	x->known = known;
	x->below = below;
}

int build_exclude_test(struct build_exclude *x, const char *path,
		       const struct axfs_logger *log)
{
	char abs[4200];
	size_t len, common, known;
	long g;

	if (!x->n || !*path)
		return 0;
	len = strlen(path);
	if (len + 2 > sizeof(abs))
		return 0;
	abs[0] = '/';
	memcpy(abs + 1, path, len + 1);
	len++;
	common = common_dir(x, abs);
	known = common < x->known ? common : x->known;
	g = match_one(x, abs);
	if (g >= 0) {
		x->matched[g]++;
		x->count++;
		axfs_log(log, AXFS_LOG_INFO, "'%s': excluded (%s '%s')", abs,
			 x->where[g], x->glob[g]);
		remember(x, abs, len, known, len);
		return 1;
	}
	/* A directory above it: "/a", "/a/b", ... */
	if (x->below && common >= x->below) {
		x->count++;
		axfs_log(log, AXFS_LOG_DEBUG, "'%s': excluded with its "
			 "directory", abs);
		remember(x, abs, len, known, x->below);
		return 1;
	}
	for (size_t i = known + 1; i < len; i++) {
		if (abs[i] != '/')
			continue;
		abs[i] = '\0';
		g = match_one(x, abs);
		abs[i] = '/';
		if (g >= 0) {
			x->count++;
			axfs_log(log, AXFS_LOG_DEBUG, "'%s': excluded with its "
				 "directory", abs);
			remember(x, abs, len, known, i);
			return 1;
		}
		known = i;
	}
	remember(x, abs, len, len, 0);
	return 0;
}

void build_exclude_report(const struct build_exclude *x,
			  const struct axfs_logger *log)
{
	for (size_t i = 0; i < x->n; i++)
		if (!x->matched[i] && x->set.first[i] == i)
			axfs_log(log, AXFS_LOG_WARN, "%s: '%s' matches nothing "
				 "in the source", x->where[i], x->glob[i]);
	if (x->count)
		axfs_log(log, AXFS_LOG_INFO, "excluded %llu entr%s",
			 (unsigned long long)x->count,
			 x->count == 1 ? "y" : "ies");
}
