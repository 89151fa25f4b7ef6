// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/merge_profile.c - `axfs merge-profile`: combine the profile CSVs of
 * several runs or devices into one canonical profile.
 *
 * Each input is read and canonicalised on its own (duplicate lines in one
 * file are summed, as mkfs -p does), its counts are scaled by its weight,
 * and the inputs are then combined page by page with --mode sum or max.
 * --min-count and --top are applied last.  The output is the canonical
 * form (sorted by path, then offset), so the same inputs always give the
 * same bytes, whatever their order on the command line.
 *
 * Ordered inputs (/proc/axfs/volumeN.order): each input's ranks are
 * normalised to the page's position in its run, a page keeps its
 * earliest position over the inputs, and the output ranks are 1..N in
 * that order (ties: path, then offset) -- profile_order.h.  A ranked page
 * is kept even when --min-count or --top take its count (it is written
 * with count 0): its place in the boot order is still known.  The output
 * is the ordered form when any input has a rank.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "profile_order.h"
#include "axfs_format.h"
#include "axfs_profile.h"
#include "common.h"
#include "escape.h"
#include "json.h"
#include "options.h"
#include "outputs.h"
#include "signals.h"

static const struct cmd_usage usage = {
	"usage: axfs merge-profile [options] CSV...\n"
	"\n"
	"Combine profile CSVs (as the AXFS driver prints /proc/axfs/volumeN)\n"
	"into one canonical profile for axfs mkfs -p.  CSV '-' is standard input.\n"
	"\n",
	NULL,
};

static const struct cmd_opt_name modes[] = {
	{ "sum", AXFS_PROFILE_SUM },
	{ "max", AXFS_PROFILE_MAX },
	{ NULL, 0 },
};

/* A weight is kept as an exact fraction num / den (den a power of ten). */
struct weight {
	const char *file;
	uint64_t num, den;
	int used;
};

/* "2", "0.5", "1.25", ".5"; at most 9 decimals.  0 on success. */
static int parse_weight(const char *s, uint64_t *num, uint64_t *den)
{
	uint64_t n = 0, d = 1;
	int digits = 0, decimals = -1;

	for (; *s; s++) {
		if (*s == '.' && decimals < 0) {
			decimals = 0;
			continue;
		}
		if (*s < '0' || *s > '9')
			return -1;
		if (decimals >= 0) {
			if (++decimals > 9)
				return -1;
			d *= 10;
		}
		if (n > (UINT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*s - '0');
		digits++;
	}
	if (!digits)
		return -1;
	*num = n;
	*den = d;
	return 0;
}

/* Splits "FILE=W" or "FILE:W" at the last '=' or ':' (names may hold
 * either). */
static int parse_weight_arg(char *arg, struct weight *w)
{
	char *eq = strrchr(arg, '='), *colon = strrchr(arg, ':');
	char *sep = eq > colon ? eq : colon;

	if (!sep || sep == arg)
		return cmd_usage_error("--weight wants FILE=W or FILE:W, not '%s'",
				       arg);
	*sep = '\0';
	if (parse_weight(sep + 1, &w->num, &w->den) < 0)
		return cmd_usage_error("--weight '%s': '%s' is not a weight "
				       "(a non-negative decimal such as 2 or 0.5)",
				       arg, sep + 1);
	w->file = arg;
	w->used = 0;
	return 0;
}

/* The --weight options, in command-line order. */
struct weights {
	struct weight *v;
	size_t n;
};

static struct cmd_step add_weight(const struct cmd_opt *opt, const char *arg)
{
	struct weights *ws = opt->target;
	struct weight *nw = realloc(ws->v, (ws->n + 1) * sizeof(*nw));

	if (!nw) {
		cmd_error("out of memory");
		return cmd_stop(EXIT_OPERATIONAL);
	}
	ws->v = nw;
	/* optarg, a word of argv: ours to cut at the '='. */
	if (parse_weight_arg((char *)arg, &ws->v[ws->n]) != 0)
		return cmd_stop(EXIT_USAGE);
	for (size_t i = 0; i < ws->n; i++)
		if (!strcmp(ws->v[i].file, ws->v[ws->n].file))
			return cmd_stop(cmd_usage_error("--weight given twice "
							"for '%s'",
							ws->v[i].file));
	ws->n++;
	return CMD_GO_ON;
}

/* count * num / den, rounded half up; -1 if it does not fit in 64 bits. */
static int scale(uint64_t count, uint64_t num, uint64_t den, uint64_t *out)
{
	unsigned __int128 v = (unsigned __int128)count * num;

	v = (v + den / 2) / den;
	if (v > UINT64_MAX)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/* ---- --top ---------------------------------------------------------------- */

/* Hottest first; ties by path then offset (the array order). */
static const struct axfs_profile_entry *hot_base;

static int hotter(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	uint64_t ci = hot_base[i].count, cj = hot_base[j].count;

	if (ci != cj)
		return ci > cj ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* Keeps the `top` hottest entries, in canonical order; a ranked entry
 * outside them stays with count 0. */
static int keep_top(struct axfs_profile *p, uint64_t top)
{
	size_t *idx, out = 0;
	unsigned char *keep;

	if (top >= p->n)
		return 0;
	idx = malloc(p->n * sizeof(*idx));
	keep = calloc(p->n, 1);
	if (!idx || !keep) {
		free(idx);
		free(keep);
		return -1;
	}
	for (size_t i = 0; i < p->n; i++)
		idx[i] = i;
	hot_base = p->v;
	qsort(idx, p->n, sizeof(*idx), hotter);
	for (size_t i = 0; i < top; i++)
		keep[idx[i]] = 1;
	for (size_t i = 0; i < p->n; i++) {
		if (keep[i]) {
			p->v[out++] = p->v[i];
		} else if (p->v[i].first) {
			p->v[i].count = 0;
			p->v[out++] = p->v[i];
		} else {
			free(p->v[i].path);
		}
	}
	p->n = out;
	free(idx);
	free(keep);
	return 0;
}

/* ---- --stats --------------------------------------------------------------- */

struct file_stat {
	const char *path;
	uint64_t pages;
	unsigned __int128 faults;
};

static int hotter_file(const void *a, const void *b)
{
	const struct file_stat *x = a, *y = b;

	if (x->faults != y->faults)
		return x->faults > y->faults ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Decimal text of a 128-bit number (sums of 64-bit counts). */
static const char *u128_str(unsigned __int128 v, char buf[48])
{
	char *p = buf + 47;

	*p = '\0';
	do {
		*--p = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	return p;
}

/* --stats --json: the schema is in axfs-merge-profile(1). */
static void stats_json(const struct axfs_profile *p, size_t ninputs,
		       const struct file_stat *fs, size_t nfiles,
		       unsigned __int128 faults)
{
	char b1[48];

	printf("{\n  \"inputs\": %zu,\n  \"pages\": %zu,\n"
	       "  \"bytes\": %llu,\n  \"files\": %zu,\n"
	       "  \"faults\": %s,\n  \"hottest_files\": [",
	       ninputs, p->n, (unsigned long long)p->n * AXFS_PAGE_SIZE,
	       nfiles, u128_str(faults, b1));
	for (size_t i = 0; i < nfiles; i++) {
		printf("%s\n    {\"path\": ", i ? "," : "");
		json_cstr(stdout, fs[i].path);
		printf(", \"faults\": %s, \"pages\": %llu}",
		       u128_str(fs[i].faults, b1),
		       (unsigned long long)fs[i].pages);
	}
	fputs(nfiles ? "\n  ]\n}\n" : "]\n}\n", stdout);
}

static int print_stats(const struct axfs_profile *p, size_t ninputs, int json)
{
	struct file_stat *fs = NULL;
	size_t nfiles = 0;
	unsigned __int128 faults = 0;
	char b1[48];

	/* canonical order: one file's pages are consecutive */
	if (p->n && !(fs = malloc(p->n * sizeof(*fs))))
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		if (!nfiles || strcmp(fs[nfiles - 1].path, p->v[i].path)) {
			fs[nfiles].path = p->v[i].path;
			fs[nfiles].pages = 0;
			fs[nfiles].faults = 0;
			nfiles++;
		}
		fs[nfiles - 1].pages++;
		fs[nfiles - 1].faults += p->v[i].count;
		faults += p->v[i].count;
	}
	if (nfiles)
		qsort(fs, nfiles, sizeof(*fs), hotter_file);
	if (json) {
		stats_json(p, ninputs, fs, nfiles, faults);
		free(fs);
		return 0;
	}
	fprintf(stderr, "inputs: %zu\n", ninputs);
	fprintf(stderr, "pages: %zu (%llu KiB)\n", p->n,
		(unsigned long long)p->n * (AXFS_PAGE_SIZE / 1024));
	fprintf(stderr, "files: %zu\n", nfiles);
	fprintf(stderr, "faults: %s\n", u128_str(faults, b1));
	if (nfiles) {
		fprintf(stderr, "hottest files:\n");
		fprintf(stderr, "%20s %10s  %s\n", "faults", "pages", "path");
		for (size_t i = 0; i < nfiles && i < 10; i++)
			fprintf(stderr, "%20s %10llu  %s\n",
				u128_str(fs[i].faults, b1),
				(unsigned long long)fs[i].pages,
				cmd_esc(fs[i].path));
	}
	free(fs);
	return 0;
}

/* ---- output ---------------------------------------------------------------- */

/*
 * Writes to a temporary file beside OUT and renames it over OUT only when
 * everything is written and synced (outfile_*), so a failed merge
 * never leaves a truncated profile behind.
 */
static int write_output(const struct axfs_profile *p, const char *out)
{
	struct outfile of;
	struct axfs_error err;
	FILE *f;
	int fd;

	if (!out || strcmp(out, "-") == 0) {
		if (axfs_profile_write(p, stdout, &err) < 0) {
			cmd_error("%s", err.msg);
			return -1;
		}
		return 0;
	}
	cmd_remove_output_on_signal();
	if (outfile_open(&of, out, &err) < 0) {
		cmd_error("%s", err.msg);
		return -1;
	}
	/* stdio on a duplicate: the outfile keeps its own descriptor */
	fd = dup(of.fd);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		cmd_error("cannot write '%s': %s", out, strerror(errno));
		if (fd >= 0)
			close(fd);
		outfile_abort(&of);
		return -1;
	}
	if (axfs_profile_write(p, f, &err) < 0 || fflush(f) != 0) {
		cmd_error("cannot write '%s': %s", out,
			  strerror(err.sys_errno ? err.sys_errno : errno));
		fclose(f);
		outfile_abort(&of);
		return -1;
	}
	if (fclose(f) != 0) {
		cmd_error("cannot write '%s': %s", out, strerror(errno));
		outfile_abort(&of);
		return -1;
	}
	if (outfile_commit(&of, &err) < 0) {
		cmd_error("%s", err.msg);
		return -1;
	}
	return 0;
}

/* ---- the command ------------------------------------------------------------- */

enum { OPT_MIN_COUNT = 256, OPT_TOP, OPT_JSON };

int cmd_merge_profile(int argc, char **argv)
{
	enum axfs_profile_combine how = AXFS_PROFILE_SUM;
	const char *output = NULL;
	struct weights weights = { 0 };
	size_t nstdin = 0;
	unsigned long long min_count = 0, top = 0;
	int has_top = 0, stats = 0, json = 0, rc = EXIT_OPERATIONAL;
	const struct cmd_opt options[] = {
		{ CMD_STRING('o', "output", "FILE", &output, "write here "
			     "(atomically) instead of standard output") },
		{ CMD_ENUM('m', "mode", "sum|max", &how, modes, "combine the "
			   "inputs' counts of a page by adding\nthem (default) "
			   "or keeping the largest"),
		  .bad = "--mode wants 'sum' or 'max', not '%s'" },
		{ CMD_CALLBACK('w', "weight", "FILE=W", &weights, add_weight,
			       "multiply the counts of input FILE by W (a "
			       "decimal\nsuch as 2 or 0.5; FILE:W works too); "
			       "repeatable") },
		{ CMD_COUNT(0, "min-count", "N", &min_count, 0, UINT64_MAX,
			    "drop pages whose combined count is below N"),
		  .bad = "--min-count wants a non-negative integer, not '%s'" },
		{ CMD_COUNT(0, "top", "N", &top, 0, SIZE_MAX,
			    "keep only the N hottest pages"),
		  .bad = "--top wants a non-negative integer, not '%s'",
		  .seen = &has_top },
		{ CMD_FLAG('s', "stats", &stats, 1, "print pages, files and "
			   "the hottest files to\nstandard error") },
		/* The statistics, as JSON: --stats too. */
		{ CMD_FLAG(0, "json", &json, 1, "print the statistics as one "
			   "JSON document on\nstandard output instead (needs "
			   "-o FILE; see\naxfs-merge-profile(1))"),
		  .seen = &stats },
		CMD_OPTS_END(CMD_HELP_QUIET, "say what is read"),
	};
	struct axfs_profile all, one;
	struct axfs_error err;
	struct cmd_step step;

	axfs_profile_init(&all, &cmd_logger);
	axfs_profile_init(&one, &cmd_logger);
	step = cmd_parse_options(argc, argv, options, &usage);
	if (step.stop) {
		rc = step.exit_code;
		goto done;
	}
	if (optind >= argc) {
		rc = cmd_usage_error("no profile CSV given");
		goto done;
	}
	/* The JSON and the profile would share standard output. */
	if (json && (!output || !strcmp(output, "-"))) {
		rc = cmd_usage_error("--json prints on standard output: write the "
				     "profile elsewhere with -o FILE");
		goto done;
	}
	for (int i = optind; i < argc; i++)
		nstdin += strcmp(argv[i], "-") == 0;
	if (output && strcmp(output, "-") != 0) {
		struct cmd_file out = { output, "-o", 0 };
		struct cmd_file *in = calloc((size_t)(argc - optind),
					     sizeof(*in));

		if (!in) {
			cmd_error("out of memory");
			goto done;
		}
		for (int i = optind; i < argc; i++)
			in[i - optind] = (struct cmd_file){ argv[i], "CSV", 0 };
		rc = cmd_check_outputs(in, (size_t)(argc - optind), &out, 1);
		free(in);
		if (rc != 0)
			goto done;
		rc = EXIT_OPERATIONAL;
	}
	if (nstdin > 1) {
		rc = cmd_usage_error("standard input ('-') can be read only once");
		goto done;
	}
	for (size_t w = 0; w < weights.n; w++) {
		for (int i = optind; i < argc; i++)
			if (!strcmp(argv[i], weights.v[w].file))
				weights.v[w].used = 1;
		if (!weights.v[w].used) {
			rc = cmd_usage_error("--weight names '%s', which is not an input",
					     weights.v[w].file);
			goto done;
		}
	}

	for (int i = optind; i < argc; i++) {
		uint64_t num = 1, den = 1;

		for (size_t w = 0; w < weights.n; w++) {
			if (!strcmp(argv[i], weights.v[w].file)) {
				num = weights.v[w].num;
				den = weights.v[w].den;
			}
		}
		if (axfs_profile_read(&one, argv[i], &err) < 0 ||
		    axfs_profile_canonicalize(&one, &err) < 0 ||
		    profile_order_normalise(&one, &err) < 0) {
			cmd_error("%s", err.msg);
			goto done;
		}
		cmd_info("read %zu pages from '%s'", one.n, argv[i]);
		if (one.n == 0)
			cmd_warn("'%s' holds no profile entries", argv[i]);
		for (size_t k = 0; k < one.n; k++) {
			struct axfs_profile_entry *e = &one.v[k];

			if (scale(e->count, num, den, &e->count) < 0) {
				cmd_error("%s:%zu: the count of page %llu of '%s' times its weight does not fit in 64 bits",
					  e->file, e->line,
					  (unsigned long long)e->offset, e->path);
				goto done;
			}
		}
		if (profile_move_entries(&all, &one) < 0) {
			cmd_error("out of memory");
			goto done;
		}
	}
	if (axfs_profile_canonicalize_combine(&all, how, &err) < 0) {
		cmd_error("%s", err.msg);
		goto done;
	}
	/* a page nobody faulted (or weighted down to 0) is not a hot page;
	 * a ranked one keeps its place in the order with count 0 */
	{
		size_t out = 0;

		for (size_t k = 0; k < all.n; k++) {
			struct axfs_profile_entry *e = &all.v[k];

			if (e->count < min_count)
				e->count = 0;
			if (e->count == 0 && !e->first)
				free(e->path);
			else
				all.v[out++] = *e;
		}
		all.n = out;
	}
	if (has_top && keep_top(&all, top) < 0) {
		cmd_error("out of memory");
		goto done;
	}
	if (profile_order_renumber(&all, &err) < 0) {
		cmd_error("%s", err.msg);
		goto done;
	}
	if (write_output(&all, output) < 0)
		goto done;
	if (stats && print_stats(&all, (size_t)(argc - optind), json) < 0) {
		cmd_error("out of memory");
		goto done;
	}
	rc = EXIT_OK;
	cmd_info("wrote %zu pages to '%s'", all.n,
		 output && strcmp(output, "-") ? output : "standard output");
done:
	axfs_profile_free(&one);
	axfs_profile_free(&all);
	free(weights.v);
	return cmd_finish_stdout(rc);
}
