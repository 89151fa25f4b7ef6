// SPDX-License-Identifier: GPL-2.0-or-later
/* TEMPORARY placeholder: replaced by the real subcommand. */
#include "common.h"

int cmd_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_error("not implemented yet");
	return EXIT_OPERATIONAL;
}
