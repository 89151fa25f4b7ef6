// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkcramfs-xip - a cramfs image writer whose ELF files are execute-in-place,
 * for bench/kernel/run.sh's cramfs-xip row.
 *
 *   mkcramfs-xip [-q] [-N] [-n NAME] DIRECTORY IMAGE
 *
 * What `mkcramfs -X` of cramfs-tools does, which Debian does not ship
 * (util-linux's mkfs.cramfs writes no XIP images).  Written from the format
 * as Linux defines it (include/uapi/linux/cramfs_fs.h, fs/cramfs/README,
 * fs/cramfs/inode.c):
 *
 * - Every regular file that starts with the ELF magic is stored whole,
 *   uncompressed, in consecutive page-aligned 4 KiB blocks, each block
 *   pointer CRAMFS_BLK_FLAG_UNCOMPRESSED | CRAMFS_BLK_FLAG_DIRECT_PTR with
 *   the page's offset >> 2, and the last page zero-padded: that is the
 *   layout cramfs_physmem_mmap() maps straight from flash or RAM
 *   (consecutive direct uncompressed pointers, a last page with nothing
 *   else in it).  mkcramfs -X keeps only the loadable segments
 *   uncompressed; storing the whole file is simpler and maps the same
 *   pages, at the cost of the non-loaded sections (symbols, debug links)
 *   staying uncompressed too.  These pages go after all other data.
 * - Everything else as mkfs.cramfs writes it: a block pointer table (the
 *   end offset of each block) followed by zlib blocks of 4 KiB of input
 *   (compress2, level 9); symbolic links store their target the same way;
 *   devices keep their number in the size field; fifos and sockets and
 *   empty files have no data.
 * - Directory entries are sorted by name, the entries of each directory
 *   contiguous, directories laid out breadth first from the root.  Files
 *   of equal content (hard links among them) share their data, and so
 *   their inode number, as with mkfs.cramfs.  Superblock with
 *   CRAMFS_FLAG_FSID_VERSION_2 (size, CRC-32 of the image, file and block
 *   counts), CRAMFS_FLAG_SORTED_DIRS and, with XIP files,
 *   CRAMFS_FLAG_EXT_BLOCK_POINTERS.
 *
 * cramfs is host-endian; this writes little-endian images (x86, arm64,
 * riscv64 guests).  Limits of the format are errors, never truncations:
 * files of 16 MiB or more, uid > 65535, gid > 255, names over 252 bytes,
 * data beyond 256 MiB.  -N: no XIP at all (mkfs.cramfs's layout, to compare).
 * The image is written to a temporary file beside IMAGE, then renamed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <zlib.h>

#define PROG "mkcramfs-xip"
#define VERSION "1"

/* From include/uapi/linux/cramfs_fs.h (the format, not its code). */
#define CRAMFS_MAGIC 0x28cd3d45u
#define CRAMFS_SIGNATURE "Compressed ROMFS"
#define CRAMFS_FLAG_FSID_VERSION_2 0x00000001u
#define CRAMFS_FLAG_SORTED_DIRS 0x00000002u
#define CRAMFS_FLAG_EXT_BLOCK_POINTERS 0x00000800u
#define CRAMFS_BLK_FLAG_UNCOMPRESSED (1u << 31)
#define CRAMFS_BLK_FLAG_DIRECT_PTR (1u << 30)
#define CRAMFS_BLK_DIRECT_PTR_SHIFT 2
#define SUPER_SIZE 76u		/* struct cramfs_super */
#define INODE_SIZE 12u		/* struct cramfs_inode */
#define MAX_NAME 252u		/* CRAMFS_MAXPATHLEN */
#define MAX_FILE_SIZE ((1u << 24) - 1)
#define MAX_DATA_OFFSET (1u << 28)	/* 26-bit offset field, << 2 */
#define BLK 4096u		/* the kernel's PAGE_SIZE on the bench */

struct ent {
	char *name;		/* the entry's name, NULL for the root */
	char *path;		/* its path on the host */
	struct stat st;
	struct ent **kids;	/* directories: sorted entries */
	size_t nkids;
	uint32_t inode_off;	/* where its inode record is */
	uint32_t offset;	/* the inode's offset field, in bytes */
	uint32_t size;		/* the inode's size field */
	unsigned char *data;	/* XIP files, until written */
};

struct img {
	unsigned char *buf;
	size_t len, cap;
};

static bool quiet;
static bool no_xip;

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = xmalloc(a + b + 2);

	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

/* Room for N more bytes (zeroed) at the end of the image. */
static unsigned char *grow(struct img *im, size_t n)
{
	if (im->len + n > im->cap) {
		size_t cap = im->cap ? im->cap : 1u << 20;

		while (cap < im->len + n)
			cap *= 2;
		im->buf = realloc(im->buf, cap);
		if (!im->buf)
			die("out of memory (%zu bytes)", cap);
		memset(im->buf + im->cap, 0, cap - im->cap);
		im->cap = cap;
	}
	im->len += n;
	return im->buf + im->len - n;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

static int by_name(const void *a, const void *b)
{
	const struct ent *x = *(struct ent *const *)a;
	const struct ent *y = *(struct ent *const *)b;

	return strcmp(x->name, y->name);
}

static struct ent *scan(const char *path, const char *name)
{
	struct ent *e = xmalloc(sizeof(*e));
	DIR *d;
	struct dirent *de;
	size_t cap = 0;

	memset(e, 0, sizeof(*e));
	e->path = xmalloc(strlen(path) + 1);
	strcpy(e->path, path);
	e->name = name ? strdup(name) : NULL;
	if (lstat(path, &e->st) < 0)
		die("cannot stat '%s': %s", path, strerror(errno));
	if (e->st.st_uid > 0xffff)
		die("'%s': uid %u does not fit cramfs's 16 bits", path, (unsigned)e->st.st_uid);
	if (e->st.st_gid > 0xff)
		die("'%s': gid %u does not fit cramfs's 8 bits", path, (unsigned)e->st.st_gid);
	if (name && strlen(name) > MAX_NAME)
		die("'%s': name longer than cramfs's %u bytes", path, MAX_NAME);
	if (!S_ISDIR(e->st.st_mode))
		return e;
	d = opendir(path);
	if (!d)
		die("cannot open directory '%s': %s", path, strerror(errno));
	while ((errno = 0, de = readdir(d))) {
		char *sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (e->nkids == cap) {
			cap = cap ? 2 * cap : 16;
			e->kids = realloc(e->kids, cap * sizeof(*e->kids));
			if (!e->kids)
				die("out of memory");
		}
		sub = join(path, de->d_name);
		e->kids[e->nkids++] = scan(sub, de->d_name);
		free(sub);
	}
	if (errno)
		die("cannot read directory '%s': %s", path, strerror(errno));
	closedir(d);
	qsort(e->kids, e->nkids, sizeof(*e->kids), by_name);
	return e;
}

static unsigned char *read_all(const struct ent *e)
{
	size_t n = e->st.st_size, got = 0;
	unsigned char *buf = xmalloc(n);
	int fd = open(e->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		die("cannot open '%s': %s", e->path, strerror(errno));
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die("cannot read '%s': %s", e->path, r ? strerror(errno) : "file shrank");
		got += r;
	}
	close(fd);
	return buf;
}

/* All entries, breadth first from the root: the order of the directory
 * records and of the data. */
static struct ent **walk(struct ent *root, size_t *count)
{
	size_t cap = 64, n = 0, i, k;
	struct ent **all = xmalloc(cap * sizeof(*all));

	all[n++] = root;
	for (i = 0; i < n; i++) {
		for (k = 0; k < all[i]->nkids; k++) {
			if (n == cap) {
				cap *= 2;
				all = realloc(all, cap * sizeof(*all));
				if (!all)
					die("out of memory");
			}
			all[n++] = all[i]->kids[k];
		}
	}
	*count = n;
	return all;
}

static void put_inode(unsigned char *p, const struct ent *e, uint32_t namelen4)
{
	put_le32(p, (e->st.st_mode & 0xffff) | (uint32_t)e->st.st_uid << 16);
	put_le32(p + 4, e->size | (uint32_t)e->st.st_gid << 24);
	put_le32(p + 8, namelen4 | (e->offset >> 2) << 6);
}

/* A regular file's data already in the image, for files equal to it. */
struct seen {
	uint32_t size, crc;
	struct ent *e;
};

/* The earlier file whose content is DATA, if any (re-read to compare). */
static struct ent *same_as(const struct seen *seen, size_t n, const struct ent *e,
			   const unsigned char *data, uint32_t crc)
{
	size_t k;

	for (k = 0; k < n; k++) {
		unsigned char *other;
		bool same;

		if (seen[k].size != e->size || seen[k].crc != crc)
			continue;
		other = read_all(seen[k].e);
		same = !memcmp(other, data, e->size);
		free(other);
		if (same)
			return seen[k].e;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct img im = { 0 };
	struct ent *root, **all, **xip;
	struct seen *seen;
	size_t n, i, k, nxip = 0, nseen = 0;
	uint32_t blocks = 0, flags, xip_pages = 0;
	const char *name = "Compressed";
	char *tmp;
	unsigned char *sb;
	int opt, fd;
	FILE *out = NULL;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("Usage: %s [-q] [-N] [-n NAME] DIRECTORY IMAGE\n"
		       "A cramfs image of DIRECTORY whose ELF files are stored uncompressed and\n"
		       "page-aligned for execute-in-place (what mkcramfs -X does).\n"
		       "  -N       no XIP: every file zlib-compressed, as mkfs.cramfs does\n"
		       "  -n NAME  the volume name (16 bytes at most; default Compressed)\n"
		       "  -q       no summary on stderr\n", PROG);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("%s %s\n", PROG, VERSION);
		return 0;
	}
	while ((opt = getopt(argc, argv, "qNn:")) != -1) {
		switch (opt) {
		case 'q': quiet = true; break;
		case 'N': no_xip = true; break;
		case 'n':
			if (strlen(optarg) > 16)
				die("volume name '%s' is longer than 16 bytes", optarg);
			name = optarg;
			break;
		default:
			fprintf(stderr, "Try '%s --help'.\n", PROG);
			return 1;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "%s: need DIRECTORY and IMAGE; try '%s --help'.\n", PROG, PROG);
		return 1;
	}
	root = scan(argv[optind], NULL);
	if (!S_ISDIR(root->st.st_mode))
		die("'%s' is not a directory", argv[optind]);
	all = walk(root, &n);

	/* The superblock, then each directory's records, breadth first. */
	grow(&im, SUPER_SIZE);
	for (i = 0; i < n; i++) {
		struct ent *d = all[i];

		if (!S_ISDIR(d->st.st_mode))
			continue;
		d->offset = d->nkids ? (uint32_t)im.len : 0;
		for (k = 0; k < d->nkids; k++) {
			size_t len = strlen(d->kids[k]->name);

			d->kids[k]->inode_off = (uint32_t)im.len;
			memcpy(grow(&im, INODE_SIZE + ((len + 3) & ~3u)) + INODE_SIZE,
			       d->kids[k]->name, len);
		}
		if (im.len - (d->offset ? d->offset : im.len) > MAX_FILE_SIZE)
			die("'%s': directory too large for cramfs", d->path);
		d->size = d->nkids ? (uint32_t)(im.len - d->offset) : 0;
	}

	/* The data: block pointer tables and zlib blocks; XIP pages later. */
	seen = xmalloc(n * sizeof(*seen));
	xip = xmalloc(n * sizeof(*xip));
	for (i = 1; i < n; i++) {
		struct ent *e = all[i];
		unsigned char *data, *ptrs;
		uint32_t nblocks, b;

		if (S_ISCHR(e->st.st_mode) || S_ISBLK(e->st.st_mode)) {
			if (major(e->st.st_rdev) > 0xff || minor(e->st.st_rdev) > 0xff)
				die("'%s': device number does not fit cramfs's 16 bits", e->path);
			e->size = major(e->st.st_rdev) << 8 | minor(e->st.st_rdev);
			continue;
		}
		if (!S_ISREG(e->st.st_mode) && !S_ISLNK(e->st.st_mode))
			continue;
		if (e->st.st_size > (off_t)MAX_FILE_SIZE)
			die("'%s': %lld bytes, cramfs files are smaller than 16 MiB",
			    e->path, (long long)e->st.st_size);
		e->size = (uint32_t)e->st.st_size;
		if (!e->size)
			continue;
		if (S_ISLNK(e->st.st_mode)) {
			ssize_t r;

			data = xmalloc(e->size + 1);
			r = readlink(e->path, (char *)data, e->size + 1);
			if (r != (ssize_t)e->size)
				die("cannot read link '%s': %s", e->path,
				    r < 0 ? strerror(errno) : "it changed");
		} else {
			uint32_t crc;
			struct ent *first;

			data = read_all(e);
			crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), data, e->size);
			first = same_as(seen, nseen, e, data, crc);
			if (first) {
				e->offset = first->offset;
				free(data);
				continue;
			}
			seen[nseen++] = (struct seen){ e->size, crc, e };
		}
		if (im.len >= MAX_DATA_OFFSET)
			die("the data passes 256 MiB, beyond cramfs's offsets (at '%s')", e->path);
		e->offset = (uint32_t)im.len;
		nblocks = (e->size - 1) / BLK + 1;
		blocks += nblocks;
		grow(&im, 4 * (size_t)nblocks);
		if (!no_xip && S_ISREG(e->st.st_mode) && e->size >= 4 &&
		    !memcmp(data, "\177ELF", 4)) {
			e->data = data;
			xip[nxip++] = e;
			xip_pages += nblocks;
			continue;
		}
		for (b = 0; b < nblocks; b++) {
			uLong in = b + 1 < nblocks ? BLK : e->size - b * BLK;
			uLongf zlen = compressBound(in);
			unsigned char *z = grow(&im, zlen);

			if (compress2(z, &zlen, data + (size_t)b * BLK, in, Z_BEST_COMPRESSION) != Z_OK)
				die("zlib cannot compress '%s'", e->path);
			im.len -= compressBound(in) - zlen;
			memset(im.buf + im.len, 0, compressBound(in) - zlen);
			ptrs = im.buf + e->offset + 4 * b;
			put_le32(ptrs, (uint32_t)im.len);
		}
		grow(&im, (4 - im.len % 4) % 4);
		free(data);
	}

	/* The XIP pages: page-aligned, consecutive per file, zero-padded. */
	grow(&im, (BLK - im.len % BLK) % BLK);
	for (i = 0; i < nxip; i++) {
		struct ent *e = xip[i];
		uint32_t nblocks = (e->size - 1) / BLK + 1, b;

		if (im.len + (size_t)nblocks * BLK > 0xffffffffu)
			die("the image passes 4 GiB at '%s'", e->path);
		for (b = 0; b < nblocks; b++)
			put_le32(im.buf + e->offset + 4 * b,
				 (uint32_t)(im.len + (size_t)b * BLK) >> CRAMFS_BLK_DIRECT_PTR_SHIFT |
				 CRAMFS_BLK_FLAG_UNCOMPRESSED | CRAMFS_BLK_FLAG_DIRECT_PTR);
		memcpy(grow(&im, (size_t)nblocks * BLK), e->data, e->size);
		free(e->data);
	}
	grow(&im, (BLK - im.len % BLK) % BLK);

	/* Inode records, now that every offset is known. */
	for (i = 1; i < n; i++) {
		size_t len = strlen(all[i]->name);

		put_inode(im.buf + all[i]->inode_off, all[i], (uint32_t)((len + 3) / 4));
	}
	sb = im.buf;
	flags = CRAMFS_FLAG_FSID_VERSION_2 | CRAMFS_FLAG_SORTED_DIRS;
	if (nxip)
		flags |= CRAMFS_FLAG_EXT_BLOCK_POINTERS;
	put_le32(sb, CRAMFS_MAGIC);
	put_le32(sb + 4, (uint32_t)im.len);
	put_le32(sb + 8, flags);
	memcpy(sb + 16, CRAMFS_SIGNATURE, 16);
	put_le32(sb + 36, 0);		/* edition */
	put_le32(sb + 40, blocks);
	put_le32(sb + 44, (uint32_t)n);
	memcpy(sb + 48, name, strlen(name));
	put_inode(sb + 64, root, 0);
	put_le32(sb + 32, (uint32_t)crc32(crc32(0, Z_NULL, 0), im.buf, (uInt)im.len));

	tmp = xmalloc(strlen(argv[optind + 1]) + 16);
	sprintf(tmp, "%s.tmpXXXXXX", argv[optind + 1]);
	fd = mkstemp(tmp);
	mode_t mask = umask(0);

	umask(mask);
	if (fd >= 0 && fchmod(fd, 0644 & ~mask) < 0)
		die("cannot set the mode of '%s': %s", tmp, strerror(errno));
	if (fd < 0 || !(out = fdopen(fd, "wb")))
		die("cannot create a temporary file beside '%s': %s", argv[optind + 1], strerror(errno));
	if (fwrite(im.buf, 1, im.len, out) != im.len || fflush(out) || fsync(fd) || fclose(out)) {
		unlink(tmp);
		die("cannot write '%s': %s", tmp, strerror(errno));
	}
	if (rename(tmp, argv[optind + 1]) < 0) {
		unlink(tmp);
		die("cannot rename '%s' to '%s': %s", tmp, argv[optind + 1], strerror(errno));
	}
	if (!quiet)
		fprintf(stderr, "%s: %zu entries, %zu bytes, %zu XIP files (%u pages)\n",
			argv[optind + 1], n, im.len, nxip, (unsigned)xip_pages);
	return 0;
}
