// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the archive source, and the whole of mkfs behind it.  The
 * input is written to a temporary file and
 *  1. opened as an archive: every entry and every byte of data is read;
 *  2. built into an image by axfs_build (what `axfs mkfs ARCHIVE` does:
 *     tree, planner, packer, writer), with a cap on the data packed and
 *     on the holes (max_holes, FUZZ_MAX_HOLES): a member whose sparse map
 *     claims more is refused by name before anything is allocated, one
 *     that claims less is packed, its holes as runs of the zero page
 *     (issue 38 §4: the packer with sparse claims);
 *  3. if the build succeeded, the image is walked by the reader and checked
 *     by fsck: an image our own mkfs wrote must be readable and free of
 *     errors, whatever the archive held, so anything else aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "axfs_build.h"
#include "axfs_fsck.h"
#include "axfs_reader.h"
#include "source.h"
#include "fuzz.h"
#include "../unit/unit_build.h"

#define PACK_LIMIT (8u << 20)	/* bytes of file data worth packing */
#define FUZZ_MAX_HOLES (256ull << 20)	/* 64 Ki hole pages: fast */
#define READ_LIMIT (16u << 20)	/* bytes read of one member's data */

static void read_entries(const char *path)
{
	struct source *src;
	struct source_entry e;
	struct axfs_error err;
	static char buf[65536];

	if (source_archive_open(&src, path, NULL, &err) < 0)
		return;
	while (src->ops->next(src, &e, &err) > 0) {
		void *h;
		size_t got;

		if (e.type != AXFS_FT_REG || e.hardlink_to) {
			free(e.data.host_path);
			continue;
		}
		if (src->ops->data_open(src, &e.data, &h, &err) == 0) {
			uint64_t done = 0;

			/* A sparse claim is read as far as READ_LIMIT: its
			 * holes read as zeros, which cost time, not bugs. */
			while (done < READ_LIMIT &&
			       src->ops->data_read(src, h, buf, sizeof(buf),
						   &got, &err) == 0 && got)
				done += got;
			src->ops->data_close(src, h);
		}
		free(e.data.host_path);
	}
	source_destroy(src);
}

struct cap {
	volatile int cancel;
};

static void progress(void *ctx, uint64_t files_done, uint64_t files_total,
		     uint64_t bytes_done, uint64_t bytes_total)
{
	struct cap *c = ctx;

	(void)files_done;
	(void)files_total;
	(void)bytes_done;
	/* bytes_total counts holes too: those are bounded by max_holes. */
	if (bytes_total > PACK_LIMIT + FUZZ_MAX_HOLES)
		c->cancel = 1;
}

static int walk_fn(void *ctx, const char *p, const struct axfs_inode_info *i)
{
	(void)ctx;
	(void)p;
	(void)i;
	return 0;
}

/* The oracle: what mkfs wrote, the reader and fsck accept. */
static void check_image(const char *image)
{
	struct axfs_image *img;
	struct axfs_error err;
	struct axfs_fsck_opts o;
	struct axfs_fsck_result res;

	if (axfs_image_open(&img, image, NULL, &err) < 0) {
		fprintf(stderr, "fuzz_archive: mkfs wrote an image the reader "
			"cannot open: %s\n", err.msg);
		abort();
	}
	if (axfs_image_walk(img, walk_fn, NULL, &err) != 0) {
		fprintf(stderr, "fuzz_archive: mkfs wrote an image the reader "
			"cannot walk: %s\n", err.msg);
		abort();
	}
	axfs_image_close(img);
	axfs_fsck_opts_init(&o);
	o.digest = 0;
	if (axfs_fsck_file(image, NULL, &o, &res, &err) < 0 || res.errors) {
		fprintf(stderr, "fuzz_archive: fsck finds %llu errors in an "
			"image mkfs wrote (%s)\n",
			(unsigned long long)res.errors, err.msg);
		abort();
	}
}

static void build(const char *archive, const char *dir)
{
	struct axfs_build_opts o;
	struct axfs_error err;
	struct cap cap = { 0 };
	char image[4096];
	int rc;

	snprintf(image, sizeof(image), "%s/img", dir);
	unit_build_opts(&o, archive, image, 4096);
	o.tmpdir = dir;
	o.max_holes = FUZZ_MAX_HOLES;
	o.progress = progress;
	o.progress_ctx = &cap;
	o.cancel = &cap.cancel;
	rc = axfs_build(&o, NULL, &err);
	if (getenv("AXFS_FUZZ_VERBOSE"))	/* what the replay did */
		fprintf(stderr, "  build: %s\n", rc == 0 ? "ok" : err.msg);
	if (rc == 0) {
		check_image(image);
		unlink(image);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/axfs-fuzz-archive.XXXXXX";
	char path[sizeof(dir) + 16];
	FILE *f;

	if (!mkdtemp(dir))
		return 0;
	snprintf(path, sizeof(path), "%s/in", dir);
	f = fopen(path, "wb");
	if (f && fwrite(data, 1, size, f) == size && fclose(f) == 0) {
		read_entries(path);
		build(path, dir);
	} else if (f) {
		fclose(f);
	}
	unlink(path);
	if (rmdir(dir) < 0) {
		/* A failed build must not leave temporary files behind. */
		fprintf(stderr, "fuzz_archive: files left in %s\n", dir);
		abort();
	}
	return 0;
}
