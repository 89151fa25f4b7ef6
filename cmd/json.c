// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/json.c - JSON strings on standard output (see json.h) */
#include "json.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (0 if there is none), with the
 * rules Python's decoder applies (no overlongs, no surrogates). */
size_t cmd_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned int c = s[0];
	size_t len;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* The JSON string of n bytes at s; each byte that is not part of valid
 * UTF-8 becomes U+FFFD when `lossy`, else \udcXX (surrogateescape). */
static void put_json(const unsigned char *s, size_t n, int lossy)
{
	putchar('"');
	for (size_t i = 0; i < n;) {
		size_t k = cmd_utf8_seq(s + i, n - i);

		if (k == 0) {
			if (lossy)
				fputs("\\ufffd", stdout);
			else
				printf("\\udc%02x", s[i]);
			i++;
		} else if (k > 1) {
			fwrite(s + i, 1, k, stdout);
			i += k;
		} else {
			unsigned char c = s[i++];

			if (c == '"' || c == '\\')
				printf("\\%c", c);
			else if (c == '\n')
				fputs("\\n", stdout);
			else if (c == '\t')
				fputs("\\t", stdout);
			else if (c < 0x20 || c == 0x7f)
				printf("\\u%04x", c);
			else
				putchar(c);
		}
	}
	putchar('"');
}

void cmd_json_str(const char *str, size_t n)
{
	put_json((const unsigned char *)str, n, 0);
}

void cmd_json_cstr(const char *s)
{
	if (s)
		cmd_json_str(s, strlen(s));
	else
		fputs("null", stdout);
}

void cmd_json_text(const char *s)
{
	if (s)
		put_json((const unsigned char *)s, strlen(s), 1);
	else
		fputs("null", stdout);
}
