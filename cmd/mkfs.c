// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/mkfs.c - axfs mkfs: build an image from a directory, an archive or
 * an image.
 *
 *   axfs mkfs [options] SOURCE -o IMAGE
 *   axfs mkfs [options] SOURCE IMAGE        (as mkfs.cramfs takes it)
 *   axfs mkfs [options] OLD.nor OLD.nand -o IMAGE   (a split image source)
 *
 * The command line is mkfs_cli.c's; this loads the policy and the
 * profiles and runs axfs_build(), which does the work and the atomic
 * output.  SIGINT and SIGTERM remove the temporary file before the
 * process dies.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "common.h"
#include "mkfs_cli.h"
#include "progress.h"
#include "signals.h"
#include "axfs_build.h"
#include "axfs_policy.h"
#include "axfs_profile.h"
#include "mkfs_summary.h"
#include "profile_order.h"
#include "util_report.h"

static void progress_fn(void *ctx, uint64_t files_done, uint64_t files_total,
			uint64_t bytes_done, uint64_t bytes_total)
{
	(void)ctx;
	cmd_progress_update(files_done, files_total, bytes_done, bytes_total);
}

/* Seconds since an arbitrary point, for the build's time. */
static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The profiles of -p, read and made one canonical profile, as
 * merge-profile merges them (the ranks of ordered ones included). */
static int load_profiles(struct axfs_profile *profile,
			 const struct cmd_strings *csv, struct axfs_error *err)
{
	if (profile_read_inputs(profile, (const char *const *)csv->v, csv->n,
				err) < 0)
		return -1;
	return axfs_profile_canonicalize(profile, err);
}

int cmd_mkfs(int argc, char **argv)
{
	struct mkfs_cli c;
	struct axfs_build_result *res = NULL;
	struct axfs_policy policy;
	struct axfs_profile profile;
	struct axfs_error err;
	int have_policy = 0, have_profile = 0, rc = EXIT_OPERATIONAL;
	double started = now_seconds();
	struct cmd_step step = mkfs_cli_parse(&c, argc, argv);

	axfs_error_clear(&err);
	if (step.stop) {
		rc = step.exit_code;
		goto out;
	}
	c.o.log = &cmd_logger;
	c.o.cancel = &cmd_cancelled;
	if (c.policy_file) {
		axfs_policy_init(&policy);
		have_policy = 1;
		if (axfs_policy_load(&policy, c.policy_file, &err) < 0)
			goto failed;
		c.o.policy = &policy;
	}
	step = mkfs_cli_check_level(&c.o);
	if (step.stop) {
		rc = step.exit_code;
		goto out;
	}
	if (c.profiles.n) {
		axfs_profile_init(&profile, &cmd_logger);
		have_profile = 1;
		if (load_profiles(&profile, &c.profiles, &err) < 0)
			goto failed;
		c.o.profile = &profile;
	}
	if (cmd_progress_begin(cmd_name, 1))
		c.o.progress = progress_fn;

	cmd_remove_output_on_signal();
	if (axfs_build(&c.o, &res, &err) < 0)
		goto failed;
	cmd_progress_end();
	/* The image is complete; a report that cannot be written is an
	 * error of its own but leaves the image in place. */
	rc = mkfs_write_reports(res, c.o.output, c.report_text, c.report_json,
				c.report_svg) < 0 ? EXIT_OPERATIONAL : EXIT_OK;
	/* Last, on standard output as mksquashfs prints its own (unless a
	 * report went there): a reader that went away misses no file. */
	if (cmd_verbosity >= 1)
		mkfs_print_summary(mkfs_cli_report_is_stdout(&c) ? stderr :
				   stdout, c.o.output, res,
				   now_seconds() - started);
	axfs_build_result_free(res);
	goto out;

failed:
	cmd_error("%s", err.msg);
out:
	if (have_policy)
		axfs_policy_free(&policy);
	if (have_profile)
		axfs_profile_free(&profile);
	mkfs_cli_free(&c);
	return cmd_finish_stdout(rc);
}
