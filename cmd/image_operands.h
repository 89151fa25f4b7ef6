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
 * The operands of the commands that take image PATHs (ls, extract):
 * IMAGE [STORE] then `ndir` (0 or 1) operands for a DIR that `dir_name`
 * names in the error when it is missing, then PATH...  The operand after
 * IMAGE is its STORE only when IMAGE is the mmap segment of a split image
 * (axfs_image_is_split_segment(), which cannot be read without one), or
 * when IMAGE is no AXFS image and that operand is such an mmap segment
 * (swapped segments, which opening then names), unless `store` is already
 * set (by -s/--store): otherwise it is the DIR or the first PATH.  Sets *image, *store (unless already set: NULL when
 * there is none), *dir (NULL when ndir is 0) and *paths to the index in
 * argv of the first PATH (argc: none).  Returns CMD_OPT_NEXT, or
 * EXIT_USAGE after saying what is wrong.
 */
int cmd_image_path_operands(int argc, char **argv, int ndir,
			    const char *dir_name, const char **image,
			    const char **store, const char **dir, int *paths);

/*
 * Opens IMAGE with its store segment STORE (NULL: none), with fsck's
 * fewer checks when `lenient`.  Returns 0, or EXIT_OPERATIONAL after
 * saying why not.
 */
int cmd_open_image(struct axfs_image **img, const char *image,
		   const char *store, int lenient);

#endif
