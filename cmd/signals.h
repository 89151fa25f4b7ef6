/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd/signals.h - no temporary output left behind by SIGINT, SIGTERM, SIGHUP */
#ifndef CMD_SIGNALS_H
#define CMD_SIGNALS_H

/* Set by the handler; long jobs (axfs_build's cancel) may poll it. */
extern volatile int cmd_cancelled;

/*
 * From now on SIGINT, SIGTERM and SIGHUP remove every temporary output
 * file still open (outfile_*), then end the process by the same
 * signal, so the caller (make, a shell) sees what killed it.
 */
void cmd_remove_output_on_signal(void);

#endif
