/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * image_input.h - getting an image into memory when it cannot be read in
 * place, for the reader (reader.c) and the checker (fsck_input.c) alike:
 * a non-seekable input (a pipe, a FIFO, standard input, a character
 * device) read superblock first, and a regular file copied with pread()
 * so that a file cut short while it is read is an error, never a SIGBUS.
 * Not installed.
 */
#ifndef LIBAXFSIMG_INTERNAL_IMAGE_INPUT_H
#define LIBAXFSIMG_INTERNAL_IMAGE_INPUT_H

#include <stdint.h>
#include "axfs_error.h"
#include "axfs_reader.h"

/* The name the reader and the checker give standard input ("-"). */
#define IMAGE_INPUT_STDIN_NAME	"<stdin>"

/*
 * Opens `path` for reading, "-" meaning standard input (a duplicate of
 * descriptor 0, so closing it leaves stdin open); *name is what messages
 * call it.  Returns the descriptor or a negative error code.
 */
int image_input_open(const char *path, const char **name,
		     struct axfs_error *err);

/*
 * Reads an image from a descriptor that cannot be read in place: the
 * superblock first (an input that ends before it, or whose magic is
 * wrong, stops there with the byte offset), then its descriptors, then
 * at most the size the superblock claims (less when the input ends
 * first; a claim past the end of the regions the descriptors name, with
 * the end magic, in whole pages, is refused unread), and never more
 * than `max` bytes (0: BUDGET_STREAM_MAX_DEFAULT).  The buffer grows with
 * what is really read, never with what is claimed.  *buf (malloc) and
 * *len on success.  With `keep_bad` (the checker, which reports what is
 * wrong with a superblock), a bad magic is no error: *buf holds the bytes
 * read so far, the superblock, and nothing more is read.
 */
int image_input_load_stream(int fd, const char *name, uint64_t max, int keep_bad,
		      uint8_t **buf, uint64_t *len, struct axfs_error *err);
/* The same when the first `plen` bytes (at most AXFS_SUPER_SIZE_EXT) were
 * already read from fd into `prefix` (mkfs - looking at what it got). */
int image_input_load_stream_prefixed(int fd, const char *name, uint64_t max,
			       const uint8_t *prefix, size_t plen,
			       uint8_t **buf, uint64_t *len,
			       struct axfs_error *err);
/* read() until `want` bytes or the end: the count read, or -errno. */
int64_t image_input_read_upto(int fd, uint8_t *p, uint64_t want);

/*
 * Copies `len` bytes of a regular file with pread(): a file that ends
 * sooner changed while it was read, and that is the error.  *buf (malloc)
 * on success.
 */
int image_input_load_file(int fd, const char *name, uint64_t len, uint8_t **buf,
		    struct axfs_error *err);

/* axfs_image_open_buffer() of a malloc'd buffer the image then owns
 * (freed with it, or here when the open fails): an image read from an
 * input (reader.c; the source of "mkfs -"). */
int reader_open_owned(struct axfs_image **out, uint8_t *buf,
		      uint64_t len, const char *name,
		      const struct axfs_open_opts *o,
		      struct axfs_error *err);

#endif
