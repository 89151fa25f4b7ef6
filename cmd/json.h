/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/json.h - JSON strings on standard output for the --json of dump,
 * fsck, split --info and merge-profile --stats: libaxfsimg/json.c's
 * writer (the one the mkfs report uses) aimed at stdout.
 */
#ifndef AXFS_CMD_JSON_H
#define AXFS_CMD_JSON_H

#include <stdio.h>

#include "axfs_json.h"

static inline size_t cmd_utf8_seq(const unsigned char *s, size_t n)
{
	return json_utf8_seq(s, n);
}

/* Bytes (names): invalid UTF-8 as \udcXX, see include/axfs/axfs_json.h. */
static inline void cmd_json_str(const char *str, size_t n)
{
	json_str(stdout, str, n);
}

static inline void cmd_json_cstr(const char *s)
{
	json_cstr(stdout, s);
}

/* Text for people: invalid UTF-8 as U+FFFD. */
static inline void cmd_json_text(const char *s)
{
	json_text(stdout, s);
}

#endif
