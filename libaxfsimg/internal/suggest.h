/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * suggest.h - "did you mean": the nearest of some known words to a
 * misspelt one, for policy keys, command-line options and subcommands.
 */
#ifndef LIBAXFSIMG_INTERNAL_SUGGEST_H
#define LIBAXFSIMG_INTERNAL_SUGGEST_H

/*
 * The word of `choices` (NULL-terminated) nearest to `word` by optimal
 * string alignment distance (a swap of two letters costs 1), when it is
 * near enough to be a typing error (at most 2 edits, or a third of its
 * length); NULL otherwise.  Words over 32 bytes are never suggested.
 */
const char *suggest_word(const char *word, const char *const *choices);

#endif
