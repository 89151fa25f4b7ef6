/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_outfile.h - atomic output: a temporary file beside the output,
 * renamed over it only when complete, and removed on failure or on a
 * signal.  axfs_build() writes images so; cmd/ its other outputs (split,
 * merge-profile, extract --tar).  Internal: not installed, not exported.
 */
#ifndef AXFS_OUTFILE_H
#define AXFS_OUTFILE_H

#include "axfs_error.h"

/* Atomic output helpers (also used by split and merge-profile). */
struct axfs_outfile {
	char *final_path;
	char *tmp_path;
	int fd;
};
int axfs_outfile_open(struct axfs_outfile *of, const char *path,
		      struct axfs_error *err);
/* fsync, rename over final_path. */
int axfs_outfile_commit(struct axfs_outfile *of, struct axfs_error *err);
/* Close and unlink the temporary file (safe to call twice). */
void axfs_outfile_abort(struct axfs_outfile *of);
/* Async-signal-safe: unlink every temporary file still open. */
void axfs_outfile_abort_all_signal_safe(void);

#endif
