// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/diff.c - axfs diff: what differs between two images, trees or
 * archives, in any mix.
 *
 *   axfs diff [--no-owner] [--no-mode] [--json] [-q] A B
 *
 * Each side is read through the library's sources (an AXFS image, a
 * directory or an archive: whatever mkfs takes) into a tree, as mkfs
 * reads it, so both sides are compared the way an image stores them:
 * type, permission bits, owner, content, symlink target and device
 * numbers; never times, xattrs or link counts, which AXFS does not keep.
 * Paths are reported in bytewise order; an added or removed directory is
 * reported with everything under it.  Exit status as diff(1) and sqfsdiff:
 * 0 the same, 1 different, 2 trouble (including a bad command line).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "escape.h"
#include "json.h"
#include "image_operands.h"
#include "options.h"
#include "source.h"
#include "tree.h"

#define DIFF_SAME	0
#define DIFF_DIFFERENT	1
#define DIFF_TROUBLE	2
#define DIFF_CHUNK	(64u * 1024u)

static const struct cmd_usage usage = {
"usage: axfs diff [options] A B\n"
"\n"
"Compare A and B, each an AXFS image, a directory or an archive (- for\n"
"standard input, an image or an archive), as an\n"
"image stores them: added, removed and changed paths (type, content, mode,\n"
"owner, symlink target, device numbers).  Exit status: 0 the same,\n"
"1 different, 2 trouble.\n"
"\n",
"\nSee axfs-diff(1).\n",
};

struct side {
	const char *name;
	const char *store;		/* --store-a/-b */
	struct source *src;
	struct tree tree;
	int have_tree;
};

enum change {
	CH_TYPE = 1 << 0,
	CH_CONTENT = 1 << 1,
	CH_TARGET = 1 << 2,
	CH_DEVICE = 1 << 3,
	CH_MODE = 1 << 4,
	CH_OWNER = 1 << 5,
};

static const char *const change_names[] = {
	"type", "content", "link target", "device", "mode", "owner",
};

struct diff {
	struct side a, b;
	int no_owner, no_mode, json, quiet;
	uint64_t added, removed, changed;
	int first;			/* JSON: no difference printed yet */
	unsigned char *buf_a, *buf_b;
	char path[4200];
};

static int load_side(struct side *s, const char *path)
{
	struct source_opts so;
	struct source_entry ent;
	struct axfs_error err;
	int rc;

	memset(&so, 0, sizeof(so));
	so.log = &cmd_logger;
	so.store_path = s->store;
	so.max_memory = cmd_image.max_memory;
	s->name = path;
	axfs_error_clear(&err);
	if (source_open(&s->src, path, &so, &err) < 0 ||
	    tree_init(&s->tree, &cmd_logger, &err) < 0)
		goto fail;
	s->have_tree = 1;
	while ((rc = s->src->ops->next(s->src, &ent, &err)) > 0) {
		if (tree_add(&s->tree, &ent, NULL, &err) < 0) {
			free(ent.data.host_path);
			goto fail_named;
		}
	}
	if (rc < 0)
		goto fail;
	if (tree_finalize(&s->tree, &err) < 0)
		goto fail_named;
	return 0;
fail_named:
	cmd_error("'%s': %s", path, err.msg);
	return -1;
fail:
	cmd_error("%s", err.msg);
	return -1;
}

static void free_side(struct side *s)
{
	if (s->have_tree)
		tree_free(&s->tree);
	source_destroy(s->src);
}

static const struct tree_entry *data_of(const struct tree_entry *e)
{
	return e->link_master ? e->link_master : e;
}

/* Up to want bytes of the file open at h, fewer only at its end (*got). */
static int read_full(struct source *s, void *h, uint8_t *buf, size_t want,
		     size_t *got, struct axfs_error *err)
{
	size_t n;

	for (*got = 0; *got < want; *got += n) {
		if (s->ops->data_read(s, h, buf + *got, want - *got, &n,
				      err) < 0)
			return -1;
		if (!n)
			break;
	}
	return 0;
}

/* 0 same bytes, 1 different, -1 trouble (reported). */
static int compare_data(struct diff *d, const struct tree_entry *ea,
			const struct tree_entry *eb)
{
	const struct tree_entry *ma = data_of(ea), *mb = data_of(eb);
	struct source *sa = d->a.src, *sb = d->b.src;
	struct axfs_error err;
	void *ha = NULL, *hb = NULL;
	uint64_t left = ma->data.size;
	int rc = -1;

	if (ma->data.size != mb->data.size)
		return 1;
	axfs_error_clear(&err);
	if (sa->ops->data_open(sa, &ma->data, &ha, &err) < 0 ||
	    sb->ops->data_open(sb, &mb->data, &hb, &err) < 0) {
		cmd_error("%s", err.msg);
		goto out;
	}
	while (left) {
		size_t want = left < DIFF_CHUNK ? (size_t)left : DIFF_CHUNK;
		size_t ga, gb;

		if (read_full(sa, ha, d->buf_a, want, &ga, &err) < 0 ||
		    read_full(sb, hb, d->buf_b, want, &gb, &err) < 0)
			goto read_fail;
		if (ga != want || gb != want) {
			cmd_error("'%s': shorter than its size", d->path);
			goto out;
		}
		if (memcmp(d->buf_a, d->buf_b, want)) {
			rc = 1;
			goto out;
		}
		left -= want;
	}
	rc = 0;
	goto out;
read_fail:
	cmd_error("'%s': %s", d->path, err.msg);
out:
	if (ha)
		sa->ops->data_close(sa, ha);
	if (hb)
		sb->ops->data_close(sb, hb);
	return rc;
}

/* The change bits of two entries of one path, or -1 on trouble. */
static int changes_of(struct diff *d, const struct tree_entry *a,
		      const struct tree_entry *b)
{
	int ch = 0, rc;

	if (a->type != b->type)
		ch |= CH_TYPE;
	else if (a->type == AXFS_FT_REG) {
		rc = compare_data(d, a, b);
		if (rc < 0)
			return -1;
		if (rc)
			ch |= CH_CONTENT;
	} else if (a->type == AXFS_FT_LNK) {
		if (strcmp(a->link_target ? a->link_target : "",
			   b->link_target ? b->link_target : ""))
			ch |= CH_TARGET;
	} else if (a->type == AXFS_FT_CHR || a->type == AXFS_FT_BLK) {
		if (a->rdev_major != b->rdev_major ||
		    a->rdev_minor != b->rdev_minor)
			ch |= CH_DEVICE;
	}
	/* A symlink's permission bits mean nothing (always 0777 on Linux). */
	if (!d->no_mode && (a->mode & 07777) != (b->mode & 07777) &&
	    !(a->type == AXFS_FT_LNK && b->type == AXFS_FT_LNK))
		ch |= CH_MODE;
	if (!d->no_owner && (a->uid != b->uid || a->gid != b->gid))
		ch |= CH_OWNER;
	return ch;
}

static void json_entry(const struct tree_entry *e)
{
	printf("{\"type\": ");
	json_cstr(stdout, axfs_ftype_name(e->type));
	printf(", \"mode\": %u, \"uid\": %" PRIu32 ", \"gid\": %" PRIu32,
	       e->mode & 07777, e->uid, e->gid);
	if (e->type == AXFS_FT_REG)
		printf(", \"size\": %" PRIu64, data_of(e)->data.size);
	if (e->type == AXFS_FT_LNK) {
		printf(", \"target\": ");
		json_cstr(stdout, e->link_target ? e->link_target : "");
	}
	if (e->type == AXFS_FT_CHR || e->type == AXFS_FT_BLK)
		printf(", \"rdev_major\": %" PRIu32 ", \"rdev_minor\": %" PRIu32,
		       e->rdev_major, e->rdev_minor);
	printf("}");
}

static void print_json(struct diff *d, const char *status,
		       const struct tree_entry *a,
		       const struct tree_entry *b, int ch)
{
	printf("%s\n    {\"path\": ", d->first ? "" : ",");
	d->first = 0;
	json_str(stdout, d->path, strlen(d->path));
	printf(", \"status\": \"%s\"", status);
	if (ch) {
		int n = 0;

		printf(", \"changes\": [");
		for (size_t i = 0; i < sizeof(change_names) /
				       sizeof(*change_names); i++)
			if (ch & (1 << i))
				printf("%s\"%s\"", n++ ? ", " : "",
				       change_names[i]);
		printf("]");
	}
	if (a) {
		printf(", \"a\": ");
		json_entry(a);
	}
	if (b) {
		printf(", \"b\": ");
		json_entry(b);
	}
	printf("}");
}

static void print_text(struct diff *d, const struct tree_entry *a,
		       const struct tree_entry *b, int ch)
{
	const char *sep = ": ";

	if (!a || !b) {
		printf("%s %s (%s)\n", a ? "removed" : "added", cmd_esc(d->path),
		       axfs_ftype_name((a ? a : b)->type));
		return;
	}
	printf("changed %s", cmd_esc(d->path));
	if (ch & CH_TYPE) {
		printf("%stype %s -> %s", sep, axfs_ftype_name(a->type),
		       axfs_ftype_name(b->type));
		sep = ", ";
	}
	if (ch & CH_CONTENT) {
		uint64_t sa = data_of(a)->data.size, sb = data_of(b)->data.size;

		if (sa != sb)
			printf("%scontent (%" PRIu64 " -> %" PRIu64 " bytes)",
			       sep, sa, sb);
		else
			printf("%scontent", sep);
		sep = ", ";
	}
	if (ch & CH_TARGET) {
		printf("%slink target '%s' -> '%s'", sep,
		       cmd_esc(a->link_target), cmd_esc(b->link_target));
		sep = ", ";
	}
	if (ch & CH_DEVICE) {
		printf("%sdevice %" PRIu32 ",%" PRIu32 " -> %" PRIu32 ",%" PRIu32,
		       sep, a->rdev_major, a->rdev_minor, b->rdev_major,
		       b->rdev_minor);
		sep = ", ";
	}
	if (ch & CH_MODE) {
		printf("%smode %04o -> %04o", sep, a->mode & 07777,
		       b->mode & 07777);
		sep = ", ";
	}
	if (ch & CH_OWNER)
		printf("%sowner %" PRIu32 ":%" PRIu32 " -> %" PRIu32 ":%" PRIu32,
		       sep, a->uid, a->gid, b->uid, b->gid);
	printf("\n");
}

static void report(struct diff *d, const struct tree_entry *a,
		   const struct tree_entry *b, int ch)
{
	if (!a)
		d->added++;
	else if (!b)
		d->removed++;
	else
		d->changed++;
	if (d->quiet)
		return;
	if (d->json)
		print_json(d, !a ? "added" : !b ? "removed" : "changed", a, b,
			   ch);
	else
		print_text(d, a, b, ch);
}

/* d->path (of length len) + "/" + the child's name. */
static void child_path(struct diff *d, size_t len,
		       const struct tree_entry *c)
{
	snprintf(d->path + len, sizeof(d->path) - len, "%s%.*s",
		 len == 1 ? "" : "/", (int)c->name_len, c->name);
}

/* Reports e and everything under it as only on one side. */
static void report_subtree(struct diff *d, const struct tree_entry *e,
			   int in_a, size_t len)
{
	report(d, in_a ? e : NULL, in_a ? NULL : e, 0);
	for (size_t i = 0; i < e->nchildren; i++) {
		const struct tree_entry *c = e->children[i];

		child_path(d, len, c);
		report_subtree(d, c, in_a, strlen(d->path));
	}
	d->path[len] = '\0';
}

static int name_cmp(const struct tree_entry *a,
		    const struct tree_entry *b)
{
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int r = memcmp(a->name, b->name, n);

	if (r)
		return r;
	return a->name_len < b->name_len ? -1 : a->name_len > b->name_len;
}

/* Compares two entries of the same path, then their children. */
static int walk(struct diff *d, const struct tree_entry *a,
		const struct tree_entry *b, size_t len)
{
	size_t i = 0, j = 0;
	int ch = changes_of(d, a, b);

	if (ch < 0)
		return -1;
	if (ch)
		report(d, a, b, ch);
	if (a->type != AXFS_FT_DIR || b->type != AXFS_FT_DIR) {
		/* A directory on one side only: its contents too. */
		for (size_t k = 0; k < a->nchildren; k++) {
			child_path(d, len, a->children[k]);
			report_subtree(d, a->children[k], 1, strlen(d->path));
		}
		for (size_t k = 0; k < b->nchildren; k++) {
			child_path(d, len, b->children[k]);
			report_subtree(d, b->children[k], 0, strlen(d->path));
		}
		d->path[len] = '\0';
		return 0;
	}
	while (i < a->nchildren || j < b->nchildren) {
		const struct tree_entry *ca = i < a->nchildren ?
			a->children[i] : NULL;
		const struct tree_entry *cb = j < b->nchildren ?
			b->children[j] : NULL;
		int r = !ca ? 1 : !cb ? -1 : name_cmp(ca, cb);
		const struct tree_entry *c = r <= 0 ? ca : cb;

		child_path(d, len, c);
		if (r == 0) {
			if (walk(d, ca, cb, strlen(d->path)) < 0)
				return -1;
			i++;
			j++;
		} else {
			report_subtree(d, c, r < 0, strlen(d->path));
			if (r < 0)
				i++;
			else
				j++;
		}
		d->path[len] = '\0';
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct diff d = { 0 };
	const struct cmd_opt options[] = {
		{ CMD_FLAG(0, "no-owner", &d.no_owner, 1,
			   "ignore owners (uid and gid)") },
		{ CMD_FLAG(0, "no-mode", &d.no_mode, 1,
			   "ignore permission bits") },
		{ CMD_FLAG(0, "json", &d.json, 1,
			   "print the differences as JSON") },
		{ CMD_STRING(0, "store-a", "FILE", &d.a.store,
			     "the store segment of A, a split image") },
		{ CMD_STRING(0, "store-b", "FILE", &d.b.store,
			     "the store segment of B, a split image") },
		/* --store alone would not say which side: only --max-memory. */
		CMD_OPT_MAX_MEMORY("memory budget of each image (default "
				   "64 MiB + 8 x\nimage size)"),
		CMD_OPTS_END("print nothing but errors; the exit status says",
			     CMD_HELP_VERBOSE),
	};
	int rc = DIFF_TROUBLE;
	struct cmd_step step = cmd_parse_options(argc, argv, options, &usage);

	if (step.stop)
		return step.exit_code == EXIT_OK ? EXIT_OK : DIFF_TROUBLE;
	d.quiet = cmd_verbosity == 0;
	if (argc - optind != 2) {
		cmd_usage_error(argc - optind < 2 ? "two inputs are needed, "
				"A and B" : "too many arguments");
		return DIFF_TROUBLE;
	}
	d.first = 1;
	d.buf_a = malloc(DIFF_CHUNK);
	d.buf_b = malloc(DIFF_CHUNK);
	if (!d.buf_a || !d.buf_b) {
		cmd_error("out of memory");
		goto out;
	}
	if (load_side(&d.a, argv[optind]) < 0 ||
	    load_side(&d.b, argv[optind + 1]) < 0)
		goto out;
	if (d.json && !d.quiet) {
		printf("{\"a\": ");
		json_str(stdout, d.a.name, strlen(d.a.name));
		printf(", \"b\": ");
		json_str(stdout, d.b.name, strlen(d.b.name));
		printf(", \"differences\": [");
	}
	strcpy(d.path, "/");
	if (walk(&d, d.a.tree.root, d.b.tree.root, 1) < 0)
		goto out;
	if (d.json && !d.quiet)
		printf("%s], \"added\": %" PRIu64 ", \"removed\": %" PRIu64
		       ", \"changed\": %" PRIu64 ", \"same\": %s}\n",
		       d.first ? "" : "\n  ", d.added, d.removed, d.changed,
		       d.added || d.removed || d.changed ? "false" : "true");
	rc = d.added || d.removed || d.changed ? DIFF_DIFFERENT : DIFF_SAME;
	if (cmd_finish_stdout(EXIT_OK) != EXIT_OK)
		rc = DIFF_TROUBLE;
out:
	free_side(&d.a);
	free_side(&d.b);
	free(d.buf_a);
	free(d.buf_b);
	return rc;
}
