/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/progress.h - the one progress bar of the commands (mkfs, extract,
 * fsck), on standard error:
 *
 *   LABEL: 42% files 120/300, 10.5/25.0 MiB, 8.1 MiB/s, ETA 0:02
 *
 * Drawn only on a terminal with CI unset (unless --progress or
 * --no-progress says otherwise) and never with -q; at most ten times a
 * second; erased by every message the command prints (common.c), and
 * drawn again at the next update.
 */
#ifndef CMD_PROGRESS_H
#define CMD_PROGRESS_H

#include <stdint.h>

/* --progress (1), --no-progress (0), or -1: decide by the terminal. */
extern int cmd_progress_forced;

/* Starts the bar when it may be drawn (returns 1, else 0): LABEL (kept,
 * not copied) leads the line, and "files D/T" is shown when `files`. */
int cmd_progress_begin(const char *label, int files);
/* The bar now; the final update (all done) is always drawn. */
void cmd_progress_update(uint64_t files_done, uint64_t files_total,
			 uint64_t bytes_done, uint64_t bytes_total);
/* Erases the bar if it is on the screen. */
void cmd_progress_clear(void);
/* Erases the bar and draws no more. */
void cmd_progress_end(void);

#endif
