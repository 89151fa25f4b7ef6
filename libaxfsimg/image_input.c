// SPDX-License-Identifier: LGPL-2.1-or-later
/* image_input.c - see image_input.h */
#include "image_input.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "axfs_format.h"
#include "budget.h"

int image_input_open(const char *path, const char **name,
		     struct axfs_error *err)
{
	int fd;

	if (strcmp(path, "-") == 0) {
		*name = AXFS_STDIN_NAME;
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
		max = AXFS_STREAM_MAX_DEFAULT;
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

		free(p);
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

int image_input_load_file(int fd, const char *name, uint64_t len, uint8_t **buf,
		    struct axfs_error *err)
{
	uint64_t have = 0;
	uint8_t *p;

	*buf = NULL;
	if (len > SIZE_MAX)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': too large "
				      "for this machine", name);
	p = malloc(len ? (size_t)len : 1);
	if (!p)
		return axfs_error_sys(err, ENOMEM, "'%s': cannot hold its %"
				      PRIu64 " bytes", name, len);
	while (have < len) {
		size_t ask = len - have > (1u << 30) ? (1u << 30) :
			     (size_t)(len - have);
		ssize_t n = pread(fd, p + have, ask, (off_t)have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(p);
			return axfs_error_sys(err, e, "cannot read '%s' at "
					      "byte %" PRIu64, name, have);
		}
		if (n == 0) {
			free(p);
			return axfs_error_set(err, AXFS_ERR_IO, "'%s': byte %"
					      PRIu64 ": unexpected end of file: "
					      "the image changed while it was "
					      "read", name, have);
		}
		have += (uint64_t)n;
	}
	*buf = p;
	return 0;
}
