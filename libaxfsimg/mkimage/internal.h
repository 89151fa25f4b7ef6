/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mkimage/internal.h - the stages of axfs_build() (build.c), internal to
 * libaxfsimg:
 *   build.c         the settings, the source read into the tree, the
 *                   stages called in order, the output file;
 *   build_policy.c  policy and command-line owners on the tree, the report
 *                   of what AXFS cannot store;
 *   build_exclude.c the entries --exclude and the policy's exclude leave
 *                   out;
 *   build_fit.c     pack and write, packing again with fewer XIP pages
 *                   while the memory-mapped part is over the mmap limit;
 *   build_sparse.c  what sparse files may claim: the holes before
 *                   packing, the readers' memory before the output is
 *                   committed.
 */
#ifndef LIBAXFSIMG_MKIMAGE_INTERNAL_H
#define LIBAXFSIMG_MKIMAGE_INTERNAL_H

#include "opts_size.h"
#include "axfs_build.h"
#include "glob_match.h"
#include "outfile.h"
#include "stages.h"
#include "policy_apply.h"
/* The stages axfs_build() calls (private to libaxfsimg). */
#include "planner.h"
#include "packer.h"
#include "writer.h"

static inline int build_check_cancel(const struct axfs_build_opts *o,
				     struct axfs_error *err)
{
	if (o->cancel && *o->cancel)
		return axfs_error_set(err, AXFS_ERR_INTERRUPTED, "interrupted");
	return 0;
}

/* build_policy.c */
int build_apply_policy(const struct axfs_build_opts *o, struct tree *t,
		       struct axfs_error *err);
int build_policy_has_host_files(const struct axfs_policy *pol);
int build_report_lossy(const struct tree *t,
		       const struct axfs_build_opts *o, unsigned int *all,
		       struct axfs_error *err);

/* build_exclude.c: the globs that leave entries of the source out. */
struct build_exclude {
	const char **glob;	/* command line first, then the policy */
	char **where;		/* "--exclude", "list:3", "p.yaml:2:3: exclude[0]" */
	uint64_t *matched;	/* entries each glob matched itself */
	size_t n;
	struct glob_set set;	/* the distinct globs, compiled */
	uint64_t count;		/* entries left out, with those below */
	/* The last path tested ("/a/b/c"): its first `known` bytes name a
	 * directory that no glob matches, nor any directory above it, and
	 * its first `below` bytes (when not 0) an excluded one.  Sources
	 * give a directory before what it holds, so each entry's
	 * directories are tested once, not once an entry. */
	char *prev;
	size_t prev_cap, known, below;
};
int build_exclude_init(struct build_exclude *x, const struct axfs_build_opts *o,
		       struct axfs_error *err);
/* 1 when the entry at `path` (image path without the leading '/') or a
 * directory above it is excluded; logs it (-v for a match, -vv below). */
int build_exclude_test(struct build_exclude *x, const char *path,
		       const struct axfs_logger *log);
/* A warning per glob that matched nothing; the count at INFO. */
void build_exclude_report(const struct build_exclude *x,
			  const struct axfs_logger *log);
void build_exclude_free(struct build_exclude *x);

/* build_sparse.c: the holes of the tree within o->max_holes (before
 * packing), and the laid-out image within what our readers take by
 * default (before committing it); errors naming the file. */
int build_check_holes(const struct axfs_build_opts *o, const struct tree *t,
		      struct axfs_error *err);
int build_check_readers(const struct axfs_build_opts *o,
			const struct axfs_build_result *res,
			struct axfs_error *err);

/* build_fit.c: packs res->tree and writes it to `of`; *packed says
 * whether res->packed holds data to free. */
int build_pack_and_write(const struct axfs_build_opts *o,
			 const struct plan_opts *plo, uint64_t mmap_limit,
			 struct source *src, struct outfile *of,
			 struct axfs_build_result *res, int *packed,
			 struct axfs_error *err);

#endif
