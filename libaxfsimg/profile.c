// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * profile.c - profile CSVs: read what the driver prints in
 * /proc/axfs/volumeN, combine, write the canonical form.
 *
 * The driver prints one line per page that was faulted in through mmap:
 *
 *     ./dir/sub/name,offset,count
 *
 * with `offset` in bytes (page index * 4096) and `count` the number of
 * faults.  It prints names raw, so a name may hold commas and spaces: the
 * last two fields are split off from the right and everything before them
 * is the path.
 *
 * /proc/axfs/volumeN.order prints the ordered form: a first line
 * "# axfs-profile order" (older tools skip it as a comment), then
 *
 *     ./dir/sub/name,offset,count,first
 *
 * with `first` the rank of the page's first use (1 = the first page the
 * boot touched; 0 = no rank), the last three fields split from the right.
 * The form is chosen per file by its first line.  The format is described for users in axfs-profile(5);
 * every decision taken here is documented there too.
 */
#include "axfs_profile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "axfs_format.h"

/* The longest line a profile may hold: a path of PATH_MAX bytes printed
 * with room to spare.  A longer one (/dev/zero, a binary file) is an
 * error, not a reason to grow a buffer without end. */
#define PROFILE_LINE_MAX	((size_t)PATH_MAX * 4)

void axfs_profile_init(struct axfs_profile *p, const struct axfs_logger *log)
{
	p->v = NULL;
	p->n = 0;
	p->cap = 0;
	p->log = log;
}

void axfs_profile_free(struct axfs_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].path);	/* `file` lives in the same block */
	free(p->v);
	p->v = NULL;
	p->n = p->cap = 0;
}

/* Drops entries appended after `keep` (a failed read leaves no trace). */
static void truncate_to(struct axfs_profile *p, size_t keep)
{
	while (p->n > keep)
		free(p->v[--p->n].path);
}

/*
 * Normalises path[0..len) into "/a/b" form in a new block that also holds
 * a copy of `file` (so entries never point at a caller's buffer).  Empty
 * and "." components are dropped; ".." is an error.  On error, returns
 * NULL with *bad_col (1-based byte in the input) and *why set.
 */
static char *normalise(const char *path, size_t len, const char *file,
		       const char **file_copy, size_t *bad_col,
		       const char **why)
{
	size_t flen = file ? strlen(file) + 1 : 0;
	char *out = malloc(len + 2 + flen), *o = out;
	size_t i = 0;

	if (!out) {
		*why = NULL;
		*bad_col = 0;
		return NULL;
	}
	while (i < len) {
		size_t start, clen;

		while (i < len && path[i] == '/')
			i++;
		start = i;
		while (i < len && path[i] != '/')
			i++;
		clen = i - start;
		if (clen == 0 || (clen == 1 && path[start] == '.'))
			continue;
		if (clen == 2 && path[start] == '.' && path[start + 1] == '.') {
			free(out);
			*bad_col = start + 1;
			*why = "'..' is not allowed in a path";
			return NULL;
		}
		*o++ = '/';
		memcpy(o, path + start, clen);
		o += clen;
	}
	if (o == out) {
		free(out);
		*bad_col = 1;
		*why = len ? "the path names the root directory, not a file"
			   : "empty path";
		return NULL;
	}
	*o++ = '\0';
	if (file) {
		memcpy(o, file, flen);
		*file_copy = o;
	} else {
		*file_copy = NULL;
	}
	return out;
}

static int push(struct axfs_profile *p, char *path, const char *file,
		size_t line, uint64_t offset, uint64_t count, uint64_t first,
		struct axfs_error *err)
{
	struct axfs_profile_entry *e;

	if (p->n == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 256;
		struct axfs_profile_entry *nv;

		if (ncap > SIZE_MAX / sizeof(*nv) ||
		    !(nv = realloc(p->v, ncap * sizeof(*nv)))) {
			free(path);
			return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
		}
		p->v = nv;
		p->cap = ncap;
	}
	e = &p->v[p->n++];
	e->path = path;
	e->offset = offset;
	e->count = count;
	e->file = file;
	e->line = line;
	e->first = first;
	return 0;
}

int axfs_profile_add(struct axfs_profile *p, const char *path,
		     uint64_t offset, uint64_t count, const char *file,
		     size_t line, struct axfs_error *err)
{
	const char *why, *fcopy;
	size_t col;
	char *norm;

	if (strchr(path, '\n'))
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "profile path '%s' holds a newline", path);
	if (offset % AXFS_PAGE_SIZE)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "profile offset %llu of '%s' is not a multiple of %u",
				      (unsigned long long)offset, path,
				      AXFS_PAGE_SIZE);
	norm = normalise(path, strlen(path), file, &fcopy, &col, &why);
	if (!norm)
		return why ? axfs_error_set(err, AXFS_ERR_INVALID,
					    "profile path '%s': %s", path, why)
			   : axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	return push(p, norm, fcopy, line, offset, count, 0, err);
}

/* ---- parsing ------------------------------------------------------------ */

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Parses the number in s[0..len) (blanks around it allowed).  Returns 0,
 * or -1 with *why and *col (offset into s of the culprit) set.
 */
static int parse_u64(const char *s, size_t len, uint64_t *out,
		     const char **why, size_t *col)
{
	size_t i = 0, end = len;
	uint64_t v = 0;

	while (i < end && is_blank(s[i]))
		i++;
	while (end > i && is_blank(s[end - 1]))
		end--;
	*col = i;
	if (i == end) {
		*why = "is empty";
		return -1;
	}
	for (size_t j = i; j < end; j++) {
		unsigned int d;

		if (s[j] < '0' || s[j] > '9') {
			*col = j;
			*why = "is not a non-negative decimal number";
			return -1;
		}
		d = (unsigned int)(s[j] - '0');
		if (v > (UINT64_MAX - d) / 10) {
			*why = "does not fit in 64 bits";
			return -1;
		}
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* The first line of the ordered form (trailing blanks allowed). */
static const char order_magic[] = "# axfs-profile order";

static int is_order_magic(const char *s, size_t len)
{
	size_t m = sizeof(order_magic) - 1;

	if (len < m || memcmp(s, order_magic, m))
		return 0;
	for (size_t i = m; i < len; i++)
		if (!is_blank(s[i]))
			return 0;
	return 1;
}

/* The numeric fields of a line, right to left in the ordered form. */
static const char *const field_name[] = { "offset", "count", "first" };

/*
 * One line without its '\n' (a trailing '\r' is still there).  *ordered
 * is the file's form: set by its first line, kept for the others.
 */
static int parse_line(struct axfs_profile *p, const char *name,
		      size_t lineno, const char *s, size_t len, int *ordered,
		      struct axfs_error *err)
{
	/* comma[0] ends the path; comma[k] starts numeric field k */
	const char *comma[3] = { NULL, NULL, NULL }, *why, *fcopy;
	uint64_t num[3] = { 0, 0, 0 };
	size_t nf = *ordered ? 3 : 2, found = 0, i, col;
	char *path;
	const char *nul;

	if (len > PROFILE_LINE_MAX)
		return axfs_error_set(err, AXFS_ERR_PARSE, "%s:%zu: line longer "
				      "than %zu bytes", name, lineno,
				      PROFILE_LINE_MAX);
	if (len && s[len - 1] == '\r')
		len--;
	/* a UTF-8 byte order mark, as Windows editors write one */
	if (lineno == 1 && len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
		s += 3;
		len -= 3;
	}
	if (lineno == 1 && is_order_magic(s, len)) {
		*ordered = 1;
		return 0;
	}
	for (i = 0; i < len && is_blank(s[i]); i++)
		;
	if (i == len || s[0] == '#')
		return 0;
	nul = memchr(s, '\0', len);
	if (nul)
		return axfs_error_set(err, AXFS_ERR_PARSE,
				      "%s:%zu:%zu: NUL byte in a profile line",
				      name, lineno, (size_t)(nul - s) + 1);
	/* the last nf commas, from the right: a path may hold commas */
	for (i = len; i-- > 0 && found < nf;)
		if (s[i] == ',')
			comma[nf - 1 - found++] = s + i;
	if (found < nf)
		return axfs_error_set(err, AXFS_ERR_PARSE,
				      "%s:%zu: expected '%s', found %s%s",
				      name, lineno,
				      *ordered ? "path,offset,count,first" :
						 "path,offset,count",
				      found == 0 ? "no comma" :
				      found == 1 ? "only one comma" :
						   "only two commas",
				      *ordered ? " (the file starts with '# "
						 "axfs-profile order')" : "");
	for (size_t k = 0; k < nf; k++) {
		const char *f = comma[k] + 1;
		const char *fend = k + 1 < nf ? comma[k + 1] : s + len;

		if (parse_u64(f, (size_t)(fend - f), &num[k], &why, &col) < 0)
			return axfs_error_set(err, AXFS_ERR_PARSE,
					      "%s:%zu:%zu: %s '%.*s' %s", name,
					      lineno, (size_t)(f - s) + col + 1,
					      field_name[k], (int)(fend - f), f,
					      why);
	}
	if (num[0] % AXFS_PAGE_SIZE)
		return axfs_error_set(err, AXFS_ERR_PARSE,
				      "%s:%zu:%zu: offset %llu is not a multiple of the page size (%u)",
				      name, lineno, (size_t)(comma[0] + 1 - s) + 1,
				      (unsigned long long)num[0], AXFS_PAGE_SIZE);
	path = normalise(s, (size_t)(comma[0] - s), name, &fcopy, &col, &why);
	if (!path) {
		if (!why)
			return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
		return axfs_error_set(err, AXFS_ERR_PARSE, "%s:%zu:%zu: %s",
				      name, lineno, col, why);
	}
	return push(p, path, fcopy, lineno, num[0], num[1], num[2], err);
}

int axfs_profile_parse(struct axfs_profile *p, const char *name,
		       const char *buf, size_t len, struct axfs_error *err)
{
	size_t keep = p->n, lineno = 0, pos = 0;
	int ordered = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		int rc = parse_line(p, name, ++lineno, buf + pos, llen,
				    &ordered, err);

		if (rc < 0) {
			truncate_to(p, keep);
			return rc;
		}
		pos += llen + 1;
	}
	return 0;
}

/*
 * One line of f into buf (PROFILE_LINE_MAX + 1 bytes), without its
 * newline: 1 and *len, 0 at the end of the file, -1 and errno when
 * reading fails, or 1 with *len = PROFILE_LINE_MAX + 1 when the line is
 * longer than the bound (parse_line refuses it).  Not getline(): it
 * grows its buffer to whatever the line is, and its ENOMEM looks like
 * the end of the file.
 */
static int read_line(FILE *f, char *buf, size_t *len)
{
	size_t n = 0;
	int c;

	errno = 0;
	while ((c = getc(f)) != EOF) {
		if (c == '\n') {
			*len = n;
			return 1;
		}
		buf[n++] = (char)c;
		if (n > PROFILE_LINE_MAX) {
			*len = n;
			return 1;
		}
	}
	if (ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	*len = n;
	return n > 0;
}

int axfs_profile_read(struct axfs_profile *p, const char *file,
		      struct axfs_error *err)
{
	int is_stdin = strcmp(file, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : file;
	FILE *f = is_stdin ? stdin : fopen(file, "r");
	size_t keep = p->n, lineno = 0, len;
	char *line;
	int rc = 0, got, ordered = 0;

	if (!f)
		return axfs_error_sys(err, errno, "cannot open '%s'", file);
	line = malloc(PROFILE_LINE_MAX + 1);
	if (!line) {
		rc = axfs_error_sys(err, ENOMEM, "'%s'", name);
		goto out;
	}
	while ((got = read_line(f, line, &len)) > 0) {
		rc = parse_line(p, name, ++lineno, line, len, &ordered,
				err);
		if (rc < 0)
			break;
	}
	if (rc == 0 && got < 0)
		rc = axfs_error_sys(err, errno, "cannot read '%s' (after line "
				    "%zu)", name, lineno);
out:
	free(line);
	if (!is_stdin)
		fclose(f);
	else
		clearerr(f);
	if (rc < 0)
		truncate_to(p, keep);
	return rc;
}

/* ---- canonical form ----------------------------------------------------- */

static int entry_cmp(const struct axfs_profile_entry *a,
		     const struct axfs_profile_entry *b)
{
	int c = strcmp(a->path, b->path);

	if (c)
		return c;
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* Stable bottom-up merge sort: duplicates keep their input order, so the
 * entry kept for messages (the first seen) does not depend on luck. */
static int sort_entries(struct axfs_profile_entry *v, size_t n)
{
	struct axfs_profile_entry *tmp, *src = v, *dst;

	if (n < 2)
		return 0;
	if (n > SIZE_MAX / sizeof(*tmp) || !(tmp = malloc(n * sizeof(*tmp))))
		return -1;
	dst = tmp;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				dst[k++] = entry_cmp(&src[j], &src[i]) < 0 ?
					   src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		struct axfs_profile_entry *t = src;

		src = dst;
		dst = t;
		if (width > SIZE_MAX / 2)
			break;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	return 0;
}

int axfs_profile_canonicalize_combine(struct axfs_profile *p,
				      enum axfs_profile_combine how,
				      struct axfs_error *err)
{
	size_t out = 0;

	if (sort_entries(p->v, p->n) < 0)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < p->n; i++) {
		struct axfs_profile_entry *keep = out ? &p->v[out - 1] : NULL;
		struct axfs_profile_entry *e = &p->v[i];

		if (keep && entry_cmp(keep, e) == 0) {
			/* the page was first used at its earliest rank */
			if (e->first && (!keep->first || e->first < keep->first))
				keep->first = e->first;
			if (how == AXFS_PROFILE_MAX) {
				if (e->count > keep->count)
					keep->count = e->count;
			} else if (e->count > UINT64_MAX - keep->count) {
				int rc = axfs_error_set(err, AXFS_ERR_LIMIT,
					"%s:%zu: the counts of page %llu of '%s' add up to more than 64 bits (with %s:%zu)",
					e->file ? e->file : "<profile>", e->line,
					(unsigned long long)e->offset, e->path,
					keep->file ? keep->file : "<profile>",
					keep->line);

				/* keep the array consistent: nothing leaks */
				for (size_t j = i; j < p->n; j++)
					p->v[out++] = p->v[j];
				p->n = out;
				return rc;
			} else {
				keep->count += e->count;
			}
			free(e->path);
			continue;
		}
		p->v[out++] = *e;
	}
	p->n = out;
	return 0;
}

int axfs_profile_canonicalize(struct axfs_profile *p, struct axfs_error *err)
{
	return axfs_profile_canonicalize_combine(p, AXFS_PROFILE_SUM, err);
}

int axfs_profile_write(const struct axfs_profile *p, FILE *out,
		       struct axfs_error *err)
{
	int ordered = 0;

	for (size_t i = 0; i < p->n && !ordered; i++)
		ordered = p->v[i].first != 0;
	if (ordered)
		fprintf(out, "%s\n", order_magic);
	for (size_t i = 0; i < p->n; i++) {
		const struct axfs_profile_entry *e = &p->v[i];
		int n = ordered ?
			fprintf(out, ".%s,%llu,%llu,%llu\n", e->path,
				(unsigned long long)e->offset,
				(unsigned long long)e->count,
				(unsigned long long)e->first) :
			fprintf(out, ".%s,%llu,%llu\n", e->path,
				(unsigned long long)e->offset,
				(unsigned long long)e->count);

		if (n < 0)
			break;
	}
	if (ferror(out))
		return axfs_error_sys(err, errno ? errno : EIO,
				      "cannot write the profile");
	return 0;
}
