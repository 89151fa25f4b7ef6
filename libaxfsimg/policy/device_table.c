// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * device_table.c - device tables in the makedevs format that Buildroot
 * (BR2_ROOTFS_DEVICE_TABLE, its packages' permission tables), mkfs.jffs2
 * and genext2fs read, one entry a line:
 *
 *   <name> <type> <mode> <uid> <gid> <major> <minor> <start> <inc> <count>
 *
 * read into the policy's entries (axfs_policy.devices) and applied with
 * them (policy_apply.c).  Types: d (a directory: added when missing,
 * else its mode and owners set), f (mode and owners of a regular file
 * that must be there), F (the same, nothing when missing), r (mode and
 * owners of an entry and of everything below it), c, b (devices), p (a
 * FIFO).  With count N > 1, a c, b or p line adds N nodes,
 * <name><start> to <name><start+N-1>, minors <minor> + i * <inc>.  A '-'
 * is an unused field (a count of 0 or 1: the name itself, as makedevs
 * does).  Lines starting with '#' and blank ones are skipped.
 *
 * Unlike makedevs, which skips what it cannot read and goes on, every
 * line is checked and the first bad one is an error naming
 * file:line:column: a device table is a build input like a policy.
 */
#include "axfs_policy.h"
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axfs_format.h"

/* A table is a few hundred lines; a larger file is a mistake. */
#define TABLE_MAX_BYTES (16u << 20)
/* The most nodes one line adds: every minor of a major 256 times over
 * is more than any board has (Buildroot's largest range is 64). */
#define TABLE_MAX_COUNT 65536u
/* The most entries of all the tables of a build together. */
#define TABLE_MAX_ENTRIES (1u << 18)

struct field {
	const char *s;
	size_t len, column;	/* 1-based */
};

struct table {
	struct axfs_policy_device *v;
	size_t n, cap;
	const char *name;	/* the policy's copy (p->tables) */
	size_t line;
	size_t total;		/* entries the policy already has from tables */
	struct axfs_error *err;
};

static int tfail(struct table *t, size_t column, int code, const char *fmt,
		 ...) __attribute__((format(printf, 4, 5)));

static int tfail(struct table *t, size_t column, int code, const char *fmt,
		 ...)
{
	char msg[AXFS_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return axfs_error_set(t->err, code, "%s:%zu:%zu: %s", t->name,
			      t->line, column, msg);
}

static int nomem(struct table *t)
{
	return axfs_error_set(t->err, AXFS_ERR_NOMEM, "out of memory");
}

/* A decimal number up to max; '-' (unused) is 0 when dash_ok. */
static int num(struct table *t, const struct field *f, const char *what,
	       uint64_t max, int dash_ok, uint64_t *out)
{
	uint64_t v = 0;

	if (f->len == 1 && f->s[0] == '-' && dash_ok) {
		*out = 0;
		return 0;
	}
	for (size_t i = 0; i < f->len; i++) {
		char c = f->s[i];

		if (c < '0' || c > '9')
			return tfail(t, f->column, AXFS_ERR_INVALID,
				     "%s: '%.*s' is not a number%s", what,
				     (int)f->len, f->s,
				     c >= 'A' && what[1] == 'i' ?
				     " (names are not looked up: give the "
				     "number)" : "");
		if (v > (max - (uint64_t)(c - '0')) / 10)
			return tfail(t, f->column, AXFS_ERR_LIMIT,
				     "%s: %.*s is out of range (0 to %llu)",
				     what, (int)f->len, f->s,
				     (unsigned long long)max);
		v = v * 10 + (uint64_t)(c - '0');
	}
	*out = v;
	return 0;
}

static int octal_mode(struct table *t, const struct field *f, uint32_t *out)
{
	uint32_t v = 0;

	for (size_t i = 0; i < f->len; i++) {
		if (f->s[i] < '0' || f->s[i] > '7')
			return tfail(t, f->column, AXFS_ERR_INVALID,
				     "mode: '%.*s' is not an octal mode (such "
				     "as 755)", (int)f->len, f->s);
		v = v * 8 + (uint32_t)(f->s[i] - '0');
		if (v > 07777)
			return tfail(t, f->column, AXFS_ERR_INVALID,
				     "mode: '%.*s' is out of range (0 to "
				     "7777)", (int)f->len, f->s);
	}
	*out = v;
	return 0;
}

static struct axfs_policy_device *push(struct table *t)
{
	struct axfs_policy_device *d;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;

		if (!(d = realloc(t->v, cap * sizeof(*d))))
			return NULL;
		t->v = d;
		t->cap = cap;
	}
	d = &t->v[t->n++];
	memset(d, 0, sizeof(*d));
	d->file = t->name;
	d->line = t->line;
	d->column = 1;
	return d;
}

/* One line split at blanks into at most 10 fields; <0 past 10. */
static int split(struct table *t, const char *s, size_t len,
		 struct field *f, size_t *nf)
{
	size_t i = 0;

	*nf = 0;
	while (i < len) {
		size_t b;

		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i == len)
			break;
		if (*nf == 10)
			return tfail(t, i + 1, AXFS_ERR_INVALID,
				     "more than 10 fields (<name> <type> <mode> "
				     "<uid> <gid> <major> <minor> <start> <inc> "
				     "<count>)");
		b = i;
		while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			i++;
		f[*nf].s = s + b;
		f[*nf].len = i - b;
		f[*nf].column = b + 1;
		(*nf)++;
	}
	return 0;
}

static int type_of(char c, enum axfs_ftype *type, enum axfs_policy_op *op)
{
	*op = AXFS_POLICY_ADD;
	switch (c) {
	case 'd': *type = AXFS_FT_DIR; *op = AXFS_POLICY_SET; return 0;
	case 'f': *type = AXFS_FT_REG; *op = AXFS_POLICY_SET; return 0;
	case 'F': *type = AXFS_FT_REG; *op = AXFS_POLICY_SET_IF; return 0;
	case 'r': *type = AXFS_FT_NONE; *op = AXFS_POLICY_SET_TREE; return 0;
	case 'c': *type = AXFS_FT_CHR; return 0;
	case 'b': *type = AXFS_FT_BLK; return 0;
	case 'p': *type = AXFS_FT_FIFO; return 0;
	default: return -1;
	}
}

static int parse_line(struct table *t, const char *s, size_t len)
{
	struct field f[10];
	uint64_t uid, gid, major, minor, start, inc, count;
	enum axfs_policy_op op;
	enum axfs_ftype type;
	uint32_t mode = 0;
	size_t nf, i = 0;
	const char *why;
	char *name, *cname;
	int rc, dev;

	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	if (i == len || s[i] == '#')
		return 0;
	if (memchr(s, '\0', len))
		return tfail(t, (size_t)((const char *)memchr(s, '\0', len) - s) + 1,
			     AXFS_ERR_INVALID, "NUL byte in a device table");
	if (s[i] == '|')
		return tfail(t, i + 1, AXFS_ERR_UNSUPPORTED, "'%.*s': AXFS cannot "
			     "store extended attributes (file capabilities "
			     "among them)", (int)(len - i), s + i);
	if ((rc = split(t, s, len, f, &nf)) < 0)
		return rc;
	if (nf < 5)
		return tfail(t, nf ? f[nf - 1].column + f[nf - 1].len : 1,
			     AXFS_ERR_INVALID, "expected <name> <type> <mode> "
			     "<uid> <gid> [<major> <minor> <start> <inc> "
			     "<count>], got %zu field%s", nf, nf == 1 ? "" : "s");
	if (f[1].len != 1 || type_of(f[1].s[0], &type, &op) < 0)
		return tfail(t, f[1].column, AXFS_ERR_INVALID, "type: '%.*s' is "
			     "not one of d, f, F, r, c, b, p", (int)f[1].len,
			     f[1].s);
	dev = type == AXFS_FT_CHR || type == AXFS_FT_BLK;
	if ((rc = octal_mode(t, &f[2], &mode)) < 0 ||
	    (rc = num(t, &f[3], "uid", UINT32_MAX, 0, &uid)) < 0 ||
	    (rc = num(t, &f[4], "gid", UINT32_MAX, 0, &gid)) < 0)
		return rc;
	major = minor = start = inc = count = 0;
	if ((nf > 5 && (rc = num(t, &f[5], "major", 255, 1, &major)) < 0) ||
	    (nf > 6 && (rc = num(t, &f[6], "minor", 255, 1, &minor)) < 0) ||
	    (nf > 7 && (rc = num(t, &f[7], "start", UINT32_MAX, 1, &start)) < 0) ||
	    (nf > 8 && (rc = num(t, &f[8], "inc", 255, 1, &inc)) < 0) ||
	    (nf > 9 && (rc = num(t, &f[9], "count", UINT64_MAX, 1, &count)) < 0))
		return rc;
	if (dev && (nf < 7 || (f[5].len == 1 && f[5].s[0] == '-') ||
		    (f[6].len == 1 && f[6].s[0] == '-')))
		return tfail(t, nf > 5 ? f[5].column : f[4].column + f[4].len + 1,
			     AXFS_ERR_INVALID, "a %s device needs <major> and "
			     "<minor>", type == AXFS_FT_CHR ? "char" : "block");
	if (!dev && (major || minor))
		return tfail(t, f[5].column, AXFS_ERR_INVALID, "major and minor "
			     "apply only to c and b (give '-')");
	if (count && op != AXFS_POLICY_ADD)
		return tfail(t, f[9].column, AXFS_ERR_INVALID, "a range (count) "
			     "applies only to c, b and p (give '-')");
	if (count > TABLE_MAX_COUNT)
		return tfail(t, f[9].column, AXFS_ERR_LIMIT, "count: %llu nodes "
			     "on one line; at most %u", (unsigned long long)count,
			     TABLE_MAX_COUNT);
	if (count && start + count - 1 > UINT32_MAX)
		return tfail(t, f[7].column, AXFS_ERR_LIMIT, "start: %llu + "
			     "count %llu runs past %u", (unsigned long long)start,
			     (unsigned long long)count, UINT32_MAX);
	if (count && minor + (count - 1) * inc > 255)
		return tfail(t, f[6].column, AXFS_ERR_LIMIT, "minor: %llu + "
			     "%llu x %llu is past 255, the largest minor AXFS "
			     "stores", (unsigned long long)minor,
			     (unsigned long long)(count - 1),
			     (unsigned long long)inc);
	if (t->total + t->n + (count ? count : 1) > TABLE_MAX_ENTRIES)
		return tfail(t, count ? f[9].column : 1, AXFS_ERR_LIMIT, "more "
			     "than %u entries in the device tables",
			     TABLE_MAX_ENTRIES);
	if (!(cname = malloc(f[0].len + 1)))
		return nomem(t);
	memcpy(cname, f[0].s, f[0].len);
	cname[f[0].len] = '\0';
	name = policy_image_path(cname, &why);
	if (!name) {
		rc = why ? tfail(t, 1 + (size_t)(f[0].s - s), AXFS_ERR_INVALID,
				 "'%s': %s", cname, why) : nomem(t);
		free(cname);
		return rc;
	}
	free(cname);
	for (uint64_t k = 0; k < (count ? count : 1); k++) {
		struct axfs_policy_device *d = push(t);
		size_t nl = strlen(name);

		if (!d) {
			free(name);
			return nomem(t);
		}
		d->type = type;
		d->op = op;
		d->mode = mode;
		d->uid = (uint32_t)uid;
		d->gid = (uint32_t)gid;
		d->major = (uint32_t)major;
		d->minor = (uint32_t)(minor + k * inc);
		/* a count of 1 is the name itself, as makedevs makes it */
		if (count <= 1) {
			d->path = name;
			name = NULL;
			break;
		}
		if (!(d->path = malloc(nl + 12))) {
			free(name);
			return nomem(t);
		}
		snprintf(d->path, nl + 12, "%s%llu", name,
			 (unsigned long long)(start + k));
		if (strlen(strrchr(d->path, '/') + 1) > AXFS_MAXPATHLEN) {
			free(name);
			return tfail(t, 1 + (size_t)(f[0].s - s), AXFS_ERR_LIMIT,
				     "'%s': a name longer than 255 bytes",
				     d->path);
		}
	}
	free(name);
	return 0;
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].path);
	free(t->v);
}

int axfs_policy_parse_device_table(struct axfs_policy *p, const char *name,
				   const char *buf, size_t len,
				   struct axfs_error *err)
{
	struct table t;
	struct axfs_policy_device *nd;
	char **tables, *copy;
	size_t pos = 0;
	int rc = 0;

	memset(&t, 0, sizeof(t));
	t.err = err;
	if (len > TABLE_MAX_BYTES)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s' is larger than "
				      "%u MiB; that is not a device table", name,
				      TABLE_MAX_BYTES >> 20);
	for (size_t i = 0; i < p->n_devices; i++)
		t.total += p->devices[i].section == NULL;
	if (!(copy = strdup(name)))
		return nomem(&t);
	t.name = copy;
	while (pos < len && rc == 0) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		t.line++;
		rc = parse_line(&t, buf + pos, end - pos);
		pos = end + 1;
	}
	if (rc == 0 && t.n) {
		tables = realloc(p->tables, (p->n_tables + 1) * sizeof(*tables));
		if (tables)
			p->tables = tables;
		nd = tables ? realloc(p->devices, (p->n_devices + t.n) *
				      sizeof(*nd)) : NULL;
		if (!nd) {
			rc = nomem(&t);
		} else {
			p->devices = nd;
			memcpy(p->devices + p->n_devices, t.v, t.n * sizeof(*nd));
			p->n_devices += t.n;
			p->tables[p->n_tables++] = copy;
			free(t.v);
			return 0;
		}
	}
	table_free(&t);
	free(copy);
	return rc;
}

int axfs_policy_load_device_table(struct axfs_policy *p, const char *file,
				  struct axfs_error *err)
{
	FILE *f = fopen(file, "rb");
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	int rc;

	if (!f)
		return axfs_error_sys(err, errno, "cannot open '%s'", file);
	/* grown as the file holds bytes, one past the limit at most, which
	 * tells a file over it */
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			if (cap > TABLE_MAX_BYTES + 1)
				cap = TABLE_MAX_BYTES + 1;
			if (!(nb = realloc(buf, cap))) {
				fclose(f);
				free(buf);
				return axfs_error_set(err, AXFS_ERR_NOMEM,
						      "out of memory");
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got && len <= TABLE_MAX_BYTES);
	if (ferror(f))
		rc = axfs_error_sys(err, errno ? errno : EIO,
				    "cannot read '%s'", file);
	else
		rc = axfs_policy_parse_device_table(p, file, buf ? buf : "",
						    len, err);
	fclose(f);
	free(buf);
	return rc;
}
