/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * glob_match.h - path globs for --xip, --exclude, policy rules and the
 * policy's globs (the rules: axfs-policy(5), VALUE TYPES, glob).
 *
 * Paths are absolute image paths ("/usr/bin/ls").  A pattern with a '/'
 * anywhere is anchored at the image root (a leading "/" or "./" is
 * optional); one without matches the last name of a path at any depth
 * ("*.pm", as tar, rsync and .gitignore take it).  `*` and `?` never match '/', `[...]`
 * is a bracket expression (with `!` or `^` negation and ranges), `**` as
 * a whole component matches any number of components (including none),
 * and a backslash escapes the next byte.  Bytes compare as unsigned; no
 * locale is involved.
 *
 * The cost of matching is bounded by what the caller lets in: a glob is
 * at most GLOB_MAX_LEN bytes (no image path is longer, so no longer glob
 * can match one), a policy or a command line has at most GLOB_MAX_COUNT
 * globs, and a set of globs (glob_set) holds each pattern once, compiled
 * once: bracket expressions become byte sets, so each byte of a path is
 * compared with each item of a pattern in constant time.
 */
#ifndef LIBAXFSIMG_INTERNAL_GLOB_MATCH_H
#define LIBAXFSIMG_INTERNAL_GLOB_MATCH_H

#include <stddef.h>
#include <stdint.h>

#define GLOB_MAX_LEN 4096	/* bytes: PATH_MAX, the longest image path */
#define GLOB_MAX_COUNT 10000	/* globs in a policy, or on a command line */

/* A compiled glob.  tok holds one item a token: a byte (0-255), or one
 * of the GLOB_T_* codes below; set holds the byte sets of the brackets. */
struct glob {
	uint16_t *tok;
	size_t ntok;
	uint8_t (*set)[32];
	size_t tail;		/* the last tokens: literal bytes that end
				 * every path the glob matches */
	int any_depth;		/* no '/': the last name, at any depth */
};

/* 1 if path matches pattern, 0 if not (compiles the pattern each time:
 * for one-off tests; -1 when out of memory or longer than GLOB_MAX_LEN). */
int glob_match(const char *pattern, const char *path);
/* 0 if pattern is well formed and at most GLOB_MAX_LEN bytes; otherwise
 * <0 with a reason in why. */
int glob_check(const char *pattern, char *why, size_t why_len);

/* 0, or -1 when out of memory or the pattern is longer than GLOB_MAX_LEN
 * (a malformed bracket expression is a literal '[', as in glob_match()). */
int glob_compile(struct glob *g, const char *pattern);
void glob_free(struct glob *g);
/* 1 if path matches the compiled glob, 0 if not. */
int glob_test(const struct glob *g, const char *path);

/* Patterns compiled once each, duplicates dropped. */
struct glob_set {
	struct glob *g;		/* the distinct patterns, in order */
	size_t *orig;		/* g[k] is the caller's pattern orig[k] */
	size_t *first;		/* first[i]: the index of the caller's first
				 * pattern equal to pattern i (i when new) */
	size_t *which;		/* which[i]: pattern i is g[which[i]] */
	size_t n, nin;
};

/* 0; -1 when out of memory, or when a pattern is longer than
 * GLOB_MAX_LEN (then *bad, when not NULL, is its index; else it is left
 * as it was). */
int glob_set_init(struct glob_set *s, const char *const *pats, size_t n,
		  size_t *bad);
void glob_set_free(struct glob_set *s);

#endif
