// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * policy.c - the YAML build policy (schema: man/axfs-policy.5).
 *
 * The file is loaded with libyaml's document API, which keeps the start
 * mark of every node, and then walked against a fixed schema.  Every
 * error names file:line:column (1-based, as editors count) and the key
 * path ("compression.level", "files[2].mode"; list indexes from 0).  The
 * first error stops the walk: a policy is either applied exactly or not
 * at all.
 *
 * Applying the parsed policy to a tree is policy_apply.c.
 */
#include "axfs_policy.h"
#include "suggest.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "axfs_format.h"
#include "glob_match.h"
#include "internal.h"

/* A policy is a page of text; anything this large is a mistake. */
#define POLICY_MAX_BYTES (16u << 20)

void axfs_policy_init(struct axfs_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->level = -1;
	p->all_root = -1;
	p->xip_suffix = -1;
	p->strict_profile = -1;
	p->pad_byte = -1;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void axfs_policy_free(struct axfs_policy *p)
{
	if (!p)
		return;
	free(p->file);
	free_list(p->xip_files, p->n_xip_files);
	free_list(p->xip_exclude, p->n_xip_exclude);
	free(p->xip_files_pos);
	free(p->xip_exclude_pos);
	free_list(p->exclude, p->n_exclude);
	free(p->exclude_pos);
	for (size_t i = 0; i < p->n_rules; i++)
		free(p->rules[i].match);
	free(p->rules);
	for (size_t i = 0; i < p->n_devices; i++) {
		free(p->devices[i].path);
		free(p->devices[i].target);
		free(p->devices[i].source);
	}
	free(p->devices);
	free(p->uid_map);
	free(p->gid_map);
	free_list(p->tables, p->n_tables);
	axfs_policy_init(p);
}

/* ---- the walk's context and its error messages ------------------------- */

struct walk {
	struct axfs_policy *p;
	yaml_document_t *doc;
	const char *name;
	struct axfs_error *err;
	size_t nglobs;		/* of every key, against GLOB_MAX_COUNT */
	size_t *dev_slot;	/* devices by path: 1 + index, 0 free */
	size_t dev_cap;		/* a power of two, twice the devices */
};

/* FNV-1a: anchor names and device paths in their hash tables. */
static size_t str_hash(const char *s)
{
	size_t h = (size_t)14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (size_t)1099511628211ull;
	return h;
}

static int fail_at(struct walk *w, const yaml_mark_t *m, int code,
		   const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail_at(struct walk *w, const yaml_mark_t *m, int code,
		   const char *key, const char *fmt, ...)
{
	char msg[AXFS_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (key && *key)
		return axfs_error_set(w->err, code, "%s:%zu:%zu: %s: %s",
				      w->name, m->line + 1, m->column + 1,
				      key, msg);
	return axfs_error_set(w->err, code, "%s:%zu:%zu: %s", w->name,
			      m->line + 1, m->column + 1, msg);
}

#define FAIL(w, node, key, ...) \
	fail_at(w, &(node)->start_mark, AXFS_ERR_INVALID, key, __VA_ARGS__)

static int nomem(struct walk *w)
{
	return axfs_error_set(w->err, AXFS_ERR_NOMEM, "out of memory");
}

static yaml_node_t *node_at(struct walk *w, int id)
{
	return yaml_document_get_node(w->doc, id);
}

static const char *kind_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE: return "a mapping";
	case YAML_SEQUENCE_NODE: return "a list";
	default: return "a scalar";
	}
}

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static int is_null(const yaml_node_t *n)
{
	const char *s;

	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	s = scalar(n);
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") ||
	       !strcmp(s, "Null") || !strcmp(s, "NULL");
}

/* A scalar with a value; sets *s.  Errors name what was found. */
static int want_scalar(struct walk *w, yaml_node_t *n, const char *key,
		       const char *what, const char **s)
{
	if (n->type != YAML_SCALAR_NODE)
		return FAIL(w, n, key, "expected %s, got %s", what, kind_name(n));
	if (is_null(n))
		return FAIL(w, n, key, "expected %s, got nothing", what);
	if (strlen(scalar(n)) != n->data.scalar.length)
		return FAIL(w, n, key, "NUL byte in a value");
	*s = scalar(n);
	return 0;
}

/* ---- scalar types ---------------------------------------------------------- */

static int parse_dec(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -2;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* An integer from min to max; `of`, when not NULL, names whose range it
 * is ("zlib"). */
static int get_uint_of(struct walk *w, yaml_node_t *n, const char *key,
		       uint64_t min, uint64_t max, const char *of,
		       uint64_t *out)
{
	const char *s, *sep = of ? " for " : "";
	uint64_t v = 0;
	int rc;

	if (!of)
		of = "";
	if ((rc = want_scalar(w, n, key, "an integer", &s)) < 0)
		return rc;
	rc = parse_dec(*s == '+' ? s + 1 : s, &v);
	if (rc == -1)
		return FAIL(w, n, key, "'%s' is not an integer (expected %llu to %llu%s%s)",
			    s, (unsigned long long)min, (unsigned long long)max,
			    sep, of);
	if (rc < 0 || v < min || v > max)
		return FAIL(w, n, key, "%s is out of range%s%s (%llu to %llu)", s,
			    sep, of, (unsigned long long)min,
			    (unsigned long long)max);
	*out = v;
	return 0;
}

static int get_uint(struct walk *w, yaml_node_t *n, const char *key,
		    uint64_t min, uint64_t max, uint64_t *out)
{
	return get_uint_of(w, n, key, min, max, NULL, out);
}

static int get_u32(struct walk *w, yaml_node_t *n, const char *key,
		   uint32_t *out)
{
	uint64_t v;
	int rc = get_uint(w, n, key, 0, UINT32_MAX, &v);

	if (rc == 0)
		*out = (uint32_t)v;
	return rc;
}

static int get_bool(struct walk *w, yaml_node_t *n, const char *key,
		    int *out)
{
	static const char *const yes[] = { "true", "yes", "on" };
	static const char *const no[] = { "false", "no", "off" };
	const char *s;
	int rc;

	if ((rc = want_scalar(w, n, key, "true or false", &s)) < 0)
		return rc;
	for (size_t i = 0; i < 3; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return FAIL(w, n, key, "expected true or false, got '%s'", s);
}

static int get_size(struct walk *w, yaml_node_t *n, const char *key,
		    uint64_t *out)
{
	char why[160];
	const char *s;
	int rc;

	if ((rc = want_scalar(w, n, key, "a size such as 64KiB", &s)) < 0)
		return rc;
	if (axfs_parse_size(s, out, why, sizeof(why)) < 0)
		return FAIL(w, n, key, "%s", why);
	return 0;
}

/* Modes are always octal: "0755", "04755", "755", "0o755". */
static int get_mode(struct walk *w, yaml_node_t *n, const char *key,
		    uint32_t *out)
{
	const char *s, *d;
	uint32_t v = 0;
	int rc;

	if ((rc = want_scalar(w, n, key, "an octal mode such as \"0755\"", &s)) < 0)
		return rc;
	d = (s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) ? s + 2 : s;
	if (!*d)
		return FAIL(w, n, key, "'%s' is not an octal mode (such as \"0755\")", s);
	for (; *d; d++) {
		if (*d < '0' || *d > '7')
			return FAIL(w, n, key, "'%s' is not an octal mode (such as \"0755\")", s);
		v = v * 8 + (uint32_t)(*d - '0');
		if (v > 07777)
			return FAIL(w, n, key, "mode '%s' is out of range (0 to 07777)", s);
	}
	*out = v;
	return 0;
}

static int get_glob(struct walk *w, yaml_node_t *n, const char *key,
		    char **out)
{
	char why[160];
	const char *s;
	int rc;

	if ((rc = want_scalar(w, n, key, "a path glob", &s)) < 0)
		return rc;
	if (++w->nglobs > GLOB_MAX_COUNT)
		return fail_at(w, &n->start_mark, AXFS_ERR_LIMIT, key,
			       "more than %d globs in one policy",
			       GLOB_MAX_COUNT);
	if (n->data.scalar.length > GLOB_MAX_LEN)
		return fail_at(w, &n->start_mark, AXFS_ERR_LIMIT, key,
			       "a glob of %zu bytes: no image path is longer "
			       "than %d", n->data.scalar.length, GLOB_MAX_LEN);
	if (glob_check(s, why, sizeof(why)) < 0)
		return FAIL(w, n, key, "bad glob '%s': %s", s, why);
	if (!(*out = strdup(s)))
		return nomem(w);
	return 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (no time zones). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* Seconds since the epoch ("N" or "@N"), or a UTC date "YYYY-MM-DD",
 * "YYYY-MM-DDTHH:MM:SS[Z]" or "YYYY-MM-DD HH:MM:SS", as mkfs --mtime. */
static int get_timestamp(struct walk *w, yaml_node_t *n, const char *key,
			 int64_t *out)
{
	unsigned y, mo, d, h = 0, mi = 0, sec = 0;
	static const unsigned mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	const char *s;
	uint64_t v;
	int rc, used = 0;

	if ((rc = want_scalar(w, n, key, "seconds since 1970 or a UTC date", &s)) < 0)
		return rc;
	rc = parse_dec(s[0] == '@' ? s + 1 : s, &v);	/* "@N" as date(1) takes it */
	if (rc == 0 && v <= INT64_MAX) {
		*out = (int64_t)v;
		return 0;
	}
	if (rc == -2 || rc == 0)
		return FAIL(w, n, key, "%s is out of range", s);
	if ((sscanf(s, "%4u-%2u-%2u%n", &y, &mo, &d, &used) == 3 && !s[used]) ||
	    (sscanf(s, "%4u-%2u-%2u%*[T ]%2u:%2u:%2u%n", &y, &mo, &d, &h, &mi,
		    &sec, &used) == 6 && (!strcmp(s + used, "Z") || !s[used]))) {
		if (y >= 1970 && mo >= 1 && mo <= 12 && d >= 1 &&
		    d <= mdays[mo - 1] && h < 24 && mi < 60 && sec < 60 &&
		    !(mo == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)))) {
			*out = days_from_civil(y, mo, d) * 86400 + h * 3600 +
			       mi * 60 + sec;
			return 0;
		}
	}
	return FAIL(w, n, key, "'%s' is not a timestamp (seconds since 1970, or "
		    "a UTC date such as 2024-01-31 or 2024-01-31T12:00:00Z)", s);
}

/* ---- mappings: known keys, duplicates, suggestions ----------------------- */

static int unknown_key(struct walk *w, yaml_node_t *k, const char *path,
		       const char *const *keys)
{
	const char *s = scalar(k), *best;
	size_t len = 0;
	char full[256], list[256];
	char canon[40];

	snprintf(full, sizeof(full), "%s%s%s", path, *path ? "." : "", s);
	if (!strcmp(s, "<<"))
		return FAIL(w, k, full, "YAML merge keys ('<<') are not supported");
	/* "block_size" and "Block-Size" are near misses too */
	snprintf(canon, sizeof(canon), "%s", s);
	for (char *c = canon; *c; c++)
		*c = *c == '_' ? '-' : (char)((*c >= 'A' && *c <= 'Z') ? *c + 32 : *c);
	best = suggest_word(canon, keys);
	if (best)
		return FAIL(w, k, full, "unknown key; did you mean '%s'?", best);
	list[0] = '\0';
	for (size_t i = 0; keys[i] && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i ? ", " : "", keys[i]);
	return FAIL(w, k, full, "unknown key (valid keys: %s)", list);
}

/*
 * Checks that node n is a mapping whose keys are plain strings from
 * `keys` (NULL-terminated), each at most once.  The caller then walks the
 * pairs with FOR_PAIRS, knowing every key is valid and unique.
 */
static int check_mapping(struct walk *w, yaml_node_t *n, const char *path,
			 const char *what, const char *const *keys)
{
	yaml_node_pair_t *pr;

	if (n->type != YAML_MAPPING_NODE)
		return FAIL(w, n, path, "expected %s, got %s", what, kind_name(n));
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = node_at(w, pr->key);
		size_t i;

		if (!k || k->type != YAML_SCALAR_NODE)
			return FAIL(w, k ? k : n, path, "keys must be plain words, not %s",
				    k ? kind_name(k) : "nothing");
		for (i = 0; keys[i] && strcmp(keys[i], scalar(k)); i++)
			;
		if (!keys[i])
			return unknown_key(w, k, path, keys);
		for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < pr; q++) {
			yaml_node_t *k2 = node_at(w, q->key);

			if (!strcmp(scalar(k2), scalar(k))) {
				char full[256];

				snprintf(full, sizeof(full), "%s%s%s", path,
					 *path ? "." : "", scalar(k));
				return FAIL(w, k, full, "duplicate key (first at line %zu, column %zu)",
					    k2->start_mark.line + 1,
					    k2->start_mark.column + 1);
			}
		}
	}
	return 0;
}

#define FOR_PAIRS(w, n, kname, val) \
	for (yaml_node_pair_t *pr_ = (n)->data.mapping.pairs.start; \
	     pr_ < (n)->data.mapping.pairs.top && \
	     ((kname) = scalar(node_at(w, pr_->key)), (val) = node_at(w, pr_->value), 1); \
	     pr_++)

/* ---- sections ---------------------------------------------------------------- */

enum axfs_xattr_action axfs_xattr_action_parse(const char *s)
{
	if (!s)
		return AXFS_XATTRS_UNSET;
	if (!strcmp(s, "warn"))
		return AXFS_XATTRS_WARN;
	if (!strcmp(s, "error"))
		return AXFS_XATTRS_ERROR;
	if (!strcmp(s, "ignore"))
		return AXFS_XATTRS_IGNORE;
	return AXFS_XATTRS_UNSET;
}

static int get_xattrs(struct walk *w, yaml_node_t *n)
{
	const char *key = "xattrs", *s;
	int rc;

	if ((rc = want_scalar(w, n, key, "warn, error or ignore", &s)) < 0)
		return rc;
	w->p->xattrs = axfs_xattr_action_parse(s);
	if (w->p->xattrs == AXFS_XATTRS_UNSET)
		return FAIL(w, n, key, "expected warn, error or ignore, got "
			    "'%s'", s);
	return 0;
}

static int get_compressor(struct walk *w, yaml_node_t *n)
{
	const char *key = "compression.compressor", *s;
	int rc;

	if ((rc = want_scalar(w, n, key, axfs_compressor_names(), &s)) < 0)
		return rc;
	w->p->compressor = axfs_compressor_by_name(s);
	if (w->p->compressor == AXFS_COMPRESSOR_DEFAULT)
		return FAIL(w, n, key, "expected %s, got '%s'",
			    axfs_compressor_names(), s);
	return 0;
}

/* A level of the policy's compressor (if it names none, of the default;
 * axfs_build checks it again against one the command line chose). */
static int get_level(struct walk *w, yaml_node_t *n)
{
	enum axfs_compressor c = w->p->compressor;
	uint64_t x;
	int rc;

	rc = get_uint_of(w, n, "compression.level", 1,
			 (uint64_t)axfs_compressor_max_level(c),
			 axfs_compressor_name(c), &x);
	if (rc < 0)
		return rc;
	w->p->level = (int)x;
	w->p->level_pos.line = n->start_mark.line + 1;
	w->p->level_pos.column = n->start_mark.column + 1;
	return 0;
}

static int parse_compression(struct walk *w, yaml_node_t *n)
{
	static const char *const keys[] = { "compressor", "level", "block-size",
					     NULL };
	const char *k;
	yaml_node_t *v;
	int rc;

	if (is_null(n))
		return 0;
	if ((rc = check_mapping(w, n, "compression", "a mapping (compressor, level, block-size)", keys)) < 0)
		return rc;
	/* The compressor first: it decides which levels are valid. */
	FOR_PAIRS(w, n, k, v)
		if (!strcmp(k, "compressor") && (rc = get_compressor(w, v)) < 0)
			return rc;
	FOR_PAIRS(w, n, k, v) {
		uint64_t x;

		if (!strcmp(k, "compressor"))
			continue;
		if (!strcmp(k, "level")) {
			if ((rc = get_level(w, v)) < 0)
				return rc;
		} else {
			if ((rc = get_size(w, v, "compression.block-size", &x)) < 0)
				return rc;
			if (!AXFS_CBLOCK_SIZE_OK(x))
				return FAIL(w, v, "compression.block-size",
					    "%s is not a power of two from 4KiB to 1MiB",
					    scalar(v));
			w->p->block_size = (uint32_t)x;
		}
	}
	return 0;
}

/* A glob or a list of globs. */
static int parse_glob_list(struct walk *w, yaml_node_t *n, const char *key,
			   char ***out, size_t *nout,
			   struct axfs_policy_pos **pos)
{
	yaml_node_item_t *it;
	size_t count, i = 0;
	char sub[64];
	int rc;

	if (is_null(n))
		return 0;
	if (n->type == YAML_MAPPING_NODE)
		return FAIL(w, n, key, "expected a glob or a list of globs, got a mapping");
	count = n->type == YAML_SCALAR_NODE ? 1 :
		(size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (!count)
		return 0;
	*out = calloc(count, sizeof(**out));
	*pos = calloc(count, sizeof(**pos));
	if (!*out || !*pos)
		return nomem(w);
	if (n->type == YAML_SCALAR_NODE) {
		if ((rc = get_glob(w, n, key, &(*out)[0])) < 0)
			return rc;
		(*pos)[0].line = n->start_mark.line + 1;
		(*pos)[0].column = n->start_mark.column + 1;
		*nout = 1;
		return 0;
	}
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++, i++) {
		yaml_node_t *e = node_at(w, *it);

		snprintf(sub, sizeof(sub), "%s[%zu]", key, i);
		if ((rc = get_glob(w, e, sub, &(*out)[i])) < 0)
			return rc;
		(*pos)[i].line = e->start_mark.line + 1;
		(*pos)[i].column = e->start_mark.column + 1;
		*nout = i + 1;
	}
	return 0;
}

static int parse_xip(struct walk *w, yaml_node_t *n)
{
	static const char *const keys[] = { "budget", "min-count", "files", "exclude",
					    "suffix", "strict-profile", NULL };
	const char *k;
	yaml_node_t *v;
	int rc;

	if (is_null(n))
		return 0;
	if ((rc = check_mapping(w, n, "xip", "a mapping (budget, min-count, files, exclude, suffix, strict-profile)", keys)) < 0)
		return rc;
	FOR_PAIRS(w, n, k, v) {
		if (!strcmp(k, "budget")) {
			if ((rc = get_size(w, v, "xip.budget", &w->p->xip_budget)) < 0)
				return rc;
			w->p->has_xip_budget = 1;
		} else if (!strcmp(k, "min-count")) {
			if ((rc = get_uint(w, v, "xip.min-count", 0, UINT64_MAX,
					   &w->p->xip_min_count)) < 0)
				return rc;
		} else if (!strcmp(k, "suffix")) {
			if ((rc = get_bool(w, v, "xip.suffix",
					   &w->p->xip_suffix)) < 0)
				return rc;
		} else if (!strcmp(k, "strict-profile")) {
			if ((rc = get_bool(w, v, "xip.strict-profile",
					   &w->p->strict_profile)) < 0)
				return rc;
		} else if (!strcmp(k, "files")) {
			if ((rc = parse_glob_list(w, v, "xip.files", &w->p->xip_files,
						  &w->p->n_xip_files,
						  &w->p->xip_files_pos)) < 0)
				return rc;
		} else {
			if ((rc = parse_glob_list(w, v, "xip.exclude", &w->p->xip_exclude,
						  &w->p->n_xip_exclude,
						  &w->p->xip_exclude_pos)) < 0)
				return rc;
		}
	}
	return 0;
}

static int idmap_cmp(const void *a, const void *b)
{
	const struct axfs_policy_idmap *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

/* owners.uid-map / gid-map: a mapping of source ids to image ids,
 * {1000: 0, 1001: 100}; sorted for the lookups, each id once. */
static int parse_idmap(struct walk *w, yaml_node_t *n, const char *key,
		       struct axfs_policy_idmap **out, size_t *nout)
{
	size_t count, i = 0;
	char sub[64];
	int rc;

	if (is_null(n))
		return 0;
	if (n->type != YAML_MAPPING_NODE)
		return FAIL(w, n, key, "expected a mapping of ids, such as "
			    "{1000: 0}, got %s", kind_name(n));
	count = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	if (!count)
		return 0;
	if (!(*out = calloc(count, sizeof(**out))))
		return nomem(w);
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     pr < n->data.mapping.pairs.top; pr++, i++) {
		yaml_node_t *k = node_at(w, pr->key), *v = node_at(w, pr->value);
		struct axfs_policy_idmap *m = &(*out)[i];

		if ((rc = get_u32(w, k, key, &m->from)) < 0)
			return rc;
		snprintf(sub, sizeof(sub), "%s.%s", key, scalar(k));
		if ((rc = get_u32(w, v, sub, &m->to)) < 0)
			return rc;
		m->line = k->start_mark.line + 1;
		m->column = k->start_mark.column + 1;
		*nout = i + 1;
	}
	/* a stable order for the report of a duplicate: the later one */
	qsort(*out, count, sizeof(**out), idmap_cmp);
	for (i = 1; i < count; i++) {
		struct axfs_policy_idmap *a = &(*out)[i - 1], *b = &(*out)[i];

		if (a->from == b->from) {
			yaml_mark_t m = { 0, 0, 0 };
			int later = b->line > a->line ||
				    (b->line == a->line && b->column > a->column);
			const struct axfs_policy_idmap *dup = later ? b : a,
				*first = later ? a : b;

			m.line = dup->line - 1;
			m.column = dup->column - 1;
			return fail_at(w, &m, AXFS_ERR_INVALID, key,
				       "id %u is mapped twice (first at line "
				       "%zu, column %zu)", dup->from,
				       first->line, first->column);
		}
	}
	return 0;
}

static int parse_owners(struct walk *w, yaml_node_t *n)
{
	static const char *const keys[] = { "all-root", "uid", "gid", "uid-map",
					     "gid-map", "uid-offset",
					     "gid-offset", NULL };
	const char *k;
	yaml_node_t *v, *all_root = NULL, *ids = NULL, *uid = NULL, *gid = NULL;
	yaml_node_t *umap = NULL, *gmap = NULL;
	uint64_t x;
	int rc;

	if (is_null(n))
		return 0;
	if ((rc = check_mapping(w, n, "owners", "a mapping (all-root, uid, gid, uid-map, gid-map, uid-offset, gid-offset)", keys)) < 0)
		return rc;
	FOR_PAIRS(w, n, k, v) {
		if (!strcmp(k, "all-root")) {
			if ((rc = get_bool(w, v, "owners.all-root", &w->p->all_root)) < 0)
				return rc;
			all_root = v;
		} else if (!strcmp(k, "uid")) {
			if ((rc = get_u32(w, v, "owners.uid", &w->p->uid)) < 0)
				return rc;
			w->p->has_uid = 1;
			ids = ids ? ids : v;
			uid = v;
		} else if (!strcmp(k, "gid")) {
			if ((rc = get_u32(w, v, "owners.gid", &w->p->gid)) < 0)
				return rc;
			w->p->has_gid = 1;
			ids = ids ? ids : v;
			gid = v;
		} else if (!strcmp(k, "uid-map")) {
			if ((rc = parse_idmap(w, v, "owners.uid-map", &w->p->uid_map,
					      &w->p->n_uid_map)) < 0)
				return rc;
			umap = umap ? umap : v;
		} else if (!strcmp(k, "gid-map")) {
			if ((rc = parse_idmap(w, v, "owners.gid-map", &w->p->gid_map,
					      &w->p->n_gid_map)) < 0)
				return rc;
			gmap = gmap ? gmap : v;
		} else {
			/* an offset past the largest id moves every id out of
			 * range: a mistake at once, not at the first file */
			if ((rc = get_uint(w, v, !strcmp(k, "uid-offset") ?
					   "owners.uid-offset" : "owners.gid-offset",
					   0, UINT32_MAX, &x)) < 0)
				return rc;
			struct axfs_policy_pos *pos = k[0] == 'u' ?
				&w->p->uid_offset_pos : &w->p->gid_offset_pos;

			pos->line = v->start_mark.line + 1;
			pos->column = v->start_mark.column + 1;
			if (k[0] == 'u') {
				w->p->uid_offset = (uint32_t)x;
				umap = umap ? umap : v;
			} else {
				w->p->gid_offset = (uint32_t)x;
				gmap = gmap ? gmap : v;
			}
		}
	}
	if (all_root && w->p->all_root == 1 && ids)
		return FAIL(w, all_root, "owners.all-root",
			    "all-root: true sets every owner to 0; it cannot be combined with owners.uid or owners.gid");
	if (all_root && w->p->all_root == 1 && (umap || gmap))
		return FAIL(w, all_root, "owners.all-root",
			    "all-root: true sets every owner to 0; it cannot be combined with an id map or offset");
	if (uid && umap)
		return FAIL(w, uid, "owners.uid", "owners.uid sets every user; "
			    "it cannot be combined with owners.uid-map or "
			    "owners.uid-offset");
	if (gid && gmap)
		return FAIL(w, gid, "owners.gid", "owners.gid sets every group; "
			    "it cannot be combined with owners.gid-map or "
			    "owners.gid-offset");
	return 0;
}

static int parse_ftype(struct walk *w, yaml_node_t *n, const char *key,
		       int allow_all, enum axfs_ftype *out)
{
	static const struct { const char *name; enum axfs_ftype t; } types[] = {
		{ "file", AXFS_FT_REG }, { "dir", AXFS_FT_DIR },
		{ "symlink", AXFS_FT_LNK }, { "char", AXFS_FT_CHR },
		{ "block", AXFS_FT_BLK }, { "fifo", AXFS_FT_FIFO },
		{ "socket", AXFS_FT_SOCK },
	};
	const char *s;
	int rc;

	if ((rc = want_scalar(w, n, key, "a file type", &s)) < 0)
		return rc;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (strcmp(s, types[i].name))
			continue;
		if (!allow_all && (types[i].t == AXFS_FT_REG || types[i].t == AXFS_FT_LNK))
			break;
		*out = types[i].t;
		return 0;
	}
	return FAIL(w, n, key, "'%s' is not one of %s", s,
		    allow_all ? "file, dir, symlink, char, block, fifo, socket"
			      : "char, block, fifo, socket, dir");
}

static int parse_rule(struct walk *w, yaml_node_t *n, size_t idx)
{
	static const char *const keys[] = { "match", "type", "mode", "uid", "gid",
					     "compress", "xip", NULL };
	struct axfs_policy_rule *r = &w->p->rules[idx];
	char path[64], key[96];
	const char *k, *s;
	yaml_node_t *v;
	int rc;

	snprintf(path, sizeof(path), "files[%zu]", idx);
	memset(r, 0, sizeof(*r));
	r->compress = -1;
	r->xip = -1;
	r->type = AXFS_FT_NONE;
	r->line = n->start_mark.line + 1;
	r->column = n->start_mark.column + 1;
	w->p->n_rules = idx + 1;
	if ((rc = check_mapping(w, n, path, "a rule (a mapping with match: and what to set)", keys)) < 0)
		return rc;
	FOR_PAIRS(w, n, k, v) {
		snprintf(key, sizeof(key), "%s.%s", path, k);
		if (!strcmp(k, "match")) {
			rc = get_glob(w, v, key, &r->match);
		} else if (!strcmp(k, "type")) {
			rc = parse_ftype(w, v, key, 1, &r->type);
		} else if (!strcmp(k, "mode")) {
			rc = get_mode(w, v, key, &r->mode);
			r->has_mode = 1;
		} else if (!strcmp(k, "uid")) {
			rc = get_u32(w, v, key, &r->uid);
			r->has_uid = 1;
		} else if (!strcmp(k, "gid")) {
			rc = get_u32(w, v, key, &r->gid);
			r->has_gid = 1;
		} else if (!strcmp(k, "compress")) {
			if ((rc = want_scalar(w, v, key, "none or zlib", &s)) < 0)
				return rc;
			if (!strcmp(s, "none"))
				r->compress = 0;
			else if (!strcmp(s, "zlib"))
				r->compress = 1;
			else
				return FAIL(w, v, key, "expected none or zlib, got '%s'", s);
		} else {
			rc = get_bool(w, v, key, &r->xip);
		}
		if (rc < 0)
			return rc;
	}
	if (!r->match)
		return FAIL(w, n, path, "a rule needs a 'match' glob");
	if (!r->has_mode && !r->has_uid && !r->has_gid && r->compress < 0 && r->xip < 0)
		return FAIL(w, n, path, "the rule sets nothing (give mode, uid, gid, compress or xip)");
	return 0;
}

static int parse_files(struct walk *w, yaml_node_t *n)
{
	size_t count, i = 0;
	int rc;

	if (is_null(n))
		return 0;
	if (n->type != YAML_SEQUENCE_NODE)
		return FAIL(w, n, "files", "expected a list of rules, got %s", kind_name(n));
	count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (!count)
		return 0;
	if (!(w->p->rules = calloc(count, sizeof(*w->p->rules))))
		return nomem(w);
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++, i++)
		if ((rc = parse_rule(w, node_at(w, *it), i)) < 0)
			return rc;
	return 0;
}

/* The host file of an `entries` item: as written when absolute, else
 * relative to the directory of the policy file (where the policy and
 * the files it names are kept together). */
static char *host_source(const char *policy, const char *s)
{
	const char *slash = strrchr(policy, '/');
	size_t dlen = slash ? (size_t)(slash - policy) + 1 : 0;
	char *out;

	if (*s == '/' || !dlen)
		return strdup(s);
	out = malloc(dlen + strlen(s) + 1);
	if (out) {
		memcpy(out, policy, dlen);
		strcpy(out + dlen, s);
	}
	return out;
}

/* The entries by path, over `devices` and `entries` together: a second
 * one with a path is an error naming the first. */
static int dev_hash_reserve(struct walk *w, size_t total)
{
	size_t cap = w->dev_cap ? w->dev_cap : 16, *slot;

	while (cap < 2 * total)
		cap *= 2;
	if (cap == w->dev_cap)
		return 0;
	if (!(slot = calloc(cap, sizeof(*slot))))
		return nomem(w);
	for (size_t k = 0; k < w->dev_cap; k++) {
		size_t i;

		if (!w->dev_slot[k])
			continue;
		i = str_hash(w->p->devices[w->dev_slot[k] - 1].path) & (cap - 1);
		while (slot[i])
			i = (i + 1) & (cap - 1);
		slot[i] = w->dev_slot[k];
	}
	free(w->dev_slot);
	w->dev_slot = slot;
	w->dev_cap = cap;
	return 0;
}

static int dev_hash_add(struct walk *w, size_t idx, yaml_node_t *pathn,
			const char *path)
{
	const struct axfs_policy_device *d = &w->p->devices[idx];
	char key[96];
	size_t i;

	/* a hash of the paths so far: 500,000 devices cost no 10^11
	 * comparisons */
	for (i = str_hash(d->path) & (w->dev_cap - 1); w->dev_slot[i];
	     i = (i + 1) & (w->dev_cap - 1)) {
		const struct axfs_policy_device *o = &w->p->devices[w->dev_slot[i] - 1];

		if (!strcmp(o->path, d->path)) {
			snprintf(key, sizeof(key), "%s.path", path);
			return FAIL(w, pathn, key, "duplicate %s '%s' (first at line %zu, column %zu)",
				    !strcmp(d->section, "devices") ? "device" : "entry",
				    d->path, o->line, o->column);
		}
	}
	w->dev_slot[i] = idx + 1;
	return 0;
}

/* The scalar of key `k` of an item, as a path into the image or a
 * symlink target. */
static int get_target(struct walk *w, yaml_node_t *v, const char *key,
		      struct axfs_policy_device *d)
{
	const char *s, *why;

	if (d->target)
		return 0;
	if (want_scalar(w, v, key, "a path", &s) < 0)
		return AXFS_ERR_INVALID;
	if (d->hardlink) {
		if (!(d->target = policy_image_path(s, &why)))
			return why ? FAIL(w, v, key, "'%s': %s", s, why) : nomem(w);
		return 0;
	}
	if (strlen(s) > POLICY_SYMLINK_MAX)
		return fail_at(w, &v->start_mark, AXFS_ERR_LIMIT, key,
			       "a symlink target of %zu bytes (at most %d)",
			       strlen(s), POLICY_SYMLINK_MAX);
	if (!(d->target = strdup(s)))
		return nomem(w);
	return 0;
}

/* What each type needs and allows, checked once every key is read. */
static int check_item(struct walk *w, yaml_node_t *n, const char *path,
		      struct axfs_policy_device *d, yaml_node_t *major,
		      yaml_node_t *minor, yaml_node_t *target,
		      yaml_node_t *source, yaml_node_t *attrs)
{
	char key[96];
	int dev = d->type == AXFS_FT_CHR || d->type == AXFS_FT_BLK;

	if (dev && (!major || !minor))
		return FAIL(w, n, path, "a %s device needs 'major' and 'minor'",
			    d->type == AXFS_FT_CHR ? "char" : "block");
	if (!dev && (major || minor)) {
		snprintf(key, sizeof(key), "%s.%s", path, major ? "major" : "minor");
		return FAIL(w, major ? major : minor, key,
			    "'major' and 'minor' apply only to char and block devices");
	}
	if ((d->type == AXFS_FT_LNK || d->hardlink) && !target)
		return FAIL(w, n, path, "a %s needs a 'target'",
			    d->hardlink ? "hard link" : "symlink");
	if (d->type != AXFS_FT_LNK && !d->hardlink && target) {
		snprintf(key, sizeof(key), "%s.target", path);
		return FAIL(w, target, key, "'target' applies only to symlink and hardlink");
	}
	if (d->type == AXFS_FT_REG && !d->hardlink && !source)
		return FAIL(w, n, path, "a file needs a 'source' (the host file "
			    "to take its bytes from)");
	if ((d->type != AXFS_FT_REG || d->hardlink) && source) {
		snprintf(key, sizeof(key), "%s.source", path);
		return FAIL(w, source, key, "'source' applies only to type file");
	}
	if (d->hardlink && attrs) {
		snprintf(key, sizeof(key), "%s.%s", path, scalar(attrs));
		return FAIL(w, attrs, key, "a hard link has the mode and owners "
			    "of its target; it takes no mode, uid or gid");
	}
	return 0;
}

/*
 * One item of `devices` or `entries` (`entries` allows file, symlink and
 * hardlink too, and the keys target and source).
 */
static int parse_device(struct walk *w, yaml_node_t *n, const char *section,
			size_t idx, size_t sidx)
{
	static const char *const dev_keys[] = { "path", "type", "major", "minor",
						"mode", "uid", "gid", NULL };
	static const char *const ent_keys[] = { "path", "type", "major", "minor",
						"mode", "uid", "gid", "target",
						"source", NULL };
	int entries = !strcmp(section, "entries");
	struct axfs_policy_device *d = &w->p->devices[idx];
	yaml_node_t *v, *major = NULL, *minor = NULL, *type = NULL, *pathn = NULL;
	yaml_node_t *target = NULL, *source = NULL, *attrs = NULL;
	int has_mode = 0, rc;
	char path[64], key[96];
	const char *k;

	snprintf(path, sizeof(path), "%s[%zu]", section, sidx);
	memset(d, 0, sizeof(*d));
	d->line = n->start_mark.line + 1;
	d->column = n->start_mark.column + 1;
	d->section = entries ? "entries" : "devices";
	d->index = sidx;
	w->p->n_devices = idx + 1;
	if ((rc = check_mapping(w, n, path, entries ?
				"an entry (a mapping with path: and type:)" :
				"a device (a mapping with path: and type:)",
				entries ? ent_keys : dev_keys)) < 0)
		return rc;
	/* the type first: it decides what `target` holds */
	FOR_PAIRS(w, n, k, v) {
		if (strcmp(k, "type"))
			continue;
		snprintf(key, sizeof(key), "%s.type", path);
		if (entries && v->type == YAML_SCALAR_NODE &&
		    !strcmp(scalar(v), "hardlink")) {
			d->hardlink = 1;
			d->type = AXFS_FT_REG;	/* replaced by the target's */
		} else if (entries && v->type == YAML_SCALAR_NODE &&
			   !is_null(v) && parse_ftype(w, v, key, 1, &d->type) < 0) {
			return FAIL(w, v, key, "'%s' is not one of file, dir, "
				    "symlink, hardlink, char, block, fifo, "
				    "socket", scalar(v));
		} else if ((rc = parse_ftype(w, v, key, entries, &d->type)) < 0) {
			return rc;
		}
		type = v;
	}
	FOR_PAIRS(w, n, k, v) {
		uint64_t x;

		snprintf(key, sizeof(key), "%s.%s", path, k);
		if (!strcmp(k, "path")) {
			const char *s, *why;

			if ((rc = want_scalar(w, v, key, "an absolute path", &s)) < 0)
				return rc;
			if (!(d->path = policy_image_path(s, &why)))
				return why ? FAIL(w, v, key, "'%s': %s", s, why) : nomem(w);
			pathn = v;
		} else if (!strcmp(k, "type")) {
			continue;
		} else if (!strcmp(k, "major") || !strcmp(k, "minor")) {
			if ((rc = get_uint(w, v, key, 0, 255, &x)) < 0)
				return rc;
			if (k[1] == 'a') {
				d->major = (uint32_t)x;
				major = v;
			} else {
				d->minor = (uint32_t)x;
				minor = v;
			}
		} else if (!strcmp(k, "target")) {
			target = v;
		} else if (!strcmp(k, "source")) {
			const char *s;

			if ((rc = want_scalar(w, v, key, "a host file", &s)) < 0)
				return rc;
			if (!(d->source = host_source(w->name, s)))
				return nomem(w);
			source = v;
		} else {
			attrs = attrs ? attrs : node_at(w, pr_->key);
			if (!strcmp(k, "mode")) {
				if ((rc = get_mode(w, v, key, &d->mode)) < 0)
					return rc;
				has_mode = 1;
			} else if ((rc = get_u32(w, v, key, !strcmp(k, "uid") ?
						 &d->uid : &d->gid)) < 0) {
				return rc;
			}
		}
	}
	if (!pathn)
		return FAIL(w, n, path, "%s needs a 'path'",
			    entries ? "an entry" : "a device");
	if (!type)
		return FAIL(w, n, path, "%s needs a 'type' (%s)",
			    entries ? "an entry" : "a device", entries ?
			    "file, dir, symlink, hardlink, char, block, fifo or socket" :
			    "char, block, fifo, socket or dir");
	if (target) {
		snprintf(key, sizeof(key), "%s.target", path);
		if ((d->type == AXFS_FT_LNK || d->hardlink) &&
		    (rc = get_target(w, target, key, d)) < 0)
			return rc;
	}
	if ((rc = check_item(w, n, path, d, major, minor, target, source,
			     attrs)) < 0)
		return rc;
	if (!has_mode)
		d->mode = d->type == AXFS_FT_DIR ? 0755 :
			  d->type == AXFS_FT_LNK ? 0777 :
			  d->type == AXFS_FT_REG ? 0644 : 0600;
	return dev_hash_add(w, idx, pathn, path);
}

/* `devices` or `entries`: appended to p->devices in file order. */
static int parse_devices(struct walk *w, yaml_node_t *n, const char *section)
{
	size_t count, i = 0, base = w->p->n_devices;
	struct axfs_policy_device *nd;
	int rc;

	if (is_null(n))
		return 0;
	if (n->type != YAML_SEQUENCE_NODE)
		return FAIL(w, n, section, "expected a list of %s, got %s",
			    !strcmp(section, "devices") ? "devices" : "entries",
			    kind_name(n));
	count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (!count)
		return 0;
	if (!(nd = realloc(w->p->devices, (base + count) * sizeof(*nd))))
		return nomem(w);
	w->p->devices = nd;
	if ((rc = dev_hash_reserve(w, base + count)) < 0)
		return rc;
	rc = 0;
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     rc == 0 && it < n->data.sequence.items.top; it++, i++)
		rc = parse_device(w, node_at(w, *it), section, base + i, i);
	return rc < 0 ? rc : 0;
}

static int parse_split(struct walk *w, yaml_node_t *n)
{
	static const char *const keys[] = { "mmap-limit", NULL };
	const char *k;
	yaml_node_t *v;
	int rc;

	if (is_null(n))
		return 0;
	if ((rc = check_mapping(w, n, "split", "a mapping (mmap-limit)", keys)) < 0)
		return rc;
	FOR_PAIRS(w, n, k, v) {
		(void)k;
		if ((rc = get_size(w, v, "split.mmap-limit", &w->p->mmap_limit)) < 0)
			return rc;
		if (w->p->mmap_limit == 0 || w->p->mmap_limit % AXFS_PAGE_SIZE)
			return FAIL(w, v, "split.mmap-limit",
				    "%s is not a positive multiple of 4KiB", scalar(v));
	}
	return 0;
}

/* pad.byte: 0..255, decimal or 0x hexadecimal (0xff for erased flash). */
static int get_pad_byte(struct walk *w, yaml_node_t *n, int *out)
{
	const char *s;
	char *end;
	unsigned long v;
	int rc;

	if ((rc = want_scalar(w, n, "pad.byte", "a byte (0 to 255, or 0x00 "
			      "to 0xff)", &s)) < 0)
		return rc;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > 255 || *s == '-' || *s == '+')
		return FAIL(w, n, "pad.byte", "'%s' is not a byte (0 to 255, "
			    "or 0x00 to 0xff)", s);
	*out = (int)v;
	return 0;
}

static int parse_pad(struct walk *w, yaml_node_t *n)
{
	static const char *const keys[] = { "size", "byte", NULL };
	const char *k;
	yaml_node_t *v;
	int rc;

	if (is_null(n))
		return 0;
	if ((rc = check_mapping(w, n, "pad", "a mapping (size, byte)", keys)) < 0)
		return rc;
	FOR_PAIRS(w, n, k, v) {
		if (!strcmp(k, "byte")) {
			rc = get_pad_byte(w, v, &w->p->pad_byte);
		} else {
			rc = get_size(w, v, "pad.size", &w->p->pad_size);
			if (rc == 0 && w->p->pad_size == 0)
				return FAIL(w, v, "pad.size", "%s is not a "
					    "positive size", scalar(v));
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int parse_root(struct walk *w, yaml_node_t *n)
{
	static const char *const keys[] = { "compression", "xip", "owners", "files",
					     "devices", "entries", "timestamp", "split",
					     "xattrs", "pad", "exclude", NULL };
	const char *k;
	yaml_node_t *v;
	int rc;

	if (is_null(n))
		return 0;
	if ((rc = check_mapping(w, n, "", "a mapping of sections (compression, xip, owners, files, devices, entries, timestamp, split, xattrs, pad, exclude)", keys)) < 0)
		return rc;
	FOR_PAIRS(w, n, k, v) {
		if (!strcmp(k, "compression"))
			rc = parse_compression(w, v);
		else if (!strcmp(k, "xip"))
			rc = parse_xip(w, v);
		else if (!strcmp(k, "owners"))
			rc = parse_owners(w, v);
		else if (!strcmp(k, "files"))
			rc = parse_files(w, v);
		else if (!strcmp(k, "devices") || !strcmp(k, "entries"))
			rc = parse_devices(w, v, k);
		else if (!strcmp(k, "split"))
			rc = parse_split(w, v);
		else if (!strcmp(k, "xattrs"))
			rc = get_xattrs(w, v);
		else if (!strcmp(k, "pad"))
			rc = parse_pad(w, v);
		else if (!strcmp(k, "exclude"))
			rc = parse_glob_list(w, v, "exclude", &w->p->exclude,
					     &w->p->n_exclude, &w->p->exclude_pos);
		else {
			rc = get_timestamp(w, v, "timestamp", &w->p->timestamp);
			w->p->has_timestamp = rc == 0;
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---- loading ------------------------------------------------------------------ */

/* Line and column of a byte offset (for libyaml reader errors). */
static void offset_to_mark(const char *buf, size_t len, size_t off,
			   yaml_mark_t *m)
{
	m->line = 0;
	m->column = 0;
	for (size_t i = 0; i < off && i < len; i++) {
		if (buf[i] == '\n') {
			m->line++;
			m->column = 0;
		} else {
			m->column++;
		}
	}
}

static int yaml_failed(struct walk *w, yaml_parser_t *ps, const char *buf,
		       size_t len)
{
	yaml_mark_t m = ps->problem_mark;
	const char *problem = ps->problem ? ps->problem : "malformed YAML";

	if (ps->error == YAML_MEMORY_ERROR)
		return nomem(w);
	if (ps->error == YAML_READER_ERROR) {
		offset_to_mark(buf, len, ps->problem_offset, &m);
		return fail_at(w, &m, AXFS_ERR_PARSE, NULL, "%s (byte %zu)",
			       problem, ps->problem_offset);
	}
	if (ps->context)
		return fail_at(w, &m, AXFS_ERR_PARSE, NULL, "%s (%s at line %zu, column %zu)",
			       problem, ps->context, ps->context_mark.line + 1,
			       ps->context_mark.column + 1);
	return fail_at(w, &m, AXFS_ERR_PARSE, NULL, "%s", problem);
}

/*
 * One cheap pass over the events, before the document is built, refuses
 * two kinds of small file that cost far more than their size:
 *
 *  - nesting: libyaml's scanner slows down with every level of flow
 *    nesting ("[[[["), so 100,000 brackets take half a minute.  A policy
 *    is four levels deep at most; anything deeper than MAX_DEPTH is
 *    refused.
 *  - aliases: libyaml's document shares an anchored node between its
 *    aliases, but the walk below copies what it reads (a glob is strdup'ed
 *    and checked each time an alias names it), so 1,000 aliases of a
 *    1 MiB glob cost 1 GiB, and nested anchors ("billion laughs") grow
 *    exponentially.  libyaml leaves this guard to its caller.  The pass
 *    counts what the document holds with every alias expanded (the bytes
 *    of its scalars and its nodes) and refuses it past what a policy
 *    written out in full could hold: POLICY_MAX_BYTES of scalars, a node
 *    for every two bytes.  The error names the alias that crosses the
 *    limit.  An alias inside the node it names (`&a [*a]`, which libyaml
 *    loads as a cycle) is refused too.
 *
 * Syntax errors are left to the loader, which reports them the same way.
 */
#define MAX_DEPTH 32
#define POLICY_MAX_NODES (POLICY_MAX_BYTES / 2)

/* What an anchored node expands to; complete once its end event is seen. */
struct anchor {
	char *name;
	uint64_t bytes, nodes;
	int complete;
};

struct prescan {
	struct anchor *v;	/* every definition, in order */
	size_t n, nalloc;
	size_t *slot;		/* open addressing: 1 + index in v, 0 free */
	size_t cap;		/* a power of two, or 0 */
	uint64_t bytes, nodes;	/* the document so far, aliases expanded */
	struct {
		size_t a;	/* 1 + the anchor of an open collection, or 0 */
		uint64_t bytes, nodes;	/* the totals before it started */
	} open[MAX_DEPTH + 1];
};

/* The slot of name: where it is, or the free one where it would go. */
static size_t *anchor_slot(struct prescan *ps, const char *name)
{
	size_t i = str_hash(name) & (ps->cap - 1);

	while (ps->slot[i] && strcmp(ps->v[ps->slot[i] - 1].name, name))
		i = (i + 1) & (ps->cap - 1);
	return &ps->slot[i];
}

static struct anchor *anchor_find(struct prescan *ps, const char *name)
{
	size_t *sl = ps->cap ? anchor_slot(ps, name) : NULL;

	return sl && *sl ? &ps->v[*sl - 1] : NULL;
}

/* A new definition of name (a name defined again names the new node from
 * here on, as YAML says); its 1-based index, or 0 when out of memory. */
static size_t anchor_define(struct prescan *ps, const char *name)
{
	if (ps->n == ps->nalloc) {
		size_t na = ps->nalloc ? 2 * ps->nalloc : 16;
		struct anchor *v = realloc(ps->v, na * sizeof(*v));

		if (!v)
			return 0;
		ps->v = v;
		ps->nalloc = na;
	}
	if (2 * (ps->n + 1) > ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 64, *old = ps->slot;
		size_t ocap = ps->cap;

		if (!(ps->slot = calloc(cap, sizeof(*ps->slot)))) {
			ps->slot = old;
			return 0;
		}
		ps->cap = cap;
		for (size_t k = 0; k < ocap; k++)
			if (old[k])
				*anchor_slot(ps, ps->v[old[k] - 1].name) = old[k];
		free(old);
	}
	memset(&ps->v[ps->n], 0, sizeof(ps->v[ps->n]));
	if (!(ps->v[ps->n].name = strdup(name)))
		return 0;
	ps->n++;
	*anchor_slot(ps, name) = ps->n;
	return ps->n;
}

static void prescan_free(struct prescan *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->v[i].name);
	free(ps->v);
	free(ps->slot);
}

/* Adds a node (or an alias's expansion) to the totals; <0 past a limit. */
static int prescan_add(struct walk *w, struct prescan *ps,
		       const yaml_event_t *ev, uint64_t bytes, uint64_t nodes)
{
	ps->bytes += bytes;
	ps->nodes += nodes;
	if (ps->bytes <= POLICY_MAX_BYTES && ps->nodes <= POLICY_MAX_NODES)
		return 0;
	if (ps->bytes > POLICY_MAX_BYTES)
		return fail_at(w, &ev->start_mark, AXFS_ERR_LIMIT, NULL,
			       "%s expands the policy to more than %u MiB of "
			       "values, more than a policy written out in "
			       "full can hold", ev->type == YAML_ALIAS_EVENT ?
			       "this alias" : "this value",
			       POLICY_MAX_BYTES >> 20);
	return fail_at(w, &ev->start_mark, AXFS_ERR_LIMIT, NULL,
		       "%s expands the policy to more than %u nodes, more "
		       "than a policy written out in full can hold",
		       ev->type == YAML_ALIAS_EVENT ? "this alias" : "this value",
		       (unsigned)POLICY_MAX_NODES);
}

static int prescan_event(struct walk *w, struct prescan *ps, int *depth,
			 const yaml_event_t *ev)
{
	const char *anchor;
	struct anchor *a;
	size_t ai = 0;

	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		if (ev->data.scalar.anchor) {
			if (!(ai = anchor_define(ps, (const char *)ev->data.scalar.anchor)))
				return nomem(w);
			a = &ps->v[ai - 1];
			a->bytes = ev->data.scalar.length;
			a->nodes = 1;
			a->complete = 1;
		}
		return prescan_add(w, ps, ev, ev->data.scalar.length, 1);
	case YAML_ALIAS_EVENT:
		a = anchor_find(ps, (const char *)ev->data.alias.anchor);
		if (!a)
			return 0;	/* undefined: the loader says so */
		if (!a->complete)
			return fail_at(w, &ev->start_mark, AXFS_ERR_PARSE, NULL,
				       "alias '*%s' inside the node it names "
				       "(a cycle)", a->name);
		return prescan_add(w, ps, ev, a->bytes, a->nodes);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (++*depth > MAX_DEPTH)
			return fail_at(w, &ev->start_mark, AXFS_ERR_PARSE, NULL,
				       "nested deeper than %d levels; a policy is never that deep",
				       MAX_DEPTH);
		anchor = (const char *)(ev->type == YAML_SEQUENCE_START_EVENT ?
					ev->data.sequence_start.anchor :
					ev->data.mapping_start.anchor);
		if (anchor && !(ai = anchor_define(ps, anchor)))
			return nomem(w);
		ps->open[*depth].a = ai;
		ps->open[*depth].bytes = ps->bytes;
		ps->open[*depth].nodes = ps->nodes;
		return prescan_add(w, ps, ev, 0, 1);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (*depth <= 0)
			return 0;
		if ((ai = ps->open[*depth].a)) {
			a = &ps->v[ai - 1];
			a->bytes = ps->bytes - ps->open[*depth].bytes;
			a->nodes = ps->nodes - ps->open[*depth].nodes;
			a->complete = 1;
		}
		--*depth;
		return 0;
	default:
		return 0;
	}
}

static int prescan(struct walk *w, const char *buf, size_t len)
{
	struct prescan ps;
	yaml_parser_t yp;
	yaml_event_t ev;
	int depth = 0, rc = 0;

	memset(&ps, 0, sizeof(ps));
	if (!yaml_parser_initialize(&yp))
		return nomem(w);
	yaml_parser_set_input_string(&yp, (const unsigned char *)buf, len);
	for (;;) {
		int end;

		if (!yaml_parser_parse(&yp, &ev))
			break;
		rc = prescan_event(w, &ps, &depth, &ev);
		end = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		if (end || rc < 0)
			break;
	}
	yaml_parser_delete(&yp);
	prescan_free(&ps);
	return rc;
}

int axfs_policy_parse(struct axfs_policy *p, const char *name,
		      const char *buf, size_t len, struct axfs_error *err)
{
	struct walk w = { p, NULL, name, err, 0, NULL, 0 };
	yaml_parser_t ps;
	yaml_document_t doc, extra;
	int rc = 0;

	axfs_policy_free(p);
	if (len > POLICY_MAX_BYTES)
		return axfs_error_set(err, AXFS_ERR_LIMIT,
				      "'%s' is larger than %u MiB; that is not a policy",
				      name, POLICY_MAX_BYTES >> 20);
	if (!(p->file = strdup(name)))
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	if ((rc = prescan(&w, buf, len)) < 0) {
		axfs_policy_free(p);
		return rc;
	}
	if (!yaml_parser_initialize(&ps))
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	yaml_parser_set_input_string(&ps, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&ps, &doc)) {
		rc = yaml_failed(&w, &ps, buf, len);
		yaml_parser_delete(&ps);
		axfs_policy_free(p);
		return rc;
	}
	w.doc = &doc;
	if (yaml_document_get_root_node(&doc)) {
		/* a second document is a mistake, not something to ignore */
		if (!yaml_parser_load(&ps, &extra)) {
			rc = yaml_failed(&w, &ps, buf, len);
		} else {
			if (yaml_document_get_root_node(&extra))
				rc = fail_at(&w, &extra.start_mark, AXFS_ERR_PARSE, NULL,
					     "a policy is one YAML document; a second one starts here");
			yaml_document_delete(&extra);
		}
		if (rc == 0)
			rc = parse_root(&w, yaml_document_get_root_node(&doc));
	}
	free(w.dev_slot);
	yaml_document_delete(&doc);
	yaml_parser_delete(&ps);
	if (rc < 0)
		axfs_policy_free(p);	/* all or nothing */
	return rc;
}

int axfs_policy_load(struct axfs_policy *p, const char *file,
		     struct axfs_error *err)
{
	FILE *f = fopen(file, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (!f)
		return axfs_error_sys(err, errno, "cannot open '%s'", file);
	for (;;) {
		size_t got;

		if (len == cap) {
			char *nb;

			if (cap >= POLICY_MAX_BYTES) {
				fclose(f);
				free(buf);
				return axfs_error_set(err, AXFS_ERR_LIMIT,
						      "'%s' is larger than %u MiB; that is not a policy",
						      file, POLICY_MAX_BYTES >> 20);
			}
			cap = cap ? cap * 2 : 4096;
			if (!(nb = realloc(buf, cap))) {
				fclose(f);
				free(buf);
				return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		fclose(f);
		free(buf);
		return axfs_error_sys(err, e, "cannot read '%s'", file);
	}
	fclose(f);
	rc = axfs_policy_parse(p, file, buf ? buf : "", len, err);
	free(buf);
	return rc;
}
