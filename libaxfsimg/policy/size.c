// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * size.c - sizes with units, as the command line and the policy take them.
 *
 *   4096   512B   64K  64KiB  64KB   8M  8MiB   1G  1GiB   1T  1TiB
 *
 * Every unit is a binary multiple (K = 1024, M = 1024^2, G = 1024^3,
 * T = 1024^4), whatever its spelling: an image size is always counted in
 * pages and blocks, and "64KB" meaning 64000 would never be what someone
 * building a flash image wants.  Units are case-insensitive; spaces may
 * separate the number from the unit.  No sign, no fraction, no hex, no
 * leading or trailing blanks; a value that does not fit in 64 bits is
 * rejected.
 */
#include "axfs_policy.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

int axfs_parse_size(const char *s, uint64_t *out, char *why, size_t why_len)
{
	static const struct {
		const char *name;
		unsigned int shift;
	} units[] = {
		{ "", 0 }, { "b", 0 },
		{ "k", 10 }, { "kb", 10 }, { "kib", 10 },
		{ "m", 20 }, { "mb", 20 }, { "mib", 20 },
		{ "g", 30 }, { "gb", 30 }, { "gib", 30 },
		{ "t", 40 }, { "tb", 40 }, { "tib", 40 },
	};
	const char *p = s;
	uint64_t v = 0;

	if (!why_len)
		why = NULL;
#define FAIL(...) do { if (why) snprintf(why, why_len, __VA_ARGS__); return -1; } while (0)
	if (!s || !*s)
		FAIL("empty size");
	if (*p == '-')
		FAIL("a size cannot be negative");
	if (*p < '0' || *p > '9')
		FAIL("'%s' is not a size (expected a number with an optional unit such as 64KiB)", s);
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			FAIL("'%s' is too large", s);
		v = v * 10 + d;
	}
	if (*p == '.' || *p == ',')
		FAIL("'%s': fractions are not accepted (use a smaller unit)", s);
	if ((*p == 'x' || *p == 'X') && v == 0 && p == s + 1)
		FAIL("'%s': hexadecimal sizes are not accepted", s);
	if (*p == ' ') {
		while (*p == ' ')
			p++;
		if (!*p)
			FAIL("'%s': trailing blanks", s);
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(p, units[i].name) != 0)
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
			FAIL("'%s' is too large", s);
		*out = v << units[i].shift;
		if (why)
			why[0] = '\0';
		return 0;
	}
	FAIL("'%s': unknown unit '%s' (use B, KiB, MiB, GiB or TiB)", s, p);
#undef FAIL
}
