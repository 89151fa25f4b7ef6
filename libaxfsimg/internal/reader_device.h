/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * reader_device.h - what the reader (read/reader_device.c) lends fsck's
 * input (fsck/fsck_input.c): the length of what an image is read from.
 */
#ifndef LIBAXFSIMG_INTERNAL_READER_DEVICE_H
#define LIBAXFSIMG_INTERNAL_READER_DEVICE_H

#include <stdint.h>

struct stat;

/*
 * Length of an open file (st_size), block device (BLKGETSIZE64) or MTD
 * character device (MEMGETINFO); *is_device is set for the last two.
 * -ENOTTY for something else (a pipe, a character device that is not
 * MTD: read it to its end), another -errno when a device fails.
 */
int reader_fd_length(int fd, const struct stat *st, uint64_t *len,
		     int *is_device);

#endif
