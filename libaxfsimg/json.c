// SPDX-License-Identifier: LGPL-2.1-or-later
/* libaxfsimg/json.c - JSON strings (see json.h) */
#include "json.h"

#include <stdint.h>
#include <string.h>

size_t json_utf8_seq(const unsigned char *s, size_t n)
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

/*
 * The JSON string of n bytes at s (json.h): valid UTF-8 as is, control
 * characters as JSON escapes, and each byte that is not part of valid
 * UTF-8, and the backslash, as a backslash and three octal digits (the
 * rule of text.c, so a name reads the same in text and in JSON, and the
 * string stays valid Unicode for strict parsers).
 */
static void put_json(FILE *f, const unsigned char *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n;) {
		size_t k = json_utf8_seq(s + i, n - i);

		if (k == 0) {
			fprintf(f, "\\\\%03o", s[i]);
			i++;
		} else if (k > 1) {
			fwrite(s + i, 1, k, f);
			i += k;
		} else {
			unsigned char c = s[i++];

			if (c == '\\')
				fputs("\\\\134", f);
			else if (c == '"')
				fputs("\\\"", f);
			else if (c == '\n')
				fputs("\\n", f);
			else if (c == '\t')
				fputs("\\t", f);
			else if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
	}
	fputc('"', f);
}

void json_str(FILE *f, const char *str, size_t n)
{
	put_json(f, (const unsigned char *)str, n);
}

void json_cstr(FILE *f, const char *s)
{
	if (s)
		json_str(f, s, strlen(s));
	else
		fputs("null", f);
}

