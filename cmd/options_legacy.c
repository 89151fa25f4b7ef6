// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/options_legacy.c - see options_legacy.h */
#include "options_legacy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axfs_policy.h"
#include "axfs_suggest.h"
#include "common.h"
#include "image_operands.h"

int cmd_image_option(int c, const char *arg)
{
	struct cmd_step s;

	if (c == CMD_OPT_STORE)
		s = cmd_image_store(NULL, arg);
	else {
		uint64_t v;

		if (axfs_parse_size(arg, &v, NULL, 0) < 0 || v == 0)
			return cmd_usage_error("--max-memory: '%s' is not a "
					       "size", arg);
		cmd_image.max_memory = v;
		return CMD_OPT_NEXT;
	}
	return s.stop ? s.exit_code : CMD_OPT_NEXT;
}

static void row(int column, const char *names, const char *text)
{
	if ((int)strlen(names) + 2 >= column)
		printf("  %s\n%*s%s\n", names, column, "", text);
	else
		printf("  %-*s%s\n", column - 2, names, text);
}

void cmd_print_image_help(int column)
{
	row(column, "    --store FILE", "the store segment of a split image");
	row(column, "    --max-memory SIZE",
	    "memory budget (default 64 MiB + 8 x image size)");
}
#include "progress.h"

/* "unrecognized option '--xip-budgte'; did you mean '--xip-budget'?": the
 * nearest long option of the command, as for policy keys. */
static int unknown_long_option(const char *arg, const struct option *longopts)
{
	const char **names;
	const char *best = NULL;
	char word[64];
	size_t n = 0, len;

	len = strcspn(arg + 2, "=");
	if (strncmp(arg, "--", 2) != 0 || len >= sizeof(word))
		return cmd_usage_error("unrecognized option '%s'", arg);
	memcpy(word, arg + 2, len);
	word[len] = '\0';
	while (longopts[n].name)
		n++;
	names = calloc(n + 1, sizeof(*names));
	if (names) {
		for (size_t i = 0; i < n; i++)
			names[i] = longopts[i].name;
		best = axfs_suggest(word, names);
	}
	if (best) {
		char sugg[80];

		snprintf(sugg, sizeof(sugg), "%s", best);
		free(names);
		return cmd_usage_error("unrecognized option '%s'; did you mean "
				       "'--%s'?", arg, sugg);
	}
	free(names);
	return cmd_usage_error("unrecognized option '%s'", arg);
}

/* What shared_option() returns for an option of the command's own. */
#define OWN_OPTION	(-3)

/* An option every subcommand has: CMD_OPT_NEXT to go on, or the exit
 * code the subcommand returns now. */
static int shared_option(int c, char **argv, const struct cmd_getopt *g)
{
	switch (c) {
	case 'h':
		return g->usage();
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
	case CMD_OPT_MAX_MEMORY_:
		return cmd_image_option(c, optarg);
	case ':':
		return cmd_usage_error("option '%s' needs a value",
				       argv[optind - 1]);
	case '?':
		/* getopt sets optopt for a short option it does not know;
		 * for a long one it leaves 0 and the word is in argv. */
		if (optopt > 0 && optopt < 256)
			return cmd_usage_error("invalid option -- '%c'", optopt);
		return unknown_long_option(argv[optind - 1], g->longopts);
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
		rc = shared_option(c, argv, g);
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
