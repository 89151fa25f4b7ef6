// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * reader.c - opens an AXFS image and validates it before any use.
 *
 * The image is untrusted.  At open we check the superblock and all 18
 * region descriptors against the size of the file, load `strings` and the
 * 14 byte tables into memory (inflating those stored compressed, which
 * must inflate to exactly their size), and only then hand out inodes.
 * Every later table index and offset is checked where it is used
 * (reader_data.c, reader_cblock.c, reader_walk.c).  Errors name the byte offset of the
 * field at fault.
 *
 * The 2008 driver checks almost nothing (axfs(5), READING AN IMAGE
 * SAFELY); our strict mode refuses what the driver cannot mount or read
 * sanely.  Lenient mode (for
 * fsck) checks only what is needed to read anything at all, and leaves
 * regions that cannot be loaded marked unusable instead of failing.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>

#include "foreign.h"
#include "image_input.h"

/* The API's sizes (axfs_reader.h) are the format's. */
static_assert(AXFS_INFO_SIGNATURE_LEN == AXFS_SIGNATURE_LEN, "signature");
static_assert(AXFS_INFO_DIGEST_LEN == AXFS_SB_DIGEST_LEN, "digest");
static_assert(AXFS_INFO_REGIONS == AXFS_REGION_COUNT, "regions");
static_assert(AXFS_INFO_PAGE_SIZE == AXFS_PAGE_SIZE, "page size");

const char *axfs_region_name(unsigned int r)
{
	return axfs_format_region_name(r);
}

const char *reader_type_name(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "regular file";
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symbolic link";
	case S_IFCHR: return "character device";
	case S_IFBLK: return "block device";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	}
	return "unknown file type";
}

int reader_inode_of_type(struct axfs_image *img, uint64_t ino, uint32_t type,
			 struct axfs_inode_info *in, struct axfs_error *err)
{
	int rc = axfs_image_inode(img, ino, in, err);

	if (rc < 0)
		return rc;
	if ((in->mode & S_IFMT) != type)
		return reader_img_err(img, err, AXFS_ERR_INVALID, UINT64_MAX,
				      "inode %" PRIu64 " is a %s, not a %s", ino,
				      reader_type_name(in->mode),
				      reader_type_name(type));
	return 0;
}

/* ---- messages ------------------------------------------------------- */

static int vimg_err(const struct axfs_image *img, struct axfs_error *err,
		    int code, uint64_t off, const char *fmt, va_list ap)
{
	char msg[AXFS_ERROR_MSG_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (off == UINT64_MAX)
		return axfs_error_set(err, code, "'%s': %s", img->name, msg);
	return axfs_error_set(err, code, "'%s': byte %" PRIu64 ": %s",
			      img->name, off, msg);
}

int reader_img_err(const struct axfs_image *img, struct axfs_error *err,
		   int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vimg_err(img, err, code, off, fmt, ap);
	va_end(ap);
	return code;
}

int reader_entry_err(const struct axfs_image *img, struct axfs_error *err,
		     enum axfs_region r, uint64_t i, const char *fmt, ...)
{
	const struct axfs_region_info *ri = &img->reg[r];
	char msg[AXFS_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ri->compressed_size == 0 && ri->depth > 0)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      ri->fsoffset + i * ri->depth,
				      "%s[%" PRIu64 "]: %s",
				      axfs_region_name(r), i, msg);
	if (ri->depth > 0)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, ri->fsoffset,
				      "%s[%" PRIu64 "] (inflated byte %" PRIu64
				      " of the compressed table): %s",
				      axfs_region_name(r), i, i * ri->depth,
				      msg);
	/* Depth 0: every entry is the descriptor's depth byte. */
	return reader_img_err(img, err, AXFS_ERR_FORMAT,
			      ri->desc_offset + AXFS_RD_TABLE_DEPTH,
			      "%s[%" PRIu64 "] (depth-0 table): %s",
			      axfs_region_name(r), i, msg);
}

/* ---- raw I/O over one or two segments -------------------------------- */

static int pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENODATA;	/* the file shrank under us */
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int seg_read(struct axfs_image *img, int second, void *buf,
		    size_t len, uint64_t off, struct axfs_error *err)
{
	int fd = second ? img->store_fd : img->fd;
	const char *name = second ? img->store_name : img->name;
	int rc;

	if (!second && img->buf) {
		memcpy(buf, img->buf + off, len);
		return 0;
	}
	rc = pread_full(fd, buf, len, off);
	if (rc == -ENODATA)
		return axfs_error_set(err, AXFS_ERR_IO,
				      "'%s': byte %" PRIu64 ": unexpected end "
				      "of file: the image changed while it "
				      "was read", name, off);
	if (rc < 0)
		return axfs_error_sys(err, -rc, "'%s': cannot read %zu bytes "
				      "at byte %" PRIu64, name, len, off);
	return 0;
}

int axfs_image_pread(struct axfs_image *img, void *buf, size_t len,
		     uint64_t off, struct axfs_error *err)
{
	uint8_t *p = buf;
	int rc;

	if (off > img->file_size || len > img->file_size - off)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, off,
				      "read of %zu bytes runs past the end of "
				      "the image (%" PRIu64 " bytes)", len,
				      img->file_size);
	if (off < img->split_at) {
		uint64_t n = img->split_at - off;

		if (n > len)
			n = len;
		rc = seg_read(img, 0, p, (size_t)n, off, err);
		if (rc < 0)
			return rc;
		p += n;
		len -= (size_t)n;
		off += n;
	}
	if (len)
		return seg_read(img, 1, p, len, off - img->split_at, err);
	return 0;
}

/* Length of an open file or block device; 1 (and nothing read) for an
 * input that cannot be read in place: a pipe, a FIFO, a socket, a
 * character device that is not MTD. */
static int fd_length(int fd, const char *name, uint64_t *len,
		     struct axfs_error *err)
{
	struct stat st;
	int rc, dev;
	off_t end;

	if (fstat(fd, &st) < 0)
		return axfs_error_sys(err, errno, "cannot stat '%s'", name);
	if (S_ISDIR(st.st_mode))
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "'%s' is a directory, not an image",
				      name);
	rc = reader_fd_length(fd, &st, len, &dev);
	if (rc == 0)
		return 0;
	if (rc == -ENOTTY && !S_ISREG(st.st_mode))
		return 1;
	end = rc == -ENOTTY ? lseek(fd, 0, SEEK_END) : -1;
	if (end < 0)
		return axfs_error_sys(err, rc == -ENOTTY ? errno : -rc,
				      "cannot find the size of '%s'", name);
	*len = (uint64_t)end;
	return 0;
}

/* ---- tables ----------------------------------------------------------- */

int reader_region_usable(const struct axfs_image *img, enum axfs_region r,
			 struct axfs_error *err)
{
	if (!img->bad[r])
		return 0;
	if (err)
		*err = img->why[r];
	return img->why[r].code ? img->why[r].code : AXFS_ERR_FORMAT;
}

int reader_table_get(const struct axfs_image *img, enum axfs_region r,
		     uint64_t i, uint64_t *val, struct axfs_error *err)
{
	const struct axfs_region_info *ri = &img->reg[r];
	int rc = reader_region_usable(img, r, err);

	if (rc < 0)
		return rc;
	if (i >= img->entries[r])
		return reader_img_err(img, err, AXFS_ERR_FORMAT, ri->desc_offset,
				      "index %" PRIu64 " is past the end of "
				      "table '%s' (%" PRIu64 " entries)", i,
				      axfs_region_name(r), img->entries[r]);
	*val = ri->depth ? axfs_bytetable_get(ri->data, ri->depth, i) : 0;
	return 0;
}

/* Reads [off, off+len) of a data region, from memory if it is loaded.
 * The caller has checked off + len <= the region's size. */
int reader_region_read(struct axfs_image *img, enum axfs_region r,
		       uint64_t off, void *buf, size_t len,
		       struct axfs_error *err)
{
	const struct axfs_region_info *ri = &img->reg[r];

	if (len == 0)
		return 0;
	if (ri->data) {
		memcpy(buf, ri->data + off, len);
		return 0;
	}
	return axfs_image_pread(img, buf, len, ri->fsoffset + off, err);
}

int axfs_image_table(struct axfs_image *img, unsigned int r, uint64_t i,
		     uint64_t *val, struct axfs_error *err)
{
	if (r >= AXFS_REGION_COUNT || !AXFS_REGION_IS_TABLE(r))
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "region %u is not a byte table", r);
	return reader_table_get(img, r, i, val, err);
}

/* ---- inflating ---------------------------------------------------------- */

int reader_inflate(const struct axfs_image *img, const uint8_t *in,
		   size_t in_len, uint8_t *out, size_t out_len, size_t *got,
		   uint64_t off, const char *what, struct axfs_error *err)
{
	z_stream zs;
	int zr;

	memset(&zs, 0, sizeof(zs));
	/* inflateInit: a zlib (RFC 1950) header and window <= 15, as the
	 * kernel's zlib_inflateInit expects. */
	if (inflateInit(&zs) != Z_OK)
		return axfs_error_set(err, AXFS_ERR_NOMEM,
				      "cannot initialise zlib");
	zs.next_in = (Bytef *)(uintptr_t)in;
	zs.next_out = out;
	zr = Z_OK;
	/* avail_* are uInt: feed in chunks so > 4 GiB cannot overflow. */
	while (zr == Z_OK) {
		uInt ai = in_len > UINT32_MAX ? UINT32_MAX : (uInt)in_len;
		uInt ao = out_len > UINT32_MAX ? UINT32_MAX : (uInt)out_len;

		zs.avail_in = ai;
		zs.avail_out = ao;
		zr = inflate(&zs, Z_FINISH);
		in_len -= ai - zs.avail_in;
		out_len -= ao - zs.avail_out;
		if (zr == Z_BUF_ERROR && zs.avail_out == 0 && out_len > 0)
			zr = Z_OK;	/* only our chunking ran out */
		else if (zr == Z_BUF_ERROR && zs.avail_in == 0 && in_len > 0)
			zr = Z_OK;
	}
	*got = (size_t)zs.total_out;
	inflateEnd(&zs);
	if (zr == Z_STREAM_END)
		return 0;
	if (zr == Z_BUF_ERROR && out_len == 0)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, off,
				      "%s inflates to more than %zu bytes",
				      what, *got);
	if (zr == Z_BUF_ERROR)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, off,
				      "%s: zlib stream is truncated", what);
	return reader_img_err(img, err, AXFS_ERR_FORMAT, off,
			      "%s: corrupt zlib stream (%s)", what,
			      zs.msg ? zs.msg : zError(zr));
}

/* ---- opening -------------------------------------------------------------- */

static void parse_super(struct axfs_super_info *s, const uint8_t *b,
			size_t have)
{
	memset(s, 0, sizeof(*s));
	s->magic = get_unaligned_be32(b + AXFS_SB_MAGIC);
	memcpy(s->signature, b + AXFS_SB_SIGNATURE, AXFS_SIGNATURE_LEN);
	memcpy(s->digest, b + AXFS_SB_DIGEST, AXFS_SB_DIGEST_LEN);
	s->cblock_size = get_unaligned_be32(b + AXFS_SB_CBLOCK_SIZE);
	s->files = get_unaligned_be64(b + AXFS_SB_FILES);
	s->size = get_unaligned_be64(b + AXFS_SB_SIZE);
	s->blocks = get_unaligned_be64(b + AXFS_SB_BLOCKS);
	s->mmap_size = get_unaligned_be64(b + AXFS_SB_MMAP_SIZE);
	for (int r = 0; r < AXFS_REGION_COUNT; r++)
		s->region_desc[r] = get_unaligned_be64(b + AXFS_SB_REGION(r));
	s->version_major = b[AXFS_SB_VERSION_MAJOR];
	s->version_minor = b[AXFS_SB_VERSION_MINOR];
	s->version_sub = b[AXFS_SB_VERSION_SUB];
	s->compression_type = b[AXFS_SB_COMPRESSION_TYPE];
	s->timestamp = get_unaligned_be64(b + AXFS_SB_TIMESTAMP);
	s->page_shift = have > AXFS_SB_PAGE_SHIFT ? b[AXFS_SB_PAGE_SHIFT] : 0;
}

/* Not AXFS: named when it is another image (SquashFS, EROFS, ...). */
static int bad_magic(struct axfs_image *img, struct axfs_error *err)
{
	uint8_t b[FOREIGN_PROBE_SIZE];
	size_t n = img->seg0_len < sizeof(b) ? (size_t)img->seg0_len :
		   sizeof(b);
	const struct foreign_format *f = NULL;
	struct axfs_error ignored;

	if (seg_read(img, 0, b, n, 0, &ignored) == 0)
		f = foreign_format(b, n);
	if (f)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, f->offset,
				      "the magic of %s: not an AXFS image "
				      "(axfs reads AXFS only)", f->what);
	return reader_img_err(img, err, AXFS_ERR_FORMAT, AXFS_SB_MAGIC,
			      "bad magic 0x%08" PRIx32 " (expected 0x%08x): "
			      "not an AXFS image", img->sb.magic, AXFS_MAGIC);
}

/*
 * Superblock checks.  The magic is needed in both modes (without it the
 * file is not AXFS at all); the rest only in strict mode, where they are
 * what the 2008 driver needs to mount the image.
 */
static int check_super(struct axfs_image *img, struct axfs_error *err)
{
	const struct axfs_super_info *s = &img->sb;
	uint32_t cb = s->cblock_size;

	if (s->magic != AXFS_MAGIC)
		return bad_magic(img, err);
	if (img->lenient) {
		img->cblock_ok = cb > 0 && cb <= READER_MAX_CBLOCK_LENIENT;
		img->limit = img->file_size;
		return 0;
	}
	/* strncmp over 16 bytes of "Advanced XIP FS\0": all 16 must match. */
	if (memcmp(s->signature, AXFS_SIGNATURE, AXFS_SIGNATURE_LEN) != 0)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      AXFS_SB_SIGNATURE, "bad signature "
				      "(expected \"%s\" and a NUL)",
				      AXFS_SIGNATURE);
	if (s->compression_type != AXFS_COMPRESSION_ZLIB)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      AXFS_SB_COMPRESSION_TYPE,
				      "unknown compression type %u (only 0, "
				      "zlib, exists)", s->compression_type);
	if (!AXFS_CBLOCK_SIZE_OK(cb))
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      AXFS_SB_CBLOCK_SIZE, "cblock_size %" PRIu32
				      " is not a power of two between %u and %u",
				      cb, AXFS_CBLOCK_MIN, AXFS_CBLOCK_MAX);
	img->cblock_ok = 1;
	if (s->size < AXFS_SUPER_SIZE + 4)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, AXFS_SB_SIZE,
				      "image size %" PRIu64 " is smaller than "
				      "a superblock and the end magic", s->size);
	if (s->size > img->file_size) {
		if (!img->store_name && s->mmap_size < s->size &&
		    img->file_size >= s->mmap_size)
			return reader_img_err(img, err, AXFS_ERR_FORMAT,
					     AXFS_SB_SIZE, "image size %" PRIu64
					     " is larger than the file (%" PRIu64
					     " bytes): this looks like the mmap "
					     "segment of a split image (mmap_size"
					     " %" PRIu64 "); give its store "
					     "segment too (--store FILE)",
					     s->size,
					     img->file_size, s->mmap_size);
		return reader_img_err(img, err, AXFS_ERR_FORMAT, AXFS_SB_SIZE,
				     "image size %" PRIu64 " is larger than "
				     "the %s (%" PRIu64 " bytes): truncated "
				     "image", s->size, img->store_name ?
				     "two segments together" : "file",
				     img->file_size);
	}
	if (s->mmap_size > s->size)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      AXFS_SB_MMAP_SIZE, "mmap_size %" PRIu64
				      " is larger than the image (%" PRIu64
				      " bytes)", s->mmap_size, s->size);
	if (s->files == 0 || s->files > AXFS_MAX_INODES)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, AXFS_SB_FILES,
				      "inode count %" PRIu64 " is not between 1 "
				      "and %llu", s->files, AXFS_MAX_INODES);
	img->limit = s->size;
	return 0;
}

static int check_end_magic(struct axfs_image *img, struct axfs_error *err)
{
	uint8_t b[4];
	uint64_t off = img->sb.size - 4;
	int rc;

	if (img->lenient)
		return 0;
	rc = axfs_image_pread(img, b, 4, off, err);
	if (rc < 0)
		return rc;
	if (get_unaligned_be32(b) != AXFS_MAGIC)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, off,
				      "the magic is missing from the last 4 "
				      "bytes of the image (found 0x%08" PRIx32
				      "): incomplete image", get_unaligned_be32(b));
	return 0;
}

/* Reads and checks one region descriptor. */
static int read_desc(struct axfs_image *img, enum axfs_region r,
		     struct axfs_error *err)
{
	struct axfs_region_info *ri = &img->reg[r];
	uint64_t d = img->sb.region_desc[r];
	struct axfs_region_desc_onmedia b;
	uint64_t stored;
	int rc;

	ri->desc_offset = d;
	if (d > img->limit || img->limit - d < AXFS_REGION_DESC_SIZE)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      AXFS_SB_REGION(r), "the descriptor of "
				      "region '%s' (at byte %" PRIu64 ") lies "
				      "past the end of the image (%" PRIu64
				      " bytes)", axfs_region_name(r), d,
				      img->limit);
	rc = axfs_image_pread(img, &b, sizeof(b), d, err);
	if (rc < 0)
		return rc;
	AXFS_REGION_DESC_DECODE(ri, &b);

	/* The driver never touches an empty region. */
	if (ri->size == 0)
		return 0;
	stored = AXFS_REGION_STORED(ri);
	if (ri->fsoffset > img->limit || stored > img->limit - ri->fsoffset)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, d,
				      "region '%s' extends past the end of the "
				      "image (fsoffset %" PRIu64 " + %s %" PRIu64
				      " > %" PRIu64 " bytes)",
				      axfs_region_name(r), ri->fsoffset,
				      ri->compressed_size ? "compressed size" :
				      "size", stored, img->limit);
	if (!AXFS_REGION_IS_TABLE(r))
		return 0;
	if (ri->depth > AXFS_TABLE_DEPTH_MAX)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      d + AXFS_RD_TABLE_DEPTH, "table '%s' has "
				      "byte depth %u (at most %d)",
				      axfs_region_name(r), ri->depth,
				      AXFS_TABLE_DEPTH_MAX);
	if (!img->lenient && ri->depth &&
	    ri->max_index > ri->size / ri->depth)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      d + AXFS_RD_MAX_INDEX, "table '%s' is "
				      "too small for its %" PRIu64 " entries of "
				      "%u bytes (size %" PRIu64 ")",
				      axfs_region_name(r), ri->max_index,
				      ri->depth, ri->size);
	return 0;
}

/* Strings, the byte tables, and any data region stored compressed live
 * in memory; the rest is read on demand. */
static int region_is_loaded(const struct axfs_image *img, enum axfs_region r)
{
	return budget_region_loaded(r, img->reg[r].compressed_size);
}

static int load_region(struct axfs_image *img, enum axfs_region r,
		       struct axfs_error *err)
{
	struct axfs_region_info *ri = &img->reg[r];
	uint64_t d = ri->desc_offset;
	uint8_t *data, *z;
	size_t got;
	int rc;

	if (!region_is_loaded(img, r) || ri->size == 0)
		return 0;
	if (ri->size > READER_MAX_INCORE)
		return reader_img_err(img, err, AXFS_ERR_LIMIT,
				     d + AXFS_RD_SIZE, "region '%s' is %" PRIu64
				     " bytes; this reader loads at most %llu",
				     axfs_region_name(r), ri->size,
				     READER_MAX_INCORE);
	if (!img->lenient &&
	    ri->size > budget_region_max(r, img->sb.files, img->sb.blocks))
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				     d + AXFS_RD_SIZE, "region '%s' claims %"
				     PRIu64 " bytes; the superblock's %" PRIu64
				     " inodes and %" PRIu64 " nodes allow at "
				     "most %" PRIu64, axfs_region_name(r),
				     ri->size, img->sb.files, img->sb.blocks,
				     budget_region_max(r, img->sb.files,
						      img->sb.blocks));
	if (ri->compressed_size &&
	    ri->size / AXFS_ZLIB_MAX_RATIO > ri->compressed_size + 1)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				     d + AXFS_RD_SIZE, "region '%s' claims "
				     "%" PRIu64 " bytes from a %" PRIu64 "-byte"
				     " zlib stream, more than zlib can expand",
				     axfs_region_name(r), ri->size,
				     ri->compressed_size);
	/* The region and, while it inflates, its stream. */
	if (budget_take(&img->mem, ri->size + ri->compressed_size) < 0)
		return reader_img_err(img, err, AXFS_ERR_LIMIT,
				     d + AXFS_RD_SIZE, "region '%s' needs %"
				     PRIu64 " bytes; %" PRIu64 " of the %" PRIu64
				     "-byte memory budget are in use (if the "
				     "image is trusted, raise it with "
				     "--max-memory)", axfs_region_name(r),
				     ri->size + ri->compressed_size,
				     img->mem.used, img->mem.limit);
	budget_give(&img->mem, ri->compressed_size);
	data = malloc((size_t)ri->size);
	if (!data)
		return axfs_error_sys(err, ENOMEM, "'%s': region '%s' (%" PRIu64
				      " bytes)", img->name,
				      axfs_region_name(r), ri->size);
	if (!ri->compressed_size) {
		rc = axfs_image_pread(img, data, (size_t)ri->size,
				      ri->fsoffset, err);
		if (rc < 0) {
			free(data);
			return rc;
		}
	} else {
		char what[64];

		z = malloc((size_t)ri->compressed_size);
		if (!z) {
			free(data);
			return axfs_error_sys(err, ENOMEM, "'%s': region '%s'",
					      img->name, axfs_region_name(r));
		}
		rc = axfs_image_pread(img, z, (size_t)ri->compressed_size,
				      ri->fsoffset, err);
		snprintf(what, sizeof(what), "region '%s'",
			 axfs_region_name(r));
		if (rc == 0)
			rc = reader_inflate(img, z, (size_t)ri->compressed_size,
					    data, (size_t)ri->size, &got,
					    ri->fsoffset, what, err);
		free(z);
		if (rc == 0 && got != ri->size)
			rc = reader_img_err(img, err, AXFS_ERR_FORMAT, d +
					    AXFS_RD_SIZE, "region '%s' inflates "
					    "to %zu bytes, not its size %" PRIu64,
					    axfs_region_name(r), got, ri->size);
		if (rc < 0) {
			free(data);
			return rc;
		}
	}
	img->owned[r] = data;
	ri->data = data;
	return 0;
}

/* The entries the superblock counts for table r: one an inode, one a
 * node (one more for cblock_offset's sentinel). */
static uint64_t counted_entries(const struct axfs_image *img,
				enum axfs_region r)
{
	switch (r) {
	case AXFS_R_INODE_FILE_SIZE: case AXFS_R_INODE_NAME_OFFSET:
	case AXFS_R_INODE_NUM_ENTRIES: case AXFS_R_INODE_MODE_INDEX:
	case AXFS_R_INODE_ARRAY_INDEX:
	case AXFS_R_MODES: case AXFS_R_UIDS: case AXFS_R_GIDS:
		return img->sb.files;
	case AXFS_R_CBLOCK_OFFSET:
		return img->sb.blocks < UINT64_MAX ? img->sb.blocks + 1 :
		       img->sb.blocks;
	default:
		return img->sb.blocks;
	}
}

/*
 * A depth-0 table reads as 0 everywhere and holds no bytes: it has as
 * many entries as the image's size (so that every loop is bounded by
 * it), or, in strict mode, as the superblock counts when that is more.
 * A sparse file's pages all share one zero page, so a 4 KiB image may
 * hold 262145 nodes whose node_index is all zeros: what mkfs writes must
 * read back.  Entries only bound indexes; no loop runs over them.
 */
static void compute_entries(struct axfs_image *img, enum axfs_region r)
{
	const struct axfs_region_info *ri = &img->reg[r];

	if (img->bad[r]) {
		img->entries[r] = 0;
	} else if (ri->depth == 0) {
		uint64_t n = img->lenient ? 0 : counted_entries(img, r);

		img->entries[r] = n > img->limit ? n : img->limit;
	} else {
		img->entries[r] = ri->size / ri->depth;
	}
}

static const enum axfs_region inode_tables[] = {
	AXFS_R_INODE_FILE_SIZE, AXFS_R_INODE_NAME_OFFSET,
	AXFS_R_INODE_NUM_ENTRIES, AXFS_R_INODE_MODE_INDEX,
	AXFS_R_INODE_ARRAY_INDEX,
};
static const enum axfs_region node_tables[] = {
	AXFS_R_NODE_TYPE, AXFS_R_NODE_INDEX,
};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Every inode (node) table must hold the superblock's count. */
static int check_count(struct axfs_image *img, const enum axfs_region *t,
		       size_t n, uint64_t want, uint64_t field,
		       const char *what, struct axfs_error *err)
{
	for (size_t i = 0; i < n; i++) {
		enum axfs_region r = t[i];

		if (img->entries[r] < want)
			return reader_img_err(img, err, AXFS_ERR_FORMAT,
					      img->reg[r].desc_offset +
					      AXFS_RD_SIZE, "table '%s' has %"
					      PRIu64 " entries, fewer than the %"
					      PRIu64 " %s the superblock counts "
					      "(byte %" PRIu64 ")",
					      axfs_region_name(r),
					      img->entries[r], want, what, field);
	}
	return 0;
}

static uint64_t min_entries(const struct axfs_image *img,
			    const enum axfs_region *t, size_t n)
{
	uint64_t m = UINT64_MAX;

	for (size_t i = 0; i < n; i++)
		if (img->entries[t[i]] < m)
			m = img->entries[t[i]];
	return m;
}

/* What the driver checks at mount: the root is a non-empty directory. */
static int check_root(struct axfs_image *img, struct axfs_error *err)
{
	struct axfs_inode_info root;
	int rc = axfs_image_inode(img, 0, &root, err);

	if (rc < 0)
		return rc;
	if ((root.mode & S_IFMT) != S_IFDIR)
		return reader_entry_err(img, err, AXFS_R_MODES, root.mode_index,
					"the root inode is a %s (mode 0%o), not "
					"a directory", reader_type_name(root.mode),
					root.mode);
	if (root.num_entries == 0)
		return reader_entry_err(img, err, AXFS_R_INODE_NUM_ENTRIES, 0,
					"the root directory is empty; the "
					"driver refuses to mount it (\"empty "
					"filesystem\")");
	if (root.array_index == 0 ||
	    root.array_index > img->n_inodes ||
	    root.num_entries > img->n_inodes - root.array_index)
		return reader_entry_err(img, err, AXFS_R_INODE_ARRAY_INDEX, 0,
					"the root's entries are inodes [%" PRIu64
					", +%" PRIu64 "), outside [1, %" PRIu64
					")", root.array_index, root.num_entries,
					img->n_inodes);
	return 0;
}

static int open_common(struct axfs_image *img, const struct axfs_open_opts *o,
		       struct axfs_error *err)
{
	uint8_t sbuf[AXFS_SUPER_SIZE_EXT];
	size_t have;
	int rc;

	img->lenient = o && o->lenient;
	img->split_at = UINT64_MAX;
	img->file_size = img->seg0_len;
	if (img->seg0_len < AXFS_SUPER_SIZE)
		return reader_img_err(img, err, AXFS_ERR_FORMAT, 0,
				      "the file is too short for an AXFS "
				      "superblock (%" PRIu64 " bytes, need %d)",
				      img->seg0_len, AXFS_SUPER_SIZE);
	have = img->seg0_len < sizeof(sbuf) ? (size_t)img->seg0_len :
		sizeof(sbuf);
	rc = seg_read(img, 0, sbuf, have, 0, err);
	if (rc < 0)
		return rc;
	parse_super(&img->sb, sbuf, have);

	if (img->store_name) {
		uint64_t store_len, m = img->sb.mmap_size;

		if (img->sb.magic != AXFS_MAGIC) {
			uint8_t m4[4];

			/* Swapped segments: say so rather than "bad magic". */
			if (pread(img->store_fd, m4, 4, 0) == 4 &&
			    get_unaligned_be32(m4) == AXFS_MAGIC)
				return reader_img_err(img, err, AXFS_ERR_FORMAT,
					AXFS_SB_MAGIC, "no AXFS superblock, "
					"but the store segment '%s' starts with "
					"one: the segments are swapped (give the "
					"mmap segment first)", img->store_name);
			return check_super(img, err);
		}
		rc = fd_length(img->store_fd, img->store_name, &store_len,
			       err);
		if (rc < 0)
			return rc;
		if (m < AXFS_SUPER_SIZE || m > img->seg0_len)
			return reader_img_err(img, err, AXFS_ERR_FORMAT,
					      AXFS_SB_MMAP_SIZE, "mmap_size %"
					      PRIu64 " does not fit the mmap "
					      "segment (%" PRIu64 " bytes): not "
					      "the first half of a split image",
					      m, img->seg0_len);
		if (m >= img->sb.size)
			return reader_img_err(img, err, AXFS_ERR_INVALID,
					      AXFS_SB_MMAP_SIZE, "mmap_size %"
					      PRIu64 " covers the whole image "
					      "(%" PRIu64 " bytes): the image is "
					      "not split, yet a store segment "
					      "'%s' was given", m, img->sb.size,
					      img->store_name);
		img->seg0_len = m;
		img->split_at = m;
		if (store_len > UINT64_MAX - m)
			store_len = UINT64_MAX - m;
		img->file_size = m + store_len;
	}
	rc = check_super(img, err);
	if (rc < 0)
		return rc;
	rc = check_end_magic(img, err);
	if (rc < 0)
		return rc;

	img->mem.limit = o && o->max_memory ? o->max_memory :
			 budget_default(img->file_size);
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		struct axfs_error *e = img->lenient ? &img->why[r] : err;

		rc = read_desc(img, (enum axfs_region)r, e);
		if (rc == 0)
			rc = load_region(img, (enum axfs_region)r, e);
		if (rc < 0) {
			if (!img->lenient)
				return rc;
			if (rc == AXFS_ERR_IO || rc == AXFS_ERR_NOMEM) {
				if (err)
					*err = *e;
				return rc;
			}
			img->bad[r] = 1;	/* every use reports why */
		}
	}
	for (int r = AXFS_R_NODE_TYPE; r < AXFS_REGION_COUNT; r++)
		compute_entries(img, (enum axfs_region)r);
	if (img->lenient) {
		uint64_t ni = min_entries(img, inode_tables,
					  NELEM(inode_tables));
		uint64_t nn = min_entries(img, node_tables, NELEM(node_tables));

		img->n_inodes = ni > AXFS_MAX_INODES ? AXFS_MAX_INODES : ni;
		img->n_nodes = nn;
		return 0;
	}
	rc = check_count(img, inode_tables, NELEM(inode_tables),
			 img->sb.files, AXFS_SB_FILES, "inodes", err);
	if (rc < 0)
		return rc;
	rc = check_count(img, node_tables, NELEM(node_tables),
			 img->sb.blocks, AXFS_SB_BLOCKS, "nodes", err);
	if (rc < 0)
		return rc;
	img->n_inodes = img->sb.files;
	img->n_nodes = img->sb.blocks;
	return check_root(img, err);
}

static struct axfs_image *image_new(const char *name)
{
	struct axfs_image *img = calloc(1, sizeof(*img));

	if (!img)
		return NULL;
	img->fd = -1;
	img->store_fd = -1;
	img->origin = img;
	img->name = strdup(name ? name : "(buffer)");
	if (!img->name) {
		free(img);
		return NULL;
	}
	return img;
}

static int open_store(struct axfs_image *img, const struct axfs_open_opts *o,
		      struct axfs_error *err)
{
	if (!o || !o->store_path)
		return 0;
	img->store_name = strdup(o->store_path);
	if (!img->store_name)
		return axfs_error_sys(err, ENOMEM, "'%s'", o->store_path);
	img->store_fd = open(o->store_path, O_RDONLY | O_CLOEXEC);
	if (img->store_fd < 0)
		return axfs_error_sys(err, errno, "cannot open '%s'",
				      o->store_path);
	return 0;
}

int axfs_image_open(struct axfs_image **out, const char *path,
		    const struct axfs_open_opts *o, struct axfs_error *err)
{
	const char *name = path;
	struct axfs_image *img;
	int fd, rc;

	*out = NULL;
	if (o && (rc = opts_size_check(o->struct_size, sizeof(*o),
				       "axfs_image_open", err)) < 0)
		return rc;
	fd = image_input_open(path, &name, err);
	if (fd < 0)
		return fd;
	img = image_new(name);
	if (!img) {
		close(fd);
		return axfs_error_sys(err, ENOMEM, "'%s'", name);
	}
	img->fd = fd;
	rc = fd_length(img->fd, name, &img->seg0_len, err);
	if (rc == 1) {
		/* Read it into memory: superblock first, then what it
		 * claims, within the budget. */
		rc = image_input_load_stream(img->fd, name, o ? o->max_memory : 0,
				       0, &img->own_buf, &img->seg0_len, err);
		img->buf = img->own_buf;
		close(img->fd);
		img->fd = -1;
	}
	if (rc == 0)
		rc = open_store(img, o, err);
	if (rc == 0)
		rc = open_common(img, o, err);
	if (rc < 0)
		goto fail;
	*out = img;
	return 0;
fail:
	axfs_image_close(img);
	return rc;
}

/*
 * An image whose bytes are in memory: borrowed (axfs_image_open_buffer),
 * or owned (`own`: reader_open_owned), freed with the image or here when
 * the open fails.
 */
static int open_in_memory(struct axfs_image **out, const uint8_t *buf,
			  uint8_t *own, uint64_t len, const char *name,
			  const struct axfs_open_opts *o, struct axfs_error *err)
{
	struct axfs_image *img = image_new(name);
	int rc;

	*out = NULL;
	if (!img) {
		free(own);
		return axfs_error_sys(err, ENOMEM, "image buffer");
	}
	img->buf = buf;
	img->own_buf = own;
	img->seg0_len = len;
	rc = open_store(img, o, err);
	if (rc == 0)
		rc = open_common(img, o, err);
	if (rc < 0) {
		axfs_image_close(img);
		return rc;
	}
	*out = img;
	return 0;
}

int axfs_image_open_buffer(struct axfs_image **out, const void *buf,
			   size_t len, const char *name,
			   const struct axfs_open_opts *o,
			   struct axfs_error *err)
{
	int rc;

	*out = NULL;
	if (o && (rc = opts_size_check(o->struct_size, sizeof(*o),
				       "axfs_image_open_buffer", err)) < 0)
		return rc;
	return open_in_memory(out, buf, NULL, len, name, o, err);
}

int reader_open_owned(struct axfs_image **out, uint8_t *buf,
		      uint64_t len, const char *name,
		      const struct axfs_open_opts *o,
		      struct axfs_error *err)
{
	return open_in_memory(out, buf, buf, len, name, o, err);
}

void axfs_image_close(struct axfs_image *img)
{
	if (!img)
		return;
	for (size_t i = 0; i < READER_CBLOCK_CACHE; i++)
		free(img->cblk[i].data);
	free(img->cin);
	libdeflate_free_decompressor(img->ld);
	if (!img->is_clone) {
		for (int r = 0; r < AXFS_REGION_COUNT; r++)
			free(img->owned[r]);
		if (img->fd >= 0)
			close(img->fd);
		if (img->store_fd >= 0)
			close(img->store_fd);
		free(img->store_name);
		free(img->name);
		free(img->own_buf);
	}
	free(img);
}

int axfs_image_clone(struct axfs_image **out, const struct axfs_image *img,
		     struct axfs_error *err)
{
	struct axfs_image *c = malloc(sizeof(*c));

	*out = NULL;
	if (!c)
		return axfs_error_sys(err, ENOMEM, "'%s': image handle",
				      img->name);
	/* Everything but the cblock cache is read-only after open, and
	 * pread() on a shared descriptor is thread-safe. */
	*c = *img;
	memset(c->cblk, 0, sizeof(c->cblk));
	c->cblk_clock = 0;
	c->cin = NULL;
	c->ld = NULL;
	c->pool = NULL;
	c->is_clone = 1;
	*out = c;
	return 0;
}

const char *axfs_image_name(const struct axfs_image *img)
{
	return img->name;
}

uint64_t axfs_image_file_size(const struct axfs_image *img)
{
	return img->file_size;
}

const struct axfs_super_info *axfs_image_super(const struct axfs_image *img)
{
	return &img->sb;
}

const struct axfs_region_info *axfs_image_region(const struct axfs_image *img,
						 unsigned int r)
{
	if (r >= AXFS_REGION_COUNT)
		return NULL;
	return &img->reg[r];
}

/* ---- inodes ------------------------------------------------------------ */

static int inode_table(struct axfs_image *img, enum axfs_region r,
		       uint64_t ino, uint64_t *v, struct axfs_error *err)
{
	return reader_table_get(img, r, ino, v, err);
}

int axfs_image_inode(struct axfs_image *img, uint64_t ino,
		     struct axfs_inode_info *out, struct axfs_error *err)
{
	const struct axfs_region_info *st = &img->reg[AXFS_R_STRINGS];
	uint64_t v, mi;
	const char *name, *nul;
	int rc;

	memset(out, 0, sizeof(*out));
	if (ino >= img->n_inodes) {
		for (size_t i = 0; i < NELEM(inode_tables); i++) {
			rc = reader_region_usable(img, inode_tables[i], err);
			if (rc < 0)
				return rc;
		}
		return reader_img_err(img, err, AXFS_ERR_FORMAT, img->lenient ?
				      UINT64_MAX : AXFS_SB_FILES, "inode %"
				      PRIu64 " does not exist (the image has %"
				      PRIu64 ")", ino, img->n_inodes);
	}
	out->ino = ino;
	if ((rc = inode_table(img, AXFS_R_INODE_FILE_SIZE, ino,
			      &out->file_size, err)) < 0 ||
	    (rc = inode_table(img, AXFS_R_INODE_NAME_OFFSET, ino,
			      &out->name_offset, err)) < 0 ||
	    (rc = inode_table(img, AXFS_R_INODE_NUM_ENTRIES, ino,
			      &out->num_entries, err)) < 0 ||
	    (rc = inode_table(img, AXFS_R_INODE_MODE_INDEX, ino,
			      &out->mode_index, err)) < 0 ||
	    (rc = inode_table(img, AXFS_R_INODE_ARRAY_INDEX, ino,
			      &out->array_index, err)) < 0)
		return rc;

	/* One mode_index selects mode, uid and gid (axfs(5), INODES). */
	mi = out->mode_index;
	for (int r = AXFS_R_MODES; r <= AXFS_R_GIDS; r++) {
		if (mi < img->entries[r] || img->bad[r])
			continue;
		return reader_entry_err(img, err, AXFS_R_INODE_MODE_INDEX, ino,
					"inode %" PRIu64 ": mode index %" PRIu64
					" is past the end of table '%s' (%"
					PRIu64 " entries)", ino, mi,
					axfs_region_name(r), img->entries[r]);
	}
	if ((rc = reader_table_get(img, AXFS_R_MODES, mi, &v, err)) < 0)
		return rc;
	out->mode = (uint32_t)(v & 0xffff);	/* umode_t is 16 bits */
	if ((rc = reader_table_get(img, AXFS_R_UIDS, mi, &v, err)) < 0)
		return rc;
	out->uid = (uint32_t)v;
	if ((rc = reader_table_get(img, AXFS_R_GIDS, mi, &v, err)) < 0)
		return rc;
	out->gid = (uint32_t)v;

	/* The driver sets i_size = file_size, and 0 for device nodes,
	 * fifos and sockets (file_size holds their rdev). */
	switch (out->mode & S_IFMT) {
	case S_IFREG: case S_IFDIR: case S_IFLNK:
		out->size = out->file_size;
		break;
	default:
		out->size = 0;
	}

	/* The name: NUL-terminated inside strings (the driver strlen()s). */
	if ((rc = reader_region_usable(img, AXFS_R_STRINGS, err)) < 0)
		return rc;
	if (out->name_offset >= st->size)
		return reader_entry_err(img, err, AXFS_R_INODE_NAME_OFFSET, ino,
					"inode %" PRIu64 ": name offset %" PRIu64
					" is past the end of the strings region "
					"(%" PRIu64 " bytes)", ino,
					out->name_offset, st->size);
	name = (const char *)st->data + out->name_offset;
	nul = memchr(name, 0, (size_t)(st->size - out->name_offset));
	if (!nul)
		return reader_img_err(img, err, AXFS_ERR_FORMAT,
				      st->compressed_size ? st->fsoffset :
				      st->fsoffset + out->name_offset,
				      "inode %" PRIu64 ": its name (strings "
				      "offset %" PRIu64 ") runs off the end of "
				      "the strings region without a NUL", ino,
				      out->name_offset);
	out->name = name;
	out->name_len = (size_t)(nul - name);
	return 0;
}
