// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_input.c - gets an image into one contiguous read-only view for the
 * checker: mmap of a regular file or a block device, a copy for what
 * cannot be mapped (pipes, MTD character devices), and the two segments
 * of a split image joined in memory.
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
#include "reader_device.h"

/* ---- reading files -------------------------------------------------------- */

struct input {
	int fd;
	uint64_t len;
	int is_device;
	int mapped;
	uint8_t *p;
};

static int input_open(struct input *in, const char *path,
		      struct axfs_error *err)
{
	struct stat st;
	int rc;

	memset(in, 0, sizeof(*in));
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0)
		return axfs_error_sys(err, errno, "cannot open '%s'", path);
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
	rc = reader_fd_length(in->fd, &st, &in->len, &in->is_device);
	if (rc == -ENOTTY) {
		/* Pipes, character devices that are not MTD: read to the
		 * end. */
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

/* Maps the file, or reads it into memory when it cannot be mapped. */
static int input_load(struct input *in, const char *path,
		      struct axfs_error *err)
{
	uint64_t cap, have = 0;
	int known = in->len != UINT64_MAX;

	if (known && in->len == 0)
		return 0;
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
	cap = known ? in->len : (1u << 20);
	if (cap > SIZE_MAX)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "cannot check '%s': "
				      "too large for this machine", path);
	in->p = malloc((size_t)cap);
	if (!in->p)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "cannot allocate "
				      "%llu bytes to read '%s'",
				      (unsigned long long)cap, path);
	for (;;) {
		ssize_t n;

		if (have == cap) {
			uint8_t *nb;

			if (known)
				break;
			if (cap > SIZE_MAX / 2)
				return axfs_error_set(err, AXFS_ERR_LIMIT,
						      "cannot check '%s': too "
						      "large", path);
			nb = realloc(in->p, (size_t)cap * 2);
			if (!nb)
				return axfs_error_set(err, AXFS_ERR_NOMEM,
						      "out of memory reading "
						      "'%s'", path);
			in->p = nb;
			cap *= 2;
		}
		n = known ? pread(in->fd, in->p + have, (size_t)(cap - have),
				  (off_t)have) :
			read(in->fd, in->p + have, (size_t)(cap - have));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return axfs_error_sys(err, errno, "cannot read '%s'",
					      path);
		if (n == 0)
			break;
		have += (uint64_t)n;
	}
	in->len = have;
	return 0;
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
	rc = input_load(&a, path, err);
	if (rc < 0) {
		input_close(&a);
		return rc;
	}
	if (!store_path) {
		rc = fsck_run_image(a.p ? a.p : (const uint8_t *)"", a.len, 0, 0,
				    a.is_device, a.mapped, path, o, res, err);
		input_close(&a);
		return rc;
	}
	/* A split image: join the two segments in memory. */
	a_len = a.len;
	rc = input_open(&b, store_path, err);
	if (rc == 0)
		rc = input_load(&b, store_path, err);
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
				      (const uint8_t *)"", (size_t)b.len, path,
				      o, res, err);
	input_close(&a);
	input_close(&b);
	return rc;
}
