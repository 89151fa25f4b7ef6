/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/escape.h - names in text for people: the library's one escaping
 * rule (libaxfsimg/internal/text.h) aimed at cmd/'s output (JSON goes
 * through json.h's writer, given stdout).  Every message (cmd_error()
 * & co.) is escaped as a whole by common.c; lines on stdout that show a
 * name use these.
 */
#ifndef CMD_ESCAPE_H
#define CMD_ESCAPE_H

#include <stdio.h>
#include <string.h>

#include "text.h"

/* Writes the C string s to f, escaped. */
static inline void cmd_put_escaped(FILE *f, const char *s)
{
	text_write(f, s, strlen(s));
}

/* s escaped, in one of a few buffers reused in turn, so that one printf()
 * may show several: valid until the eighth call after it.  Main thread
 * only ("?" when out of memory). */
const char *cmd_esc(const char *s);

#endif
