/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_vfs.h - an image seen as the kernel driver shows it, for a
 * filesystem server (axfs mount, FUSE) or anything else that wants
 * struct stat, lookup, readdir, read and readlink by inode number.
 *
 * Inode numbers are the driver's: image inode i is number i + 1, so the
 * root is 1 (FUSE_ROOT_ID).  Attributes are what the driver sets: the
 * image timestamp for every time, st_nlink 2 + subdirectories for a
 * directory and 1 otherwise, st_rdev decoded as new_decode_dev() does,
 * st_size 0 for devices, fifos and sockets.  An inode the driver would
 * refuse (an unknown type, a symlink target of 0 or 4096+ bytes, a
 * device number above 32 bits) fails with -EIO, and so does any read
 * of a damaged page: only that inode or that read fails.
 *
 * Every function may be called from any number of threads at once.
 * They return 0 or a negative errno value (-ENOENT, -ENOTDIR, -EISDIR,
 * -EINVAL, -ENOMEM, -EIO); for -EIO, err (if not NULL) says what is
 * wrong with the image and where.
 */
#ifndef AXFS_VFS_H
#define AXFS_VFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "axfs_cblock_pool.h"
#include "axfs_error.h"
#include "axfs_reader.h"

#define AXFS_VFS_ROOT	1		/* inode number of the root */

struct axfs_vfs;

struct axfs_vfs_opts {
	/* sizeof(this struct) as the caller compiled it; the options grow
	 * at their end (see axfs_build_opts). */
	size_t struct_size;
	size_t cache_bytes;		/* inflated cblocks kept; 0: 32 MiB */
};

/* Serves img, which must stay open until axfs_vfs_free(); the vfs reads
 * through clones of it and never through img itself. */
int axfs_vfs_new(struct axfs_vfs **out, struct axfs_image *img,
		 const struct axfs_vfs_opts *o, struct axfs_error *err);
void axfs_vfs_free(struct axfs_vfs *v);
/* The shared cblock cache (statistics). */
struct axfs_cblock_pool *axfs_vfs_pool(struct axfs_vfs *v);

int axfs_vfs_getattr(struct axfs_vfs *v, uint64_t ino, struct stat *st,
		     struct axfs_error *err);
/* name (len bytes) in directory dir: its number and attributes. */
int axfs_vfs_lookup(struct axfs_vfs *v, uint64_t dir, const char *name,
		    size_t len, uint64_t *ino, struct stat *st,
		    struct axfs_error *err);

/*
 * Lists directory dir from position pos: 0 is ".", 1 "..", 2 + k the
 * k-th entry.  fn gets each entry's name (NUL-terminated), inode number,
 * file type (S_IFMT bits) and the position after it; a non-zero return
 * stops the listing (a full buffer).  Names the kernel would refuse
 * ('/' inside, ".", "..", empty, longer than 255 bytes) are left out.
 * An entry whose inode is damaged ends the listing; with nothing listed
 * yet in this call, it fails with -EIO.
 */
typedef int (*axfs_vfs_dirent_fn)(void *ctx, const char *name, uint64_t ino,
				  uint32_t type, uint64_t next_pos);
int axfs_vfs_readdir(struct axfs_vfs *v, uint64_t dir, uint64_t pos,
		     axfs_vfs_dirent_fn fn, void *ctx, struct axfs_error *err);

/* A regular file may be opened: 0, -EISDIR, -EINVAL or -EIO. */
int axfs_vfs_open(struct axfs_vfs *v, uint64_t ino, struct axfs_error *err);
/* pread() of a regular file: *got < len only at its end. */
int axfs_vfs_read(struct axfs_vfs *v, uint64_t ino, uint64_t off, void *buf,
		  size_t len, size_t *got, struct axfs_error *err);
/* The target of a symbolic link, NUL-terminated, into buf (len bytes;
 * AXFS_INFO_PAGE_SIZE always suffices). */
int axfs_vfs_readlink(struct axfs_vfs *v, uint64_t ino, char *buf,
		      size_t len, struct axfs_error *err);
void axfs_vfs_statfs(struct axfs_vfs *v, struct statvfs *st);

#endif
