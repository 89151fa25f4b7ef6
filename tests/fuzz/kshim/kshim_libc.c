// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kshim_libc.c - allocation, logging and aborting for the kernel shim,
 * written against libc (see kshim_libc.h).
 *
 * Every kernel message is formatted, so that a bad argument (a "%s" of
 * an unterminated name) is read and caught by ASan, and printed only
 * when KSHIM_VERBOSE is set in the environment: the fuzzer stays quiet.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kshim_libc.h"

void *kshim_alloc(size_t size, bool zero)
{
	/* malloc(0) may return NULL; the kernel's kmalloc(0) does not. */
	if (!size)
		size = 1;
	return zero ? calloc(1, size) : malloc(size);
}

void *kshim_alloc_pages(size_t size)
{
	void *p;

	return posix_memalign(&p, 4096, size ? size : 1) ? NULL : p;
}

void kshim_free(const void *p)
{
	free((void *)p);
}

void kshim_vlog(int level, const char *prefix, const char *fmt, va_list ap)
{
	static int verbose = -1;
	char line[1024];
	size_t n;

	n = (size_t)vsnprintf(line, sizeof(line), fmt, ap);
	if (verbose < 0)
		verbose = getenv("KSHIM_VERBOSE") != NULL;
	if (verbose)
		fprintf(stderr, "<%d>%s%s%s", level, prefix, line,
			n && n < sizeof(line) && line[n - 1] == '\n' ? "" : "\n");
}

void kshim_die(const char *what)
{
	fprintf(stderr, "kshim: %s\n", what);
	abort();
}
