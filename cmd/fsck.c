// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/fsck.c - `axfs fsck` (also fsck.axfs): checks an image and prints
 * every problem, one line each, "IMAGE: byte OFFSET: [PATH: ]message", or
 * one JSON document with --json.  Exit codes follow util-linux fsck:
 * 0 no errors, 4 errors left (it never repairs), 8 cannot read, 16 usage.
 * Warnings (what the driver tolerates) exit 0 unless --strict.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axfs_fsck.h"
#include "common.h"
#include "escape.h"
#include "json.h"
#include "image_operands.h"
#include "options.h"
#include "progress.h"

static const struct cmd_usage usage = {
	"usage: axfs fsck [options] IMAGE [STORE-SEGMENT]\n"
	"   or: fsck.axfs [options] IMAGE [STORE-SEGMENT]\n"
	"\n"
	"Check an AXFS image (never modifying it; - for standard input) and\n"
	"report every problem with its byte offset.  For a split image, give\n"
	"the mmap segment and the store segment (or --store).\n"
	"\n",
	"\n"
	"Exit status: 0 no errors (warnings allowed unless --strict), 4 errors\n"
	"found, 8 cannot read the image, 16 usage error.\n",
};

/* The notices of one check, held back to be printed as one line. */
struct notice_group {
	const char *check;	/* the finding's stable id */
	uint64_t n;
	char *first;		/* the first one's line, as printed */
};

struct out {
	const char *image;
	int json;
	int quiet;
	int nfind;		/* findings printed (JSON commas) */
	uint64_t count[AXFS_FSCK_ERROR + 1];	/* findings by severity */
	/* Without -v, the notices of a check (node.xip-order: one per file
	 * of a profiled image, about the 2008 driver's read()) are one
	 * line, not a screenful before "clean". */
	int group_notices;
	struct notice_group *groups;
	size_t ngroups;
};

/* ---- output -------------------------------------------------------------- */

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	(void)ctx;
	if (total)
		cmd_progress_update(0, 0, done, total);
}

static void print_finding(FILE *to, const struct out *o,
			  const struct axfs_fsck_finding *f)
{
	/* On a terminal, an error's "IMAGE: byte OFFSET:" is red (errors
	 * carry no severity word), as the "axfs mkfs:" of an error message
	 * is, and the word "warning" yellow. */
	int red = f->severity == AXFS_FSCK_ERROR;

	fprintf(to, "%s%s: byte %llu:%s ", red ? cmd_color(stdout, CMD_RED) : "",
		cmd_esc(o->image), (unsigned long long)f->offset,
		red ? cmd_color(stdout, CMD_RESET) : "");
	if (f->path)
		fprintf(to, "%s: ", cmd_esc(f->path));
	if (f->severity == AXFS_FSCK_WARNING)
		fprintf(to, "%swarning:%s ", cmd_color(stdout, CMD_YELLOW),
			cmd_color(stdout, CMD_RESET));
	else if (!red)
		fprintf(to, "%s: ", axfs_fsck_severity_name(f->severity));
	fprintf(to, "%s [%s]\n", cmd_esc(f->message), f->check);
}

/* Holds a notice back in its check's group; 0, or -1 out of memory (the
 * notice is then printed at once). */
static int group_notice(struct out *o, const struct axfs_fsck_finding *f)
{
	struct notice_group *g = NULL, *ng;
	size_t len;
	FILE *m;

	for (size_t i = 0; i < o->ngroups; i++)
		if (!strcmp(o->groups[i].check, f->check))
			g = &o->groups[i];
	if (!g) {
		ng = realloc(o->groups, (o->ngroups + 1) * sizeof(*ng));
		if (!ng)
			return -1;
		o->groups = ng;
		g = &ng[o->ngroups];
		g->check = f->check;
		g->n = 0;
		g->first = NULL;
		m = open_memstream(&g->first, &len);
		if (!m)
			return -1;
		print_finding(m, o, f);
		if (fclose(m) != 0) {
			free(g->first);
			return -1;
		}
		o->ngroups++;
	}
	g->n++;
	return 0;
}

/* The held-back notices: a check's only one as it is, more as one line. */
static void print_notice_groups(struct out *o)
{
	size_t nchecks;
	const struct axfs_fsck_check *c = axfs_fsck_checks(&nchecks);

	for (size_t i = 0; i < o->ngroups; i++) {
		struct notice_group *g = &o->groups[i];
		const char *summary = "";

		if (g->n == 1) {
			fputs(g->first, stdout);
		} else {
			for (size_t k = 0; k < nchecks; k++)
				if (!strcmp(c[k].id, g->check))
					summary = c[k].summary;
			printf("%s: notice: %llu findings: %s (-v lists them) "
			       "[%s]\n", o->image, (unsigned long long)g->n,
			       summary, g->check);
		}
		free(g->first);
	}
	free(o->groups);
	o->groups = NULL;
	o->ngroups = 0;
}

static int on_finding(void *ctx, const struct axfs_fsck_finding *f)
{
	struct out *o = ctx;

	if ((unsigned int)f->severity < sizeof(o->count) / sizeof(o->count[0]))
		o->count[f->severity]++;
	if (o->quiet)
		return 0;
	if (!o->json && o->group_notices && f->severity == AXFS_FSCK_NOTICE &&
	    group_notice(o, f) == 0)
		return 0;
	cmd_progress_clear();
	if (o->json) {
		fputs(o->nfind ? ",\n    {" : "\n    {", stdout);
		fputs("\"severity\": ", stdout);
		json_cstr(stdout, axfs_fsck_severity_name(f->severity));
		fputs(", \"check\": ", stdout);
		json_cstr(stdout, f->check);
		printf(", \"offset\": %llu, \"path\": ",
		       (unsigned long long)f->offset);
		json_cstr(stdout, f->path);
		if (f->path)
			printf(", \"inode\": %llu", (unsigned long long)f->ino);
		else
			fputs(", \"inode\": null", stdout);
		fputs(", \"message\": ", stdout);
		json_cstr(stdout, f->message);
		putchar('}');
	} else {
		print_finding(stdout, o, f);
	}
	o->nfind++;
	return 0;
}

static const char *digest_name(enum axfs_fsck_digest d)
{
	switch (d) {
	case AXFS_FSCK_DIGEST_NONE:
		return "none";
	case AXFS_FSCK_DIGEST_OK:
		return "ok";
	case AXFS_FSCK_DIGEST_MISMATCH:
		return "mismatch";
	case AXFS_FSCK_DIGEST_NOT_CHECKED:
		break;
	}
	return "not-checked";
}

/* The JSON document's keys after the findings, the same set whatever the
 * outcome, so that a script reads .errors and .clean of every run: res
 * NULL when the image could not be read (then the counts are of the
 * findings reported before that, the sizes null, and operational_error
 * says why). */
static void print_json_end(const struct out *o,
			   const struct axfs_fsck_result *res,
			   const char *operational_error, int strict, int rc)
{
	static const char *const sizes[] = {
		"image_size", "inodes", "nodes", "cblocks", "data_bytes",
	};
	uint64_t size_of[5] = { 0 };

	if (res) {
		size_of[0] = res->image_size;
		size_of[1] = res->inodes;
		size_of[2] = res->nodes;
		size_of[3] = res->cblocks;
		size_of[4] = res->data_bytes;
	}
	printf("%s  ],\n", o->nfind ? "\n" : "");
	printf("  \"errors\": %llu,\n  \"warnings\": %llu,\n"
	       "  \"notices\": %llu,\n",
	       (unsigned long long)(res ? res->errors : o->count[AXFS_FSCK_ERROR]),
	       (unsigned long long)(res ? res->warnings :
				    o->count[AXFS_FSCK_WARNING]),
	       (unsigned long long)(res ? res->notices :
				    o->count[AXFS_FSCK_NOTICE]));
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (res)
			printf("  \"%s\": %llu,\n", sizes[i],
			       (unsigned long long)size_of[i]);
		else
			printf("  \"%s\": null,\n", sizes[i]);
	}
	printf("  \"digest\": \"%s\",\n  \"sha1\": ",
	       digest_name(res ? res->digest : AXFS_FSCK_DIGEST_NOT_CHECKED));
	if (!res || res->digest == AXFS_FSCK_DIGEST_NOT_CHECKED) {
		fputs("null", stdout);
	} else {
		putchar('"');
		for (int i = 0; i < 20; i++)
			printf("%02x", res->digest_sha1[i]);
		putchar('"');
	}
	printf(",\n  \"strict\": %s,\n  \"clean\": %s,\n",
	       strict ? "true" : "false",
	       res && rc == EXIT_OK ? "true" : "false");
	if (operational_error) {
		fputs("  \"operational_error\": ", stdout);
		json_cstr(stdout, operational_error);
		fputs(",\n", stdout);
		rc = EXIT_OPERATIONAL;
	}
	printf("  \"exit_code\": %d\n}\n", rc);
}

static void plural(uint64_t n, const char *what)
{
	printf("%llu %s%s", (unsigned long long)n, what, n == 1 ? "" : "s");
}

static struct cmd_step list_checks(const struct cmd_opt *opt,
				   const char *arg)
{
	size_t n;
	const struct axfs_fsck_check *c = axfs_fsck_checks(&n);

	for (size_t i = 0; i < n; i++)
		printf("%-22s %-8s %s\n", c[i].id,
		       axfs_fsck_severity_name(c[i].severity), c[i].summary);
	return cmd_stop(cmd_finish_stdout(EXIT_OK));
}

int cmd_fsck(int argc, char **argv)
{
	struct axfs_fsck_opts fo;
	int json = 0, strict = 0, rc;
	const struct cmd_opt options[] = {
		{ CMD_FLAG(0, "deep", &fo.deep, 1, "inflate every cblock and "
			   "read every page (default)") },
		{ CMD_FLAG(0, "fast", &fo.deep, 0, "check the structure only, "
			   "not the file data") },
		{ CMD_FLAG(0, "no-digest", &fo.digest, 0,
			   "do not verify the SHA-1 digest") },
		{ CMD_FLAG(0, "strict", &strict, 1, "warnings (deviations from "
			   "the canonical layout\nthat the driver tolerates) "
			   "are errors too") },
		{ CMD_FLAG(0, "json", &json, 1,
			   "print one JSON document (see axfs-fsck(8))") },
		{ CMD_COUNT(0, "max-per-check", "N", &fo.per_check_limit, 0,
			    ~0ull, "print at most N findings of one check "
			    "(default\n1000, 0 = all); all are counted"),
		  .bad = "--max-per-check: '%s' is not a number" },
		{ CMD_CALLBACK(0, "list-checks", NULL, NULL, list_checks,
			       "print every check id, severity and summary") },
		/* fsck(8) passes these; there is nothing to repair */
		{ CMD_IGNORED('a', "accepted for fsck(8) compatibility; "
			      "fsck never repairs"),
		  .shown = "-a, -p, -n, -y, -r, -f" },
		{ CMD_IGNORED('p', NULL) },
		{ CMD_IGNORED('n', NULL) },
		{ CMD_IGNORED('y', NULL) },
		{ CMD_IGNORED('r', NULL) },
		{ CMD_IGNORED('f', NULL) },
		CMD_OPTS_IMAGE,
		CMD_OPTS_PROGRESS,
		CMD_OPTS_END("print nothing; the exit status says it all",
			     "say more (phases, counts)"),
	};
	struct axfs_fsck_result res;
	struct axfs_error err;
	struct out out = { 0 };
	char label[PATH_MAX + 32];
	const char *image, *store;
	struct cmd_step step;
	struct timespec t0, t1;

	axfs_fsck_opts_init(&fo);
	fo.per_check_limit = 1000;
	step = cmd_parse_options(argc, argv, options, &usage);
	if (step.stop)
		return step.exit_code;
	step = cmd_image_operands(argc, argv, 0, NULL, 1, &image, &store);
	if (step.stop)
		return step.exit_code;
	fo.max_memory = cmd_image.max_memory;

	out.image = image;
	out.json = json;
	out.quiet = cmd_verbosity == 0;
	out.group_notices = cmd_verbosity < 2;
	fo.report = on_finding;
	fo.report_ctx = &out;
	fo.progress = on_progress;
	fo.progress_ctx = &out;
	fo.log = &cmd_logger;

	if (json && !out.quiet) {
		fputs("{\n  \"version\": 1,\n  \"image\": ", stdout);
		json_cstr(stdout, image);
		fputs(",\n  \"store\": ", stdout);
		json_cstr(stdout, store);
		printf(",\n  \"deep\": %s,\n  \"findings\": [",
		       fo.deep ? "true" : "false");
	}
	snprintf(label, sizeof(label), "%s: checking file data", image);
	if (!json)
		cmd_progress_begin(label, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = axfs_fsck_file(image, store, &fo, &res, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cmd_progress_end();
	if (!json)
		print_notice_groups(&out);
	if (rc < 0) {
		if (json && !out.quiet)
			print_json_end(&out, NULL, err.msg, strict, 0);
		fflush(stdout);
		cmd_error("%s", err.msg);
		return cmd_finish_stdout(EXIT_OPERATIONAL);
	}
	/* The driver decides: only what it cannot read is an error. */
	rc = res.errors || (strict && res.warnings) ? EXIT_FSCK_UNCORRECTED :
	     EXIT_OK;
	if (out.quiet)
		return rc;
	if (json) {
		print_json_end(&out, &res, NULL, strict, rc);
		return cmd_finish_stdout(rc);
	}
	printf("%s: ", image);
	if (rc == EXIT_OK && !res.warnings) {
		fputs("clean, ", stdout);
	} else if (rc == EXIT_OK) {
		fputs("no errors, ", stdout);
		plural(res.warnings, "warning");
		fputs("; ", stdout);
	} else {
		plural(res.errors, "error");
		fputs(", ", stdout);
		plural(res.warnings, "warning");
		fputs("; ", stdout);
	}
	plural(res.inodes, "inode");
	fputs(", ", stdout);
	plural(res.nodes, "node");
	if (fo.deep) {
		fputs(", ", stdout);
		plural(res.cblocks, "cblock");
		fputs(" inflated", stdout);
	}
	printf(", digest %s\n", digest_name(res.digest));
	cmd_info("checked %llu bytes in %.3f s (%s)",
		 (unsigned long long)res.image_size,
		 (double)(t1.tv_sec - t0.tv_sec) +
		 (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
		 fo.deep ? "deep" : "fast");
	return cmd_finish_stdout(rc);
}
