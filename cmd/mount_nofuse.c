// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/mount_nofuse.c - axfs mount in a build without libfuse3 (FUSE=0,
 * what the Makefile chooses when pkg-config finds no fuse3, as in a
 * Buildroot or Yocto build that does not depend on it): the command is
 * there and says why it cannot mount, instead of being unknown.
 */
#include "common.h"

int cmd_mount(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_error("this axfs was built without libfuse3; rebuild with libfuse3 "
		  "(Debian: libfuse3-dev) or use the kernel module");
	return EXIT_OPERATIONAL;
}
