// SPDX-License-Identifier: LGPL-2.1-or-later
/* text.c - the one escaping rule for names in text for people (text.h) */
#include "text.h"

#include <string.h>

#include "json.h"

/* Bytes at s that may be shown as they are (0: escape s[0]). */
static size_t shown(const unsigned char *s, size_t n)
{
	size_t k;

	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f && s[0] != '\\';
	k = json_utf8_seq(s, n);
	if (k == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0;	/* a C1 control */
	return k;
}

static const char oct[] = "01234567";

size_t text_escape(char *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, o = 0;

	while (i < n) {
		size_t k = shown(s + i, n - i);

		if (k) {
			memcpy(out + o, s + i, k);
			o += k;
			i += k;
			continue;
		}
		out[o++] = '\\';
		out[o++] = oct[s[i] >> 6];
		out[o++] = oct[(s[i] >> 3) & 7];
		out[o++] = oct[s[i] & 7];
		i++;
	}
	out[o] = '\0';
	return o;
}

void text_write(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		size_t k = shown(s + i, n - i);

		if (k) {
			fwrite(s + i, 1, k, f);
			i += k;
		} else {
			char e[4] = { '\\', oct[s[i] >> 6], oct[(s[i] >> 3) & 7],
				      oct[s[i] & 7] };

			fwrite(e, 1, 4, f);
			i++;
		}
	}
}
