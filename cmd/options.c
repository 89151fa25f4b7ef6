// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/options.c - the command-line options every subcommand shares */
#include "options.h"

#include <getopt.h>

#include "common.h"

int cmd_shared_option(int c, char **argv)
{
	switch (c) {
	case 'q':
		cmd_verbosity = 0;
		return CMD_OPT_NEXT;
	case 'v':
		/* -v after -q: the last one wins, as in most tools. */
		cmd_verbosity = cmd_verbosity < 1 ? 2 : cmd_verbosity + 1;
		return CMD_OPT_NEXT;
	case 'V':
		return cmd_print_version();
	case ':':
		return cmd_usage_error("option '%s' needs a value",
				       argv[optind - 1]);
	default:
		/* getopt sets optopt for a short option it does not know;
		 * for a long one it leaves 0 and the word is in argv. */
		if (optopt > 0 && optopt < 256)
			return cmd_usage_error("invalid option -- '%c'", optopt);
		return cmd_usage_error("unrecognized option '%s'",
				       argv[optind - 1]);
	}
}
