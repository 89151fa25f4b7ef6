// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * image_path.c - the image paths a policy or a device table names
 * (devices, entries, hard link targets), checked and normalised once so
 * that "/dev//null" and "/dev/./null" are the same entry.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include "axfs_format.h"

char *policy_image_path(const char *s, const char **why)
{
	char *out = malloc(strlen(s) + 2), *o = out;

	*why = NULL;
	if (!out)
		return NULL;
	if (*s != '/') {
		free(out);
		*why = "must be an absolute path (starting with '/')";
		return NULL;
	}
	while (*s) {
		const char *c;
		size_t len;

		while (*s == '/')
			s++;
		c = s;
		while (*s && *s != '/')
			s++;
		len = (size_t)(s - c);
		if (!len || (len == 1 && *c == '.'))
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			free(out);
			*why = "'..' is not allowed in a path";
			return NULL;
		}
		if (len > AXFS_MAXPATHLEN) {
			free(out);
			*why = "a name in it is longer than 255 bytes";
			return NULL;
		}
		*o++ = '/';
		memcpy(o, c, len);
		o += len;
	}
	*o = '\0';
	if (o == out) {
		free(out);
		*why = "the root directory cannot be added or replaced";
		return NULL;
	}
	return out;
}
