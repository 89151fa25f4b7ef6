// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/axfs.c - the multi-call binary: a table dispatcher in git's style.
 *
 *   axfs mkfs ...          axfs-mkfs ...        mkfs.axfs ...
 *   axfs fsck ...          axfs-fsck ...        fsck.axfs ...
 *   axfs mount ...         axfs-mount ...       mount.fuse.axfs ...
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axfs_suggest.h"
#include "common.h"

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd_struct commands[] = {
	{ "mkfs", cmd_mkfs, "build an image from a tree, an archive or an image" },
	{ "dump", cmd_dump, "show the superblock, regions, inodes and pages" },
	{ "extract", cmd_extract, "recreate the tree stored in an image" },
	{ "fsck", cmd_fsck, "check an image for every defect it can have" },
	{ "merge-profile", cmd_merge_profile, "combine profile CSVs" },
	{ "split", cmd_split, "cut an image into mmap and store segments" },
	{ "mount", cmd_mount, "mount an image through FUSE, without root" },
	{ "diff", cmd_diff, "compare two images, trees or archives" },
	{ "cat", cmd_cat, "write files of an image to standard output" },
	{ "ls", cmd_ls, "list a directory of an image" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct cmd_struct *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* "'mkfz' is not an axfs command", with the nearest one when there is. */
static int unknown_command(const char *name)
{
	const char *names[NCOMMANDS + 2];
	const char *best;

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	names[NCOMMANDS] = "help";
	names[NCOMMANDS + 1] = NULL;
	best = suggest_word(name, names);
	cmd_name = "axfs";
	if (best)
		cmd_error("'%s' is not an axfs command; did you mean '%s'? "
			  "See 'axfs --help'.", name, best);
	else
		cmd_error("'%s' is not an axfs command. See 'axfs --help'.",
			  name);
	return EXIT_USAGE;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: axfs [--version] [--help] <command> [<args>]\n\n"
		   "Build, inspect, check and tune AXFS images.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "   %-14s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f, "\nSee 'axfs <command> --help' and axfs(1).\n");
}

static int run(const struct cmd_struct *c, int argc, char **argv)
{
	static char name[64];

	snprintf(name, sizeof(name), "axfs %s", c->name);
	cmd_name = name;
	/* Past `ulimit -f`, write() must fail with EFBIG (reported, temporary
	 * files removed) instead of SIGXFSZ killing us mid-write. */
	signal(SIGXFSZ, SIG_IGN);
	return c->fn(argc, argv);
}

int main(int argc, char **argv)
{
	const char *base = argv[0] ? strrchr(argv[0], '/') : NULL;
	const struct cmd_struct *c;

	base = base ? base + 1 : (argv[0] ? argv[0] : "axfs");

	/* argv[0] aliases: axfs-mkfs, mkfs.axfs, fsck.axfs ... */
	if (strncmp(base, "axfs-", 5) == 0 && (c = find_command(base + 5)))
		return run(c, argc, argv);
	if (strcmp(base, "mkfs.axfs") == 0)
		return run(find_command("mkfs"), argc, argv);
	if (strcmp(base, "fsck.axfs") == 0)
		return run(find_command("fsck"), argc, argv);
	if (strcmp(base, "mount.fuse.axfs") == 0)
		return run(find_command("mount"), argc, argv);

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			char *args[] = { argv[2], (char *)"--help", NULL };

			if (argc > 3) {
				cmd_name = "axfs";
				cmd_error("'axfs help' takes one command, not '%s'",
					  argv[3]);
				return EXIT_USAGE;
			}
			c = find_command(argv[2]);
			if (!c)
				return unknown_command(argv[2]);
			return run(c, 2, args);
		}
		usage(stdout);
		return cmd_finish_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		cmd_name = "axfs";
		return cmd_print_version();
	}
	c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	return run(c, argc - 1, argv + 1);
}
