// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source.c - picks the directory, image or archive producer from what
 * SOURCE is.  What the producers share is in source_entry.c.
 */
#include "axfs_source.h"
#include "internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

int axfs_source_open(struct axfs_source **out, const char *path,
		     const struct axfs_source_opts *opts,
		     struct axfs_error *err)
{
	struct stat st;

	*out = NULL;
	if (!path || !*path)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "no source given");
	/* "-" is an archive on standard input, never a file named "-". */
	if (strcmp(path, "-") == 0)
		return axfs_source_archive_open(out, path, opts, err);
	/* stat, not lstat: a symlink to the source tree is followed once,
	 * at the top, as mkfs.cramfs and mksquashfs do. */
	if (stat(path, &st) < 0)
		return axfs_error_sys(err, errno, "cannot open '%s'", path);
	if (!S_ISDIR(st.st_mode) && axfs_source_is_image(path))
		return axfs_source_image_open(out, path, opts, err);
	if (opts && opts->store_path)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "'%s' is not an AXFS image, so it has "
				      "no store segment '%s'", path,
				      opts->store_path);
	if (S_ISDIR(st.st_mode))
		return axfs_source_dir_open(out, path, opts, err);
	return axfs_source_archive_open(out, path, opts, err);
}

void axfs_source_destroy(struct axfs_source *src)
{
	if (src && src->ops && src->ops->destroy)
		src->ops->destroy(src);
}
