// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_input.c - gets an image into one contiguous read-only view for the
 * checker: a copy of a regular file read with pread() (a mapping would
 * die of SIGBUS when the file is cut short during the check; a short read
 * is an error with a message, as in the reader), mmap of a block or MTD
 * device (which cannot shrink), a stream (a pipe, a FIFO, standard input,
 * another character device) read superblock first and only as far as it
 * claims (image_input.c), and the two segments of a split image joined
 * in memory.
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

struct input {
	int fd;
	const char *name;	/* path, or AXFS_STDIN_NAME for "-" */
	uint64_t len;
	int is_device;
	int is_file;		/* a regular file: copied, never mapped */
	int mapped;
	uint8_t *p;
};

static int input_open(struct input *in, const char *path,
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
static int input_load(struct input *in, uint64_t max_memory,
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

static void input_close(struct input *in)
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

int axfs_fsck_file(const char *path, const char *store_path,
		   const struct axfs_fsck_opts *o, struct axfs_fsck_result *res,
		   struct axfs_error *err)
{
	struct axfs_fsck_opts def;
	struct input a, b;
	uint64_t a_len;
	int rc;

	if (!o) {
		axfs_fsck_opts_init(&def);
		o = &def;
	}
	memset(res, 0, sizeof(*res));
	if ((rc = opts_size_check(o->struct_size, sizeof(*o),
				  "axfs_fsck_file", err)) < 0)
		return rc;
	rc = input_open(&a, path, err);
	if (rc < 0)
		return rc;
	rc = input_load(&a, o->max_memory, err);
	if (rc < 0) {
		input_close(&a);
		return rc;
	}
	if (!store_path) {
		rc = fsck_run_image(a.p ? a.p : (const uint8_t *)"", a.len, 0, 0,
				    a.is_device, a.mapped, a.name, o, res, err);
		input_close(&a);
		return rc;
	}
	/* A split image: join the two segments in memory. */
	a_len = a.len;
	rc = input_open(&b, store_path, err);
	if (rc == 0)
		rc = input_load(&b, o->max_memory, err);
	/* An mmap segment on a device (a NOR partition) ends at mmap_size;
	 * the rest of the partition is not part of the image. */
	if (rc == 0 && a.is_device && a.len >= AXFS_SUPER_SIZE &&
	    axfs_get_be32(a.p + AXFS_SB_MAGIC) == AXFS_MAGIC) {
		uint64_t m = axfs_get_be64(a.p + AXFS_SB_MMAP_SIZE);

		if (m >= AXFS_SUPER_SIZE && m < a.len)
			a_len = m;
	}
	if (rc == 0)
		rc = axfs_fsck_buffer(a.p, (size_t)a_len, b.p ? b.p :
				      (const uint8_t *)"", (size_t)b.len, a.name,
				      o, res, err);
	input_close(&a);
	input_close(&b);
	return rc;
}
