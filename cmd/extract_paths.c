// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/extract_paths.c - the entries axfs extract IMAGE DIR PATH... writes */
#include "extract_paths.h"

#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "axfs_reader.h"

static int add_link(void *ctx, const char *path, uint64_t ino)
{
	struct extract_paths *s = ctx;
	char **n = cmd_grow(s->links, s->nlinks, &s->links_cap, sizeof(*n), 8);

	(void)ino;
	if (!n)
		return -1;
	s->links = n;
	s->links[s->nlinks] = strdup(path);
	if (!s->links[s->nlinks])
		return -1;
	s->nlinks++;
	return 0;
}

int extract_paths_resolve(struct extract_paths *s, struct axfs_image *img,
			  char **argv, int n)
{
	int failed = 0;

	memset(s, 0, sizeof(*s));
	s->all = n == 0;
	if (!n)
		return 0;
	s->roots = calloc((size_t)n, sizeof(*s->roots));
	if (!s->roots) {
		cmd_error("out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct axfs_error err;
		uint64_t ino;
		int rc;

		axfs_error_clear(&err);
		rc = axfs_image_resolve(img, argv[i], 0, &ino,
					&s->roots[s->nroots], add_link, s,
					&err);
		if (rc > 0 || rc == AXFS_ERR_NOMEM) {
			cmd_error("out of memory");
			return -1;
		}
		if (rc < 0) {
			cmd_error("%s", err.msg);
			failed = 1;
			continue;
		}
		s->nroots++;
	}
	return failed ? -1 : 0;
}

/* 1 when path is dir or below it; both without their leading '/' ("" is
 * the root). */
static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 0)
		return 1;
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

int extract_paths_wants(const struct extract_paths *s, const char *path)
{
	const char *p = path + (path[0] == '/');

	if (s->all)
		return 1;
	/* roots and links are resolved paths: "/" then components */
	for (size_t i = 0; i < s->nroots; i++)
		if (under(p, s->roots[i] + 1) || under(s->roots[i] + 1, p))
			return 1;
	for (size_t i = 0; i < s->nlinks; i++)
		if (under(s->links[i] + 1, p))
			return 1;
	return 0;
}

void extract_paths_free(struct extract_paths *s)
{
	for (size_t i = 0; i < s->nroots; i++)
		free(s->roots[i]);
	for (size_t i = 0; i < s->nlinks; i++)
		free(s->links[i]);
	free(s->roots);
	free(s->links);
	memset(s, 0, sizeof(*s));
}
