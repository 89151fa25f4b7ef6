/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/json.h - JSON strings on standard output for the --json of dump,
 * fsck, split --info and merge-profile --stats.
 */
#ifndef AXFS_CMD_JSON_H
#define AXFS_CMD_JSON_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (0 if there is none), with the
 * rules Python's decoder applies (no overlongs, no surrogates). */
size_t cmd_utf8_seq(const unsigned char *s, size_t n);

/*
 * A JSON string.  Names are bytes: valid UTF-8 is written as is, and each
 * byte that is not part of valid UTF-8 becomes \udcXX, as Python's
 * "surrogateescape" does, so os.fsencode() of the string gives the bytes
 * back.
 */
void cmd_json_str(const char *str, size_t n);
/* The same for a C string; NULL is written as null. */
void cmd_json_cstr(const char *s);
/* A C string of text for people (fsck's messages and paths): a byte that
 * is not part of valid UTF-8 becomes U+FFFD; NULL is written as null. */
void cmd_json_text(const char *s);

#endif
