/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/image_operands.h - what every command that reads an image shares:
 * the options --store FILE (the store segment of a split image) and
 * --max-memory SIZE (the memory budget of the reader), the operands
 * IMAGE [STORE], "-" for standard input, and opening the image.  A new
 * command that reads images puts CMD_OPTS_IMAGE in its option table and
 * opens the image with cmd_image_operands() and cmd_open_image().
 */
#ifndef CMD_IMAGE_OPERANDS_H
#define CMD_IMAGE_OPERANDS_H

#include "options.h"

struct axfs_image;

/* --store and --max-memory, as the command line gave them. */
struct cmd_image_opts {
	const char *store;		/* NULL: not given */
	uint64_t max_memory;		/* 0: the library's default */
};
extern struct cmd_image_opts cmd_image;

/* --store FILE, and -s FILE for it where -s means nothing else (cat, ls). */
cmd_opt_fn cmd_image_store;
#define CMD_OPT_STORE_S \
	{ CMD_CALLBACK('s', NULL, "FILE", NULL, cmd_image_store, \
		       "the same as --store"), .shown = "-s" }
#define CMD_OPT_MAX_MEMORY(help) \
	{ CMD_SIZE(0, "max-memory", "SIZE", &cmd_image.max_memory, help), \
	  .min = 1, .bad = "--max-memory: '%s' is not a size" }

/* The rows of the option table, before CMD_OPTS_END. */
#define CMD_OPTS_IMAGE \
	{ CMD_CALLBACK(0, "store", "FILE", NULL, cmd_image_store, \
		       "the store segment of a split image") }, \
	CMD_OPT_MAX_MEMORY("memory budget (default 64 MiB + 8 x image size)")

/*
 * The operands IMAGE [STORE] then `tail` more (0, or 1 for a DIR or a
 * mount point that `tail_name` names in the error when it is missing),
 * from argv[optind] on.  The positional STORE is taken only when
 * `positional_store` (where it cannot be mistaken for another operand);
 * --store gives it everywhere, and both at once is an error.  Sets
 * *image, and *store to the store segment or NULL.  Goes on, or stops
 * with EXIT_USAGE after saying what is wrong.
 */
struct cmd_step cmd_image_operands(int argc, char **argv, int tail, const char *tail_name,
		       int positional_store, const char **image,
		       const char **store);

/*
 * The operands of the commands that take image PATHs (ls, extract):
 * IMAGE, then `ndir` (0 or 1) operands for a DIR that `dir_name` names in
 * the error when it is missing, then PATH...  The store segment of a
 * split image comes from --store only (or `store`, already set): an
 * operand is never taken for it, so no file can be mistaken for another.
 * Sets *image, *store (NULL when there is none), *dir (NULL when ndir is
 * 0) and *paths to the index in argv of the first PATH (argc: none).
 * Goes on, or stops with EXIT_USAGE after saying what is wrong.
 */
struct cmd_step cmd_image_path_operands(int argc, char **argv, int ndir,
			    const char *dir_name, const char **image,
			    const char **store, const char **dir, int *paths);

/*
 * Opens IMAGE ("-": standard input) with its store segment STORE (NULL:
 * none), with fsck's fewer checks when `lenient`, within --max-memory.
 * Returns 0, or EXIT_OPERATIONAL after saying why not.
 */
int cmd_open_image(struct axfs_image **img, const char *image,
		   const char *store, int lenient);

#endif
