// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/axfs.c - the multi-call binary: a table dispatcher in git's style.
 *
 *   axfs mkfs ...          axfs-mkfs ...        mkfs.axfs ...
 *   axfs fsck ...          axfs-fsck ...        fsck.axfs ...
 *   axfs mount ...         axfs-mount ...       mount.fuse.axfs ...
 *   axfs IMAGE DIR -o OPTIONS     (what mount.fuse runs for -t fuse.axfs)
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "common.h"
#include "options.h"

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

/* axfs's own options, before the command: the command's follow it. */
static const struct cmd_opt options[] = {
	CMD_OPTS_HELP_VERSION,
};

/* The synopsis and the commands, from the table of commands. */
static const struct cmd_usage *usage(void)
{
	static char text[2048];
	static const struct cmd_usage u = {
		text, "\nSee 'axfs <command> --help' and axfs(1).\n",
	};
	size_t n;

	n = (size_t)snprintf(text, sizeof(text),
			     "usage: axfs [--version] [--help] <command> "
			     "[<args>]\n\n"
			     "Build, inspect, check and tune AXFS images.\n\n"
			     "Commands:\n");
	for (size_t i = 0; i < NCOMMANDS && n < sizeof(text); i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "   %-14s %s\n", commands[i].name,
				      commands[i].summary);
	if (n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, "\nOptions:\n");
	return &u;
}

/*
 * mount(8) runs /sbin/mount.fuse.axfs for `mount -t fuse.axfs` and fstab
 * lines, and where there is none (a PREFIX other than /usr puts ours
 * elsewhere; mount(8) looks in /sbin only), fuse3's /sbin/mount.fuse,
 * which runs `axfs SOURCE DIR -o OPTIONS` from the shell's default PATH,
 * as for squashfuse.  SOURCE is no command: a path with a '/' (mount(8)
 * gives it absolute), followed by the mount point.  A bare name stays an
 * unknown command, with its "did you mean".
 */
static int is_mount_source(int argc, char **argv)
{
	return argc >= 2 && strchr(argv[0], '/') != NULL;
}

static int run_mount_helper(int argc, char **argv)
{
	char **args = calloc((size_t)argc + 2, sizeof(*args));
	int rc;

	if (!args) {
		cmd_error("out of memory");
		return EXIT_OPERATIONAL;
	}
	args[0] = (char *)"mount.fuse.axfs";
	memcpy(args + 1, argv, (size_t)argc * sizeof(*args));
	cmd_name = "axfs mount";
	signal(SIGXFSZ, SIG_IGN);
	rc = cmd_mount_helper(argc + 1, args);
	free(args);
	return rc;
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
	struct cmd_step step;

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

	cmd_name = "axfs";
	step = cmd_parse_options_in(argc, argv, options, usage(),
				    CMD_OPERANDS_LAST);
	if (step.stop)
		return step.exit_code;
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		cmd_fprint_help(stderr, options, usage());
		return EXIT_USAGE;
	}
	if (strcmp(argv[0], "help") == 0) {
		char *args[] = { argv[1], (char *)"--help", NULL };

		if (argc == 1)
			return cmd_print_help(options, usage());
		if (argc > 2) {
			cmd_error("'axfs help' takes one command, not '%s'",
				  argv[2]);
			return EXIT_USAGE;
		}
		c = find_command(argv[1]);
		if (!c)
			return unknown_command(argv[1]);
		return run(c, 2, args);
	}
	c = find_command(argv[0]);
	if (!c && is_mount_source(argc, argv))
		return run_mount_helper(argc, argv);
	if (!c)
		return unknown_command(argv[0]);
	return run(c, argc, argv);
}
