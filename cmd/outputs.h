/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/outputs.h - no output replaces an input or another output, and every
 * output can be written, checked before a command writes anything.
 */
#ifndef CMD_OUTPUTS_H
#define CMD_OUTPUTS_H

#include <stddef.h>

/* A file a command names: its path ("-": standard input or output, which
 * is never compared) and how the command line named it ("-o", "SOURCE",
 * "--report"), for the message.  A NULL path is skipped. */
struct cmd_file {
	const char *path;
	const char *role;
	int binary;	/* bytes not meant for a terminal: an image, a tar */
};

/*
 * Refuses, with a message naming both files, when an output is an input
 * or another output: the same device and inode when the file exists, the
 * same resolved path (the real directory plus the name) when it does not
 * exist yet.  Two outputs on standard output are refused too, and a
 * binary output on standard output when that is a terminal (as GNU tar
 * does: raw names and bytes would reach it).  Refuses an
 * output that cannot be written: a directory, not a regular file, or a
 * directory that does not exist or is not writable.  A directory input
 * is not compared (mkfs leaves its own output out of a tree it reads).
 * Returns 0, or after saying why EXIT_USAGE (a clash) or EXIT_OPERATIONAL
 * (an output that cannot be written).
 */
int cmd_check_outputs(const struct cmd_file *in, size_t nin,
		      const struct cmd_file *out, size_t nout);

#endif
