// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/cat.c - axfs cat: the contents of files of an image on standard
 * output, without mounting it.
 *
 *   axfs cat [-s STORE] IMAGE PATH...
 *
 * Each PATH is resolved as the kernel resolves it on the mounted image
 * (axfs_image_resolve(): symbolic links inside the image followed, ".."
 * clamped at its root) and must be a regular file; the files are written
 * one after the other.  A PATH that fails is
 * named on standard error as the other readers name it ("'IMAGE': 'PATH':
 * reason", or the library's "'IMAGE': byte N: ... (reading 'PATH')" as
 * extract says it) and the next one is still written; the exit
 * status is the position (1 to 7, 7 meaning the 7th or a later one) of
 * the first PATH that failed, so that with one PATH any failure is 1;
 * 8 if the image cannot be opened or standard output cannot be written,
 * 16 for a bad command line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"
#include "image_operands.h"
#include "options.h"
#include "axfs_reader.h"

#define CAT_CHUNK	(256u * 1024u)
#define CAT_MAX_POS	7		/* below EXIT_OPERATIONAL */

static const struct cmd_opt options[] = {
	CMD_OPT_STORE_S,
	CMD_OPTS_IMAGE,
	CMD_OPTS_END(CMD_HELP_QUIET, CMD_HELP_VERBOSE),
};

static const struct cmd_usage usage = {
"usage: axfs cat [options] IMAGE PATH...\n"
"\n"
"Write the contents of the regular files PATH (image paths such as\n"
"/etc/passwd) of the AXFS image IMAGE to standard output, without mounting\n"
"it.  Symbolic links inside the image are followed as the kernel follows\n"
"them.  Exit status: 0 if every PATH was written, else the position (1 to 7)\n"
"of the first PATH that failed; 8 if IMAGE cannot be read or standard\n"
"output cannot be written.  IMAGE - is standard input.\n"
"\n",
"\nSee axfs-cat(1).\n",
};

/* 0: written; 1: this PATH failed (reported); -1: standard output failed. */
static int cat_one(struct axfs_image *img, const char *path, void *buf)
{
	struct axfs_inode_info in;
	struct axfs_error err;
	uint64_t ino, off = 0;

	axfs_error_clear(&err);
	if (axfs_image_resolve(img, path, 0, &ino, NULL, NULL, NULL,
			       &err) < 0 ||
	    axfs_image_inode(img, ino, &in, &err) < 0) {
		cmd_error("%s", err.msg);
		return 1;
	}
	if (!S_ISREG(in.mode)) {
		cmd_error("'%s': '%s': not a regular file",
			  axfs_image_name(img), path);
		return 1;
	}
	while (off < in.size) {
		size_t want = in.size - off < CAT_CHUNK ?
			      (size_t)(in.size - off) : CAT_CHUNK;
		size_t got;

		if (axfs_image_read(img, ino, off, buf, want, &got, &err) < 0) {
			cmd_error("%s (reading '%s')", err.msg, path);
			return 1;
		}
		if (!got) {
			cmd_error("'%s': '%s': shorter than its size (%llu "
				  "bytes)", axfs_image_name(img), path,
				  (unsigned long long)in.size);
			return 1;
		}
		if (fwrite(buf, 1, got, stdout) != got)
			return -1;
		off += got;
	}
	return 0;
}

int cmd_cat(int argc, char **argv)
{
	struct axfs_image *img = NULL;
	struct cmd_step step = cmd_parse_options(argc, argv, options, &usage);
	void *buf;
	int rc = EXIT_OK;

	if (step.stop)
		return step.exit_code;
	if (argc - optind < 2)
		return cmd_usage_error(argc - optind ? "no path given" :
				       "no image given");
	if (cmd_open_image(&img, argv[optind], cmd_image.store, 0) != 0)
		return EXIT_OPERATIONAL;
	buf = malloc(CAT_CHUNK);
	if (!buf) {
		cmd_error("out of memory");
		axfs_image_close(img);
		return EXIT_OPERATIONAL;
	}
	for (int i = optind + 1; i < argc; i++) {
		int pos = i - optind, r = cat_one(img, argv[i], buf);

		if (r < 0) {
			rc = EXIT_OPERATIONAL;
			break;
		}
		if (r > 0 && rc == EXIT_OK)
			rc = pos < CAT_MAX_POS ? pos : CAT_MAX_POS;
	}
	free(buf);
	axfs_image_close(img);
	return cmd_finish_stdout(rc);
}
