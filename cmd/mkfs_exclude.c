// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/mkfs_exclude.c - mkfs --exclude GLOB and --exclude-from FILE: the
 * globs checked on the command line, each with where it comes from for the
 * library's messages ("--exclude", "list.txt:3").
 */
#include "mkfs_exclude.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "glob_match.h"
#include "common.h"

static int append(const char ***v, size_t *n, const char *s)
{
	const char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -1;
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

void excludes_free(struct excludes *x)
{
	for (size_t i = 0; i < x->nowned; i++)
		free(x->owned[i]);
	free(x->owned);
	free(x->glob);
	free(x->where);
	free(x->files);
}

static int own(struct excludes *x, char *s)
{
	char **nv;

	if (!s)
		return -1;
	nv = realloc(x->owned, (x->nowned + 1) * sizeof(*nv));
	if (!nv) {
		free(s);
		return -1;
	}
	nv[x->nowned++] = s;
	x->owned = nv;
	return 0;
}

/* A glob past GLOB_MAX_LEN, or one too many: said without the glob,
 * which may be megabytes long. */
static int over_limit(const struct excludes *x, const char *glob,
		      const char *where, int from_file)
{
	char why[128];
	size_t len = strlen(glob);

	if (len > GLOB_MAX_LEN)
		snprintf(why, sizeof(why), "a glob of %zu bytes: no image "
			 "path is longer than %d", len, GLOB_MAX_LEN);
	else if (x->n >= GLOB_MAX_COUNT)
		snprintf(why, sizeof(why), "more than %d --exclude globs",
			 GLOB_MAX_COUNT);
	else
		return 0;
	if (from_file) {
		cmd_error("%s: %s", where, why);
		return EXIT_OPERATIONAL;
	}
	return cmd_usage_error("--exclude: %s", why);
}

int add_exclude(struct excludes *x, const char *glob, const char *where,
		int from_file)
{
	char why[256];
	int rc;

	if ((rc = over_limit(x, glob, where, from_file)) != 0)
		return rc;
	if (glob_check(glob, why, sizeof(why)) < 0) {
		if (from_file) {
			cmd_error("%s: '%s': %s", where, glob, why);
			return EXIT_OPERATIONAL;
		}
		return cmd_usage_error("--exclude '%s': %s", glob, why);
	}
	if (append(&x->glob, &x->n, glob) < 0 ||
	    append(&x->where, &x->nwhere, where) < 0)
		return -1;
	return 0;
}

int read_exclude_file(struct excludes *x, const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "re") : stdin;
	char *line = NULL, *where;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int rc = 0;

	if (!f) {
		cmd_error("cannot open '%s': %s", file, strerror(errno));
		return EXIT_OPERATIONAL;
	}
	if (append(&x->files, &x->nfiles, file) < 0) {
		if (f != stdin)
			fclose(f);
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		if (memchr(line, '\0', (size_t)len)) {
			cmd_error("%s:%zu: a NUL byte in the line", file, lineno);
			rc = EXIT_OPERATIONAL;
			break;
		}
		if (asprintf(&where, "%s:%zu", file, lineno) < 0 ||
		    own(x, where) < 0 || own(x, strdup(line)) < 0) {
			rc = -1;
			break;
		}
		rc = add_exclude(x, x->owned[x->nowned - 1], where, 1);
		if (rc != 0)
			break;
	}
	if (rc == 0 && ferror(f)) {
		cmd_error("cannot read '%s': %s", file, strerror(errno));
		rc = EXIT_OPERATIONAL;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

