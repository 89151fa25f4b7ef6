// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/image_operands.c - see image_operands.h */
#include "image_operands.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "axfs_reader.h"
#include "axfs_source.h"

struct cmd_image_opts cmd_image;

int cmd_image_option(int c, const char *arg)
{
	unsigned long long v;

	switch (c) {
	case CMD_OPT_STORE:
		if (!*arg)
			return cmd_usage_error("--store: no file given");
		if (cmd_image.store)
			return cmd_usage_error("--store is given twice ('%s' "
					       "and '%s')", cmd_image.store,
					       arg);
		cmd_image.store = arg;
		return CMD_OPT_NEXT;
	case CMD_OPT_MAX_MEMORY:
		if (cmd_parse_size(arg, &v) < 0 || v == 0)
			return cmd_usage_error("--max-memory: '%s' is not a "
					       "size", arg);
		cmd_image.max_memory = v;
		return CMD_OPT_NEXT;
	}
	return cmd_usage_error("internal error: option %d", c);
}

static void row(int column, const char *names, const char *text)
{
	if ((int)strlen(names) + 2 >= column)
		printf("  %s\n%*s%s\n", names, column, "", text);
	else
		printf("  %-*s%s\n", column - 2, names, text);
}

void cmd_print_image_help(int column)
{
	row(column, "    --store FILE", "the store segment of a split image");
	row(column, "    --max-memory SIZE",
	    "memory budget (default 64 MiB + 8 x image size)");
}

int cmd_image_operands(int argc, char **argv, int tail, const char *tail_name,
		       int positional_store, const char **image,
		       const char **store)
{
	int n = argc - optind;
	int most = tail + 1 + (positional_store && !cmd_image.store);

	if (n < 1)
		return cmd_usage_error("no image given");
	if (n < 1 + tail)
		return cmd_usage_error("no %s given", tail_name);
	if (n > most) {
		if (positional_store && n == tail + 2)
			return cmd_usage_error("the store segment is given "
					       "twice: '%s' and --store '%s'",
					       argv[optind + 1],
					       cmd_image.store);
		if (!positional_store && n == tail + 2)
			return cmd_usage_error("too many arguments: '%s' (the "
					       "store segment of a split image "
					       "is given with --store FILE)",
					       argv[optind + 1]);
		return cmd_usage_error("too many arguments: '%s'",
				       argv[optind + most]);
	}
	*image = argv[optind];
	*store = n == tail + 2 ? argv[optind + 1] : cmd_image.store;
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
	/* Only --store gives the store segment here: an operand after IMAGE
	 * is the DIR or a PATH, whatever the files are.  An mmap segment
	 * opened alone is refused by the reader, which names --store. */
	if (!*store)
		*store = cmd_image.store;
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
