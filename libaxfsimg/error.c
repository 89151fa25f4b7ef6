// SPDX-License-Identifier: LGPL-2.1-or-later
/* error.c - negative error codes plus a message buffer */
#include "axfs_error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int error_vset(struct axfs_error *err, int code, int errnum,
		      const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	err->sys_errno = errnum;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	if (errnum) {
		size_t n = strlen(err->msg);

		snprintf(err->msg + n, sizeof(err->msg) - n, ": %s",
			 strerror(errnum));
	}
	return code;
}

int axfs_error_set(struct axfs_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int axfs_error_sys(struct axfs_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, errnum == ENOMEM ? AXFS_ERR_NOMEM : AXFS_ERR_IO,
		   errnum, fmt, ap);
	va_end(ap);
	return errnum == ENOMEM ? AXFS_ERR_NOMEM : AXFS_ERR_IO;
}

void axfs_error_clear(struct axfs_error *err)
{
	if (err) {
		err->code = 0;
		err->sys_errno = 0;
		err->msg[0] = '\0';
	}
}

const char *axfs_strerror(int code)
{
	switch (code) {
	case AXFS_OK: return "success";
	case AXFS_ERR_IO: return "input/output error";
	case AXFS_ERR_NOMEM: return "out of memory";
	case AXFS_ERR_FORMAT: return "corrupt or not an AXFS image";
	case AXFS_ERR_INVALID: return "invalid input";
	case AXFS_ERR_LIMIT: return "beyond the limits of the AXFS format";
	case AXFS_ERR_UNSUPPORTED: return "not supported";
	case AXFS_ERR_PARSE: return "syntax error";
	case AXFS_ERR_NOT_FOUND: return "not found";
	case AXFS_ERR_INTERRUPTED: return "interrupted";
	case AXFS_ERR_EXISTS: return "already exists";
	case AXFS_ERR_LOOP: return "too many levels of symbolic links";
	}
	return "unknown error";
}

void axfs_log(const struct axfs_logger *lg, enum axfs_log_level level,
	      const char *fmt, ...)
{
	char buf[AXFS_ERROR_MSG_MAX];
	va_list ap;

	if (!lg || !lg->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	lg->fn(lg->ctx, level, buf);
}
