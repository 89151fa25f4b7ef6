/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd/util_report.h - mkfs reports, see util_report.c */
#ifndef CMD_UTIL_REPORT_H
#define CMD_UTIL_REPORT_H

#include "axfs_build.h"

/* Writes the reports asked for (NULL = not asked); 0 or -1 after an
 * error message. */
int mkfs_write_reports(const struct axfs_build_result *res, const char *image,
		       const char *text, const char *json, const char *svg);

#endif
