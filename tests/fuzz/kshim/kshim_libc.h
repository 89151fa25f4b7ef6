/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kshim_libc.h - the libc side of the kernel shim: what kshim.c and the
 * harness need from user space, in plain C types, so that it can be
 * included both by files that see kshim.h's kernel type names and by
 * kshim_libc.c and kzlib.c, which see libc's and zlib's.
 */
#ifndef KSHIM_LIBC_H
#define KSHIM_LIBC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *kshim_alloc(size_t size, bool zero);
/* size bytes at a page-aligned address (an image "in memory"). */
void *kshim_alloc_pages(size_t size);
void kshim_free(const void *p);
/* Logs prefix, then fmt: one line, with a newline added if fmt lacks it. */
void kshim_vlog(int level, const char *prefix, const char *fmt, va_list ap);
__attribute__((noreturn)) void kshim_die(const char *what);

/*
 * The kernel's zlib API over user-space zlib (kzlib.c): the workspace
 * holds a z_stream; kshim_zinflate() advances the caller's buffer
 * pointers and counts as inflate() does.
 */
int kshim_zworkspace_size(void);
int kshim_zinit(void *ws, int window_bits);
int kshim_zinflate(void *ws, const uint8_t **in, unsigned int *in_len,
		   uint8_t **out, unsigned int *out_len,
		   unsigned long *total_out, int flush);
int kshim_zend(void *ws);
/* Bytes inflated since the last reset: the harness bounds its work. */
unsigned long long kshim_inflated(void);
void kshim_inflated_reset(void);

#endif /* KSHIM_LIBC_H */
