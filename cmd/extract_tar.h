/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd/extract_tar.h - axfs extract --tar (cmd/extract_tar.c) */
#ifndef CMD_EXTRACT_TAR_H
#define CMD_EXTRACT_TAR_H

#include <stdint.h>

/* Writes IMAGE (STORE: its store segment, or NULL) as a pax archive to
 * FILE, "-" for standard output: only the subtrees the npaths PATHs name
 * when there are some (extract_paths.h); refused before anything is
 * written when the image's files would write more than max_ratio times
 * the data it holds (share.h); returns the exit code. */
int extract_tar(const char *image, const char *store, const char *file,
		char **paths, int npaths, uint64_t max_ratio);

#endif
