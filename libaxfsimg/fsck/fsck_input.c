// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_input.c - the image as the checker reads it.  A regular file or a
 * block device is never loaded: each check reads with pread() what it
 * needs (the metadata regions once, into memory charged to the budget;
 * data pages, cblocks and slack through a window of FSCK_WINDOW_SIZE
 * bytes), so memory does not grow with the image's data.  A mapping would
 * die of SIGBUS when the file is cut short during the check; a short read
 * is an error with a message, as in the reader.  An MTD device (which
 * cannot shrink) is mapped, a stream (a pipe, a FIFO, standard input,
 * another character device) read superblock first and only as far as it
 * claims (image_input.c).  fsck.c's axfs_fsck_file() opens the image
 * (and the second segment of a split image) here and checks it.
 */
#include <errno.h>
#include <inttypes.h>
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

/* Leaves a regular file and a block device to pread() (nothing is read
 * here: checks read what they need, fsck_src_read()), maps another
 * device, reads a stream. */
int fsck_input_load(struct fsck_input *in, uint64_t max_memory,
		    struct axfs_error *err)
{
	int known = in->len != UINT64_MAX;
	struct stat st;

	if (known && in->len == 0)
		return 0;
	if (known && (in->is_file || (fstat(in->fd, &st) == 0 &&
				      S_ISBLK(st.st_mode)))) {
		in->use_fd = 1;
		return 0;
	}
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

/* ---- reading the image ---------------------------------------------------- */

int fsck_src_read(const struct fsck_src *s, uint64_t off, void *buf,
		  uint64_t n, uint64_t *bad)
{
	uint8_t *out = buf;

	while (n) {
		int i = off < s->len[0] ? 0 : 1;
		uint64_t at = i ? off - s->len[0] : off;
		uint64_t k = s->len[i] > at ? s->len[i] - at : 0;
		ssize_t got;

		if (k > n)
			k = n;
		if (k == 0) {	/* a caller's bug: nothing is there */
			*bad = off;
			return -ENODATA;
		}
		if (s->mem[i]) {
			memcpy(out, s->mem[i] + at, (size_t)k);
			got = (ssize_t)k;
		} else {
			if (k > (1u << 30))
				k = 1u << 30;
			got = pread(s->fd[i], out, (size_t)k, (off_t)at);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				*bad = off;
				return got < 0 ? -errno : -ENODATA;
			}
		}
		out += got;
		off += (uint64_t)got;
		n -= (uint64_t)got;
	}
	return 0;
}

const uint8_t *fsck_src_view(const struct fsck_src *s, struct fsck_window *w,
			     uint64_t off, uint64_t n, int *rc, uint64_t *bad)
{
	uint64_t total = s->len[0] + s->len[1], want;

	/* Inside one segment in memory: no copy. */
	if (s->mem[0] && off + n <= s->len[0])
		return s->mem[0] + off;
	if (s->mem[1] && off >= s->len[0] && off + n <= total)
		return s->mem[1] + (off - s->len[0]);
	if (off >= w->start && off + n <= w->start + w->len)
		return w->buf + (off - w->start);
	/* Fill the window from off, as far as the image goes. */
	want = total - off < w->cap ? total - off : w->cap;
	if (want < n) {
		*rc = -ENODATA;
		*bad = total;
		return NULL;
	}
	/* Allocated on first use: an image in memory never needs it. */
	if (!w->buf && !(w->buf = malloc((size_t)w->cap))) {
		*rc = -ENOMEM;
		*bad = off;
		return NULL;
	}
	w->len = 0;
	*rc = fsck_src_read(s, off, w->buf, want, bad);
	if (*rc < 0)
		return NULL;
	w->start = off;
	w->len = want;
	return w->buf;
}

uint64_t fsck_src_data(const struct fsck_src *s, uint64_t off)
{
	int i = off < s->len[0] ? 0 : 1;
	uint64_t at = i ? off - s->len[0] : off;
	off_t d;

	if (s->mem[i] || at >= s->len[i])
		return off;
	d = lseek(s->fd[i], (off_t)at, SEEK_DATA);
	if (d < 0 && errno == ENXIO)	/* a hole up to the end */
		return off + (s->len[i] - at);
	if (d < 0 || (uint64_t)d <= at)
		return off;
	if ((uint64_t)d > s->len[i])
		d = (off_t)s->len[i];
	return off + ((uint64_t)d - at);
}

void fsck_read_failed(struct fsck *f, int rc, uint64_t bad)
{
	if (f->read_rc)
		return;
	if (rc == -ENODATA)
		f->read_rc = axfs_error_set(f->err, AXFS_ERR_IO, "'%s': byte %"
					    PRIu64 ": unexpected end of file: "
					    "the image changed while it was "
					    "read", f->name, bad);
	else
		f->read_rc = axfs_error_sys(f->err, -rc, "cannot read '%s' at "
					    "byte %" PRIu64, f->name, bad);
	f->stop = 1;
}

const uint8_t *fsck_bytes(struct fsck *f, uint64_t off, uint64_t n)
{
	const uint8_t *p;
	uint64_t bad = off;
	int rc = 0;

	if (f->read_rc)
		return NULL;
	p = fsck_src_view(&f->src, &f->win, off, n, &rc, &bad);
	if (!p)
		fsck_read_failed(f, rc, bad);
	return p;
}

const uint8_t *fsck_region_view(struct fsck *f, enum axfs_region r,
				uint64_t off, uint64_t n)
{
	const struct fsck_region *R = &f->r[r];

	if (R->data)
		return R->data + off;
	return fsck_bytes(f, R->fsoffset + off, n);
}

int fsck_scan_nonzero(struct fsck *f, int r, uint64_t off, uint64_t n,
		      uint64_t *first)
{
	const struct fsck_region *R = r >= 0 ? &f->r[r] : NULL;
	uint64_t base = R ? R->fsoffset : 0, pos = 0;

	if (R && R->data)
		return fsck_first_nonzero(R->data + off, n, first);
	while (pos < n) {
		uint64_t at = base + off + pos, next, k, i;
		const uint8_t *p;

		/* A hole reads as zeros: skip it unread. */
		next = fsck_src_data(&f->src, at);
		if (next > at) {
			pos += next - at < n - pos ? next - at : n - pos;
			continue;
		}
		k = n - pos < f->win.cap ? n - pos : f->win.cap;
		p = fsck_bytes(f, at, k);
		if (!p)
			return 0;
		if (fsck_first_nonzero(p, k, &i)) {
			*first = pos + i;
			return 1;
		}
		pos += k;
	}
	return 0;
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
