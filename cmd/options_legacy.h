/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd/options_legacy.h - the old getopt loop, until every command has its
 * option table (options.h); removed with the last one. */
#ifndef AXFS_CMD_OPTIONS_LEGACY_H
#define AXFS_CMD_OPTIONS_LEGACY_H

#include "options.h"

#include <getopt.h>

/* What a parsing step returns when parsing goes on. */
#define CMD_OPT_NEXT	(-1)

/* getopt_long() values of the shared long-only options. */
enum {
	CMD_OPT_PROGRESS = 0x1000,
	CMD_OPT_NO_PROGRESS,
	CMD_OPT_STORE,		/* image_operands.h */
	CMD_OPT_MAX_MEMORY_,
};

/*
 * The end of every subcommand's option table: -q, -v, -h, -V and the
 * terminating row.  Their short letters go at the end of the optstring
 * as CMD_SHORTOPTS.
 */
#define CMD_LONGOPTS_END \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }
#define CMD_SHORTOPTS	"qvhV"

/* The same, after --progress and --no-progress, for the commands that
 * draw a progress bar. */
#define CMD_LONGOPTS_PROGRESS_END \
	{ "progress", no_argument, NULL, CMD_OPT_PROGRESS }, \
	{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS }, \
	CMD_LONGOPTS_END

/* What cmd_getopt() returns when the command must return g->exit_code
 * now: after --help, --version or a bad command line. */
#define CMD_OPT_EXIT	(-2)

struct cmd_getopt {
	const char *shortopts;		/* the command's own: "s:" */
	const struct option *longopts;	/* ending in CMD_LONGOPTS_END */
	int (*usage)(void);		/* prints --help; its exit code */
	int exit_code;			/* with CMD_OPT_EXIT */
	char optstring[64];		/* built at the first call */
};

/*
 * getopt_long() for a subcommand: returns the next of the command's own
 * options (its letter or long value, optarg set), -1 when the operands
 * start at argv[optind], or CMD_OPT_EXIT.  It does all that means the same
 * in every subcommand itself: -q, -v, --progress, --no-progress, --help,
 * --version, and the errors for a missing value or an unknown option, so
 * that all of them word those errors alike.  Starts over at argv[1] with a
 * fresh `g` from CMD_GETOPT_INIT.
 */
int cmd_getopt(int argc, char **argv, struct cmd_getopt *g);
#define CMD_GETOPT_INIT(own, table, help) \
	{ .shortopts = (own), .longopts = (table), .usage = (help) }

/*
 * The end of --help: the lines of the shared options, after the command's
 * own (the progress ones when `progress`, then -q, -v, -h and -V), then
 * `tail` ("\nSee axfs-cat(1).\n"; NULL: nothing).  Option names are
 * padded to `column`, where the command's other descriptions start;
 * `quiet` and `verbose` say what -q and -v do in this command (NULL: the
 * usual "print errors only" and "say more").  Returns the exit code.
 */
int cmd_print_shared_help(int column, int progress, const char *quiet,
			  const char *verbose, const char *tail);

#define CMD_LONGOPTS_IMAGE \
	{ "store", required_argument, NULL, CMD_OPT_STORE }, \
	{ "max-memory", required_argument, NULL, CMD_OPT_MAX_MEMORY_ }
int cmd_image_option(int c, const char *arg);
void cmd_print_image_help(int column);

#endif
