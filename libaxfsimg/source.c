// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source.c - what every source shares: file type <-> mode mapping, and
 * picking the directory, image or archive producer from what SOURCE is.
 */
#include "axfs_source.h"
#include "source_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_format.h"
#include "axfs_reader.h"
#include "image_input.h"
#include "reader_internal.h"

uint32_t axfs_ftype_to_mode(enum axfs_ftype t)
{
	switch (t) {
	case AXFS_FT_REG: return S_IFREG;
	case AXFS_FT_DIR: return S_IFDIR;
	case AXFS_FT_LNK: return S_IFLNK;
	case AXFS_FT_CHR: return S_IFCHR;
	case AXFS_FT_BLK: return S_IFBLK;
	case AXFS_FT_FIFO: return S_IFIFO;
	case AXFS_FT_SOCK: return S_IFSOCK;
	case AXFS_FT_NONE: break;
	}
	return 0;
}

enum axfs_ftype axfs_ftype_from_mode(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return AXFS_FT_REG;
	case S_IFDIR: return AXFS_FT_DIR;
	case S_IFLNK: return AXFS_FT_LNK;
	case S_IFCHR: return AXFS_FT_CHR;
	case S_IFBLK: return AXFS_FT_BLK;
	case S_IFIFO: return AXFS_FT_FIFO;
	case S_IFSOCK: return AXFS_FT_SOCK;
	}
	return AXFS_FT_NONE;
}

const char *axfs_ftype_name(enum axfs_ftype t)
{
	switch (t) {
	case AXFS_FT_REG: return "file";
	case AXFS_FT_DIR: return "directory";
	case AXFS_FT_LNK: return "symlink";
	case AXFS_FT_CHR: return "character device";
	case AXFS_FT_BLK: return "block device";
	case AXFS_FT_FIFO: return "fifo";
	case AXFS_FT_SOCK: return "socket";
	case AXFS_FT_NONE: break;
	}
	return "unknown file type";
}

unsigned int axfs__xattr_lossy(const char *name)
{
	if (strncmp(name, "system.posix_acl_", 17) == 0)
		return AXFS_LOSSY_ACL;
	if (strcmp(name, "security.selinux") == 0)
		return AXFS_LOSSY_XATTR | AXFS_LOSSY_SELINUX;
	if (strcmp(name, "security.capability") == 0)
		return AXFS_LOSSY_XATTR | AXFS_LOSSY_CAPABILITY;
	return AXFS_LOSSY_XATTR;
}

/*
 * "-": an AXFS image or an archive on standard input.  A regular file is
 * looked at in place; from a pipe the first bytes are read: an image's
 * superblock makes it an image, read into memory as far as it claims
 * (image_input.c); anything else goes to libarchive, those bytes first.
 */
static int source_stdin(struct axfs_source **out,
			const struct axfs_source_opts *opts,
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
		if (n == 4 && axfs_get_be32(head) == AXFS_MAGIC)
			return axfs_source_image_open(out, "-", opts, err);
		return axfs_source_archive_open(out, "-", opts, err);
	}
	n = axfs__read_upto(STDIN_FILENO, head, sizeof(head));
	if (n < 0)
		return axfs_error_sys(err, (int)-n, "cannot read standard "
				      "input");
	if (n < AXFS_SUPER_SIZE || axfs_get_be32(head + AXFS_SB_MAGIC) !=
	    AXFS_MAGIC)
		return axfs__source_archive_open_stdin(out, head, (size_t)n,
						       opts, err);
	if (opts && opts->store_path)
		return axfs_error_set(err, AXFS_ERR_INVALID, "an image on "
				      "standard input cannot have a store "
				      "segment: give the mmap segment as a "
				      "file");
	rc = axfs__load_stream_prefixed(STDIN_FILENO, AXFS_STDIN_NAME,
					opts ? opts->max_memory : 0, head,
					(size_t)n, &buf, &len, err);
	if (rc < 0)
		return rc;
	memset(&oo, 0, sizeof(oo));
	oo.max_memory = opts ? opts->max_memory : 0;
	rc = axfs__image_open_owned(&img, buf, len, AXFS_STDIN_NAME, &oo, err);
	if (rc < 0)
		return rc;
	return axfs__source_image_take(out, img, AXFS_STDIN_NAME, opts, err);
}

int axfs_source_open(struct axfs_source **out, const char *path,
		     const struct axfs_source_opts *opts,
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
