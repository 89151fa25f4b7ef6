// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_report.c - the check table (FSCK_CHECKS in internal.h) and how a
 * finding reaches the caller: counted by severity, held back past the
 * per-check limit, runs of items reported as one finding, progress and
 * cancellation.  The phases call it; it calls no phase, only the other
 * helpers (fsck_path.c names the file a finding is about).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "axfs_format.h"
#include "axfs_fsck.h"
#include "internal.h"

/* ---- the check table ---------------------------------------------------- */

static const struct axfs_fsck_check check_table[FC_COUNT] = {
#define FSCK_ROW(e, id, sev, sum) [FC_##e] = { id, AXFS_FSCK_##sev, sum },
	FSCK_CHECKS(FSCK_ROW)
#undef FSCK_ROW
};

const struct axfs_fsck_check *axfs_fsck_checks(size_t *count)
{
	if (count)
		*count = FC_COUNT;
	return check_table;
}

const char *axfs_fsck_severity_name(enum axfs_fsck_severity s)
{
	switch (s) {
	case AXFS_FSCK_NOTICE:
		return "notice";
	case AXFS_FSCK_WARNING:
		return "warning";
	case AXFS_FSCK_ERROR:
		return "error";
	}
	return "error";
}

const char *fsck_region_name(enum axfs_region r)
{
	return axfs_format_region_name(r);
}

/* ---- reporting ---------------------------------------------------------- */

int fsck_stopped(struct fsck *f)
{
	if (!f->stop && f->o->cancel && *f->o->cancel)
		f->stop = 1;
	return f->stop;
}

void fsck_report(struct fsck *f, enum fsck_check c, uint64_t off,
		 uint64_t ino, const char *fmt, ...)
{
	struct axfs_fsck_finding fd;
	char msg[2048];
	va_list ap;

	if (f->stop)
		return;
	fd.severity = check_table[c].severity;
	switch (fd.severity) {
	case AXFS_FSCK_ERROR:
		f->res->errors++;
		break;
	case AXFS_FSCK_WARNING:
		f->res->warnings++;
		break;
	case AXFS_FSCK_NOTICE:
		f->res->notices++;
		break;
	}
	f->per_check[c]++;
	if (f->o->per_check_limit && f->per_check[c] > f->o->per_check_limit)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fd.check = check_table[c].id;
	fd.offset = off;
	fd.ino = ino;
	fd.path = ino != FSCK_NO_INO ? fsck_path(f, ino) : NULL;
	fd.message = msg;
	if (f->o->report && f->o->report(f->o->report_ctx, &fd))
		f->stop = 1;
}

/* Tells how many findings of each kind the per-check limit held back. */
void fsck_report_suppressed(struct fsck *f)
{
	for (int c = 0; c < FC_COUNT && !f->stop; c++) {
		struct axfs_fsck_finding fd;
		char msg[128];
		uint64_t lim = f->o->per_check_limit;

		if (!lim || f->per_check[c] <= lim)
			continue;
		snprintf(msg, sizeof(msg),
			 "%llu more findings of this kind are not shown",
			 (unsigned long long)(f->per_check[c] - lim));
		fd.severity = check_table[c].severity;
		fd.check = check_table[c].id;
		fd.offset = 0;
		fd.path = NULL;
		fd.ino = FSCK_NO_INO;
		fd.message = msg;
		if (f->o->report && f->o->report(f->o->report_ctx, &fd))
			f->stop = 1;
	}
}

void fsck_run_add(struct fsck *f, struct fsck_run *run, uint64_t item,
		  uint64_t off)
{
	if (run->open && item == run->last + 1) {
		run->last = item;
		return;
	}
	fsck_run_flush(f, run);
	run->open = 1;
	run->first = run->last = item;
	run->off = off;
}

void fsck_run_flush(struct fsck *f, struct fsck_run *run)
{
	if (!run->open)
		return;
	run->open = 0;
	if (run->first == run->last)
		fsck_report(f, run->check, run->off, FSCK_NO_INO,
			    "%s %llu: %s", run->what,
			    (unsigned long long)run->first, run->verb);
	else
		fsck_report(f, run->check, run->off, FSCK_NO_INO,
			    "%ss %llu..%llu (%llu): %s", run->what,
			    (unsigned long long)run->first,
			    (unsigned long long)run->last,
			    (unsigned long long)(run->last - run->first + 1),
			    run->verb);
}

void fsck_progress(struct fsck *f, uint64_t done, uint64_t total)
{
	if (f->o->progress)
		f->o->progress(f->o->progress_ctx, done, total);
}

