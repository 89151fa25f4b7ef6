/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/image_operands.h - what every command that reads an image shares:
 * the options --store FILE (the store segment of a split image) and
 * --max-memory SIZE (the memory budget of the reader), the operands
 * IMAGE [STORE], "-" for standard input, and opening the image.  A new
 * command that reads images puts CMD_LONGOPTS_IMAGE in its option table,
 * cmd_print_image_help() in its --help, and opens the image with
 * cmd_image_operands() and cmd_open_image().
 */
#ifndef AXFS_CMD_IMAGE_OPERANDS_H
#define AXFS_CMD_IMAGE_OPERANDS_H

#include "options.h"

struct axfs_image;

/* --store and --max-memory, as the command line gave them. */
struct cmd_image_opts {
	const char *store;		/* NULL: not given */
	unsigned long long max_memory;	/* 0: the library's default */
};
extern struct cmd_image_opts cmd_image;

/* The rows of the option table, before CMD_LONGOPTS_END. */
#define CMD_LONGOPTS_IMAGE \
	{ "store", required_argument, NULL, CMD_OPT_STORE }, \
	{ "max-memory", required_argument, NULL, CMD_OPT_MAX_MEMORY }

/* Takes one of those options (cmd_getopt calls it): CMD_OPT_NEXT, or the
 * exit code of a bad value. */
int cmd_image_option(int c, const char *arg);

/* Their --help rows, names padded to `column`. */
void cmd_print_image_help(int column);

/*
 * The operands IMAGE [STORE] then `tail` more (0, or 1 for a DIR or a
 * mount point that `tail_name` names in the error when it is missing),
 * from argv[optind] on.  The positional STORE is taken only when
 * `positional_store` (where it cannot be mistaken for another operand);
 * --store gives it everywhere, and both at once is an error.  Sets
 * *image, and *store to the store segment or NULL.  Returns CMD_OPT_NEXT,
 * or EXIT_USAGE after saying what is wrong.
 */
int cmd_image_operands(int argc, char **argv, int tail, const char *tail_name,
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
 * Returns CMD_OPT_NEXT, or EXIT_USAGE after saying what is wrong.
 */
int cmd_image_path_operands(int argc, char **argv, int ndir,
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
