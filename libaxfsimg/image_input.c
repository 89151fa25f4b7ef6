// SPDX-License-Identifier: LGPL-2.1-or-later
/* image_input.c - see image_input.h */
#include "foreign.h"
#include "image_input.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_format.h"
#include "budget.h"

int image_input_open(const char *path, const char **name,
		     struct axfs_error *err)
{
	int fd;

	if (strcmp(path, "-") == 0) {
		*name = IMAGE_INPUT_STDIN_NAME;
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
		if (fd < 0)
			return axfs_error_sys(err, errno, "cannot read "
					      "standard input");
		return fd;
	}
	*name = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return axfs_error_sys(err, errno, "cannot open '%s'", path);
	return fd;
}

int64_t image_input_read_upto(int fd, uint8_t *p, uint64_t want)
{
	uint64_t have = 0;

	while (have < want) {
		size_t ask = want - have > (1u << 30) ? (1u << 30) :
			     (size_t)(want - have);
		ssize_t n = read(fd, p + have, ask);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		have += (uint64_t)n;
	}
	return (int64_t)have;
}

/* image_input_load_stream(), after `plen` bytes of `prefix` were read. */
static int load(int fd, const char *name, uint64_t max, int keep_bad,
		const uint8_t *prefix, size_t plen, uint8_t **buf,
		uint64_t *len, struct axfs_error *err)
{
	uint64_t claimed, want, cap, have;
	uint8_t *p, *np;
	int64_t n;

	*buf = NULL;
	*len = 0;
	if (!max)
		max = BUDGET_STREAM_MAX_DEFAULT;
	cap = AXFS_SUPER_SIZE_EXT;
	p = malloc((size_t)cap);
	if (!p)
		return axfs_error_sys(err, ENOMEM, "'%s'", name);
	if (plen > cap)
		plen = (size_t)cap;
	if (plen)
		memcpy(p, prefix, plen);
	n = image_input_read_upto(fd, p + plen, cap - plen);
	if (n >= 0)
		n += (int64_t)plen;
	if (n < 0) {
		free(p);
		return axfs_error_sys(err, (int)-n, "cannot read '%s'", name);
	}
	have = (uint64_t)n;
	if (have < AXFS_SUPER_SIZE || (keep_bad &&
	    axfs_get_be32(p + AXFS_SB_MAGIC) != AXFS_MAGIC)) {
		if (keep_bad) {
			*buf = p;
			*len = have;
			return 0;
		}
		free(p);
		return axfs_error_set(err, AXFS_ERR_FORMAT, "'%s': byte %" PRIu64
				      ": the input ends before the end of the "
				      "%d-byte superblock: not an AXFS image",
				      name, have, AXFS_SUPER_SIZE);
	}
	if (axfs_get_be32(p + AXFS_SB_MAGIC) != AXFS_MAGIC) {
		uint32_t m = axfs_get_be32(p + AXFS_SB_MAGIC);
		const struct foreign_format *f = foreign_format(p, have);

		free(p);
		if (f)
			return axfs_error_set(err, AXFS_ERR_FORMAT, "'%s': byte "
					      "%" PRIu64 ": the magic of %s: not "
					      "an AXFS image (axfs reads AXFS "
					      "only)", name, f->offset, f->what);
		return axfs_error_set(err, AXFS_ERR_FORMAT, "'%s': byte %d: bad "
				      "magic 0x%08" PRIx32 " (expected 0x%08x): "
				      "not an AXFS image", name, AXFS_SB_MAGIC,
				      m, AXFS_MAGIC);
	}
	claimed = axfs_get_be64(p + AXFS_SB_SIZE);
	if (claimed > max) {
		free(p);
		return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': byte %d: the "
				      "superblock claims %" PRIu64 " bytes, more "
				      "than the %" PRIu64 " this reads from an "
				      "input that cannot be read in place (save "
				      "it to a file, or raise --max-memory)",
				      name, AXFS_SB_SIZE, claimed, max);
	}
	want = claimed > have ? claimed : have;
	while (have < want && have == cap) {
		cap = cap < (1u << 20) ? (1u << 20) : cap * 2;
		if (cap > want)
			cap = want;
		if (cap > SIZE_MAX) {
			free(p);
			return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': too "
					      "large for this machine", name);
		}
		np = realloc(p, (size_t)cap);
		if (!np) {
			free(p);
			return axfs_error_sys(err, ENOMEM, "'%s': %" PRIu64
					      " bytes", name, cap);
		}
		p = np;
		n = image_input_read_upto(fd, p + have, cap - have);
		if (n < 0) {
			free(p);
			return axfs_error_sys(err, (int)-n, "cannot read '%s'",
					      name);
		}
		have += (uint64_t)n;
	}
	*buf = p;
	*len = have;
	return 0;
}

int image_input_load_stream(int fd, const char *name, uint64_t max, int keep_bad,
		      uint8_t **buf, uint64_t *len, struct axfs_error *err)
{
	return load(fd, name, max, keep_bad, NULL, 0, buf, len, err);
}

int image_input_load_stream_prefixed(int fd, const char *name, uint64_t max,
			       const uint8_t *prefix, size_t plen,
			       uint8_t **buf, uint64_t *len,
			       struct axfs_error *err)
{
	return load(fd, name, max, 0, prefix, plen, buf, len, err);
}

/* Read [from, to) of the file into p + from.  A file that ends early has
 * "changed while it was read". */
static int read_range(int fd, const char *name, uint8_t *p, uint64_t from,
		      uint64_t to, struct axfs_error *err)
{
	while (from < to) {
		size_t ask = to - from > (1u << 30) ? (1u << 30) :
			     (size_t)(to - from);
		ssize_t n = pread(fd, p + from, ask, (off_t)from);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return axfs_error_sys(err, errno, "cannot read '%s' at "
					      "byte %" PRIu64, name, from);
		if (n == 0)
			return axfs_error_set(err, AXFS_ERR_IO, "'%s': byte %"
					      PRIu64 ": unexpected end of file: "
					      "the image changed while it was "
					      "read", name, from);
		from += (uint64_t)n;
	}
	return 0;
}

/*
 * Only the file's data extents are read (SEEK_DATA/SEEK_HOLE): the buffer
 * comes zeroed from calloc(), which for large sizes maps fresh zero pages
 * without touching them, so a hole costs neither reads nor resident
 * memory.  A sparse image claiming 4 GiB, nearly all hole, is then
 * checked at the cost of its few data pages, not 4 GiB of zeros copied.
 * Where the file system cannot tell holes (EINVAL), everything is read.
 */
static int read_extents(int fd, const char *name, uint8_t *p, uint64_t len,
			struct axfs_error *err)
{
	uint64_t pos = 0;

	while (pos < len) {
		off_t data = lseek(fd, (off_t)pos, SEEK_DATA);
		off_t hole;
		int rc;

		if (data < 0 && errno == ENXIO)
			return 0;	/* a hole up to the end; size checked after */
		if (data < 0)
			return read_range(fd, name, p, pos, len, err);
		if ((uint64_t)data >= len)
			return 0;
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0 || (uint64_t)hole > len)
			hole = (off_t)len;
		rc = read_range(fd, name, p, (uint64_t)data, (uint64_t)hole,
				err);
		if (rc)
			return rc;
		pos = (uint64_t)hole;
	}
	return 0;
}

int image_input_load_file(int fd, const char *name, uint64_t len, uint8_t **buf,
		    struct axfs_error *err)
{
	struct stat st;
	uint8_t *p;
	int rc;

	*buf = NULL;
	if (len > SIZE_MAX)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': too large "
				      "for this machine", name);
	p = calloc(len ? (size_t)len : 1, 1);
	if (!p)
		return axfs_error_sys(err, ENOMEM, "'%s': cannot hold its %"
				      PRIu64 " bytes", name, len);
	rc = read_extents(fd, name, p, len, err);
	if (rc) {
		free(p);
		return rc;
	}
	/* A file truncated while its extents were read ends in a "hole"
	 * past its new end: the size says so. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size < len) {
		free(p);
		return axfs_error_set(err, AXFS_ERR_IO, "'%s': byte %" PRIu64
				      ": unexpected end of file: the image "
				      "changed while it was read", name,
				      (uint64_t)st.st_size);
	}
	*buf = p;
	return 0;
}
