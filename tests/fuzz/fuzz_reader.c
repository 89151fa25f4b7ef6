// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the image reader.  Opens the input as an image (strict and
 * lenient), walks every inode, looks paths up (following the image's
 * symbolic links too), reads every page of every file and symlink,
 * reads files again through axfs_image_read at unaligned offsets and
 * through the read-ahead stream (in the caller's thread or on two worker
 * threads), and inflates the first cblocks.  Any crash, hang, leak or
 * sanitizer report is a bug; errors are fine.  Budgets keep each input
 * fast whatever sizes the image claims.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "axfs_format.h"
#include "axfs_reader.h"
#include "axfs_stream.h"
#include "fuzz.h"

#define MAX_FILES 64			/* files handed to the stream */
#define MAX_STREAM_SIZE (16u << 20)	/* skip files claiming more */

struct walk_ctx {
	struct axfs_image *img;
	uint64_t budget;	/* pages left to read */
	struct axfs_stream_file files[MAX_FILES];
	size_t nfiles;
};

static void read_unaligned(struct axfs_image *img, uint64_t ino,
			   uint64_t size)
{
	static uint8_t buf[3 * AXFS_PAGE_SIZE];
	struct axfs_error err;
	size_t got;

	axfs_image_read(img, ino, 1, buf, 5000, &got, &err);
	if (size > 4)
		axfs_image_read(img, ino, size - 3, buf, 64, &got, &err);
	axfs_image_read(img, ino, size, buf, 1, &got, &err);
	axfs_image_read(img, ino, UINT64_MAX - 2, buf, 16, &got, &err);
}

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
	if (S_ISREG(ino->mode)) {
		read_unaligned(w->img, ino->ino, ino->size);
		if (w->nfiles < MAX_FILES && ino->size <= MAX_STREAM_SIZE) {
			w->files[w->nfiles].ino = ino->ino;
			w->files[w->nfiles].size = ino->size;
			w->nfiles++;
		}
	}
	return 0;
}

static void stream_all(struct walk_ctx *w, unsigned int threads)
{
	struct axfs_stream *s;
	struct axfs_stream_opts so = { .struct_size = sizeof(so),
				       .threads = threads, .chunk = 8192,
				       .window = 65536 };
	struct axfs_stream_piece p;
	struct axfs_error err;
	uint64_t sum = 0;

	if (axfs_stream_open(&s, w->img, w->files, w->nfiles, &so, &err) < 0)
		return;
	while (axfs_stream_next(s, &p, &err) > 0)
		sum += p.data[0] + p.data[p.len - 1];	/* touch both ends */
	axfs_stream_close(s);
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct axfs_image *img, *clone;
	struct axfs_error err;
	struct walk_ctx *w = calloc(1, sizeof(*w));
	uint64_t ino;
	uint8_t *cb;
	size_t len;

	if (!w)
		return 0;
	for (int lenient = 0; lenient <= 1; lenient++) {
		struct axfs_open_opts o = { .struct_size = sizeof(o), .lenient = lenient };

		if (axfs_image_open_buffer(&img, data, size, "fuzz", &o, &err) < 0)
			continue;
		w->img = img;
		w->budget = 4096;
		w->nfiles = 0;
		axfs_image_walk(img, visit, w, &err);
		axfs_image_lookup(img, "/bin/sh", &ino, &err);
		axfs_image_lookup(img, "/a/../b/./c", &ino, &err);
		/* Symbolic links of the image followed: targets are input. */
		for (int i = 0; i < 3; i++) {
			static const char *const p[] = {
				"/bin/sh", "/etc/os-release/", "a/../b/c/d"
			};
			char *real = NULL;

			axfs_image_resolve(img, p[i], 0, &ino, &real, NULL,
					   NULL, &err);
			free(real);
		}
		/* Threads only now and then: creating them is slow. */
		stream_all(w, (size & 3) == 1 ? 2 : 0);
		cb = malloc(AXFS_CBLOCK_MAX);
		if (cb && axfs_image_clone(&clone, img, &err) == 0) {
			for (uint64_t c = 0; c < 16; c++)
				if (axfs_image_cblock(clone, c, cb, &len, &err) < 0)
					break;
			axfs_image_close(clone);
		}
		free(cb);
		axfs_image_close(img);
	}
	free(w);
	return 0;
}
