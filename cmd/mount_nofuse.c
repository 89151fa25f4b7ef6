// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/mount_nofuse.c - axfs mount in a build without libfuse3 (FUSE=0,
 * what the Makefile chooses when pkg-config finds no fuse3, as in a
 * Buildroot or Yocto build that does not depend on it): the command is
 * there and says why it cannot mount, instead of being unknown.  --help
 * and --version answer as everywhere; any other call is the error, even
 * one with options only FUSE's mount knows (-o, -f).
 */
#include <string.h>

#include "common.h"
#include "options.h"

static const struct cmd_usage usage = {
"usage: axfs mount [options] IMAGE [STORE] DIR\n"
"\n"
"Mount an AXFS image through FUSE.  This axfs was built without\n"
"libfuse3, so it cannot: rebuild it with libfuse3 (Debian: libfuse3-dev),\n"
"or mount the image with the kernel module (mount -t axfs).\n"
"\n",
"\nSee axfs-mount(1).\n",
};

static int is_word(const char *arg, const char *short_name,
		   const char *long_name)
{
	return strcmp(arg, short_name) == 0 || strcmp(arg, long_name) == 0;
}

int cmd_mount(int argc, char **argv)
{
	static const struct cmd_opt options[] = {
		CMD_OPTS_HELP_VERSION,
	};

	if (argc == 2 && (is_word(argv[1], "-h", "--help") ||
			  is_word(argv[1], "-V", "--version")))
		return cmd_parse_options(argc, argv, options, &usage).exit_code;
	cmd_error("this axfs was built without libfuse3; rebuild with libfuse3 "
		  "(Debian: libfuse3-dev) or use the kernel module");
	return EXIT_OPERATIONAL;
}

int cmd_mount_helper(int argc, char **argv)
{
	return cmd_mount(argc, argv);
}
