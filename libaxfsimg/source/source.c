// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source.c - picks the directory, image or archive producer from what
 * SOURCE is.  What the producers share is in source_entry.c.
 */
#include "source.h"
#include "internal.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_format.h"
#include "axfs_reader.h"
#include "image_input.h"

/*
 * "-": an AXFS image or an archive on standard input.  A regular file is
 * looked at in place; from a pipe the first bytes are read: an image's
 * superblock makes it an image, read into memory as far as it claims
 * (image_input.c); anything else goes to libarchive, those bytes first.
 */
static int source_stdin(struct source **out,
			const struct source_opts *opts,
			struct axfs_error *err)
{
	uint8_t head[AXFS_SUPER_SIZE_EXT], *buf;
	struct axfs_open_opts oo;
	struct axfs_image *img;
	uint64_t len;
	struct stat st;
	int64_t n;
	int rc;

	if (fstat(STDIN_FILENO, &st) < 0)
		return axfs_error_sys(err, errno, "cannot read standard input");
	if (S_ISREG(st.st_mode)) {
		n = pread(STDIN_FILENO, head, 4, AXFS_SB_MAGIC);
		if (n == 4 && get_unaligned_be32(head) == AXFS_MAGIC)
			return source_image_open(out, "-", opts, err);
		return source_archive_open(out, "-", opts, err);
	}
	n = image_input_read_upto(STDIN_FILENO, head, sizeof(head));
	if (n < 0)
		return axfs_error_sys(err, (int)-n, "cannot read standard "
				      "input");
	if (n < AXFS_SUPER_SIZE || get_unaligned_be32(head + AXFS_SB_MAGIC) !=
	    AXFS_MAGIC)
		return source_archive_open_stdin(out, head, (size_t)n,
						       opts, err);
	if (opts && opts->store_path)
		return axfs_error_set(err, AXFS_ERR_INVALID, "an image on "
				      "standard input cannot have a store "
				      "segment: give the mmap segment as a "
				      "file");
	rc = image_input_load_stream_prefixed(STDIN_FILENO, IMAGE_INPUT_STDIN_NAME,
					opts ? opts->max_memory : 0, head,
					(size_t)n, &buf, &len, err);
	if (rc < 0)
		return rc;
	memset(&oo, 0, sizeof(oo));
	oo.struct_size = sizeof(oo);
	oo.max_memory = opts ? opts->max_memory : 0;
	rc = reader_open_owned(&img, buf, len, IMAGE_INPUT_STDIN_NAME, &oo, err);
	if (rc < 0)
		return rc;
	return source_image_take(out, img, IMAGE_INPUT_STDIN_NAME, opts, err);
}

int source_open(struct source **out, const char *path,
		const struct source_opts *opts,
		struct axfs_error *err)
{
	struct stat st;

	*out = NULL;
	if (!path || !*path)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "no source given");
	/* "-" is standard input, never a file named "-". */
	if (strcmp(path, "-") == 0)
		return source_stdin(out, opts, err);
	/* stat, not lstat: a symlink to the source tree is followed once,
	 * at the top, as mkfs.cramfs and mksquashfs do. */
	if (stat(path, &st) < 0)
		return axfs_error_sys(err, errno, "cannot open '%s'", path);
	if (!S_ISDIR(st.st_mode) && source_is_image(path))
		return source_image_open(out, path, opts, err);
	if (opts && opts->store_path)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "'%s' is not an AXFS image, so it has "
				      "no store segment '%s'", path,
				      opts->store_path);
	if (S_ISDIR(st.st_mode))
		return source_dir_open(out, path, opts, err);
	return source_archive_open(out, path, opts, err);
}

void source_destroy(struct source *src)
{
	if (src && src->ops && src->ops->destroy)
		src->ops->destroy(src);
}
