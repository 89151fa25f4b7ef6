// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/progress.c - the one progress bar of the commands */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

/* Redraws closer together than this are skipped: drawing costs. */
#define REDRAW_NS	100000000L

int cmd_progress_forced = -1;

static struct {
	const char *label;
	int active, files, drawn;
	struct timespec start, last;
} bar;

static int may_draw(void)
{
	const char *ci = getenv("CI");

	if (cmd_verbosity < 1)
		return 0;
	if (cmd_progress_forced >= 0)
		return cmd_progress_forced;
	if (ci && *ci)
		return 0;
	return isatty(STDERR_FILENO);
}

int cmd_progress_begin(const char *label, int files)
{
	bar.active = may_draw();
	bar.label = label;
	bar.files = files;
	bar.drawn = 0;
	clock_gettime(CLOCK_MONOTONIC, &bar.start);
	return bar.active;
}

static double seconds_since(const struct timespec *then,
			    const struct timespec *now)
{
	return (double)(now->tv_sec - then->tv_sec) +
	       (double)(now->tv_nsec - then->tv_nsec) / 1e9;
}

/* ", R MiB/s, ETA M:SS" */
static void format_rate(char *buf, size_t len, const struct timespec *now,
			uint64_t done, uint64_t total)
{
	double el = seconds_since(&bar.start, now);
	double rate = el > 0 ? (double)done / el : 0;
	char eta[32] = "--:--";

	if (rate > 0 && total >= done) {
		double left = (double)(total - done) / rate;

		snprintf(eta, sizeof(eta), "%d:%02d", (int)(left / 60),
			 (int)left % 60);
	}
	snprintf(buf, len, ", %.1f MiB/s, ETA %s", rate / 1048576.0, eta);
}

void cmd_progress_update(uint64_t files_done, uint64_t files_total,
			 uint64_t bytes_done, uint64_t bytes_total)
{
	int last = files_done >= files_total && bytes_done >= bytes_total;
	struct timespec now;
	char files[64] = "", rate[64];

	if (!bar.active)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!last && bar.drawn &&
	    (now.tv_sec - bar.last.tv_sec) * 1000000000L +
	    (now.tv_nsec - bar.last.tv_nsec) < REDRAW_NS)
		return;
	bar.last = now;
	bar.drawn = 1;
	if (bar.files)
		snprintf(files, sizeof(files), " files %llu/%llu",
			 (unsigned long long)files_done,
			 (unsigned long long)files_total);
	format_rate(rate, sizeof(rate), &now, bytes_done, bytes_total);
	fprintf(stderr, "\r\033[K%s: %3d%%%s, %.1f/%.1f MiB%s", bar.label,
		bytes_total ? (int)(100.0 * (double)bytes_done /
				    (double)bytes_total) : 100,
		files, (double)bytes_done / 1048576.0,
		(double)bytes_total / 1048576.0, rate);
	fflush(stderr);
}

void cmd_progress_clear(void)
{
	if (bar.drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		bar.drawn = 0;
	}
}

void cmd_progress_end(void)
{
	cmd_progress_clear();
	bar.active = 0;
}
