/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one escaping rule for names in text meant for people, as JSON has
 * json.h: the mkfs text report (report.c) and every human-readable
 * line of cmd/ (listings, diff, extract -v, fsck findings, messages)
 * show a name only through it.  Names come from images, archives and
 * trees that may be hostile: a newline would forge a line, an escape
 * sequence would reach the terminal.
 *
 * The rule: a byte below 0x20, DEL (0x7f), the backslash itself, each
 * byte that is not part of valid UTF-8 (json_utf8_seq()) and the C1
 * controls U+0080..U+009F (which some terminals obey) are written as a
 * backslash and three octal digits ("\012" for a newline); everything
 * else is copied.  The backslash is escaped so the text reads back
 * without ambiguity.
 */
#ifndef LIBAXFSIMG_INTERNAL_TEXT_H
#define LIBAXFSIMG_INTERNAL_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Escapes the n bytes at s into out, which has room for 4 * n + 1 bytes;
 * returns the length written (out is NUL-terminated). */
size_t text_escape(char *out, const char *s, size_t n);
/* Writes the n bytes at s to f, escaped. */
void text_write(FILE *f, const char *s, size_t n);

#endif
