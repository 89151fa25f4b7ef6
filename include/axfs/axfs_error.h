/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_error.h - how libaxfsimg reports failure.
 *
 * The library never prints and never exits.  Every fallible call returns a
 * negative enum axfs_errcode (or NULL) and, when given a struct axfs_error,
 * fills it with a human-readable message that already names the file and,
 * where one applies, the line:column or byte offset.  Messages follow git's
 * style: lowercase, the object quoted, no trailing period.
 */
#ifndef AXFS_ERROR_H
#define AXFS_ERROR_H

#include <stddef.h>

enum axfs_errcode {
	AXFS_OK = 0,
	AXFS_ERR_IO = -1,		/* a system call failed (errno kept) */
	AXFS_ERR_NOMEM = -2,
	AXFS_ERR_FORMAT = -3,		/* an image is corrupt or not AXFS */
	AXFS_ERR_INVALID = -4,		/* bad argument or bad input data */
	AXFS_ERR_LIMIT = -5,		/* beyond what the format can store */
	AXFS_ERR_UNSUPPORTED = -6,
	AXFS_ERR_PARSE = -7,		/* CSV / YAML / archive syntax */
	AXFS_ERR_NOT_FOUND = -8,
	AXFS_ERR_INTERRUPTED = -9,	/* cancelled by the caller */
	AXFS_ERR_EXISTS = -10,
	AXFS_ERR_LOOP = -11,		/* too many symbolic links (ELOOP) */
};

#define AXFS_ERROR_MSG_MAX 1024

struct axfs_error {
	int code;		/* enum axfs_errcode, 0 when nothing failed */
	int sys_errno;		/* errno for AXFS_ERR_IO, else 0 */
	char msg[AXFS_ERROR_MSG_MAX];
};

/* Fill err (may be NULL) and return code. */
int axfs_error_set(struct axfs_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Like axfs_error_set with AXFS_ERR_IO, appending ": strerror(errnum)". */
int axfs_error_sys(struct axfs_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void axfs_error_clear(struct axfs_error *err);
const char *axfs_strerror(int code);



/*
 * Warnings and progress go through a caller-supplied logger; the library
 * itself never writes to stdout or stderr.  A NULL logger drops messages.
 */
enum axfs_log_level {
	AXFS_LOG_ALERT = -1,	/* a warning shown even with -q: a likely
				 * mistake (a profile entry that matches
				 * nothing) that must not pass unnoticed */
	AXFS_LOG_WARN = 0,	/* shown unless -q */
	AXFS_LOG_INFO = 1,	/* shown with -v */
	AXFS_LOG_DEBUG = 2,	/* shown with -vv */
};

struct axfs_logger {
	void (*fn)(void *ctx, enum axfs_log_level level, const char *msg);
	void *ctx;
};

void axfs_log(const struct axfs_logger *lg, enum axfs_log_level level,
	      const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#endif
