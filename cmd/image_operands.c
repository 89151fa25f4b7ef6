// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/image_operands.c - see image_operands.h */
#include "image_operands.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "axfs_reader.h"
#include "source.h"

struct cmd_image_opts cmd_image;

struct cmd_step cmd_image_store(const struct cmd_opt *opt, const char *arg)
{
	if (!*arg)
		return cmd_stop(cmd_usage_error("--store: no file given"));
	if (cmd_image.store)
		return cmd_stop(cmd_usage_error("--store is given twice ('%s' "
						"and '%s')", cmd_image.store,
						arg));
	cmd_image.store = arg;
	return CMD_GO_ON;
}

struct cmd_step cmd_image_operands(int argc, char **argv, int tail,
				   const char *tail_name, int positional_store,
				   const char **image, const char **store)
{
	int n = argc - optind;
	int most = tail + 1 + (positional_store && !cmd_image.store);

	if (n < 1)
		return cmd_stop(cmd_usage_error("no image given"));
	if (n < 1 + tail)
		return cmd_stop(cmd_usage_error("no %s given", tail_name));
	if (n > most && positional_store && n == tail + 2)
		return cmd_stop(cmd_usage_error("the store segment is given "
						"twice: '%s' and --store '%s'",
						argv[optind + 1],
						cmd_image.store));
	if (n > most && n == tail + 2)
		return cmd_stop(cmd_usage_error("too many arguments: '%s' (the "
						"store segment of a split "
						"image is given with --store "
						"FILE)", argv[optind + 1]));
	if (n > most)
		return cmd_stop(cmd_usage_error("too many arguments: '%s'",
						argv[optind + most]));
	*image = argv[optind];
	*store = n == tail + 2 ? argv[optind + 1] : cmd_image.store;
	return CMD_GO_ON;
}

struct cmd_step cmd_image_path_operands(int argc, char **argv, int ndir,
					const char *dir_name,
					const char **image, const char **store,
					const char **dir, int *paths)
{
	int i = optind;

	if (i >= argc)
		return cmd_stop(cmd_usage_error("no image given"));
	*image = argv[i++];
	/* Only --store gives the store segment here: an operand after IMAGE
	 * is the DIR or a PATH, whatever the files are.  An mmap segment
	 * opened alone is refused by the reader, which names --store. */
	if (!*store)
		*store = cmd_image.store;
	*dir = NULL;
	if (ndir) {
		if (i >= argc)
			return cmd_stop(cmd_usage_error("no %s given",
							dir_name));
		*dir = argv[i++];
	}
	*paths = i;
	return CMD_GO_ON;
}

int cmd_open_image(struct axfs_image **img, const char *image,
		   const char *store, int lenient)
{
	struct axfs_open_opts o = {
		.struct_size = sizeof(o),
		.lenient = lenient,
		.store_path = store,
		.max_memory = cmd_image.max_memory,
	};
	struct axfs_error err;

	axfs_error_clear(&err);
	if (axfs_image_open(img, image, &o, &err) < 0) {
		cmd_error("%s", err.msg);
		return EXIT_OPERATIONAL;
	}
	return 0;
}
