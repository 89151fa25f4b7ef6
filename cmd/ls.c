// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/ls.c - axfs ls: the entries of one directory of an image (or one
 * file), as ls(1), unsquashfs -ll, rdsquashfs -l and dump.erofs --ls
 * show them, without mounting it.
 *
 *   axfs ls [-l|-n] [-R] [-d] [--json] [--store FILE] IMAGE [PATH...]
 *
 * Each PATH is resolved inside the image as the kernel resolves it on the
 * mounted image (axfs_image_resolve(): links followed, ".." clamped at the
 * root); as ls(1) does, a link named as the PATH itself is listed as the
 * link with -l, -d or --json and followed otherwise, and a trailing '/'
 * always follows it.  Non-directories are listed first, then the
 * directories, each after a "PATH:" line when there is more than one.
 *
 * A directory's entries come from axfs_image_walk(), which validates
 * every name, cycle and depth on its way: the walk is stopped once it has
 * left the directory listed.  With -R every entry under the directory is
 * listed, depth first, by its path (the PATH given, then the path below
 * it), as unsquashfs -ll does.
 *
 * Exit status: 0, 1 if some PATH could not be listed (named on standard
 * error; the others are still listed), 8 if IMAGE cannot be read or
 * standard output cannot be written, 16 for a bad command line.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common.h"
#include "image_operands.h"
#include "json.h"
#include "listing.h"
#include "options.h"
#include "axfs_format.h"
#include "axfs_reader.h"

static const struct cmd_usage usage = {
"usage: axfs ls [options] IMAGE [PATH...]\n"
"\n"
"List the entries of the directories PATH (image paths such as /usr/bin;\n"
"default /) of the AXFS image IMAGE, or PATH itself when it is not a\n"
"directory, without mounting it.  Symbolic links inside the image are\n"
"followed as the kernel follows them; a PATH that is itself a link is\n"
"listed as the link with -l, -d or --json, unless it ends in '/'.  The\n"
"store segment of a split image is given with --store FILE; IMAGE - is\n"
"standard input.\n"
"Exit status: 0, 1 if a PATH could not be listed, 8 if IMAGE cannot be\n"
"read.\n"
"\n",
"\nSee axfs-ls(1).\n",
};

/* One PATH, resolved. */
struct operand {
	const char *given;		/* as on the command line */
	char *real;			/* NULL: failed (reported) */
	uint64_t ino;
	int is_dir;
};

struct ls {
	struct axfs_image *img;
	int longfmt, recursive, dirself, json, numeric;
	char when[32];			/* the image timestamp, for -l */
	int first;			/* no JSON entry written yet */
	/* the directory being listed */
	const struct operand *op;
	size_t real_len;		/* 0 for the root */
	int inside;			/* the walk has reached its entries */
	char *shown;			/* -R: the name shown for an entry */
	size_t shown_cap;
	struct axfs_error err;
};

/* An entry's line, or its JSON object; name: as shown, path: in the
 * image.  Returns 0 or a negative library error. */
static int show_entry(struct ls *l, const char *name, const char *path,
		      const struct axfs_inode_info *in)
{
	char target[AXFS_PAGE_SIZE], ms[11];
	int islnk = S_ISLNK(in->mode);
	int isdev = S_ISCHR(in->mode) || S_ISBLK(in->mode);

	if (islnk && (l->longfmt || l->json) &&
	    axfs_image_readlink(l->img, in->ino, target, sizeof(target),
				&l->err) < 0)
		return l->err.code;
	cmd_mode_string(in->mode, ms);
	if (l->json) {
		/* The entry's own name (the last component of its path; "/"
		 * for the root), never the path -R shows in text. */
		const char *base = strrchr(path, '/');

		printf("%s\n    {\"name\": ", l->first ? "" : ",");
		l->first = 0;
		json_cstr(stdout, base && base[1] ? base + 1 : path);
		printf(", \"path\": ");
		json_cstr(stdout, path);
		printf(", \"ino\": %" PRIu64 ", \"type\": \"%s\", \"mode\": %"
		       PRIu32 ", \"mode_string\": \"%s\", \"uid\": %" PRIu32
		       ", \"gid\": %" PRIu32 ", \"size\": %" PRIu64
		       ", \"mtime\": %" PRIu64, in->ino,
		       cmd_type_name(in->mode), in->mode, ms, in->uid, in->gid,
		       isdev ? 0 : in->size,
		       axfs_image_super(l->img)->timestamp);
		if (islnk) {
			printf(", \"target\": ");
			json_cstr(stdout, target);
		}
		if (isdev)
			printf(", \"rdev_major\": %u, \"rdev_minor\": %u",
			       AXFS_DEV_MAJOR(in->file_size),
			       AXFS_DEV_MINOR(in->file_size));
		putchar('}');
		return 0;
	}
	if (l->longfmt) {
		printf("%s ", ms);
		cmd_put_owner(in->uid, in->gid, l->numeric);
		putchar(' ');
		if (isdev)
			printf("%5u,%5u", AXFS_DEV_MAJOR(in->file_size),
			       AXFS_DEV_MINOR(in->file_size));
		else
			printf("%11" PRIu64, in->size);
		printf(" %s ", l->when);
	}
	cmd_put_name(name);
	if (islnk && l->longfmt) {
		fputs(" -> ", stdout);
		cmd_put_name(target);
	}
	putchar('\n');
	return 0;
}

/* -R: the PATH given (without trailing '/'), then rel. */
static const char *shown_name(struct ls *l, const char *rel)
{
	const char *g = l->op->given;
	size_t glen = strlen(g), rlen = strlen(rel);

	while (glen > 1 && g[glen - 1] == '/')
		glen--;
	if (glen + rlen + 2 > l->shown_cap) {
		size_t ncap = (glen + rlen + 2) * 2;
		char *n = realloc(l->shown, ncap);

		if (!n)
			return NULL;
		l->shown = n;
		l->shown_cap = ncap;
	}
	memcpy(l->shown, g, glen);
	if (glen && g[glen - 1] != '/')
		l->shown[glen++] = '/';
	memcpy(l->shown + glen, rel, rlen + 1);
	return l->shown;
}

/* 2 stops the walk: it has left the directory. */
#define WALK_DONE 2

static int list_fn(void *ctx, const char *path,
		   const struct axfs_inode_info *in)
{
	struct ls *l = ctx;
	const char *rel, *name;
	int rc;

	if (l->real_len == 0) {
		if (!strcmp(path, "/"))
			return 0;
		rel = path + 1;
	} else if (!strncmp(path, l->op->real, l->real_len) &&
		   path[l->real_len] == '/') {
		rel = path + l->real_len + 1;
	} else {
		return l->inside ? WALK_DONE : 0;
	}
	l->inside = 1;
	if (!l->recursive && strchr(rel, '/'))
		return 0;
	name = l->recursive ? shown_name(l, rel) : rel;
	if (!name) {
		cmd_error("out of memory");
		return 1;
	}
	rc = show_entry(l, name, path, in);
	return rc < 0 ? rc : 0;
}

/* The entries of directory operand op; 0, 1 (reported) or 8. */
static int list_dir(struct ls *l, const struct operand *op)
{
	int rc;

	l->op = op;
	l->real_len = strcmp(op->real, "/") ? strlen(op->real) : 0;
	l->inside = 0;
	axfs_error_clear(&l->err);
	rc = axfs_image_walk(l->img, list_fn, l, &l->err);
	if (rc == 0 || rc == WALK_DONE)
		return 0;
	if (rc < 0)
		cmd_error("%s", l->err.msg);
	return EXIT_OPERATIONAL;
}

static int show_operand(struct ls *l, const struct operand *op)
{
	struct axfs_inode_info in;

	axfs_error_clear(&l->err);
	if (axfs_image_inode(l->img, op->ino, &in, &l->err) < 0 ||
	    show_entry(l, op->given, op->real, &in) < 0) {
		cmd_error("%s", l->err.msg);
		return EXIT_OPERATIONAL;
	}
	return 0;
}

static int run(struct ls *l, struct operand *ops, int n)
{
	int failed = 0, rc = 0, shown = 0;
	unsigned int flags = l->longfmt || l->dirself || l->json ?
			     AXFS_RESOLVE_NOFOLLOW : 0;
	time_t t = (time_t)axfs_image_super(l->img)->timestamp;
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(l->when, sizeof(l->when), "%Y-%m-%d %H:%M", &tm);
	for (int i = 0; i < n; i++) {
		struct axfs_inode_info in;

		axfs_error_clear(&l->err);
		if (axfs_image_resolve(l->img, ops[i].given, flags,
				       &ops[i].ino, &ops[i].real, NULL, NULL,
				       &l->err) < 0 ||
		    axfs_image_inode(l->img, ops[i].ino, &in, &l->err) < 0) {
			cmd_error("%s", l->err.msg);
			free(ops[i].real);
			ops[i].real = NULL;
			/* A damaged image is not a PATH that is not there. */
			if (l->err.code != AXFS_ERR_NOT_FOUND &&
			    l->err.code != AXFS_ERR_LOOP)
				failed = EXIT_OPERATIONAL;
			else if (!failed)
				failed = 1;
			continue;
		}
		ops[i].is_dir = S_ISDIR(in.mode) && !l->dirself;
	}
	l->first = 1;
	if (l->json) {
		printf("{\"image\": ");
		json_cstr(stdout, axfs_image_name(l->img));
		printf(", \"listings\": [");
	}
	/* Files first, then directories, as ls does. */
	for (int pass = 0; pass < 2 && !rc; pass++) {
		for (int i = 0; i < n && !rc; i++) {
			if (!ops[i].real || ops[i].is_dir != pass)
				continue;
			if (l->json) {
				printf("%s\n  {\"path\": ", shown++ ? "," : "");
				json_cstr(stdout, ops[i].given);
				printf(", \"resolved\": ");
				json_cstr(stdout, ops[i].real);
				printf(", \"entries\": [");
				l->first = 1;
			} else if (pass) {
				if (shown++)
					putchar('\n');
				if (n > 1) {
					cmd_put_name(ops[i].given);
					printf(":\n");
				}
			} else {
				shown++;
			}
			rc = pass ? list_dir(l, &ops[i]) :
			     show_operand(l, &ops[i]);
			if (l->json)
				printf("]}");
		}
	}
	if (l->json)
		printf("\n]}\n");
	return rc ? rc : failed;
}

int cmd_ls(int argc, char **argv)
{
	struct ls l = { 0 };
	const struct cmd_opt options[] = {
		{ CMD_FLAG('l', "long", &l.longfmt, 1,
			   "show mode, owner, size, time and link targets") },
		{ CMD_FLAG('n', "numeric", &l.numeric, 1,
			   "with -l: owners as numbers, not names (implies -l)") },
		{ CMD_FLAG('R', "recursive", &l.recursive, 1,
			   "every entry below each directory, by its path") },
		{ CMD_FLAG('d', "directory", &l.dirself, 1,
			   "list directories themselves, not their entries") },
		{ CMD_FLAG(0, "json", &l.json, 1,
			   "print the listings as JSON (see axfs-ls(1))") },
		CMD_OPT_STORE_S,
		CMD_OPTS_IMAGE,
		CMD_OPTS_END(CMD_HELP_QUIET, CMD_HELP_VERBOSE),
	};
	struct operand *ops, root = { .given = "/" };
	const char *image, *store = NULL, *dir;
	int first, n, rc;
	struct cmd_step step = cmd_parse_options(argc, argv, options, &usage);

	if (step.stop)
		return step.exit_code;
	if (l.numeric)
		l.longfmt = 1;	/* as ls -n */
	step = cmd_image_path_operands(argc, argv, 0, NULL, &image, &store,
				       &dir, &first);
	if (step.stop)
		return step.exit_code;
	n = argc - first;
	ops = n ? calloc((size_t)n, sizeof(*ops)) : &root;
	if (!ops) {
		cmd_error("out of memory");
		return EXIT_OPERATIONAL;
	}
	for (int i = 0; i < n; i++)
		ops[i].given = argv[first + i];
	if (!n)
		n = 1;
	if (cmd_open_image(&l.img, image, store, 0) != 0) {
		rc = EXIT_OPERATIONAL;
	} else {
		rc = run(&l, ops, n);
		axfs_image_close(l.img);
	}
	for (int i = 0; i < n; i++)
		free(ops[i].real);
	if (ops != &root)
		free(ops);
	free(l.shown);
	return cmd_finish_stdout(rc);
}
