/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd/mkfs_cli.h - axfs mkfs's command line: its option table, operands
 * and the checks made before anything is read or written */
#ifndef CMD_MKFS_CLI_H
#define CMD_MKFS_CLI_H

#include "axfs_build.h"
#include "mkfs_exclude.h"
#include "options.h"

struct mkfs_cli {
	struct axfs_build_opts o;	/* output, source, the globs set */
	const char *policy_file;	/* -c; NULL: none */
	struct cmd_strings profiles;	/* -p, in order */
	struct cmd_strings tables;	/* --device-table, in order */
	struct cmd_strings xip;		/* --xip */
	struct excludes excl;		/* --exclude, --exclude-from */
	const char *report_text, *report_json, *report_svg;
};

/*
 * Parses argv into `c` (initialised here): the options, the operands
 * SOURCE [STORE-SEGMENT] [IMAGE], and the outputs checked against the
 * inputs and each other.  Stops after --help or --version, or with the
 * usage error it printed; mkfs_cli_free() frees `c` either way.
 */
struct cmd_step mkfs_cli_parse(struct mkfs_cli *c, int argc, char **argv);
void mkfs_cli_free(struct mkfs_cli *c);

/* -l against the compressor of the command line, else the policy's
 * (o->policy, loaded), else the default: a usage error, before anything
 * is read or written. */
struct cmd_step mkfs_cli_check_level(const struct axfs_build_opts *o);

/* True when a report goes to standard output. */
int mkfs_cli_report_is_stdout(const struct mkfs_cli *c);

#endif
