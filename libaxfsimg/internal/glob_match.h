/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * glob_match.h - path globs for --xip, policy rules and xip.exclude.
 *
 * Patterns and paths are absolute image paths ("/usr/bin/ls").  `*` and
 * `?` never match '/', `[...]` is a bracket expression (with `!` or `^`
 * negation and ranges), `**` as a whole component matches any number of
 * components (including none), and a backslash escapes the next byte.
 * Bytes compare as unsigned; no locale is involved.
 */
#ifndef LIBAXFSIMG_INTERNAL_GLOB_MATCH_H
#define LIBAXFSIMG_INTERNAL_GLOB_MATCH_H

#include <stddef.h>

/* 1 if path matches pattern, 0 if not. */
int glob_match(const char *pattern, const char *path);
/* 0 if pattern is well formed; otherwise <0 with a reason in why. */
int glob_check(const char *pattern, char *why, size_t why_len);

#endif
