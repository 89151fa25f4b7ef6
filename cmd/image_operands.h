/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/image_operands.h - IMAGE [STORE]: the operands that name an image
 * (the store segment after the mmap one for a split image), and opening it.
 */
#ifndef AXFS_CMD_IMAGE_OPERANDS_H
#define AXFS_CMD_IMAGE_OPERANDS_H

struct axfs_image;

/*
 * The operands IMAGE [STORE] then `tail` more (0, or 1 for a DIR that
 * `tail_name` names in the error when it is missing), from argv[optind]
 * on.  Sets *image, and *store to STORE or NULL.  Returns CMD_OPT_NEXT,
 * or EXIT_USAGE after saying what is wrong.
 */
int cmd_image_operands(int argc, char **argv, int tail, const char *tail_name,
		       const char **image, const char **store);

/*
 * Opens IMAGE with its store segment STORE (NULL: none), with fsck's
 * fewer checks when `lenient`.  Returns 0, or EXIT_OPERATIONAL after
 * saying why not.
 */
int cmd_open_image(struct axfs_image **img, const char *image,
		   const char *store, int lenient);

#endif
