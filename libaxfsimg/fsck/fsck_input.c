// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_input.c - gets an image into one contiguous read-only view for the
 * checker: a copy of a regular file read with pread() (a mapping would
 * die of SIGBUS when the file is cut short during the check; a short read
 * is an error with a message, as in the reader), mmap of a block or MTD
 * device (which cannot shrink), a stream (a pipe, a FIFO, standard input,
 * another character device) read superblock first and only as far as it
 * claims (image_input.c).  fsck.c's axfs_fsck_file() opens the image
 * (and the second segment of a split image) here and checks it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_error.h"
#include "axfs_fsck.h"
#include "internal.h"
#include "image_input.h"
#include "reader_device.h"

/* ---- reading files -------------------------------------------------------- */

int fsck_input_open(struct fsck_input *in, const char *path,
		    struct axfs_error *err)
{
	struct stat st;
	int rc;

	memset(in, 0, sizeof(*in));
	in->fd = image_input_open(path, &in->name, err);
	if (in->fd < 0)
		return in->fd;
	path = in->name;
	if (fstat(in->fd, &st) < 0) {
		int e = errno;

		close(in->fd);
		in->fd = -1;
		return axfs_error_sys(err, e, "cannot stat '%s'", path);
	}
	if (S_ISDIR(st.st_mode)) {
		close(in->fd);
		in->fd = -1;
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "cannot check '%s': it is a directory",
				      path);
	}
	in->is_file = S_ISREG(st.st_mode);
	rc = reader_fd_length(in->fd, &st, &in->len, &in->is_device);
	if (rc == -ENOTTY) {
		/* Pipes, character devices that are not MTD: a stream,
		 * read superblock first as far as it claims. */
		in->is_device = S_ISCHR(st.st_mode);
		in->len = UINT64_MAX;
	} else if (rc < 0) {
		close(in->fd);
		in->fd = -1;
		return axfs_error_sys(err, -rc, "cannot find the size of '%s'",
				      path);
	}
	return 0;
}

/* Copies a regular file, maps a device, reads a stream. */
int fsck_input_load(struct fsck_input *in, uint64_t max_memory,
		    struct axfs_error *err)
{
	int known = in->len != UINT64_MAX;

	if (known && in->len == 0)
		return 0;
	if (known && in->is_file)
		return image_input_load_file(in->fd, in->name, in->len, &in->p, err);
	if (known && in->len <= SIZE_MAX) {
		void *m = mmap(NULL, (size_t)in->len, PROT_READ, MAP_PRIVATE,
			       in->fd, 0);

		if (m != MAP_FAILED) {
			in->p = m;
			in->mapped = 1;
			madvise(m, (size_t)in->len, MADV_SEQUENTIAL);
			return 0;
		}
	}
	if (known)	/* an MTD character device: read what it holds */
		return image_input_load_file(in->fd, in->name, in->len, &in->p, err);
	return image_input_load_stream(in->fd, in->name, max_memory, 1, &in->p,
				 &in->len, err);
}

void fsck_release_pages(const uint8_t *img, int mapped, uint64_t from,
			uint64_t to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)(img + from), b = (uintptr_t)(img + to);

	if (!mapped || to <= from)
		return;
	/* Whole pages only: the partial ones at either end stay. */
	a = (a + page - 1) & ~(page - 1);
	b &= ~(page - 1);
	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
}

void fsck_input_close(struct fsck_input *in)
{
	if (in->mapped)
		munmap(in->p, (size_t)in->len);
	else
		free(in->p);
	if (in->fd >= 0)
		close(in->fd);
	in->p = NULL;
	in->fd = -1;
}
