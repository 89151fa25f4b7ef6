// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/extract_dirs.c - axfs extract IMAGE DIR: the directories being
 * written, one level each from DIR down to the current one.
 *
 * Each directory is created 0700 (nobody else may look into what is
 * being written) and opened with O_NOFOLLOW; its descriptor is what its
 * entries are created relative to.  At most MAX_OPEN_DIRS stay open; a
 * closed one is reopened by name through its parents, never following a
 * symlink.  A directory gets its real owner, mode and time when it is
 * left, its contents written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "extract_tree.h"

static void close_far_levels(struct extract *x)
{
	/* Keep DIR (level 0) and the deepest ones open. */
	for (size_t k = 1; x->open_dirs > MAX_OPEN_DIRS && k < x->depth; k++) {
		if (x->lv[k].fd >= 0) {
			close(x->lv[k].fd);
			x->lv[k].fd = -1;
			x->open_dirs--;
		}
	}
}

int extract_open_dir(int pfd, const char *name)
{
	return openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		      O_CLOEXEC);
}

/* The descriptor of level k, reopened through its parents if closed. */
int extract_level_fd(struct extract *x, size_t k)
{
	int pfd;

	if (x->lv[k].fd >= 0)
		return x->lv[k].fd;
	pfd = extract_level_fd(x, k - 1);
	if (pfd < 0)
		return -1;
	x->lv[k].fd = extract_open_dir(pfd, x->lv[k].name);
	if (x->lv[k].fd < 0)
		return -1;
	x->open_dirs++;
	close_far_levels(x);
	return x->lv[k].fd;
}

/* Owner, mode and times of a finished directory (or of DIR itself). */
int extract_finish_dir(struct extract *x, size_t k, const char *path)
{
	struct level *l = &x->lv[k];
	int fd = extract_level_fd(x, k);

	if (fd < 0)
		return extract_fail(x, errno, "open directory", path);
	if (x->as_root && fchown(fd, l->in.uid, l->in.gid) < 0)
		return extract_fail(x, errno, "change the owner of", path);
	if (!x->as_root && (l->in.uid != geteuid() || l->in.gid != getegid()))
		x->not_owned++;
	if (fchmod(fd, extract_final_mode(x, l->in.mode)) < 0)
		return extract_fail(x, errno, "change the mode of", path);
	if (futimens(fd, x->times) < 0)
		return extract_fail(x, errno, "set the time of", path);
	return 0;
}

/* Path of level k (for messages). */
static const char *level_path(struct extract *x, size_t k, char *buf,
			      size_t len)
{
	size_t o = 0;

	if (k == 0)
		return "/";
	for (size_t i = 1; i <= k && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "/%s", x->lv[i].name);
	return buf;
}

/* Leaves every level deeper than `keep`, finishing each directory. */
int extract_pop_to(struct extract *x, size_t keep)
{
	char buf[512];

	while (x->depth > keep + 1) {
		size_t k = x->depth - 1;
		struct level *l = &x->lv[k];

		if (extract_finish_dir(x, k, level_path(x, k, buf, sizeof(buf))) < 0)
			return -1;
		if (l->fd >= 0) {
			close(l->fd);
			x->open_dirs--;
		}
		free(l->name);
		x->depth--;
	}
	return 0;
}

int extract_make_dir(struct extract *x, int pfd, const char *name,
		     const char *path, const struct axfs_inode_info *in)
{
	struct level *l, *n;
	int fd, reuse = 0;

	while (mkdirat(pfd, name, 0700) < 0) {
		if (errno != EEXIST)
			return extract_fail(x, errno, "create directory", path);
		if (extract_make_room(x, pfd, name, path, 1, &reuse) < 0)
			return -1;
		if (reuse)
			break;
	}
	fd = extract_open_dir(pfd, name);
	if (fd < 0)
		return extract_fail(x, errno, "open directory", path);
	n = cmd_grow(x->lv, x->depth, &x->cap, sizeof(*n), 64);
	if (!n) {
		close(fd);
		return extract_fail(x, ENOMEM, "create directory", path);
	}
	x->lv = n;
	l = &x->lv[x->depth];
	l->name = strdup(name);
	if (!l->name) {
		close(fd);
		return extract_fail(x, ENOMEM, "create directory", path);
	}
	l->fd = fd;
	l->in = *in;
	x->depth++;
	x->open_dirs++;
	close_far_levels(x);
	return 0;
}
