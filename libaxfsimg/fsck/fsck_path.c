// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_path.c - an inode's name and its path, for the tree phase
 * (fsck_tree.c checks the names) and for findings (fsck_report.c names
 * the file a finding is about).  A helper: it reads what the tree phase
 * recorded (f->parent), it calls no phase.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pathbuf.h"

#define NAME_SCAN (AXFS_MAXPATHLEN + 1)	/* name bytes + its NUL */

int fsck_inode_name(struct fsck *f, uint64_t ino, uint64_t last_nul,
		    const char **name, size_t *len, uint64_t *noff,
		    const char **why)
{
	const struct fsck_region *S = &f->r[AXFS_R_STRINGS];
	uint64_t off, scan;
	const uint8_t *p, *nul;

	*why = NULL;
	if (fsck_table(f, AXFS_R_INODE_NAME_OFFSET, ino, &off) < 0) {
		*why = "no name offset";
		return -1;
	}
	*noff = off;
	if (!S->data) {
		*why = "no strings region";
		return -1;
	}
	if (off >= S->size) {
		*why = "range";
		return -1;
	}
	p = S->data + off;
	scan = S->size - off;
	if (scan > NAME_SCAN)
		scan = NAME_SCAN;
	nul = memchr(p, 0, (size_t)scan);
	if (!nul) {
		*why = off < last_nul ? "long" : "unterminated";
		return -1;
	}
	*name = (const char *)p;
	*len = (size_t)(nul - p);
	return 0;
}

static int path_reserve(struct fsck *f, size_t need)
{
	return pathbuf_reserve(&f->pathbuf, &f->pathcap, need);
}

/*
 * "/a/b" for inode ino, built by walking parents up to the root (parents
 * are assigned breadth-first, so the chain always ends there).  NULL when
 * the inode was never reached.
 */
const char *fsck_path(struct fsck *f, uint64_t ino)
{
	size_t pos = 0, total = 0;
	uint64_t cur, steps = 0;
	/* Only for "long" vs "unterminated", which a path does not tell. */
	uint64_t last_nul = f->r[AXFS_R_STRINGS].size;

	if (!f->parent || ino >= f->nino || f->parent[ino] == FSCK_NO_INO)
		return NULL;
	if (ino == 0)
		return path_reserve(f, 2) ? NULL :
		       strcpy(f->pathbuf, "/");

	/* First pass: length; second: fill from the end. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			if (path_reserve(f, total + 1))
				return NULL;
			pos = total;
			f->pathbuf[pos] = 0;
		}
		for (cur = ino, steps = 0; cur != 0 && steps <= f->nino;
		     cur = f->parent[cur], steps++) {
			const char *name, *why;
			size_t len;
			uint64_t noff;
			char tmp[32];

			if (fsck_inode_name(f, cur, last_nul, &name, &len,
					    &noff, &why) < 0 || len == 0) {
				int n = snprintf(tmp, sizeof(tmp), "<inode %llu>",
						 (unsigned long long)cur);

				name = tmp;
				len = (size_t)n;
			}
			if (pass == 0) {
				total += len + 1;
			} else {
				pos -= len;
				memcpy(f->pathbuf + pos, name, len);
				f->pathbuf[--pos] = '/';
			}
		}
	}
	return f->pathbuf;
}

void fsck_path_free(struct fsck *f)
{
	free(f->pathbuf);
	f->pathbuf = NULL;
	f->pathcap = 0;
}
