// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_share.c - node.amplified: files that share node ranges but not
 * their mode and owner (or whose ranges overlap without being the same)
 * cannot be extracted as hard links, so extract writes their data once
 * each; past SHARE_MAX_RATIO times the data the image holds, extract
 * refuses the image by default (share.h, the rule of both).  mkfs
 * shares identical files whatever their mode and owner, so a few such
 * files are no defect: only the ratio is.
 */
#include <stdlib.h>

#include "internal.h"
#include "share.h"

void fsck_check_share(struct fsck *f)
{
	struct share_totals t;
	struct share_file *files;
	struct axfs_error err;
	size_t n = 0;
	uint64_t bytes = (f->nranges + 1) *
			 (sizeof(*files) + sizeof(size_t));

	/* The files and share_link_groups()'s index, under the budget. */
	if (fsck_mem_reserve(f, bytes, 0, "the shared ranges") < 0)
		return;
	files = malloc((f->nranges + 1) * sizeof(*files));
	if (!files)
		goto out;
	for (size_t i = 0; i < f->nranges; i++) {
		const struct fsck_range *r = &f->ranges[i];
		uint64_t mi;

		if (r->symlink)
			continue;
		if (fsck_table(f, AXFS_R_INODE_MODE_INDEX, r->ino, &mi) < 0)
			mi = UINT64_MAX;
		files[n].array_index = r->start;
		files[n].size = r->size;
		files[n].mode_index = mi;
		n++;
	}
	if (share_link_groups(files, n, NULL, &t, &err) == 0 &&
	    share_over_ratio(&t, SHARE_MAX_RATIO))
		fsck_report(f, FC_NODE_AMPLIFIED,
			    fsck_table_off(f, AXFS_R_INODE_ARRAY_INDEX, 0),
			    FSCK_NO_INO, "files share node ranges but not "
			    "their mode and owner: extracting them writes "
			    "%llu bytes from the %llu the image holds, more "
			    "than %u times", (unsigned long long)t.written,
			    (unsigned long long)t.held, SHARE_MAX_RATIO);
	free(files);
out:
	fsck_mem_release(f, bytes);
}
