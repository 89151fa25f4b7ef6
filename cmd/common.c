// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/common.c - messages, exit codes and stdout checks for subcommands */
#include "common.h"
#include "build_version.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "axfs_compressor.h"
#include "escape.h"
#include "progress.h"

const char *cmd_name = "axfs";
int cmd_verbosity = 1;

int cmd_color_enabled(FILE *f)
{
	static int known[2], yes[2];
	int i = f == stderr;
	const char *nc, *term;

	if (f != stdout && f != stderr)
		return 0;
	if (!known[i]) {
		nc = getenv("NO_COLOR");
		term = getenv("TERM");
		yes[i] = !(nc && *nc) && term && *term &&
			 strcmp(term, "dumb") != 0 && isatty(fileno(f));
		known[i] = 1;
	}
	return yes[i];
}

const char *cmd_color(FILE *f, const char *sgr)
{
	return cmd_color_enabled(f) ? sgr : "";
}

/* "axfs mkfs: text": on a terminal an error's "axfs mkfs:" is red and a
 * warning's "warning:" yellow, so they stand out among other output.  A
 * progress bar is erased first, not to be left mixed into the line. */
static void msg_prefix(enum cmd_msg_kind kind)
{
	cmd_progress_clear();
	fflush(stdout);
	if (kind == CMD_MSG_ERROR)
		fprintf(stderr, "%s%s:%s ", cmd_color(stderr, CMD_RED), cmd_name,
			cmd_color(stderr, CMD_RESET));
	else if (kind == CMD_MSG_WARNING)
		fprintf(stderr, "%s: %swarning:%s ", cmd_name,
			cmd_color(stderr, CMD_YELLOW),
			cmd_color(stderr, CMD_RESET));
	else
		fprintf(stderr, "%s: ", cmd_name);
}

/*
 * The text of every message is escaped (escape.h) as a whole: it may
 * quote names from a hostile image, archive or library message, and no
 * newline or escape sequence in them may reach the terminal or forge a
 * line.  Callers pass names as they are.
 */
static void vmsg(enum cmd_msg_kind kind, const char *fmt, va_list ap)
{
	char small[1024], *text = small;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n >= (int)sizeof(small)) {
		text = malloc((size_t)n + 1);
		if (text)
			vsnprintf(text, (size_t)n + 1, fmt, ap);
		else
			text = small;	/* shown cut */
	}
	msg_prefix(kind);
	cmd_put_escaped(stderr, n < 0 ? fmt : text);
	fputc('\n', stderr);
	if (text != small)
		free(text);
}

void cmd_msg(enum cmd_msg_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (cmd_verbosity < (int)kind)
		return;
	va_start(ap, fmt);
	vmsg(kind, fmt, ap);
	va_end(ap);
}

int cmd_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(CMD_MSG_ERROR, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", cmd_name);
	return EXIT_USAGE;
}

void *cmd_grow(void *v, size_t n, size_t *cap, size_t size, size_t first)
{
	size_t ncap = *cap ? *cap * 2 : first;
	void *p;

	if (n < *cap)
		return v;
	if (ncap < *cap || ncap > SIZE_MAX / size)
		return NULL;
	p = realloc(v, ncap * size);
	if (p)
		*cap = ncap;
	return p;
}

int cmd_print_version(void)
{
	printf("%s (axfs-tools) %s\n", cmd_name, AXFS_VERSION);
	/* They decide the exact bytes mkfs writes (see axfs-mkfs(1),
	 * "Reproducible images"). */
	printf("compressors: %s %s (default), %s %s\n",
	       axfs_compressor_name(AXFS_COMPRESSOR_LIBDEFLATE),
	       axfs_compressor_version(AXFS_COMPRESSOR_LIBDEFLATE),
	       axfs_compressor_name(AXFS_COMPRESSOR_ZLIB),
	       axfs_compressor_version(AXFS_COMPRESSOR_ZLIB));
	return cmd_finish_stdout(EXIT_OK);
}

int cmd_finish_stdout(int rc)
{
	int bad = ferror(stdout);

	if (fflush(stdout) != 0 || bad) {
		int e = errno;

		/* A reader that went away is not worth a message. */
		if (e != EPIPE) {
			msg_prefix(CMD_MSG_ERROR);
			fprintf(stderr, "error writing to standard output: %s\n",
				strerror(e ? e : EIO));
		}
		return EXIT_OPERATIONAL;
	}
	return rc;
}

static void logger_fn(void *ctx, enum axfs_log_level level, const char *msg)
{
	(void)ctx;
	if (level <= AXFS_LOG_WARN) {
		if (cmd_verbosity >= 1 || level == AXFS_LOG_ALERT) {
			msg_prefix(CMD_MSG_WARNING);
			cmd_put_escaped(stderr, msg);
			fputc('\n', stderr);
		}
	} else if ((int)level + 1 <= cmd_verbosity) {
		msg_prefix(CMD_MSG_INFO);
		cmd_put_escaped(stderr, msg);
		fputc('\n', stderr);
	}
}

const struct axfs_logger cmd_logger = { logger_fn, NULL };

int cmd_parse_uint(const char *s, unsigned long long max,
		   unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}
