/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_profile.h - profile CSVs as the driver prints /proc/axfs/volumeN.
 *
 * One line per page: "./dir/name,offset,count", offset in bytes.  Names
 * may contain commas (the last two fields are split from the right).
 * Paths are stored normalised as absolute image paths ("/dir/name").
 *
 * The ordered form (/proc/axfs/volumeN.order) starts with the line
 * "# axfs-profile order" and has a fourth field, "./dir/name,offset,
 * count,first": the 1-based rank of the page's first use since the mount
 * (0: no rank).  Its last three fields are split from the right.
 */
#ifndef AXFS_PROFILE_H
#define AXFS_PROFILE_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "axfs_error.h"

struct axfs_profile_entry {
	char *path;		/* "/dir/name" */
	uint64_t offset;	/* bytes, multiple of 4096 */
	uint64_t count;		/* fault count */
	const char *file;	/* CSV it came from (for messages) */
	size_t line;		/* its line there */
	uint64_t first;		/* rank of first use, 1 = first; 0: none
				 * (the 2008 form has none) */
};

struct axfs_profile {
	struct axfs_profile_entry *v;
	size_t n, cap;
	const struct axfs_logger *log;
};

void axfs_profile_init(struct axfs_profile *p, const struct axfs_logger *log);
/* Appends the entries of a CSV file ("-" = stdin); errors name file:line. */
int axfs_profile_read(struct axfs_profile *p, const char *file,
		      struct axfs_error *err);
/* Same, from a memory buffer (`name` is used in messages). */
int axfs_profile_parse(struct axfs_profile *p, const char *name,
		       const char *buf, size_t len, struct axfs_error *err);
/* Sorts by path (bytewise) then offset and sums duplicates (overflow is
 * an error); a page named twice keeps the smaller non-zero rank. */
int axfs_profile_canonicalize(struct axfs_profile *p, struct axfs_error *err);
/* Appends one entry; the path is checked and normalised as the CSV reader
 * does ("./a/b", "a/b" -> "/a/b"), the offset must be page-aligned.  `file`
 * and `line` are copied/kept for messages (file may be NULL). */
int axfs_profile_add(struct axfs_profile *p, const char *path,
		     uint64_t offset, uint64_t count, const char *file,
		     size_t line, struct axfs_error *err);
/* How duplicates (same path and offset) are combined. */
enum axfs_profile_combine {
	AXFS_PROFILE_SUM = 0,	/* counts added (overflow is an error) */
	AXFS_PROFILE_MAX = 1,	/* the largest count kept */
};
/* axfs_profile_canonicalize with a choice of how duplicates combine. */
int axfs_profile_canonicalize_combine(struct axfs_profile *p,
				      enum axfs_profile_combine how,
				      struct axfs_error *err);
/* Writes the canonical CSV form ("./path,offset,count\n" lines); when an
 * entry has a rank, the ordered form instead: the line
 * "# axfs-profile order" and "./path,offset,count,first\n" lines. */
int axfs_profile_write(const struct axfs_profile *p, FILE *out,
		       struct axfs_error *err);
void axfs_profile_free(struct axfs_profile *p);

#endif
