// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/signals.c - no temporary output left behind by SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE (where outputs are named temporary files, not O_TMPFILE) */
#include "signals.h"

#include <signal.h>
#include <string.h>

#include "outfile.h"

volatile int cmd_cancelled;

static void on_signal(int sig)
{
	/* Only async-signal-safe work here: unlink the temporary files,
	 * then die of the signal as if it had not been caught
	 * (SA_RESETHAND restored the default action). */
	cmd_cancelled = 1;
	outfile_abort_all_signal_safe();
	raise(sig);
}

void cmd_remove_output_on_signal(void)
{
	/* SIGPIPE: `axfs mkfs -v ... 2>&1 | head -1` ends us mid-build. */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}
