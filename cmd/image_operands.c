// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/image_operands.c - IMAGE [STORE] on the command line, and opening it */
#include "image_operands.h"

#include <getopt.h>

#include "common.h"
#include "options.h"
#include "axfs_reader.h"
#include "axfs_source.h"

int cmd_image_operands(int argc, char **argv, int tail, const char *tail_name,
		       const char **image, const char **store)
{
	int n = argc - optind;

	if (n < 1)
		return cmd_usage_error("no image given");
	if (n < 1 + tail)
		return cmd_usage_error("no %s given", tail_name);
	if (n > 2 + tail)
		return cmd_usage_error("too many arguments: '%s'",
				       argv[optind + 2 + tail]);
	*image = argv[optind];
	*store = n == 2 + tail ? argv[optind + 1] : NULL;
	return CMD_OPT_NEXT;
}

int cmd_image_path_operands(int argc, char **argv, int ndir,
			    const char *dir_name, const char **image,
			    const char **store, const char **dir, int *paths)
{
	int i = optind;

	if (i >= argc)
		return cmd_usage_error("no image given");
	*image = argv[i++];
	/* The mmap segment first; or the store segment first, which the
	 * reader then names as swapped segments rather than "not AXFS". */
	if (!*store && i < argc &&
	    (axfs_image_is_split_segment(*image) ||
	     (!axfs_source_is_image(*image) &&
	      axfs_image_is_split_segment(argv[i]))))
		*store = argv[i++];
	*dir = NULL;
	if (ndir) {
		if (i >= argc)
			return cmd_usage_error("no %s given", dir_name);
		*dir = argv[i++];
	}
	*paths = i;
	return CMD_OPT_NEXT;
}

int cmd_open_image(struct axfs_image **img, const char *image,
		   const char *store, int lenient)
{
	struct axfs_open_opts o = { .struct_size = sizeof(o),
				    .lenient = lenient, .store_path = store };
	struct axfs_error err;

	axfs_error_clear(&err);
	if (axfs_image_open(img, image, &o, &err) < 0) {
		cmd_error("%s", err.msg);
		return EXIT_OPERATIONAL;
	}
	return 0;
}
