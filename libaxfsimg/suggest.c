// SPDX-License-Identifier: LGPL-2.1-or-later
/* suggest.c - the nearest known word to a misspelt one (suggest.h) */
#include "suggest.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Optimal string alignment distance (a swap of two letters costs 1). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[34][34];

	if (la > 32 || lb > 32)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

const char *suggest_word(const char *word, const char *const *choices)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX;

	if (!word || !choices)
		return NULL;
	for (size_t i = 0; choices[i]; i++) {
		size_t d = edit_distance(word, choices[i]);

		if (d < bestd) {
			bestd = d;
			best = choices[i];
		}
	}
	if (best && (bestd <= 2 || bestd * 3 <= strlen(best)) &&
	    bestd < strlen(best))
		return best;
	return NULL;
}
