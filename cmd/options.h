/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/options.h - a command's options as one table, in the spirit of
 * git's parse-options: each row says the short letter, the long name, the
 * value's name in --help, the help text, what kind of value it takes and
 * where it goes.  cmd_parse_options() builds getopt_long()'s optstring and
 * struct option[] from the table, parses the values with typed parsers
 * (sizes, counts, names, times), and prints --help with a column computed
 * from the rows.  The options every command shares are table fragments
 * (CMD_OPTS_PROGRESS, CMD_OPTS_END; CMD_OPTS_IMAGE in image_operands.h)
 * that each table includes.
 */
#ifndef CMD_OPTIONS_H
#define CMD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * What a step of a command returns: go on, or stop and make the command
 * exit with `exit_code` (after --help, --version or a bad command line).
 * A type of its own, so that the compiler tells "go on" from an exit code.
 */
struct cmd_step {
	bool stop;
	int exit_code;		/* when stop */
};
#define CMD_GO_ON	((struct cmd_step){ .stop = false })
static inline struct cmd_step cmd_stop(int exit_code)
{
	return (struct cmd_step){ .stop = true, .exit_code = exit_code };
}

enum cmd_opt_kind {
	CMD_KIND_END,		/* the last row */
	CMD_KIND_FLAG,		/* int target = value (NULL target: ignored) */
	CMD_KIND_BIT,		/* unsigned int target |= value */
	CMD_KIND_STRING,	/* const char *target = the value */
	CMD_KIND_LIST,		/* struct cmd_strings target += the value */
	CMD_KIND_SIZE,		/* uint64_t target = "64KiB"; min: the least */
	CMD_KIND_COUNT,		/* integer target = "12", min to max */
	CMD_KIND_ENUM,		/* integer target = the value of a name */
	CMD_KIND_TIME,		/* int64_t target = seconds or a UTC date */
	CMD_KIND_CALLBACK,	/* parse(opt, value) does it all */
	CMD_KIND_HELP,		/* prints --help from the table */
};

/* The names an enum option takes and the value each stands for. */
struct cmd_opt_name {
	const char *name;
	int value;
};

/* What a CMD_KIND_LIST option collects, in command-line order. */
struct cmd_strings {
	const char **v;
	size_t n;
};
void cmd_strings_free(struct cmd_strings *l);

struct cmd_opt;
typedef struct cmd_step cmd_opt_fn(const struct cmd_opt *opt,
				   const char *arg);

struct cmd_opt {
	enum cmd_opt_kind kind;
	int short_name;			/* 'o', or 0 */
	const char *long_name;		/* "output", or NULL */
	/* The value's name in --help ("IMAGE"; "=auto|yes|no" is shown
	 * glued to the long name); NULL: the option takes no value. */
	const char *argname;
	/* --help's text, lines split by '\n'; NULL: not shown. */
	const char *help;
	void *target;
	size_t size;			/* COUNT, ENUM: sizeof(*target) */
	long long value;		/* FLAG, BIT: what is stored */
	unsigned long long min, max;	/* COUNT; SIZE: min only */
	const struct cmd_opt_name *names; /* ENUM: ending in { NULL } */
	/* The error for a bad value, with "%s" where the value goes; NULL:
	 * "invalid --NAME: REASON" (SIZE), "invalid --NAME 'V': use MIN to
	 * MAX" (COUNT), "... use A, B or C" (ENUM), "... use seconds since
	 * 1970 or YYYY-MM-DD[THH:MM:SS] (UTC)" (TIME). */
	const char *bad;
	/* CALLBACK: parses the value; other kinds: checks what they stored. */
	cmd_opt_fn *parse;
	int *seen;			/* set to 1 when the option is given */
	const char *shown;		/* --help: these names instead */
};

/* Row makers, used inside braces so that a row can add fields:
 *   { CMD_SIZE(0, "pad", "SIZE", &o.pad, "..."), .min = 1 }
 * A target of the wrong type for its kind does not compile. */
#define CMD_ROW(k, s, l, a, t, h) \
	.kind = (k), .short_name = (s), .long_name = (l), .argname = (a), \
	.target = (t), .help = (h)
#define CMD_TYPED(t, type)	_Generic((t), type: (t))
#define CMD_FLAG(s, l, t, v, h) \
	CMD_ROW(CMD_KIND_FLAG, s, l, NULL, CMD_TYPED(t, int *), h), \
	.value = (v)
/* A letter accepted and ignored (fsck -a for fsck(8)). */
#define CMD_IGNORED(s, h) CMD_ROW(CMD_KIND_FLAG, s, NULL, NULL, NULL, h)
#define CMD_BIT(s, l, t, v, h) \
	CMD_ROW(CMD_KIND_BIT, s, l, NULL, CMD_TYPED(t, unsigned int *), h), \
	.value = (v)
#define CMD_STRING(s, l, a, t, h) \
	CMD_ROW(CMD_KIND_STRING, s, l, a, CMD_TYPED(t, const char **), h)
#define CMD_LIST(s, l, a, t, h) \
	CMD_ROW(CMD_KIND_LIST, s, l, a, CMD_TYPED(t, struct cmd_strings *), h)
#define CMD_SIZE(s, l, a, t, h) \
	CMD_ROW(CMD_KIND_SIZE, s, l, a, CMD_TYPED(t, uint64_t *), h)
#define CMD_COUNT(s, l, a, t, lo, hi, h) \
	CMD_ROW(CMD_KIND_COUNT, s, l, a, t, h), .size = sizeof(*(t)), \
	.min = (lo), .max = (hi)
#define CMD_ENUM(s, l, a, t, n, h) CMD_ROW(CMD_KIND_ENUM, s, l, a, t, h), \
	.size = sizeof(*(t)), .names = (n)
#define CMD_TIME(s, l, a, t, h) \
	CMD_ROW(CMD_KIND_TIME, s, l, a, CMD_TYPED(t, int64_t *), h)
#define CMD_CALLBACK(s, l, a, t, fn, h) \
	CMD_ROW(CMD_KIND_CALLBACK, s, l, a, t, h), .parse = (fn)

/* The usual texts of -q and -v, for CMD_OPTS_END. */
#define CMD_HELP_QUIET		"print errors only"
#define CMD_HELP_VERBOSE	"say more"

/* --progress and --no-progress, for the commands that draw a bar. */
#define CMD_OPTS_PROGRESS \
	{ CMD_FLAG(0, "progress", &cmd_progress_forced, 1, \
		   "show a progress bar even when stderr is no TTY") }, \
	{ CMD_FLAG(0, "no-progress", &cmd_progress_forced, 0, \
		   "never show a progress bar") }

/* -h, -V and the terminating row: the end of every table. */
#define CMD_OPTS_HELP_VERSION \
	{ CMD_ROW(CMD_KIND_HELP, 'h', "help", NULL, NULL, \
		  "show this help and exit") }, \
	{ CMD_CALLBACK('V', "version", NULL, NULL, cmd_opt_version, \
		       "show the version and exit") }, \
	{ .kind = CMD_KIND_END }

/* The end of a command's table: -q, -v (with what they do in this
 * command), then CMD_OPTS_HELP_VERSION. */
#define CMD_OPTS_END(quiet_help, verbose_help) \
	{ CMD_FLAG('q', "quiet", &cmd_verbosity, 0, quiet_help) }, \
	{ CMD_CALLBACK('v', "verbose", NULL, NULL, cmd_opt_verbose, \
		       verbose_help) }, \
	CMD_OPTS_HELP_VERSION

extern int cmd_verbosity;		/* common.h */
extern int cmd_progress_forced;		/* progress.h */
cmd_opt_fn cmd_opt_verbose;
cmd_opt_fn cmd_opt_version;

/* What --help prints around the option rows: `usage` (the synopsis and
 * the description, ending in an empty line) before, `tail` (NULL:
 * nothing) after. */
struct cmd_usage {
	const char *usage;
	const char *tail;
};

/*
 * Parses the options of argv (from argv[1], getopt_long's order: options
 * and operands may mix) per the table `opts`, storing each value where its
 * row says; the operands start at argv[optind] after.  Words alike in
 * every command: a missing value, an unknown option (with the nearest long
 * one), a bad value.  Stops after --help (printing `u` and the rows),
 * --version, or an error.
 */
struct cmd_step cmd_parse_options(int argc, char **argv,
				  const struct cmd_opt *opts,
				  const struct cmd_usage *u);

/* Where the operands may stand, for cmd_parse_options_in(). */
enum cmd_operands {
	/* getopt_long()'s default: anywhere (not after POSIXLY_CORRECT). */
	CMD_OPERANDS_MIXED,
	/* Options end at the first operand: `axfs [-hV] COMMAND ARGS...`,
	 * where ARGS belong to COMMAND. */
	CMD_OPERANDS_LAST,
	/* Anywhere, whatever POSIXLY_CORRECT says: mount(8) calls its
	 * helpers as `mount.TYPE SOURCE DIR -o OPTIONS`. */
	CMD_OPERANDS_ANYWHERE,
};
/* cmd_parse_options() with the operands' place chosen. */
struct cmd_step cmd_parse_options_in(int argc, char **argv,
				     const struct cmd_opt *opts,
				     const struct cmd_usage *u,
				     enum cmd_operands where);

/*
 * A comma-separated list of NAME or NAME=VALUE words, the value of an
 * option such as mount's -o, which getopt cannot split: each NAME is
 * looked up among the long names of the table `subopts` (a table like a
 * command's, with no short names), and its value parsed by that row's
 * kind as if it were --NAME=VALUE.  A name with no row goes to `other`
 * (NULL: an error).  `list` is cut at the commas in place; a STRING row
 * keeps a pointer into it.
 */
typedef struct cmd_step cmd_subopt_other_fn(void *ctx, const char *word);
struct cmd_step cmd_parse_suboptions(char *list, const struct cmd_opt *subopts,
				     cmd_subopt_other_fn *other, void *ctx);

/* Prints --help for the table (what -h does). */
int cmd_print_help(const struct cmd_opt *opts, const struct cmd_usage *u);
/* The same on `f` (stderr: the usage of a command line that is wrong). */
void cmd_fprint_help(FILE *f, const struct cmd_opt *opts,
		     const struct cmd_usage *u);

/* The typed parsers, for a CALLBACK that needs one: 0, or -1 when `s` is
 * not such a value. */
int cmd_parse_time(const char *s, int64_t *out);

/* The usage error for a bad value of `opt`: its `bad` with `arg` in
 * place of "%s" (or `fallback` when it has none); returns the step. */
struct cmd_step cmd_opt_bad_value(const struct cmd_opt *opt, const char *arg,
				  const char *fallback);

/* Adds `s` to a list: -1 when memory runs out. */
int cmd_strings_add(struct cmd_strings *l, const char *s);

#endif
