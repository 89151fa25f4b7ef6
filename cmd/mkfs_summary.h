/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd/mkfs_summary.h - the few lines that end a plain axfs mkfs */
#ifndef CMD_MKFS_SUMMARY_H
#define CMD_MKFS_SUMMARY_H

#include <stdio.h>
#include "axfs_build.h"

/*
 * Prints at most 4 lines on `f`: the image's size and the build's time,
 * the inodes and the file data with the ratio of the image to it, the
 * pages (XIP pages and bytes, compressed pages and their stored size,
 * byte-aligned), and the memory-mapped part or the padding when there is
 * one.  `seconds` is the build's wall time.
 */
void mkfs_print_summary(FILE *f, const char *image,
			const struct axfs_build_result *res, double seconds);

#endif
