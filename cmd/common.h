/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/common.h - what every subcommand shares: messages in git's style
 * ("axfs mkfs: cannot open 'x': reason"), verbosity, exit codes, the
 * library logger, --version, and checked stdout.
 */
#ifndef CMD_COMMON_H
#define CMD_COMMON_H

#include <stdio.h>
#include "axfs_error.h"

/* util-linux exit codes (include/exitcodes.h). */
#define EXIT_OK			0
#define EXIT_FSCK_CORRECTED	1	/* fsck: errors corrected (never) */
#define EXIT_FSCK_UNCORRECTED	4	/* fsck: errors left uncorrected */
#define EXIT_OPERATIONAL	8	/* could not do the job */
#define EXIT_USAGE		16	/* bad command line */

/* "axfs mkfs", set by the dispatcher before a subcommand runs. */
extern const char *cmd_name;
/* -q lowers, -v raises: 0 quiet, 1 normal, 2 verbose, 3 debug. */
extern int cmd_verbosity;

/* A message on stderr, "axfs mkfs: text" (escaped, common.c), shown
 * when cmd_verbosity is at least its kind: errors always, warnings
 * unless -q, notes with -v. */
enum cmd_msg_kind { CMD_MSG_ERROR, CMD_MSG_WARNING, CMD_MSG_INFO };
void cmd_msg(enum cmd_msg_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define cmd_error(...)	cmd_msg(CMD_MSG_ERROR, __VA_ARGS__)
#define cmd_warn(...)	cmd_msg(CMD_MSG_WARNING, __VA_ARGS__)
#define cmd_info(...)	cmd_msg(CMD_MSG_INFO, __VA_ARGS__)
/* Prints the error plus "Try 'axfs X --help'." and returns EXIT_USAGE. */
int cmd_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The array v of *cap elements of `size` bytes, n of them used, with
 * room for one more: v itself, or v moved to twice its capacity (first
 * elements at first); NULL, v unchanged, when memory runs out. */
void *cmd_grow(void *v, size_t n, size_t *cap, size_t size, size_t first);
/* "axfs mkfs (axfs-tools) 0.1.0" on stdout. */
int cmd_print_version(void);
/* Flushes stdout and reports a write error (EPIPE, ENOSPC...): returns
 * `rc` if all is well, else EXIT_OPERATIONAL. */
int cmd_finish_stdout(int rc);
/* A logger that prints library warnings/info/debug per cmd_verbosity. */
extern const struct axfs_logger cmd_logger;

/*
 * Colour: SGR sequences, used only through cmd_color() so that one place
 * decides.  cmd_color(f, CMD_RED) is CMD_RED when f may be coloured and
 * "" otherwise; so is cmd_color(f, CMD_RESET).
 */
#define CMD_RED		"\033[1;31m"	/* errors */
#define CMD_YELLOW	"\033[1;33m"	/* warnings */
#define CMD_RESET	"\033[m"
/* True when f (stdout or stderr) may be coloured: it is a terminal,
 * NO_COLOR is unset or empty (https://no-color.org/) and TERM is set and
 * not "dumb". */
int cmd_color_enabled(FILE *f);
const char *cmd_color(FILE *f, const char *sgr);

/* Parses a non-negative integer; 0 on success. */
int cmd_parse_uint(const char *s, unsigned long long max,
		   unsigned long long *out);

/* Subcommands: int cmd_X(int argc, char **argv), argv[0] = "X". */
int cmd_mkfs(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_fsck(int argc, char **argv);
int cmd_merge_profile(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_mount(int argc, char **argv);
/* mount(8)'s convention (IMAGE DIR [-fnsv] [-o OPTIONS]), argv[0] any name:
 * what mount.fuse.axfs runs, and `axfs IMAGE DIR -o ...` from mount.fuse. */
int cmd_mount_helper(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_cat(int argc, char **argv);
int cmd_ls(int argc, char **argv);

#endif
