/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * opts_size.h - the check of an option struct's leading struct_size.
 * Option structs of the API grow at their end; the caller sets
 * struct_size to the size it was compiled with.  One size is known so
 * far (the first release's, pinned by tests/unit/test_abi.c): a later
 * release accepts the older sizes too and gives the fields an older
 * caller does not have their defaults.
 */
#ifndef LIBAXFSIMG_INTERNAL_OPTS_SIZE_H
#define LIBAXFSIMG_INTERNAL_OPTS_SIZE_H

#include <stddef.h>
#include "axfs_error.h"

static inline int opts_size_check(size_t got, size_t want, const char *fn,
				  struct axfs_error *err)
{
	if (got == want)
		return 0;
	return axfs_error_set(err, AXFS_ERR_INVALID, "%s: the options are "
			      "%zu bytes, this library knows %zu (set "
			      "struct_size to their sizeof)", fn, got, want);
}

#endif
