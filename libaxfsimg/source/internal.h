/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* source/internal.h - what the source producers share, not exported */
#ifndef LIBAXFSIMG_SOURCE_INTERNAL_H
#define LIBAXFSIMG_SOURCE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The enum source_lossy bits for one extended attribute name: ACL for
 * system.posix_acl_*, else XATTR (plus SELINUX or CAPABILITY). */
unsigned int source_xattr_lossy(const char *name);

/* pread(2) of a host file at off, again after a signal: the directory
 * source and the host-file layer read their files with it. */
ssize_t source_pread(int fd, void *buf, size_t len, uint64_t off);

struct axfs_error;

/* The next bytes of a host file that had `size` bytes when scanned, from
 * *done on (advanced); at the end, an error if it grew; an error if it
 * shrank.  source_file_pread: len bytes at off, no further than size. */
int source_file_read(int fd, const char *path, uint64_t size, uint64_t *done,
		     void *buf, size_t len, size_t *got, struct axfs_error *err);
int source_file_pread(int fd, const char *path, uint64_t size, void *buf,
		      size_t len, uint64_t off, size_t *got,
		      struct axfs_error *err);

struct source;
struct source_opts;
struct axfs_image;
struct axfs_error;

/* The image source over an image already open (standard input read into
 * memory); it takes the image, and closes it on failure too. */
int source_image_take(struct source **out, struct axfs_image *img,
			    const char *name,
			    const struct source_opts *opts,
			    struct axfs_error *err);

/* The archive source on standard input when its first `plen` bytes were
 * already read into `prefix` (to see whether it is an image). */
int source_archive_open_stdin(struct source **out,
				    const unsigned char *prefix, size_t plen,
				    const struct source_opts *opts,
				    struct axfs_error *err);

#endif
