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

/* Reads until *have reaches `upto` (or the input ends), growing *p. */
static int fill(int fd, const char *name, uint8_t **p, uint64_t *cap,
		uint64_t *have, uint64_t upto, struct axfs_error *err)
{
	while (*have < upto && *have == *cap) {
		uint64_t nc = *cap < (1u << 20) ? (1u << 20) : *cap * 2;
		uint8_t *np;
		int64_t n;

		if (nc > upto)
			nc = upto;
		if (nc > SIZE_MAX)
			return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': too "
					      "large for this machine", name);
		np = realloc(*p, (size_t)nc);
		if (!np)
			return axfs_error_sys(err, ENOMEM, "'%s': %" PRIu64
					      " bytes", name, nc);
		*p = np;
		*cap = nc;
		n = image_input_read_upto(fd, *p + *have, nc - *have);
		if (n < 0)
			return axfs_error_sys(err, (int)-n, "cannot read '%s'",
					      name);
		*have += (uint64_t)n;
	}
	return 0;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The end of the last region descriptor the superblock names. */
static uint64_t descriptors_end(const uint8_t *sb)
{
	uint64_t end = AXFS_SUPER_SIZE_EXT;

	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		uint64_t e = add_sat(get_unaligned_be64(sb + AXFS_SB_REGION(r)),
				     AXFS_REGION_DESC_SIZE);

		if (e > end)
			end = e;
	}
	return end;
}

/* The end of the last region the descriptors in p[0, have) name (a
 * descriptor past `have` is the reader's error, not counted here). */
static uint64_t regions_end(const uint8_t *p, uint64_t have, uint64_t end)
{
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		uint64_t d = get_unaligned_be64(p + AXFS_SB_REGION(r));
		struct { uint64_t fsoffset, size, compressed_size, max_index;
			 uint8_t depth, incore; } ri;
		struct axfs_region_desc_onmedia desc;

		if (d > have || have - d < AXFS_REGION_DESC_SIZE)
			continue;
		memcpy(&desc, p + d, sizeof(desc));
		AXFS_REGION_DESC_DECODE(&ri, &desc);
		if (ri.size && add_sat(ri.fsoffset, AXFS_REGION_STORED(&ri)) > end)
			end = add_sat(ri.fsoffset, AXFS_REGION_STORED(&ri));
	}
	return end;
}

/*
 * image_input_load_stream(), after `plen` bytes of `prefix` were read.
 * What is read: the superblock, then its descriptors, then the regions
 * they name with the end magic in whole pages (what a writer following
 * format rule 3 writes; ours, writer.c) -- never a claimed size beyond
 * that: a superblock claiming 900 MiB for regions that end at 4 KiB is
 * refused after 4 KiB, not after reading 900 MiB of stream.
 */
static int load(int fd, const char *name, uint64_t max, int keep_bad,
		const uint8_t *prefix, size_t plen, uint8_t **buf,
		uint64_t *len, struct axfs_error *err)
{
	uint64_t claimed, cap, have, upto, named, need;
	uint8_t *p;
	int64_t n;
	int rc;

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
	    get_unaligned_be32(p + AXFS_SB_MAGIC) != AXFS_MAGIC)) {
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
	if (get_unaligned_be32(p + AXFS_SB_MAGIC) != AXFS_MAGIC) {
		uint32_t m = get_unaligned_be32(p + AXFS_SB_MAGIC);
		const struct foreign_format *f = foreign_format(p, have);

		free(p);
		if (f)
			return axfs_error_set(err, AXFS_ERR_FORMAT, "'%s': byte "
					      "%" PRIu64 ": the magic of %s: not "
					      "an AXFS image (axfs reads AXFS "
					      "only)", name, f->offset, f->what);
		return axfs_error_set(err, AXFS_ERR_FORMAT, "'%s': byte %zu: bad "
				      "magic 0x%08" PRIx32 " (expected 0x%08x): "
				      "not an AXFS image", name, AXFS_SB_MAGIC,
				      m, AXFS_MAGIC);
	}
	claimed = get_unaligned_be64(p + AXFS_SB_SIZE);
	if (claimed > max) {
		free(p);
		return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': byte %zu: the "
				      "superblock claims %" PRIu64 " bytes, more "
				      "than the %" PRIu64 " this reads from an "
				      "input that cannot be read in place (save "
				      "it to a file, or raise --max-memory)",
				      name, AXFS_SB_SIZE, claimed, max);
	}
	/* The descriptors (a short superblock read: only those in it). */
	if (have >= AXFS_SUPER_SIZE_EXT) {
		upto = descriptors_end(p);
		if ((rc = fill(fd, name, &p, &cap, &have,
			       upto < claimed ? upto : claimed, err)) < 0) {
			free(p);
			return rc;
		}
		named = regions_end(p, have, upto);
		need = add_sat(named, 4 + AXFS_PAGE_SIZE - 1) /
		       AXFS_PAGE_SIZE * AXFS_PAGE_SIZE;
		if (claimed > need && have >= upto) {
			free(p);
			return axfs_error_set(err, AXFS_ERR_FORMAT, "'%s': byte "
					      "%zu: the superblock claims %"
					      PRIu64 " bytes, but its regions "
					      "end at byte %" PRIu64 " (%" PRIu64
					      " with the end magic, in whole "
					      "pages): the rest of a stream is "
					      "not read (save it to a file to "
					      "read it)", name, AXFS_SB_SIZE,
					      claimed, named, need);
		}
	}
	rc = fill(fd, name, &p, &cap, &have, claimed > have ? claimed : have,
		  err);
	if (rc < 0) {
		free(p);
		return rc;
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
