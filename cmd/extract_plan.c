// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/extract_plan.c - axfs extract IMAGE DIR: the pre-walk, which
 * decides what is written and whether it may be, before anything is.
 *
 * The whole tree is walked (and so validated: names, cycles, depth)
 * first; the bytes to write (link groups once, extract_links.c) must fit
 * under --max-size and in DIR's free space, and no input may lie where
 * an entry of the image would replace it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "common.h"
#include "extract_tree.h"

/* Every regular file of the image, wanted or not: the bound is the
 * image's (share.h), whatever PATHs select. */
static int add_share(struct extract *x, const struct axfs_inode_info *in)
{
	struct share_file *n = cmd_grow(x->all, x->nall, &x->all_cap,
					sizeof(*n), 1024);

	if (!n) {
		cmd_error("out of memory");
		return -1;
	}
	x->all = n;
	x->all[x->nall].array_index = in->array_index;
	x->all[x->nall].size = in->size;
	x->all[x->nall].mode_index = in->mode_index;
	x->nall++;
	return 0;
}

int extract_count_fn(void *ctx, const char *path,
		     const struct axfs_inode_info *in)
{
	struct extract *x = ctx;
	struct reg *n;

	if (S_ISREG(in->mode) && add_share(x, in) < 0)
		return 1;
	if (!extract_paths_wants(x->paths, path))
		return 0;
	x->files_total++;
	if (!S_ISREG(in->mode))
		return 0;
	n = cmd_grow(x->regs, x->nregs, &x->regs_cap, sizeof(*n), 1024);
	if (!n) {
		cmd_error("out of memory");
		return 1;
	}
	x->regs = n;
	memset(&x->regs[x->nregs], 0, sizeof(x->regs[0]));
	x->regs[x->nregs].ino = in->ino;
	x->regs[x->nregs].size = in->size;
	x->regs[x->nregs].array_index = in->array_index;
	x->regs[x->nregs].mode_index = in->mode_index;
	x->regs[x->nregs].link_to = SHARE_NO_LINK;
	x->nregs++;
	return 0;
}

/*
 * An input that lies inside the target directory where the image holds an
 * entry of the same name would be replaced by that entry (with --force, or
 * into a directory that holds nothing else): refused before anything is
 * written.  Returns 1 after saying so, else 0.
 */
int extract_input_in_target(struct axfs_image *img, const char *dir,
			    const char *input, const char *role)
{
	char *rd, *ri;
	size_t l;
	int clash = 0;

	if (!input || !strcmp(input, "-"))
		return 0;
	rd = realpath(dir, NULL);
	ri = realpath(input, NULL);
	if (rd && ri) {
		l = strlen(rd);
		if (l > 1 && !strncmp(ri, rd, l) && ri[l] == '/')
			memmove(ri, ri + l, strlen(ri + l) + 1);
		else if (l == 1)
			;	/* the root: ri is its own relative path */
		else
			goto out;
		{
			struct axfs_error err;
			uint64_t ino = UINT64_MAX;

			clash = axfs_image_lookup(img, ri, &ino, &err) == 0 &&
				ino != UINT64_MAX;
		}
		if (clash)
			cmd_error("the image holds '%s', which would replace "
				  "the input '%s' (%s) in '%s': extract "
				  "elsewhere", ri, input, role, dir);
	}
out:
	free(rd);
	free(ri);
	return clash;
}

/*
 * The bound of share.h: files that share nodes but not their mode and
 * owner cannot be hard links and are written once each, so that a few
 * KiB of image could fill a disk; what the image's files would write
 * may be at most --max-ratio times what the image holds.
 */
int extract_check_ratio(const char *image, const struct share_totals *t,
			uint64_t max_ratio)
{
	if (!share_over_ratio(t, max_ratio))
		return 0;
	cmd_error("'%s' would write %" PRIu64 " bytes of file data from the "
		  "%" PRIu64 " bytes it holds, more than --max-ratio %" PRIu64
		  " times (files that share data but not their mode and "
		  "owner are written once each): nothing extracted", image,
		  t->written, t->held, max_ratio);
	return -1;
}

/*
 * The copies the file system of dfd will need where a link group has
 * more members than a file may have links (EMLINK: ext4 allows 65,000,
 * extract_make_link() then writes a copy), counted in x->bytes_total,
 * which must fit, before anything is written.  Not against the ratio:
 * they depend on DIR, not on the image (and glibc says 127 for a file
 * system it does not know, tmpfs among them, which has no limit).
 */
static void count_copies(struct extract *x, int dfd)
{
	long link_max = fpathconf(dfd, _PC_LINK_MAX);

	if (link_max < 2)
		return;
	for (size_t i = 0; i < x->nregs; i++) {
		const struct reg *r = &x->regs[i];
		uint64_t copies = r->links / (uint64_t)link_max;

		x->bytes_total += copies * r->size;
	}
}

/*
 * Before anything is written: what the image's files would write must be
 * within --max-ratio times what it holds, and the bytes to write (link groups
 * once) must fit in the free space of DIR's file system, and under
 * --max-size, so that an image of a few KiB claiming GiB is refused with
 * a message, not left to fill the disk.  Sparse files count at their
 * full size.
 */
int extract_check_space(struct extract *x, int dfd, uint64_t max_size)
{
	struct statvfs vfs;
	uint64_t avail;

	count_copies(x, dfd);
	if (extract_check_ratio(axfs_image_name(x->img), &x->share,
				x->max_ratio) < 0)
		return -1;
	if (fstatvfs(dfd, &vfs) < 0) {
		cmd_error("cannot read the free space of '%s': %s", x->dir,
			  strerror(errno));
		return -1;
	}
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (max_size && x->bytes_total > max_size) {
		cmd_error("'%s' holds %" PRIu64 " bytes of file data, more "
			  "than --max-size %" PRIu64 ": nothing extracted",
			  axfs_image_name(x->img), x->bytes_total, max_size);
		return -1;
	}
	if (x->bytes_total > avail) {
		cmd_error("'%s' holds %" PRIu64 " bytes of file data, more "
			  "than the %" PRIu64 " bytes free in '%s': nothing "
			  "extracted", axfs_image_name(x->img), x->bytes_total,
			  avail, x->dir);
		return -1;
	}
	return 0;
}
