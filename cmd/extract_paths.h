/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/extract_paths.h - axfs extract IMAGE DIR PATH...: which entries of
 * the image to write, for the tree (extract.c) and --tar (extract_tar.c).
 */
#ifndef CMD_EXTRACT_PATHS_H
#define CMD_EXTRACT_PATHS_H

#include <stddef.h>

struct axfs_image;

struct extract_paths {
	int all;			/* no PATH given: everything */
	char **roots;			/* the subtrees, paths without links */
	size_t nroots;
	char **links;			/* the links followed to reach them */
	size_t nlinks, links_cap;
};

/*
 * Resolves the n PATHs of argv inside img (axfs_image_resolve(): links
 * followed, the last one too) into the subtrees to write and the links on
 * the way to them, which are written too, so that the paths given still
 * lead to them in what is written.  n == 0 selects everything.  Returns 0,
 * or -1 after naming every PATH that cannot be resolved.
 */
int extract_paths_resolve(struct extract_paths *s, struct axfs_image *img,
			  char **argv, int n);
/*
 * 1 when the entry at path ("/a/b", or "a/b" and "" for the root as the
 * image source names them) is to be written: it is in a subtree, is a
 * link followed to one, or is a directory on the way to either.
 */
int extract_paths_wants(const struct extract_paths *s, const char *path);
void extract_paths_free(struct extract_paths *s);

#endif
