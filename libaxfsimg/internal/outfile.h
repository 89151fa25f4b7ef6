/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outfile.h - atomic output: an unnamed temporary file (or a named
 * one beside the output), renamed over it only when complete, and removed
 * on failure or on a signal.  axfs_build() writes images so; cmd/ its other outputs (split,
 * merge-profile, extract --tar).  Internal: not installed, not exported.
 */
#ifndef LIBAXFSIMG_INTERNAL_OUTFILE_H
#define LIBAXFSIMG_INTERNAL_OUTFILE_H

#include "axfs_error.h"

/* Atomic output helpers (also used by split and merge-profile): an
 * unnamed O_TMPFILE where the filesystem has them (nothing is left by any
 * signal, SIGKILL included), else a named temporary file beside the output
 * (removed on failure and by SIGINT, SIGTERM, SIGHUP). */
struct outfile {
	char *final_path;
	char *tmp_path;		/* ".NAME.XXXXXX" beside it; for an unnamed
				 * file only the template until commit */
	int fd;
	int unnamed;		/* an O_TMPFILE without a name yet */
};
/* "-" is standard output (an unlinked temporary file copied out by
 * commit; refused when standard output is a terminal). */
int outfile_open(struct outfile *of, const char *path,
		 struct axfs_error *err);
/* fsync, rename over final_path. */
int outfile_commit(struct outfile *of, struct axfs_error *err);
/* Close and unlink the temporary file (safe to call twice). */
void outfile_abort(struct outfile *of);
/* Async-signal-safe: unlink every temporary file still open. */
void outfile_abort_all_signal_safe(void);

#endif
