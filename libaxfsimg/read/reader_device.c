// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * reader_device.c - the length of what an image is read from: a regular
 * file (st_size), a block device such as /dev/loopN or /dev/mtdblockN
 * (BLKGETSIZE64), or an MTD character device /dev/mtdN (MEMGETINFO).  An
 * image may be shorter than its partition; the superblock's size says
 * where it ends.
 */
#include <errno.h>
#include <linux/fs.h>
#include <mtd/mtd-user.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int reader_fd_length(int fd, const struct stat *st, uint64_t *len,
		     int *is_device)
{
	off_t end;

	*is_device = 0;
	if (S_ISREG(st->st_mode)) {
		*len = (uint64_t)st->st_size;
		return 0;
	}
	if (S_ISBLK(st->st_mode)) {
		uint64_t sz;

		*is_device = 1;
		if (ioctl(fd, BLKGETSIZE64, &sz) == 0) {
			*len = sz;
			return 0;
		}
	} else if (S_ISCHR(st->st_mode)) {
		struct mtd_info_user mi;

		if (ioctl(fd, MEMGETINFO, &mi) == 0) {
			*is_device = 1;
			*len = mi.size;
			return 0;
		}
		return -ENOTTY;	/* not MTD: a pipe-like stream */
	} else {
		return -ENOTTY;
	}
	end = lseek(fd, 0, SEEK_END);
	if (end < 0)
		return -errno;
	*len = (uint64_t)end;
	return 0;
}
