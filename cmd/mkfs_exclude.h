/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd/mkfs_exclude.h - mkfs --exclude and --exclude-from */
#ifndef CMD_MKFS_EXCLUDE_H
#define CMD_MKFS_EXCLUDE_H

#include <stddef.h>

/* The excludes of the command line, with where each comes from (the
 * arrays axfs_build_opts takes); the strings of --exclude-from lines are
 * owned (`owned`).  Zero-initialised is empty. */
struct excludes {
	const char **glob;
	const char **where;
	size_t n, nwhere;
	char **owned;
	size_t nowned;
	const char **files;	/* the --exclude-from files: inputs */
	size_t nfiles;
};

/* One glob (--exclude, or a line of a file with from_file): an image path,
 * well formed.  0, -1 out of memory, or EXIT_USAGE (command line) or
 * EXIT_OPERATIONAL (file) after saying what is wrong, naming `where`. */
int add_exclude(struct excludes *x, const char *glob, const char *where,
		int from_file);
/* --exclude-from FILE (- for standard input): a glob a line; blank lines
 * and lines starting with '#' are skipped; an error names FILE:LINE.
 * Returns as add_exclude. */
int read_exclude_file(struct excludes *x, const char *file);
void excludes_free(struct excludes *x);

#endif
