// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/escape.c - escaped names for printf() (escape.h) */
#include "escape.h"

#include <stdlib.h>

#define ESC_SLOTS 8

const char *cmd_esc(const char *s)
{
	static char *slot[ESC_SLOTS];
	static size_t cap[ESC_SLOTS];
	static unsigned int next;
	unsigned int i = next++ % ESC_SLOTS;
	size_t n;

	if (!s)
		return "(null)";
	n = strlen(s);
	if (n > ((size_t)-1 - 1) / 4)
		return "?";
	if (cap[i] < 4 * n + 1) {
		char *p = realloc(slot[i], 4 * n + 1);

		if (!p)
			return "?";
		slot[i] = p;
		cap[i] = 4 * n + 1;
	}
	text_escape(slot[i], s, n);
	return slot[i];
}
