// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glob.c - path globs for --xip, --exclude, policy rules and the policy's
 * globs.
 *
 * A pattern is compiled once (glob_compile) into tokens: a byte, `?`, a
 * run of stars, a bracket expression turned into a set of bytes, the
 * separator between components, and `**` as a whole component.  It is
 * matched against a path one component at a time.  Inside a component,
 * the literal bytes after its last star must end the path's component
 * (checked first, from the end), and the rest is matched with the classic
 * "remember the last star" algorithm; across components, `**` is handled
 * the same way one level up (it remembers the last `**`).  Both loops are
 * O(pattern x path) in the worst case, never exponential, and each step
 * compares one byte with one token in constant time.  Before any of that,
 * the literal bytes that end the pattern must end the path (a glob such as
 * "*.pm" rejects most paths with one memcmp).
 *
 * Semantics (documented once, in axfs-policy(5)):
 *  - a pattern with a '/' anywhere is anchored at the image root; a
 *    leading "/" or "./" is optional on patterns and paths, and repeated
 *    slashes count as one;
 *  - a pattern without '/' matches the last name of a path at any depth
 *    ("*.pm" matches /a.pm and /usr/lib/x/b.pm), as in tar, rsync and
 *    .gitignore: it is matched against that name alone;
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
#include <stdlib.h>
#include <string.h>

/* Tokens besides the bytes 0-255. */
enum {
	T_ANY = 256,	/* ? */
	T_STAR,		/* a run of '*' inside a component */
	T_SEP,		/* between two components */
	T_DSTAR,	/* a component that is exactly "**" */
	T_SET,		/* T_SET + k: the bytes of set k */
};

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
 * With set, the bytes the expression matches are set in it (32 bytes,
 * zeroed by the caller).  With why, the first defect is described there.
 */
static const char *bracket(const char *p, const char *pe, uint8_t *set,
			   char *why, size_t why_len)
{
	int negate = 0, first = 1;

	if (p < pe && (*p == '!' || *p == '^')) {
		negate = 1;
		p++;
	}
	while (p < pe) {
		unsigned char lo, hi;

		if (*p == ']' && !first) {
			if (set && negate)
				for (size_t i = 0; i < 32; i++)
					set[i] = (uint8_t)~set[i];
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

			while (q + 1 < pe && !(q[0] == ':' && q[1] == ']'))
				q++;
			if (q + 1 >= pe) {
				if (why)
					snprintf(why, why_len, "unterminated character class '[:'");
				return NULL;
			}
			if (class_has(name, (size_t)(q - name), 0) < 0) {
				if (why)
					snprintf(why, why_len, "unknown character class '[:%.*s:]'",
						 (int)(q - name), name);
				return NULL;
			}
			for (unsigned c = 0; set && c < 256; c++)
				if (class_has(name, (size_t)(q - name), (unsigned char)c))
					set[c >> 3] |= (uint8_t)(1u << (c & 7));
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
		for (unsigned c = lo; set && c <= hi; c++)
			set[c >> 3] |= (uint8_t)(1u << (c & 7));
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

/* ---- compiling ------------------------------------------------------------ */

void glob_free(struct glob *g)
{
	free(g->tok);
	free(g->set);
	memset(g, 0, sizeof(*g));
}

/* Appends the set of the bracket at q (its '[') as set number *nset;
 * NULL when malformed, or with *nomem when out of memory. */
static const char *add_set(struct glob *g, size_t *nset, size_t *cap,
			   const char *q, const char *pe, int *nomem)
{
	uint8_t set[32] = { 0 };
	const char *after = bracket(q + 1, pe, set, NULL, 0);

	if (!after)
		return NULL;
	if (*nset == *cap) {
		size_t nc = *cap ? 2 * *cap : 4;
		uint8_t (*ns)[32] = realloc(g->set, nc * sizeof(*ns));

		if (!ns) {
			*nomem = 1;
			return NULL;
		}
		g->set = ns;
		*cap = nc;
	}
	memcpy(g->set[*nset], set, sizeof(set));
	g->tok[g->ntok++] = (uint16_t)(T_SET + (*nset)++);
	return after;
}

int glob_compile(struct glob *g, const char *pattern)
{
	size_t len = strlen(pattern), nset = 0, cap = 0;
	const char *p = skip_root(pattern);
	int nomem = 0;

	memset(g, 0, sizeof(*g));
	if (len > GLOB_MAX_LEN || !(g->tok = malloc((len + 1) * sizeof(*g->tok))))
		return -1;
	while (*p) {
		const char *pe = pat_comp_end(p);

		if (pe - p == 2 && p[0] == '*' && p[1] == '*') {
			g->tok[g->ntok++] = T_DSTAR;
		} else {
			for (const char *q = p; q < pe;) {
				const char *after;

				if (*q == '*') {
					if (!g->ntok || g->tok[g->ntok - 1] != T_STAR)
						g->tok[g->ntok++] = T_STAR;
					q++;
				} else if (*q == '?') {
					g->tok[g->ntok++] = T_ANY;
					q++;
				} else if (*q == '[' &&
					   (after = add_set(g, &nset, &cap, q, pe, &nomem))) {
					q = after;
				} else {
					if (nomem) {
						glob_free(g);
						return -1;
					}
					if (*q == '\\' && q + 1 < pe)
						q++;
					g->tok[g->ntok++] = (unsigned char)*q++;
				}
			}
		}
		p = skip_slashes(pe);
		if (*p)
			g->tok[g->ntok++] = T_SEP;
	}
	/* "*.pm": the last name at any depth ("**" is that already) */
	g->any_depth = !strchr(pattern, '/') && g->ntok &&
		       !(g->ntok == 1 && g->tok[0] == T_DSTAR);
	/* the literal bytes that end the pattern end every path it matches */
	while (g->tail < g->ntok && g->tok[g->ntok - 1 - g->tail] < 256)
		g->tail++;
	return 0;
}

/* ---- matching ------------------------------------------------------------- */

static int item(const struct glob *g, uint16_t t, unsigned char c)
{
	if (t < 256)
		return t == c;
	if (t == T_ANY)
		return 1;
	t = (uint16_t)(t - T_SET);
	return (g->set[t][c >> 3] >> (c & 7)) & 1;
}

/* Tokens p..pe (one component, no T_SEP or T_DSTAR) against s..se. */
static int match_comp(const struct glob *g, size_t p, size_t pe,
		      const char *s, const char *se)
{
	const uint16_t *t = g->tok;
	size_t star_p = 0, last = pe;
	const char *star_s = NULL;

	/* the items after the last star match the end of the component */
	while (last > p && t[last - 1] != T_STAR)
		last--;
	if (last == p) {		/* no star: one item a byte */
		if ((size_t)(se - s) != pe - p)
			return 0;
		for (; p < pe; p++, s++)
			if (!item(g, t[p], (unsigned char)*s))
				return 0;
		return 1;
	}
	if ((size_t)(se - s) < pe - last)
		return 0;
	for (size_t k = last; k < pe; k++)
		if (!item(g, t[k], (unsigned char)se[(ptrdiff_t)k - (ptrdiff_t)pe]))
			return 0;
	se -= pe - last;
	pe = last;			/* now ends with a star */
	while (s < se) {
		if (p < pe && t[p] == T_STAR) {
			if (++p == pe)
				return 1;
			star_p = p;
			star_s = s;
			continue;
		}
		if (p < pe && item(g, t[p], (unsigned char)*s)) {
			p++;
			s++;
			continue;
		}
		if (!star_s)
			return 0;
		p = star_p;
		s = ++star_s;
	}
	while (p < pe && t[p] == T_STAR)
		p++;
	return p == pe;
}

static size_t tok_comp_end(const struct glob *g, size_t p)
{
	while (p < g->ntok && g->tok[p] != T_SEP)
		p++;
	return p;
}

/* Past the T_SEP that ends the component ending at p, if any. */
static size_t next_comp(const struct glob *g, size_t p)
{
	return p < g->ntok ? p + 1 : p;
}

static int match_path(const struct glob *g, const char *s)
{
	size_t p = 0, star_p = 0;
	const char *star_s = NULL;
	int have_star = 0;

	while (*s) {
		const char *se = path_comp_end(s);

		if (p < g->ntok && g->tok[p] == T_DSTAR) {
			if (p + 1 == g->ntok)
				return 1;	/* one or more components left */
			star_p = p = p + 2;	/* past the T_SEP */
			star_s = s;
			have_star = 1;
			continue;
		}
		if (p < g->ntok) {
			size_t pe = tok_comp_end(g, p);

			if (match_comp(g, p, pe, s, se)) {
				p = next_comp(g, pe);
				s = skip_slashes(se);
				continue;
			}
		}
		if (!have_star)
			return 0;
		/* let the last `**` swallow one more component */
		star_s = skip_slashes(path_comp_end(star_s));
		s = star_s;
		p = star_p;
	}
	while (p < g->ntok && g->tok[p] == T_DSTAR && p + 1 < g->ntok)
		p += 2;
	return p == g->ntok;
}

int glob_test(const struct glob *g, const char *path)
{
	const char *s = skip_root(path);

	if (g->tail) {
		const char *end = s + strlen(s);

		while (end > s && end[-1] == '/')
			end--;
		if ((size_t)(end - s) < g->tail)
			return 0;
		for (size_t k = 0; k < g->tail; k++)
			if (g->tok[g->ntok - g->tail + k] !=
			    (unsigned char)end[(ptrdiff_t)k - (ptrdiff_t)g->tail])
				return 0;
	}
	if (g->any_depth) {
		const char *end = s + strlen(s), *name;

		while (end > s && end[-1] == '/')
			end--;
		for (name = end; name > s && name[-1] != '/'; name--)
			;
		return end > name && match_comp(g, 0, g->ntok, name, end);
	}
	return match_path(g, s);
}

int glob_match(const char *pattern, const char *path)
{
	struct glob g;
	int r;

	if (glob_compile(&g, pattern) < 0)
		return -1;
	r = glob_test(&g, path);
	glob_free(&g);
	return r;
}

/* ---- sets of globs -------------------------------------------------------- */

static size_t str_hash(const char *s)
{
	size_t h = (size_t)14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (size_t)1099511628211ull;
	return h;
}

void glob_set_free(struct glob_set *s)
{
	for (size_t k = 0; k < s->n; k++)
		glob_free(&s->g[k]);
	free(s->g);
	free(s->orig);
	free(s->first);
	free(s->which);
	memset(s, 0, sizeof(*s));
}

int glob_set_init(struct glob_set *s, const char *const *pats, size_t n,
		  size_t *bad)
{
	size_t cap = 16, *slot;

	memset(s, 0, sizeof(*s));
	if (!n)
		return 0;
	while (cap < 2 * n)
		cap *= 2;
	slot = calloc(cap, sizeof(*slot));	/* 1 + index in pats, 0 free */
	s->g = calloc(n, sizeof(*s->g));
	s->orig = calloc(n, sizeof(*s->orig));
	s->first = calloc(n, sizeof(*s->first));
	s->which = calloc(n, sizeof(*s->which));
	s->nin = n;
	if (!slot || !s->g || !s->orig || !s->first || !s->which)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		size_t h = str_hash(pats[i]) & (cap - 1);

		while (slot[h] && strcmp(pats[slot[h] - 1], pats[i]))
			h = (h + 1) & (cap - 1);
		if (slot[h]) {
			s->first[i] = slot[h] - 1;
			s->which[i] = s->which[slot[h] - 1];
			continue;
		}
		slot[h] = i + 1;
		s->first[i] = i;
		s->which[i] = s->n;
		if (glob_compile(&s->g[s->n], pats[i]) < 0) {
			if (bad && strlen(pats[i]) > GLOB_MAX_LEN)
				*bad = i;
			goto fail;
		}
		s->orig[s->n++] = i;
	}
	free(slot);
	return 0;
fail:
	free(slot);
	glob_set_free(s);
	return -1;
}

int glob_check(const char *pattern, char *why, size_t why_len)
{
	const char *p;

	if (!why_len)
		why = NULL;
#define FAIL(...) do { if (why) snprintf(why, why_len, __VA_ARGS__); return -1; } while (0)
	if (!pattern || !*pattern)
		FAIL("empty pattern");
	if (strlen(pattern) > GLOB_MAX_LEN)
		FAIL("longer than %d bytes: no image path is that long",
		     GLOB_MAX_LEN);
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
				const char *after = bracket(q + 1, pe, NULL,
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
