// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/util_report.c - writes the mkfs reports (--report, --report-json,
 * --report-svg) from a finished build.  Each report goes to a temporary
 * file renamed when complete, or to standard output for "-".
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "report.h"
#include "common.h"
#include "util_report.h"

typedef int (*report_writer)(const struct report *r, FILE *f);

static int write_one(const struct report *r, const char *path,
		     report_writer fn)
{
	struct outfile of = { 0 };
	struct axfs_error err;
	FILE *f;

	if (strcmp(path, "-") == 0) {
		if (fn(r, stdout) < 0) {
			cmd_error("error writing the report to standard output");
			return -1;
		}
		return 0;
	}
	if (outfile_open(&of, path, &err) < 0) {
		cmd_error("%s", err.msg);
		return -1;
	}
	f = fdopen(dup(of.fd), "w");
	if (!f || fn(r, f) < 0 || fclose(f) != 0) {
		cmd_error("cannot write '%s'", path);
		outfile_abort(&of);
		return -1;
	}
	if (outfile_commit(&of, &err) < 0) {
		cmd_error("%s", err.msg);
		outfile_abort(&of);
		return -1;
	}
	outfile_abort(&of);	/* closes what commit left */
	return 0;
}

int mkfs_write_reports(const struct axfs_build_result *res, const char *image,
		       const char *text, const char *json, const char *svg)
{
	struct report r;
	struct axfs_error err;
	int rc = 0;

	if (!text && !json && !svg)
		return 0;
	if (report_build(&r, res, image, &err) < 0) {
		cmd_error("cannot build the report: %s", err.msg);
		return -1;
	}
	if (text && write_one(&r, text, report_write_text) < 0)
		rc = -1;
	if (json && write_one(&r, json, report_write_json) < 0)
		rc = -1;
	if (svg && write_one(&r, svg, report_write_svg) < 0)
		rc = -1;
	report_free(&r);
	return rc;
}
