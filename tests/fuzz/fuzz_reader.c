// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the image reader.  Opens the input as an image, walks every
 * inode and reads every page of every file and symlink.  Any crash, hang,
 * sanitizer report or out-of-bounds read is a bug; errors are fine.
 */
#include <stdint.h>
#include <stddef.h>
#include <sys/stat.h>

#include "axfs_reader.h"
#include "fuzz.h"

struct walk_ctx {
	struct axfs_image *img;
	uint64_t budget;	/* pages left to read: keeps each input fast */
};

static int visit(void *ctx, const char *path, const struct axfs_inode_info *ino)
{
	struct walk_ctx *w = ctx;
	struct axfs_error err;
	uint8_t page[AXFS_PAGE_SIZE];
	char target[AXFS_PAGE_SIZE + 1];
	struct axfs_page_loc loc;
	size_t len;

	(void)path;
	if (S_ISLNK(ino->mode))
		axfs_image_readlink(w->img, ino->ino, target, sizeof(target), &err);
	if (!S_ISREG(ino->mode) && !S_ISLNK(ino->mode))
		return 0;
	for (uint64_t p = 0; p * AXFS_PAGE_SIZE < ino->size && w->budget; p++) {
		w->budget--;
		axfs_image_page_location(w->img, ino->ino, p, &loc, &err);
		if (axfs_image_read_page(w->img, ino->ino, p, page, &len, &err) < 0)
			break;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct axfs_image *img;
	struct axfs_error err;
	struct walk_ctx w;
	uint64_t ino;

	for (int lenient = 0; lenient <= 1; lenient++) {
		struct axfs_open_opts o = { .lenient = lenient };

		if (axfs_image_open_buffer(&img, data, size, "fuzz", &o, &err) < 0)
			continue;
		w.img = img;
		w.budget = 4096;
		axfs_image_walk(img, visit, &w, &err);
		axfs_image_lookup(img, "/bin/sh", &ino, &err);
		axfs_image_close(img);
	}
	return 0;
}
