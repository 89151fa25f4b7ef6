/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd/options.h - the command-line options every subcommand shares */
#ifndef AXFS_CMD_OPTIONS_H
#define AXFS_CMD_OPTIONS_H

/* What cmd_shared_option() returns when parsing goes on. */
#define CMD_OPT_NEXT	(-1)

/*
 * Handles a getopt_long() result that means the same in every subcommand:
 * -q, -v, -V and the errors for a missing value or an unknown option, so
 * that all of them word those errors alike.  Call it from the default case
 * of the option switch.  Returns CMD_OPT_NEXT to go on parsing, or the
 * exit code the subcommand returns now.
 */
int cmd_shared_option(int c, char **argv);

#endif
