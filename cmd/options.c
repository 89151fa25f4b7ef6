// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/options.c - getopt_long() and --help from a command's option table */
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axfs_policy.h"
#include "suggest.h"
#include "common.h"

/* getopt_long()'s value of a long option: its row's index past every
 * short letter. */
#define LONG_BASE	0x100

/* Names wider than this go on a line of their own in --help, their text
 * under the others', so that one long name does not push every text right. */
#define HELP_NAMES_MAX	24

void cmd_strings_free(struct cmd_strings *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int cmd_strings_add(struct cmd_strings *l, const char *s)
{
	const char **nv = realloc(l->v, (l->n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	nv[l->n++] = s;
	l->v = nv;
	return 0;
}

struct cmd_step cmd_opt_verbose(const struct cmd_opt *opt, const char *arg)
{
	/* -v after -q: the last one wins, as in most tools. */
	cmd_verbosity = cmd_verbosity < 1 ? 2 : cmd_verbosity + 1;
	return CMD_GO_ON;
}

struct cmd_step cmd_opt_version(const struct cmd_opt *opt, const char *arg)
{
	return cmd_stop(cmd_print_version());
}

struct cmd_step cmd_opt_bad_value(const struct cmd_opt *opt, const char *arg,
				  const char *fallback)
{
	const char *bad = opt->bad, *at;

	if (!bad)
		cmd_usage_error("%s", fallback);
	else if ((at = strstr(bad, "%s")) != NULL)
		cmd_usage_error("%.*s%s%s", (int)(at - bad), bad, arg, at + 2);
	else
		cmd_usage_error("%s", bad);
	return cmd_stop(EXIT_USAGE);
}

/* Seconds since 1970 ("1700000000", "@1700000000") or a UTC date. */
int cmd_parse_time(const char *s, int64_t *out)
{
	static const char *const fmts[] = {
		"%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S",
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%d",
	};
	unsigned long long v;
	struct tm tm;

	if (*s == '@')
		s++;
	if (cmd_parse_uint(s, (unsigned long long)INT64_MAX, &v) == 0) {
		*out = (int64_t)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(fmts) / sizeof(*fmts); i++) {
		const char *end;
		time_t t;

		memset(&tm, 0, sizeof(tm));
		end = strptime(s, fmts[i], &tm);
		if (!end || *end)
			continue;
		t = timegm(&tm);
		if (t < 0)
			return -1;
		*out = (int64_t)t;
		return 0;
	}
	return -1;
}

/* An integer of `size` bytes at `target` (int, int64_t, size_t...): the
 * value is within the row's range, which the target's type holds. */
static void store_int(void *target, size_t size, long long v)
{
	int8_t i8 = (int8_t)v;
	int16_t i16 = (int16_t)v;
	int32_t i32 = (int32_t)v;
	int64_t i64 = (int64_t)v;

	switch (size) {
	case sizeof(i8):
		memcpy(target, &i8, size);
		break;
	case sizeof(i16):
		memcpy(target, &i16, size);
		break;
	case sizeof(i32):
		memcpy(target, &i32, size);
		break;
	default:
		memcpy(target, &i64, sizeof(i64));
		break;
	}
}

/* "--level", or "-l" for a row without a long name: for messages. */
static const char *opt_name(const struct cmd_opt *opt, char *buf, size_t len)
{
	if (opt->long_name)
		snprintf(buf, len, "--%s", opt->long_name);
	else
		snprintf(buf, len, "-%c", opt->short_name);
	return buf;
}

/* "invalid --compress-metadata 'x': use auto, yes or no" */
static struct cmd_step bad_name(const struct cmd_opt *opt, const char *arg)
{
	char list[256] = "", name[80];
	size_t n = 0, len = 0;

	while (opt->names[n].name)
		n++;
	for (size_t i = 0; i < n && len < sizeof(list); i++) {
		const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";

		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					sep, opt->names[i].name);
	}
	if (opt->bad)
		return cmd_opt_bad_value(opt, arg, NULL);
	cmd_usage_error("invalid %s '%s': use %s",
			opt_name(opt, name, sizeof(name)), arg, list);
	return cmd_stop(EXIT_USAGE);
}

/* SIZE: "64KiB", at least the row's min. */
static struct cmd_step take_size(const struct cmd_opt *opt, const char *arg)
{
	char why[256], msg[512], name[80];
	uint64_t size;

	if (axfs_parse_size(arg, &size, why, sizeof(why)) < 0) {
		snprintf(msg, sizeof(msg), "invalid %s: %s",
			 opt_name(opt, name, sizeof(name)), why);
		return cmd_opt_bad_value(opt, arg, msg);
	}
	if (size < opt->min) {
		snprintf(msg, sizeof(msg), "invalid %s: not a positive size",
			 opt_name(opt, name, sizeof(name)));
		return cmd_opt_bad_value(opt, arg, msg);
	}
	*(uint64_t *)opt->target = size;
	return CMD_GO_ON;
}

/* COUNT: decimal digits only, from the row's min to its max. */
static struct cmd_step take_count(const struct cmd_opt *opt, const char *arg)
{
	char msg[512], name[80];
	unsigned long long n;

	if (cmd_parse_uint(arg, opt->max, &n) < 0 || n < opt->min) {
		snprintf(msg, sizeof(msg), "invalid %s '%s': use %llu to %llu",
			 opt_name(opt, name, sizeof(name)), arg, opt->min,
			 opt->max);
		return cmd_opt_bad_value(opt, arg, msg);
	}
	store_int(opt->target, opt->size, (long long)n);
	return CMD_GO_ON;
}

/* ENUM: one of the row's names, exactly. */
static struct cmd_step take_enum(const struct cmd_opt *opt, const char *arg)
{
	for (size_t i = 0; opt->names[i].name; i++) {
		if (strcmp(arg, opt->names[i].name) == 0) {
			store_int(opt->target, opt->size, opt->names[i].value);
			return CMD_GO_ON;
		}
	}
	return bad_name(opt, arg);
}

/* TIME: seconds since 1970 or a UTC date. */
static struct cmd_step take_time(const struct cmd_opt *opt, const char *arg)
{
	char msg[512], name[80];

	if (cmd_parse_time(arg, opt->target) == 0)
		return CMD_GO_ON;
	snprintf(msg, sizeof(msg), "invalid %s '%s': use seconds since 1970 "
		 "or YYYY-MM-DD[THH:MM:SS] (UTC)",
		 opt_name(opt, name, sizeof(name)), arg);
	return cmd_opt_bad_value(opt, arg, msg);
}

/* The kinds whose value is parsed and checked before it is stored. */
static struct cmd_step (*const parsers[])(const struct cmd_opt *,
					  const char *) = {
	[CMD_KIND_SIZE] = take_size,
	[CMD_KIND_COUNT] = take_count,
	[CMD_KIND_ENUM] = take_enum,
	[CMD_KIND_TIME] = take_time,
};

/* The value of one option, stored where its row says, then the row's
 * check of it. */
static struct cmd_step take_value(const struct cmd_opt *opt, const char *arg)
{
	struct cmd_step step = CMD_GO_ON;

	switch (opt->kind) {
	case CMD_KIND_FLAG:
		if (opt->target)
			*(int *)opt->target = (int)opt->value;
		break;
	case CMD_KIND_BIT:
		*(unsigned int *)opt->target |= (unsigned int)opt->value;
		break;
	case CMD_KIND_STRING:
		*(const char **)opt->target = arg;
		break;
	case CMD_KIND_LIST:
		if (cmd_strings_add(opt->target, arg) < 0) {
			cmd_error("out of memory");
			return cmd_stop(EXIT_OPERATIONAL);
		}
		break;
	case CMD_KIND_SIZE:
	case CMD_KIND_COUNT:
	case CMD_KIND_ENUM:
	case CMD_KIND_TIME:
		step = parsers[opt->kind](opt, arg);
		break;
	case CMD_KIND_CALLBACK:
		return opt->parse(opt, arg);
	case CMD_KIND_HELP:
	case CMD_KIND_END:
		break;
	}
	if (!step.stop && opt->parse)
		return opt->parse(opt, arg);
	return step;
}

/* "unrecognized option '--xip-budgte'; did you mean '--xip-budget'?": the
 * nearest long option of the command, as for policy keys. */
static int unknown_long_option(const char *arg, const struct option *longopts)
{
	const char **names;
	const char *best = NULL;
	char word[64];
	size_t n = 0, len;

	len = strcspn(arg + 2, "=");
	if (strncmp(arg, "--", 2) != 0 || len >= sizeof(word))
		return cmd_usage_error("unrecognized option '%s'", arg);
	memcpy(word, arg + 2, len);
	word[len] = '\0';
	while (longopts[n].name)
		n++;
	names = calloc(n + 1, sizeof(*names));
	if (names) {
		for (size_t i = 0; i < n; i++)
			names[i] = longopts[i].name;
		best = suggest_word(word, names);
	}
	if (best) {
		char sugg[80];

		snprintf(sugg, sizeof(sugg), "%s", best);
		free(names);
		return cmd_usage_error("unrecognized option '%s'; did you mean "
				       "'--%s'?", arg, sugg);
	}
	free(names);
	return cmd_usage_error("unrecognized option '%s'", arg);
}

/* getopt_long()'s arrays for a table. */
struct getopt_arrays {
	struct option *longopts;
	char *optstring;
};

static int build_arrays(const struct cmd_opt *opts, struct getopt_arrays *a,
			enum cmd_operands where)
{
	size_t n = 0, nlong = 0, len = 0;

	while (opts[n].kind != CMD_KIND_END)
		n++;
	a->longopts = calloc(n + 1, sizeof(*a->longopts));
	/* '+' (stop at the first operand) or '-' (hand each operand back as
	 * option 1), then ':' (missing values reported as ':'), then "x:"
	 * per row. */
	a->optstring = malloc(2 * n + 3);
	if (!a->longopts || !a->optstring)
		return -1;
	if (where == CMD_OPERANDS_LAST)
		a->optstring[len++] = '+';
	else if (where == CMD_OPERANDS_ANYWHERE)
		a->optstring[len++] = '-';
	a->optstring[len++] = ':';
	for (size_t i = 0; i < n; i++) {
		int has_arg = opts[i].argname ? required_argument : no_argument;

		if (opts[i].long_name)
			a->longopts[nlong++] = (struct option){
				opts[i].long_name, has_arg, NULL,
				LONG_BASE + (int)i };
		if (opts[i].short_name) {
			a->optstring[len++] = (char)opts[i].short_name;
			if (has_arg)
				a->optstring[len++] = ':';
		}
	}
	a->optstring[len] = '\0';
	return 0;
}

static const struct cmd_opt *row_of(const struct cmd_opt *opts, int c)
{
	if (c >= LONG_BASE)
		return &opts[c - LONG_BASE];
	for (; opts->kind != CMD_KIND_END; opts++)
		if (opts->short_name == c)
			return opts;
	return NULL;
}

/* CMD_OPERANDS_ANYWHERE: the `n` operands getopt handed back one by one
 * go, in their order, before those it left after "--", so that the caller
 * finds them all from optind on.  Each took a word of argv before optind,
 * so they fit there. */
static void operands_last(char **argv, char **ops, int n)
{
	optind -= n;
	memcpy(argv + optind, ops, (size_t)n * sizeof(*argv));
}

static struct cmd_step parse_with(int argc, char **argv,
				  const struct cmd_opt *opts,
				  const struct cmd_usage *u,
				  const struct getopt_arrays *a, char **ops)
{
	const struct cmd_opt *opt;
	struct cmd_step step;
	int c, nops = 0;

	/* 0, not 1: getopt starts afresh and reads the optstring's '+' or
	 * '-' again (axfs parses its own options, then the command's). */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, a->optstring, a->longopts,
				NULL)) != -1) {
		if (c == 1) {		/* an operand (CMD_OPERANDS_ANYWHERE) */
			ops[nops++] = optarg;
			continue;
		}
		if (c == ':')
			return cmd_stop(cmd_usage_error("option '%s' needs a "
							"value",
							argv[optind - 1]));
		if (c == '?') {
			/* getopt sets optopt for a short option it does not
			 * know; for a long one it leaves 0 and the word is in
			 * argv. */
			if (optopt > 0 && optopt < 256)
				return cmd_stop(cmd_usage_error(
					"invalid option -- '%c'", optopt));
			return cmd_stop(unknown_long_option(argv[optind - 1],
							    a->longopts));
		}
		opt = row_of(opts, c);
		if (!opt)
			return cmd_stop(cmd_usage_error("internal error: "
							"option %d", c));
		if (opt->seen)
			*opt->seen = 1;
		if (opt->kind == CMD_KIND_HELP)
			return cmd_stop(cmd_print_help(opts, u));
		step = take_value(opt, optarg);
		if (step.stop)
			return step;
	}
	if (nops)
		operands_last(argv, ops, nops);
	return CMD_GO_ON;
}

struct cmd_step cmd_parse_options_in(int argc, char **argv,
				     const struct cmd_opt *opts,
				     const struct cmd_usage *u,
				     enum cmd_operands where)
{
	struct getopt_arrays a = { NULL, NULL };
	struct cmd_step step = cmd_stop(EXIT_OPERATIONAL);
	/* Where getopt's '-' hands the operands back, one by one. */
	char **ops = calloc((size_t)argc + 1, sizeof(*ops));

	if (ops && build_arrays(opts, &a, where) == 0)
		step = parse_with(argc, argv, opts, u, &a, ops);
	else
		cmd_error("out of memory");
	free(a.longopts);
	free(a.optstring);
	free(ops);
	return step;
}

struct cmd_step cmd_parse_options(int argc, char **argv,
				  const struct cmd_opt *opts,
				  const struct cmd_usage *u)
{
	return cmd_parse_options_in(argc, argv, opts, u, CMD_OPERANDS_MIXED);
}

/* ---- lists of sub-options (mount -o a,b=c) ------------------------------ */

/*
 * getopt cannot take a list apart, so a list is parsed here, word by word,
 * with the same rows and the same typed parsers as the command line: the
 * kinds, the ranges and the messages of a bad value are declared once.
 */
struct cmd_step cmd_parse_suboptions(char *list, const struct cmd_opt *subopts,
				     cmd_subopt_other_fn *other, void *ctx)
{
	char *save = NULL;

	for (char *w = strtok_r(list, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(w, '=');
		size_t len = eq ? (size_t)(eq - w) : strlen(w);
		const struct cmd_opt *opt = subopts;
		struct cmd_step step;

		while (opt->kind != CMD_KIND_END &&
		       (!opt->long_name || strlen(opt->long_name) != len ||
			strncmp(opt->long_name, w, len) != 0))
			opt++;
		if (opt->kind == CMD_KIND_END) {
			if (!other)
				return cmd_stop(cmd_usage_error(
					"unknown option '%s'", w));
			step = other(ctx, w);
		} else if (opt->argname && !eq) {
			return cmd_stop(cmd_usage_error(
				"option '%s' needs a value: %s=%s", w, w,
				opt->argname));
		} else if (!opt->argname && eq) {
			return cmd_stop(cmd_usage_error(
				"option '%.*s' takes no value", (int)len, w));
		} else {
			if (opt->seen)
				*opt->seen = 1;
			step = take_value(opt, eq ? eq + 1 : NULL);
		}
		if (step.stop)
			return step;
	}
	return CMD_GO_ON;
}

/* "-o, --output IMAGE", "    --pad SIZE", "-s", "    --x=a|b" */
static void row_names(const struct cmd_opt *opt, char *buf, size_t len)
{
	const char *a = opt->argname;
	int n;

	if (opt->shown) {
		snprintf(buf, len, "%s", opt->shown);
		return;
	}
	n = snprintf(buf, len, "%c%c", opt->short_name ? '-' : ' ',
		     opt->short_name ? opt->short_name : ' ');
	if (opt->long_name)
		n += snprintf(buf + n, len - (size_t)n, "%s--%s",
			      opt->short_name ? ", " : "  ", opt->long_name);
	if (a)
		snprintf(buf + n, len - (size_t)n, "%s%s", *a == '=' ? "" : " ",
			 a);
}

/* Where the texts start: after the widest names that are not too wide. */
static int help_column(const struct cmd_opt *opts)
{
	char names[128];
	size_t widest = 0, w;

	for (; opts->kind != CMD_KIND_END; opts++) {
		if (!opts->help)
			continue;
		row_names(opts, names, sizeof(names));
		w = strlen(names);
		if (w <= HELP_NAMES_MAX && w > widest)
			widest = w;
	}
	return 2 + (int)widest + 2;
}

static void help_row(FILE *f, const struct cmd_opt *opt, int column)
{
	char names[128];
	const char *line = opt->help, *nl;
	int w;

	row_names(opt, names, sizeof(names));
	w = (int)strlen(names);
	if (2 + w + 2 > column)
		fprintf(f, "  %s\n%*s", names, column, "");
	else
		fprintf(f, "  %-*s", column - 2, names);
	for (;;) {
		nl = strchr(line, '\n');
		if (!nl) {
			fprintf(f, "%s\n", line);
			break;
		}
		fprintf(f, "%.*s\n%*s", (int)(nl - line), line, column, "");
		line = nl + 1;
	}
}

void cmd_fprint_help(FILE *f, const struct cmd_opt *opts,
		     const struct cmd_usage *u)
{
	int column = help_column(opts);

	fputs(u->usage, f);
	for (; opts->kind != CMD_KIND_END; opts++)
		if (opts->help)
			help_row(f, opts, column);
	if (u->tail)
		fputs(u->tail, f);
}

int cmd_print_help(const struct cmd_opt *opts, const struct cmd_usage *u)
{
	cmd_fprint_help(stdout, opts, u);
	return cmd_finish_stdout(EXIT_OK);
}
