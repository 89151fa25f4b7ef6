/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * json.h - the one JSON string writer of the project: the mkfs
 * report (report.c) and every --json of cmd/ (through cmd/json.h), so
 * that the command writes names exactly as the library does.  Internal
 * (libaxfsimg/internal/): not installed, not exported.
 */
#ifndef LIBAXFSIMG_INTERNAL_JSON_H
#define LIBAXFSIMG_INTERNAL_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at s (0 if there is none), with the
 * rules Python's decoder applies (no overlongs, no surrogates). */
size_t json_utf8_seq(const unsigned char *s, size_t n);

/*
 * The n bytes at str as a JSON string.  Names are bytes: valid UTF-8 is
 * written as is (control characters as JSON escapes), and each byte that
 * is not part of valid UTF-8, and the backslash itself, becomes a
 * backslash and three octal digits (\377, \134), the rule text.c applies
 * to text for people.  So the string is valid Unicode (no lone
 * surrogates, which strict parsers refuse), and the bytes come back by
 * encoding it as UTF-8 and replacing each \ooo by its byte.  Every JSON
 * of the project writes strings this way, names and messages alike.
 */
void json_str(FILE *f, const char *str, size_t n);
/* The same for a C string; NULL is written as null. */
void json_cstr(FILE *f, const char *s);

#endif
