// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_alloc.c - the checker's memory: every allocation sized from counts
 * the image's bytes bound, and charged against the memory limit
 * (axfs_fsck_opts.mem_limit); going over it is a finding, not a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- memory ------------------------------------------------------------- */

int fsck_mem_reserve(struct fsck *f, uint64_t bytes, uint64_t off,
		     const char *what)
{
	if (budget_take(&f->mem, bytes) < 0) {
		fsck_report(f, FC_LIMIT_MEMORY, off, FSCK_NO_INO,
			    "%s would need %llu bytes; %llu of the %llu-byte "
			    "limit are in use (if the image is trusted, raise "
			    "the limit with --max-memory)", what,
			    (unsigned long long)bytes,
			    (unsigned long long)f->mem.used,
			    (unsigned long long)f->mem.limit);
		return -1;
	}
	return 0;
}

void fsck_mem_release(struct fsck *f, uint64_t bytes)
{
	budget_give(&f->mem, bytes);
}

void *fsck_alloc(struct fsck *f, uint64_t nmemb, uint64_t size, uint64_t off,
		 const char *what)
{
	uint64_t bytes;
	void *p;

	if (__builtin_mul_overflow(nmemb, size, &bytes) || bytes > SIZE_MAX) {
		fsck_report(f, FC_LIMIT_MEMORY, off, FSCK_NO_INO,
			    "%s would need more than 2^64 bytes", what);
		return NULL;
	}
	if (fsck_mem_reserve(f, bytes, off, what) < 0)
		return NULL;
	p = calloc(1, bytes ? (size_t)bytes : 1);
	if (!p) {
		fsck_mem_release(f, bytes);
		fsck_report(f, FC_LIMIT_MEMORY, off, FSCK_NO_INO,
			    "%s: cannot allocate %llu bytes", what,
			    (unsigned long long)bytes);
	}
	return p;
}

void *fsck_try_alloc(struct fsck *f, uint64_t bytes)
{
	void *p;

	if (bytes > SIZE_MAX || budget_take(&f->mem, bytes) < 0)
		return NULL;
	p = malloc(bytes ? (size_t)bytes : 1);
	if (!p)
		budget_give(&f->mem, bytes);
	return p;
}

void fsck_free(struct fsck *f, void *p, uint64_t nmemb, uint64_t size)
{
	if (!p)
		return;
	free(p);
	fsck_mem_release(f, nmemb * size);
}

