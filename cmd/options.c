// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/options.c - the command-line options every subcommand shares */
#include "options.h"

#include <stdio.h>

#include "common.h"
#include "image_operands.h"
#include "progress.h"

/* What shared_option() returns for an option of the command's own. */
#define OWN_OPTION	(-3)

/* An option every subcommand has: CMD_OPT_NEXT to go on, or the exit
 * code the subcommand returns now. */
static int shared_option(int c, char **argv, int (*usage)(void))
{
	switch (c) {
	case 'h':
		return usage();
	case 'q':
		cmd_verbosity = 0;
		return CMD_OPT_NEXT;
	case 'v':
		/* -v after -q: the last one wins, as in most tools. */
		cmd_verbosity = cmd_verbosity < 1 ? 2 : cmd_verbosity + 1;
		return CMD_OPT_NEXT;
	case 'V':
		return cmd_print_version();
	case CMD_OPT_PROGRESS:
		cmd_progress_forced = 1;
		return CMD_OPT_NEXT;
	case CMD_OPT_NO_PROGRESS:
		cmd_progress_forced = 0;
		return CMD_OPT_NEXT;
	case CMD_OPT_STORE:
	case CMD_OPT_MAX_MEMORY:
		return cmd_image_option(c, optarg);
	case ':':
		return cmd_usage_error("option '%s' needs a value",
				       argv[optind - 1]);
	case '?':
		/* getopt sets optopt for a short option it does not know;
		 * for a long one it leaves 0 and the word is in argv. */
		if (optopt > 0 && optopt < 256)
			return cmd_usage_error("invalid option -- '%c'", optopt);
		return cmd_usage_error("unrecognized option '%s'",
				       argv[optind - 1]);
	default:
		return OWN_OPTION;
	}
}

int cmd_getopt(int argc, char **argv, struct cmd_getopt *g)
{
	int c, rc;

	if (!g->optstring[0]) {
		snprintf(g->optstring, sizeof(g->optstring), ":%s%s",
			 g->shortopts, CMD_SHORTOPTS);
		optind = 1;
		opterr = 0;
	}
	while ((c = getopt_long(argc, argv, g->optstring, g->longopts,
				NULL)) != -1) {
		rc = shared_option(c, argv, g->usage);
		if (rc == OWN_OPTION)
			return c;
		if (rc != CMD_OPT_NEXT) {
			g->exit_code = rc;
			return CMD_OPT_EXIT;
		}
	}
	return -1;
}

static void help_row(int column, const char *names, const char *text)
{
	printf("  %-*s%s\n", column - 2, names, text);
}

int cmd_print_shared_help(int column, int progress, const char *quiet,
			  const char *verbose, const char *tail)
{
	if (progress) {
		help_row(column, "    --progress",
			 "show a progress bar even when stderr is no TTY");
		help_row(column, "    --no-progress",
			 "never show a progress bar");
	}
	help_row(column, "-q, --quiet", quiet ? quiet : "print errors only");
	help_row(column, "-v, --verbose", verbose ? verbose : "say more");
	help_row(column, "-h, --help", "show this help and exit");
	help_row(column, "-V, --version", "show the version and exit");
	if (tail)
		fputs(tail, stdout);
	return cmd_finish_stdout(EXIT_OK);
}
