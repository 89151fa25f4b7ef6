// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tree.c - the in-memory tree mkfs builds before planning.
 *
 * Entries arrive in any order from a source.  A hash index keyed by
 * (parent, name) finds existing entries, so implied parents and repeated
 * paths are handled in O(1) per component.  Finalising sorts each
 * directory's children in strcmp() order (the 2008 driver's lookup stops
 * at the first name that sorts after the one it wants) and numbers the
 * inodes breadth-first, which makes the children of every directory a run
 * of consecutive inode numbers starting at the directory's array_index,
 * as readdir and lookup require.  Root is inode 0.
 *
 * Nothing here depends on hash order or addresses: every loop that
 * produces output walks the insertion-ordered list or the sorted children.
 */
#include "tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "axfs_format.h"

/* Longest symlink target: page 0 must also hold the NUL after it. */
#define TREE_SYMLINK_MAX (AXFS_PAGE_SIZE - 1)


struct node {
	struct tree_entry e;		/* first: a node is its entry */
	uint64_t serial;		/* insertion order; hashes the parent */
	uint8_t implicit;		/* parent created for a deeper path */
	uint8_t has_links;		/* master of a hard-link group */
};

struct tree_priv {
	struct node **slots;		/* open addressing, linear probing */
	size_t nslots, used;		/* nslots is a power of two */
	struct node **all;		/* every node, in insertion order */
	size_t nall, allcap;
};

static struct node *to_node(struct tree_entry *e)
{
	return (struct node *)e;	/* e is the first member */
}

static uint64_t hash_key(uint64_t parent_serial, const char *name,
			 size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a, then a mix */

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)name[i];
		h *= 0x100000001b3ull;
	}
	h ^= parent_serial + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static struct node **index_find_slot(struct tree_priv *p,
				     const struct node *parent,
				     const char *name, size_t len)
{
	size_t mask = p->nslots - 1;
	size_t i = hash_key(parent->serial, name, len) & mask;

	for (;;) {
		struct node *n = p->slots[i];

		if (!n)
			return &p->slots[i];
		if (to_node(n->e.parent) == parent && n->e.name_len == len &&
		    memcmp(n->e.name, name, len) == 0)
			return &p->slots[i];
		i = (i + 1) & mask;
	}
}

static int index_grow(struct tree_priv *p)
{
	size_t nslots = p->nslots ? p->nslots * 2 : 1024;
	struct node **old = p->slots;
	size_t oldn = p->nslots;

	p->slots = calloc(nslots, sizeof(*p->slots));
	if (!p->slots) {
		p->slots = old;
		return -1;
	}
	p->nslots = nslots;
	for (size_t i = 0; i < oldn; i++) {
		struct node *n = old[i];

		if (n)
			*index_find_slot(p, to_node(n->e.parent), n->e.name,
					 n->e.name_len) = n;
	}
	free(old);
	return 0;
}

static struct node *find_child(struct tree_priv *p, struct node *parent,
			       const char *name, size_t len)
{
	return *index_find_slot(p, parent, name, len);
}

static void entry_release_content(struct tree_entry *e)
{
	free(e->link_target);
	e->link_target = NULL;
	free(e->data.host_path);
	e->data.host_path = NULL;
	e->data.size = 0;
	e->data.spool_offset = 0;
}

static struct node *node_new(struct tree *t, struct node *parent,
			     const char *name, size_t len,
			     struct axfs_error *err)
{
	struct tree_priv *p = t->priv;
	struct node *n;

	if (p->nall == p->allcap) {
		size_t cap = p->allcap ? p->allcap * 2 : 256;
		struct node **v = realloc(p->all, cap * sizeof(*v));

		if (!v)
			goto nomem;
		p->all = v;
		p->allcap = cap;
	}
	if (parent && (p->used + 1) * 2 > p->nslots && index_grow(p) < 0)
		goto nomem;
	if (parent && parent->e.nchildren == parent->e.children_cap) {
		size_t cap = parent->e.children_cap ?
			     parent->e.children_cap * 2 : 4;
		struct tree_entry **v =
			realloc(parent->e.children, cap * sizeof(*v));

		if (!v)
			goto nomem;
		parent->e.children = v;
		parent->e.children_cap = cap;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		goto nomem;
	n->e.name = malloc(len + 1);
	if (!n->e.name) {
		free(n);
		goto nomem;
	}
	memcpy(n->e.name, name, len);
	n->e.name[len] = '\0';
	n->e.name_len = (uint32_t)len;
	n->e.parent = parent ? &parent->e : NULL;
	n->e.link_master = &n->e;
	n->e.want_xip = -1;
	n->e.want_compress = -1;
	n->serial = p->nall;
	p->all[p->nall++] = n;
	if (parent) {
		*index_find_slot(p, parent, name, len) = n;
		p->used++;
		parent->e.children[parent->e.nchildren++] = &n->e;
	}
	t->count++;
	return n;
nomem:
	axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory for the file tree");
	return NULL;
}

static void set_implicit_dir(struct node *n)
{
	n->e.type = AXFS_FT_DIR;
	n->e.mode = S_IFDIR | 0755;
	n->e.uid = 0;
	n->e.gid = 0;
	n->implicit = 1;
}

int tree_init(struct tree *t, const struct axfs_logger *log,
	      struct axfs_error *err)
{
	struct node *root;

	memset(t, 0, sizeof(*t));
	t->log = log;
	t->priv = calloc(1, sizeof(struct tree_priv));
	if (!t->priv || index_grow(t->priv) < 0) {
		free(t->priv);
		t->priv = NULL;
		return axfs_error_set(err, AXFS_ERR_NOMEM,
				      "out of memory for the file tree");
	}
	root = node_new(t, NULL, "", 0, err);
	if (!root) {
		tree_free(t);
		return AXFS_ERR_NOMEM;
	}
	/* Until the source says otherwise the root is 0755 root:root. */
	set_implicit_dir(root);
	t->root = &root->e;
	return 0;
}

/*
 * Iterates over the components of a path: leading '/', repeated '/' and
 * "." components are skipped, so "/a/b", "a//b" and "./a/b" are the same
 * path and "", "/" and "." are the root.  ".." is refused by the caller.
 */
struct path_iter {
	const char *s;
};

static int next_component(struct path_iter *it, const char **c, size_t *len)
{
	for (;;) {
		const char *s = it->s;
		const char *end;

		while (*s == '/')
			s++;
		if (!*s) {
			it->s = s;
			return 0;
		}
		end = strchr(s, '/');
		if (!end)
			end = s + strlen(s);
		it->s = end;
		if (end - s == 1 && s[0] == '.')
			continue;
		*c = s;
		*len = (size_t)(end - s);
		return 1;
	}
}

static int is_last_component(const struct path_iter *it)
{
	struct path_iter copy = *it;
	const char *c;
	size_t l;

	return !next_component(&copy, &c, &l);
}

/* Writes the image path "/a/b" of the parent plus name into buf. */
static void child_path(const struct node *parent, const char *name,
		       size_t len, char *buf, size_t buflen)
{
	size_t n = tree_entry_path(&parent->e, buf, buflen);

	if (n == 1)	/* the root: "/" */
		n = 0;
	if (n < buflen)
		snprintf(buf + n, buflen - n, "/%.*s", (int)len, name);
}

/* Moves a hard-link group's data to its next member before the master is
 * replaced, so the other links keep the content they were made with. */
static void promote_link_master(struct tree *t, struct node *old)
{
	struct tree_priv *p = t->priv;
	struct node *heir = NULL;

	for (size_t i = 0; i < p->nall; i++) {
		struct node *n = p->all[i];

		if (n == old || n->e.link_master != &old->e)
			continue;
		if (!heir) {
			heir = n;
			heir->e.data = old->e.data;
			memset(&old->e.data, 0, sizeof(old->e.data));
		}
		n->e.link_master = &heir->e;
		heir->has_links = (n != heir) || heir->has_links;
	}
	old->has_links = 0;
}

static int fill_entry(struct tree *t, struct node *n,
		      const struct source_entry *e, const char *path,
		      struct axfs_error *err)
{
	struct tree_entry *x = &n->e;
	struct node *master = NULL;
	char *target = NULL;

	if (e->hardlink_to) {
		struct tree_entry *m = tree_lookup(t, e->hardlink_to);

		if (!m)
			return axfs_error_set(err, AXFS_ERR_INVALID,
				"hard link '/%s' points to '%s', which is not "
				"in the source before it", path, e->hardlink_to);
		if (m->type == AXFS_FT_DIR)
			return axfs_error_set(err, AXFS_ERR_INVALID,
				"hard link '/%s' points to the directory '%s': "
				"directories cannot be hard-linked", path,
				e->hardlink_to);
		if (m == x) {	/* a link to itself changes nothing */
			free(e->data.host_path);
			return 0;
		}
		/* Replacing a group's master: its data moves to the next
		 * member first (which may be the entry we link to). */
		if (n->has_links)
			promote_link_master(t, n);
		master = to_node(m->link_master);
		if (master->e.link_target) {
			target = strdup(master->e.link_target);
			if (!target)
				return axfs_error_set(err, AXFS_ERR_NOMEM,
						      "out of memory");
		}
	} else if (e->type == AXFS_FT_LNK) {
		target = strdup(e->link_target ? e->link_target : "");
		if (!target)
			return axfs_error_set(err, AXFS_ERR_NOMEM,
					      "out of memory");
	}

	if (n->has_links)
		promote_link_master(t, n);
	entry_release_content(x);
	x->link_master = x;
	x->lossy = e->lossy;
	x->link_target = target;
	if (master) {
		/* One inode, several names: everything comes from the
		 * group's master; the data is stored once. */
		x->type = master->e.type;
		x->mode = master->e.mode;
		x->uid = master->e.uid;
		x->gid = master->e.gid;
		x->size = master->e.size;
		x->rdev_major = master->e.rdev_major;
		x->rdev_minor = master->e.rdev_minor;
		x->data.size = master->e.data.size;
		x->data.data_bytes = master->e.data.data_bytes;
		x->link_master = &master->e;
		master->has_links = 1;
		/* The source passed ownership of a host path we do not need. */
		free(e->data.host_path);
	} else {
		x->type = e->type;
		x->mode = axfs_ftype_to_mode(e->type) | (e->mode & 07777);
		x->uid = e->uid;
		x->gid = e->gid;
		x->rdev_major = e->rdev_major;
		x->rdev_minor = e->rdev_minor;
		if (e->type == AXFS_FT_REG) {
			x->data = e->data;
			x->size = e->data.size;
		} else {
			free(e->data.host_path);
			x->size = target ? strlen(target) : 0;
		}
	}
	n->implicit = 0;
	return 0;
}

int tree_add(struct tree *t, const struct source_entry *e,
	     struct tree_entry **out, struct axfs_error *err)
{
	struct tree_priv *p = t->priv;
	struct node *cur = to_node(t->root);
	struct path_iter it = { e->path ? e->path : "" };
	const char *c;
	size_t len;
	char pathbuf[4200];
	int rc;

	if (e->type == AXFS_FT_NONE || !axfs_ftype_to_mode(e->type))
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "'%s' has an unknown file type",
				      e->path ? e->path : "");
	if (e->type == AXFS_FT_REG &&
	    e->data.size > TREE_FILE_MAX)
		return axfs_error_set(err, AXFS_ERR_LIMIT,
				      "'%s' is %llu bytes; an AXFS file is at "
				      "most %llu bytes (16 TiB - 4 KiB, the "
				      "largest a 32-bit kernel opens)",
				      e->path ? e->path : "",
				      (unsigned long long)e->data.size,
				      TREE_FILE_MAX);

	while (next_component(&it, &c, &len)) {
		int last = is_last_component(&it);
		struct node *n;

		if (len == 2 && c[0] == '.' && c[1] == '.')
			return axfs_error_set(err, AXFS_ERR_INVALID,
				"'%s' contains a '..' component", e->path);
		if (len > AXFS_MAXPATHLEN)
			return axfs_error_set(err, AXFS_ERR_LIMIT,
				"'%s': a name is %zu bytes long; AXFS names "
				"are at most %d bytes", e->path, len,
				AXFS_MAXPATHLEN);
		if (cur->e.type != AXFS_FT_DIR) {
			tree_entry_path(&cur->e, pathbuf, sizeof(pathbuf));
			return axfs_error_set(err, AXFS_ERR_INVALID,
				"'%s' needs '%s' to be a directory, but it is "
				"a %s", e->path, pathbuf,
				axfs_ftype_name(cur->e.type));
		}
		n = find_child(p, cur, c, len);
		if (!last) {
			if (!n) {
				n = node_new(t, cur, c, len, err);
				if (!n)
					return AXFS_ERR_NOMEM;
				set_implicit_dir(n);
				child_path(cur, c, len, pathbuf,
					   sizeof(pathbuf));
				axfs_log(t->log, AXFS_LOG_INFO,
					 "'%s' is not in the source; adding "
					 "it as a directory 0755 root:root",
					 pathbuf);
			}
			cur = n;
			continue;
		}
		/* The entry itself. */
		if (n) {
			child_path(cur, c, len, pathbuf, sizeof(pathbuf));
			if (n->e.type == AXFS_FT_DIR && n->e.nchildren &&
			    e->type != AXFS_FT_DIR && !e->hardlink_to)
				return axfs_error_set(err, AXFS_ERR_INVALID,
					"'%s' appears again as a %s, but it is "
					"a directory that already has entries",
					pathbuf, axfs_ftype_name(e->type));
			if (n->e.type == AXFS_FT_DIR && n->e.nchildren &&
			    e->hardlink_to)
				return axfs_error_set(err, AXFS_ERR_INVALID,
					"'%s' appears again as a hard link, but "
					"it is a directory that already has "
					"entries", pathbuf);
			if (!n->implicit)
				axfs_log(t->log, AXFS_LOG_WARN,
					 "'%s' appears more than once in the "
					 "source; the last one wins", pathbuf);
		} else {
			n = node_new(t, cur, c, len, err);
			if (!n)
				return AXFS_ERR_NOMEM;
		}
		rc = fill_entry(t, n, e, e->path, err);
		if (rc < 0)
			return rc;
		if (out)
			*out = &n->e;
		return 0;
	}

	/* No component: the root itself. */
	if (e->type != AXFS_FT_DIR || e->hardlink_to)
		return axfs_error_set(err, AXFS_ERR_INVALID,
			"the root of the source is a %s, not a directory",
			e->hardlink_to ? "hard link" :
			axfs_ftype_name(e->type));
	if (!cur->implicit)
		axfs_log(t->log, AXFS_LOG_WARN,
			 "'/' appears more than once in the source; the last "
			 "one wins");
	rc = fill_entry(t, cur, e, "", err);
	if (rc < 0)
		return rc;
	if (out)
		*out = &cur->e;
	return 0;
}

struct tree_entry *tree_lookup(const struct tree *t,
			       const char *path)
{
	struct path_iter it = { path ? path : "" };
	struct node *cur = to_node(t->root);
	const char *c;
	size_t len;

	while (next_component(&it, &c, &len)) {
		if (cur->e.type != AXFS_FT_DIR)
			return NULL;
		cur = find_child(t->priv, cur, c, len);
		if (!cur)
			return NULL;
	}
	return &cur->e;
}

size_t tree_entry_path(const struct tree_entry *e, char *buf,
		       size_t len)
{
	const struct tree_entry *a;
	size_t total = 0, pos;

	if (!e->parent) {
		if (len)
			snprintf(buf, len, "/");
		return 1;
	}
	for (a = e; a->parent; a = a->parent)
		total += 1 + a->name_len;
	if (!len)
		return total;
	/* Fill from the end; whatever does not fit is cut off the end. */
	pos = total;
	for (a = e; a->parent; a = a->parent) {
		pos -= a->name_len;
		for (size_t i = 0; i < a->name_len; i++)
			if (pos + i < len - 1)
				buf[pos + i] = a->name[i];
		pos--;
		if (pos < len - 1)
			buf[pos] = '/';
	}
	buf[total < len - 1 ? total : len - 1] = '\0';
	return total;
}

static int cmp_names(const void *a, const void *b)
{
	const struct tree_entry *x = *(const struct tree_entry *const *)a;
	const struct tree_entry *y = *(const struct tree_entry *const *)b;
	size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c = memcmp(x->name, y->name, n);	/* unsigned bytes */

	if (c)
		return c;
	return (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

static int check_entry(const struct tree_entry *e, struct axfs_error *err)
{
	char path[4200];

	switch (e->type) {
	case AXFS_FT_CHR:
	case AXFS_FT_BLK:
		if (e->rdev_major > AXFS_DEV_MAJOR_MAX ||
		    e->rdev_minor > AXFS_DEV_MINOR_MAX) {
			tree_entry_path(e, path, sizeof(path));
			return axfs_error_set(err, AXFS_ERR_LIMIT,
				"'%s' is a %s with number %u:%u; AXFS stores "
				"8-bit major and minor numbers (at most "
				"255:255)", path, axfs_ftype_name(e->type),
				e->rdev_major, e->rdev_minor);
		}
		break;
	case AXFS_FT_LNK:
		if (e->size == 0 || e->size > TREE_SYMLINK_MAX) {
			tree_entry_path(e, path, sizeof(path));
			return axfs_error_set(err, AXFS_ERR_LIMIT,
				"symlink '%s' has a target of %llu bytes; "
				"AXFS symlink targets are 1 to %u bytes", path,
				(unsigned long long)e->size, TREE_SYMLINK_MAX);
		}
		break;
	default:
		break;
	}
	return 0;
}

int tree_finalize(struct tree *t, struct axfs_error *err)
{
	struct tree_priv *p = t->priv;
	struct tree_entry **by;
	uint64_t next = 1;
	int rc;

	if (t->root->nchildren == 0)
		return axfs_error_set(err, AXFS_ERR_INVALID,
			"the root directory is empty: the AXFS driver refuses "
			"to mount an image with no entries");
	if ((uint64_t)t->count > AXFS_MAX_INODES)
		return axfs_error_set(err, AXFS_ERR_LIMIT,
			"%zu entries; AXFS images hold at most %llu", t->count,
			(unsigned long long)AXFS_MAX_INODES);

	for (size_t i = 0; i < p->nall; i++) {
		struct tree_entry *e = &p->all[i]->e;

		rc = check_entry(e, err);
		if (rc < 0)
			return rc;
		if (e->nchildren > 1)
			qsort(e->children, e->nchildren, sizeof(*e->children),
			      cmp_names);
	}

	by = malloc(t->count * sizeof(*by));
	if (!by)
		return axfs_error_set(err, AXFS_ERR_NOMEM,
				      "out of memory numbering %zu inodes",
				      t->count);
	/* Breadth-first: by[] doubles as the queue. */
	by[0] = t->root;
	t->root->ino = 0;
	for (uint64_t i = 0; i < next; i++) {
		struct tree_entry *d = by[i];

		for (size_t c = 0; c < d->nchildren; c++) {
			d->children[c]->ino = next;
			by[next++] = d->children[c];
		}
	}
	free(t->by_ino);
	t->by_ino = by;
	return 0;
}

/* Visits every entry (parents before children), without recursion. */
int tree_for_each_entry(struct tree *t, tree_entry_fn fn, void *ctx)
{
	struct tree_entry **stack;
	size_t n = 0;

	stack = malloc((t->count + 1) * sizeof(*stack));
	if (!stack)
		return -1;
	stack[n++] = t->root;
	while (n) {
		struct tree_entry *e = stack[--n];

		fn(e, ctx);
		for (size_t i = 0; i < e->nchildren; i++)
			stack[n++] = e->children[i];
	}
	free(stack);
	return 0;
}

void tree_free(struct tree *t)
{
	struct tree_priv *p;

	if (!t)
		return;
	p = t->priv;
	if (p) {
		for (size_t i = 0; i < p->nall; i++) {
			struct node *n = p->all[i];

			entry_release_content(&n->e);
			free(n->e.name);
			free(n->e.children);
			free(n->e.pages);
			free(n);
		}
		free(p->all);
		free(p->slots);
		free(p);
	}
	free(t->by_ino);
	memset(t, 0, sizeof(*t));
}

const char *tree_page_reason_name(enum tree_page_reason r)
{
	switch (r) {
	case TREE_WHY_DEFAULT: return "default";
	case TREE_WHY_PROFILE: return "profile";
	case TREE_WHY_XIP_GLOB: return "xip-glob";
	case TREE_WHY_WHOLE_FILE: return "whole-file";
	case TREE_WHY_POLICY_RULE: return "policy-rule";
	case TREE_WHY_BUDGET: return "budget";
	case TREE_WHY_EXCLUDED: return "excluded";
	case TREE_WHY_MIN_COUNT: return "min-count";
	case TREE_WHY_MMAP_LIMIT: return "mmap-limit";
	case TREE_WHY_INCOMPRESSIBLE: return "incompressible";
	case TREE_WHY_TAIL: return "tail";
	case TREE_WHY_UNCOMPRESSED: return "uncompressed";
	case TREE_WHY_DEDUP: return "dedup";
	case TREE_WHY_SUFFIX: return "suffix";
	case TREE_WHY_COUNT: break;
	}
	return "unknown";
}
