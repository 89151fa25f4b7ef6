/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_stream.h - reads the data of a list of files of an open image, in
 * order, inflating ahead on worker threads.
 *
 * For `axfs extract` and anything else that wants every byte of many
 * files: the caller takes pieces (up to `chunk` bytes of one file, in
 * file order, then offset order) while up to `window` bytes of pieces
 * after them are being read on `threads` threads, each with its own
 * image handle (axfs_image_clone), so each thread's cblock cache serves
 * the consecutive pages of consecutive files.  Memory: about
 * window + threads * (cache + chunk) bytes, whatever the files' sizes.
 *
 * What a piece holds is exactly what axfs_image_read() returns for those
 * bytes; a page that cannot be read (a corrupt image) ends the stream
 * with the reader's error, after the pieces before it.
 */
#ifndef AXFS_STREAM_H
#define AXFS_STREAM_H

#include <stdint.h>
#include <stddef.h>
#include "axfs_error.h"
#include "axfs_reader.h"

struct axfs_stream;

struct axfs_stream_file {
	uint64_t ino;
	uint64_t size;			/* bytes to read (the inode's i_size) */
};

struct axfs_stream_opts {
	/* sizeof(this struct) as the caller compiled it; the options grow
	 * at their end (see axfs_build_opts). */
	size_t struct_size;
	unsigned int threads;		/* 0: read in the caller's thread, in
					 * axfs_stream_next */
	size_t chunk;			/* bytes per piece at most, a multiple
					 * of 4096 (0: 1 MiB) */
	size_t window;			/* bytes read ahead at most (0: 4 MiB
					 * per thread) */
};

struct axfs_stream_piece {
	size_t file;			/* index into the files array */
	uint64_t offset;		/* of data[0] in the file */
	const uint8_t *data;		/* valid until the next call */
	size_t len;			/* > 0 */
};

/*
 * Starts reading files[0..n) of img.  Neither is copied: both must stay
 * until axfs_stream_close.  The threads read through clones of img, so
 * the caller's thread may go on using img.  Files of size 0 give no
 * piece.
 */
int axfs_stream_open(struct axfs_stream **out, struct axfs_image *img,
		     const struct axfs_stream_file *files, size_t n,
		     const struct axfs_stream_opts *o, struct axfs_error *err);
/* 1 and the next piece; 0 at the end; < 0 with err on a read error
 * (then *p names the file and offset of the failing piece, data NULL). */
int axfs_stream_next(struct axfs_stream *s, struct axfs_stream_piece *p,
		     struct axfs_error *err);
/* Stops the threads (also early) and frees everything. */
void axfs_stream_close(struct axfs_stream *s);

#endif
