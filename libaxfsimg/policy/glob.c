// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glob.c - path globs for --xip, policy rules and xip.exclude.
 *
 * A pattern is matched against a path one component at a time.  Inside a
 * component, `*` and `?` and `[...]` are matched with the classic
 * "remember the last star" algorithm; across components, `**` is handled
 * the same way one level up (it remembers the last `**`).  Both loops are
 * O(pattern x path) in the worst case, never exponential: the pieces
 * between two stars are fixed-width, so the leftmost match of a piece is
 * always as good as any later one.
 *
 * Semantics (documented in axfs-policy(5)):
 *  - patterns and paths are anchored at the image root; a leading "/" or
 *    "./" is optional on both and repeated slashes count as one;
 *  - `*` matches any run of bytes in one component (a leading '.' too),
 *    `?` exactly one byte, `[...]` one byte of a set (`!` or `^` negates,
 *    `a-z` ranges, `[:alpha:]` classes, `]` first is literal);
 *  - a component that is exactly `**` matches any number of components,
 *    none included, except at the end of a pattern, where it matches one
 *    or more ("/usr/" followed by "**" is everything below /usr, not
 *    /usr itself);
 *  - a backslash makes the next byte literal.
 */
#include "glob_match.h"

#include <stdio.h>
#include <string.h>

/* ---- one byte against a bracket expression ------------------------------ */

static int class_has(const char *name, size_t len, unsigned char c)
{
#define IS(s) (len == sizeof(s) - 1 && memcmp(name, s, len) == 0)
	int upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
	int digit = c >= '0' && c <= '9';
	int graph = c > 0x20 && c < 0x7f;

	if (IS("alpha"))
		return upper || lower;
	if (IS("digit"))
		return digit;
	if (IS("alnum"))
		return upper || lower || digit;
	if (IS("upper"))
		return upper;
	if (IS("lower"))
		return lower;
	if (IS("xdigit"))
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	if (IS("space"))
		return c == ' ' || (c >= '\t' && c <= '\r');
	if (IS("blank"))
		return c == ' ' || c == '\t';
	if (IS("punct"))
		return graph && !(upper || lower || digit);
	if (IS("graph"))
		return graph;
	if (IS("print"))
		return graph || c == ' ';
	if (IS("cntrl"))
		return c < 0x20 || c == 0x7f;
	return -1;
#undef IS
}

/*
 * Parses the bracket expression starting at p (just after '[') and ending
 * before pe.  Returns a pointer just past the closing ']', or NULL when the
 * expression is malformed (then the caller treats '[' as a literal byte).
 * With c >= 0, *hit says whether byte c is in the set.  With why, the first
 * defect is described there.
 */
static const char *bracket(const char *p, const char *pe, int c, int *hit,
			   char *why, size_t why_len)
{
	int negate = 0, in = 0, first = 1;

	if (p < pe && (*p == '!' || *p == '^')) {
		negate = 1;
		p++;
	}
	while (p < pe) {
		unsigned char lo, hi;

		if (*p == ']' && !first) {
			if (hit)
				*hit = negate ? !in : in;
			return p + 1;
		}
		first = 0;
		if (*p == '/') {
			if (why)
				snprintf(why, why_len, "'/' inside a bracket expression never matches");
			return NULL;
		}
		if (*p == '[' && p + 1 < pe && p[1] == ':') {
			const char *name = p + 2, *q = name;
			int r;

			while (q + 1 < pe && !(q[0] == ':' && q[1] == ']'))
				q++;
			if (q + 1 >= pe) {
				if (why)
					snprintf(why, why_len, "unterminated character class '[:'");
				return NULL;
			}
			r = class_has(name, (size_t)(q - name), (unsigned char)(c < 0 ? 0 : c));
			if (r < 0) {
				if (why)
					snprintf(why, why_len, "unknown character class '[:%.*s:]'",
						 (int)(q - name), name);
				return NULL;
			}
			if (c >= 0 && r)
				in = 1;
			p = q + 2;
			continue;
		}
		if (*p == '\\') {
			if (++p >= pe)
				break;
		}
		lo = hi = (unsigned char)*p++;
		if (p + 1 < pe && *p == '-' && p[1] != ']') {
			p++;
			if (*p == '\\' && ++p >= pe)
				break;
			if (*p == '/') {
				if (why)
					snprintf(why, why_len, "'/' inside a bracket expression never matches");
				return NULL;
			}
			hi = (unsigned char)*p++;
			if (hi < lo) {
				if (why)
					snprintf(why, why_len, "reversed range '%c-%c' in a bracket expression",
						 lo, hi);
				return NULL;
			}
		}
		if (c >= lo && c <= hi)
			in = 1;
	}
	if (why)
		snprintf(why, why_len, "unterminated bracket expression (missing ']')");
	return NULL;
}

/* ---- one component ------------------------------------------------------ */

/* End of the pattern component at p: the next '/' not escaped by '\'. */
static const char *pat_comp_end(const char *p)
{
	while (*p && *p != '/') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return p;
}

static const char *path_comp_end(const char *s)
{
	while (*s && *s != '/')
		s++;
	return s;
}

/* Skips the separator after a component (and any repeats). */
static const char *skip_slashes(const char *p)
{
	while (*p == '/')
		p++;
	return p;
}

/* Matches one pattern byte-item at *pp against c; advances *pp. */
static int match_item(const char **pp, const char *pe, unsigned char c)
{
	const char *p = *pp;

	if (*p == '?') {
		*pp = p + 1;
		return 1;
	}
	if (*p == '[') {
		int hit = 0;
		const char *after = bracket(p + 1, pe, c, &hit, NULL, 0);

		if (after) {
			*pp = after;
			return hit;
		}
		/* malformed: '[' is literal */
	} else if (*p == '\\' && p + 1 < pe) {
		p++;
	}
	*pp = p + 1;
	return (unsigned char)*p == c;
}

static int match_comp(const char *p, const char *pe, const char *s,
		      const char *se)
{
	const char *star_p = NULL, *star_s = NULL;

	while (s < se) {
		if (p < pe && *p == '*') {
			while (p < pe && *p == '*')
				p++;
			if (p == pe)
				return 1;
			star_p = p;
			star_s = s;
			continue;
		}
		if (p < pe) {
			const char *np = p;

			if (match_item(&np, pe, (unsigned char)*s)) {
				p = np;
				s++;
				continue;
			}
		}
		if (!star_p)
			return 0;
		p = star_p;
		s = ++star_s;
	}
	while (p < pe && *p == '*')
		p++;
	return p == pe;
}

/* ---- whole paths ------------------------------------------------------- */

static const char *skip_root(const char *p)
{
	for (;;) {
		if (*p == '/')
			p++;
		else if (p[0] == '.' && p[1] == '/')
			p += 2;
		else if (p[0] == '.' && p[1] == '\0')
			p++;
		else
			return p;
	}
}

static int is_dstar(const char *p)
{
	return p[0] == '*' && p[1] == '*' && (p[2] == '/' || p[2] == '\0');
}

/* True when the `**` at p is the pattern's last component. */
static int is_last(const char *p)
{
	return *skip_slashes(p + 2) == '\0';
}

int glob_match(const char *pattern, const char *path)
{
	const char *p = skip_root(pattern), *s = skip_root(path);
	const char *star_p = NULL, *star_s = NULL;

	while (*s) {
		const char *pe, *se = path_comp_end(s);

		if (*p && is_dstar(p)) {
			if (is_last(p))
				return 1;	/* one or more components left */
			star_p = p = skip_slashes(p + 2);
			star_s = s;
			continue;
		}
		if (*p) {
			pe = pat_comp_end(p);
			if (match_comp(p, pe, s, se)) {
				p = skip_slashes(pe);
				s = skip_slashes(se);
				continue;
			}
		}
		if (!star_p)
			return 0;
		/* let the last `**` swallow one more component */
		star_s = skip_slashes(path_comp_end(star_s));
		s = star_s;
		p = star_p;
	}
	while (*p && is_dstar(p) && !is_last(p))
		p = skip_slashes(p + 2);
	return *p == '\0';
}

int glob_check(const char *pattern, char *why, size_t why_len)
{
	const char *p;

	if (!why_len)
		why = NULL;
#define FAIL(...) do { if (why) snprintf(why, why_len, __VA_ARGS__); return -1; } while (0)
	if (!pattern || !*pattern)
		FAIL("empty pattern");
	p = skip_root(pattern);
	while (*p) {
		const char *pe = pat_comp_end(p), *q;

		if ((pe - p == 1 && p[0] == '.') ||
		    (pe - p == 2 && p[0] == '.' && p[1] == '.'))
			FAIL("'%.*s' components are not allowed (paths are normalised)",
			     (int)(pe - p), p);
		for (q = p; q < pe; q++) {
			if (*q == '\\') {
				if (q + 1 >= pe)
					FAIL("trailing backslash escapes nothing");
				if (q[1] == '/')
					FAIL("an escaped '/' never matches");
				q++;
			} else if (*q == '[') {
				char reason[128];
				const char *after = bracket(q + 1, pe, -1, NULL,
							    reason, sizeof(reason));

				if (!after) {
					/* pe may stop at a '/' inside the brackets */
					if (*pe == '/' && !strchr(reason, '/') &&
					    memchr(q, ']', (size_t)(pe - q)) == NULL &&
					    strchr(pe, ']'))
						FAIL("'/' inside a bracket expression never matches");
					FAIL("%s at byte %zu", reason,
					     (size_t)(q - pattern) + 1);
				}
				q = after - 1;
			}
		}
		p = skip_slashes(pe);
		if (*pe == '/' && !*p && pe > pattern)
			FAIL("a trailing '/' is not allowed (use a rule's type: dir)");
	}
#undef FAIL
	if (why)
		why[0] = '\0';
	return 0;
}
